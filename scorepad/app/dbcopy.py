"""`scorepad db copy`: move a whole database between SQLite and PostgreSQL, then prove both sides equal.

Every table is copied row by row with its ids (game 12 stays game 12 for the players), in one
transaction on the target, into a target that holds no games yet. Afterwards both databases are
read again and compared table by table, row by row; a difference is an error. The source may also
be an export file (what `backup` writes on PostgreSQL): it is then imported with every check of
`import`, and the target's export must equal the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorepad.errors import StoreError, UserError
from scorepad.locale import _, ngettext
from scorepad.store import Store
from scorepad.store.choice import open_store
from scorepad.store.protocol import is_server, mask

FIRST = ["meta", "rulesets", "games", "hands", "audit"]  # the order foreign keys need
SKIP = {"scorepad_schema", "sqlite_sequence"}  # each store's own bookkeeping


@dataclass
class Copied:
    counts: dict[str, int]
    text: str


def tables(store: Store) -> list[str]:
    """The data tables of a store, parents first."""
    if is_pg(store):
        names = [t for (t,) in store.db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            " AND table_type = 'BASE TABLE'")]
    else:
        names = [t for (t,) in store.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    names = [n for n in names if n not in SKIP]
    return [t for t in FIRST if t in names] + sorted(set(names) - set(FIRST))


def columns(store: Store, table: str) -> list[str]:
    if is_pg(store):
        return [c for (c,) in store.db.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name = ? ORDER BY ordinal_position", (table,))]
    return [str(r[1]) for r in store.db.execute(f"PRAGMA table_info({table})")]


def is_pg(store: Store) -> bool:
    return type(store).__name__ == "PgStore"


def rows(store: Store, table: str, cols: list[str]) -> list[tuple[Any, ...]]:
    """Every row of a table in key order, as plain values (the same on both stores)."""
    if table == "meta":
        got = store.db.execute("SELECT key, value FROM meta WHERE key NOT LIKE 'current_game%' ORDER BY key")
    else:
        got = store.db.execute(f"SELECT {', '.join(cols)} FROM {table} ORDER BY {cols[0]}")
    return [tuple(r) for r in got]


def copy_database(source: str, target: str) -> Copied:
    """Copy `source` (a database, or an export file) into the empty database `target`; then compare."""
    if source.strip() == target.strip():
        raise UserError(_("the source and the target are the same database"))
    src_file = not is_server(source) and Path(source).suffix.lower() == ".json"
    if not src_file and not is_server(source) and not Path(source).is_file():
        raise UserError(_("no database {path}").format(path=source))
    dst = open_store(target)
    try:
        if dst.games():
            held = len(dst.games())
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
    finally:
        dst.close()


def _copy(src: Store, dst: Store, source: str, target: str) -> Copied:
    names = tables(src)
    missing = [t for t in names if t not in tables(dst)]
    if missing:
        raise StoreError(_("{target} has no table {table}; is it a scorepad database?").format(
                             target=mask(target), table=missing[0]))
    counts: dict[str, int] = {}
    with dst.write() as db:
        for table in names:
            cols = columns(src, table)
            data = rows(src, table, cols)
            if table == "meta":
                cols = ["key", "value"]
            if data:
                marks = ", ".join("?" for _ in cols)
                db.executemany(f"INSERT INTO {table}({', '.join(cols)}) VALUES({marks})", data)
            counts[table] = len(data)
            if is_pg(dst) and "id" in cols:
                db.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                           f"COALESCE((SELECT max(id) FROM {table}), 1), (SELECT max(id) FROM {table}) IS NOT NULL)")
    current = src.get_meta("current_game")
    if current is not None:
        dst.set_meta("current_game", current)
    differences = compare(src, dst)
    if differences:
        raise StoreError(_("the copy in {target} differs from {source}: {difference}").format(
                             target=mask(target), source=mask(source), difference=differences[0]), differences)
    return Copied(counts, _("Copied {what} from {source} to {target}; both sides are equal.").format(
                      what=_summary(counts), source=mask(source), target=mask(target)))


def compare(a: Store, b: Store) -> list[str]:
    """Every table that differs between two stores, with the first differing row."""
    out = []
    names = tables(a)
    if names != tables(b):
        out.append(_("tables {left} and {right}").format(left=names, right=tables(b)))
    for table in names:
        cols = columns(a, table)
        left, right = rows(a, table, cols), rows(b, table, cols)
        if left != right:
            first = next((i for i, (x, y) in enumerate(zip(left, right, strict=False)) if x != y), min(len(left), len(right)))
            out.append(_("{table}: {left} and {right} rows, first difference at row {n}").format(
                           table=table, left=len(left), right=len(right), n=first + 1))
    return out


def _from_file(path: Path, dst: Store, target: str) -> Copied:
    from scorepad.app.shapes import read_json
    from scorepad.app.transfer import export_data, import_file, read_document

    added, _skipped = import_file(dst, path)
    want = read_json(read_document(path, "a scorepad export"))
    got = export_data(dst)
    if json.dumps(got, sort_keys=True) != json.dumps(want, sort_keys=True):
        raise StoreError(_("the copy in {target} differs from {source} after the import").format(
                             target=mask(target), source=path))
    hands = sum(len(g["hand_rows"]) for g in want["games"])
    counts = {"games": added, "hands": hands}
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
