"""Rows written outside scorepad (a club scorer's INSERT, an edited SQLite file): the schema refuses a
JSON column of another kind and a first dealer who is not one of the seats, and every reader names a
row stored before that by game and hand, in a sentence, instead of failing on it. Both stores."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scorepad.app import games as play
from scorepad.errors import UserError
from scorepad.store import SCHEMA_VERSION
from scorepad.store.choice import open_store
from scorepad.store.migrations import MIGRATIONS
from scorepad.store.protocol import is_server
from tests.conftest import STORE_KINDS, Run, store_spec
from tests.store.test_club import Club, club, game_with_history

__all__ = ["club"]   # the fixture, used by name

HAND = ("INSERT INTO hands(game_id, n, status, typed, hand, points, breakdown, events, state, created)"
        " SELECT game_id, 2, 'active', {typed}, hand, points, breakdown, events, {state}, created FROM hands WHERE n = 1")
BAD_ROWS = [   # (what a hand-made row does, the statement)
    ("a hand whose typed text is not JSON", HAND.format(typed="'bid=1'", state="state")),
    ("a hand whose state is a list", HAND.format(typed="typed", state="'[]'")),
    ("a game whose options are not a table", "UPDATE games SET options = '[1]'"),
    ("a game whose players are not JSON", "UPDATE games SET players = 'ann, bob'"),
    ("a first dealer out of range", "UPDATE games SET first_dealer = 99"),
    ("a first dealer below the first seat", "UPDATE games SET first_dealer = -1"),
    ("an audit entry that is not JSON", ("INSERT INTO audit(game_id, at, action, hand_n, detail)"
                                        " VALUES(1, '2027-01-01T00:00:00+00:00', 'undo', 1, '{')")),
    ("a bid that is not a list", "INSERT INTO pending_bids(game_id, typed, created) VALUES(1, '{}', 'x')"),
]


@pytest.fixture(params=STORE_KINDS)
def spec(request: pytest.FixtureRequest, tmp_path: Path, pg_admin: str | None) -> Iterator[str]:
    with contextlib.ExitStack() as stack:
        yield store_spec(request.param, tmp_path, pg_admin, stack)


def run(spec: str, sql: str) -> None:
    """A statement straight on the database, as any program could send it."""
    if is_server(spec):
        import psycopg

        with psycopg.connect(spec, autocommit=True) as con:
            con.execute(sql.replace("%", "%%"))
    else:
        lite = sqlite3.connect(spec, isolation_level=None)
        try:
            lite.execute(sql)
        finally:
            lite.close()


def refused(spec: str, sql: str) -> str:
    try:
        run(spec, sql)
    except sqlite3.IntegrityError as exc:
        return str(exc)
    except Exception as exc:   # psycopg's CheckViolation (psycopg is imported only with a server)  # noqa: BLE001
        return str(exc)
    raise AssertionError(f"the database accepted: {sql}")


def three_player_game(spec: str) -> None:
    store = open_store(spec)
    row = play.new_game(store, "thousand", ["ann", "bob", "cat"])
    play.record_hand(store, row.id, ["bidder=cat", "bid=200", "points=10,10,100", "marriages=-,H,CS"])
    store.close()


def without_the_checks(spec: str) -> None:
    """The database as a scorepad before schema 7 left it: nothing refuses a row of another shape."""
    if is_server(spec):
        import psycopg

        with psycopg.connect(spec, autocommit=True) as con:
            for (name, table) in con.execute(
                    "SELECT conname, conrelid::regclass::text FROM pg_constraint WHERE contype = 'c'"
                    " AND connamespace = current_schema()::regnamespace").fetchall():
                con.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
    else:
        lite = sqlite3.connect(spec, isolation_level=None)
        try:
            for (name,) in lite.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
                lite.execute(f"DROP TRIGGER {name}")
        finally:
            lite.close()


@pytest.mark.parametrize("what, sql", BAD_ROWS, ids=[w for w, _ in BAD_ROWS])
def test_the_schema_refuses_a_row_of_another_shape(spec: str, what: str, sql: str) -> None:
    three_player_game(spec)
    said = refused(spec, sql)
    assert "first_dealer" in said or "json" in said.lower(), said
    run(spec, HAND.format(typed="typed", state="state"))   # a row of the shape scorepad writes is taken
    assert open_store(spec).game(1).players == ["ann", "bob", "cat"]


def test_a_game_is_never_written_with_a_first_dealer_out_of_range(spec: str) -> None:
    from scorepad.rules.registry import load

    store = open_store(spec)
    rs = load("thousand")
    with pytest.raises(UserError, match="first dealer: seat 3, but there are 3 players"):
        store.create_game(ruleset_id=rs.id, ruleset_hash=rs.hash, ruleset_text=rs.text, ruleset_source="x",
                          variant=None, name=None, season=None, players=["a", "b", "c"],
                          sides=[{"name": p, "members": [k]} for k, p in enumerate("abc")], options={},
                          state={}, first_dealer=3)
    assert store.games() == []


@pytest.mark.parametrize("what, sql", BAD_ROWS, ids=[w for w, _ in BAD_ROWS])
def test_every_reader_names_a_row_stored_before_the_checks(acli: Callable[..., Run], anydb: str, tmp_path: Path,
                                                           what: str, sql: str) -> None:
    three_player_game(anydb)
    without_the_checks(anydb)
    run(anydb, sql)
    place = "game 1, hand 2" if "hand" in what.split()[1:2] else "game 1, hand 1" if "audit" in what else "game 1"
    said = []
    for command in (["backup", str(tmp_path / "b.json")], ["export", "--output", str(tmp_path / "e.json")],
                    ["sheet", "--game", "1"], ["verify"], ["player", "ann"], ["season", "--include-unfinished"],
                    ["games"], ["standings", "--game", "1"], ["log", "--game", "1"]):
        r = acli(*command)
        assert "internal error" not in r.err and "Traceback" not in r.err, (command, r.err)
        assert r.code in (0, 1), (command, r.code, r.err)
        if r.code == 1:
            assert place + ":" in r.out + r.err, (command, r.out, r.err)
            said.append(command[0])
    assert "verify" in said and "backup" in said and "export" in said   # never a file import would refuse
    assert not (tmp_path / "b.json").exists() and not (tmp_path / "e.json").exists()
    copied = tmp_path / "copied.db"
    r = acli("db", "copy", anydb, str(copied))
    assert r.code == 2 and place + ":" in r.err and "internal error" not in r.err, r.err
    assert not copied.exists()


def test_a_first_dealer_out_of_range_is_reported_and_never_copied(acli: Callable[..., Run], anydb: str,
                                                                 tmp_path: Path) -> None:
    """The game of the report: 3 players, first dealer 99. It passed `verify` and `db copy`, and `import`
    then refused the whole export."""
    three_player_game(anydb)
    without_the_checks(anydb)
    run(anydb, "UPDATE games SET first_dealer = 99")
    r = acli("verify")
    assert r.code == 1 and "game 1: its first dealer: seat 99, but there are 3 players (seats 0-2)" in r.out, r.out
    r = acli("db", "copy", anydb, str(tmp_path / "copied.db"))
    assert r.code == 2 and "game 1: its first dealer: seat 99" in r.err, r.err
    r = acli("backup", str(tmp_path / "b.json"))
    assert r.code == 1 and "game 1: its first dealer: seat 99" in r.err, r.err


def schema_6_database(spec: str, rows: list[str]) -> None:
    """A database as scorepad left it at schema 6, with a game of three players and `rows` stored in it."""
    if is_server(spec):
        from scorepad.store.postgres import VERSION_TABLE, PgConnection, connect

        pg = PgConnection(connect(spec), "test")
        pg.begin()
        db: Any = pg
        for step in MIGRATIONS[:6]:
            step(db)
        pg.execute(f"CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL)")
        pg.execute(f"INSERT INTO {VERSION_TABLE} VALUES(6)")
        pg.commit()
        pg.raw.close()
    else:
        con = sqlite3.connect(spec, isolation_level=None)
        con.execute("BEGIN")
        for step in MIGRATIONS[:6]:
            step(con)
        con.execute("PRAGMA user_version = 6")
        con.execute("COMMIT")
        con.close()
    run(spec, "INSERT INTO rulesets VALUES('h', 'thousand', 'x', 't')")
    run(spec, "INSERT INTO games(id, uid, ruleset_id, ruleset_hash, players, sides, options, created, state)"
              " VALUES(1, 'u', 'hearts', 'h', '[\"ann\", \"bob\", \"cat\"]', '[{\"name\": \"ann\", \"members\": [0]}]',"
              " '{}', 'x', '{}')")
    for sql in rows:
        run(spec, sql)


def test_an_older_database_with_a_malformed_row_migrates_and_the_row_is_named(spec: str) -> None:
    schema_6_database(spec, ["UPDATE games SET first_dealer = 99"])
    store = open_store(spec)   # schema 7: the row stored before stays, and is named
    damaged: list[str] = []
    assert store.games(damaged=damaged) == []
    assert damaged == ["game 1: its first dealer: seat 99, but there are 3 players (seats 0-2)"]
    store.close()
    assert "first_dealer" in refused(spec, "UPDATE games SET first_dealer = 3")
    run(spec, "UPDATE games SET first_dealer = 2")   # a repair by hand is taken
    assert "json" in refused(spec, "UPDATE games SET players = 'x'").lower()
    store = open_store(spec)
    assert store.games()[0].first_dealer == 2
    if is_server(spec):
        from scorepad.store.postgres import PgStore

        assert isinstance(store, PgStore) and store.schema_version() == SCHEMA_VERSION
    store.close()


def test_a_scorer_cannot_insert_a_malformed_row(club: Club, cli: Callable[..., Run], tmp_path: Path) -> None:
    """What the scorer of the report did: a row INSERTed by hand, which broke everyone's backup."""
    import psycopg

    game_with_history(cli, club.url["scorer"])
    for sql in (HAND.replace("2, 'active'", "9, 'active'").format(typed="'not json'", state="state"),
                ("INSERT INTO games(uid, ruleset_id, ruleset_hash, players, sides, options, created, state,"
                " first_dealer) SELECT 'forged', ruleset_id, ruleset_hash, players, sides, options, created, state,"
                " 99 FROM games WHERE id = 1")):
        with psycopg.connect(club.url["scorer"], autocommit=True) as con, pytest.raises(psycopg.errors.CheckViolation):
            con.execute(sql)
    assert cli("--db", club.url["reader"], "backup", str(tmp_path / "club.json")).code == 0
    assert cli("--db", club.url["reader"], "verify").code == 0
