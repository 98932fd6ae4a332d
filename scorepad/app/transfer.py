"""Export the whole database as documented JSON, and import it back without duplicates.

The format is described in docs/export.md. Games are identified by their `uid`, so importing the
same file twice, or a file from another table's database, never duplicates a game. Local game
numbers are not exported: export → import into a fresh database → export gives the same bytes.

An export may come from a stranger, so importing trusts nothing in it: the whole file is checked
against the declared shape below (types, lengths, ranges, with a path in every message), each
pinned ruleset text must have the hash it is filed under, players, sides and options must fit the
ruleset, and every game is replayed — each active hand re-typed from what was typed and scored by
the engine — and must give exactly the stored hands and state. Only then is anything written, in
one transaction; a refusal stores nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from scorepad.app.shapes import (
    MAX_NAME,
    MAX_PROBLEMS,
    Anything,
    Bool,
    Int,
    Items,
    ListOf,
    Number,
    Record,
    Shape,
    Text,
    Time,
    kind,
    name_problem,
    problems,
    read_json,
)
from scorepad.errors import ScorepadError, StoreError, UserError
from scorepad.locale import N_, _
from scorepad.names import MAX_GAME_NAME, MAX_SIDE_NAME
from scorepad.store import Store, dumps, now, text_hash

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

def file_name(source: str) -> str:
    """The file name of a ruleset's source, without the folders (an export never carries paths)."""
    return re.split(r"[\\/]", source)[-1]


def _game_rows(store: Store) -> Iterator[tuple[Any, ...]]:
    return iter(store.db.execute(
        "SELECT id, uid, ruleset_id, ruleset_hash, variant, name, season, players, sides, options,"
        " created, finished, hands, state FROM games ORDER BY created, id").fetchall())


def _export_game(store: Store, row: tuple[Any, ...]) -> dict[str, Any]:
    """One game of the export, with its hands and audit trail (read for this game only)."""
    db = store.db
    (gid, uid, rid, rhash, variant, name, season, players, sides, options, created, finished, hands, state) = row
    hand_rows = db.execute("SELECT n, status, typed, hand, points, breakdown, events, state, created FROM hands"
                           " WHERE game_id = ? ORDER BY id", (gid,)).fetchall()
    audit = db.execute("SELECT at, action, hand_n, detail FROM audit WHERE game_id = ? ORDER BY id",
                       (gid,)).fetchall()
    bid = store.pending_bid(gid)
    return {**({"pending_bid": bid} if bid is not None else {}),
        "uid": uid, "ruleset_id": rid, "ruleset_hash": rhash, "variant": variant, "name": name,
        "season": season, "players": json.loads(players), "sides": json.loads(sides),
        "options": json.loads(options), "created": created, "finished": bool(finished), "hands": hands,
        "state": json.loads(state),
        "hand_rows": [{"n": n, "status": st, "typed": json.loads(t), "hand": json.loads(h),
                       "points": json.loads(p), "breakdown": json.loads(b), "events": json.loads(e),
                       "state": json.loads(s), "created": c}
                      for n, st, t, h, p, b, e, s, c in hand_rows],
        "audit": [{"at": a, "action": act, "hand": hn, "detail": json.loads(d)} for a, act, hn, d in audit],
    }


def _export_head(store: Store) -> dict[str, Any]:
    """Everything of the export but its games."""
    db = store.db
    rulesets = [{"hash": h, "ruleset_id": r, "source": file_name(s), "text": t}
                for h, r, s, t in db.execute("SELECT hash, ruleset_id, source, text FROM rulesets ORDER BY hash")]
    meta = {k: v for k, v in db.execute("SELECT key, value FROM meta WHERE key = 'current_season'")}
    return {"format": FORMAT, "version": VERSION, "meta": meta, "rulesets": rulesets}


def export_data(store: Store) -> dict[str, Any]:
    """The whole database as one value (the export's content; `export_chunks` writes it game by game)."""
    return {**_export_head(store), "games": [_export_game(store, row) for row in _game_rows(store)]}


def _dumps(value: Any, depth: int) -> str:
    """`value` as it appears `depth` levels deep in the indented export (JSON text has no raw newline
    inside a string, so indenting each line is indenting the value)."""
    try:
        text = json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True, allow_nan=False)
    except ValueError:
        raise StoreError(_("the database holds a value that is not a number (NaN or an infinity); "
                           "`scorepad verify` shows which game")) from None
    return text.replace("\n", "\n" + " " * depth)


def export_chunks(store: Store) -> Iterator[str]:
    """The export text piece by piece, one game at a time: the same text as `json.dumps` of
    `export_data` (indent 1, sorted keys), without the whole database in memory at once."""
    head = {**_export_head(store), "games": None}
    yield "{"
    for i, key in enumerate(sorted(head)):
        yield ("," if i else "") + "\n " + json.dumps(key, ensure_ascii=False) + ": "
        if key != "games":
            yield _dumps(head[key], 1)
            continue
        rows = _game_rows(store)
        first = next(rows, None)
        if first is None:
            yield "[]"
            continue
        yield "[\n  " + _dumps(_export_game(store, first), 2)
        for row in rows:
            yield ",\n  " + _dumps(_export_game(store, row), 2)
        yield "\n ]"
    yield "\n}\n"


def export_text(store: Store) -> str:
    return "".join(export_chunks(store))


def backup(store: Store, target: Path) -> None:
    """A consistent copy of the database: an SQLite file copied by SQLite's online backup; a server's
    database written as an export file from one snapshot (read back by `import` or `db copy`)."""
    snapshot = getattr(store, "snapshot", None)
    if snapshot is None:
        store.backup(target)
        return
    from scorepad.text.output import write_atomic

    with snapshot():
        text = export_text(store)
    write_atomic(Path(target), text)


# ------------------------------------------------------------------ import

def read_document(path: Path, what: str) -> str:
    """The text of a file to import: UTF-8, of a sane size; a sentence (exit 2) otherwise."""
    try:
        size = Path(path).stat().st_size
        if size > MAX_FILE_BYTES:
            raise UserError(_("{path}: the file is larger than {value} MiB; not {what}").format(
                                path=path, value=MAX_FILE_BYTES >> 20, what=what))
        return Path(path).read_bytes().decode("utf-8")
    except OSError as exc:
        raise UserError(_("{path}: cannot read the file ({strerror})").format(path=path, strerror=exc.strerror)) from None
    except UnicodeDecodeError:
        raise UserError(_("{path}: not {what} (the file is not UTF-8 text)").format(path=path, what=what)) from None


def refuse(path: Path, found: list[str]) -> UserError:
    """One error for every problem found: the first in the message, all of them listed."""
    if len(found) == 1:
        return UserError(_("{path}: {value}; nothing was imported").format(path=path, value=found[0]))
    return UserError(_("{path}: {value} (and {value2} more); nothing was imported").format(
                         path=path, value=found[0], value2=len(found) - 1), found)


def import_file(store: Store, path: Path) -> tuple[int, int]:
    """Read an export into this database; returns (games added, games already present)."""
    text = read_document(path, "a scorepad export")
    try:
        data = read_json(text)
    except RecursionError:
        raise UserError(_("{path}: not a scorepad export (the JSON nests too deeply)").format(path=path)) from None
    except ValueError as exc:
        raise UserError(_("{path}: not a scorepad export ({exc})").format(path=path, exc=exc)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UserError(_("{path}: not a scorepad export (no \"format\": \"{FORMAT}\")").format(path=path, FORMAT=FORMAT))
    if data.get("version") != VERSION:
        version = data.get("version")
        shown = version if isinstance(version, int) and not isinstance(version, bool) else kind(version)
        raise UserError(_("{path}: export version {shown}; this scorepad reads {VERSION}").format(
                            path=path, shown=shown, VERSION=VERSION))
    found = check_export(data)
    if found:
        raise refuse(path, found)
    pins = {r["hash"]: r for r in data["rulesets"]}
    return insert_games(store, data["games"], pins, data["meta"])


def check_export(data: Any) -> list[str]:
    """Every problem of a parsed export (up to a screenful), each starting with where it is."""
    from scorepad.rules.loader import load_text

    out = problems(data, EXPORT)
    if out:
        return out
    texts: dict[str, tuple[int, str]] = {}
    loaded: dict[tuple[str, str | None], Any] = {}  # (hash, variant) -> Ruleset, or why it cannot load
    used = {g["ruleset_hash"] for g in data["games"]}
    for k, r in enumerate(data["rulesets"]):
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
    seen: dict[str, int] = {}
    for i, g in enumerate(data["games"]):
        if len(out) >= MAX_PROBLEMS:
            break
        where = f"games[{i}]"
        if g["uid"] in seen:
            out.append(_("{where}.uid: the same uid as games[{value}]").format(where=where, value=seen[g['uid']]))
            continue
        seen[g["uid"]] = i
        if g["ruleset_hash"] not in texts:
            out.append(_("{where}.ruleset_hash: no entry of rulesets has the hash {ruleset_hash}").format(
                           where=where, ruleset_hash=g['ruleset_hash']))
            continue
        k, text = texts[g["ruleset_hash"]]
        if loaded[g["ruleset_hash"], None] is None:
            continue  # the ruleset itself cannot be loaded: said above
        key = (g["ruleset_hash"], g["variant"])
        if key not in loaded:
            try:
                loaded[key] = load_text(text, f"rulesets[{k}].text", g["variant"], played=True)
            except ScorepadError as exc:
                loaded[key] = exc.message
        rs = loaded[key]
        if isinstance(rs, str):
            out.append(_("{where}.variant: {rs}").format(where=where, rs=rs))
            continue
        out.extend(check_game(g, where, rs))
    return out[:MAX_PROBLEMS]


def check_game(g: Mapping[str, Any], where: str, rs: Any) -> list[str]:
    """A game of the export against its ruleset, then replayed: every problem, with its path."""
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
        return out
    game = Game(rs, tuple(players), tuple(Side(s["name"], tuple(s["members"])) for s in g["sides"]), dict(g["options"]))
    return replay_problems(game, g, where)


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


def replay_problems(game: Any, g: Mapping[str, Any], where: str) -> list[str]:
    """Re-type every active hand from what was typed, score it, and compare with what is stored; then
    the undone rows, the end of the game, the cached state and a bid waiting for the next hand."""
    from scorepad.engine.game import finish_game, initial_state

    active = sorted(((j, h) for j, h in enumerate(g["hand_rows"]) if h["status"] == "active"), key=lambda x: x[1]["n"])
    numbers = [h["n"] for _, h in active]
    if numbers != list(range(1, len(active) + 1)):
        return [f"{where}.hand_rows: the active hands are numbered {numbers[:10]}; they must be 1, 2, 3 ... once each"]
    if g["hands"] != len(active):
        return [f"{where}.hands: {g['hands']}, but the game has {len(active)} active hands"]
    states = [initial_state(game)]   # before hand 1, after hand 1, ...: what a retired row was typed against
    for j, h in active:
        after = _replayed(game, states[-1], h, f"{where}.hand_rows[{j}]")
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
    if not same(state, g["state"]):
        return [f"{where}.state: differs from a replay of its hands with the pinned ruleset"]
    if g["finished"] != bool(state["finished"]):
        return [(f"{where}.finished: {str(g['finished']).lower()}, but the replayed game "
                f"{'has' if state['finished'] else 'has not'} ended")]
    if "pending_bid" in g:
        return pending_bid_problems(game, state, g["pending_bid"], f"{where}.pending_bid")
    return []


def _replayed(game: Any, state: Any, h: Mapping[str, Any], at: str) -> Any:
    """The state after one stored hand typed again and scored; or the sentence why it is not what is stored."""
    from scorepad.app.games import hand_row
    from scorepad.engine.assignments import copies_problems, split_assignments, type_hand
    from scorepad.engine.game import active_players, apply_hand

    if state["finished"]:
        return f"{at}: the game had ended before hand {h['n']}"
    try:
        hand, _missing = type_hand(game, split_assignments(game, h["typed"]), active_players(game, state))
    except ScorepadError as exc:
        return f"{at}.typed: {exc.message}"
    if not same(hand, h["hand"]):
        return f"{at}.hand: not the values typed in {at}.typed"
    copies = copies_problems(game, hand)
    if copies:
        return f"{at}.typed: {copies[0]}"
    try:
        result = apply_hand(game, state, hand)
    except ScorepadError as exc:
        return f"{at}: the hand cannot be scored: {exc.message}"
    row = hand_row(h["n"], h["typed"], hand, result)
    for key in ("points", "breakdown", "events", "state"):
        if not same(getattr(row, key), h[key]):
            return f"{at}.{key}: differs from a replay of the hand with the pinned ruleset"
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


def insert_games(store: Store, games: Iterable[Mapping[str, Any]], pins: Mapping[str, Mapping[str, Any]],
                 meta: Mapping[str, Any]) -> tuple[int, int]:
    """Write checked games (export form) in one transaction; a game whose uid is present is skipped."""
    added = skipped = 0
    with store.write() as db:
        existing = {uid for (uid,) in db.execute("SELECT uid FROM games")}
        for g in games:
            if g["uid"] in existing:
                skipped += 1
                continue
            existing.add(g["uid"])
            r = pins[g["ruleset_hash"]]
            store.pin_ruleset(db, r["ruleset_id"], r["text"], file_name(r["source"]))
            cur = db.execute(
                "INSERT INTO games(uid, ruleset_id, ruleset_hash, variant, name, season, players, sides, options,"
                " created, finished, hands, state) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (g["uid"], g["ruleset_id"], g["ruleset_hash"], g["variant"], g["name"], g["season"],
                 dumps(g["players"]), dumps(g["sides"]), dumps(g["options"]), g["created"],
                 int(g["finished"]), g["hands"], dumps(g["state"])))
            gid = cur.lastrowid
            db.executemany(
                "INSERT INTO hands(game_id, n, status, typed, hand, points, breakdown, events, state, created)"
                " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(gid, h["n"], h["status"], dumps(h["typed"]), dumps(h["hand"]), dumps(h["points"]),
                  dumps(h["breakdown"]), dumps(h["events"]), dumps(h["state"]), h["created"]) for h in g["hand_rows"]])
            db.executemany("INSERT INTO audit(game_id, at, action, hand_n, detail) VALUES(?, ?, ?, ?, ?)",
                           [(gid, a["at"], a["action"], a["hand"], dumps(a["detail"])) for a in g["audit"]])
            if "pending_bid" in g:
                db.execute("INSERT INTO pending_bids(game_id, typed, created) VALUES(?, ?, ?)",
                           (gid, dumps(g["pending_bid"]), now()))
            added += 1
        if "current_season" in meta:
            db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES('current_season', ?)", (meta["current_season"],))
    return added, skipped


def audit_entry(action: str, hand: int | None, detail: dict[str, Any]) -> dict[str, Any]:
    return {"at": now(), "action": action, "hand": hand, "detail": detail}
