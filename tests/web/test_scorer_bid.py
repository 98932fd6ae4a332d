"""The bids written down from the scorer's form before the play, as `scorepad bid` writes them: the form
of a game that bids offers it while no bid is written down, a bid a rule refuses is refused at its
field with the sentence `bid` prints and nothing stored, a double tap writes one bid, and the hand
completed on the form scores as `hand` scores it (Spades' bids, a bridge contract)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Run, dump
from tests.web.serving import get, serving
from tests.web.test_scorer import form_of, post, scorer_url

BUTTON = 'value="bid" formaction="bid"'


def test_spades_bids_from_the_form_then_the_play(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    said = cli("bid", "bid=4,3,3,14")
    assert said.code == 2
    message = said.err.removeprefix("error: ").strip().splitlines()[0]
    before = dump(db)
    with serving("--scorer") as served:
        scorer = scorer_url(served.first_lines, served.process)
        same_site = {"Origin": served.origin, "Sec-Fetch-Site": "same-origin"}
        page = get(scorer)[2]
        assert BUTTON in page
        bids = {"v.bid.0": "4", "v.bid.1": "3", "v.bid.2": "3", "v.bid.3": "14", **form_of(page)}
        status, page = post(scorer + "bid", bids, same_site)
        assert status == 422 and message in page and 'value="14"' in page, page
        assert dump(db) == before
        bids["v.bid.3"] = "4"
        status, page = post(scorer + "bid", bids, same_site)
        assert status == 200 and "Bid for hand 1: bid: ann 4, bob 3, cat 3, dan 4" in page, page
        assert BUTTON not in page and 'name="v.bid.0"' not in page   # written down: not asked again
        assert post(scorer + "bid", bids, same_site)[0] == 200   # the double tap: one bid
        assert [line for line in cli("log").out.splitlines() if " bid " in line] != []
        assert sum(" bid " in line for line in cli("log").out.splitlines()) == 1
        # another bid on the form it was shown with: the game moved on, nothing is written
        status, page = post(scorer + "bid", {**bids, "v.bid.3": "5"}, same_site)
        assert status == 422 and "changed since version" in page
        standing = json.loads(cli("standings", "--json").out)
        assert standing["bid"] == ["bid=4,3,3,4"]
        # the play, on the form that follows
        fields = {**{f"v.tricks.{i}": v for i, v in enumerate("5332")}, **form_of(page)}
        status, page = post(scorer + "hand", fields, same_site)
        assert status == 200 and "= ann+cat: +71" in page, page
        status, page = post(scorer + "hand", {**fields, **form_of(page), "do": "record"}, same_site)
        assert status == 200 and "Hand 1: ann+cat +71, bob+dan -70" in page, page
        assert BUTTON in page   # the next hand's bids may be written down first again
    by_form = json.loads(cli("standings", "--json").out)
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("bid", "bid=4,3,3,4").code == 0 and cli("hand", "tricks=5,3,3,2").code == 0
    by_cli = json.loads(cli("standings", "--json").out)
    assert [s["score"] for s in by_form["sides"]] == [s["score"] for s in by_cli["sides"]]


def test_a_bridge_contract_from_the_form(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "bridge", "ann", "bob", "cat", "dan").code == 0
    assert cli("new", "skid", "eve", "fay").code == 0
    with serving("--scorer", "--game", "1") as served:
        scorer = scorer_url(served.first_lines, served.process)
        page = get(scorer)[2]
        status, page = post(scorer + "bid", {"v.contract": "4S", "v.by": "ann", **form_of(page)})
        assert status == 200 and "Bid for hand 1: contract: 4S; by: NS" in page, page
        assert json.loads(cli("standings", "--json", "--game", "1").out)["bid"] == ["contract=4S", "by=ann"]
        play = {"v.tricks": "10", "v.honors": ""}
        status, page = post(scorer + "hand", {**play, **form_of(page)})
        assert status == 200 and "= NS: " in page, page
        status, page = post(scorer + "hand", {**play, **form_of(page), "do": "record"})
        assert status == 200 and "Hand 1:" in page, page
    with serving("--scorer", "--game", "2") as served:   # Skid bids nothing: no such button
        assert BUTTON not in get(scorer_url(served.first_lines, served.process))[2]
    assert cli("new", "bridge", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "contract=4S", "by=ann", "tricks=10").code == 0
    assert json.loads(cli("standings", "--json", "--game", "1").out)["sides"] == \
        json.loads(cli("standings", "--json", "--game", "3").out)["sides"]
