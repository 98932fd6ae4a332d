"""The SQLite store: games, their pinned ruleset text, every hand as typed, the audit trail.

Recording a hand is one transaction that appends the hand (with the state after it, so the next
hand costs the same at hand 1000 as at hand 1) and updates the game's cached state. Undo and
edit never delete: the old rows stay with status 'undone' or 'replaced', and the audit table says
who changed what when. The schema is versioned and migrated in order from the first version
(scorepad.store.migrations, the steps the PostgreSQL store runs too).
"""

from __future__ import annotations

import gc
import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from scorepad.errors import StoreConflict, StoreError, UserError
from scorepad.locale import _
from scorepad.names import closest, did_you_mean, fold
from scorepad.store.migrations import MIGRATIONS, SCHEMA_VERSION, known_columns
from scorepad.store.rowshape import (
    DamagedRow,
    decoded,
    first_dealer_problem,
    game_problem,
    hand_values,
    state_problem,
    where,
)
from scorepad.store.rowshape import damaged as damaged_row


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def dumps(value: Any) -> str:
    """JSON for a column; NaN and infinities are refused (JSON has no such numbers), so nothing is stored."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:
        raise UserError(_('a value is not a number (NaN or an infinity); nothing was stored')) from None


_scan = cast(Any, json.JSONDecoder()).scan_once  # the C scanner json.loads calls


def loads(text: str) -> Any:
    """json.loads of a column, without its wrapper's cost (a third of decoding a hand's small values);
    text that is not one JSON value alone fails as json.loads fails."""
    try:
        value, end = _scan(text, 0)
    except StopIteration:
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while many rows are decoded: JSON trees hold no cycles, and with
    thousands of new containers Python would run the collector every few hundred (a third of the
    time `games` spends reading 5,000 games)."""

    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def text_hash(text: str) -> str:
    """The hash a ruleset text is pinned under: the first 16 hex digits of its SHA-256 (as Ruleset.hash)."""
    import hashlib  # start-up: ~6 ms; only pinning a text needs it

    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass
class GameRow:
    id: int
    uid: str
    ruleset_id: str
    ruleset_hash: str
    ruleset_text: str
    ruleset_source: str
    variant: str | None
    name: str | None
    season: str | None
    players: list[str]
    sides: list[dict[str, Any]]
    options: dict[str, Any]
    created: str
    finished: bool
    hands: int
    state: dict[str, Any]
    version: int = 0
    abandoned: bool = False   # `scorepad abandon`: kept, but out of the season and closed to new hands
    damaged: str | None = None   # why the cached state was not of a state's shape (`verify` says it)
    first_dealer: int = 0   # the seat that deals the first hand (a rematch passes the deal on)


@dataclass
class HandRow:
    n: int
    typed: list[str]
    hand: dict[str, Any]
    points: list[Any]
    breakdown: list[list[Any]]   # per side, each line by its id (a table) or, stored before schema 8, in words (a list)
    events: list[Any]   # each by its message's id (a table) or, stored before schema 9, in words
    state: dict[str, Any]
    created: str


@dataclass
class Rewrite:
    """A game rewritten whole (rename): its new players and sides, every hand again, the final state."""

    row: GameRow
    players: list[str]
    sides: list[dict[str, Any]]
    rows: list[HandRow]
    state: dict[str, Any]
    bid: list[str] | None = None   # the pending bid retyped with the new names, when the game has one


def _uuid4_hex() -> str:
    import uuid  # here: importing uuid imports platform, a cost of every start otherwise

    return uuid.uuid4().hex


def user_data_dir(env: Mapping[str, str] | None = None) -> str:
    """scorepad's own files of this user (the default database, rules written by `rules new`, `play`'s
    history): SCOREPAD_HOME when set, else the platform's data directory (platformdirs)."""
    home = (os.environ if env is None else env).get("SCOREPAD_HOME")
    if home:
        return home
    import platformdirs  # start-up: ~7 ms; not needed when --db, SCOREPAD_DB or SCOREPAD_HOME says where

    return platformdirs.user_data_dir("scorepad", appauthor=False)


def default_path() -> Path:
    """The database when neither --db, SCOREPAD_DB nor the config names one."""
    return Path(user_data_dir()) / "scorepad.db"


class Store:
    """One SQLite database file; every method that writes is one transaction."""

    server = False  # a database on a server (PostgreSQL): `path` names no file

    def __init__(self, path: str | Path | None = None) -> None:
        chosen = path or os.environ.get("SCOREPAD_DB")
        self.path = Path(chosen or default_path())
        self._texts: dict[str, str] = {}
        if chosen and not self.path.parent.is_dir():
            # a typo in --db or SCOREPAD_DB must not quietly start a second, empty database somewhere new
            raise UserError(_("the database {path} is in a directory that does not exist ({parent}); create "
                               "the directory first, or choose another file with --db or SCOREPAD_DB").format(
                                path=self.path, parent=self.path.parent))
        try:
            if not chosen:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self.db.execute("PRAGMA busy_timeout = 30000")
            self.db.execute("PRAGMA foreign_keys = ON")
            mode = self._journal_mode_wal()
            self.wal = bool(mode and mode[0] == "wal")
            self.db.execute("PRAGMA synchronous = NORMAL" if self.wal else "PRAGMA synchronous = FULL")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(_("cannot open the database {path}: {exc}").format(path=self.path, exc=exc)) from None
        except OSError as exc:
            raise StoreError(_("cannot create the database {path}: {strerror}").format(
                                 path=self.path, strerror=exc.strerror)) from None

    def _journal_mode_wal(self) -> Any:
        """Switch to WAL. SQLite answers 'database is locked' at once, without waiting for the busy
        timeout, when several processes switch a new file at the same moment: so wait here."""
        deadline = time.monotonic() + 30
        while True:
            try:
                return self.db.execute("PRAGMA journal_mode = WAL").fetchone()
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.005)

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE: writers queue instead of failing)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        else:
            self.db.execute("COMMIT")

    def _migrate(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(_("the database {path} was written by a newer scorepad (schema {version}, this one "
                                "knows {SCHEMA_VERSION})").format(
                                 path=self.path, version=version, SCHEMA_VERSION=SCHEMA_VERSION))
        if version == SCHEMA_VERSION:
            return
        with self.write() as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            for step in range(version, SCHEMA_VERSION):
                MIGRATIONS[step](db)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    # ------------------------------------------------------------------ meta
    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.write() as db:
            db.execute("INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                       (key, value))

    # ------------------------------------------------------------------ games
    def create_game(self, *, ruleset_id: str, ruleset_hash: str, ruleset_text: str, ruleset_source: str,
                    variant: str | None, name: str | None, season: str | None, players: Sequence[str],
                    sides: list[dict[str, Any]], options: dict[str, Any], state: dict[str, Any],
                    uid: str | None = None, created: str | None = None, make_current: bool = True,
                    first_dealer: int = 0) -> int:
        problem = first_dealer_problem(first_dealer, len(players))
        if problem is not None:   # the schema refuses it too; said here in the player's words
            raise UserError(_("the game cannot start: its first dealer: {problem}").format(problem=problem))
        with self.write() as db:
            if self.pin_ruleset(db, ruleset_id, ruleset_text, ruleset_source) != ruleset_hash:
                raise StoreError(_("the ruleset hash {ruleset_hash} is not the hash of its text").format(
                                     ruleset_hash=ruleset_hash))
            number = self.new_game_number(db)
            cur = db.execute(
                f"INSERT INTO games({'id, ' if number else ''}uid, ruleset_id, ruleset_hash, variant, name, season,"
                f" players, sides, options, created, state, first_dealer) VALUES({'?, ' if number else ''}?, ?, ?, ?,"
                " ?, ?, ?, ?, ?, ?, ?, ?)",
                (*([number] if number else []), uid or _uuid4_hex(), ruleset_id, ruleset_hash, variant, name, season,
                 dumps(list(players)), dumps(sides), dumps(options), created or now(), dumps(state), first_dealer))
            game_id = number or int(cur.lastrowid or 0)
            db.execute("INSERT INTO audit(game_id, at, action, hand_n, detail) VALUES(?, ?, 'new', NULL, ?)",
                       (game_id, now(), dumps({"players": list(players), "options": options})))
            if make_current:
                db.execute("INSERT INTO meta(key, value) VALUES('current_game', ?) "
                           "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (str(game_id),))
        return game_id

    def new_game_number(self, db: sqlite3.Connection) -> int | None:
        """Inside a write: the number a new game gets, past every game and deleted game (next_ids); a
        server's identity column never gives a number twice, and chooses it there (None)."""
        return self.next_ids(db, "games", 1)[0]

    def pin_ruleset(self, db: sqlite3.Connection, ruleset_id: str, text: str, source: str) -> str:
        """Inside a write: keep `text` under its own hash and return that hash.

        A pinned text is found only by its true hash. A row whose text is not the text of its hash
        (an import by an older scorepad did not check) gets this text, the one its hash names; the
        text that was there moves to its own hash with the games scored by it, so they keep their
        scores and new games get the real ruleset.
        """
        rhash = text_hash(text)
        row = db.execute("SELECT text FROM rulesets WHERE hash = ?", (rhash,)).fetchone()
        if row is None:
            db.execute("INSERT INTO rulesets(hash, ruleset_id, source, text) VALUES(?, ?, ?, ?)",
                       (rhash, ruleset_id, source, text))
        elif row[0] != text:
            games = [g for (g,) in db.execute("SELECT id FROM games WHERE ruleset_hash = ?", (rhash,))]
            old = db.execute("SELECT ruleset_id, source FROM rulesets WHERE hash = ?", (rhash,)).fetchone()
            db.execute("UPDATE rulesets SET ruleset_id = ?, source = ?, text = ? WHERE hash = ?",
                       (ruleset_id, source, text, rhash))
            moved = self.pin_ruleset(db, old[0], row[0], old[1])  # never back here: this row is right now
            db.executemany("UPDATE games SET ruleset_hash = ? WHERE id = ?", [(moved, g) for g in games])
            self._texts.clear()
        return rhash

    def misfiled_rulesets(self) -> list[tuple[str, str]]:
        """(hash, ruleset id) of every pinned text that is not the text of its hash: the database was altered."""
        rows = self.db.execute("SELECT hash, ruleset_id, text FROM rulesets ORDER BY hash")
        return [(h, rid) for h, rid, text in rows if text_hash(text) != h]

    def _game_from_row(self, row: sqlite3.Row | tuple[Any, ...]) -> GameRow:
        (gid, uid, rid, rhash, variant, name, season, players, sides, options, created, finished, hands,
         state, version, first_dealer, text, source, abandoned) = row
        text = self._texts.setdefault(rhash, text)  # one copy of each pinned text, however many games
        place = where(gid)
        players_list = decoded(players, "players", "array", place)
        sides_list = decoded(sides, "sides", "array", place)
        options_table = decoded(options, "options", "object", place)
        problem = game_problem(players_list, sides_list, options_table, first_dealer)
        if problem is not None:
            raise damaged_row(place, problem)
        try:
            cached = json.loads(state)
        except ValueError:
            cached = None
        damaged = state_problem(cached, len(sides_list), hands)
        if damaged is not None:
            cached = self._state_after_last_hand(gid, len(sides_list), hands)
        return GameRow(gid, uid, rid, rhash, text, source, variant, name, season, players_list,
                       sides_list, options_table, created, bool(finished), hands,
                       cached, version, bool(abandoned), damaged, int(first_dealer))

    def _state_after_last_hand(self, game_id: int, sides: int, hands: int) -> dict[str, Any]:
        """A damaged cache's stand-in: the state stored with the game's last hand (hands are never
        changed once stored), else a state with no counters that `verify` reports."""
        row = self.db.execute("SELECT state FROM hands WHERE game_id = ? AND status = 'active' ORDER BY n DESC"
                              " LIMIT 1", (game_id,)).fetchone()
        try:
            state = json.loads(row[0]) if row is not None else None
        except ValueError:
            state = None
        if isinstance(state, dict) and state_problem(state, sides, hands) is None:
            return state
        return {"hands": hands, "sides": [{"score": 0, "status": "playing"} for _ in range(sides)], "game": {},
                "finished": False, "winners": None, "draw": False, "dealer": 0}

    # A game is abandoned when its audit trail says so: the trail travels with the game in an export.
    _GAME_SQL = ("SELECT g.id, g.uid, g.ruleset_id, g.ruleset_hash, g.variant, g.name, g.season, g.players,"
                 " g.sides, g.options, g.created, g.finished, g.hands, g.state, g.version, g.first_dealer, r.text,"
                 " r.source,"
                 " EXISTS(SELECT 1 FROM audit a WHERE a.game_id = g.id AND a.action = 'abandon')"
                 " FROM games g JOIN rulesets r ON r.hash = g.ruleset_hash")

    def game(self, game_id: int | str | None) -> GameRow:
        """A game by id, by the name it was started with (or a unique prefix of it), or the current game
        when `game_id` is None."""
        if game_id is None:
            current = self.get_meta("current_game")
            if current is None:
                raise UserError(_('there is no current game; start one with `scorepad new GAME PLAYER...`'))
            game_id = current
        try:
            gid = int(game_id)
        except (TypeError, ValueError):
            gid = None
        if gid is not None and not 0 < gid < 2**63:   # SQLite's integers end there: no game has such an id
            gid = None
        row = self.db.execute(self._GAME_SQL + " WHERE g.id = ?", (gid,)).fetchone() if gid is not None else None
        if row is None:
            row = self.db.execute(self._GAME_SQL + " WHERE g.id = ?", (self._game_by_name(str(game_id)),)).fetchone()
        return self._game_from_row(row)

    def _game_by_name(self, text: str) -> int:
        """The id of the one game whose name is `text`, or starts with it (case-insensitive)."""

        named = self.db.execute("SELECT id, name FROM games WHERE name IS NOT NULL AND name != '' ORDER BY id").fetchall()
        want = fold(text.strip())
        for hits in ([i for i, n in named if fold(n) == want], [i for i, n in named if want and fold(n).startswith(want)]):
            if len(hits) == 1:
                return int(hits[0])
            if hits:
                raise UserError(_("{text} could be game {value} or {value2}; say which by its id").format(
                                    text=repr(text), value=', '.join(map(str, hits[:-1])), value2=hits[-1]))
        guess = did_you_mean([repr(n) for n in closest(text, [n for _, n in named])])
        if text.strip().isdigit():
            last = self.db.execute("SELECT MAX(id) FROM games").fetchone()[0]
            if last is not None:
                raise UserError(_("there is no game {n} (the last game is {last}); `scorepad games` lists them")
                                .format(n=text.strip(), last=last))
            raise UserError(_("there is no game {n}; `scorepad games` lists them").format(n=text.strip()))
        raise UserError(_("there is no game called {name}{guess}; `scorepad games` lists them").format(
                            name=repr(text), guess=guess))

    # The games without their ruleset's text: joined, SQLite hands Python a copy of the (10 kB) text
    # for every row, 90% of reading 5,000 games; `games` reads each pinned text once instead.
    _GAMES_SQL = ("SELECT g.id, g.uid, g.ruleset_id, g.ruleset_hash, g.variant, g.name, g.season, g.players,"
                  " g.sides, g.options, g.created, g.finished, g.hands, g.state, g.version, g.first_dealer,"
                  " EXISTS(SELECT 1 FROM audit a WHERE a.game_id = g.id AND a.action = 'abandon')"
                  " FROM games g")

    def games(self, season: str | None = None, damaged: list[str] | None = None) -> list[GameRow]:
        """Every game (of a season). A game whose row scorepad did not write as it is raises DamagedRow,
        or, given a list `damaged`, is left out with its sentence added there (what `verify` reports)."""
        if season is None:
            rows = self.db.execute(self._GAMES_SQL + " ORDER BY g.id").fetchall()
        else:
            rows = self.db.execute(self._GAMES_SQL + " WHERE g.season = ? ORDER BY g.id", (season,)).fetchall()
        pinned: dict[str, tuple[str, str]] = {}
        for rhash in {r[3] for r in rows}:
            found = self.db.execute("SELECT text, source FROM rulesets WHERE hash = ?", (rhash,)).fetchone()
            if found is not None:  # a game without its text is left out, as the join of `game` would
                pinned[rhash] = (found[0], found[1])
        out = []
        with gc_paused():
            for r in rows:
                if r[3] not in pinned:
                    continue
                try:
                    out.append(self._game_from_row((*r[:16], *pinned[r[3]], r[16])))
                except DamagedRow as exc:
                    if damaged is None:
                        raise
                    damaged.append(exc.problems[0])
        return out

    def seasons(self) -> list[str]:
        """Every season some game belongs to."""
        return [s for (s,) in self.db.execute("SELECT DISTINCT season FROM games WHERE season IS NOT NULL ORDER BY season")]

    def game_ids_by_uid(self) -> dict[str, int]:
        return {uid: gid for gid, uid in self.db.execute("SELECT id, uid FROM games")}

    def set_current(self, game_id: int | str) -> int:
        gid = self.game(game_id).id
        self.set_meta("current_game", str(gid))
        return gid

    # ------------------------------------------------------------------ hands
    def hands(self, game_id: int) -> list[HandRow]:
        rows = self.db.execute(
            "SELECT n, typed, hand, points, breakdown, events, state, created FROM hands"
            " WHERE game_id = ? AND status = 'active' ORDER BY n", (game_id,)).fetchall()
        return [self._hand_row(game_id, n, texts, c) for n, *texts, c in rows]

    def replay_hands(self, game_id: int) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
        """(n, hand, state after it) of each active hand, in order: what a replay reads, and only that
        (decoding the typed text, points, breakdown and events too was most of reading a game's hands)."""
        rows = self.db.execute("SELECT n, hand, state FROM hands WHERE game_id = ? AND status = 'active' ORDER BY n",
                               (game_id,)).fetchall()
        out = []
        for n, h, s in rows:
            try:
                hand, state = json.loads(h), json.loads(s)
            except (TypeError, ValueError, RecursionError):
                hand = state = None
            if type(hand) is not dict or type(state) is not dict:
                place = where(game_id, n)
                hand, state = decoded(h, "hand", "object", place), decoded(s, "state", "object", place)
            out.append((n, hand, state))
        return out

    @staticmethod
    def _claim(db: sqlite3.Connection, game_id: int, expected_version: int) -> None:
        """Inside a write: refuse if the game changed since it was read, else bump its version."""
        current = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
        if current is None or current[0] != expected_version:
            raise StoreConflict(_("another scorepad command changed this game at the same moment; try again"))
        db.execute("UPDATE games SET version = version + 1 WHERE id = ?", (game_id,))

    def add_hand(self, game_id: int, expected_version: int, row: HandRow,
                 audit: tuple[str, dict[str, Any]] | None = None) -> None:
        """Append a hand; refuses if another command changed the game since it was read. `audit`
        (action, detail): the entry of the audit trail the same transaction writes (`redo`)."""
        with self.write() as db:
            self._claim(db, game_id, expected_version)
            self._insert_hand(db, game_id, row)
            db.execute("UPDATE games SET hands = ?, state = ?, finished = ? WHERE id = ?",
                       (row.n, dumps(row.state), int(row.state.get("finished", False)), game_id))
            db.execute("DELETE FROM pending_bids WHERE game_id = ?", (game_id,))  # the hand completes the bid
            if audit is not None:
                db.execute("INSERT INTO audit(game_id, at, action, hand_n, detail) VALUES(?, ?, ?, ?, ?)",
                           (game_id, now(), audit[0], row.n, dumps(audit[1])))

    def _insert_hand(self, db: sqlite3.Connection, game_id: int, row: HandRow) -> None:
        db.execute("INSERT INTO hands(game_id, n, status, typed, hand, points, breakdown, events, state, created)"
                   " VALUES(?, ?, 'active', ?, ?, ?, ?, ?, ?, ?)",
                   (game_id, row.n, dumps(row.typed), dumps(row.hand), dumps(row.points),
                    dumps(row.breakdown), dumps(row.events), dumps(row.state), row.created))

    def replace_from(self, game_id: int, expected_version: int, first_n: int, rows: Sequence[HandRow],
                     action: str, detail: dict[str, Any], final_state: dict[str, Any],
                     repin: tuple[str, str, str, str] | None = None) -> None:
        """Undo/edit/rescore: retire active hands from `first_n` on, add `rows`, log it; one transaction.

        `repin` (ruleset id, hash, text, source) points the game at another ruleset text (rescore).
        """
        with self.write() as db:
            self._claim(db, game_id, expected_version)
            if repin is not None:
                rid, rhash, text, source = repin
                if self.pin_ruleset(db, rid, text, source) != rhash:
                    raise StoreError(_("the ruleset hash {rhash} is not the hash of its text").format(rhash=rhash))
                db.execute("UPDATE games SET ruleset_hash = ? WHERE id = ?", (rhash, game_id))
            self._replace(db, game_id, first_n, rows, action, detail, final_state)

    def _replace(self, db: sqlite3.Connection, game_id: int, first_n: int, rows: Sequence[HandRow], action: str,
                 detail: dict[str, Any], final_state: dict[str, Any]) -> None:
        status = "undone" if action == "undo" else "replaced"
        db.execute("UPDATE hands SET status = ? WHERE game_id = ? AND status = 'active' AND n >= ?",
                   (status, game_id, first_n))
        for row in rows:
            self._insert_hand(db, game_id, row)
        hands = first_n - 1 + len(rows)
        db.execute("UPDATE games SET hands = ?, state = ?, finished = ? WHERE id = ?",
                   (hands, dumps(final_state), int(final_state.get("finished", False)), game_id))
        db.execute("INSERT INTO audit(game_id, at, action, hand_n, detail) VALUES(?, ?, ?, ?, ?)",
                   (game_id, now(), action, first_n, dumps(detail)))

    def rewrite_games(self, changes: Sequence[Rewrite], action: str, detail: dict[str, Any]) -> None:
        """Rename: several games get new players, sides and hands (the old hands kept as 'replaced'); one
        transaction, refused whole if another command changed one of them meanwhile."""
        with self.write() as db:
            for change in changes:
                gid = change.row.id
                self._claim(db, gid, change.row.version)
                db.execute("UPDATE games SET players = ?, sides = ? WHERE id = ?",
                           (dumps(change.players), dumps(change.sides), gid))
                self._replace(db, gid, 1, change.rows, action, detail, change.state)
                if change.bid is not None:
                    db.execute("UPDATE pending_bids SET typed = ? WHERE game_id = ?", (dumps(change.bid), gid))

    def record_action(self, game_id: int, expected_version: int, action: str, detail: dict[str, Any]) -> None:
        """An entry in a game's audit trail that changes no hand (abandon)."""
        with self.write() as db:
            self._claim(db, game_id, expected_version)
            db.execute("INSERT INTO audit(game_id, at, action, hand_n, detail) VALUES(?, ?, ?, NULL, ?)",
                       (game_id, now(), action, dumps(detail)))

    def delete_game(self, game_id: int, expected_version: int, detail: dict[str, Any]) -> None:
        """Remove a game and its hands. Its audit trail, ending with the deletion, is kept under the
        negated id, so a later game that gets the same number starts with a trail of its own."""
        with self.write() as db:
            self._claim(db, game_id, expected_version)
            db.execute("INSERT INTO audit(game_id, at, action, hand_n, detail) VALUES(?, ?, 'delete', NULL, ?)",
                       (game_id, now(), dumps(detail)))
            db.execute("UPDATE audit SET game_id = ? WHERE game_id = ?", (-game_id, game_id))
            db.execute("DELETE FROM hands WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM pending_bids WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))
            db.execute("DELETE FROM meta WHERE key = 'current_game' AND value = ?", (str(game_id),))

    def deleted_audit(self, game_id: int) -> list[dict[str, Any]]:
        """The audit trail of a deleted game (empty when no game with that number was deleted)."""
        return self.audit(-game_id) if game_id > 0 else []

    def set_state(self, game_id: int, state: dict[str, Any], action: str, detail: dict[str, Any],
                  expected_version: int) -> None:
        """Replace the cached state (finish); refuses if the game changed since it was read."""
        with self.write() as db:
            self._claim(db, game_id, expected_version)
            db.execute("UPDATE games SET state = ?, finished = ? WHERE id = ?",
                       (dumps(state), int(state.get("finished", False)), game_id))
            db.execute("INSERT INTO audit(game_id, at, action, hand_n, detail) VALUES(?, ?, ?, NULL, ?)",
                       (game_id, now(), action, dumps(detail)))

    # ------------------------------------------------------------------ bids before the play
    def pending_bid(self, game_id: int) -> list[str] | None:
        """The assignments of the bid written down for the coming hand, if any."""
        row = self.db.execute("SELECT typed FROM pending_bids WHERE game_id = ?", (game_id,)).fetchone()
        return list(decoded(row[0], "bid", "array", where(game_id))) if row else None

    def set_pending_bid(self, game_id: int, expected_version: int, typed: list[str] | None) -> None:
        """Write down (or, with None, take back) the coming hand's bid; audited, one transaction."""
        with self.write() as db:
            self._claim(db, game_id, expected_version)
            old = db.execute("SELECT typed FROM pending_bids WHERE game_id = ?", (game_id,)).fetchone()
            db.execute("DELETE FROM pending_bids WHERE game_id = ?", (game_id,))
            if typed is not None:
                db.execute("INSERT INTO pending_bids(game_id, typed, created) VALUES(?, ?, ?)",
                           (game_id, dumps(typed), now()))
            detail = {"bid": typed} if typed is not None else {"removed_bid": json.loads(old[0]) if old else None}
            db.execute("INSERT INTO audit(game_id, at, action, hand_n, detail) VALUES(?, ?, ?, NULL, ?)",
                       (game_id, now(), "bid" if typed is not None else "undo bid", dumps(detail)))

    def undone_hand(self, game_id: int, n: int) -> HandRow | None:
        """The hand n most recently taken back by undo (what `redo` puts back)."""
        row = self.db.execute(
            "SELECT n, typed, hand, points, breakdown, events, state, created FROM hands"
            " WHERE game_id = ? AND status = 'undone' AND n = ? ORDER BY id DESC LIMIT 1", (game_id, n)).fetchone()
        if row is None:
            return None
        n, *texts, c = row
        return self._hand_row(game_id, n, texts, c)

    @staticmethod
    def _hand_row(game_id: int, n: int, texts: Sequence[Any], created: str) -> HandRow:
        """A stored hand, its columns decoded and of their shape (DamagedRow, naming it, when not)."""
        typed, hand, points, breakdown, events, state = hand_values(game_id, n, texts)
        return HandRow(n, typed, hand, points, breakdown, events, state, created)

    def lock_game(self, db: sqlite3.Connection, game_id: int) -> None:
        """Inside a write: hold the game until the commit. BEGIN IMMEDIATE already holds the whole file."""

    def written(self, db: sqlite3.Connection, key: str) -> tuple[int, int] | None:
        """Inside a write: (game id, hand number) of the hand written with this idempotency key, if any."""
        row = db.execute("SELECT game_id, hand_n FROM writes WHERE key = ?", (key,)).fetchone()
        return (int(row[0]), int(row[1])) if row else None

    def append_hand(self, db: sqlite3.Connection, game_id: int, row: HandRow, key: str | None) -> None:
        """Inside a write that holds the game (lock_game): append a hand, bump the version, keep the key."""
        self._insert_hand(db, game_id, row)
        db.execute("UPDATE games SET hands = ?, state = ?, finished = ?, version = version + 1 WHERE id = ?",
                   (row.n, dumps(row.state), int(row.state.get("finished", False)), game_id))
        db.execute("DELETE FROM pending_bids WHERE game_id = ?", (game_id,))  # the hand completes the bid
        if key is not None:
            db.execute("INSERT INTO writes(key, game_id, hand_n, at) VALUES(?, ?, ?, ?)", (key, game_id, row.n, now()))

    def audit(self, game_id: int) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT at, action, hand_n, detail FROM audit WHERE game_id = ? ORDER BY id",
                               (game_id,)).fetchall()
        return [{"at": a, "action": b, "hand": c, "detail": decoded(d, "detail", "object", where(abs(game_id), c))}
                for a, b, c, d in rows]

    # ------------------------------------------------------------------ many rows at once (import, db copy)
    def insert_rows(self, db: sqlite3.Connection, table: str, columns: Sequence[str],
                    rows: Iterable[Sequence[Any]]) -> None:
        """Inside a write: rows into one table in one statement (PostgreSQL copies them in with COPY)."""
        known_columns(table, columns)
        marks = ", ".join("?" for _ in columns)
        db.executemany(f"INSERT INTO {table}({', '.join(columns)}) VALUES({marks})", rows)

    def next_ids(self, db: sqlite3.Connection, table: str, n: int) -> list[int]:
        """Inside a write: the ids the next `n` rows of `table` get, for rows inserted with them before the
        next call (the write holds the file meanwhile). A game's number is never given twice: past the
        largest of the games and of the deleted games, whose trails keep their numbers (negated), so that
        `log --game N` of a deleted game never mixes with a later game's, nor its keys with its hands."""
        known_columns(table, ("id",))
        top = db.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}").fetchone()[0]
        if table == "games":
            deleted = db.execute("SELECT COALESCE(-MIN(game_id), 0) FROM audit WHERE game_id < 0").fetchone()[0]
            top = max(int(top), int(deleted))
        return list(range(int(top) + 1, int(top) + 1 + n))

    def backup(self, target: Path) -> None:
        """A consistent copy with SQLite's online backup API, while other commands may run."""
        try:
            dest = sqlite3.connect(target)
            try:
                with dest:
                    self.db.backup(dest)
            finally:
                dest.close()
        except sqlite3.Error as exc:
            raise UserError(_("cannot write the backup {target}: {exc}").format(target=target, exc=exc)) from None
