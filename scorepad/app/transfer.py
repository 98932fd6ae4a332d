"""Export the whole database as documented JSON, and import it back without duplicates.

The format is described in docs/export.md. Games are identified by their `uid`, so importing the
same file twice, or a file from another table's database, never duplicates a game. Local game
numbers are not exported: export → import into a fresh database → export gives the same bytes.

An export may come from a stranger, so importing trusts nothing in it: the whole file is checked
against the declared shape below (types, lengths, ranges, with a path in every message), each
pinned ruleset text must have the hash it is filed under, players, sides and options must fit the
ruleset, and every game is replayed — each active hand re-typed from what was typed and scored by
the engine — and must give exactly the stored hands and state. Everything is written in one
transaction, which a refusal rolls back: a refusal stores nothing.

A club's history is large (100,000 hands make an export of about 120 MB), so neither side holds it
whole: the export is written a game at a time, its games read a batch at a time; the import reads
the file a piece at a time, twice (the head and where each game is, then each game), checks each
game as it comes (in one process per core for a large file) and writes a batch of games at a time
into its transaction.
"""

from __future__ import annotations

import json
import math
import os
import re
import sqlite3
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from itertools import zip_longest
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any, NamedTuple, TextIO

from scorepad.app.shapes import (
    MAX_DEPTH,
    MAX_NAME,
    MAX_NUMBER,
    MAX_PROBLEMS,
    MAX_TEXT,
    Anything,
    Bool,
    Int,
    Items,
    ListOf,
    NotFinite,
    Number,
    Record,
    Shape,
    Text,
    Time,
    _parse_float,
    _parse_int,
    kind,
    name_problem,
    problems,
    read_json,
    scan,
)
from scorepad.errors import ScorepadError, StoreError, UserError
from scorepad.locale import N_, _
from scorepad.names import MAX_GAME_NAME, MAX_SIDE_NAME
from scorepad.store import Store, now, text_hash
from scorepad.store.sqlite import gc_paused
from scorepad.store.sqlite import loads as stored_json

FORMAT = "scorepad-export"
VERSION = 1
MAX_FILE_BYTES = 1 << 30
STATUSES = ("active", "undone", "replaced")

NAME = Text(max_len=MAX_NAME, name=True)
SIDE_NAME = Text(max_len=MAX_SIDE_NAME, name=True)
HASH = Text(pattern=r"[0-9a-f]{16}", hint=N_("16 hexadecimal digits"))
UID = Text(pattern=r"[0-9A-Za-z][0-9A-Za-z_-]{0,63}", hint=N_("up to 64 letters, digits, - and _"))
RULESET_ID = Text(max_len=100)
TYPED = ListOf(Text(max_len=1000), max_len=1000)
TABLE = Anything(table=True)
RULESET = Record({"hash": HASH, "ruleset_id": RULESET_ID, "source": Text(max_len=4096), "text": Text()})
LINE = Items([Text(max_len=1000), Number(), ListOf(Text(max_len=100))])
HAND_ROW = Record({
    "n": Int(1, 10**9), "status": Text(choices=STATUSES), "typed": TYPED, "hand": TABLE,
    "points": ListOf(Number()), "breakdown": ListOf(ListOf(LINE)), "events": ListOf(Text(max_len=10_000)),
    "state": TABLE, "created": Time()})
AUDIT = Record({"at": Time(), "action": Text(pattern=r"[a-z][a-z_-]{0,31}( [a-z][a-z_-]{0,31})?",
                                              hint=N_("a word such as edit or undo (or two: undo bid)")),
                "hand": Int(0, 10**9, nullable=True), "detail": TABLE})
GAME = Record({
    "uid": UID, "ruleset_id": RULESET_ID, "ruleset_hash": HASH, "variant": Text(max_len=100, nullable=True),
    "name": Text(max_len=MAX_GAME_NAME, name=True, nullable=True),
    "season": Text(max_len=MAX_NAME, name=True, nullable=True), "created": Time(),
    "players": ListOf(NAME, 1, 64), "sides": ListOf(Record({"name": SIDE_NAME, "members": ListOf(Int(0, 63), 1, 64)}), 1, 64),
    "options": TABLE, "finished": Bool(), "hands": Int(0, 10**9), "state": TABLE,
    "hand_rows": ListOf(HAND_ROW), "audit": ListOf(AUDIT), "pending_bid": TYPED}, frozenset({"pending_bid"}))
EXPORT = Record({"format": Text(choices=[FORMAT]), "version": Int(), "meta": Record({"current_season": NAME},
                                                                                     frozenset({"current_season"})),
                 "rulesets": ListOf(RULESET), "games": ListOf(GAME)})


class _Open(Record):
    """A table with some known keys (what `scorepad log` reads); other keys are allowed."""

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, dict):
            super().check_value(value, path, out)
            return
        super().check_value({k: v for k, v in value.items() if k in self.fields}, path, out)


_TYPED_ONLY = _Open({"typed": TYPED})
# The audit details `scorepad log` reads, per action; other actions' details are only scanned.
AUDIT_DETAILS: dict[str, Shape] = {
    "undo": _Open({"removed": _Open({"n": Int(), "typed": TYPED})}, frozenset({"removed"})),
    "edit": _Open({"hand": Int(), "old": _TYPED_ONLY, "new": _TYPED_ONLY}),
    "new": _Open({"players": ListOf(Text(max_len=1000))}, frozenset({"players"})),
    "finish": _Open({"events": ListOf(Text(max_len=10_000))}, frozenset({"events"})),
    "redo": _Open({"restored": _Open({"n": Int(), "typed": TYPED})}, frozenset({"restored"})),
    "bid": _Open({"bid": TYPED}, frozenset({"bid"})),
}


# ------------------------------------------------------------------ export

EXPORT_BATCH = 200  # games read together: their hands, audit entries and bids in one statement each
PARALLEL_HANDS = 5000  # a database with more hands is exported by one process per core


def file_name(source: str) -> str:
    """The file name of a ruleset's source, without the folders (an export never carries paths)."""
    return re.split(r"[\\/]", source)[-1]


RawGame = tuple[tuple[Any, ...], list[Any], list[Any], "str | None"]  # a game's rows: game, hands, audit, bid


def _raw_games(store: Store) -> Iterator[list[RawGame]]:
    """Every game's rows as stored, in the export's order (created, id), a batch of games at a time:
    four statements per batch rather than four per game (a round trip each on a server)."""
    db = store.db
    ids = [gid for (gid,) in db.execute("SELECT id FROM games ORDER BY created, id")]
    for k in range(0, len(ids), EXPORT_BATCH):
        batch = ids[k:k + EXPORT_BATCH]
        within = f"IN ({', '.join('?' for _ in batch)})"
        games = {r[0]: tuple(r) for r in db.execute(
            "SELECT id, uid, ruleset_id, ruleset_hash, variant, name, season, players, sides, options, created,"
            f" finished, hands, state FROM games WHERE id {within}", batch)}
        hands: dict[int, list[Any]] = {}
        for r in db.execute("SELECT game_id, n, status, typed, hand, points, breakdown, events, state, created"
                            f" FROM hands WHERE game_id {within} ORDER BY id", batch):
            hands.setdefault(r[0], []).append(tuple(r))
        audit: dict[int, list[Any]] = {}
        for r in db.execute(f"SELECT game_id, at, action, hand_n, detail FROM audit WHERE game_id {within} ORDER BY id",
                            batch):
            audit.setdefault(r[0], []).append(tuple(r))
        bids = dict(db.execute(f"SELECT game_id, typed FROM pending_bids WHERE game_id {within}", batch))
        yield [(games[gid], hands.get(gid, []), audit.get(gid, []), bids.get(gid)) for gid in batch if gid in games]


def _export_games(store: Store) -> Iterator[dict[str, Any]]:
    """Every game in export form, in the export's order."""
    for batch in _raw_games(store):
        for raw in batch:
            yield _export_game(*raw)


def _game_texts(store: Store) -> Iterator[str]:
    """Each game's text in the export (two levels deep), in order. A large database is written by one
    process per core, where processes can be forked (writing the indented JSON is most of an export's
    time): this process reads the rows, a batch at a time, and the others turn them into text."""
    import multiprocessing

    total = store.db.execute("SELECT COUNT(*) FROM hands").fetchone()[0]
    workers = os.cpu_count() or 1
    if total <= PARALLEL_HANDS or workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for batch in _raw_games(store):
            yield from _texts_of(batch)
        return
    yield from _forked_in_order(_texts_of, _raw_games(store), workers)


def _forked_in_order(work: Any, items: Iterable[Any], workers: int) -> Iterator[Any]:
    """`work` (which returns a list) over `items` in `workers` forked processes, its results in the
    order of the items, at most 2 x workers items under way (memory stays bounded)."""
    import multiprocessing

    pending: deque[Any] = deque()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for item in items:
            pending.append(pool.apply_async(work, (item,)))
            if len(pending) > 2 * workers:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()


def _texts_of(batch: list[RawGame]) -> list[str]:
    with gc_paused():
        return [_game_text(raw) for raw in batch]


def _game_text(raw: RawGame) -> str:
    """`_indented(_export_game(*raw), "\n  ")`, written from the rows without the tables in between: the
    keys of a game, a hand and an audit entry are known, so they are written in sorted order as they are."""
    (_gid, uid, rid, rhash, variant, name, season, players, sides, options, created, finished, n_hands,
     state) = raw[0]
    loads, at = stored_json, "\n   "
    rows = ",\n    ".join([_hand_text(r) for r in raw[1]])
    entries = ",\n    ".join([
        '{\n     "action": ' + _indented(act, "\n     ") + ',\n     "at": ' + _indented(a, "\n     ")
        + ',\n     "detail": ' + _indented(loads(d), "\n     ") + ',\n     "hand": ' + _indented(hn, "\n     ")
        + "\n    }" for _g, a, act, hn, d in raw[2]])
    parts = ['"audit": ' + ("[\n    " + entries + "\n   ]" if entries else "[]"),
             '"created": ' + _indented(created, at), '"finished": ' + _indented(bool(finished), at),
             '"hand_rows": ' + ("[\n    " + rows + "\n   ]" if rows else "[]"), '"hands": ' + _indented(n_hands, at),
             '"name": ' + _indented(name, at), '"options": ' + _indented(loads(options), at)]
    if raw[3] is not None:
        parts.append('"pending_bid": ' + _indented(list(loads(raw[3])), at))
    parts += ['"players": ' + _indented(loads(players), at), '"ruleset_hash": ' + _indented(rhash, at),
              '"ruleset_id": ' + _indented(rid, at), '"season": ' + _indented(season, at),
              '"sides": ' + _indented(loads(sides), at), '"state": ' + _indented(loads(state), at),
              '"uid": ' + _indented(uid, at), '"variant": ' + _indented(variant, at)]
    return "{\n   " + ",\n   ".join(parts) + "\n  }"


def _hand_text(r: tuple[Any, ...]) -> str:
    """A hand row of the export, four levels deep."""
    _g, n, status, typed, hand, points, breakdown, events, state, created = r
    loads, at = stored_json, "\n     "
    return ('{\n     "breakdown": ' + _indented(loads(breakdown), at) + ',\n     "created": ' + _indented(created, at)
            + ',\n     "events": ' + _indented(loads(events), at) + ',\n     "hand": ' + _indented(loads(hand), at)
            + ',\n     "n": ' + _indented(n, at) + ',\n     "points": ' + _indented(loads(points), at)
            + ',\n     "state": ' + _indented(loads(state), at) + ',\n     "status": ' + _indented(status, at)
            + ',\n     "typed": ' + _indented(loads(typed), at) + "\n    }")


def _export_game(row: tuple[Any, ...], hands: list[Any], audit: list[Any], bid: str | None) -> dict[str, Any]:
    """One game of the export from its rows."""
    (_gid, uid, rid, rhash, variant, name, season, players, sides, options, created, finished, n_hands, state) = row
    loads = stored_json
    return {**({"pending_bid": list(loads(bid))} if bid is not None else {}),
            "uid": uid, "ruleset_id": rid, "ruleset_hash": rhash, "variant": variant, "name": name,
            "season": season, "players": loads(players), "sides": loads(sides), "options": loads(options),
            "created": created, "finished": bool(finished), "hands": n_hands, "state": loads(state),
            "hand_rows": [{"n": n, "status": st, "typed": loads(t), "hand": loads(h), "points": loads(p),
                           "breakdown": loads(b), "events": loads(e), "state": loads(s), "created": c}
                          for _g, n, st, t, h, p, b, e, s, c in hands],
            "audit": [{"at": a, "action": act, "hand": hn, "detail": loads(d)} for _g, a, act, hn, d in audit]}


def _export_head(store: Store) -> dict[str, Any]:
    """Everything of the export but its games."""
    db = store.db
    rulesets = [{"hash": h, "ruleset_id": r, "source": file_name(s), "text": t}
                for h, r, s, t in db.execute("SELECT hash, ruleset_id, source, text FROM rulesets ORDER BY hash")]
    meta = {k: v for k, v in db.execute("SELECT key, value FROM meta WHERE key = 'current_season'")}
    return {"format": FORMAT, "version": VERSION, "meta": meta, "rulesets": rulesets}


def export_data(store: Store) -> dict[str, Any]:
    """The whole database as one value (the export's content; `export_chunks` writes it game by game)."""
    with _one_view(store):
        return {**_export_head(store), "games": list(_export_games(store))}


@contextmanager
def _one_view(store: Store) -> Iterator[None]:
    """An SQLite file in WAL mode read in one read transaction, so that the export is of one moment
    while other commands go on writing (a server's `backup` reads from its snapshot)."""
    db = store.db
    if not (store.wal and isinstance(db, sqlite3.Connection) and not db.in_transaction):
        yield
        return
    db.execute("BEGIN")
    try:
        yield
    finally:
        db.execute("COMMIT")


def _dumps(value: Any, depth: int) -> str:
    """`value` as it appears `depth` levels deep in the indented export (JSON text has no raw newline
    inside a string, so indenting each line is indenting the value)."""
    try:
        text = json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True, allow_nan=False)
    except ValueError:
        raise _not_a_number() from None
    return text.replace("\n", "\n" + " " * depth)


def _not_a_number() -> StoreError:
    return StoreError(_("the database holds a value that is not a number (NaN or an infinity); "
                        "`scorepad verify` shows which game"))


_KEYS: dict[str, str] = {}  # a table key as the export writes it, with its ": "


def _indented(value: Any, nl: str) -> str:
    """`json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True, allow_nan=False)` with every line
    break followed by the indent `nl` holds: the same text, two to three times as fast (the json
    module writes an indented document with its pure-Python encoder, most of an export's time)."""
    t = type(value)
    if t is dict:
        if not value:
            return "{}"
        inner = nl + " "
        parts = []
        for k in sorted(value):
            key = _KEYS.get(k)
            if key is None:
                if type(k) is not str:
                    return _dumps(value, 0).replace("\n", nl)
                key = _KEYS[k] = encode_basestring(k) + ": "
            v = value[k]
            tv = type(v)
            parts.append(key + (encode_basestring(v) if tv is str else int.__repr__(v) if tv is int
                                else _indented(v, inner)))
        return "{" + inner + ("," + inner).join(parts) + nl + "}"
    if t is list:
        if not value:
            return "[]"
        inner = nl + " "
        return "[" + inner + ("," + inner).join([
            encode_basestring(v) if type(v) is str else int.__repr__(v) if type(v) is int else _indented(v, inner)
            for v in value]) + nl + "]"
    if t is str:
        return encode_basestring(value)
    if t is int:
        return int.__repr__(value)
    if t is float:
        if value != value or value in (math.inf, -math.inf):
            raise _not_a_number()
        return float.__repr__(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    return _dumps(value, 0).replace("\n", nl)


def export_chunks(store: Store) -> Iterator[str]:
    """The export text piece by piece, one game at a time: the same text as `json.dumps` of
    `export_data` (indent 1, sorted keys), without the whole database in memory at once."""
    with _one_view(store), gc_paused():
        head = {**_export_head(store), "games": None}
        yield "{"
        for i, key in enumerate(sorted(head)):
            yield ("," if i else "") + "\n " + json.dumps(key, ensure_ascii=False) + ": "
            if key != "games":
                yield _dumps(head[key], 1)
                continue
            texts = _game_texts(store)
            first = next(texts, None)
            if first is None:
                yield "[]"
                continue
            yield "[\n  " + first
            for text in texts:
                yield ",\n  " + text
            yield "\n ]"
        yield "\n}\n"


def export_text(store: Store) -> str:
    return "".join(export_chunks(store))


def differs_from_file(store: Store, path: Path) -> bool:
    """Whether the database's export differs as JSON (`same`) from the export file at `path`: compared
    game by game, with the file read a game at a time."""
    try:
        layout = _Layout.read(path)
    except (ValueError, RecursionError, UnicodeDecodeError):
        layout = None
    if layout is None or layout.spans is None:
        data = read_json(read_document(path, "a scorepad export"))
        head, theirs = {k: v for k, v in data.items() if k != "games"}, iter(data.get("games") or [])
    else:
        head, theirs = layout.head, (read_json(text) for text in layout.game_texts(path))
    if not same(_export_head(store), head):
        return True
    end = object()
    return any(a is end or b is end or not same(a, b)
               for a, b in zip_longest(_export_games(store), theirs, fillvalue=end))


def backup(store: Store, target: Path) -> None:
    """A consistent copy of the database: an SQLite file copied by SQLite's online backup; a server's
    database written as an export file from one snapshot (read back by `import` or `db copy`)."""
    snapshot = getattr(store, "snapshot", None)
    if snapshot is None:
        store.backup(target)
        return
    from scorepad.text.output import write_atomic

    with snapshot():
        write_atomic(Path(target), export_chunks(store))


# ------------------------------------------------------------------ import

IMPORT_BATCH = 2000  # hands written together (each table's rows of a batch in one statement)
READ_PIECE = 1 << 20  # characters of the file read at a time


def read_document(path: Path, what: str) -> str:
    """The text of a file to import: UTF-8, of a sane size; a sentence (exit 2) otherwise."""
    _check_size(path, what)
    try:
        return Path(path).read_bytes().decode("utf-8")
    except OSError as exc:
        raise _unreadable(path, exc) from None
    except UnicodeDecodeError:
        raise UserError(_("{path}: not {what} (the file is not UTF-8 text)").format(path=path, what=what)) from None


def _check_size(path: Path, what: str) -> None:
    try:
        size = Path(path).stat().st_size
    except OSError as exc:
        raise _unreadable(path, exc) from None
    if size > MAX_FILE_BYTES:
        raise UserError(_("{path}: the file is larger than {value} MiB; not {what}").format(
                            path=path, value=MAX_FILE_BYTES >> 20, what=what))


def _unreadable(path: Path, exc: OSError) -> UserError:
    return UserError(_("{path}: cannot read the file ({strerror})").format(path=path, strerror=exc.strerror))


def refuse(path: Path, found: list[str]) -> UserError:
    """One error for every problem found: the first in the message, all of them listed."""
    if len(found) == 1:
        return UserError(_("{path}: {value}; nothing was imported").format(path=path, value=found[0]))
    return UserError(_("{path}: {value} (and {value2} more); nothing was imported").format(
                         path=path, value=found[0], value2=len(found) - 1), found)


def import_file(store: Store, path: Path, check: Callable[[], None] | None = None) -> tuple[int, int]:
    """Read an export into this database; returns (games added, games already present).

    The file is read twice, a piece at a time: first its head (format, version, meta, rulesets) and
    where each game begins and ends; then game by game, each checked and written as it comes, all in
    one transaction, which any refusal rolls back: nothing is stored. So a few games are in memory at
    a time, however large the file. `check` runs last inside the transaction (`db copy` compares the
    copy with the file there). A file the piecewise reading does not follow (not JSON, a key twice in
    the top-level table) is read whole, with the messages and checks of the whole reading."""
    _check_size(path, "a scorepad export")
    try:
        layout = _Layout.read(path)
    except (ValueError, RecursionError, UnicodeDecodeError):
        layout = None
    except OSError as exc:
        raise _unreadable(path, exc) from None
    if layout is None:
        data = _whole_export(path)
        found = check_export(data)
        if found:
            raise refuse(path, found)
        return insert_games(store, data["games"], {r["hash"]: r for r in data["rulesets"]}, data["meta"], check)
    head = layout.head
    _check_format(path, head)
    found = problems({**head, "games": []} if layout.spans is not None else head, EXPORT)
    if found:
        raise refuse(path, found)
    found, checker = _rulesets_checked(head["rulesets"], layout.used)
    return _import_games(store, path, layout, checker, found, check)


def _whole_export(path: Path) -> Any:
    """The export read whole (the reading of a file the piecewise reading does not follow)."""
    text = read_document(path, "a scorepad export")
    try:
        data = read_json(text)
    except RecursionError:
        raise UserError(_("{path}: not a scorepad export (the JSON nests too deeply)").format(path=path)) from None
    except ValueError as exc:
        raise UserError(_("{path}: not a scorepad export ({exc})").format(path=path, exc=exc)) from None
    _check_format(path, data)
    return data


def _check_format(path: Path, data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UserError(_("{path}: not a scorepad export (no \"format\": \"{FORMAT}\")").format(path=path, FORMAT=FORMAT))
    if data.get("version") != VERSION:
        version = data.get("version")
        shown = version if isinstance(version, int) and not isinstance(version, bool) else kind(version)
        raise UserError(_("{path}: export version {shown}; this scorepad reads {VERSION}").format(
                            path=path, shown=shown, VERSION=VERSION))


def _import_games(store: Store, path: Path, layout: _Layout, checker: _Checker, found: list[str],
                  check: Callable[[], None] | None) -> tuple[int, int]:
    """The second reading: every game checked, and written while no problem was found.

    All or nothing, two ways. On a server, one transaction: the games are written into it a batch at a
    time as they are checked (other tables go on writing meanwhile; no row of theirs is locked). An
    SQLite file has one writer at a time, and checking a season takes long, so the games are written
    first into a staging file beside it, a batch per transaction, and only the last step, copying them
    over (a second or two for a season), holds the file: one transaction that a failure rolls back."""
    pins = {r["hash"]: r for r in layout.head["rulesets"]}
    games = checker.each(layout.game_texts(path), layout.workers())
    if type(store).__name__ == "PgStore":
        with store.write() as db:
            existing = {uid for (uid,) in db.execute("SELECT uid FROM games")}
            writer = _Writer(store, db, pins)
            added, skipped = _take(path, games, found, existing, writer)
            if "current_season" in layout.head["meta"]:
                db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES('current_season', ?)",
                           (layout.head["meta"]["current_season"],))
            if check is not None:
                check()
        return added, skipped
    existing = {uid for (uid,) in store.db.execute("SELECT uid FROM games")}
    with _staging(store) as staging:
        added, skipped = _take(path, games, found, existing, _Writer(staging, None, pins))
        staging.close()
        late = _merge(store, staging.path, pins, layout.head["meta"], check)
    return added - late, skipped + late


def _take(path: Path, games: Iterator[Checked], found: list[str], existing: set[str],
          writer: _Writer) -> tuple[int, int]:
    """Each checked game to the writer, unless a problem was found (then UserError, listing them)."""
    added = skipped = 0
    seen: dict[str, int] = {}
    try:
        for i, (uid, said, rows) in enumerate(games):
            if len(found) >= MAX_PROBLEMS:
                break
            if uid is not None:
                if uid in seen:
                    found.append(_("{where}.uid: the same uid as games[{value}]").format(
                                     where=f"games[{i}]", value=seen[uid]))
                    continue
                seen[uid] = i
            found.extend(said)
            if found or rows is None:
                continue
            if rows.uid in existing:
                skipped += 1
                continue
            existing.add(rows.uid)
            writer.add(rows)
            added += 1
    except _Changed:
        raise UserError(_("{path}: not a scorepad export ({exc})").format(
                            path=path, exc="the file changed while it was read")) from None
    if found:
        raise refuse(path, found[:MAX_PROBLEMS])
    writer.flush()
    return added, skipped


@contextmanager
def _staging(store: Store) -> Iterator[Store]:
    """A new SQLite file beside the database (else in the temporary directory), removed at the end."""
    import tempfile

    try:
        fd, name = tempfile.mkstemp(prefix=".scorepad-import-", suffix=".db", dir=Path(store.path).parent)
    except OSError:
        fd, name = tempfile.mkstemp(prefix="scorepad-import-", suffix=".db")
    os.close(fd)
    staging = Store(Path(name))
    try:
        staging.db.execute("PRAGMA synchronous = OFF")  # scratch data: a crash loses nothing of the target
        yield staging
    finally:
        staging.close()
        for end in ("", "-wal", "-shm", "-journal"):
            with suppress(FileNotFoundError):
                os.unlink(name + end)


def _merge(store: Store, staged: Path, pins: Mapping[str, Mapping[str, Any]], meta: Mapping[str, Any],
           check: Callable[[], None] | None) -> int:
    """The staged games copied into the database in one transaction, with ids after its last game's
    (as SQLite numbers new rows); returns how many were left out because the database got a game of
    the same uid meanwhile."""
    db = store.db
    db.execute("ATTACH DATABASE ? AS staged", (str(staged),))
    try:
        with store.write() as db:
            got = "SELECT id FROM staged.games WHERE uid IN (SELECT uid FROM main.games)"
            late = len(db.execute(got).fetchall())
            if late:
                for table in ("hands", "audit", "pending_bids"):
                    db.execute(f"DELETE FROM staged.{table} WHERE game_id IN ({got})")
                db.execute(f"DELETE FROM staged.games WHERE id IN ({got})")
            for (rhash,) in db.execute("SELECT DISTINCT ruleset_hash FROM staged.games").fetchall():
                r = pins[rhash]
                store.pin_ruleset(db, r["ruleset_id"], r["text"], file_name(r["source"]))
            top = db.execute("SELECT COALESCE(MAX(id), 0) FROM main.games").fetchone()[0]
            for table, cols in (("games", ("id", *GAME_COLUMNS)), ("hands", ("game_id", *HAND_COLUMNS)),
                                ("audit", ("game_id", *AUDIT_COLUMNS)),
                                ("pending_bids", ("game_id", "typed", "created"))):
                moved = ", ".join(cols)
                db.execute(f"INSERT INTO main.{table}({moved}) SELECT {cols[0]} + ?, {moved[len(cols[0]) + 2:]}"
                           f" FROM staged.{table} ORDER BY {'id' if table != 'pending_bids' else 'game_id'}", (top,))
            if "current_season" in meta:
                db.execute("INSERT OR IGNORE INTO main.meta(key, value) VALUES('current_season', ?)",
                           (meta["current_season"],))
            if check is not None:
                check()
    finally:
        db.execute("DETACH DATABASE staged")
    return late


# ------------------------------------------------------------------ reading a large file a piece at a time

_SPACE = re.compile(r"[ \t\n\r]*")
_PLAIN_JSON = json.JSONDecoder()  # where the games begin and end, and the hashes they name
_AS_READ_JSON = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float, parse_constant=NotFinite)


class _Changed(Exception):
    """The file is not what its first reading found (it changed in between)."""


class _Pieces:
    """A JSON text read from a file a piece at a time; values are parsed one by one (`raw_decode`)
    at offsets counted from the start of the text, and what was read past is dropped."""

    def __init__(self, f: TextIO) -> None:
        self.f = f
        self.buf = ""
        self.at = 0    # in buf
        self.base = 0  # the offset of buf[0] in the text
        self.eof = False

    def _more(self) -> bool:
        if self.eof:
            return False
        piece = self.f.read(max(READ_PIECE, len(self.buf) - self.at))   # a value longer than a piece: double
        if not piece:
            self.eof = True
            return False
        self.base += self.at
        self.buf = self.buf[self.at:] + piece
        self.at = 0
        return True

    def peek(self) -> str:
        """The next character that is not white space ('' at the end of the text)."""
        while True:
            space = _SPACE.match(self.buf, self.at)
            if space is not None:
                self.at = space.end()
            if self.at < len(self.buf):
                return self.buf[self.at]
            if not self._more():
                return ""

    def take(self, chars: str) -> str:
        """The next character, one of `chars`; ValueError otherwise."""
        char = self.peek()
        if not char or char not in chars:
            raise ValueError(f"expected one of {chars}")
        self.at += 1
        return char

    def value(self, decoder: json.JSONDecoder = _PLAIN_JSON) -> tuple[Any, int, int]:
        """The next value, and where it begins and ends in the text."""
        self.peek()
        while True:
            try:
                value, end = decoder.raw_decode(self.buf, self.at)
            except json.JSONDecodeError:
                if self._more():
                    continue
                raise
            if end == len(self.buf) and self._more():
                continue  # a number may go on in the next piece
            start, self.at = self.base + self.at, end
            return value, start, self.base + end

    def text(self, start: int, end: int) -> str:
        """The text from `start` to `end` (not before what was read already)."""
        while self.base + len(self.buf) < end:
            try:
                more = self._more()
            except UnicodeDecodeError:
                raise _Changed from None
            if not more:
                raise _Changed
        out = self.buf[start - self.base:end - self.base]
        self.at = end - self.base
        return out


class _Layout:
    """What the first reading of an export learns: the top-level values but the games, where each game
    begins and ends (None: `games` is not a list), and the ruleset hashes the games name."""

    def __init__(self, head: dict[str, Any], spans: list[tuple[int, int]] | None, used: set[str]) -> None:
        self.head, self.spans, self.used = head, spans, used

    @classmethod
    def read(cls, path: Path) -> _Layout:
        """ValueError (or RecursionError, UnicodeDecodeError) for a text this reading does not follow."""
        head: dict[str, Any] = {}
        spans: list[tuple[int, int]] | None = None
        used: set[str] = set()
        with open(path, encoding="utf-8", newline="") as f, gc_paused():
            text = _Pieces(f)
            text.take("{")
            closing = text.peek() == "}"
            if closing:
                text.take("}")
            while not closing:
                key = text.value()[0]
                if not isinstance(key, str) or key in head or (key == "games" and spans is not None):
                    raise ValueError("a key twice in the top-level table")
                text.take(":")
                if key == "games" and text.peek() == "[":
                    spans = cls._games(text, used)
                else:
                    head[key] = text.value(_AS_READ_JSON)[0]
                closing = text.take(",}") == "}"
            if text.peek():
                raise ValueError("more after the top-level table")
        return cls(head, spans, used)

    @staticmethod
    def _games(text: _Pieces, used: set[str]) -> list[tuple[int, int]]:
        spans: list[tuple[int, int]] = []
        text.take("[")
        if text.peek() == "]":
            text.take("]")
            return spans
        while True:
            game, start, end = text.value()
            spans.append((start, end))
            if isinstance(game, dict) and isinstance(game.get("ruleset_hash"), str):
                used.add(game["ruleset_hash"])
            if text.take(",]") == "]":
                return spans

    def workers(self) -> int:
        """Processes to check the games in: one per core for a large file, where processes can be forked."""
        import multiprocessing

        size = sum(end - start for start, end in self.spans or ())
        if size <= PARALLEL_CHARS or "fork" not in multiprocessing.get_all_start_methods():
            return 1
        return os.cpu_count() or 1

    def game_texts(self, path: Path) -> Iterator[str]:
        """The second reading: each game's text, in order (with nothing parsed around them)."""
        with open(path, encoding="utf-8", newline="") as f:
            text = _Pieces(f)
            for start, end in self.spans or ():
                yield text.text(start, end)


# ------------------------------------------------------------------ checking a game

class _Rows(NamedTuple):
    """A checked game as the store writes it: the games row (GAME_COLUMNS), its hands (HAND_COLUMNS),
    audit entries (AUDIT_COLUMNS) and the bid written down for its coming hand (JSON), if any."""

    uid: str
    ruleset_hash: str
    game: tuple[Any, ...]
    hands: list[tuple[Any, ...]]
    audit: list[tuple[Any, ...]]
    bid: str | None


GAME_COLUMNS = ("uid", "ruleset_id", "ruleset_hash", "variant", "name", "season", "players", "sides", "options",
                "created", "finished", "hands", "state")
HAND_COLUMNS = ("n", "status", "typed", "hand", "points", "breakdown", "events", "state", "created")
AUDIT_COLUMNS = ("at", "action", "hand_n", "detail")

def _encoder(sort_keys: bool, allow_nan: bool) -> Callable[[Any], str]:
    """Compact JSON (as the store's `dumps`); json's C encoder made once, not at every call."""
    from json.encoder import c_make_encoder  # type: ignore[attr-defined]

    if c_make_encoder is None:  # a Python without json's C accelerator
        return json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys,
                                allow_nan=allow_nan).encode
    encode = c_make_encoder(None, None, encode_basestring, None, ":", ",", sort_keys, False, allow_nan)
    return lambda value: "".join(encode(value, 0))


# What two values are compared by (as `same`): their JSON with sorted keys. What is written: a value's
# JSON with its keys in its own order (the store's `dumps`; NaN refused).
_canonical = _encoder(True, True)
_written = _encoder(False, False)


def _as_stored(replayed: Any, stored: Any) -> tuple[bool, str]:
    """Whether a replayed value is the stored one as JSON (`same`), and the stored one's text to write.
    A scorepad export holds its tables with sorted keys, so the text written is mostly the sorted one
    too, and two encodings decide; a third only when it is not."""
    text = _written(stored)
    replayed_text = _canonical(replayed)
    return replayed_text == text or replayed_text == _canonical(stored), text


_SUSPECT = [False]  # a number the reader let through that `scan` would look at


def _read_int(text: str) -> Any:
    if len(text) > 15:  # 2**53 has 16 digits
        _SUSPECT[0] = True
        return _parse_int(text)
    return int(text)


def _read_float(text: str) -> Any:
    value = _parse_float(text)
    if type(value) is not float or abs(value) > MAX_NUMBER:
        _SUSPECT[0] = True
    return value


def _read_constant(text: str) -> Any:
    _SUSPECT[0] = True
    return NotFinite(text)


_CHECKED_JSON = json.JSONDecoder(parse_int=_read_int, parse_float=_read_float, parse_constant=_read_constant)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
_NOT_BRACKETS = bytes(c for c in range(128) if chr(c) not in "[]{}")
_INNERMOST = re.compile(rb"\[\]|\{\}")  # one pass: the containers that hold none (what it leaves, the next)


def _read_game(text: str) -> tuple[Any, bool]:
    """A game's text parsed as `read_json` parses it, and whether `scan` would find nothing in it: no
    number out of range, no text too long or with a lone surrogate, no nesting past MAX_DEPTH (a game
    is 2 levels deep in the export). Telling that from the text takes a tenth of `scan`'s time."""
    _SUSPECT[0] = False
    game = _CHECKED_JSON.decode(text)
    if _SUSPECT[0] or len(text) > MAX_TEXT or _SURROGATE.search(text):
        return game, False
    brackets = _STRING.sub("", text).encode("ascii", "ignore").translate(None, _NOT_BRACKETS)
    for _level in range(MAX_DEPTH - 2):  # each round takes off the innermost level: 30 levels in a game
        if not brackets:
            break
        brackets = _INNERMOST.sub(b"", brackets)
    return game, not brackets


Checked = tuple[str | None, list[str], "_Rows | None"]  # a game's uid, problems and rows
RUN_CHARS = 256 * 1024  # the games a checking process is given at a time: about 100 hands
PARALLEL_CHARS = 4 << 20  # a file whose games take more (about 3,000 hands) is checked by one process per core


def _runs(texts: Iterable[str]) -> Iterator[tuple[int, list[str]]]:
    """Consecutive games' texts in runs of about RUN_CHARS, each with the index of its first game."""
    first, run, size = 0, [], 0
    for i, text in enumerate(texts):
        run.append(text)
        size += len(text)
        if size >= RUN_CHARS:
            yield first, run
            first, run, size = i + 1, [], 0
    if run:
        yield first, run


def _check_run(run: tuple[int, list[str]]) -> list[Checked]:
    """In a checking process: a run of games checked, in order."""
    assert _CHECKING is not None
    first, texts = run
    with gc_paused():
        return [_CHECKING.game_text(first + k, text) for k, text in enumerate(texts)]


def _fits(shape: Shape) -> Callable[[Any], bool]:
    """A test that `shape.check` finds nothing in a value, for the shapes of an export: True only when it
    would find nothing (False: `check` then says what), at a third of its cost for a game that fits."""
    build: Callable[[Any], Callable[[Any], bool]] = _FITS.get(type(shape), _fits_asked)
    test = build(shape)
    return (lambda v: v is None or test(v)) if shape.nullable else test


def _fits_asked(shape: Shape) -> Callable[[Any], bool]:
    """Any other shape (a time, an audit detail): its own check asked."""
    def test(v: Any) -> bool:
        out: list[str] = []
        shape.check_value(v, "", out)
        return not out
    return test


def _fits_record(shape: Any) -> Callable[[Any], bool]:
    fields = {k: _fits(v) for k, v in shape.fields.items()}
    required = frozenset(fields) - shape.optional
    return lambda v: (type(v) is dict and required <= v.keys()
                      and all(k in fields and fields[k](x) for k, x in v.items()))


def _fits_list(shape: Any) -> Callable[[Any], bool]:
    item, low, high = _fits(shape.item), shape.min_len, shape.max_len
    return lambda v: type(v) is list and low <= len(v) <= high and all(map(item, v))


def _fits_items(shape: Any) -> Callable[[Any], bool]:
    items = [_fits(i) for i in shape.items]
    return lambda v: (type(v) is list and len(v) == len(items)
                      and all(f(x) for f, x in zip(items, v, strict=True)))


def _fits_text(shape: Any) -> Callable[[Any], bool]:
    pattern = re.compile(shape.pattern) if shape.pattern is not None else None
    return lambda v: (type(v) is str and (not shape.choices or v in shape.choices) and len(v) <= shape.max_len
                      and (pattern is None or pattern.fullmatch(v) is not None)
                      and (not shape.name or name_problem(v, shape.max_len) is None))


def _fits_int(shape: Any) -> Callable[[Any], bool]:
    low, high = shape.low, shape.high
    return lambda v: type(v) is int and low <= v <= high


_FITS: dict[type, Callable[[Any], Callable[[Any], bool]]] = {
    Record: _fits_record, ListOf: _fits_list, Items: _fits_items, Text: _fits_text, Int: _fits_int,
    Number: lambda _shape: lambda v: type(v) is int or type(v) is float,
    Bool: lambda _shape: lambda v: type(v) is bool,
    Anything: lambda shape: lambda v: type(v) is dict or not shape.table,
}


class _Checker:
    """What the games of one export are checked against: the ruleset texts by hash (entry, text) and the
    rulesets loaded from them (None: the text does not load, as said), per variant."""

    def __init__(self, texts: dict[str, tuple[int, str]], loaded: dict[tuple[str, str | None], Any]) -> None:
        self.texts = texts
        self.loaded = loaded

    def each(self, texts: Iterable[str], workers: int = 1) -> Iterator[Checked]:
        """For each game's text in order: its uid (when its shape is right), its problems, and its rows.

        With `workers` > 1 the games are checked in that many forked processes (replaying hands is
        most of an import's time, and games replay independently): runs of consecutive games, each to
        whichever process is free, a few runs ahead of the one written, so that the file is still
        read as it goes; the results come back in the order of the games."""
        if workers <= 1:
            with gc_paused():
                for i, text in enumerate(texts):
                    yield self.game_text(i, text)
            return

        global _CHECKING
        _CHECKING = self
        try:
            yield from _forked_in_order(_check_run, _runs(texts), workers)
        finally:
            _CHECKING = None

    def game_text(self, i: int, text: str) -> Checked:
        where = f"games[{i}]"
        try:
            g, plain = _read_game(text)
        except (ValueError, RecursionError):   # it parsed at the first reading
            raise _Changed from None
        out = [] if plain else scan(g, where, [], 2)
        if not out and not _GAME_FITS(g):
            GAME.check(g, where, out)
        if out:
            return None, out[:MAX_PROBLEMS], None
        said, rows = self.game(g, where)
        return g["uid"], said, rows

    def game(self, g: Mapping[str, Any], where: str) -> tuple[list[str], _Rows | None]:
        """A game of the right shape against its ruleset, then replayed: its problems, or its rows."""
        rhash = g["ruleset_hash"]
        if rhash not in self.texts:
            return [_("{where}.ruleset_hash: no entry of rulesets has the hash {ruleset_hash}").format(
                        where=where, ruleset_hash=rhash)], None
        if self.loaded[rhash, None] is None:
            return [], None  # the ruleset itself cannot be loaded: said with the rulesets
        key = (rhash, g["variant"])
        if key not in self.loaded:
            from scorepad.rules.loader import load_text

            k, text = self.texts[rhash]
            try:
                self.loaded[key] = load_text(text, f"rulesets[{k}].text", g["variant"], played=True)
            except ScorepadError as exc:
                self.loaded[key] = exc.message
        rs = self.loaded[key]
        if isinstance(rs, str):
            return [_("{where}.variant: {rs}").format(where=where, rs=rs)], None
        return _checked_game(g, where, rs)


_CHECKING: _Checker | None = None  # what forked checking processes inherit
_GAME_FITS = _fits(GAME)


def _rulesets_checked(rulesets: list[dict[str, Any]], used: set[str]) -> tuple[list[str], _Checker]:
    """The export's ruleset entries: each hash the hash of its text, each text a game names loadable
    and the ruleset its entry says. Returns the problems, and what the games are checked against."""
    from scorepad.rules.loader import load_text

    out: list[str] = []
    texts: dict[str, tuple[int, str]] = {}
    loaded: dict[tuple[str, str | None], Any] = {}  # (hash, variant) -> Ruleset, or why it cannot load
    for k, r in enumerate(rulesets):
        true = text_hash(r["text"])
        if true != r["hash"]:
            out.append(_("rulesets[{k}].hash: {hash} is not the hash of the text beside it ({true}); the "
                          "ruleset text was altered").format(k=k, hash=r['hash'], true=true))
            continue
        if r["hash"] in texts or r["hash"] not in used:
            continue  # the same text twice, or a text no game uses (it is not stored)
        texts[r["hash"]] = (k, r["text"])
        try:
            rs = loaded[r["hash"], None] = load_text(r["text"], f"rulesets[{k}].text", played=True)
        except ScorepadError as exc:
            out.append(_("rulesets[{k}].text: not a usable ruleset: {message}").format(k=k, message=exc.message))
            loaded[r["hash"], None] = None
            continue
        rid = rs.id
        if rid != r["ruleset_id"]:
            out.append(_("rulesets[{k}].ruleset_id: {ruleset_id}, but the text is the ruleset {rid}").format(
                           k=k, ruleset_id=repr(r['ruleset_id']), rid=repr(rid)))
    return out, _Checker(texts, loaded)


def check_export(data: Any) -> list[str]:
    """Every problem of a parsed export (up to a screenful), each starting with where it is."""
    out = problems(data, EXPORT)
    if out:
        return out
    out, checker = _rulesets_checked(data["rulesets"], {g["ruleset_hash"] for g in data["games"]})
    seen: dict[str, int] = {}
    for i, g in enumerate(data["games"]):
        if len(out) >= MAX_PROBLEMS:
            break
        where = f"games[{i}]"
        if g["uid"] in seen:
            out.append(_("{where}.uid: the same uid as games[{value}]").format(where=where, value=seen[g['uid']]))
            continue
        seen[g["uid"]] = i
        out.extend(checker.game(g, where)[0])
    return out[:MAX_PROBLEMS]


def check_game(g: Mapping[str, Any], where: str, rs: Any) -> list[str]:
    """A game of the export against its ruleset, then replayed: every problem, with its path."""
    return _checked_game(g, where, rs)[0]


def _checked_game(g: Mapping[str, Any], where: str, rs: Any) -> tuple[list[str], _Rows | None]:
    """The game's problems; with none, its rows as the store writes them."""
    from scorepad.engine.game import Game, Side

    out: list[str] = []
    if g["ruleset_id"] != rs.id:
        out.append(_("{where}.ruleset_id: {ruleset_id}, but its pinned ruleset is {id}").format(
                       where=where, ruleset_id=repr(g['ruleset_id']), id=repr(rs.id)))
    players = list(g["players"])
    out.extend(player_problems(rs, players, f"{where}.players"))
    out.extend(side_problems(rs, players, g["sides"], f"{where}.sides"))
    out.extend(option_problems(rs, g["options"], f"{where}.options", complete=True))
    for j, a in enumerate(g["audit"]):
        shape = AUDIT_DETAILS.get(a["action"])
        if shape is not None:
            shape.check(a["detail"], f"{where}.audit[{j}].detail", out)
    if out:
        return out, None
    game = Game(rs, tuple(players), tuple(Side(s["name"], tuple(s["members"])) for s in g["sides"]), dict(g["options"]))
    texts: dict[int, tuple[str, ...]] = {}
    out = replay_problems(game, g, where, texts)
    if out:
        return out, None
    return [], _rows_of(g, texts)


def _rows_of(g: Mapping[str, Any], texts: Mapping[int, tuple[str, ...]] | None = None) -> _Rows:
    """A game (export form) as the store's rows; `texts`: the JSON of its rows already made, by index
    of the hand row (-1: the game's state)."""
    try:
        return _rows(g, texts or {})
    except ValueError:
        raise UserError(_('a value is not a number (NaN or an infinity); nothing was stored')) from None


def _rows(g: Mapping[str, Any], texts: Mapping[int, tuple[str, ...]]) -> _Rows:
    enc = _written
    hands = []
    for j, h in enumerate(g["hand_rows"]):
        done = texts.get(j)
        if done is None:
            done = (enc(h["typed"]), enc(h["hand"]), enc(h["points"]), enc(h["breakdown"]), enc(h["events"]),
                    enc(h["state"]))
        hands.append((h["n"], h["status"], *done, h["created"]))
    state = texts[-1][0] if -1 in texts else enc(g["state"])
    game = (g["uid"], g["ruleset_id"], g["ruleset_hash"], g["variant"], g["name"], g["season"], enc(g["players"]),
            enc(g["sides"]), enc(g["options"]), g["created"], int(g["finished"]), g["hands"], state)
    audit = [(a["at"], a["action"], a["hand"], enc(a["detail"])) for a in g["audit"]]
    bid = enc(g["pending_bid"]) if "pending_bid" in g else None
    return _Rows(g["uid"], g["ruleset_hash"], game, hands, audit, bid)


def player_problems(rs: Any, players: list[str], where: str) -> list[str]:
    out = []
    if not rs.min_players <= len(players) <= rs.max_players:
        want = str(rs.min_players) if rs.min_players == rs.max_players else f"{rs.min_players}-{rs.max_players}"
        out.append(_("{where}: {name} is played by {want} players, not {n}").format(
                       where=where, name=rs.name, want=want, n=len(players)))
    lowered: dict[str, int] = {}
    for i, p in enumerate(players):
        why = name_problem(p)
        if why is not None:
            out.append(_("{where}[{i}]: the name {why}").format(where=where, i=i, why=why))
        elif p != p.strip():
            out.append(_("{where}[{i}]: the name {p} begins or ends with spaces").format(where=where, i=i, p=repr(p)))
        if p.lower() in lowered:
            out.append(_("{where}[{i}]: the same name as {where}[{value}]").format(
                           where=where, i=i, value=lowered[p.lower()]))
        lowered.setdefault(p.lower(), i)
    return out


def side_problems(rs: Any, players: list[str], sides: list[dict[str, Any]], where: str) -> list[str]:
    """Sides as the engine makes them: each player alone, or the ruleset's partnerships (any grouping
    of the right sizes, as `--team` allows), every seat in exactly one side."""
    n = len(players)
    for k, s in enumerate(sides):
        for m, seat in enumerate(s["members"]):
            if seat >= n:
                return [f"{where}[{k}].members[{m}]: seat {seat}, but there are {n} players (seats 0-{n - 1})"]
    if rs.sides_kind != "partnership":
        if [(s["name"], s["members"]) for s in sides] != [(p, [i]) for i, p in enumerate(players)]:
            return [f"{where}: in {rs.name} each player is a side of his own, named after him, in seating order"]
        return []
    out = []
    if len(sides) != len(rs.partnerships):
        out.append(_("{where}: {name} has {n} sides, not {n2}").format(
                       where=where, name=rs.name, n=len(rs.partnerships), n2=len(sides)))
    seats = sorted(seat for s in sides for seat in s["members"])
    if seats != list(range(n)):
        out.append(_("{where}: every player must be in exactly one side").format(where=where))
    if sorted(len(s["members"]) for s in sides) != sorted(len(t) for t in rs.partnerships):
        sizes = _(" and ").join(str(len(t)) for t in rs.partnerships)
        out.append(_("{where}: {name} sides have {sizes} players").format(where=where, name=rs.name, sizes=sizes))
    names = [s["name"].lower() for s in sides]
    if len(set(names)) != len(names):
        out.append(_("{where}: two sides have the same name").format(where=where))
    return out


def option_problems(rs: Any, options: Mapping[str, Any], where: str, complete: bool) -> list[str]:
    """Option values of the ruleset's types and ranges; `complete`: every option present (an export)."""
    from scorepad.engine.game import resolve_options

    out = [f"{where}.{key}: {rs.name} has no such option (options: {', '.join(rs.options) or 'none'})"
           for key in options if key not in rs.options]
    for key, o in rs.options.items():
        if key not in options:
            if complete:
                out.append(_("{where}.{key}: missing").format(where=where, key=key))
            continue
        value, default = options[key], o.default
        if isinstance(default, bool):
            ok = isinstance(value, bool)
        elif isinstance(default, int):
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif isinstance(default, float):
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        else:
            ok = isinstance(value, type(default))
        if not ok:
            out.append(_("{where}.{key}: must be like its default {default}, not {name}").format(
                           where=where, key=key, default=repr(default), name=type(value).__name__))
    if not out:
        try:
            resolve_options(rs, options)
        except UserError as exc:
            out.append(f"{where}: {exc.message}")
    return out


def same(a: Any, b: Any) -> bool:
    """Equal as JSON: True is not 1, 1.0 is not 1, and key order does not matter."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def replay_problems(game: Any, g: Mapping[str, Any], where: str,
                    texts: dict[int, tuple[str, ...]] | None = None) -> list[str]:
    """Re-type every active hand from what was typed, score it, and compare with what is stored; then
    the undone rows, the end of the game, the cached state and a bid waiting for the next hand.
    `texts` receives the stored JSON of each active hand row, by its index (-1: the game's state)."""
    from scorepad.engine.game import finish_game, initial_state

    active = sorted(((j, h) for j, h in enumerate(g["hand_rows"]) if h["status"] == "active"), key=lambda x: x[1]["n"])
    numbers = [h["n"] for _, h in active]
    if numbers != list(range(1, len(active) + 1)):
        return [f"{where}.hand_rows: the active hands are numbered {numbers[:10]}; they must be 1, 2, 3 ... once each"]
    if g["hands"] != len(active):
        return [f"{where}.hands: {g['hands']}, but the game has {len(active)} active hands"]
    texts = {} if texts is None else texts
    states = [initial_state(game)]   # before hand 1, after hand 1, ...: what a retired row was typed against
    for j, h in active:
        after = _replayed(game, states[-1], h, f"{where}.hand_rows[{j}]", texts, j)
        if isinstance(after, str):
            return [after]
        states.append(after)
    retired = retired_problems(game, g, states, where)
    if retired:
        return retired
    state = states[-1]
    if g["finished"] and not state["finished"]:
        try:
            state = finish_game(game, state).state
        except ScorepadError as exc:
            return [f"{where}.finished: the game cannot be finished: {exc.message}"]
    equal, text = _as_stored(state, g["state"])
    texts[-1] = (text,)
    if not equal:
        return [f"{where}.state: differs from a replay of its hands with the pinned ruleset"]
    if g["finished"] != bool(state["finished"]):
        return [(f"{where}.finished: {str(g['finished']).lower()}, but the replayed game "
                f"{'has' if state['finished'] else 'has not'} ended")]
    if "pending_bid" in g:
        return pending_bid_problems(game, state, g["pending_bid"], f"{where}.pending_bid")
    return []


_HAND_KEYS = ("points", "breakdown", "events", "state")


def _replayed(game: Any, state: Any, h: Mapping[str, Any], at: str, texts: dict[int, tuple[str, ...]],
              j: int) -> Any:
    """The state after one stored hand typed again and scored; or the sentence why it is not what is
    stored. Each value is compared by its JSON (as `same`); the stored side's is kept in `texts`."""
    from scorepad.app.games import hand_row
    from scorepad.engine.assignments import copies_problems, split_assignments, type_hand
    from scorepad.engine.game import active_players
    from scorepad.engine.scoring import apply_hand

    if state["finished"]:
        return f"{at}: the game had ended before hand {h['n']}"
    try:
        hand, _missing = type_hand(game, split_assignments(game, h["typed"]), active_players(game, state))
    except ScorepadError as exc:
        return f"{at}.typed: {exc.message}"
    equal, stored_hand = _as_stored(hand, h["hand"])
    if not equal:
        return f"{at}.hand: not the values typed in {at}.typed"
    copies = copies_problems(game, hand)
    if copies:
        return f"{at}.typed: {copies[0]}"
    try:
        result = apply_hand(game, state, hand)
    except ScorepadError as exc:
        return f"{at}: the hand cannot be scored: {exc.message}"
    row = hand_row(h["n"], h["typed"], hand, result, h["created"])
    stored = [_written(h["typed"]), stored_hand]
    for key in _HAND_KEYS:
        equal, text = _as_stored(getattr(row, key), h[key])
        if not equal:
            return f"{at}.{key}: differs from a replay of the hand with the pinned ruleset"
        stored.append(text)
    texts[j] = tuple(stored)
    return result.state


def retired_problems(game: Any, g: Mapping[str, Any], states: list[Any], where: str) -> list[str]:
    """Every undone row re-typed too: its `hand` must be what its `typed` says, so that what the log
    and the sheet show of it is what it holds. (`redo` types an undone hand again from its text; a
    row whose text no longer types in this game, as after a rename, can never come back. Replaced
    rows are history only: their text may name players since renamed.)"""
    from scorepad.engine.assignments import split_assignments, type_hand
    from scorepad.engine.game import active_players

    for j, h in enumerate(g["hand_rows"]):
        if h["status"] != "undone":
            continue
        at = f"{where}.hand_rows[{j}]"
        state = states[max(0, min(h["n"] - 1, len(states) - 1))]
        try:
            hand, _missing = type_hand(game, split_assignments(game, h["typed"]), active_players(game, state))
        except ScorepadError:
            continue
        if not same(hand, h["hand"]):
            return [f"{at}.hand: not the values typed in {at}.typed"]
    return []


def pending_bid_problems(game: Any, state: dict[str, Any], typed: list[str], where: str) -> list[str]:
    """A bid written down for the coming hand: only bidding fields, a whole bid that `scorepad bid` accepts."""
    from scorepad.app.bids import bid_problems, bidding_fields
    from scorepad.engine.assignments import split_assignments

    if state["finished"]:
        return [f"{where}: the game has ended, so no bid can be waiting for its next hand"]
    if not bidding_fields(game.ruleset):
        return [f"{where}: {game.ruleset.name} has no fields written down at bid time"]
    try:
        found = bid_problems(game, state, split_assignments(game, typed, strict=True))
    except ScorepadError as exc:
        found = [exc.message]
    return [f"{where}: {found[0]}"] if found else []


class _Writer:
    """Checked games written a batch at a time: each table's rows of a batch in one statement (on a
    server, one COPY), the games' ids taken first; each ruleset text pinned once."""

    def __init__(self, store: Store, db: Any, pins: Mapping[str, Mapping[str, Any]]) -> None:
        """`db`: the transaction to write in; None: a transaction of its own for each batch."""
        self.store, self.db, self.pins = store, db, pins
        self.pinned: set[str] = set()
        self.pending: list[_Rows] = []
        self.hands = 0

    def add(self, rows: _Rows) -> None:
        self.pending.append(rows)
        self.hands += len(rows.hands) + 1
        if self.hands >= IMPORT_BATCH:
            self.flush()

    def flush(self) -> None:
        pending, self.pending, self.hands = self.pending, [], 0
        if not pending:
            return
        if self.db is not None:
            self._write(self.db, pending)
            return
        with self.store.write() as db:
            self._write(db, pending)

    def _write(self, db: Any, pending: list[_Rows]) -> None:
        store = self.store
        for rhash in {r.ruleset_hash for r in pending} - self.pinned:
            r = self.pins[rhash]
            store.pin_ruleset(db, r["ruleset_id"], r["text"], file_name(r["source"]))
            self.pinned.add(rhash)
        ids = list(zip(store.next_ids(db, "games", len(pending)), pending, strict=True))
        store.insert_rows(db, "games", ("id", *GAME_COLUMNS), [(gid, *r.game) for gid, r in ids])
        store.insert_rows(db, "hands", ("game_id", *HAND_COLUMNS), [(gid, *h) for gid, r in ids for h in r.hands])
        store.insert_rows(db, "audit", ("game_id", *AUDIT_COLUMNS), [(gid, *a) for gid, r in ids for a in r.audit])
        bids = [(gid, r.bid, now()) for gid, r in ids if r.bid is not None]
        if bids:
            store.insert_rows(db, "pending_bids", ("game_id", "typed", "created"), bids)


def insert_games(store: Store, games: Iterable[Mapping[str, Any]], pins: Mapping[str, Mapping[str, Any]],
                 meta: Mapping[str, Any], check: Callable[[], None] | None = None) -> tuple[int, int]:
    """Write checked games (export form) in one transaction; a game whose uid is present is skipped.
    `check` runs last inside the transaction."""
    added = skipped = 0
    with store.write() as db:
        existing = {uid for (uid,) in db.execute("SELECT uid FROM games")}
        writer = _Writer(store, db, pins)
        for g in games:
            if g["uid"] in existing:
                skipped += 1
                continue
            existing.add(g["uid"])
            writer.add(_rows_of(g))
            added += 1
        writer.flush()
        if "current_season" in meta:
            db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES('current_season', ?)", (meta["current_season"],))
        if check is not None:
            check()
    return added, skipped


def audit_entry(action: str, hand: int | None, detail: dict[str, Any]) -> dict[str, Any]:
    return {"at": now(), "action": action, "hand": hand, "detail": detail}
