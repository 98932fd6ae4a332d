"""`scorepad db copy`: move a whole database between SQLite and PostgreSQL, then prove both sides equal.

Every table is copied with its ids (game 12 stays game 12 for the players) into a target that holds
no games yet, a batch of rows at a time (on PostgreSQL each batch is one COPY), so that a club's
whole history is never in memory at once. It is all one transaction on the target: the copy is
read back and compared with the source table by table, row by row, before that transaction commits,
so a failure anywhere (or a difference) leaves the target as it was. The source may also be an
export file (what `backup` writes on PostgreSQL): it is then imported with every check of `import`,
and the target's export must equal the file, again before the commit.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from typing import Any

from scorepad.app.transfer.export import differs_from_file
from scorepad.app.transfer.importing import import_file
from scorepad.errors import StoreError, UserError
from scorepad.locale import _, ngettext
from scorepad.store import Store
from scorepad.store.choice import open_store
from scorepad.store.migrations import SCHEMA_VERSION, TABLES, table_columns
from scorepad.store.protocol import is_server, mask
from scorepad.store.rowshape import JSON_COLUMNS, DamagedRow, column_problem, game_problem, hand_values, where

SKIP = {"scorepad_schema", "sqlite_sequence"}  # each store's own bookkeeping
# tables whose first column tells their rows apart: read a batch at a time, from where the last stopped
KEYED = {"rulesets", "games", "hands", "audit", "pending_bids", "writes"}
BATCH = 5000  # rows read, written and compared at a time


@dataclass
class Copied:
    counts: dict[str, int]
    text: str


def tables(store: Store, where: str = "") -> list[str]:
    """The data tables of a store, parents first: the schema's own list (TABLES), once the store is
    seen to hold exactly those tables with exactly those columns. Every name that reaches SQL text
    comes from the code, never from the database read: a column named like SQL stays a refusal."""
    if is_pg(store):
        found = {t for (t,) in store.db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            " AND table_type = 'BASE TABLE'")}
    else:
        found = {t for (t,) in store.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    found -= SKIP
    if found != set(TABLES):
        raise UserError(_("{db} is not a scorepad database of schema {version}: its tables are not scorepad's "
                          "(db copy copies only scorepad's own tables and columns)").format(
                              db=mask(where), version=SCHEMA_VERSION))
    for table, expected in TABLES.items():
        if set(table_columns(store.db, table)) != set(expected):
            raise UserError(_("{db} is not a scorepad database of schema {version}: the columns of its table "
                              "{table} are not scorepad's (db copy copies only scorepad's own tables and columns)")
                            .format(db=mask(where), version=SCHEMA_VERSION, table=table))
    return list(TABLES)


def columns(table: str) -> list[str]:
    """The schema's columns of one of its tables, in the schema's order (the same on both stores)."""
    return list(TABLES[table])


def is_pg(store: Store) -> bool:
    return type(store).__name__ == "PgStore"


def rows(store: Store, table: str, cols: list[str]) -> list[tuple[Any, ...]]:
    """Every row of a table in key order, as plain values (the same on both stores)."""
    return [row for batch in batches(store, table, cols) for row in batch]


def batches(store: Store, table: str, cols: list[str]) -> Iterator[list[tuple[Any, ...]]]:
    """The rows of a table in key order, as plain values (the same on both stores), BATCH at a time."""
    if table == "meta":
        yield [tuple(r) for r in store.db.execute(
            "SELECT key, value FROM meta WHERE key NOT LIKE 'current_game%' ORDER BY key")]
        return
    select = f"SELECT {', '.join(cols)} FROM {table}"
    if table not in KEYED:
        yield [tuple(r) for r in store.db.execute(f"{select} ORDER BY {cols[0]}")]
        return
    got = [tuple(r) for r in store.db.execute(f"{select} ORDER BY {cols[0]} LIMIT {BATCH}")]
    while got:
        yield got
        if len(got) < BATCH:
            return
        got = [tuple(r) for r in store.db.execute(
            f"{select} WHERE {cols[0]} > ? ORDER BY {cols[0]} LIMIT {BATCH}", (got[-1][0],))]


def copy_database(source: str, target: str) -> Copied:
    """Copy `source` (a database, or an export file) into the empty database `target`; then compare."""
    if source.strip() == target.strip():
        raise UserError(_("the source and the target are the same database"))
    src_file = not is_server(source) and Path(source).suffix.lower() == ".json"
    if not src_file and not is_server(source) and not Path(source).is_file():
        raise UserError(_("no database {path}").format(path=source))
    made = not is_server(target) and not Path(target).exists()   # a file this copy makes: gone if it fails
    dst = open_store(target)
    try:
        held = int(dst.db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        if held:
            raise UserError(ngettext("{target} already holds {n} game; db copy fills an empty database (`scorepad "
                                     "import` merges an export into one that is not)",
                                     "{target} already holds {n} games; db copy fills an empty database (`scorepad "
                                     "import` merges an export into one that is not)", held).format(
                                         target=mask(target), n=held))
        if src_file:
            return _from_file(Path(source), dst, target)
        src = open_store(source)
        try:
            return _copy(src, dst, source, target)
        finally:
            src.close()
    except BaseException:
        if made:   # an SQLite file: closing it twice is harmless
            dst.close()
            for end in ("", "-wal", "-shm", "-journal"):
                Path(target + end).unlink(missing_ok=True)
        raise
    finally:
        dst.close()


def _copy(src: Store, dst: Store, source: str, target: str) -> Copied:
    names = tables(src, source)
    tables(dst, target)
    counts: dict[str, int] = {}
    with dst.write() as db:
        for table in names:
            cols = columns(table)
            put = ["key", "value"] if table == "meta" else cols
            counts[table] = 0
            for batch in batches(src, table, cols):
                if table == "games":   # a few rows: each checked (the rule of a first dealer, the JSON columns)
                    _refuse_damaged(source, table, cols, batch)
                if batch:
                    try:
                        dst.insert_rows(db, table, put, batch)
                    except (StoreError, sqlite3.IntegrityError):
                        _refuse_damaged(source, table, cols, batch)   # the target's schema refused a row: which
                        raise
                counts[table] += len(batch)
            if is_pg(dst) and "id" in cols:
                db.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                           f"COALESCE((SELECT max(id) FROM {table}), 1), (SELECT max(id) FROM {table}) IS NOT NULL)")
        differences = compare(src, dst)  # before the commit: a copy that differs is never kept
        if differences:
            raise StoreError(_("the copy in {target} differs from {source}: {difference}").format(
                                 target=mask(target), source=mask(source), difference=differences[0]), differences)
    current = src.get_meta("current_game")
    if current is not None:
        dst.set_meta("current_game", current)
    return Copied(counts, _("Copied {what} from {source} to {target}; both sides are equal.").format(
                      what=_summary(counts), source=mask(source), target=mask(target)))


def _refuse_damaged(source: str, table: str, cols: list[str], batch: list[tuple[Any, ...]]) -> None:
    """Refuse (exit 2) a source row that scorepad did not write as it is, by game and hand, before or
    when the target's schema refuses it: a copy holds only rows every reader and `import` can read."""
    kinds = dict(JSON_COLUMNS.get(table, ()))
    at = {c: k for k, c in enumerate(cols)}
    if not kinds or not {"game_id", "id"} & set(at) or not set(kinds) <= set(at):
        return
    for row in batch:
        gid = row[at["id"]] if table == "games" else row[at["game_id"]]
        hand = row[at["n"]] if table == "hands" else row[at["hand_n"]] if table == "audit" else None
        place = where(abs(gid), hand) if isinstance(gid, int) else str(gid)
        said = next((p for c, kind in kinds.items() if (p := column_problem(row[at[c]], c, kind))), None)
        if said is None and table == "games":
            players, sides, options = (json.loads(row[at[c]]) for c in ("players", "sides", "options"))
            said = game_problem(players, sides, options, row[at["first_dealer"]] if "first_dealer" in at else 0)
        if said is None and table == "hands":
            try:
                hand_values(gid, int(row[at["n"]]), tuple(row[at[c]] for c in kinds))
            except DamagedRow as exc:
                raise UserError(_("{source}: {problem}; db copy copies only rows scorepad wrote (`scorepad verify` "
                                  "on the source lists them)").format(source=mask(source), problem=exc.problems[0])
                                ) from None
        if said is not None:
            raise UserError(_("{source}: {problem}; db copy copies only rows scorepad wrote (`scorepad verify` "
                              "on the source lists them)").format(source=mask(source),
                                                                  problem=_("{where}: {problem}").format(
                                                                      where=place, problem=said)))


def compare(a: Store, b: Store) -> list[str]:
    """Every table that differs between two stores, with the first differing row (read a batch at a time)."""
    out = []
    names = tables(a)
    tables(b)
    for table in names:
        cols = columns(table)
        left = right = 0
        first: int | None = None
        end = object()
        for x, y in zip_longest(_each(a, table, cols), _each(b, table, cols), fillvalue=end):
            left += x is not end
            right += y is not end
            if first is None and x != y:
                first = max(left, right)
        if first is not None:
            out.append(_("{table}: {left} and {right} rows, first difference at row {n}").format(
                           table=table, left=left, right=right, n=first))
    return out


def _each(store: Store, table: str, cols: list[str]) -> Iterator[tuple[Any, ...]]:
    for batch in batches(store, table, cols):
        yield from batch


def _from_file(path: Path, dst: Store, target: str) -> Copied:

    hands: list[int] = []

    def check() -> None:   # inside the import's transaction: a copy that differs is never kept
        if differs_from_file(dst, path):
            raise StoreError(_("the copy in {target} differs from {source} after the import").format(
                                 target=mask(target), source=path))
        hands.append(int(dst.db.execute("SELECT COUNT(*) FROM hands").fetchone()[0]))

    added, _skipped = import_file(dst, path, check)
    counts = {"games": added, "hands": hands[0] if hands else 0}
    return Copied(counts, _("Copied {what} from {source} to {target}; both sides are equal.").format(
                      what=_summary(counts), source=path, target=mask(target)))


def _summary(counts: dict[str, int]) -> str:
    parts = []
    if "games" in counts:
        parts.append(ngettext("{n} game", "{n} games", counts["games"]).format(n=counts["games"]))
    if "hands" in counts:
        parts.append(ngettext("{n} hand", "{n} hands", counts["hands"]).format(n=counts["hands"]))
    if "audit" in counts:
        parts.append(ngettext("{n} audit entry", "{n} audit entries", counts["audit"]).format(n=counts["audit"]))
    if "rulesets" in counts:
        parts.append(ngettext("{n} pinned ruleset", "{n} pinned rulesets", counts["rulesets"]).format(
                         n=counts["rulesets"]))
    return ", ".join(parts)
