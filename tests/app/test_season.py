"""A season of 32 games over four rulesets: the table, its formats, and the HTML report in a browser."""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.browser import ARTIFACTS, browser, launched
from tests.conftest import Run

PEOPLE = ["ann", "bob", "cat", "dan", "eve", "fay"]
LOWEST_WINS = {"hearts", "skid"}


def seat(i: int, n: int) -> list[str]:
    return [PEOPLE[(i + k) % len(PEOPLE)] for k in range(n)]


def play_season(cli: Callable[..., Run]) -> list[dict[str, object]]:
    """32 games: Spades, Hearts, Marjas, Skid; every 7th one left unfinished. Returns each game's standings."""
    ids = []
    for i in range(32):
        kind = ["spades", "hearts", "marjas", "skid"][i % 4]
        unfinished = i % 7 == 6
        if kind == "spades":
            p = seat(i, 4)
            cli("new", "spades", *p, "--opt", f"target={500 if unfinished else 100}")
            bids = "bid=6,3,6,3 tricks=7,0,6,0" if i % 8 < 4 else "bid=3,6,3,6 tricks=0,7,0,6"
            assert cli("hand", *bids.split()).code == 0
        elif kind == "hearts":
            p = seat(i, 4)
            cli("new", "hearts", *p)
            for _ in range(1 if unfinished else 4):   # four moons by the first player: the others reach 104
                assert cli("hand", "hearts=13,0,0,0", f"queen={p[0]}").code == 0
        elif kind == "marjas":
            p = seat(i, 4)
            cli("new", "marjas", *p)
            who = p[i % 2]
            assert cli("hand", f"trump={who}", f"{who}.extra=3", f"matt={who}", f"last={who}").code == 0
            if not unfinished:
                assert cli("hand", f"trump={who}", f"{who}.extra=1", f"matt={who}", f"last={who}").code == 0
        else:
            p = seat(i, 2)
            cli("new", "skid", *p)
            cards = "QS JH JD JC JS" if not unfinished else "JH"
            assert cli("hand", f"out={p[0]}", f"{p[1]}.cards={cards}").code == 0
        ids.append(json.loads(cli("standings", "--json").out))
    return ids


def expected_table(games: list[dict[str, object]]) -> dict[str, dict[str, float]]:
    """Per player, computed here from each game's final standings (not by the season module)."""
    table: dict[str, dict[str, float]] = {}
    for g in games:
        sides = g["sides"]  # type: ignore[index]
        lowest = g["ruleset"] in LOWEST_WINS
        winners = set(g["winner"] or [])  # type: ignore[arg-type]
        if not g["finished"]:   # listed apart: no game, no points
            continue
        for side in sides:  # type: ignore[union-attr]
            place = 1 + sum(1 for other in sides if better(other, side, winners, lowest))  # type: ignore[union-attr]
            for player in side["players"]:
                row = table.setdefault(player, {"games": 0, "wins": 0, "draws": 0, "losses": 0, "points": {},
                                                "places": {}, "decided": 0})
                row["games"] += 1
                by = row["points"]
                by[g["ruleset"]] = by.get(g["ruleset"], 0) + side["score"]  # type: ignore[index,operator,union-attr]
                row["places"].setdefault(g["ruleset"], []).append(place)
                if g["finished"]:
                    row["decided"] += 1
                    if side["name"] in winners:
                        row["draws" if g["draw"] else "wins"] += 1
                    else:
                        row["losses"] += 1
    return table


def better(a: dict, b: dict, winners: set[str], lowest: bool) -> bool:
    """Does side a finish ahead of side b? Winners first, then by total in the game's direction."""
    if (a["name"] in winners) != (b["name"] in winners):
        return a["name"] in winners
    return a["score"] < b["score"] if lowest else a["score"] > b["score"]


@pytest.fixture
def season(cli: Callable[..., Run]) -> tuple[list[dict[str, object]], dict[str, dict[str, float]]]:
    cli("season", "use", "club")
    games = play_season(cli)
    return games, expected_table(games)


def test_season_table_numbers(cli: Callable[..., Run], season: tuple[list, dict]) -> None:
    games, want = season
    assert sum(1 for g in games if not g["finished"]) == 4
    assert len({g["ruleset"] for g in games}) == 4
    data = json.loads(cli("season", "--format", "json").out)
    assert data["season"] == "club" and data["games"] == 28
    assert data["unfinished"] == [int(g["game"]) for g in games if not g["finished"]]  # type: ignore[call-overload]
    rows = {r["player"]: r for r in data["players"]}
    assert set(rows) == set(want)
    for name, w in want.items():
        r = rows[name]
        assert (r["games"], r["wins"], r["draws"], r["losses"]) == (w["games"], w["wins"], w["draws"], w["losses"]), name
        # points of different games do not add up, nor does a rating: each game's are on its own board
        assert "points" not in r and "rating" not in r and "avg_place" not in r, name
        assert {k: v["points"] for k, v in r["points_by_ruleset"].items()} == w["points"], name
        assert r["win_rate"] == pytest.approx(round(w["wins"] / w["decided"], 3)), name
        assert len(r["last5"]) == min(5, int(w["decided"]))
        assert r["evenings"] == 1
    for board in data["rulesets"]:
        kind = board["ruleset"]
        for r in board["players"]:
            places = want[r["player"]]["places"][kind]
            assert r["avg_place"] == pytest.approx(round(sum(places) / len(places), 2)), (kind, r)   # 1 = first
            assert r["points"] == want[r["player"]]["points"][kind]
            assert r["rating"] == pytest.approx(r["mu"] - 3 * r["sigma"], abs=0.06) and r["sigma"] > 0


def test_season_csv_markdown_and_filters(cli: Callable[..., Run], season: tuple[list, dict]) -> None:
    _games, want = season
    rows = list(csv.DictReader(io.StringIO(cli("season", "--format", "csv").out)))
    wins: dict[str, int] = {}
    for r in rows:
        wins[r["player"]] = wins.get(r["player"], 0) + int(r["wins"])
    assert wins == {k: v["wins"] for k, v in want.items()}
    for kind in ("spades", "hearts", "marjas", "skid"):   # one row per player and game, with mu and sigma
        assert {r["player"]: float(r["points"]) for r in rows if r["game"] == kind} == \
            {k: v["points"][kind] for k, v in want.items() if kind in v["points"]}
        assert all(float(r["sigma"]) > 0 and float(r["mu"]) for r in rows)
    md = cli("season", "--format", "markdown").out
    assert md.splitlines()[0].startswith("| player") and "|---" in md.splitlines()[1].replace(":", "-")
    spades = json.loads(cli("season", "--format", "json", "--ruleset", "spades").out)
    assert spades["games"] == 7 and [b["ruleset"] for b in spades["rulesets"]] == ["spades"]
    assert {r["player"]: r["points"] for r in spades["rulesets"][0]["players"]} == \
        {k: v["points"]["spades"] for k, v in want.items() if "spades" in v["points"]}
    one = json.loads(cli("season", "--format", "json", "--player", "ann").out)
    assert [r["player"] for r in one["players"]] == ["ann"]
    all_in = json.loads(cli("season", "--format", "json", "--include-unfinished").out)
    decided = sum(r["wins"] + r["draws"] + r["losses"] for r in all_in["players"])
    finished_only = sum(w["wins"] + w["draws"] + w["losses"] for w in want.values())
    assert decided > finished_only
    assert cli("season", "--since", "yesterday").code == 2
    assert cli("season", "--format", "nosuch").code == 2
    assert json.loads(cli("season", "--format", "json", "--until", "2000-01-01").out)["players"] == []


def test_export_import_round_trip(cli: Callable[..., Run], season: tuple[list, dict], tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    first = tmp_path / "one.json"
    assert cli("export", "--output", str(first)).code == 0
    before = {g["game"]: g for g in (json.loads(cli("standings", "--json", "--game", str(i)).out) for i in range(1, 33))}
    monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / "fresh.db"))
    assert "Imported 32 games" in cli("import", str(first)).out
    assert "0 games; 32 already present" in cli("import", str(first)).out
    second = tmp_path / "two.json"
    assert cli("export", "--output", str(second)).code == 0
    assert first.read_bytes() == second.read_bytes()
    for i in range(1, 33):
        after = json.loads(cli("standings", "--json", "--game", str(i)).out)
        assert after["sides"] == before[str(i)]["sides"]
    assert cli("verify").code == 0


def test_player_history(cli: Callable[..., Run], season: tuple[list, dict]) -> None:
    _games, want = season
    rows = json.loads(cli("player", "ann", "--json").out)
    assert sum(r["result"] in "WDL" for r in rows) == want["ann"]["games"]
    assert sum(r["result"] == "W" for r in rows) == want["ann"]["wins"]
    assert cli("player", "nobody").code == 2


def test_html_report_in_a_real_browser(cli: Callable[..., Run], season: tuple[list, dict], tmp_path: Path) -> None:
    """Open the report in headless Chromium: the table matches the season, and a click sorts it."""
    required = os.environ.get("SCOREPAD_REQUIRE_BROWSER") == "1"
    exe = browser()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None  # type: ignore[assignment]
    if exe is None or sync_playwright is None:
        if required:
            pytest.fail("the browser test needs chromium and playwright (the CI installs both)")
        pytest.skip("chromium or playwright is not installed")
    _games, want = season
    page_path = tmp_path / "season.html"
    assert cli("season", "--format", "html", "--output", str(page_path)).code == 0
    html = page_path.read_text(encoding="utf-8")
    assert "http://" not in html and "https://" not in html and "<svg" in html
    with launched(exe) as b:
        page = b.new_page(viewport={"width": 1280, "height": 844})
        page.goto(page_path.as_uri())
        headers = page.locator("#overall-table thead th").all_inner_texts()
        col = {h.strip(): i for i, h in enumerate(headers)}
        rows = page.locator("#overall-table tbody tr")
        seen = {}
        for i in range(rows.count()):
            cells = rows.nth(i).locator("td").all_inner_texts()
            seen[cells[col["player"]]] = (int(cells[col["games"]]), int(cells[col["wins"]]),
                                          int(cells[col["losses"]]))
        assert seen == {k: (v["games"], v["wins"], v["losses"]) for k, v in want.items()}
        page.locator("#overall-table thead th", has_text="wins").first.click()      # ascending
        page.locator("#overall-table thead th", has_text="wins").first.click()      # descending
        first = page.locator("#overall-table tbody tr").first.locator("td").all_inner_texts()
        assert int(first[col["wins"]]) == max(v["wins"] for v in want.values())
        page.screenshot(path=str(ARTIFACTS / "season-report.png"), full_page=True)


def test_one_ruleset_season_sums_its_counters(cli: Callable[..., Run]) -> None:
    """Asshole: a season counts titles (President 1st, Vice-President 2nd, Vice-Asshole 3rd, Asshole 4th)."""
    cli("new", "asshole", "a", "b", "c", "d")
    for places in ("1,2,3,4", "2,1,4,3", "1,3,2,4"):
        assert cli("hand", f"place={places}").code == 0
    cli("finish")
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(
        cli("season", "--ruleset", "asshole", "--format", "csv").out))}
    titles = {p: (rows[p]["total presidents"], rows[p]["total vice_presidents"], rows[p]["total vice_assholes"],
                  rows[p]["total assholes"]) for p in rows}
    assert titles == {"a": ("2", "1", "0", "0"), "b": ("1", "1", "1", "0"), "c": ("0", "1", "1", "1"),
                      "d": ("0", "0", "1", "2")}


def test_a_counter_column_is_headed_in_the_language_shown(cli: Callable[..., Run]) -> None:
    """Spades' bags summed over the season: headed by the word its translation gives the counter on the
    score display (the ruleset's `[translations.ru.display] bags`), never the id; CSV keeps the id."""
    import tomllib

    words = tomllib.loads((Path(__file__).parents[2] / "rulesets" / "spades.toml").read_text(encoding="utf-8"))
    bags = {lang: words["translations"][lang]["display"]["bags"] for lang in ("ru", "uk", "et")}
    cli("new", "spades", "ann", "bob", "cat", "dan")
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    for lang, word in bags.items():
        for fmt in ("text", "markdown", "html"):
            shown = cli("--lang", lang, "season", "--include-unfinished", "--format", fmt).out
            if fmt == "html":   # the page's data keeps the column ids; its headings are words
                shown = "".join(re.findall(r"<th[^>]*><button[^>]*>[^<]*</button></th>", shown))
            assert word in shown and "bags" not in shown, (lang, fmt)
    assert "total bags" in cli("--lang", "ru", "season", "--include-unfinished", "--format", "csv").out
    assert "total bags" in cli("season", "--include-unfinished").out
