"""A game's page (`scorepad sheet --format html`) as people look at it: a real Chromium at a desktop's
and a phone's width, an accessibility audit (axe-core), and screenshots under /tmp/ (and
test-artifacts/) for a person to look at. The game is the Skid game of tests/cli/test_sheet_formats.py.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.browser import ARTIFACTS, launched, serious_findings
from tests.cli.test_sheet_formats import skid, spades
from tests.conftest import Run


@pytest.mark.slow
@pytest.mark.parametrize("game", ["skid", "spades"])
def test_game_page_on_a_phone_and_a_desktop(cli: Callable[..., Run], tmp_path: Path, chromium: str,
                                            game: str) -> None:
    (skid if game == "skid" else spades)(cli)
    page_path = tmp_path / "sheet.html"
    assert cli("sheet", "--format", "html", "--output", str(page_path)).code == 0
    with launched(chromium) as b:
        for width in (1280, 390):
            page = b.new_page(viewport={"width": width, "height": 844})
            page.goto(page_path.as_uri())
            assert serious_findings(page) == [], width
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            # the chart: one line per side, the threshold drawn inside it, every event ringed
            svg = page.locator("svg[role=img]")
            assert svg.count() == 1 and svg.locator("g.series").count() == (3 if game == "skid" else 2)
            chart_box = svg.bounding_box()
            line = svg.locator("g.threshold line[stroke='#b00']")
            assert line.count() == 1
            line_box = line.bounding_box()
            assert chart_box and line_box and chart_box["y"] < line_box["y"] < chart_box["y"] + chart_box["height"]
            assert svg.locator("g.event").count() == (4 if game == "skid" else 1)
            for label in svg.locator("text").all():   # numbers on the chart readable on a phone
                box = label.bounding_box()
                assert box is not None and box["height"] >= 9, (width, box)
            # the sheet: a row per hand; its notes say what the rings mark
            rows = page.locator("table tbody tr")
            assert rows.count() == (5 if game == "skid" else 2)
            if game == "skid":
                assert "cat goes past 125 with 140 and is out" in rows.nth(3).inner_text()
            shot = f"sheet-{game}-{width}.png"
            page.screenshot(path=str(ARTIFACTS / shot), full_page=True)
            page.screenshot(path=f"/tmp/scorepad-{shot}", full_page=True)
            page.close()
