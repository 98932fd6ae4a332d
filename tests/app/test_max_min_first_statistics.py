"""`max`, `min` and `first` statistics: the largest (smallest) value over the hands, kept so that the
total over games is the max of the games' maxes; and per game the number of the first hand where a
condition holds, over games the average of those numbers over the games where it held. Declared by a
house ruleset (`rules derive` from Skid) and read by `stats`, `player` and the season, in each form."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run

HOUSE = '''
[stats.worst_deal]
label = "most points in a deal"
max = "line('cards')"

[stats.best_deal]
label = "fewest points left"
min = "line('cards')"
of = "not went_out"

[stats.first_jack]
label = "first Jack finish"
first = "went_out and jack"
'''


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SCOREPAD_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SCOREPAD_CONFIG", str(tmp_path / "home" / "config.toml"))
    return tmp_path / "home"


def two_games(cli: Callable[..., Run], home: Path) -> None:
    """Two finished games of a house Skid (limit 125, x1 in every deal), a and b.

    Game 1: deal 1 a out, b K♥ 7♣ A♦ = 25; deal 2 b out with a Jack (-20), a Q♠ = 50; deal 3 a out,
    b Q♠ A♥ = 65 (b 70); deal 4 a out, b Q♠ K♥ = 60: b 130, past the limit in deal 4, out; a wins.
    Game 2: deal 1 b out with a Jack, a K♥ = 10; deal 2 b out, a Q♠ Q♥ A♦ = 75 (a 85); deal 3 b out,
    a Q♠ = 50: a 135, past the limit in deal 3, out; b wins.
    """
    assert cli("rules", "derive", "skid", "house-skid").code == 0
    path = home / "rules" / "house-skid.toml"
    path.write_text(path.read_text(encoding="utf-8") + HOUSE, encoding="utf-8")
    assert cli("rules", "check", str(path)).code == 0
    assert cli("new", "house-skid", "a", "b").code == 0
    for hand in (["out=a", "b.cards=KH 7C AD"], ["out=b", "jack=yes", "a.cards=QS"], ["out=a", "b.cards=QS AH"],
                 ["out=a", "b.cards=QS KH"]):
        assert cli("hand", *hand).code == 0
    assert cli("new", "house-skid", "a", "b").code == 0
    for hand in (["out=b", "jack=yes", "a.cards=KH"], ["out=b", "a.cards=QS QH AD"], ["out=b", "a.cards=QS"]):
        assert cli("hand", *hand).code == 0


def test_a_max_over_games_is_the_max_and_a_first_the_average_hand(cli: Callable[..., Run], home: Path) -> None:
    two_games(cli, home)
    run = cli("stats", "--json")
    assert run.code == 0, run.err
    kind = json.loads(run.out)["games"][0]
    assert {s["id"]: s["kind"] for s in kind["statistics"]}["worst_deal"] == "max"
    got = {r["player"]: r["statistics"] for r in kind["players"]}
    # most points left in a deal (the cards line, 0 in a deal he went out): a 50 (game 1), 75 (game 2):
    # 75; b 25, 0, 65, 60 (game 1) and 0, 0, 0 (game 2): 65
    assert (got["a"]["worst_deal"], got["b"]["worst_deal"]) == (75, 65)
    # fewest, over the deals he did not go out: a 50 (game 1), 10, 75, 50 (game 2): 10; b 25, 65, 60 in
    # game 1 and no such deal in game 2: 25
    assert (got["a"]["best_deal"], got["b"]["best_deal"]) == (10, 25)
    # the first deal out with a Jack: b deal 2 of game 1 and deal 1 of game 2: (2 + 1) over 2 games;
    # a never: no game counts. Past the limit (Skid's own): a deal 3 of game 2, b deal 4 of game 1.
    assert got["b"]["first_jack"] == {"sum": 3, "games": 2} and got["a"]["first_jack"] == {"sum": 0, "games": 0}
    assert (got["a"]["hands_to_limit"], got["b"]["hands_to_limit"]) == ({"sum": 3, "games": 1}, {"sum": 4, "games": 1})
    rows = {line.split()[0]: line.split()[-4:] for line in cli("--lang", "et", "stats").out.splitlines()
            if line[:2] in ("a ", "b ")}
    assert rows == {"a": ["3", "75", "10", "–"], "b": ["4", "65", "25", "1,5"]}


def test_each_game_keeps_its_own_max_and_first(cli: Callable[..., Run], home: Path) -> None:
    two_games(cli, home)
    games = json.loads(cli("player", "b", "--json").out)
    assert [(g["statistics"]["worst_deal"], g["statistics"]["best_deal"], g["statistics"]["first_jack"])
            for g in games] == [(65, 25, {"sum": 2, "games": 1}), (0, None, {"sum": 1, "games": 1})]
    page = cli("player", "b").out
    assert [line.split()[-1] for line in page.splitlines()
            if line.startswith(("most points", "fewest points", "first Jack"))] == ["65", "25", "1.5"]


def test_the_season_shows_them_in_text_json_and_html(cli: Callable[..., Run], home: Path, tmp_path: Path) -> None:
    two_games(cli, home)
    text = cli("season", "--format", "text").out
    assert [line.split()[-3:] for line in text.splitlines() if line.startswith(("a ", "b "))][-2:] == [
        ["65", "25", "1.5"], ["75", "10", "–"]]
    board = json.loads(cli("season", "--format", "json").out)
    rows = [r for b in _boards(board) for r in b["players"] if "statistics" in r]
    assert {r["player"]: r["statistics"]["first_jack"] for r in rows} == {"a": {"sum": 0, "games": 0},
                                                                         "b": {"sum": 3, "games": 2}}
    out = tmp_path / "season.html"
    assert cli("--lang", "ru", "season", "--format", "html", "--output", str(out)).code == 0
    html = out.read_text(encoding="utf-8")
    assert "раздачи до порога" in html and 'data-v="1,5">1,5<' in html


def _boards(data: object) -> list[dict[str, Any]]:
    """Every table in the season JSON that has player rows with statistics."""
    found: list[dict[str, Any]] = []
    if isinstance(data, dict):
        if isinstance(data.get("players"), list) and data.get("statistics"):
            found.append(data)
        for v in data.values():
            found += _boards(v)
    elif isinstance(data, list):
        for v in data:
            found += _boards(v)
    return found
