"""The live page in a real Chromium (Debian's, through Playwright): two pages open, a hand typed at a
terminal on both within a second, the winner when the game ends, the next game after a rematch; an
axe-core audit without serious or critical findings, light and dark; screenshots at 390 and 1280 px."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.app.test_season import browser
from tests.conftest import Run
from tests.web.serving import serving

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture
def chromium() -> str:
    exe = browser()
    try:
        import axe_playwright_python  # noqa: F401
        import playwright.sync_api  # noqa: F401
    except ImportError:
        exe = None
    if exe is None:
        if os.environ.get("SCOREPAD_REQUIRE_BROWSER") == "1":
            pytest.fail("the browser test needs chromium, playwright and axe-playwright-python (the CI installs them)")
        pytest.skip("chromium, playwright or axe-playwright-python is not installed")
    return exe


def audit(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page, as 'rule: first element' lines."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['nodes'][0]['html'][:120]}" for v in found if v["impact"] in ("serious", "critical")]


def shown_within(page: Any, text: str, since: float, where: str = "#live") -> float:
    """Seconds from `since` until the page's live part shows `text` (waited for by Playwright's own
    selectors: the page's Content-Security-Policy refuses the eval that a waiting function would need)."""
    page.locator(where, has_text=text).wait_for(timeout=3000)
    return time.monotonic() - since


@pytest.mark.slow
def test_the_live_page_in_chromium(cli: Callable[..., Run], chromium: str) -> None:
    from playwright.sync_api import sync_playwright

    artifacts = Path(os.environ.get("SCOREPAD_ARTIFACTS", Path(__file__).parents[2] / "test-artifacts"))
    artifacts.mkdir(parents=True, exist_ok=True)
    assert cli("new", "spades", "Annabella-Maria", "Bartholomew", "Catherine", "Dmitri", "--opt", "target=300").code == 0
    for hand in (["bid=4,3,3,3", "tricks=5,3,3,2"], ["bid=3,4,2,3", "tricks=3,5,2,3"], ["bid=5,2,4,2", "tricks=5,2,4,2"]):
        assert cli("hand", *hand).code == 0
    assert cli("bid", "bid=2,4,3,4").code == 0
    with serving() as served, sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=ARGS)
        try:
            phone = b.new_page(viewport={"width": 390, "height": 844}, locale="en-US")
            desk = b.new_page(viewport={"width": 1280, "height": 900}, locale="ru-RU",
                              extra_http_headers={"Accept-Language": "ru-RU,ru;q=0.9"})
            for page in (phone, desk):
                page.goto(served.url)
                page.locator("#live h1").wait_for()
                assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
                assert audit(page) == []
            assert phone.locator("html").get_attribute("lang") == "en"
            assert desk.locator("html").get_attribute("lang") == "ru"
            assert "Bid for hand 4: bid=2,4,3,4" in phone.inner_text("main")
            # the scores can be read across the table: the totals' figures at least 44 px high on a phone
            size = phone.locator(".side .score").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
            assert size >= 44, size
            for page, width in ((phone, 390), (desk, 1280)):
                page.screenshot(path=str(artifacts / f"serve-{width}.png"), full_page=True)
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
                assert audit(page) == []
                page.screenshot(path=str(artifacts / f"serve-finished-{width}.png"), full_page=True)
                page.screenshot(path=f"/tmp/scorepad-serve-finished-{width}.png", full_page=True)
            # a rematch moves both pages to the new game
            assert cli("rematch").code == 0
            moved = time.monotonic()
            assert shown_within(phone, "Game 2", moved, "#live h1") < 1.0
            assert shown_within(desk, "2", moved, "#live h1") < 1.0
            # the dark theme of a dim room passes the audit too
            dark = b.new_page(viewport={"width": 390, "height": 844}, color_scheme="dark")
            dark.goto(served.url)
            background = dark.evaluate("getComputedStyle(document.body).backgroundColor")
            assert background == "rgb(16, 19, 23)", background
            assert audit(dark) == []
            dark.screenshot(path=str(artifacts / "serve-dark-390.png"), full_page=True)
            dark.screenshot(path="/tmp/scorepad-serve-dark-390.png", full_page=True)
            # the page without its token is a 404, in the browser too
            answer = phone.goto(served.origin + "/t/not-the-token/")
            assert answer is not None and answer.status == 404
        finally:
            b.close()


@pytest.mark.slow
def test_the_scorer_form_in_chromium(cli: Callable[..., Run], chromium: str) -> None:
    """The scorer types a hand on a phone: the viewer's page shows it; a refused hand shows `hand`'s
    message with what was typed kept; the form passes the audit."""
    from playwright.sync_api import sync_playwright

    artifacts = Path(os.environ.get("SCOREPAD_ARTIFACTS", Path(__file__).parents[2] / "test-artifacts"))
    artifacts.mkdir(parents=True, exist_ok=True)
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with serving("--scorer") as served, sync_playwright() as p:
        assert served.process.stdout is not None
        scorer = served.process.stdout.readline().strip()
        b = p.chromium.launch(executable_path=chromium, args=ARGS)
        try:
            viewer = b.new_page(viewport={"width": 1280, "height": 900})
            viewer.goto(served.url)
            phone = b.new_page(viewport={"width": 390, "height": 844})
            phone.goto(scorer)
            assert audit(phone) == []
            for i, (bid, tricks) in enumerate(zip("4333", "5333", strict=True)):
                phone.fill(f"input[name='v.bid.{i}']", bid)
                phone.fill(f"input[name='v.tricks.{i}']", tricks)
            phone.click("form.hand-form button")
            assert "the tricks must add up to 13, they add up to 14" in phone.locator(".refused").inner_text()
            assert phone.input_value("input[name='v.tricks.3']") == "3"
            assert audit(phone) == []
            phone.screenshot(path=str(artifacts / "serve-scorer-refused-390.png"), full_page=True)
            phone.screenshot(path="/tmp/scorepad-serve-scorer-refused-390.png", full_page=True)
            phone.fill("input[name='v.tricks.3']", "")     # left to the total: the entry fills it in
            phone.click("form.hand-form button")
            assert phone.input_value("input[name='v.tricks.3']") == "2"
            assert "= ann+cat: +71 (contract +70, bags +1)" in phone.locator(".summary").inner_text()
            assert audit(phone) == []
            phone.screenshot(path=str(artifacts / "serve-scorer-summary-390.png"), full_page=True)
            phone.screenshot(path="/tmp/scorepad-serve-scorer-summary-390.png", full_page=True)
            typed = time.monotonic()
            phone.click("form.hand-form button.record")
            assert "Hand 1: ann+cat +71, bob+dan -60" in phone.locator(".stored").inner_text()
            assert shown_within(viewer, "after 1 hand", typed, "#live .sub") < 1.5
            assert cli("standings", "--json").out.count('"hands": 1') == 1
        finally:
            b.close()
