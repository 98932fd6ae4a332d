"""The schema's numbered migrations: one list of small steps, run in order, each store in one transaction.

Both stores run these same functions: SQLite on its connection, PostgreSQL through
scorepad.store.postgres.PgConnection, which reads this SQL the way PostgreSQL needs it (`?`
placeholders, `id INTEGER PRIMARY KEY` as an identity column). A new step is appended with the next
number; a database made by an older scorepad is brought up to date step by step on first use.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scorepad.store.rowshape import JSON_COLUMNS

SCHEMA_VERSION = 9


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
    return column in table_columns(db, table)


def table_columns(db: sqlite3.Connection, table: str) -> list[str]:
    """The column names the database's catalog reports for a table: read as data (the table's name is a
    parameter, never SQL text), to compare with the schema's list, never run."""
    if isinstance(db, sqlite3.Connection):
        return [str(r[1]) for r in db.execute("SELECT name, name FROM pragma_table_info(?)", (table,))]
    return [str(c) for (c,) in db.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND table_name = ?", (table,))]


def _v7(db: sqlite3.Connection) -> None:
    """Rows of the shape scorepad writes, whoever writes them (a club scorer may INSERT, an SQLite file
    can be edited): each JSON column holds JSON of its kind (scorepad.store.rowshape.JSON_COLUMNS), and
    a game's first dealer is one of its seats. Rows stored before are not checked here: the readers
    name them, and `verify` lists them. Run again on a database that has them, it adds nothing."""
    if isinstance(db, sqlite3.Connection):
        _sqlite_checks(db)
    else:
        _server_checks(db)


JSON_IS = "scorepad_json_is"   # PostgreSQL: the function the CHECKs call (text, kind) -> boolean


def _sqlite_checks(db: sqlite3.Connection) -> None:
    """SQLite adds a CHECK only by rebuilding a table (and games is referenced by other tables'
    foreign keys, which cannot be switched off inside this transaction): triggers refuse instead."""
    for table, columns in JSON_COLUMNS.items():
        refusals = [f"SELECT RAISE(ABORT, 'scorepad: {table}.{name} must be a JSON {kind}') WHERE NOT "
                    f"(CASE WHEN typeof(NEW.{name}) = 'text' AND json_valid(NEW.{name}) "
                    f"THEN json_type(NEW.{name}) = '{kind}' ELSE 0 END);" for name, kind in columns]
        if table == "games":
            refusals.append("SELECT RAISE(ABORT, 'scorepad: games.first_dealer must be one of its seats') WHERE NOT "
                            "(typeof(NEW.first_dealer) = 'integer' AND NEW.first_dealer >= 0 AND "
                            "NEW.first_dealer < json_array_length(NEW.players));")
        names = ", ".join([name for name, _ in columns] + (["first_dealer"] if table == "games" else []))
        body = " ".join(refusals)
        for when, of in (("INSERT", ""), ("UPDATE", f" OF {names}")):
            db.execute(f"CREATE TRIGGER IF NOT EXISTS {table}_shape_{when.lower()} BEFORE {when}{of} ON {table}"
                       f" FOR EACH ROW BEGIN {body} END")


def _server_checks(db: sqlite3.Connection) -> None:
    """PostgreSQL: a CHECK per column, NOT VALID (the rows already stored are not read again, so a
    club with an old malformed row still migrates; `verify` names that row)."""
    have = db.execute("SELECT 1 FROM pg_proc WHERE proname = ? AND pronamespace = current_schema()::regnamespace",
                      (JSON_IS,)).fetchone()
    if have is None:
        # json, not jsonb: what the column holds must parse as JSON text (jsonb refuses the escape \u0000)
        db.execute(f"CREATE FUNCTION {JSON_IS}(t text, kind text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE"
                   " STRICT PARALLEL SAFE SECURITY INVOKER SET search_path = pg_catalog, pg_temp AS $$\n"
                   "BEGIN RETURN json_typeof(t::json) = kind; EXCEPTION WHEN others THEN RETURN false; END $$")
    checks = {f"{table}_{name}_json": (table, f"{JSON_IS}({name}, '{kind}')")
              for table, columns in JSON_COLUMNS.items() for name, kind in columns}
    # unreadable players are their own CHECK's refusal (that name says the column)
    checks["games_first_dealer_seat"] = ("games", (f"CASE WHEN {JSON_IS}(players, 'array') THEN first_dealer >= 0"
                                                   " AND first_dealer < json_array_length(players::json) ELSE true END"))
    present = {name for (name,) in db.execute(
        "SELECT conname FROM pg_constraint WHERE connamespace = current_schema()::regnamespace AND contype = 'c'")}
    for name, (table, check) in checks.items():
        if name not in present:
            db.execute(f"ALTER TABLE {table} ADD CONSTRAINT {name} CHECK ({check}) NOT VALID")



# Who names a game's stored breakdown lines by id (the store reads no ruleset: scorepad.app.breakdown
# adds itself here when imported): (the game's row, its hands' breakdowns as parsed) -> the same, named.
BREAKDOWN_NAMERS: list[Callable[[Mapping[str, Any], list[Any]], list[Any]]] = []


def _v8(db: sqlite3.Connection) -> None:
    """A hand's breakdown holds each line's id in the ruleset, not its words (scorepad.app.breakdown):
    a label of the pinned ruleset that names exactly one line becomes that line's id; any other line
    keeps its words. Run again, it finds nothing in words to name."""
    games = db.execute("SELECT g.id, r.text, r.source, g.variant, g.players, g.sides, g.options, g.first_dealer"
                       " FROM games g JOIN rulesets r ON r.hash = g.ruleset_hash ORDER BY g.id").fetchall()
    for gid, text, source, variant, players, sides, options, first_dealer in games:
        hands = db.execute("SELECT id, breakdown FROM hands WHERE game_id = ? ORDER BY id", (gid,)).fetchall()
        parsed: list[Any] = []
        for _hid, breakdown in hands:
            try:
                parsed.append(json.loads(breakdown))
            except (TypeError, ValueError, RecursionError):
                parsed.append(None)   # damaged: left as it is, `verify` names it
        if not any(isinstance(b, list) and any(isinstance(s, list) and any(isinstance(x, list) for x in s) for s in b)
                   for b in parsed):
            continue
        if not BREAKDOWN_NAMERS:
            raise RuntimeError("schema 8 needs scorepad.app.breakdown imported to name stored breakdown lines")
        try:
            row = {"ruleset_text": text, "ruleset_source": source, "variant": variant, "players": json.loads(players),
                   "sides": json.loads(sides), "options": json.loads(options), "first_dealer": first_dealer}
        except (TypeError, ValueError, RecursionError):
            continue
        named = BREAKDOWN_NAMERS[0](row, parsed)
        for (hid, _text), before, after in zip(hands, parsed, named, strict=True):
            if after is not before and after != before:
                db.execute("UPDATE hands SET breakdown = ? WHERE id = ?",
                           (json.dumps(after, ensure_ascii=False, separators=(",", ":")), hid))


# Who names a game's stored events by id (scorepad.app.events adds itself here when imported): (the
# game's row, its hands as (n, status, hand, state, events) parsed) -> each hand's events, named.
EVENT_NAMERS: list[Callable[[Mapping[str, Any], list[tuple[int, str, Any, Any, list[Any]]]], list[list[Any]]]] = []


def _v9(db: sqlite3.Connection) -> None:
    """A hand's events hold each message's id, not its words (scorepad.app.events): an event whose
    English words are those of exactly one event of its hand scored again becomes that event's id;
    any other keeps its words. Run again, it finds nothing in words to name."""
    for gid, row in _game_rows(db):
        hands = db.execute("SELECT id, n, status, hand, state, events FROM hands WHERE game_id = ? ORDER BY n, id",
                           (gid,)).fetchall()
        parsed: list[tuple[int, str, Any, Any, list[Any]]] = []
        for _hid, n, status, hand, state, events in hands:
            try:
                parsed.append((n, status, json.loads(hand), json.loads(state), json.loads(events)))
            except (TypeError, ValueError, RecursionError):
                parsed.append((n, status, None, None, []))   # damaged: left as it is, `verify` names it
        if not any(isinstance(p[4], list) and any(isinstance(e, str) for e in p[4]) for p in parsed):
            continue
        if not EVENT_NAMERS:
            raise RuntimeError("schema 9 needs scorepad.app.events imported to name stored events")
        for (hid, *_rest), before, after in zip(hands, parsed, EVENT_NAMERS[0](row, parsed), strict=True):
            if after != before[4]:
                db.execute("UPDATE hands SET events = ? WHERE id = ?",
                           (json.dumps(after, ensure_ascii=False, separators=(",", ":")), hid))


def _game_rows(db: sqlite3.Connection) -> list[tuple[int, dict[str, Any]]]:
    """Every game's id with what replaying it needs (its pinned ruleset's text, players, sides ...); a
    game whose columns are not JSON is left out (`verify` names it)."""
    out = []
    for gid, text, source, variant, players, sides, options, first_dealer in db.execute(
            "SELECT g.id, r.text, r.source, g.variant, g.players, g.sides, g.options, g.first_dealer"
            " FROM games g JOIN rulesets r ON r.hash = g.ruleset_hash ORDER BY g.id").fetchall():
        try:
            out.append((gid, {"ruleset_text": text, "ruleset_source": source, "variant": variant,
                              "players": json.loads(players), "sides": json.loads(sides),
                              "options": json.loads(options), "first_dealer": first_dealer}))
        except (TypeError, ValueError, RecursionError):
            continue
    return out


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1, _v2, _v3, _v4, _v5, _v6, _v7, _v8, _v9]

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
