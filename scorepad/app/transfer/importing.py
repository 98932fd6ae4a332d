"""`scorepad import`: an export read into this database, all or nothing. Into PostgreSQL in one
transaction; into SQLite through a scratch file beside the database, copied over in one transaction.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from scorepad.app.shapes import problems, read_json
from scorepad.app.transfer.checks import Checker, check_export, rulesets_checked
from scorepad.app.transfer.pieces import AN_EXPORT, FileChanged, Layout, check_size, read_document, unreadable
from scorepad.app.transfer.schema import EXPORT, FORMAT, READS, file_name
from scorepad.app.transfer.writing import AUDIT_COLUMNS, GAME_COLUMNS, HAND_COLUMNS, Checked, Writer, insert_games
from scorepad.errors import UserError
from scorepad.locale import _
from scorepad.locale import shown as shown_said
from scorepad.shape import MAX_PROBLEMS, kind
from scorepad.store import Store


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
    check_size(path, AN_EXPORT)
    try:
        layout = Layout.read(path)
    except (ValueError, RecursionError, UnicodeDecodeError):
        layout = None
    except OSError as exc:
        raise unreadable(path, exc) from None
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
    found, checker = rulesets_checked(head["rulesets"], layout.used)
    return _import_games(store, path, layout, checker, found, check)


def _whole_export(path: Path) -> Any:
    """The export read whole (the reading of a file the piecewise reading does not follow)."""
    text = read_document(path, AN_EXPORT)
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
    if data.get("version") not in READS or isinstance(data.get("version"), bool):
        version = data.get("version")
        shown = version if isinstance(version, int) and not isinstance(version, bool) else shown_said(kind(version))
        raise UserError(_("{path}: export version {shown}; this scorepad reads {VERSION}").format(
                            path=path, shown=shown, VERSION=", ".join(map(str, READS))))


def _import_games(store: Store, path: Path, layout: Layout, checker: Checker, found: list[str],
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
            writer = Writer(store, db, pins)
            added, skipped = _take(path, games, found, existing, writer)
            if "current_season" in layout.head["meta"]:
                db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES('current_season', ?)",
                           (layout.head["meta"]["current_season"],))
            if check is not None:
                check()
        return added, skipped
    existing = {uid for (uid,) in store.db.execute("SELECT uid FROM games")}
    with _staging(store) as staging:
        added, skipped = _take(path, games, found, existing, Writer(staging, None, pins))
        staging.close()
        late = _merge(store, staging.path, pins, layout.head["meta"], check)
    return added - late, skipped + late


def _take(path: Path, games: Iterator[Checked], found: list[str], existing: set[str],
          writer: Writer) -> tuple[int, int]:
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
    except FileChanged:
        raise UserError(_("{path}: not a scorepad export ({exc})").format(
                            path=path, exc="the file changed while it was read")) from None
    if found:
        raise refuse(path, found[:MAX_PROBLEMS])
    writer.flush()
    return added, skipped


@contextmanager
def _staging(store: Store) -> Iterator[Store]:
    """A new SQLite file beside the database (else in the temporary directory), removed at the end."""
    import tempfile  # start-up: ~6 ms; only writing a file needs it

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
            top = store.next_ids(db, "games", 1)[0] - 1   # never a number a deleted game had
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
