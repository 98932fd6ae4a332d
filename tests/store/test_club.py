"""`club init` on a real PostgreSQL server: each role connects and the database itself refuses what it may not do."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import PG_REASON, Run, _pg_missing, pg_schema


@dataclass
class Club:
    prefix: str
    admin: str          # superuser URL on the club's schema
    url: dict[str, str]  # a login member of each role: reader, scorer, owner


@pytest.fixture
def club(pg_admin: str | None, cli: Callable[..., Run]) -> Iterator[Club]:
    if pg_admin is None:
        _pg_missing(PG_REASON[0])
    assert pg_admin is not None
    import psycopg
    from psycopg.conninfo import make_conninfo

    prefix = f"c{uuid.uuid4().hex[:8]}"
    logins = {kind: f"{prefix}_{kind}_member" for kind in ("reader", "scorer", "owner")}
    with pg_schema(pg_admin) as admin:
        r = cli("--db", admin, "club", "init", "--prefix", prefix)
        assert r.code == 0, r.err
        with psycopg.connect(admin, autocommit=True) as con:
            for kind, login in logins.items():
                con.execute(f"CREATE ROLE {login} LOGIN PASSWORD 'pw-{login}' IN ROLE {prefix}_{kind}")
        try:
            yield Club(prefix, admin, {kind: make_conninfo(admin, user=login, password=f"pw-{login}")
                                       for kind, login in logins.items()})
        finally:
            with psycopg.connect(admin, autocommit=True) as con:
                for login in logins.values():
                    con.execute(f"DROP ROLE {login}")
                for kind in ("scorer", "reader", "owner"):  # their tables and grants go; the schema is dropped next
                    con.execute(f"DROP OWNED BY {prefix}_{kind}")
                    con.execute(f"DROP ROLE {prefix}_{kind}")


def refused(url: str, sql: str, params: tuple[Any, ...] = ()) -> str:
    """Run `sql` as a role straight on the database (not through scorepad); the server's refusal."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as con:
        try:
            con.execute(sql, params)
        except psycopg.errors.InsufficientPrivilege as exc:
            return str(exc)
    raise AssertionError(f"the database accepted: {sql}")


def accepted(url: str, sql: str) -> int:
    import psycopg

    with psycopg.connect(url, autocommit=True) as con:
        return con.execute(sql).rowcount


def game_with_history(cli: Callable[..., Run], url: str) -> None:
    assert cli("--db", url, "new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("--db", url, "hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert cli("--db", url, "hand", "bid=3,3,3,3", "tricks=4,3,3,3").code == 0
    assert cli("--db", url, "undo").code == 0
    assert cli("--db", url, "edit", "1", "tricks=4,4,3,2").code == 0


def test_club_init_prints_its_grants_and_can_run_again(club: Club, cli: Callable[..., Run]) -> None:
    r = cli("--db", club.admin, "club", "init", "--prefix", club.prefix)
    assert r.code == 0, r.err
    assert "CREATE ROLE" not in r.out  # the roles exist: a second run only grants again
    p = club.prefix
    assert "GRANT INSERT, UPDATE (status) ON" in r.out and f".hands TO {p}_scorer;" in r.out
    assert "GRANT SELECT ON" in r.out and f".audit TO {p}_reader;" in r.out
    assert "BEFORE UPDATE OR DELETE ON" in r.out and "pw-" not in r.out
    assert cli("--db", club.admin, "club", "init", "--prefix", "Bad-Prefix").code == 2
    assert cli("--db", "x.db", "club", "init").code == 2


def test_reader_reads_and_may_not_write(club: Club, cli: Callable[..., Run]) -> None:
    game_with_history(cli, club.url["scorer"])
    reader = club.url["reader"]
    assert cli("--db", reader, "standings", "--game", "1").code == 0
    assert cli("--db", reader, "season", "--include-unfinished").code == 0
    r = cli("--db", reader, "hand", "--game", "1", "bid=3,3,3,3", "tricks=4,3,3,3")
    assert r.code == 1 and "refused" in r.err and "permission denied" in r.err and "pw-" not in r.err
    assert "permission denied" in refused(reader, "INSERT INTO hands(game_id, n, typed, hand, points, breakdown, events,"
                                                  " state, created) VALUES(1, 9, '', '', '', '', '', '', '')")
    assert "permission denied" in refused(reader, "UPDATE games SET state = '{}'")
    assert "permission denied" in refused(reader, "DELETE FROM audit")


def test_scorer_plays_and_cannot_rewrite_history(club: Club, cli: Callable[..., Run], tmp_path: Path) -> None:
    scorer = club.url["scorer"]
    game_with_history(cli, scorer)
    assert cli("--db", scorer, "finish").code == 0
    # a stored hand: its content never changes, it is never deleted, a retired hand never comes back
    assert "permission denied" in refused(scorer, "UPDATE hands SET typed = '[]' WHERE n = 1")
    assert "never changed" in refused(scorer, "UPDATE hands SET status = 'active' WHERE status = 'undone'")
    assert "never changed" in refused(scorer, "UPDATE hands SET status = 'replaced' WHERE status = 'undone'")
    assert "permission denied" in refused(scorer, "DELETE FROM hands")
    # the audit trail: no update, no delete, no truncate
    assert "permission denied" in refused(scorer, "UPDATE audit SET detail = '{}'")
    assert "permission denied" in refused(scorer, "DELETE FROM audit")
    assert "permission denied" in refused(scorer, "TRUNCATE audit")
    # re-scoring with another ruleset text is the owner's
    assert "permission denied" in refused(scorer, "UPDATE games SET ruleset_hash = ruleset_hash")
    text = cli("rules", "export", "spades").out
    changed = tmp_path / "spades.toml"
    changed.write_text("# the club's copy\n" + text, encoding="utf-8")
    r = cli("--db", scorer, "rescore", "1", "--ruleset", str(changed), "--yes")
    assert r.code == 1 and "refused" in r.err
    assert cli("--db", scorer, "verify").code == 0


def test_owner_rescores_and_deletes_but_the_audit_still_only_grows(club: Club, cli: Callable[..., Run],
                                                                    tmp_path: Path) -> None:
    game_with_history(cli, club.url["scorer"])
    owner = club.url["owner"]
    text = cli("rules", "export", "spades").out
    changed = tmp_path / "spades.toml"
    changed.write_text("# the club's copy\n" + text, encoding="utf-8")
    r = cli("--db", owner, "rescore", "1", "--ruleset", str(changed), "--yes")
    assert r.code == 0, r.err
    assert "append-only: UPDATE refused" in refused(owner, "UPDATE audit SET detail = '{}'")
    assert "append-only: TRUNCATE refused" in refused(owner, "TRUNCATE audit")
    assert "never changed" in refused(owner, "UPDATE hands SET typed = '[]'")
    assert "append-only: DELETE refused" in refused(owner, "DELETE FROM audit")
    assert "append-only: UPDATE refused" in refused(owner, "UPDATE audit SET game_id = 2 WHERE game_id = 1")
    r = cli("--db", club.url["scorer"], "delete", "1", "--yes")
    assert r.code == 1 and "refused" in r.err
    r = cli("--db", owner, "delete", "1", "--yes")
    assert r.code == 0, r.err
    assert accepted(owner, "SELECT 1 FROM hands") == 0
    assert accepted(owner, "SELECT 1 FROM audit WHERE game_id = -1") == 5  # new, undo, edit, rescore, delete


def test_only_the_owner_migrates(club: Club, cli: Callable[..., Run]) -> None:
    from scorepad.store import SCHEMA_VERSION

    game_with_history(cli, club.url["scorer"])
    accepted(club.admin, f"UPDATE scorepad_schema SET version = {SCHEMA_VERSION - 1}")  # as if scorepad was upgraded
    for kind in ("reader", "scorer"):
        r = cli("--db", club.url[kind], "standings", "--game", "1")
        assert r.code == 1
        assert f"needs schema {SCHEMA_VERSION} (it has {SCHEMA_VERSION - 1}); its owner runs `scorepad db migrate`" in r.err
    r = cli("--db", club.url["owner"], "db", "migrate")
    assert r.code == 0 and f"schema version {SCHEMA_VERSION}" in r.out, r.err
    assert "pw-" not in r.out
    assert cli("--db", club.url["reader"], "standings", "--game", "1").code == 0


@pytest.mark.parametrize(("lang", "says"), [("en", "a stored hand is never changed; undo and edit only retire it"),
                                            ("et", "salvestatud jagamist ei muudeta kunagi"),
                                            ("ru", "сохранённая раздача никогда не меняется")])
def test_a_guard_s_refusal_reaches_the_player_in_their_language(club: Club, cli: Callable[..., Run], lang: str,
                                                                says: str) -> None:
    """The guard names its sentence by an id in the server's HINT; the program translates the id."""
    from scorepad.errors import StoreRefused
    from scorepad.locale import set_language
    from scorepad.store.choice import open_store

    scorer = club.url["scorer"]
    game_with_history(cli, scorer)
    store = open_store(scorer)
    set_language(lang)
    try:
        with pytest.raises(StoreRefused) as refusal, store.write() as db:
            db.execute("UPDATE hands SET status = 'active' WHERE status = 'undone'")
    finally:
        set_language(None)
        store.close()
    assert says in refusal.value.message.lower(), refusal.value.message
