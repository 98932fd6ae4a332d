"""`verify` compares every active hand with a replay of it, as `import` does: its stored points,
breakdown, events and state (equal as JSON), and with `retype` its typed text typed again; a hand
altered behind scorepad's back is named by game and hand, and an untouched database verifies clean."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.app import games as play
from scorepad.app import verify as verification
from scorepad.store import Store
from tests.conftest import Run

HEARTS = ["hearts=5,4,3,1", "queen=ann"]


def hearts_game(cli: Callable[..., Run], hands: int = 3) -> None:
    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0
    for _ in range(hands):
        assert cli("hand", *HEARTS).code == 0


def alter(db: Path, sql: str, *args: object) -> None:
    """A change made outside scorepad, its schema's checks of a row's shape out of the way first (so that
    what `verify` says of rows stored before them is tested)."""
    with sqlite3.connect(db) as con:
        con.execute("DROP TRIGGER IF EXISTS hands_shape_update")
        con.execute(sql, args)
    con.close()


def said(db: Path, retype: bool = False) -> list[str]:
    store = Store(db)
    try:
        return verification.verify(store, workers=1, retype=retype)
    finally:
        store.close()


def test_an_untouched_database_verifies_clean(cli: Callable[..., Run], db: Path) -> None:
    """Games of several rulesets, with hands taken back, edited and put back, one of them finished, and
    a game without hands: nothing to say, with the typed text typed again too, in one process or more."""
    hearts_game(cli)
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    for args in (["bid=4,3,3,3", "tricks=5,3,3,2"], ["bid=3,3,3,3", "tricks=4,3,3,3"], ["bid=4,3,3,3", "tricks=4,3,3,3"]):
        assert cli("hand", *args).code == 0
    assert cli("undo").code == 0
    assert cli("redo").code == 0
    assert cli("edit", "1", "tricks=4,4,3,2").code == 0
    assert cli("finish").code == 0
    assert cli("new", "hearts", "ann", "bob", "cat", "eve").code == 0
    r = cli("verify")
    assert r.code == 0 and "All 3 games replay" in r.out, r.out
    assert said(db, retype=True) == []
    store = Store(db)
    assert verification.verify(store, workers=2, retype=True) == []
    store.close()


def test_a_hands_altered_points_are_named(cli: Callable[..., Run], db: Path) -> None:
    """The tester's case: hand 2's points changed, its state and the totals left alone. The sheet would
    show +1 +1 +1 +1 on a row whose totals move otherwise, and `import` refuses the export."""
    hearts_game(cli)
    alter(db, "UPDATE hands SET points = '[1,1,1,1]' WHERE game_id = 1 AND status = 'active' AND n = 2")
    r = cli("verify")
    assert r.code == 1
    assert r.out.splitlines()[0] == "game 1: hand 2 does not replay to its stored points"
    assert "1 problem(s) in 1 games." in r.out


@pytest.mark.parametrize("column, value", [
    ("breakdown", "[]"), ("events", '["ann shot the moon"]'), ("state", '{"sides": []}'), ("state", "not json"),
    ("points", "[18.0,4,3,1]"),   # 18.0 is not 18 as JSON (import compares so)
])
def test_each_value_scoring_made_is_compared(cli: Callable[..., Run], db: Path, column: str, value: str) -> None:
    hearts_game(cli)
    alter(db, f"UPDATE hands SET {column} = ? WHERE n = 1", value)
    assert said(db) == ([f"game 1: hand 1 does not replay to its stored {column}"] if value != "not json"
                        else [f"game 1, hand 1: its {column} column is not JSON"])


def test_two_values_of_one_hand_in_one_sentence(cli: Callable[..., Run], db: Path) -> None:
    hearts_game(cli)
    alter(db, "UPDATE hands SET points = '[0,0,0,0]', events = '[\"x\"]' WHERE n = 3")
    assert said(db) == ["game 1: hand 3 does not replay to its stored points, events"]


def test_the_same_values_written_otherwise_are_no_difference(cli: Callable[..., Run], db: Path) -> None:
    """Keys in another order, other spacing: the same JSON values, as import sees them."""
    hearts_game(cli)
    with sqlite3.connect(db) as con:
        for hid, state, breakdown in con.execute("SELECT id, state, breakdown FROM hands").fetchall():
            con.execute("UPDATE hands SET state = ?, breakdown = ? WHERE id = ?",
                        (json.dumps(json.loads(state), sort_keys=True, indent=1), json.dumps(json.loads(breakdown),
                                                                                            indent=2), hid))
    con.close()
    assert said(db, retype=True) == []


def test_one_line_a_game_and_the_totals_against_the_whole_replay(tmp_path: Path) -> None:
    """Only the first altered hand of a game is named (a ruleset altered behind scorepad's back would
    change every hand); the replay goes on to the end, so untouched totals are not said to differ."""
    store = Store(tmp_path / "db.sqlite")
    ids = []
    for _ in range(3):
        row = play.new_game(store, "hearts", ["ann", "bob", "cat", "dan"])
        for _ in range(3):
            play.record_hand(store, row.id, HEARTS)
        ids.append(row.id)
    with store.write() as con:
        con.execute("UPDATE hands SET state = replace(state, '\"score\":', '\"score\":1') WHERE game_id = ?",
                    (ids[1],))
        con.execute("UPDATE hands SET points = '[0,0,0,0]' WHERE game_id = ? AND n >= 2", (ids[2],))
    assert verification.verify(store, workers=1) == [f"game {ids[1]}: hand 1 does not replay to its stored state",
                                                     f"game {ids[2]}: hand 2 does not replay to its stored points"]
    store.close()


def test_altered_typed_text_is_named_when_retyped(cli: Callable[..., Run], db: Path) -> None:
    """The tester's second case: the typed text changed, the values left alone. `import` types every
    hand again; so does verify with `retype`."""
    hearts_game(cli)
    alter(db, "UPDATE hands SET typed = ? WHERE n = 2", json.dumps(["hearts=4,5,3,1", "queen=ann"]))
    assert said(db, retype=True) == [
        "game 1: hand 2: its typed text (hearts=4,5,3,1 queen=ann) does not give the values stored with it"]
    for typed, why in ((["hearts=5,4,3,1", "queen=zed"], "zed"),
                       ("not json", "typed: must be a list, not text"), ([1, 2], "typed[0]: must be text")):
        alter(db, "UPDATE hands SET typed = ? WHERE n = 2", typed if isinstance(typed, str) else json.dumps(typed))
        lines = said(db, retype=True)
        assert len(lines) == 1 and lines[0].startswith("game 1: hand 2: its typed text does not type: "), lines
        assert why in lines[0], lines


def test_what_cannot_be_replayed_is_said_not_raised(cli: Callable[..., Run], db: Path) -> None:
    hearts_game(cli)
    con = sqlite3.connect(db)
    (stored,) = con.execute("SELECT hand FROM hands WHERE n = 2").fetchone()   # put back between the two
    con.close()
    for hand in ("nonsense", "[]"):
        alter(db, "UPDATE hands SET hand = ? WHERE n = 2", stored)
        alter(db, "UPDATE hands SET hand = ? WHERE n = 2", hand)
        r = cli("verify")
        assert r.code == 1 and "internal error" not in r.err
        assert r.out.splitlines()[0] == "game 1: hand 2: the stored values are not a JSON table"


def test_hands_numbered_otherwise_are_named(cli: Callable[..., Run], db: Path) -> None:
    hearts_game(cli)
    alter(db, "UPDATE hands SET n = 5 WHERE n = 2")
    lines = said(db)
    assert lines[0] == "game 1: its active hands are numbered [1, 3, 5]; they must be 1, 2, 3 ... once each"


def test_a_hand_after_the_end_is_named(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan", "--opt", "target=100").code == 0
    for _ in range(2):
        assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0   # 142 to -120: ann+cat win
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 2      # an ended game takes no more hands
    alter(db, "INSERT INTO hands(game_id, n, status, typed, hand, points, breakdown, events, state, created)"
              " SELECT game_id, 3, status, typed, hand, points, breakdown, events, state, created FROM hands"
              " WHERE n = 2")
    assert said(db) == ["game 1: hand 3 follows the end of the game"]


def test_verify_typed_on_the_command_line(cli: Callable[..., Run], db: Path) -> None:
    """`verify --typed` finds a typed text that no longer gives its stored values; plain verify does not."""
    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "hearts=4,5,3,1", "queen=ann").code == 0
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE hands SET typed = ? WHERE n = 1", (json.dumps(["hearts=5,4,3,1", "queen=ann"]),))
    con.close()
    assert cli("verify").code == 0
    r = cli("verify", "--typed")
    assert r.code == 1 and "does not give the values stored with it" in r.out
