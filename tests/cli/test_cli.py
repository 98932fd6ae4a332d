"""CLI transcripts: the contract's commands, exit statuses, and bad input that stores nothing."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run, dump


def test_spades_first_hand_standings_json(cli: Callable[..., Run]) -> None:
    r = cli("new", "spades", "ann", "bob", "cat", "dan")
    assert r.code == 0, r.err
    r = cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    assert r.code == 0, r.err
    assert "+71" in r.out and "-60" in r.out
    data = json.loads(cli("standings", "--json").out)
    assert data["hands"] == 1 and data["finished"] is False and data["winner"] is None
    assert [(s["name"], s["players"], s["score"], s["status"]) for s in data["sides"]] == [
        ("ann+cat", ["ann", "cat"], 71, "playing"), ("bob+dan", ["bob", "dan"], -60, "playing")]
    assert data["sides"][0]["state"]["bags"] == 1


def test_hand_json_has_breakdown_events_and_standings(cli: Callable[..., Run]) -> None:
    cli("new", "spades", "ann", "bob", "cat", "dan")
    data = json.loads(cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2", "--json").out)
    assert data["hand"] == 1
    assert data["sides"][0]["breakdown"] == [{"label": "contract", "points": 70, "to": ["score"]},
                                             {"label": "bags", "points": 1, "to": ["score"]}]
    assert data["standings"]["sides"][1]["score"] == -60


@pytest.mark.parametrize("args, words", [
    (["bid=4,3,3,3", "tricks=5,3,3,3"], "add up to 14"),
    (["bid=14,3,3,3", "tricks=5,3,3,2"], "ann.bid must be 0-13"),
    (["zed.bid=4", "bid=4,3,3,3", "tricks=5,3,3,2"], "'zed' is not a player"),
    (["bid=blind,3,3,3", "tricks=0,5,5,3"], "blind nil only when the team is at least 200 behind"),
    (["bid=4,3,3,3"], "missing ann.tricks"),
    (["bid=4,3,3"], "needs 4 values"),
    (["nonsense"], "not an assignment"),
    (["colour=red"], "no field 'colour'"),
])
def test_bad_hands_refused_and_nothing_stored(cli: Callable[..., Run], db: Path, args: list[str], words: str) -> None:
    cli("new", "spades", "ann", "bob", "cat", "dan")
    cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    before = dump(db)
    r = cli("hand", *args)
    assert r.code == 2
    assert words in r.err
    assert "Traceback" not in r.err + r.out
    assert dump(db) == before


def test_unknown_ruleset_and_game(cli: Callable[..., Run], db: Path) -> None:
    r = cli("new", "nosuchgame", "a", "b")
    assert r.code == 2 and "unknown game" in r.err
    r = cli("hand", "x=1")
    assert r.code == 2 and "no current game" in r.err
    r = cli("standings", "--game", "42")
    assert r.code == 2 and "no game 42" in r.err


def test_wrong_player_count_and_options(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob").code == 2
    r = cli("new", "spades", "a", "b", "c", "d", "--opt", "nosuch=1")
    assert r.code == 2 and "no option 'nosuch'" in r.err
    r = cli("new", "spades", "a", "b", "c", "d", "--opt", "target=lots")
    assert r.code == 2 and "option target must be a whole number, not 'lots'" in r.err
    r = cli("new", "skid", "a", "b", "c", "--opt", "limit=")
    assert r.code == 2 and "option limit must be a whole number, not ''" in r.err


def test_broken_ruleset_file_refused(cli: Callable[..., Run], tmp_path: Path, db: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[game]\nid = "bad"\nname = "Bad"\n[[score]]\npoints = "tricks +"\n', encoding="utf-8")
    r = cli("new", str(bad), "a", "b")
    assert r.code == 2 and "score[0].points" in r.err
    r = cli("rules", "check", str(bad))
    assert r.code == 2 and "bad.toml:5:1: score[0].points: not a valid formula" in r.err


@pytest.mark.parametrize("formula, words", [
    ("().__class__", "attribute access"),
    ("__import__('os')", "unknown function '__import__'"),
    ("open('/etc/passwd')", "unknown function 'open'"),
    ("9**9**9**9", "exponent"),
    ("'x' * 10**10", "expected a number"),
])
def test_hostile_formulas_refused_by_check_and_new(cli: Callable[..., Run], tmp_path: Path, formula: str,
                                                   words: str) -> None:
    path = tmp_path / "evil.toml"
    path.write_text('[game]\nid = "evil"\nname = "Evil"\n[[score]]\npoints = "{}"\n'.format(formula.replace('"', '\\"')),
                    encoding="utf-8")
    r = cli("rules", "check", str(path))
    assert r.code == 2, r.out
    assert words in r.err
    r = cli("new", str(path), "a", "b")
    assert r.code == 2 and words in r.err


def test_undo_edit_rescore_and_audit(cli: Callable[..., Run], db: Path) -> None:
    cli("new", "spades", "ann", "bob", "cat", "dan")
    cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2")        # ann+cat 71, bob+dan -60
    cli("hand", "bid=3,3,3,3", "tricks=4,3,3,3")        # ann+cat 6 bid, 7 taken: +61; bob+dan 6/6: +60
    data = json.loads(cli("standings", "--json").out)
    assert [s["score"] for s in data["sides"]] == [132, 0]
    # hand 1 was really ann 4, cat 4: contract 8, 8 taken: +80, no bag
    r = cli("edit", "1", "cat.bid=4")
    assert r.code == 0, r.err
    data = json.loads(cli("standings", "--json").out)
    assert [s["score"] for s in data["sides"]] == [80 + 61, 0]
    assert data["sides"][0]["state"]["bags"] == 1
    assert cli("undo").code == 0
    data = json.loads(cli("standings", "--json").out)
    assert [s["score"] for s in data["sides"]] == [80, -60] and data["hands"] == 1
    con = sqlite3.connect(db)
    actions = [a for (a,) in con.execute("SELECT action FROM audit ORDER BY id")]
    kept = con.execute("SELECT count(*) FROM hands").fetchone()[0]
    assert actions == ["new", "edit", "undo"]
    assert kept == 4  # two originals, the edited hand 1 and the re-scored hand 2: nothing deleted
    log = cli("log").out
    assert "edit" in log and "hand 1: bid=4,3,3,3 → bid=4,3,4,3" in log    # before → after, each value once
    stored = con.execute("SELECT typed FROM hands WHERE n = 1 ORDER BY id DESC").fetchone()[0]
    assert json.loads(stored) == ["bid=4,3,4,3", "tricks=5,3,3,2"]
    assert "removed hand 2: bid=3,3,3,3 tricks=4,3,3,3" in log
    assert cli("verify").code == 0


def test_ended_game_takes_no_more_hands(cli: Callable[..., Run], db: Path) -> None:
    cli("new", "spades", "ann", "bob", "cat", "dan", "--opt", "target=100")
    r = cli("hand", "bid=6,3,6,3", "tricks=7,0,6,0")  # ann+cat 12 bid, 13 taken: 121 -> game over
    assert r.code == 0 and "game over" in r.out
    before = dump(db)
    r = cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    assert r.code == 2 and "has ended" in r.err
    assert dump(db) == before
    assert cli("undo").code == 0


def test_games_use_sheet_and_finish(cli: Callable[..., Run]) -> None:
    cli("new", "spades", "ann", "bob", "cat", "dan", "--name", "Friday")
    cli("new", "spades", "a", "b", "c", "d")
    r = cli("games")
    assert "Friday" in r.out and "*2" in r.out
    assert cli("use", "1").code == 0
    cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    sheet = json.loads(cli("sheet", "--json").out)
    assert sheet["hands"][0]["totals"] == [71, -60]
    r = cli("finish")
    assert r.code == 0 and "ann+cat wins" in r.out
    assert cli("finish").code == 2


def test_rules_list_and_show(cli: Callable[..., Run]) -> None:
    data = json.loads(cli("rules", "list", "--json").out)
    ids = {d["id"] for d in data}
    assert "spades" in ids
    r = cli("rules", "show", "spades:short")
    assert r.code == 0 and "nil_points = 50" in r.out
    assert cli("rules", "show", "spades:nosuch").code == 2


def test_help_for_every_command_and_in_docs(cli: Callable[..., Run]) -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    from scorepad.cli.app import app, rules_app

    for command in app.registered_commands:
        name = command.name or (command.callback.__name__ if command.callback else "")
        assert command.callback is not None and command.callback.__doc__, name
        assert f"scorepad {name}" in readme, f"README does not mention `scorepad {name}`"
    for command in rules_app.registered_commands:
        assert command.callback is not None and command.callback.__doc__
        assert f"rules {command.name}" in readme or "rules list|show" in readme


def test_the_spades_sheet_shows_each_hands_bids_and_tricks(cli: Callable[..., Run]) -> None:
    """As the paper pad does: beside each side's points, its players' bids and tricks (a nil is 0)."""
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert cli("hand", "bid=nil,3,3,3", "tricks=0,5,4,4").code == 0
    lines = cli("sheet").out.splitlines()
    assert lines[0].split()[:5] == ["#", "ann+cat", "bid/tricks", "bob+dan", "bid/tricks"]
    assert lines[2].split()[:3] == ["1", "4+3/5+3", "3+3/3+2"]
    assert lines[3].split()[:3] == ["2", "0+3/0+4", "3+3/5+4"]
    data = json.loads(cli("sheet", "--json").out)
    assert data["hands"][0]["fields"] == {"bid": [4, 3, 3, 3], "tricks": [5, 3, 3, 2]}
    hearts = cli("new", "hearts", "ann", "bob", "cat", "dan")          # no bids: no such columns
    assert hearts.code == 0 and "bid" not in cli("sheet").out


def test_undo_after_finish_takes_back_only_the_finish(cli: Callable[..., Run]) -> None:
    """`scorepad undo` after `scorepad finish`: the game goes on, its last hand kept; logged; verify clean."""
    cli("new", "spades", "ann", "bob", "cat", "dan")
    cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    assert cli("finish").code == 0
    r = cli("undo")
    assert r.code == 0, r.err
    assert "The finish is taken back; the game goes on at hand 2." in r.out
    data = json.loads(cli("standings", "--json").out)
    assert data["hands"] == 1 and data["finished"] is False and [s["score"] for s in data["sides"]] == [71, -60]
    assert cli("verify").code == 0
    log = cli("log")
    assert "undo finish" in log.out and "took back the finish; the game goes on after 1 hand" in log.out
    assert cli("undo").out.startswith("Hand 1 removed")   # the next undo takes back the hand
    assert json.loads(cli("standings", "--json").out)["hands"] == 0
    assert cli("verify").code == 0
