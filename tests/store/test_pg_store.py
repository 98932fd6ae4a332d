"""The PostgreSQL store over psycopg and its round trips: values travel apart from the SQL and come
back as Python values, a transaction's statements are sent together, an error leaves nothing behind,
a dropped connection is made again, and a hand costs four round trips (a `standings` two)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorepad.app import games as play
from scorepad.errors import StoreError, StoreUnreachable
from scorepad.store.choice import open_store
from tests.conftest import PG_REASON, _pg_missing, store_spec


@pytest.fixture
def url(tmp_path: Path, pg_admin: str | None) -> Iterator[str]:
    if pg_admin is None:
        _pg_missing(PG_REASON[0])
    with contextlib.ExitStack() as stack:
        yield store_spec("postgres", tmp_path, pg_admin, stack)


def connection(url: str) -> Any:
    from scorepad.store.postgres import connect

    return connect(url)


def test_values_travel_apart_from_the_sql_and_come_back_as_python_values(url: str) -> None:
    store = open_store(url)
    row = store.db.execute("SELECT 1, 'x?', NULL, true, 2.5::float8, '{\"a\": [1]}'::jsonb, ''::text,"
                           " 9000000000::bigint, ?, ?, ?, ?", ("O'Brien; --", 7, None, False)).fetchall()
    assert row == [(1, "x?", None, True, 2.5, {"a": [1]}, "", 9000000000, "O'Brien; --", 7, None, False)]
    store.close()


def test_a_nul_character_is_refused_not_cut_short(url: str) -> None:
    store = open_store(url)
    row = play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    with pytest.raises(StoreError, match="NUL"):
        play.record_hand(store, row.id, ["bid=4,3,3,3", "tricks=5,3,3,2"], key="abc\x00def")
    assert store.game(row.id).hands == 0
    play.record_hand(store, row.id, ["bid=4,3,3,3", "tricks=5,3,3,2"], key="abc")   # the connection goes on
    assert store.game(row.id).hands == 1
    store.close()


def test_a_failed_transaction_leaves_nothing_and_the_connection_goes_on(url: str) -> None:
    store = open_store(url)
    with pytest.raises(StoreError, match="does not exist"), store.write() as db:
        db.execute("INSERT INTO meta(key, value) VALUES('a', 'b')")   # held back, sent with the next
        db.execute("SELECT nothing FROM nowhere").fetchall()
    assert store.get_meta("a") is None
    with store.write() as db:
        db.execute("INSERT INTO meta(key, value) VALUES('a', 'c')")
    with pytest.raises(StoreError, match="duplicate key"), store.write() as db:   # at COMMIT's round trip
        db.execute("INSERT INTO meta(key, value) VALUES('z', 'z')")
        db.execute("INSERT INTO meta(key, value) VALUES('a', 'd')")
    assert store.get_meta("a") == "c" and store.get_meta("z") is None
    with pytest.raises(KeyError), store.write() as db:   # an exception of the program's own: rolled back too
        db.execute("INSERT INTO meta(key, value) VALUES('y', 'y')")
        db.execute("SELECT 1").fetchone()
        raise KeyError("y")
    assert store.get_meta("y") is None
    store.close()


def test_a_long_transaction_with_large_rows_both_ways(url: str) -> None:
    """A large result left unread while megabytes of writes follow in the same round trip: the driver
    reads while it sends, so neither side waits for the other for ever."""
    store = open_store(url)
    big = "x" * 200_000
    with store.write() as db:
        db.execute("CREATE TABLE blobs (k INTEGER, v TEXT)")
        unread = db.execute("SELECT repeat('y', 100000) FROM generate_series(1, 60)")   # 6 MB, read last
        db.executemany("INSERT INTO blobs(k, v) VALUES(?, ?)", [(k, big) for k in range(40)])   # 8 MB
        assert len(unread.fetchall()) == 60
    assert store.db.execute("SELECT count(*), sum(length(v)) FROM blobs").fetchone() == (40, 40 * 200_000)
    store.close()


def round_trips(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    from scorepad.store import postgres

    sent: list[list[str]] = []
    real = postgres._run

    def counted(raw: Any, statements: Any) -> Any:
        sent.append([sql.split()[0] for sql, _ in statements])
        return real(raw, statements)

    monkeypatch.setattr(postgres, "_run", counted)
    return sent


def test_a_hand_is_four_round_trips_and_standings_two(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_store(url)
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    store.close()
    sent = round_trips(monkeypatch)
    store = open_store(url)
    rec = play.record_hand(store, None, ["bid=4,3,3,3", "tricks=5,3,3,2"], key="k1")
    assert sent == [["SELECT"], ["SELECT"], ["BEGIN", "SELECT", "SELECT"],
                    ["INSERT", "UPDATE", "DELETE", "INSERT", "COMMIT"]]
    assert rec.row == open_store(url).game(rec.row.id)   # the game as the hand left it, as a read gives it
    sent.clear()
    row = store.game(None)
    assert store.pending_bid(row.id) is None
    assert sent == [["SELECT"]]   # the bid came with the game
    store.close()


def test_the_bid_read_with_the_game_is_the_one_written_down(url: str) -> None:
    store = open_store(url)
    row = play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    store.set_pending_bid(row.id, row.version, ["bid=4,3,3,3"])
    other = open_store(url)
    assert other.pending_bid(other.game(row.id).id) == ["bid=4,3,3,3"]
    rec = play.record_hand(other, row.id, ["tricks=5,3,3,2"])
    assert rec.n == 1 and store.pending_bid(row.id) is None
    other.close()
    store.close()


def test_a_dropped_connection_is_made_again(url: str, pg_admin: str | None) -> None:
    """A kept connection (`play`) that the server dropped between two commands: the next one connects
    again, for a read and for a write, and stores the hand once."""
    store = open_store(url)
    row = play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    assert pg_admin is not None
    admin = connection(pg_admin)

    def drop() -> None:   # this store's own server process only (others may be testing on the server)
        pid = store.db.execute("SELECT pg_backend_pid()").fetchone()[0]
        assert admin.execute("SELECT pg_terminate_backend($1::int)", (pid,)).fetchall() == [(True,)]

    drop()
    assert store.game(row.id).hands == 0
    drop()
    play.record_hand(store, row.id, ["bid=4,3,3,3", "tricks=5,3,3,2"])
    assert [h.n for h in open_store(url).hands(row.id)] == [1]
    admin.close()
    store.close()


def test_an_unreachable_server_is_said_so(tmp_path: Path) -> None:
    with pytest.raises(StoreUnreachable, match=r"cannot reach the club database 127\.0\.0\.1:1/club"):
        open_store("postgresql://ann:hunter2@127.0.0.1:1/club?connect_timeout=2")
