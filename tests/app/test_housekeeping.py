"""CLI transcripts of housekeeping at the table: values typed twice, finding, deleting, abandoning,
renaming and replaying games, names that do not exist, and where the database may live."""

from __future__ import annotations

import io
import json
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run, dump

Cli = Callable[..., Run]


def spades(cli: Cli, *extra: str) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan", *extra).code == 0


# ------------------------------------------------------------------ a value given twice

@pytest.mark.parametrize("args, words", [
    (["bid=4,3,3,3", "ann.bid=5", "tricks=5,3,3,2"], "ann.bid is given twice, as 4 (bid=4,3,3,3) and as 5 (ann.bid=5)"),
    (["bid=4,3,3,3", "bid=4,3,3,2", "tricks=5,3,3,2"], "dan.bid is given twice, as 3 (bid=4,3,3,3) and as 2 (bid=4,3,3,2)"),
    (["ann.bid=4", "ann.bid=5", "bid=4,3,3,3", "tricks=5,3,3,2"],
     "ann.bid is given twice, as 4 (ann.bid=4) and as 5 (ann.bid=5)"),
    (["a.tricks=5", "bid=4,3,3,3", "tricks=6,3,3,2"], "ann.tricks is given twice, as 5 (a.tricks=5) and as 6 (tricks=6,3,3,2)"),
])
def test_a_value_given_twice_is_refused(cli: Cli, db: Path, args: list[str], words: str) -> None:
    spades(cli)
    before = dump(db)
    r = cli("hand", *args)
    assert r.code == 2, r.out
    assert words in r.err and "type it once" in r.err
    assert dump(db) == before


def test_a_hand_field_given_twice_is_refused(cli: Cli, db: Path) -> None:
    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0
    before = dump(db)
    r = cli("hand", "hearts=5,4,3,1", "queen=ann", "queen=bob")
    assert r.code == 2 and "queen is given twice, as ann (queen=ann) and as bob (queen=bob)" in r.err
    assert dump(db) == before


@pytest.mark.parametrize("args, words", [
    (["bid=4,3,3,3", "ann.bid=4", "tricks=5,3,3,2"], "ann.bid is given twice (bid=4,3,3,3 and ann.bid=4)"),
    (["bid=4,3,3,3", "tricks=5,3,3,2", "ann.tricks=5"], "ann.tricks is given twice (tricks=5,3,3,2 and ann.tricks=5)"),
])
def test_the_same_value_twice_is_refused_too(cli: Cli, db: Path, args: list[str], words: str) -> None:
    """A value typed twice may be a slip for another player's: refused even when it agrees with itself."""
    spades(cli)
    before = dump(db)
    r = cli("hand", *args)
    assert r.code == 2, r.out
    assert words in r.err and "type it once" in r.err and "Traceback" not in r.err
    assert dump(db) == before


def test_a_whole_row_typed_twice_is_refused_in_one_sentence(cli: Cli, db: Path) -> None:
    spades(cli)
    r = cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2", "tricks=5,3,3,2")
    assert r.code == 2
    assert r.err.count("given twice") == 1, r.err


def test_the_same_cards_twice_in_russian_are_refused(cli: Cli, db: Path) -> None:
    assert cli("new", "скид", "Аня", "Богдан", "Вера").code == 0
    before = dump(db)
    r = cli("--lang", "ru", "hand", "вышел=Аня", "карты=-/ТХ/ДП", "Богдан.карты=ТХ")
    assert r.code == 2, r.out
    assert "Богдан.карты" in r.err and "Богдан.карты=ТХ" in r.err and "Traceback" not in r.err
    assert dump(db) == before


def test_edit_replaces_old_values_but_not_twice_in_one_go(cli: Cli, db: Path) -> None:
    spades(cli)
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    before = dump(db)
    r = cli("edit", "1", "ann.bid=5", "ann.bid=6")
    assert r.code == 2 and "ann.bid is given twice, as 5 (ann.bid=5) and as 6 (ann.bid=6)" in r.err
    assert dump(db) == before
    r = cli("edit", "1", "ann.bid=5")   # over bid=4,3,3,3 typed before: that is what edit is for
    assert r.code == 0, r.err
    assert cli("verify").code == 0


# ------------------------------------------------------------------ use NAME

def test_use_finds_a_game_by_its_name_or_its_start(cli: Cli, db: Path) -> None:
    spades(cli, "--name", "Friday night")
    spades(cli, "--name", "friday rematch")
    assert cli("new", "hearts", "ann", "bob", "cat", "dan", "--name", "Sunday").code == 0
    r = cli("use", "friday night")
    assert r.code == 0 and "Game 1 is now the current game." in r.out
    assert cli("use", "SUN").code == 0
    assert json.loads(cli("standings", "--json").out)["game"] == "3"
    assert json.loads(cli("standings", "--json", "--game", "friday r").out)["game"] == "2"
    before = dump(db)
    r = cli("use", "fri")
    assert r.code == 2 and "'fri' could be game 1 or 2; say which by its id" in r.err
    r = cli("use", "sundy")
    assert r.code == 2 and "there is no game called 'sundy' (did you mean 'Sunday'?)" in r.err
    r = cli("use", "9")
    assert r.code == 2 and "there is no game 9 (the last game is 3)" in r.err
    assert dump(db) == before


# ------------------------------------------------------------------ delete

def test_delete_needs_yes_without_a_terminal(cli: Cli, db: Path) -> None:
    spades(cli)
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    before = dump(db)
    r = cli("delete", "1")
    assert r.code == 2
    assert "this deletes game 1 (spades: ann, bob, cat, dan; 1 hand)" in r.err
    assert "`scorepad backup FILE` first" in r.err and "--yes" in r.err
    assert dump(db) == before


def test_delete_removes_the_game_and_keeps_its_trail(cli: Cli, db: Path) -> None:
    spades(cli, "--name", "typo")
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    r = cli("delete", "typo", "--yes")
    assert r.code == 0 and "Deleted game 1" in r.out and "scorepad log --game 1" in r.out
    assert json.loads(cli("games", "--json").out) == []
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM hands").fetchone()[0] == 0
    con.close()
    assert cli("standings").code == 2   # it was the current game: there is none now
    r = cli("log", "--game", "1")
    assert r.code == 0 and "Game 1 was deleted" in r.out
    assert "delete" in r.out and "bid=4,3,3,3 tricks=5,3,3,2" in r.out
    # the next game may get the number 1 again, with a trail of its own
    spades(cli)
    log = json.loads(cli("log", "--json").out)
    assert [e["action"] for e in log] == ["new"]
    assert cli("delete", "7", "--yes").code == 2


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("answer, deleted", [("y\n", True), ("n\n", False)])
def test_delete_asks_on_a_terminal(cli: Cli, db: Path, monkeypatch: pytest.MonkeyPatch, answer: str,
                                   deleted: bool) -> None:
    spades(cli)
    before = dump(db)
    monkeypatch.setattr(sys, "stdin", Terminal(answer))
    r = cli("delete", "1")
    assert r.code == 0, r.err
    assert "`scorepad backup FILE` first" in r.out
    assert ("Deleted game 1" in r.out) is deleted
    assert (dump(db) == before) is not deleted


# ------------------------------------------------------------------ abandon

def test_abandoned_game_is_out_of_the_season_and_takes_no_hands(cli: Cli, db: Path) -> None:
    spades(cli)
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert cli("new", "hearts", "ann", "bob", "cat", "eve").code == 0
    assert cli("hand", "hearts=5,4,3,1", "queen=ann").code == 0
    r = cli("abandon", "--game", "1")
    assert r.code == 0 and "Game 1 abandoned after 1 hand" in r.out
    data = json.loads(cli("standings", "--json", "--game", "1").out)
    assert data["abandoned"] is True and data["finished"] is False
    assert data["winner"] is None and data["draw"] is False and "next" not in data
    assert "Abandoned" in cli("standings", "--game", "1").out
    assert [g["abandoned"] for g in json.loads(cli("games", "--json").out)] == [True, False]
    assert "abandoned" in cli("games").out.splitlines()[2]
    # the other game is not finished: listed apart, and counted only by its standings when asked
    season = json.loads(cli("season", "--format", "json").out)
    assert (season["games"], season["unfinished"], season["players"]) == (0, [2], [])
    for flags in (["--include-unfinished"],):
        season = json.loads(cli("season", "--format", "json", *flags).out)
        assert season["games"] == 1
        lines = {p["player"]: p for p in season["players"]}
        assert set(lines) == {"ann", "bob", "cat", "eve"} and lines["ann"]["games"] == 1
        assert all(p["draws"] == 0 for p in season["players"])
    assert [r["result"] for r in json.loads(cli("player", "dan", "--json").out)] == ["abandoned"]
    before = dump(db)
    for args in (["hand", "--game", "1", "bid=4,3,3,3", "tricks=5,3,3,2"], ["finish", "--game", "1"],
                 ["abandon", "--game", "1"]):
        r = cli(*args)
        assert r.code == 2 and "abandoned" in r.err, args
    assert dump(db) == before
    assert "abandon" in cli("log", "--game", "1").out
    assert cli("verify").code == 0


def test_a_finished_game_cannot_be_abandoned(cli: Cli, db: Path) -> None:
    spades(cli, "--opt", "target=50")
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    before = dump(db)
    r = cli("abandon")
    assert r.code == 2 and "has ended" in r.err
    assert dump(db) == before


def test_abandoned_survives_export_and_import(cli: Cli, db: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    spades(cli)
    assert cli("abandon").code == 0
    assert cli("export", "--output", str(tmp_path / "all.json")).code == 0
    monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / "other.db"))
    assert cli("import", str(tmp_path / "all.json")).code == 0
    assert [g["abandoned"] for g in json.loads(cli("games", "--json").out)] == [True]


# ------------------------------------------------------------------ rename

def test_rename_in_one_game_retypes_every_hand(cli: Cli, db: Path) -> None:
    spades(cli)
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert cli("hand", "an.bid=2", "bob.bid=3", "cat.bid=3", "dan.bid=3", "tricks=2,4,4,3").code == 0
    before = json.loads(cli("standings", "--json").out)
    r = cli("rename", "ann", "zoe")
    assert r.code == 0 and "Renamed ann to zoe in game 1." in r.out
    after = json.loads(cli("standings", "--json").out)
    assert [s["name"] for s in after["sides"]] == ["zoe+cat", "bob+dan"]
    assert after["sides"][0]["players"] == ["zoe", "cat"]
    assert [s["score"] for s in after["sides"]] == [s["score"] for s in before["sides"]]
    typed = [h["typed"] for h in json.loads(cli("sheet", "--json").out)["hands"]]
    assert typed[1] == ["zoe.bid=2", "bob.bid=3", "cat.bid=3", "dan.bid=3", "tricks=2,4,4,3"]
    assert "rename" in cli("log").out and "ann -> zoe" in cli("log").out
    assert cli("verify").code == 0
    assert cli("edit", "2", "zoe.tricks=3", "cat.tricks=3").code == 0   # edits see the new name


def test_rename_follows_names_in_values(cli: Cli) -> None:
    assert cli("new", "bridge", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "contract=4S", "by=ann", "tricks=10", "honors=ann:100").code == 0
    before = json.loads(cli("standings", "--json").out)
    assert cli("rename", "ann", "zoe").code == 0
    after = json.loads(cli("standings", "--json").out)
    assert [s["name"] for s in after["sides"]] == ["NS", "EW"] and after["sides"][0]["players"] == ["zoe", "cat"]
    assert [s["score"] for s in after["sides"]] == [s["score"] for s in before["sides"]]
    assert json.loads(cli("sheet", "--json").out)["hands"][0]["typed"] == [
        "contract=4S", "by=zoe", "tricks=10", "honors=zoe:100"]
    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "hearts=13,0,0,0", "queen=ann").code == 0
    assert cli("rename", "ann", "Anna").code == 0
    data = json.loads(cli("standings", "--json").out)
    assert [s["name"] for s in data["sides"]] == ["Anna", "bob", "cat", "dan"]
    assert [s["score"] for s in data["sides"]] == [0, 26, 26, 26]


def test_rename_refuses_a_name_in_the_game_and_unknown_names(cli: Cli, db: Path) -> None:
    spades(cli)
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    before = dump(db)
    r = cli("rename", "ann", "BOB")
    assert r.code == 2 and "bob is already a player in game 1" in r.err
    r = cli("rename", "anne", "zoe")
    assert r.code == 2 and "game 1 has no player called 'anne' (did you mean ann?)" in r.err
    r = cli("rename", "ann", "zoe", "--all", "--game", "1")
    assert r.code == 2 and "--all" in r.err
    r = cli("rename", "ann", "")
    assert r.code == 2
    assert dump(db) == before


def test_rename_everywhere_merges_the_season(cli: Cli, db: Path) -> None:
    spades(cli)
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert cli("new", "spades", "annie", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert cli("new", "hearts", "ann", "annie", "bob", "cat").code == 0
    before = dump(db)
    r = cli("rename", "annie", "ann", "--all")   # game 3 has both: refused whole
    assert r.code == 2 and "ann is already a player in game 3" in r.err
    assert dump(db) == before
    assert cli("delete", "3", "--yes").code == 0
    r = cli("rename", "annie", "ann", "--all")
    assert r.code == 0 and "in game 2." in r.out
    season = json.loads(cli("season", "--format", "json", "--include-unfinished").out)
    assert {p["player"]: p["games"] for p in season["players"]}["ann"] == 2
    r = cli("rename", "nobody", "x", "--all")
    assert r.code == 2 and "no game has a player called 'nobody'" in r.err


# ------------------------------------------------------------------ rematch

def test_rematch_same_game_same_seats(cli: Cli) -> None:
    assert cli("new", "spades:short", "ann", "bob", "cat", "dan", "--opt", "target=300",
               "--team", "us=ann,cat", "--team", "them=bob,dan").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    r = cli("rematch")
    assert r.code == 0 and r.out.strip().endswith("2")
    new = json.loads(cli("standings", "--json").out)
    old = json.loads(cli("standings", "--json", "--game", "1").out)
    assert new["game"] == "2" and new["hands"] == 0
    assert new["variant"] == "short" and new["options"] == old["options"] and new["options"]["target"] == 300
    assert [(s["name"], s["players"]) for s in new["sides"]] == [(s["name"], s["players"]) for s in old["sides"]]
    assert [(s["name"], sorted(s["players"])) for s in new["sides"]] == [("us", ["ann", "cat"]), ("them", ["bob", "dan"])]
    assert new["next"]["dealer"] == "bob"   # ann dealt the one hand: the deal passes on to bob, nobody moves
    assert json.loads(cli("games", "--json").out)[1]["players"] == ["ann", "bob", "cat", "dan"]
    # the same line typed in seating order scores the same people as in the game before
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    again = json.loads(cli("standings", "--json").out)
    first = json.loads(cli("sheet", "--json", "--game", "1").out)["hands"][0]
    assert [s["score"] for s in again["sides"]] == first["points"] == [71, -60]


def dealer(cli: Cli, database: Path | None = None, game: int | None = None) -> str:
    """Who deals the coming hand of the current game (or `game`) of the database (or `database`)."""
    where = ("--db", str(database)) if database else ()
    which = ("--game", str(game)) if game else ()
    return str(json.loads(cli(*where, "standings", "--json", *which).out)["next"]["dealer"])


def test_rematch_passes_the_deal_on_and_every_replay_starts_there(cli: Cli, db: Path, tmp_path: Path) -> None:
    spades(cli)
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0          # ann dealt
    assert cli("rematch").code == 0
    assert dealer(cli) == "bob"                                            # who would have dealt hand 2
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert dealer(cli) == "cat"
    assert cli("undo").code == 0 and dealer(cli) == "bob"
    assert cli("redo").code == 0 and dealer(cli) == "cat"
    assert cli("edit", "1", "bid=3,3,3,3", "tricks=4,3,3,3").code == 0 and dealer(cli) == "cat"
    assert cli("verify").code == 0
    assert cli("rematch").code == 0 and dealer(cli) == "cat"               # and on again
    # an export and a game file carry it, and their replays start there
    export = tmp_path / "all.json"
    assert cli("export", "--output", str(export)).code == 0
    games = json.loads(export.read_text(encoding="utf-8"))["games"]
    assert [g.get("first_dealer") for g in games] == [None, 1, 2]         # the first seat is not written
    copy = tmp_path / "copy.db"
    assert cli("--db", str(copy), "import", str(export)).code == 0
    assert cli("--db", str(copy), "verify").code == 0
    assert dealer(cli, copy, 2) == "cat"
    toml = tmp_path / "game2.toml"
    assert cli("export", "--game", "2", "--format", "toml", "--output", str(toml)).code == 0
    assert 'first_dealer = "bob"' in toml.read_text(encoding="utf-8")
    other = tmp_path / "other.db"
    assert cli("--db", str(other), "import", str(toml)).code == 0
    assert dealer(cli, other, 1) == "cat"
    # a first dealer that is no seat, or not the one the stored hands were dealt from, is refused whole
    for seat, says in ((4, "games[1].first_dealer: seat 4, but there are 4 players (seats 0-3)"), (3, "games[1]")):
        games[1]["first_dealer"] = seat
        bad = tmp_path / f"bad{seat}.json"
        bad.write_text(json.dumps({**json.loads(export.read_text(encoding="utf-8")), "games": games}),
                       encoding="utf-8")
        fresh = tmp_path / f"fresh{seat}.db"
        r = cli("--db", str(fresh), "import", str(bad))
        assert r.code == 2 and says in r.err and "Traceback" not in r.err, r.err
        assert json.loads(cli("--db", str(fresh), "games", "--json").out) == []
    toml.write_text(toml.read_text(encoding="utf-8").replace('first_dealer = "bob"', 'first_dealer = "zed"'),
                    encoding="utf-8")
    r = cli("--db", str(tmp_path / "zed.db"), "import", str(toml))
    assert r.code == 2 and "first_dealer: 'zed' is not one of the players" in r.err, r.err


def test_rematch_of_games_that_name_the_dealer_themselves(cli: Cli) -> None:
    """Thirty-One Lives passes the deal among the players still in (its own rule), Bismark shows the elder
    hand: after a rematch both start from the dealer passed on, not from the first seat."""
    assert cli("new", "thirty-one-lives", "ann", "bob", "cat", "dan").code == 0
    for penalty in ("18,33,20,9", "25,30,28,25"):                          # ann, then bob dealt
        assert cli("hand", f"penalty={penalty}").code == 0
    assert cli("rematch").code == 0
    shown = json.loads(cli("standings", "--json").out)["next"]
    assert shown["dealer"] == shown["deals (players still in)"] == "cat", shown
    assert cli("hand", "penalty=18,33,20,9").code == 0
    shown = json.loads(cli("standings", "--json").out)["next"]
    assert shown["dealer"] == shown["deals (players still in)"] == "dan", shown
    assert cli("new", "bismark", "ann", "bob", "cat").code == 0
    assert cli("hand", "tricks=6,5,5").code == 0                            # ann dealt, bob was elder
    assert cli("rematch").code == 0                                         # bob deals: cat is elder
    shown = json.loads(cli("standings", "--json").out)["next"]
    assert (shown["dealer"], shown["elder hand"]) == ("bob", "cat"), shown


def test_rematch_of_bridge_keeps_seat_letters_and_pairs(cli: Cli) -> None:
    """Rubber bridge: after a rematch NS are still nora and sam, and S is still sam, so a contract made
    by S is theirs (a rematch that moved everyone one seat credited it to the other pair)."""
    assert cli("new", "bridge", "nora", "eve", "sam", "walt").code == 0
    assert cli("hand", "contract=4S", "by=S", "tricks=10").code == 0
    assert cli("finish").code == 0
    assert cli("rematch").code == 0
    sides = json.loads(cli("standings", "--json").out)["sides"]
    assert [(s["name"], sorted(s["players"])) for s in sides] == [("NS", ["nora", "sam"]), ("EW", ["eve", "walt"])]
    assert cli("hand", "contract=4S", "by=S", "tricks=10").code == 0
    assert cli("hand", "contract=2H", "by=sam", "tricks=8").code == 0
    hands = json.loads(cli("sheet", "--json").out)["hands"]
    assert [h["points"] for h in hands] == [[120, 0], [60, 0]]


def test_rematch_keeps_the_pinned_ruleset(cli: Cli, db: Path, tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    text = (Path(__file__).parents[2] / "rulesets" / "hearts.toml").read_text(encoding="utf-8")
    (rules / "hearts.toml").write_text(text, encoding="utf-8")
    assert cli("--rules-dir", str(rules), "new", "hearts", "ann", "bob", "cat", "dan").code == 0
    (rules / "hearts.toml").write_text(text.replace("Each heart 1", "Each heart one"), encoding="utf-8")
    assert cli("--rules-dir", str(rules), "rematch").code == 0   # the file changed since: the game's own text counts
    con = sqlite3.connect(db)
    assert len({h for (h,) in con.execute("SELECT ruleset_hash FROM games")}) == 1
    con.close()


# ------------------------------------------------------------------ unknown names

def test_unknown_ruleset_suggests_the_closest(cli: Cli, db: Path) -> None:
    r = cli("new", "spdes", "a", "b", "c", "d")
    assert r.code == 2 and "unknown game 'spdes' (did you mean spades?)" in r.err
    assert not db.exists() or "INSERT INTO \"games\"" not in "".join(dump(db))


def test_season_filters_resolve_names_and_refuse_unknown_ones(cli: Cli, db: Path, own_home: Path) -> None:
    assert cli("new", "hearts", "Ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "hearts=5,4,3,1", "queen=ann").code == 0
    assert cli("config", "set", "alias.a", "Ann").code == 0
    for name in ("hearts", "Ärtuandmine", "artu", "ЧЕРВЫ"):
        data = json.loads(cli("season", "--format", "json", "--ruleset", name, "--include-unfinished").out)
        assert data["games"] == 1 and data["filters"]["ruleset"] == "hearts", name
    for name in ("ann", "ANN", "a"):
        data = json.loads(cli("season", "--format", "json", "--player", name, "--include-unfinished").out)
        assert [p["player"] for p in data["players"]] == ["Ann"], name
    data = json.loads(cli("season", "--format", "json", "--ruleset", "spades").out)
    assert data["games"] == 0   # a game nobody played this season is an honest empty table
    before = dump(db)
    for args, words in ((["--ruleset", "hearst"], "unknown game 'hearst' (did you mean hearts?)"),
                        (["--player", "anne"], "no player called 'anne' (did you mean Ann?)"),
                        (["--player", "ann", "--ruleset", "spades"], "Ann played no counted game"),
                        (["--player", "bob", "--since", "2999-01-01"], "bob played no counted game in season"),
                        (["2019"], "there are no games in season '2019'")):
        r = cli("season", *args)
        assert r.code == 2 and words in r.err, (args, r.err)
        assert r.out == ""
    r = cli("player", "bobb")
    assert r.code == 2 and "(did you mean bob?)" in r.err
    assert dump(db) == before


def test_a_wrong_variant_never_shows_the_installation(cli: Cli) -> None:
    from scorepad.rules.registry import bundled_dir

    for args in (["rules", "show", "spades:nosuch"], ["new", "spades:nosuch", "a", "b", "c", "d"],
                 ["new", "spades", "a", "b", "c", "d", "--opt", "variant=nosuch"]):
        r = cli(*args)
        assert r.code == 2 and "spades.toml: unknown variant 'nosuch'" in r.err, args
        assert str(bundled_dir()) not in r.err + r.out and "site-packages" not in r.err + r.out
    r = cli("new", "no/such/file.toml", "a", "b")
    assert r.code == 2 and "no ruleset file no/such/file.toml" in r.err


# ------------------------------------------------------------------ where the database lives

@pytest.mark.parametrize("how", ["env", "option", "config"])
def test_a_database_in_a_missing_directory_is_refused(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       how: str) -> None:
    target = tmp_path / "nowhere" / "scores.db"
    args = ["games"]
    if how == "env":
        monkeypatch.setenv("SCOREPAD_DB", str(target))
    elif how == "option":
        args = ["--db", str(target), "games"]
    else:
        monkeypatch.delenv("SCOREPAD_DB")
        config = tmp_path / "config.toml"
        config.write_text(f'db = "{target.as_posix()}"\n', encoding="utf-8")
        monkeypatch.setenv("SCOREPAD_CONFIG", str(config))
    r = cli(*args)
    assert r.code == 2
    assert f"the database {target} is in a directory that does not exist" in r.err
    assert not target.parent.exists()


def test_the_default_database_directory_is_made_on_first_use(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    from scorepad.store import default_path

    monkeypatch.delenv("SCOREPAD_DB")
    assert not default_path().parent.exists()
    assert cli("games").code == 0
    assert default_path().is_file()


def test_an_unknown_season_is_refused(cli: Cli, db: Path) -> None:
    spades(cli, "--season", "club 2026")
    assert cli("season", "use", "club 2027").code == 0
    before = dump(db)
    for args in (["season", "club 2062"], ["games", "--season", "club 2062"]):
        r = cli(*args)
        assert r.code == 2 and "no games in season 'club 2062'" in r.err and "seasons: club 2026" in r.err, args
        assert r.out == ""
    assert dump(db) == before
    assert "club 2027: 0 games" in cli("season").out   # the current season, empty so far: an honest answer
    assert json.loads(cli("season", "CLUB 2026", "--format", "json").out)["season"] == "club 2026"
    assert len(json.loads(cli("games", "--season", "club 2026", "--json").out)) == 1


def test_backup_into_a_missing_directory_is_refused(cli: Cli, tmp_path: Path) -> None:
    spades(cli)
    r = cli("backup", str(tmp_path / "nowhere" / "copy.db"))
    assert r.code == 2 and "create it first" in r.err
    assert not (tmp_path / "nowhere").exists()


def test_abandoned_survives_a_game_file(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spades(cli)
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert cli("abandon").code == 0
    assert cli("export", "--game", "1", "--format", "toml", "--output", str(tmp_path / "g.toml")).code == 0
    monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / "other.db"))
    assert cli("import", str(tmp_path / "g.toml")).code == 0
    assert [g["abandoned"] for g in json.loads(cli("games", "--json").out)] == [True]


# per ruleset its longest scenario file: the most hands and kinds of input to retype
SCENARIOS = [max(sorted(d.glob("*.toml")), key=lambda f: f.stat().st_size)
             for d in sorted((Path(__file__).parents[1] / "scenarios").iterdir()) if d.is_dir() and any(d.glob("*.toml"))]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_two_players_swap_names_and_every_game_scores_the_same(path: Path, tmp_path: Path) -> None:
    """Renames retype every hand: after two players swap names (three renames), each scenario's game
    replays to the same points hand by hand, and `verify` agrees."""
    from scorepad.app import games as play
    from scorepad.app import rename as renaming
    from scorepad.app import rows
    from scorepad.app import verify as verification
    from scorepad.app.scenario import load_scenario
    from scorepad.engine.game import initial_state
    from scorepad.errors import ScorepadError
    from scorepad.store import Store

    data, game = load_scenario(path)
    store = Store(tmp_path / "swap.db")
    rs = game.ruleset
    gid = store.create_game(ruleset_id=rs.id, ruleset_hash=rs.hash, ruleset_text=rs.text, ruleset_source=rs.source,
                            variant=rs.variant, name=None, season="s", players=game.players,
                            sides=[{"name": s.name, "members": list(s.members)} for s in game.sides],
                            options=dict(game.options), state=initial_state(game))
    for spec in data.get("hand", []):
        if "error" in spec:
            continue
        if spec.get("finish"):
            play.finish(store, gid)
            break
        try:
            play.record_hand(store, gid, spec["input"])
        except ScorepadError:
            break   # a hand the scenario plays after the end, or one that needs an earlier refusal
        if store.game(gid).state["finished"]:
            break
    before = store.game(gid)
    points = [h.points for h in store.hands(gid)]
    first = before.players[0]
    second = before.players[1] if len(before.players) > 1 else "Swap Back"
    renaming.rename(store, first, "Swap Tmp", gid)
    if len(before.players) > 1:
        renaming.rename(store, second, first, gid)
    renaming.rename(store, "swap tmp", second, gid)
    after = store.game(gid)
    assert after.players[:2] == [second, first][:len(before.players)]
    assert rows.totals(after) == rows.totals(before)
    assert [h.points for h in store.hands(gid)] == points
    assert verification.verify(store) == []


def test_housekept_games_export_and_import(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Renamed, rematched, abandoned and deleted games all pass the import's checks of an export."""
    spades(cli)
    assert cli("hand", "ann.bid=4", "bob.bid=3", "cat.bid=3", "dan.bid=3", "tricks=5,3,3,2").code == 0
    assert cli("rename", "ann", "zoe").code == 0
    assert cli("rematch").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert cli("abandon").code == 0
    assert cli("new", "bridge", "n1", "e1", "s1", "w1").code == 0
    assert cli("hand", "contract=4S", "by=n1", "tricks=10", "honors=n1:100").code == 0
    assert cli("rename", "n1", "north", "--all").code == 0
    assert cli("rematch").code == 0
    assert cli("new", "hearts", "a", "b", "c", "d").code == 0
    assert cli("delete", "5", "--yes").code == 0
    exported = cli("games", "--json").out
    assert cli("export", "--output", str(tmp_path / "all.json")).code == 0
    monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / "other.db"))
    r = cli("import", str(tmp_path / "all.json"))
    assert r.code == 0 and "Imported 4 games" in r.out, r.err
    mine = [{k: g[k] for k in ("ruleset", "players", "hands", "abandoned", "finished")} for g in json.loads(exported)]
    theirs = [{k: g[k] for k in ("ruleset", "players", "hands", "abandoned", "finished")}
              for g in json.loads(cli("games", "--json").out)]
    assert theirs == mine
    assert cli("verify").code == 0


def test_an_edit_refused_for_a_later_hand_says_why_once(cli: Cli) -> None:
    """The refusal names the later hand and the rule it breaks in one sentence; the rule is not
    repeated below it as a list of one."""
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    for _ in range(3):
        assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert cli("hand", "bid=4,blind,3,3", "tricks=5,0,3,5").code == 0   # bob+dan 200 behind: blind nil
    r = cli("edit", "1", "bid=10,3,3,3", "tricks=0,7,0,6")
    assert r.code == 2
    assert "with that change hand 4 is no longer legal: bob may bid blind nil only" in r.err
    assert r.err.count("may bid blind nil only") == 1, r.err
    two = cli("hand", "bid=x,3,3,y", "tricks=1,3,3,3")
    assert two.code == 2 and two.err.count("not 'x'") == 1 and two.err.count("not 'y'") == 1


def test_an_edit_that_changes_no_value_stores_nothing(cli: Cli) -> None:
    """`edit N` with every value as it was (Enter through the questions, or the same values typed,
    `nil` for 0) says so and stores nothing: no new version, nothing in the audit trail."""
    spades(cli)
    assert cli("hand", "bid=4,nil,3,3", "tricks=5,0,4,4").code == 0
    before = json.loads(cli("standings", "--json").out)["version"]
    log = cli("log").out
    r = cli("edit", "1", "bid=4,0,3,3")
    assert r.code == 0 and "Hand 1 is as it was; nothing was stored." in r.out
    assert json.loads(cli("standings", "--json").out)["version"] == before
    assert cli("log").out == log
    changed = cli("edit", "1", "bid=4,0,3,4")
    assert changed.code == 0 and "Hand 1 changed; 0 later hands re-scored." in changed.out


def test_a_deleted_games_number_is_never_given_again(cli: Cli, tmp_path: Path) -> None:
    """`delete` promises `log --game N` still shows what the game was: a later game, or an imported one,
    gets a number of its own, so the two trails never mix."""
    spades(cli)
    spades(cli, "--name", "second")
    assert cli("delete", "2", "--yes").code == 0
    assert cli("new", "hearts", "a", "b", "c", "d", "-q").out.strip() == "3"
    log = cli("log", "--game", "2").out
    assert "was deleted" in log and "hearts" not in log
    assert cli("export", "--output", str(tmp_path / "one.json")).code == 0
    assert cli("delete", "3", "--yes").code == 0
    assert cli("delete", "1", "--yes").code == 0
    assert cli("import", str(tmp_path / "one.json")).code == 0
    ids = sorted(int(g["id"]) for g in json.loads(cli("games", "--json").out))
    assert ids == [4, 5]
    three = cli("log", "--game", "3").out
    assert "was deleted" in three and "hearts" in three and "spades" not in three


def test_db_copy_takes_an_export_that_writes_the_first_seat_as_dealer(cli: Cli, tmp_path: Path) -> None:
    """`"first_dealer": 0` is what an export leaves out; written anyway, import takes it, and so does db copy."""
    spades(cli)
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    export = tmp_path / "all.json"
    assert cli("export", "--output", str(export)).code == 0
    data = json.loads(export.read_text(encoding="utf-8"))
    data["games"][0]["first_dealer"] = 0
    explicit = tmp_path / "explicit.json"
    explicit.write_text(json.dumps(data), encoding="utf-8")
    r = cli("db", "copy", str(explicit), str(tmp_path / "copy.db"))
    assert r.code == 0, r.out + r.err
    assert dealer(cli, tmp_path / "copy.db", 1) == "bob"
