"""The schema's numbered migrations: one list of small steps, run in order, each store in one transaction.

Both stores run these same functions: SQLite on its connection, PostgreSQL through
scorepad.store.postgres.PgConnection, which reads this SQL the way PostgreSQL needs it (`?`
placeholders, `id INTEGER PRIMARY KEY` as an identity column). A new step is appended with the next
number; a database made by an older scorepad is brought up to date step by step on first use.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence

SCHEMA_VERSION = 6


def _v1(db: sqlite3.Connection) -> None:
    _script(db, """
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS rulesets (
            hash TEXT PRIMARY KEY, ruleset_id TEXT NOT NULL, source TEXT NOT NULL, text TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS games (
            id INTEGER PRIMARY KEY,
            uid TEXT NOT NULL UNIQUE,
            ruleset_id TEXT NOT NULL,
            ruleset_hash TEXT NOT NULL REFERENCES rulesets(hash),
            variant TEXT,
            name TEXT,
            season TEXT,
            players TEXT NOT NULL,
            sides TEXT NOT NULL,
            options TEXT NOT NULL,
            created TEXT NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0,
            hands INTEGER NOT NULL DEFAULT 0,
            state TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS hands (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            n INTEGER NOT NULL,
            status TEXT NOT NULL DEFAULT 'active',
            typed TEXT NOT NULL,
            hand TEXT NOT NULL,
            points TEXT NOT NULL,
            breakdown TEXT NOT NULL,
            events TEXT NOT NULL,
            state TEXT NOT NULL,
            created TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS hands_game ON hands(game_id, status, n);
        CREATE TABLE IF NOT EXISTS audit (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL,
            at TEXT NOT NULL,
            action TEXT NOT NULL,
            hand_n INTEGER,
            detail TEXT NOT NULL);
        """)


def _script(db: sqlite3.Connection, sql: str) -> None:
    """Run several statements inside the caller's transaction (executescript would commit it)."""
    for statement in sql.split(";"):
        if statement.strip():
            db.execute(statement)


def _v2(db: sqlite3.Connection) -> None:
    db.execute("CREATE INDEX IF NOT EXISTS games_season ON games(season)")
    db.execute("CREATE INDEX IF NOT EXISTS audit_game ON audit(game_id)")


def _v3(db: sqlite3.Connection) -> None:
    """A version per game, bumped by every write, so a command never overwrites a change it did not see."""
    db.execute("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0")


def _v4(db: sqlite3.Connection) -> None:
    """The bids of the coming hand, written down before it is played (`scorepad bid`)."""
    db.execute("CREATE TABLE IF NOT EXISTS pending_bids (game_id INTEGER PRIMARY KEY REFERENCES games(id),"
               " typed TEXT NOT NULL, created TEXT NOT NULL)")


def _v5(db: sqlite3.Connection) -> None:
    """The idempotency key of every hand written, so a retried write is answered, not stored twice."""
    db.execute("CREATE TABLE IF NOT EXISTS writes (key TEXT PRIMARY KEY, game_id INTEGER NOT NULL,"
               " hand_n INTEGER NOT NULL, at TEXT NOT NULL)")


def _v6(db: sqlite3.Connection) -> None:
    """The seat that deals a game's first hand: a rematch passes the deal on, and every replay starts there.
    Run again on a database that has it (a step is repeated when its version was not recorded), it adds nothing."""
    if not _has_column(db, "games", "first_dealer"):
        db.execute("ALTER TABLE games ADD COLUMN first_dealer INTEGER NOT NULL DEFAULT 0")


def _has_column(db: sqlite3.Connection, table: str, column: str) -> bool:
    if isinstance(db, sqlite3.Connection):
        return any(row[1] == column for row in db.execute(f"PRAGMA table_info({table})"))
    return db.execute("SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()"
                      " AND table_name = ? AND column_name = ?", (table, column)).fetchone() is not None


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1, _v2, _v3, _v4, _v5, _v6]

# The data tables the migrations above leave, parents first (the order foreign keys need), with their
# columns. Code that must name a table or a column in SQL text (db copy, a batch insert) takes the
# names from here, never from a database it reads: a name read from a file is data, not SQL.
TABLES: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "rulesets": ("hash", "ruleset_id", "source", "text"),
    "games": ("id", "uid", "ruleset_id", "ruleset_hash", "variant", "name", "season", "players", "sides",
              "options", "created", "finished", "hands", "state", "version", "first_dealer"),
    "hands": ("id", "game_id", "n", "status", "typed", "hand", "points", "breakdown", "events", "state", "created"),
    "audit": ("id", "game_id", "at", "action", "hand_n", "detail"),
    "pending_bids": ("game_id", "typed", "created"),
    "writes": ("key", "game_id", "hand_n", "at"),
}


def known_columns(table: str, columns: Sequence[str]) -> None:
    """Refuse SQL text for a table or a column that is not the schema's (a programming error, never a user's)."""
    if table not in TABLES or not set(columns) <= set(TABLES[table]):
        raise ValueError(f"not a table or column of scorepad's schema: {table!r} {list(columns)!r}")
