"""The whole database as an export: each game written straight from its rows, a batch of games at a
time (by one process per core for a large database), and the byte-for-byte comparison with a file.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import zip_longest
from pathlib import Path
from typing import Any

from scorepad.app.shapes import (
    read_json,
)
from scorepad.app.transfer.forked import can_fork, forked_in_order
from scorepad.app.transfer.pieces import AN_EXPORT, Layout, read_document
from scorepad.app.transfer.schema import FORMAT, VERSION, file_name, same
from scorepad.errors import StoreError, UserError
from scorepad.locale import _
from scorepad.store import Store
from scorepad.store.rowshape import damaged, decoded, game_problem, hand_values, where
from scorepad.store.sqlite import gc_paused
from scorepad.text.output import write_atomic

EXPORT_BATCH = 200  # games read together: their hands, audit entries and bids in one statement each


PARALLEL_HANDS = 5000  # a database with more hands is exported by one process per core


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
            f" finished, hands, state, first_dealer FROM games WHERE id {within}", batch)}
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
    total = store.db.execute("SELECT COUNT(*) FROM hands").fetchone()[0]
    workers = os.cpu_count() or 1
    if total <= PARALLEL_HANDS or workers <= 1 or not can_fork():
        for batch in _raw_games(store):
            yield from _texts_of(batch)
        return
    yield from forked_in_order(_texts_of, _raw_games(store), workers)


def _texts_of(batch: list[RawGame]) -> list[str]:
    with gc_paused():
        return [_game_text(raw) for raw in batch]


def _game_text(raw: RawGame) -> str:
    """A game's text in the export, two levels deep: json.dumps of the game as a table, indented."""
    return _indented(_export_game(*raw), "\n  ")


def _game_values(row: tuple[Any, ...]) -> tuple[Any, Any, Any, Any]:
    """A game row's players, sides, options and cached state, decoded; DamagedRow when the row is not of
    the shape scorepad writes (an export that `import` would refuse is never written)."""
    gid, players, sides, options, state, first_dealer = row[0], row[7], row[8], row[9], row[13], row[14]
    place = where(gid)
    values = (decoded(players, "players", "array", place), decoded(sides, "sides", "array", place),
              decoded(options, "options", "object", place), decoded(state, "state", "object", place))
    problem = game_problem(*values[:3], first_dealer)
    if problem is not None:
        raise damaged(place, problem)
    return values


def _export_game(row: tuple[Any, ...], hands: list[Any], audit: list[Any], bid: str | None) -> dict[str, Any]:
    """One game of the export from its rows."""
    (gid, uid, rid, rhash, variant, name, season, _players, _sides, _options, created, finished, n_hands, _state,
     first_dealer) = row
    players, sides, options, state = _game_values(row)
    return {**({"pending_bid": decoded(bid, "bid", "array", where(gid))} if bid is not None else {}),
            **({"first_dealer": first_dealer} if first_dealer else {}),
            "uid": uid, "ruleset_id": rid, "ruleset_hash": rhash, "variant": variant, "name": name,
            "season": season, "players": players, "sides": sides, "options": options,
            "created": created, "finished": bool(finished), "hands": n_hands, "state": state,
            "hand_rows": [dict(zip(("n", "status", "typed", "hand", "points", "breakdown", "events", "state",
                                    "created"), (n, st, *hand_values(gid, n, texts), c), strict=True))
                          for _g, n, st, *texts, c in hands],
            "audit": [{"at": a, "action": act, "hand": hn, "detail": decoded(d, "detail", "object", where(gid, hn))}
                      for _g, a, act, hn, d in audit]}


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
def _one_view(store: Store, always: bool = False) -> Iterator[None]:
    """An SQLite file in WAL mode read in one read transaction, so that the export is of one moment
    while other commands go on writing (a server's `backup` reads from its snapshot). `always`: in the
    other journal modes too (a backup), where the read transaction holds writers back until it ends."""
    db = store.db
    if not ((always or store.wal) and isinstance(db, sqlite3.Connection) and not db.in_transaction):
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


def _indented(value: Any, nl: str) -> str:
    """`value` as json.dumps writes it into the export (indent 1, sorted keys, NaN refused), every line
    break followed by the indent `nl` holds."""
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
        layout = Layout.read(path)
    except (ValueError, RecursionError, UnicodeDecodeError):
        layout = None
    if layout is None or layout.spans is None:
        data = read_json(read_document(path, AN_EXPORT))
        head, theirs = {k: v for k, v in data.items() if k != "games"}, iter(data.get("games") or [])
    else:
        head, theirs = layout.head, (read_json(text) for text in layout.game_texts(path))
    if not same(_export_head(store), head):
        return True
    end = object()
    return any(a is end or b is end or not same(a, _as_exported(b))
               for a, b in zip_longest(_export_games(store), theirs, fillvalue=end))


def _as_exported(game: Any) -> Any:
    """A game of a file as this export writes it: a first dealer in the first seat is left out."""
    if isinstance(game, dict) and game.get("first_dealer") == 0 and type(game["first_dealer"]) is int:
        return {k: v for k, v in game.items() if k != "first_dealer"}
    return game


SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3")


def backup(store: Store, target: Path) -> None:
    """A consistent copy of the database, of the kind its file name says: a `.json` file is an export
    (what `.json` is to `import` and `db copy`), written from one read transaction or one snapshot; any
    other name of an SQLite database is an SQLite file, copied by SQLite's online backup. A server's
    database is only ever written as an export: under an SQLite file's name it is refused."""
    target = Path(target)
    snapshot = getattr(store, "snapshot", None)
    if snapshot is not None:
        if target.suffix.lower() in SQLITE_SUFFIXES:
            raise UserError(_("{target}: a backup of a PostgreSQL database is an export file; name it .json "
                              "(`scorepad db copy` makes an SQLite file of it)").format(target=target))
        with snapshot():
            write_atomic(target, export_chunks(store))
        return
    if target.suffix.lower() != ".json":
        store.backup(target)
        return
    with _one_view(store, always=True):
        write_atomic(target, export_chunks(store))
