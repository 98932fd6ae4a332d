"""The HTML season report as people look at it: a real Chromium at a desktop's and a phone's width.

Eleven players with long names (one of them called `<!--<script>`, which must stay a name),
three rulesets, one player with a single rated game. Screenshots of both widths are saved under
/tmp/ (and test-artifacts/) for a person to look at.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.browser import ARTIFACTS, launched, serious_findings
from tests.conftest import Run

PEOPLE = ["Annabella-Maria", "Bartholomew", "Catherine", "Dmitri", "Evelyn", "Fjodor", "Gertrud",
          "Heinrich", "Ingeborg", "Jaroslava", "<!--<script>"]
ONCE = "Kristjan-Konstantin"   # plays one game only: his rating line is a single point


def play(cli: Callable[..., Run]) -> list[dict[str, object]]:
    """22 games of Spades, Hearts and Skid among the eleven, and one more with the twelfth player."""
    out = []
    n = len(PEOPLE)
    for i in range(22):
        a, b, c, d = (PEOPLE[(i + k) % n] for k in (0, 3, 5, 8))
        kind = i % 3
        if kind == 0:
            assert cli("new", "spades", a, b, c, d, "--opt", "target=100").code == 0
            assert cli("hand", "bid=6,3,6,3", "tricks=7,0,6,0").code == 0
        elif kind == 1:
            assert cli("new", "hearts", a, b, c, d).code == 0
            for _ in range(4):
                assert cli("hand", "hearts=13,0,0,0", f"queen={a}").code == 0
        else:
            assert cli("new", "skid", a, b).code == 0
            assert cli("hand", f"out={a}", f"{b}.cards=QS JH JD JC JS").code == 0
        out.append(json.loads(cli("standings", "--json").out))
    assert cli("new", "skid", ONCE, PEOPLE[0]).code == 0
    assert cli("hand", f"out={ONCE}", f"{PEOPLE[0]}.cards=QS JH JD JC JS").code == 0
    out.append(json.loads(cli("standings", "--json").out))
    return out


@pytest.mark.slow
def test_report_on_a_phone_and_a_desktop(cli: Callable[..., Run], tmp_path: Path, chromium: str) -> None:
    games = play(cli)
    page_path = tmp_path / "season.html"
    old = os.umask(0o022)
    try:
        assert cli("season", "--format", "html", "--output", str(page_path)).code == 0
    finally:
        os.umask(old)
    # a report is meant to be shared: the user's umask decides, as for any file he creates
    assert stat.S_IMODE(page_path.stat().st_mode) == 0o644
    data = json.loads(cli("season", "--format", "json").out)
    with launched(chromium) as b:
        for width in (1280, 390):
            page = b.new_page(viewport={"width": width, "height": 844})
            page.goto(page_path.as_uri())
            assert serious_findings(page) == [], width
            # nothing makes the page scroll sideways
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            sections = page.locator("section[data-ruleset]")
            assert [sections.nth(k).get_attribute("data-ruleset") for k in range(sections.count())] == \
                [board["ruleset"] for board in data["rulesets"]]
            for k, board in enumerate(data["rulesets"]):
                section = sections.nth(k)
                heads = section.locator("table").first.locator("thead th")
                shown = [heads.nth(i) for i in range(heads.count()) if heads.nth(i).is_visible()]
                names = [h.inner_text().strip() for h in shown]
                if width == 1280:   # every column, none cut off
                    assert names[:5] == ["rank", "player", "rating", "games", "wins"] and "last5" in names
                    assert len(names) == heads.count()
                else:               # a phone: player, games, wins and rating without a tap
                    assert names == ["rank", "player", "rating", "games", "wins"], names
                for h in shown:
                    box = h.bounding_box()
                    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (width, names)
                # the rating legend: every player of this game, each name whole and inside the screen
                legend = section.locator("svg[aria-label^='ratings'] + .legend")
                items = legend.locator("span")
                texts = items.all_inner_texts()
                assert sorted(n for t in texts for n in t.strip().split(", ")) == \
                    sorted(r["player"] for r in board["players"])
                for i in range(items.count()):
                    box = items.nth(i).bounding_box()
                    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, texts[i]
                colours = legend.locator("i").evaluate_all("els => els.map(e => getComputedStyle(e).backgroundColor)")
                assert len(set(colours)) == len(colours) == len(texts)
                # the chart's numbers are readable: at least 9 px high as drawn
                for label in section.locator("svg text.axis").all():
                    box = label.bounding_box()
                    assert box is not None and box["height"] >= 9, (width, box)
            if width == 390:   # the rest of the columns behind a tap
                toggle = sections.first.locator("button.toggle").first   # the leaderboard's (a statistics table has its own)
                toggle.click()
                assert toggle.get_attribute("aria-expanded") == "true"
                assert sections.first.locator("thead th", has_text="last5").is_visible()
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                assert serious_findings(page) == []
                toggle.click()
            # each game card says who won and the final scores
            cards = page.locator("figure.game")
            assert cards.count() == len(games)
            texts = {int(cards.nth(k).get_attribute("data-game") or 0): cards.nth(k).inner_text()
                     for k in range(cards.count())}
            for g in games:
                text = texts[int(g["game"])]  # type: ignore[call-overload]
                assert f"Won by {', '.join(g['winner'] or [])}" in text, text  # type: ignore[arg-type]
                for side in g["sides"]:  # type: ignore[union-attr]
                    assert re.search(rf"{re.escape(side['name'])} {side['score']}\b", text), (side, text)
            # the embedded data is intact (the player `<!--<script>` did not end the script) and sorting works
            rows = page.evaluate("JSON.parse(document.getElementById('season-data').textContent)")
            assert "<!--<script>" in {r["player"] for r in rows}
            header = page.locator("#overall-table thead th button", has_text="wins").first
            header.click()
            header.click()
            col = page.locator("#overall-table thead th").all_inner_texts().index("wins")
            first = page.locator("#overall-table tbody tr").first.locator("td").all_inner_texts()
            assert int(first[col]) == max(r["wins"] for r in rows)
            shot = f"season-report-{width}.png"
            page.screenshot(path=str(ARTIFACTS / shot), full_page=True)
            page.screenshot(path=f"/tmp/scorepad-{shot}", full_page=True)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=f"/tmp/scorepad-top-{shot}")
            page.close()


@pytest.mark.slow
def test_report_in_russian_in_the_browser(cli: Callable[..., Run], tmp_path: Path, chromium: str) -> None:
    """The page of a Russian reader: <html lang="ru">, Russian headings and results, numbers and dates in
    the Russian form, and the table still sorts by a (translated) column."""
    games = play(cli)
    page_path = tmp_path / "season-ru.html"
    assert cli("--lang", "ru", "season", "--format", "html", "--output", str(page_path)).code == 0
    with launched(chromium) as b:
        page = b.new_page(viewport={"width": 390, "height": 844})
        page.goto(page_path.as_uri())
        assert page.evaluate("document.documentElement.lang") == "ru"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.locator("h3", has_text="Рейтинг").count() == 3 and page.locator("h3", has_text="Игры").count() == 3
        assert page.locator("h2", has_text="Пики").count() == 1 and page.locator("h2", has_text="Скид").count() == 1
        cards = page.locator("figure.game")
        assert cards.count() == len(games)
        assert "Победа:" in cards.first.inner_text() and "Игра " in cards.first.inner_text()
        headers = page.locator("#overall-table thead th").all_inner_texts()
        assert "игрок" in headers and "побед" in headers and "wins" not in headers
        header = page.locator("#overall-table thead th button", has_text="побед").first
        header.click()
        header.click()
        data = page.evaluate("JSON.parse(document.getElementById('season-data').textContent)")
        first = page.locator("#overall-table tbody tr").first.locator("td").all_inner_texts()
        assert int(first[headers.index("побед")]) == max(r["wins"] for r in data)
