"""The export's documented format (docs/export.md) as shapes every imported value is checked against,
and the JSON a value is written and compared as.
"""

from __future__ import annotations

import json
import re
from typing import Any

from scorepad.locale import N_, Said
from scorepad.names import MAX_GAME_NAME, MAX_NAME, MAX_SIDE_NAME
from scorepad.shape import Anything, Bool, Choice, Int, Items, ListOf, Number, Record, Shape, Text, Time, said_at

FORMAT = "scorepad-export"


VERSION = 3
"""Version 3 stores a hand's event by its message's id ({"msgid"|"rule", "args"}); version 2 stores a
breakdown line by its id ({"id"|"rule", "points", "args", "to"}); version 1 wrote every line in words
([label, points, counters]), versions 1 and 2 every event in words. All are read: a line or an event
in words is stored by id when the replayed hand's line or event of those words is the same."""

READS = (1, 2, 3)


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


WORDS_LINE = Items([Text(max_len=1000), Number(), ListOf(Text(max_len=100))])


class NamedLine(Shape):
    """A breakdown line by id: exactly one of "id" (a [[score]]) and "rule" (a [[rule]]), its points,
    and, when they apply, "args" (the player of a per-player line) and "to" (its counters)."""

    record = Record({"id": Text(max_len=100), "rule": Text(max_len=100), "args": Record({"player": NAME}),
                     "points": Number(), "to": ListOf(Text(max_len=100))}, optional=frozenset({"id", "rule", "args", "to"}))

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        self.record.check(value, path, out)
        if isinstance(value, dict) and ("id" in value) == ("rule" in value):
            out.append(said_at(path, Said(N_("must have either an id or a rule"))))


class Line(Shape):
    """A breakdown line: in words (a list) or by id (a table)."""

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        (NamedLine() if isinstance(value, dict) else WORDS_LINE).check(value, path, out)


LINE = Line()


class Event(Shape):
    """A hand's event: in words (a text) or by id (a table): exactly one of "msgid" (the program's
    message) and "rule" (a [[rule]]'s), with its "args"."""

    record = Record({"msgid": Text(max_len=10_000), "rule": Text(max_len=100), "args": TABLE},
                    optional=frozenset({"msgid", "rule", "args"}))

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, dict):
            Text(max_len=10_000).check(value, path, out)
            return
        self.record.check(value, path, out)
        if ("msgid" in value) == ("rule" in value):
            out.append(said_at(path, Said(N_("must have either a msgid or a rule"))))


HAND_ROW = Record({
    "n": Int(1, 10**9), "status": Choice(values=STATUSES), "typed": TYPED, "hand": TABLE,
    "points": ListOf(Number()), "breakdown": ListOf(ListOf(LINE)), "events": ListOf(Event()),
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
    "hand_rows": ListOf(HAND_ROW), "audit": ListOf(AUDIT), "pending_bid": TYPED, "first_dealer": Int(0, 63)},
    frozenset({"pending_bid", "first_dealer"}))


EXPORT = Record({"format": Choice(values=(FORMAT,)), "version": Int(), "meta": Record({"current_season": NAME},
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
    "finish": _Open({"events": ListOf(Event())}, frozenset({"events"})),
    "redo": _Open({"restored": _Open({"n": Int(), "typed": TYPED})}, frozenset({"restored"})),
    "bid": _Open({"bid": TYPED}, frozenset({"bid"})),
}


def file_name(source: str) -> str:
    """The file name of a ruleset's source, without the folders (an export never carries paths)."""
    return re.split(r"[\\/]", source)[-1]


# What two values are compared by (as `same`): their JSON with sorted keys. What is written: a value's
# JSON with its keys in its own order (the store's `dumps`; NaN refused). Compact, each encoder made once.
canonical_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True, check_circular=False).encode


written_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False, check_circular=False).encode


_UNREAD = object()


def same_as_stored(replayed: Any, text: str, stored: Any = _UNREAD, sorted_text: bool = False) -> bool:
    """Whether a replayed value is the stored one, equal as JSON as `same` compares them, the stored one
    given by its text as written (`written_json`). One encoding mostly decides: a database column's text
    was written from an equal value in the same key order, an export's (`sorted_text`) with sorted keys;
    only when it does not are both sides encoded with sorted keys (`stored`: the value, else read from
    `text`). `import` and `verify` compare every replayed value by this one test."""
    try:
        if (canonical_json(replayed) if sorted_text else written_json(replayed)) == text:
            return True
        return canonical_json(replayed) == canonical_json(json.loads(text) if stored is _UNREAD else stored)
    except (ValueError, RecursionError, TypeError):  # NaN (never stored), not JSON, keys that do not sort
        return False


def same(a: Any, b: Any) -> bool:
    """Equal as JSON: True is not 1, 1.0 is not 1, and key order does not matter."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
