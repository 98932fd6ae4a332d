"""A game of an export (or of a game file) checked as an import trusts nothing: its shape, its ruleset,
players, sides and options, and every hand typed again and scored, which must give what is stored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import partial
from typing import Any

from scorepad.app.bids import bid_problems, bidding_fields
from scorepad.app.breakdown import same_breakdown
from scorepad.app.events import same_events
from scorepad.app.games import hand_row, typed_again
from scorepad.app.shapes import MAX_DEPTH, NotFinite, _parse_float, _parse_int, checked, problems, scan
from scorepad.app.transfer.forked import forked_in_order
from scorepad.app.transfer.pieces import FileChanged
from scorepad.app.transfer.schema import AUDIT_DETAILS, EXPORT, GAME, same, same_as_stored, written_json
from scorepad.app.transfer.writing import Checked, Rows, rows_of
from scorepad.engine.assignments import split_assignments
from scorepad.engine.game import Game, Side, finish_game, initial_state, resolve_options
from scorepad.engine.scoring import apply_hand
from scorepad.errors import ScorepadError, UserError
from scorepad.locale import _, ngettext, shown
from scorepad.names import name_problem
from scorepad.rules.loader import load_text
from scorepad.shape import (
    MAX_NUMBER,
    MAX_PROBLEMS,
    MAX_TEXT,
    Anything,
    Bool,
    Choice,
    Int,
    Items,
    ListOf,
    Number,
    Record,
    Shape,
    Text,
)
from scorepad.store import text_hash
from scorepad.store.rowshape import first_dealer_problem
from scorepad.store.sqlite import gc_paused


def _as_stored(replayed: Any, stored: Any) -> tuple[bool, str]:
    """Whether a replayed value is the stored one (`same_as_stored`: an export's text has sorted keys),
    and the stored one's text to write."""
    text = written_json(stored)
    return same_as_stored(replayed, text, stored, sorted_text=True), text


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


RUN_CHARS = 256 * 1024  # the games a checking process is given at a time: about 100 hands


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


def _check_run(checker: Checker, run: tuple[int, list[str]]) -> list[Checked]:
    """In a checking process: a run of games checked, in order."""
    first, texts = run
    with gc_paused():
        return [checker.game_text(first + k, text) for k, text in enumerate(texts)]


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
    return lambda v: (type(v) is str and len(v) <= shape.max_len
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
    Choice: lambda shape: lambda v: type(v) in (str, int) and v in shape.values,
}


class Checker:
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

        yield from forked_in_order(partial(_check_run, self), _runs(texts), workers)

    def game_text(self, i: int, text: str) -> Checked:
        where = f"games[{i}]"
        try:
            g, plain = _read_game(text)
        except (ValueError, RecursionError):   # it parsed at the first reading
            raise FileChanged from None
        out = [] if plain else scan(g, where, [], 2)
        if not out and not _GAME_FITS(g):
            checked(GAME, g, where, out)
        if out:
            return None, out[:MAX_PROBLEMS], None
        said, rows = self.game(g, where)
        return g["uid"], said, rows

    def game(self, g: Mapping[str, Any], where: str) -> tuple[list[str], Rows | None]:
        """A game of the right shape against its ruleset, then replayed: its problems, or its rows."""
        rhash = g["ruleset_hash"]
        if rhash not in self.texts:
            return [_("{where}.ruleset_hash: no entry of rulesets has the hash {ruleset_hash}").format(
                        where=where, ruleset_hash=rhash)], None
        if self.loaded[rhash, None] is None:
            return [], None  # the ruleset itself cannot be loaded: said with the rulesets
        key = (rhash, g["variant"])
        if key not in self.loaded:

            k, text = self.texts[rhash]
            try:
                self.loaded[key] = load_text(text, f"rulesets[{k}].text", g["variant"], played=True)
            except ScorepadError as exc:
                self.loaded[key] = exc.message
        rs = self.loaded[key]
        if isinstance(rs, str):
            return [_("{where}.variant: {rs}").format(where=where, rs=rs)], None
        return _checked_game(g, where, rs)


_GAME_FITS = _fits(GAME)


def rulesets_checked(rulesets: list[dict[str, Any]], used: set[str]) -> tuple[list[str], Checker]:
    """The export's ruleset entries: each hash the hash of its text, each text a game names loadable
    and the ruleset its entry says. Returns the problems, and what the games are checked against."""

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
    return out, Checker(texts, loaded)


def check_export(data: Any) -> list[str]:
    """Every problem of a parsed export (up to a screenful), each starting with where it is."""
    out = problems(data, EXPORT)
    if out:
        return out
    out, checker = rulesets_checked(data["rulesets"], {g["ruleset_hash"] for g in data["games"]})
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


def _checked_game(g: Mapping[str, Any], where: str, rs: Any) -> tuple[list[str], Rows | None]:
    """The game's problems; with none, its rows as the store writes them."""

    out: list[str] = []
    if g["ruleset_id"] != rs.id:
        out.append(_("{where}.ruleset_id: {ruleset_id}, but its pinned ruleset is {id}").format(
                       where=where, ruleset_id=repr(g['ruleset_id']), id=repr(rs.id)))
    players = list(g["players"])
    out.extend(player_problems(rs, players, f"{where}.players"))
    out.extend(side_problems(rs, players, g["sides"], f"{where}.sides"))
    out.extend(option_problems(rs, g["options"], f"{where}.options", complete=True))
    first_dealer = g.get("first_dealer", 0)
    said = first_dealer_problem(first_dealer, len(players))   # the rule the store and `verify` apply
    if said is not None:
        out.append(_("{where}.first_dealer: {problem}").format(where=where, problem=said))
    for j, a in enumerate(g["audit"]):
        shape = AUDIT_DETAILS.get(a["action"])
        if shape is not None:
            checked(shape, a["detail"], f"{where}.audit[{j}].detail", out)
    if out:
        return out, None
    game = Game(rs, tuple(players), tuple(Side(s["name"], tuple(s["members"])) for s in g["sides"]), dict(g["options"]),
                first_dealer)
    texts: dict[int, tuple[str, ...]] = {}
    out = replay_problems(game, g, where, texts)
    if out:
        return out, None
    return [], rows_of(g, texts)


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
                return [ngettext("{where}[{k}].members[{m}]: seat {seat}, but there is {n} player (seats 0-{last})",
                                 "{where}[{k}].members[{m}]: seat {seat}, but there are {n} players (seats 0-{last})",
                                 n).format(where=where, k=k, m=m, seat=seat, n=n, last=n - 1)]
    if rs.sides_kind != "partnership":
        if [(s["name"], s["members"]) for s in sides] != [(p, [i]) for i, p in enumerate(players)]:
            return [_("{where}: in {name} each player is a side of his own, named after him, in seating order").format(
                        where=where, name=rs.name)]
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

    out = [(_("{where}.{key}: {name} has no such option (options: {options})").format(
                where=where, key=key, name=rs.name, options=", ".join(rs.options)) if rs.options else
            _("{where}.{key}: {name} has no such option (options: none)").format(where=where, key=key, name=rs.name))
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
            out.append(f"{where}: {shown(exc.message)}")
    return out


def replay_problems(game: Any, g: Mapping[str, Any], where: str,
                    texts: dict[int, tuple[str, ...]] | None = None) -> list[str]:
    """Re-type every active hand from what was typed, score it, and compare with what is stored; then
    the undone rows, the end of the game, the cached state and a bid waiting for the next hand.
    `texts` receives the stored JSON of each active hand row, by its index (-1: the game's state)."""

    active = sorted(((j, h) for j, h in enumerate(g["hand_rows"]) if h["status"] == "active"), key=lambda x: x[1]["n"])
    numbers = [h["n"] for _, h in active]
    if numbers != list(range(1, len(active) + 1)):
        return [_("{where}.hand_rows: the active hands are numbered {numbers}; they must be 1, 2, 3 ... once each")
                .format(where=where, numbers=numbers[:10])]
    if g["hands"] != len(active):
        return [ngettext("{where}.hands: {hands}, but the game has {n} active hand",
                         "{where}.hands: {hands}, but the game has {n} active hands", len(active)).format(
                    where=where, hands=g["hands"], n=len(active))]
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
            return [_("{where}.finished: the game cannot be finished: {message}").format(
                        where=where, message=shown(exc.message))]
    equal, text = _as_stored(state, g["state"])
    texts[-1] = (text,)
    if not equal:
        return [_("{where}.state: differs from a replay of its hands with the pinned ruleset").format(where=where)]
    if g["finished"] != bool(state["finished"]):
        said = (_("{where}.finished: {value}, but the replayed game has ended") if state["finished"] else
                _("{where}.finished: {value}, but the replayed game has not ended"))
        return [said.format(where=where, value=str(g["finished"]).lower())]
    if "pending_bid" in g:
        return pending_bid_problems(game, state, g["pending_bid"], f"{where}.pending_bid")
    return []


_HAND_KEYS = ("points", "breakdown", "events", "state")


def _replayed(game: Any, state: Any, h: Mapping[str, Any], at: str, texts: dict[int, tuple[str, ...]],
              j: int) -> Any:
    """The state after one stored hand typed again and scored; or the sentence why it is not what is
    stored. Each value is compared by its JSON (as `same`); the stored side's is kept in `texts`."""

    if state["finished"]:
        return _("{at}: the game had ended before hand {n}").format(at=at, n=h["n"])
    try:
        hand = typed_again(game, state, h["typed"])
    except ScorepadError as exc:
        return f"{at}.typed: {shown(exc.message)}"
    equal, stored_hand = _as_stored(hand, h["hand"])
    if not equal:
        return _("{at}.hand: not the values typed in {at}.typed").format(at=at)
    try:
        result = apply_hand(game, state, hand)
    except ScorepadError as exc:
        return _("{at}: the hand cannot be scored: {message}").format(at=at, message=shown(exc.message))
    row = hand_row(h["n"], h["typed"], hand, result, h["created"])
    stored = [written_json(h["typed"]), stored_hand]
    for key in _HAND_KEYS:
        equal, text = _as_stored(getattr(row, key), h[key])
        if not equal and key == "breakdown" and same_breakdown(game, result, h[key]):
            equal, text = True, written_json(row.breakdown)   # an older export's words: stored by id
        if not equal and key == "events" and same_events(result, h[key]):
            equal, text = True, written_json(row.events)   # an older export's words: stored by id
        if not equal:
            return _("{at}.{key}: differs from a replay of the hand with the pinned ruleset").format(at=at, key=key)
        stored.append(text)
    texts[j] = tuple(stored)
    return result.state


def retired_problems(game: Any, g: Mapping[str, Any], states: list[Any], where: str) -> list[str]:
    """Every undone row re-typed too: its `hand` must be what its `typed` says, so that what the log
    and the sheet show of it is what it holds. (`redo` types an undone hand again from its text; a
    row whose text no longer types in this game, as after a rename, can never come back. Replaced
    rows are history only: their text may name players since renamed.)"""

    for j, h in enumerate(g["hand_rows"]):
        if h["status"] != "undone":
            continue
        at = f"{where}.hand_rows[{j}]"
        state = states[max(0, min(h["n"] - 1, len(states) - 1))]
        try:
            hand = typed_again(game, state, h["typed"])
        except ScorepadError:
            continue
        if not same(hand, h["hand"]):
            return [_("{at}.hand: not the values typed in {at}.typed").format(at=at)]
    return []


def pending_bid_problems(game: Any, state: dict[str, Any], typed: list[str], where: str) -> list[str]:
    """A bid written down for the coming hand: only bidding fields, a whole bid that `scorepad bid` accepts."""

    if state["finished"]:
        return [_("{where}: the game has ended, so no bid can be waiting for its next hand").format(where=where)]
    if not bidding_fields(game.ruleset):
        return [_("{where}: {name} has no fields written down at bid time").format(where=where, name=game.ruleset.name)]
    try:
        found = bid_problems(game, state, split_assignments(game, typed, strict=True))
    except ScorepadError as exc:
        found = [exc.message]
    return [f"{where}: {shown(found[0])}"] if found else []
