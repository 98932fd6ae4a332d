"""The shape of a stored row, in one place: what each JSON column holds, the seat a game's first
hand is dealt from, and a row's columns read back with what is wrong said by game and hand.

A row can be written outside scorepad (a club scorer may INSERT; an SQLite file can be edited), so
the schema refuses a JSON column of another kind (migration 7 builds its CHECKs and triggers from
`JSON_COLUMNS`), and every reader that meets a row written before that says which row it is,
instead of failing on it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from scorepad.errors import StoreError
from scorepad.locale import _, ngettext

# the kind of JSON value each column holds (json_type's / json_typeof's word for it)
JSON_COLUMNS: dict[str, tuple[tuple[str, str], ...]] = {
    "games": (("players", "array"), ("sides", "array"), ("options", "object"), ("state", "object")),
    "hands": (("typed", "array"), ("hand", "object"), ("points", "array"), ("breakdown", "array"),
              ("events", "array"), ("state", "object")),
    "audit": (("detail", "object"),),
    "pending_bids": (("typed", "array"),),
}
_PYTHON_KIND = {"array": list, "object": dict}


class DamagedRow(StoreError):
    """A stored row that scorepad did not write as it is (exit 1): the game and hand it belongs to,
    and what is wrong with it, so the club's owner can find it (`problems`: that alone, for `verify`)."""


def first_dealer_problem(seat: object, players: int) -> str | None:
    """The rule of a game's first dealer: one of its seats, 0 to players - 1. Why `seat` breaks it, or None."""
    if type(seat) is int and 0 <= seat < players:
        return None
    return ngettext("seat {seat}, but there is {n} player (seats 0-{last})",
                    "seat {seat}, but there are {n} players (seats 0-{last})",
                    players).format(seat=seat, n=players, last=players - 1)


def game_problem(players: Any, sides: Any, options: Any, first_dealer: object) -> str | None:
    """Why a game's decoded players, sides, options and first dealer are not of the shape scorepad
    writes (names, sides of those seats, a table of options, a seat); None when they are."""
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        return _("its players are not a list of names")
    seats = range(len(players))
    if not isinstance(sides, list) or not sides or not all(
            isinstance(s, dict) and isinstance(s.get("name"), str) and isinstance(s.get("members"), list)
            and s["members"] and all(type(m) is int and m in seats for m in s["members"]) for s in sides):
        return _("its sides are not named sides of its players' seats")
    if not isinstance(options, dict):
        return _("its options are not a table")
    said = first_dealer_problem(first_dealer, len(players))
    return None if said is None else _("its first dealer: {problem}").format(problem=said)


def where(game_id: int, hand: int | None = None) -> str:
    """The row a problem is in, as the player reads it: `game 3` or `game 3, hand 2`."""
    if hand is None:
        return _("game {id}").format(id=game_id)
    return _("game {id}, hand {n}").format(id=game_id, n=hand)


def damaged(place: str, what: str) -> DamagedRow:
    """The error a reader gives for a row it cannot use: which row, what is wrong, what to do."""
    return DamagedRow(_("{where}: {problem}; the row was not written by scorepad (`scorepad verify` lists every "
                        "such row, to be repaired or deleted in the database)").format(where=place, problem=what),
                      [_("{where}: {problem}").format(where=place, problem=what)])


def _read(text: Any, name: str, kind: str) -> tuple[Any, str | None]:
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return None, _("its {column} column is not JSON").format(column=name)
    if not isinstance(value, _PYTHON_KIND[kind]):
        return None, _("its {column} column is not a JSON {kind}").format(column=name, kind=kind)
    return value, None


def column_problem(text: Any, name: str, kind: str) -> str | None:
    """Why a stored JSON column's text is not a JSON value of its kind; None when it is."""
    return _read(text, name, kind)[1]


def decoded(text: Any, name: str, kind: str, place: str) -> Any:
    """A stored JSON column's value, of its kind; DamagedRow naming `place` when it is not."""
    value, problem = _read(text, name, kind)
    if problem is not None:
        raise damaged(place, problem)
    return value


def hand_values(game_id: int, n: int, texts: Sequence[Any]) -> list[Any]:
    """A stored hand's typed, hand, points, breakdown, events and state, decoded and of the shape
    scoring writes (a list of texts, a table, a number per side, ...); DamagedRow naming the hand."""
    values = [decoded(text, name, kind, where(game_id, n)) for text, (name, kind) in zip(
        texts, JSON_COLUMNS["hands"], strict=True)]
    typed, _hand, points, _breakdown, events, state = values
    if not all(isinstance(t, str) for t in typed) or not all(event_ok(e) for e in events):
        raise damaged(where(game_id, n), _("its typed text or events are not lists of texts"))
    if not all(type(p) in (int, float) for p in points):
        raise damaged(where(game_id, n), _("its points are not numbers"))
    problem = state_problem(state, len(points), n)
    if problem is not None:
        raise damaged(where(game_id, n), _("the totals stored with it are damaged ({value})").format(value=problem))
    return values


def event_ok(event: Any) -> bool:
    """Whether a stored event is of a shape scorepad writes: words, or a table naming its message (a
    program message's "msgid" or a [[rule]]'s "rule") with its "args" (scorepad.app.events)."""
    if isinstance(event, str):
        return True
    return (isinstance(event, dict) and isinstance(event.get("args", {}), dict)
            and (isinstance(event.get("msgid"), str) or isinstance(event.get("rule"), str)))


def state_problem(state: Any, sides: int, hands: int) -> str | None:
    """Why a cached game state has not the shape recording a hand writes; None when it has. (The
    cache can be altered outside scorepad; what reads it must not fall over a missing key.)"""
    if not isinstance(state, dict):
        return "it is not a table"
    if not isinstance(state.get("sides"), list) or len(state["sides"]) != sides:
        return f"it has not one entry for each of the {sides} sides"
    for side in state["sides"]:
        if (not isinstance(side, dict) or not isinstance(side.get("status"), str)
                or not isinstance(side.get("score"), int | float) or isinstance(side.get("score"), bool)):
            return "a side has no score or status"
    if not isinstance(state.get("game"), dict) or not isinstance(state.get("finished"), bool):
        return "it has no game counters or no finished flag"
    if state.get("hands") != hands:
        return f"it counts {state.get('hands')!r} hands, the game has {hands}"
    return None
