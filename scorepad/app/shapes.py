"""Reading strangers' data files safely: a JSON reader that refuses what the database cannot hold,
and declared shapes that a parsed document is checked against, with a path in every message.

The export format (docs/export.md) and the one-game TOML file are declared as values of the
classes below; `problems(document, shape)` returns one sentence per problem, each starting with
where it is (`games[3].hand_rows[2].points: ...`), so a refusal names the place to look.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from scorepad.locale import _, ngettext
from scorepad.names import MAX_NAME as MAX_NAME  # the limits and the one check of names: scorepad.names
from scorepad.names import name_problem as name_problem

MAX_NUMBER = 2**53  # every number a game holds is far below; past it floats lose whole numbers
MAX_DIGITS = 20  # longer integers are refused before Python converts them
MAX_DEPTH = 32  # the export nests 8 levels deep; a ruleset text is a string, not nesting
MAX_TEXT = 1 << 20  # one string (a ruleset text is at most 256 KiB)
MAX_PROBLEMS = 20


class BigNumber:
    """An integer with too many digits, kept as text by the JSON reader so the message can say where."""

    def __init__(self, text: str) -> None:
        self.text = text


class NotFinite:
    """NaN or an infinity in the JSON text (or a float that overflows to one)."""

    def __init__(self, text: str) -> None:
        self.text = text


def _parse_int(text: str) -> int | BigNumber:
    return BigNumber(text) if len(text.lstrip("-")) > MAX_DIGITS else int(text)


def _parse_float(text: str) -> float | NotFinite | BigNumber:
    if len(text) > 400:
        return BigNumber(text)
    value = float(text)
    return value if math.isfinite(value) else NotFinite(text)


def read_json(text: str) -> Any:
    """json.loads that keeps huge integers, NaN and infinities as markers for `problems` to report;
    raises ValueError (bad JSON) or RecursionError (nesting beyond the reader's stack)."""
    return json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=NotFinite)


def kind(value: Any) -> str:
    """What a value is, in words a person who wrote the file understands."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return _("a whole number")
    if isinstance(value, float):
        return _("a number")
    if isinstance(value, str):
        return _("text")
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, dict):
        return _("a table")
    return type(value).__name__


def scan(value: Any, path: str = "", out: list[str] | None = None, depth: int = 0) -> list[str]:
    """Problems any value can have wherever it is: nesting, huge or non-finite numbers, broken text."""
    out = [] if out is None else out
    if len(out) >= MAX_PROBLEMS:
        return out
    where = path or _("the file")
    if depth > MAX_DEPTH:
        out.append(_("{where}: nests deeper than {n} levels").format(where=where, n=MAX_DEPTH))
    elif isinstance(value, BigNumber):
        out.append(_("{where}: a number with {digits} digits; numbers here are below {limit}").format(
                       where=where, digits=len(value.text), limit=MAX_NUMBER))
    elif isinstance(value, NotFinite) or (isinstance(value, float) and not math.isfinite(value)):
        out.append(_("{where}: {value} is not a number (NaN and infinities are refused)").format(
                       where=where, value=getattr(value, "text", value)))
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
        out.append(_("{where}: {value} is too large; numbers here are below {limit}").format(
                       where=where, value=f"{value:.4g}", limit=MAX_NUMBER))
    elif isinstance(value, str):
        _text_problem(value, where, out)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            scan(item, f"{path}[{i}]", out, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            _text_problem(key, _("{where} (a key)").format(where=where), out)
            scan(item, _join(path, key), out, depth + 1)
    return out


def _text_problem(text: str, where: str, out: list[str]) -> None:
    if len(text) > MAX_TEXT:
        out.append(_("{where}: text longer than {n} KiB").format(where=where, n=MAX_TEXT // 1024))
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        out.append(_("{where}: not valid Unicode text (a lone surrogate)").format(where=where))


def _join(path: str, key: str) -> str:
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
        return f"{path}.{key}" if path else key
    return f"{path}[{_short(key)}]"


class Shape:
    """A declared shape of a value; `check` adds one sentence per problem to `out`."""

    nullable: bool = False

    def check(self, value: Any, path: str, out: list[str]) -> None:
        if value is None and self.nullable:
            return
        self.check_value(value, path, out)

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        raise NotImplementedError


@dataclass
class Text(Shape):
    max_len: int = MAX_TEXT
    pattern: str | None = None
    hint: str = ""           # marked with N_(), translated where the sentence is made
    name: bool = False
    choices: Sequence[str] = ()
    nullable: bool = False

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, str):
            out.append(_("{path}: must be text, not {kind}").format(path=path, kind=kind(value)))
        elif self.choices and value not in self.choices:
            out.append(_("{path}: must be one of {choices}, not {value}").format(
                           path=path, choices=", ".join(self.choices), value=_short(value)))
        elif len(value) > self.max_len:
            out.append(ngettext("{path}: longer than {n} character", "{path}: longer than {n} characters",
                                self.max_len).format(path=path, n=self.max_len))
        elif self.pattern is not None and re.fullmatch(self.pattern, value) is None:
            hint = _(self.hint) if self.hint else _("text of the form {pattern}").format(pattern=self.pattern)
            out.append(_("{path}: must be {hint}, not {value}").format(path=path, hint=hint, value=_short(value)))
        elif self.name and (why := name_problem(value, self.max_len)) is not None:
            out.append(_("{key}: the name {why}").format(key=path, why=why))


@dataclass
class Int(Shape):
    low: int = -MAX_NUMBER
    high: int = MAX_NUMBER
    nullable: bool = False

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            out.append(_("{path}: must be a whole number, not {kind}").format(path=path, kind=kind(value)))
        elif not self.low <= value <= self.high:
            out.append(_("{path}: must be between {low} and {high}, not {value}").format(
                           path=path, low=self.low, high=self.high, value=value))


@dataclass
class Number(Shape):
    nullable: bool = False

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            out.append(_("{path}: must be a number, not {kind}").format(path=path, kind=kind(value)))


@dataclass
class Bool(Shape):
    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, bool):
            out.append(_("{path}: must be true or false, not {kind}").format(path=path, kind=kind(value)))


@dataclass
class Time(Shape):
    """A moment as scorepad writes it: ISO 8601, e.g. 2026-11-29T14:00:00+00:00."""

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, str):
            out.append(_("{path}: must be a date and time as text, not {kind}").format(path=path, kind=kind(value)))
            return
        try:
            ok = len(value) <= 40 and value[:4].isdigit() and bool(datetime.fromisoformat(value))
        except ValueError:
            ok = False
        if not ok:
            out.append(_("{path}: must be a date and time like 2026-11-29T14:00:00+00:00, not {value}").format(
                           path=path, value=_short(value)))


@dataclass
class Anything(Shape):
    """Any value (the generic `scan` has already bounded it); `table` asks for a table."""

    table: bool = False

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if self.table and not isinstance(value, dict):
            out.append(_("{path}: must be a table, not {kind}").format(path=path, kind=kind(value)))


@dataclass
class ListOf(Shape):
    item: Shape
    min_len: int = 0
    max_len: int = 1_000_000

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, list):
            out.append(_("{path}: must be a list, not {kind}").format(path=path, kind=kind(value)))
            return
        if not self.min_len <= len(value) <= self.max_len:
            out.append(_("{path}: must hold {low} to {high} entries, not {n}").format(
                           path=path, low=self.min_len, high=self.max_len, n=len(value)))
            return
        for i, item in enumerate(value):
            if len(out) >= MAX_PROBLEMS:
                return
            self.item.check(item, f"{path}[{i}]", out)


@dataclass
class Items(Shape):
    """A list of a fixed length whose entries have their own shapes (a breakdown line)."""

    items: Sequence[Shape]

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, list) or len(value) != len(self.items):
            out.append((_("{path}: must be a list of {n} entries, not a list of {got}") if isinstance(value, list)
                        else _("{path}: must be a list of {n} entries, not {kind}")).format(
                           path=path, n=len(self.items), got=len(value) if isinstance(value, list) else 0,
                           kind=kind(value)))
            return
        for i, (item, shape) in enumerate(zip(value, self.items, strict=True)):
            shape.check(item, f"{path}[{i}]", out)


@dataclass
class Record(Shape):
    """A table with known keys: missing required keys and unknown keys are both problems."""

    fields: Mapping[str, Shape]
    optional: frozenset[str] = field(default_factory=frozenset)
    nullable: bool = False

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, dict):
            out.append(_("{path}: must be a table, not {kind}").format(path=path or _("the file"), kind=kind(value)))
            return
        for key in value:
            if key not in self.fields:
                out.append(_("{path}: unknown key (expected {keys})").format(path=_join(path, key),
                                                                            keys=", ".join(self.fields)))
        for key, shape in self.fields.items():
            if key in value:
                shape.check(value[key], _join(path, key), out)
            elif key not in self.optional:
                out.append(_("{path}: missing").format(path=_join(path, key)))


def problems(document: Any, shape: Shape) -> list[str]:
    """Every problem of a parsed document (up to MAX_PROBLEMS): the generic scan, then the shape."""
    out = scan(document)
    if not out:
        shape.check(document, "", out)
    return out[:MAX_PROBLEMS]


def _short(value: str) -> str:
    return json.dumps(value[:40] + ("..." if len(value) > 40 else ""), ensure_ascii=True)
