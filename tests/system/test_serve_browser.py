"""The live page in a real Chromium (Debian's, through Playwright): two pages open, a hand typed at a
terminal on both within a second, the winner when the game ends, the next game after a rematch; an
axe-core audit without serious or critical findings, light and dark; screenshots at 390 and 1280 px."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.browser import ARTIFACTS, launched, serious_findings
from tests.conftest import Run
from tests.web.serving import serving


def shown_within(page: Any, text: str, since: float, where: str = "#live") -> float:
    """Seconds from `since` until the page's live part shows `text` (waited for by Playwright's own
    selectors: the page's Content-Security-Policy refuses the eval that a waiting function would need)."""
    page.locator(where, has_text=text).wait_for(timeout=3000)
    return time.monotonic() - since


@contextmanager
def scorer_in_chromium(chromium: str, *serve_args: str) -> Iterator[tuple[Any, str, Any]]:
    """`serve --scorer` started and Chromium launched: (the server, the scorer's address, the browser);
    both stopped at the end."""
    with serving("--scorer", *serve_args) as served, launched(chromium) as b:
        assert served.process.stdout is not None
        yield served, served.process.stdout.readline().strip(), b


@pytest.mark.slow
def test_the_live_page_in_chromium(cli: Callable[..., Run], chromium: str) -> None:
    assert cli("new", "spades", "Annabella-Maria", "Bartholomew", "Catherine", "Dmitri", "--opt", "target=300").code == 0
    for hand in (["bid=4,3,3,3", "tricks=5,3,3,2"], ["bid=3,4,2,3", "tricks=3,5,2,3"], ["bid=5,2,4,2", "tricks=5,2,4,2"]):
        assert cli("hand", *hand).code == 0
    assert cli("bid", "bid=2,4,3,4").code == 0
    with serving() as served, launched(chromium) as b:
        phone = b.new_page(viewport={"width": 390, "height": 844}, locale="en-US")
        desk = b.new_page(viewport={"width": 1280, "height": 900}, locale="ru-RU",
                          extra_http_headers={"Accept-Language": "ru-RU,ru;q=0.9"})
        for page in (phone, desk):
            page.goto(served.url)
            page.locator("#live h1").wait_for()
            assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
            assert serious_findings(page) == []
        assert phone.locator("html").get_attribute("lang") == "en"
        assert desk.locator("html").get_attribute("lang") == "ru"
        assert "Bid for hand 4: bid=2,4,3,4" in phone.inner_text("main")
        # the game's chart, with the target of this game (300) as a dashed line, inside the page's width
        assert phone.locator('.story svg .threshold[data-value="300.0"]').count() == 1
        box = phone.locator(".story svg").first.bounding_box()
        assert box is not None and box["width"] <= 390 and box["height"] > 150, box
        # the scores can be read across the table: the totals' figures at least 44 px high on a phone
        size = phone.locator(".side .score").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert size >= 44, size
        for page, width in ((phone, 390), (desk, 1280)):
            page.screenshot(path=str(ARTIFACTS / f"serve-{width}.png"), full_page=True)
            page.screenshot(path=f"/tmp/scorepad-serve-{width}.png", full_page=True)
        # a hand typed at a terminal shows on both pages within a second
        typed = time.monotonic()
        assert cli("hand", "tricks=3,4,3,3").code == 0
        totals = cli("standings", "--json").out
        assert '"hands": 4' in totals
        delays = [shown_within(phone, "after 4 hands", typed, "#live .sub"),
                  shown_within(desk, "после 4 раздач", typed, "#live .sub")]
        assert max(delays) < 1.0, delays
        # the game ends: the winner is named, in each page's language
        assert cli("hand", "bid=7,3,5,3", "tricks=7,0,6,0").code == 0
        ended = time.monotonic()
        assert shown_within(phone, "Finished: Annabella-Maria+Catherine won", ended, "#live .winner") < 1.0
        assert shown_within(desk, "Игра окончена: победа — Annabella-Maria+Catherine", ended, "#live .winner") < 1.0
        for page, width in ((phone, 390), (desk, 1280)):
            assert serious_findings(page) == []
            page.screenshot(path=str(ARTIFACTS / f"serve-finished-{width}.png"), full_page=True)
            page.screenshot(path=f"/tmp/scorepad-serve-finished-{width}.png", full_page=True)
        # the dark theme of a dim room passes the audit too, its chart drawn in the dark colours
        dark = b.new_page(viewport={"width": 390, "height": 844}, color_scheme="dark")
        dark.goto(served.url)
        background = dark.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(16, 19, 23)", background
        assert serious_findings(dark) == []
        dark.screenshot(path=str(ARTIFACTS / "serve-dark-390.png"), full_page=True)
        dark.screenshot(path="/tmp/scorepad-serve-dark-390.png", full_page=True)
        # a rematch moves both pages to the new game
        assert cli("rematch").code == 0
        moved = time.monotonic()
        assert shown_within(phone, "Game 2", moved, "#live h1") < 1.0
        assert shown_within(desk, "2", moved, "#live h1") < 1.0
        # the page without its token is a 404, in the browser too
        answer = phone.goto(served.origin + "/t/not-the-token/")
        assert answer is not None and answer.status == 404


@pytest.mark.slow
def test_the_scorer_form_in_chromium(cli: Callable[..., Run], chromium: str) -> None:
    """The scorer types a hand on a phone: the viewer's page shows it; a refused hand shows `hand`'s
    message with what was typed kept; the form passes the audit."""
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with scorer_in_chromium(chromium) as (served, scorer, b):
        viewer = b.new_page(viewport={"width": 1280, "height": 900})
        viewer.goto(served.url)
        phone = b.new_page(viewport={"width": 390, "height": 844})
        phone.goto(scorer)
        assert serious_findings(phone) == []
        for i, (bid, tricks) in enumerate(zip("4333", "5333", strict=True)):
            phone.fill(f"input[name='v.bid.{i}']", bid)
            phone.fill(f"input[name='v.tricks.{i}']", tricks)
        phone.click("form.hand-form button")
        assert "the tricks must add up to 13, they add up to 14" in phone.locator(".refused").inner_text()
        assert phone.input_value("input[name='v.tricks.3']") == "3"
        assert serious_findings(phone) == []
        phone.screenshot(path=str(ARTIFACTS / "serve-scorer-refused-390.png"), full_page=True)
        phone.screenshot(path="/tmp/scorepad-serve-scorer-refused-390.png", full_page=True)
        phone.fill("input[name='v.tricks.3']", "")     # left to the total: the entry fills it in
        phone.click("form.hand-form button")
        assert phone.input_value("input[name='v.tricks.3']") == "2"
        assert "= ann+cat: +71 (contract +70, bags +1)" in phone.locator(".summary").inner_text()
        assert serious_findings(phone) == []
        phone.screenshot(path=str(ARTIFACTS / "serve-scorer-summary-390.png"), full_page=True)
        phone.screenshot(path="/tmp/scorepad-serve-scorer-summary-390.png", full_page=True)
        typed = time.monotonic()
        phone.click("form.hand-form button.record")
        assert "Hand 1: ann+cat +71, bob+dan -60" in phone.locator(".stored").inner_text()
        assert shown_within(viewer, "after 1 hand", typed, "#live .sub") < 1.5
        assert cli("standings", "--json").out.count('"hands": 1') == 1


@pytest.mark.slow
def test_bids_written_down_from_the_scorer_form_in_chromium(cli: Callable[..., Run], chromium: str) -> None:
    """The scorer writes the bids down before the play, then types the tricks: the hand scores as
    `scorepad hand` scores the same bids and tricks (Spades: ann+cat bid 7, take 8: +71; bob+dan bid 6,
    take 5: -60), and the page with the bid passes the audit."""
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with scorer_in_chromium(chromium) as (_served, scorer, b):
        phone = b.new_page(viewport={"width": 390, "height": 844})
        phone.goto(scorer)
        for i, bid in enumerate("4333"):
            phone.fill(f"input[name='v.bid.{i}']", bid)
        phone.click("form.hand-form button[formaction='bid']")
        bid = phone.locator("p.bid").inner_text()
        assert bid == "Bid for hand 1: bid: ann 4, bob 3, cat 3, dan 3", bid   # no blind bid: they are off
        assert phone.locator("input[name='v.bid.0']").count() == 0   # written down: not asked again
        assert serious_findings(phone) == []
        phone.screenshot(path=str(ARTIFACTS / "serve-scorer-bid-390.png"), full_page=True)
        for i, tricks in enumerate("533"):
            phone.fill(f"input[name='v.tricks.{i}']", tricks)
        phone.click("form.hand-form button")
        assert "= ann+cat: +71 (contract +70, bags +1)" in phone.locator(".summary").inner_text()
        phone.click("form.hand-form button.record")
        assert "Hand 1: ann+cat +71, bob+dan -60" in phone.locator(".stored").inner_text()
    log = cli("log").out
    assert sum(" bid " in line for line in log.splitlines()) == 1
    assert [s["score"] for s in json.loads(cli("standings", "--json").out)["sides"]] == [71, -60]


@pytest.mark.slow
def test_a_skid_and_a_bridge_hand_from_the_scorer_form_in_chromium(cli: Callable[..., Run], chromium: str) -> None:
    """A Skid hand typed with Russian cards on a phone whose language is Russian, and a bridge contract:
    each stored as the command line stores the same hand (the same points and totals), and each page
    passes the audit. Skid: ann goes out; Богдан holds ДП 10Ч (the queen of spades 50 + 10♥ 10 = 60),
    cat Q♥ A♦ (10 + 15 = 25). Bridge: 4♥ by NS, one over: 120 below the line, 30 above."""
    assert cli("new", "skid", "ann", "Богдан", "cat").code == 0
    assert cli("new", "bridge", "ann", "bob", "cat", "dan").code == 0
    with scorer_in_chromium(chromium, "--game", "1") as (_served, scorer, b):
        phone = b.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU").new_page()
        phone.goto(scorer)
        assert phone.locator("html").get_attribute("lang") == "ru"
        phone.fill("input[name='v.out']", "ann")
        phone.fill("input[name='v.cards.1']", "ДП 10Ч")
        phone.fill("input[name='v.cards.2']", "дама червей, туз бубен")
        phone.click("form.hand-form button")
        phone.fill("input[name='v.jack']", "нет")   # asked once someone went out
        phone.click("form.hand-form button")
        summary = phone.locator(".summary").inner_text()
        assert "Богдан Д♠ 10♥, cat Д♥ Т♦" in summary, summary   # the cards as a Russian player writes them
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390   # nothing wider than the phone
        assert serious_findings(phone) == []
        phone.screenshot(path=str(ARTIFACTS / "serve-scorer-skid-ru-390.png"), full_page=True)
        phone.click("form.hand-form button.record")
        assert phone.locator(".stored").count() == 1
    with scorer_in_chromium(chromium, "--game", "2") as (_served, scorer, b):
        phone = b.new_page(viewport={"width": 390, "height": 844})
        phone.goto(scorer)
        phone.fill("input[name='v.contract']", "4H")
        phone.click("form.hand-form button")
        phone.fill("input[name='v.by']", "NS")        # asked once a contract is typed
        phone.fill("input[name='v.result']", "+1")
        phone.click("form.hand-form button")
        assert "result: +1" in phone.locator(".summary").inner_text()
        assert serious_findings(phone) == []
        phone.click("form.hand-form button.record")
        assert phone.locator(".stored").count() == 1
    assert cli("new", "skid", "ann", "Богдан", "cat").code == 0
    assert cli("--lang", "ru", "hand", "вышел=ann", "Богдан.карты=ДП 10Ч", "cat.карты=дама червей, туз бубен").code == 0
    assert cli("new", "bridge", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "contract=4H", "by=NS", "result=+1").code == 0

    def scores(game: int) -> list[Any]:
        data = json.loads(cli("standings", "--json", "--game", str(game)).out)
        return [(s["score"], s.get("counters")) for s in data["sides"]]

    assert scores(1) == scores(3) and scores(2) == scores(4)
    assert [s for s, _ in scores(1)] == [0, 60, 25]
