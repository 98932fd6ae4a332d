"""A checked game as the store's rows, written a batch at a time (on a server with COPY).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from scorepad.app.transfer.schema import file_name, written_json
from scorepad.errors import UserError
from scorepad.locale import _
from scorepad.store import Store, now

IMPORT_BATCH = 2000  # hands written together (each table's rows of a batch in one statement)


class Rows(NamedTuple):
    """A checked game as the store writes it: the games row (GAME_COLUMNS), its hands (HAND_COLUMNS),
    audit entries (AUDIT_COLUMNS) and the bid written down for its coming hand (JSON), if any."""

    uid: str
    ruleset_hash: str
    game: tuple[Any, ...]
    hands: list[tuple[Any, ...]]
    audit: list[tuple[Any, ...]]
    bid: str | None


GAME_COLUMNS = ("uid", "ruleset_id", "ruleset_hash", "variant", "name", "season", "players", "sides", "options",
                "created", "finished", "hands", "state", "first_dealer")


HAND_COLUMNS = ("n", "status", "typed", "hand", "points", "breakdown", "events", "state", "created")


AUDIT_COLUMNS = ("at", "action", "hand_n", "detail")


Checked = tuple[str | None, list[str], "Rows | None"]  # a game's uid, problems and rows


def rows_of(g: Mapping[str, Any], texts: Mapping[int, tuple[str, ...]] | None = None) -> Rows:
    """A game (export form) as the store's rows; `texts`: the JSON of its rows already made, by index
    of the hand row (-1: the game's state)."""
    try:
        return _rows(g, texts or {})
    except ValueError:
        raise UserError(_('a value is not a number (NaN or an infinity); nothing was stored')) from None


def _rows(g: Mapping[str, Any], texts: Mapping[int, tuple[str, ...]]) -> Rows:
    enc = written_json
    hands = []
    for j, h in enumerate(g["hand_rows"]):
        done = texts.get(j)
        if done is None:
            done = (enc(h["typed"]), enc(h["hand"]), enc(h["points"]), enc(h["breakdown"]), enc(h["events"]),
                    enc(h["state"]))
        hands.append((h["n"], h["status"], *done, h["created"]))
    state = texts[-1][0] if -1 in texts else enc(g["state"])
    game = (g["uid"], g["ruleset_id"], g["ruleset_hash"], g["variant"], g["name"], g["season"], enc(g["players"]),
            enc(g["sides"]), enc(g["options"]), g["created"], int(g["finished"]), g["hands"], state,
            int(g.get("first_dealer", 0)))
    audit = [(a["at"], a["action"], a["hand"], enc(a["detail"])) for a in g["audit"]]
    bid = enc(g["pending_bid"]) if "pending_bid" in g else None
    return Rows(g["uid"], g["ruleset_hash"], game, hands, audit, bid)


class Writer:
    """Checked games written a batch at a time: each table's rows of a batch in one statement (on a
    server, one COPY), the games' ids taken first; each ruleset text pinned once."""

    def __init__(self, store: Store, db: Any, pins: Mapping[str, Mapping[str, Any]]) -> None:
        """`db`: the transaction to write in; None: a transaction of its own for each batch."""
        self.store, self.db, self.pins = store, db, pins
        self.pinned: set[str] = set()
        self.pending: list[Rows] = []
        self.hands = 0

    def add(self, rows: Rows) -> None:
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

    def _write(self, db: Any, pending: list[Rows]) -> None:
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
        writer = Writer(store, db, pins)
        for g in games:
            if g["uid"] in existing:
                skipped += 1
                continue
            existing.add(g["uid"])
            writer.add(rows_of(g))
            added += 1
        writer.flush()
        if "current_season" in meta:
            db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES('current_season', ?)", (meta["current_season"],))
        if check is not None:
            check()
    return added, skipped


def audit_entry(action: str, hand: int | None, detail: dict[str, Any]) -> dict[str, Any]:
    return {"at": now(), "action": action, "hand": hand, "detail": detail}
