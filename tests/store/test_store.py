"""The store: migrations from an older schema, WAL, the audit trail, names stored intact."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from scorepad.store import SCHEMA_VERSION, Store, _v1
from tests.conftest import Run


def test_migrates_a_version_1_database(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("BEGIN")
    _v1(con)
    con.execute("PRAGMA user_version = 1")
    con.execute("COMMIT")
    con.close()
    store = Store(path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    indexes = {r[0] for r in store.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"games_season", "audit_game"} <= indexes
    columns = {r[1] for r in store.db.execute("PRAGMA table_info(games)")}
    assert {"version", "first_dealer"} <= columns
    assert store.wal


def test_a_version_5_game_is_dealt_from_the_first_seat(tmp_path: Path) -> None:
    """A game stored before games kept their first dealer started with the first seat's deal."""
    from scorepad.store.migrations import MIGRATIONS, _v6

    path = tmp_path / "v5.db"
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("BEGIN")
    for step in MIGRATIONS[:5]:
        step(con)
    con.execute("INSERT INTO rulesets VALUES ('h', 'r', 'r.toml', '')")
    con.execute("INSERT INTO games(uid, ruleset_id, ruleset_hash, players, sides, options, created, state)"
                " VALUES ('u', 'r', 'h', '[]', '[]', '{}', '2026-01-01T00:00:00+00:00', '{}')")
    con.execute("PRAGMA user_version = 5")
    con.execute("COMMIT")
    con.close()
    store = Store(path)
    assert store.db.execute("SELECT first_dealer FROM games").fetchall() == [(0,)]
    with store.write() as db:
        _v6(db)   # a step run again adds nothing
    assert store.db.execute("SELECT first_dealer FROM games").fetchall() == [(0,)]


def test_refuses_a_newer_database(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.close()
    from scorepad.errors import StoreError

    try:
        Store(path)
    except StoreError as exc:
        assert "newer scorepad" in exc.message
    else:
        raise AssertionError("a newer database was opened")


def test_bridge_sheet_is_the_paper_pad(cli: Callable[..., Run]) -> None:
    cli("new", "bridge", "n", "e", "s", "w")
    cli("hand", "contract=2H", "by=N", "tricks=9")          # NS 60 below, 30 above
    cli("hand", "contract=3NT", "by=E", "tricks=8")         # EW down 1 not vulnerable: NS 50 above
    cli("hand", "contract=2S", "by=E", "tricks=8")          # EW 60 below
    cli("hand", "contract=4SX", "by=S", "tricks=11", "honors=NS:100")   # NS 240 below: game
    data = json.loads(cli("sheet", "--json").out)
    pad = data["pad"]
    assert [[e["points"] for e in side] for side in pad["games"][0]["below"]] == [[60, 240], [60]]
    assert pad["games"][0]["won_by"] == "NS"
    # above the line: 30 overtrick, 50 undertrick, then 4SX+1: 100 overtrick, 50 insult, 100 honours
    assert sorted(e["points"] for e in pad["above"][0]) == [30, 50, 50, 100, 100]
    text = cli("sheet").out
    assert "game 1: NS" in text and "=====" in text
    assert "NS" in text.splitlines()[0] and "EW" in text.splitlines()[0]


def test_names_with_quotes_emoji_and_rtl_are_stored_intact(cli: Callable[..., Run]) -> None:
    names = ["O'Brien; DROP TABLE games;--", "Ann \"the ace\"", "🂡 Joker", "שרה"]
    assert cli("new", "hearts", *names, "--name", "Robert'); --").code == 0
    assert cli("hand", "hearts=5,4,3,1", f"queen={names[2]}").code == 0
    data = json.loads(cli("standings", "--json").out)
    assert [s["name"] for s in data["sides"]] == names
    assert data["name"] == "Robert'); --"
    assert names[3] in cli("standings").out


def test_a_change_made_meanwhile_is_never_overwritten(tmp_path: Path) -> None:
    """Undo + a new hand keep the hand count; the game's version still tells a stale write apart."""
    from scorepad.app import games as play
    from scorepad.errors import StoreError

    store = Store(tmp_path / "race.db")
    row = play.new_game(store, "spades", ["a", "b", "c", "d"])
    play.record_hand(store, row.id, ["bid=4,3,3,3", "tricks=5,3,3,2"])
    stale = store.game(row.id)
    play.undo(store, row.id)
    play.record_hand(store, row.id, ["bid=3,3,3,3", "tricks=4,3,3,3"])
    assert store.game(row.id).hands == stale.hands
    try:
        store.replace_from(stale.id, stale.version, 1, [], "undo", {}, stale.state)
    except StoreError as exc:
        assert "at the same moment" in exc.message
    else:
        raise AssertionError("a stale undo overwrote a newer hand")
    assert [s["score"] for s in store.game(row.id).state["sides"]] == [61, 60]
