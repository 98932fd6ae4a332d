"""The scorer's form driven by HandEntry, through the running server: only the fields that apply to what
is typed are shown (asked again after each submit), a value a rule refuses is refused at its field with
the prompt's sentence, a total's rest is filled in and said, the summary comes before anything is
stored, and Record stores exactly the hand `scorepad hand` stores for the same values, once."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorepad.store.choice import open_store
from tests.conftest import Run, dump
from tests.web.serving import get, serving
from tests.web.test_scorer import post, scorer_url

SAME_SITE = {"Sec-Fetch-Site": "same-origin"}


def inputs(page: str) -> dict[str, str]:
    """Every input of the hand form, by name, with its value (the hidden ones too)."""
    form = page[page.index('class="hand-form"'):]
    form = form[:form.index("</form>")]
    return {html.unescape(m[0]): html.unescape(m[1]) for m in re.findall(r'<input[^>]* name="([^"]+)" value="([^"]*)"', form)}


def field_block(page: str, name: str) -> str:
    """The fieldset of one field (its inputs, and what was refused there)."""
    for block in re.findall(r"<fieldset>.*?</fieldset>", page):
        if f'name="v.{name}' in block:
            return str(block)
    raise AssertionError(f"no field {name} on the page")


def submit(url: str, page: str, typed: dict[str, str], do: str = "check",
           headers: dict[str, str] | None = None) -> tuple[int, str]:
    fields = {**inputs(page), **typed, "do": do}
    return post(url + "hand", fields, {**SAME_SITE, **(headers or {})})


def stored(db: Path, game: int) -> list[dict[str, Any]]:
    store = open_store(str(db))
    try:
        return [{"hand": h.hand, "points": h.points, "breakdown": h.breakdown, "events": h.events}
                for h in store.hands(game)]
    finally:
        store.close()


def test_a_spades_hand_from_the_form_is_what_hand_stores(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with serving("--scorer") as served:
        scorer = scorer_url(served.first_lines, served.process)
        page = get(scorer)[2]
        # the bids first, from the player after the dealer, then the tricks
        assert page.index('name="v.bid.1"') < page.index('name="v.bid.0"') < page.index('name="v.tricks.0"')
        typed = {"v.bid.0": "4", "v.bid.1": "3", "v.bid.2": "3", "v.bid.3": "3",
                 "v.tricks.0": "5", "v.tricks.1": "3", "v.tricks.2": "3", "v.tricks.3": ""}
        before = dump(db)
        status, page = submit(scorer, page, typed)
        assert status == 200 and dump(db) == before            # the summary: nothing stored yet
        assert "dan: tricks = 2 (the rest of the total)" in page   # the entry's note, said as the prompt says it
        assert inputs(page)["v.tricks.3"] == "2" and "worked out" in field_block(page, "tricks")
        assert "Hand 1, as read:" in page and "tricks: ann 5, bob 3, cat 3, dan 2" in page
        assert "= ann+cat: +71 (contract +70, bags +1)" in page
        status, done = submit(scorer, page, {}, "record")
        assert status == 200 and "Hand 1: ann+cat +71, bob+dan -60" in done, done
        assert submit(scorer, page, {}, "record")[0] == 200    # the double tap: the same form, its key
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert stored(db, 1) == stored(db, 2) and len(stored(db, 1)) == 1


def test_a_value_refused_where_it_is_typed_says_the_prompts_sentence(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    said = cli("hand", "bid=4,blind,3,3", "tricks=5,3,3,2").err.removeprefix("error: ").strip()
    assert "may bid blind nil only when" in said
    before = dump(db)
    with serving("--scorer") as served:
        scorer = scorer_url(served.first_lines, served.process)
        page = get(scorer)[2]
        typed = {"v.bid.0": "4", "v.bid.1": "blind", "v.bid.2": "3", "v.bid.3": "3",
                 "v.tricks.0": "5", "v.tricks.1": "3", "v.tricks.2": "3", "v.tricks.3": "2"}
        status, page = submit(scorer, page, typed)
        assert status == 422
        assert html.escape(said) in field_block(page, "bid") and html.escape(said) not in field_block(page, "tricks")
        assert inputs(page)["v.bid.1"] == "blind" and "Record" not in page.split('class="hand-form"')[1].split("</form>")[0]
        status, page = submit(scorer, page, typed, "record")   # Record without a summary shown stores nothing
        assert status == 422
    assert dump(db) == before


def test_a_bridge_hand_fields_follow_what_is_typed(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "bridge", "ann", "bob", "cat", "dan").code == 0
    with serving("--scorer") as served:
        scorer = scorer_url(served.first_lines, served.process)
        page = get(scorer)[2]
        assert 'name="v.contract"' in page and 'name="v.by"' in page
        status, passed = submit(scorer, page, {"v.contract": "pass"})
        assert status == 200 and 'name="v.by"' not in passed and 'name="v.result"' not in passed  # nothing more applies
        assert "contract: pass" in passed
        status, page = submit(scorer, passed, {"v.contract": "4H"})     # they apply again: asked, not yet scored
        assert status == 200 and 'name="v.by"' in page and 'name="v.result"' in page and "as read:" not in page
        status, page = submit(scorer, page, {"v.by": "NS", "v.result": "+1"})
        assert status == 200 and "Hand 1, as read:" in page and "result: +1" in page, page
        assert submit(scorer, page, {}, "record")[0] == 200
    assert cli("new", "bridge", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "contract=4H", "by=NS", "result=+1").code == 0
    assert stored(db, 1) == stored(db, 2) and len(stored(db, 1)) == 1


def test_a_skid_hand_with_russian_cards(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "skid", "ann", "Богдан", "cat").code == 0
    ru = {"Accept-Language": "ru"}
    with serving("--scorer") as served:
        scorer = scorer_url(served.first_lines, served.process)
        page = get(scorer, ru)[2]
        assert '<html lang="ru">' in page and "карты" in page
        assert 'name="v.jack"' not in page    # only when someone went out
        typed = {"v.out": "ann", "v.cards.1": "ДП 10Ч", "v.cards.2": "дама червей, туз бубен"}
        status, page = submit(scorer, page, typed, headers=ru)
        assert status == 200 and 'name="v.jack"' in page and 'class="summary"' not in page, page   # asked now
        status, page = submit(scorer, page, {"v.jack": "нет"}, headers=ru)
        assert status == 200 and 'class="summary"' in page, page
        assert submit(scorer, page, {}, "record", ru)[0] == 200
    assert cli("new", "skid", "ann", "Богдан", "cat").code == 0
    assert cli("--lang", "ru", "hand", "вышел=ann", "Богдан.карты=ДП 10Ч", "cat.карты=дама червей, туз бубен").code == 0
    assert stored(db, 1) == stored(db, 2) and len(stored(db, 1)) == 1


def test_a_bid_written_down_stands_and_only_the_play_is_asked(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("bid", "bid=4,3,3,3").code == 0
    with serving("--scorer") as served:
        scorer = scorer_url(served.first_lines, served.process)
        page = get(scorer)[2]
        form = page[page.index('class="hand-form"'):]
        assert "Bid for hand 1: bid: ann 4, bob 3, cat 3, dan 3" in form and 'name="v.bid' not in form
        status, page = submit(scorer, page, {f"v.tricks.{i}": t for i, t in enumerate("5332")})
        assert status == 200 and "bid: ann 4, bob 3, cat 3, dan 3" in page and 'class="summary"' in page
        assert submit(scorer, page, {}, "record")[0] == 200
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert stored(db, 1) == stored(db, 2) and len(stored(db, 1)) == 1


def test_record_stores_only_the_summary_shown_on_the_game_shown(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with serving("--scorer") as served:
        scorer = scorer_url(served.first_lines, served.process)
        typed = {**{f"v.bid.{i}": b for i, b in enumerate("4333")}, **{f"v.tricks.{i}": t for i, t in enumerate("5332")}}
        status, page = submit(scorer, get(scorer)[2], typed)
        assert status == 200 and "tricks: ann 5, bob 3, cat 3, dan 2" in page
        before = dump(db)
        status, again = submit(scorer, page, {"v.tricks.0": "4", "v.tricks.1": "4"}, "record")   # changed after the summary
        assert status == 200 and "tricks: ann 4, bob 4, cat 3, dan 2" in again and dump(db) == before
        assert cli("hand", "bid=3,3,3,3", "tricks=4,3,3,3").code == 0     # typed at a terminal meanwhile
        status, refused = submit(scorer, again, {}, "record")
        assert status == 422 and "changed since version 0" in refused, refused
    assert json.loads(cli("standings", "--json").out)["hands"] == 1
