"""Declared shapes of documents, and the one check of a parsed document against its shape.

Every document scorepad reads from people declares its shape here: a ruleset file (rules/format.py,
also printed as JSON Schema by `scorepad rules schema`), an export and a one-game file
(app/transfer/schema.py, app/gamefile.py) and the config file (app/config.py). A shape says what a
value may be (its kind, range, pattern, a list's entries, a table's required, optional and unknown
keys) and `check` appends one `Said` sentence per problem, each starting with the path of the
offending value (`games[3].hand_rows[2].points: ...`), so a refusal names the place to look and is
shown in the reader's language. A leaf module: every floor may declare its documents with it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from scorepad.locale import N_, Said
from scorepad.names import name_problem

MAX_NUMBER = 2**53  # past it floats lose whole numbers
MAX_TEXT = 1 << 20
MAX_PROBLEMS = 20


def kind(value: Any) -> str:
    """What a value is, in words a person who wrote the file understands."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    words = {int: N_("a whole number"), float: N_("a number"), str: N_("text"), list: N_("a list"),
             dict: N_("a table")}.get(type(value))
    return Said(words) if words is not None else type(value).__name__


def join(path: str, key: str) -> str:
    """The path of a table's key: `a.b`, or `a["odd key"]` when the key is no plain word."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
        return f"{path}.{key}" if path else key
    return f"{path}[{short(key)}]"


def short(value: str) -> str:
    """A text quoted for a message, cut at 40 characters."""
    import json  # start-up: only a message quotes a text

    return json.dumps(value[:40] + ("..." if len(value) > 40 else ""), ensure_ascii=True)


def said_at(path: str, message: str) -> Said:
    """One problem: where it is, then what is wrong (`path` and `message` stay readable apart)."""
    return Said("{path}: {message}", path=path, message=message)


class Shape:
    """A declared shape of a value.

    `message`, when given, is the one sentence said for a value with any problem, its entries'
    included (a key's own words, like "must be a whole number 1..12" or "must be a list of text").
    `json` adds JSON Schema words (a description) to `schema()`. `nullable`: null is allowed."""

    __slots__ = ("json", "message", "nullable")

    def __init__(self, *, message: str | None = None, json: Mapping[str, Any] | None = None,
                 nullable: bool = False) -> None:
        self.message, self.json, self.nullable = message, json or {}, nullable

    def check(self, value: Any, path: str, out: list[str]) -> None:
        if value is None and self.nullable:
            return
        if self.message is None:
            self.check_value(value, path, out)
            return
        found: list[str] = []
        self.check_value(value, path, found)
        if found:
            out.append(said_at(path, self.message))

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        """Append the problems of a value (not null, or null not allowed)."""

    def said(self, out: list[str], path: str, msgid: str, **args: Any) -> None:
        out.append(said_at(path, Said(msgid, **args)))

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the shape."""
        return {**self.own_schema(), **self.json}

    def own_schema(self) -> dict[str, Any]:
        return {}


class Anything(Shape):
    """Any value (a reader checks it in its own words); `table` asks for a table."""

    __slots__ = ("table",)

    def __init__(self, *, table: bool = False, **kw: Any) -> None:
        super().__init__(**kw)
        self.table = table

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if self.table and not isinstance(value, dict):
            self.said(out, path, N_("must be a table, not {kind}"), kind=kind(value))


class Text(Shape):
    __slots__ = ("hint", "max_len", "name", "pattern")

    def __init__(self, *, max_len: int = MAX_TEXT, pattern: str | None = None, hint: str = "", name: bool = False,
                 **kw: Any) -> None:
        super().__init__(**kw)
        self.max_len, self.pattern = max_len, pattern
        self.hint = hint        # marked with N_(), translated where the sentence is shown
        self.name = name        # a name people give: the one check of names (scorepad.names)

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, str):
            self.said(out, path, N_("must be text, not {kind}"), kind=kind(value))
        elif len(value) > self.max_len:
            self.said(out, path, N_("longer than {n} characters"), n=self.max_len)
        elif self.pattern is not None and re.fullmatch(self.pattern, value) is None:
            hint = Said(self.hint) if self.hint else Said(N_("text of the form {pattern}"), pattern=self.pattern)
            self.said(out, path, N_("must be {hint}, not {value}"), hint=hint, value=short(value))
        elif self.name and (why := name_problem(value, self.max_len)) is not None:
            self.said(out, path, N_("the name {why}"), why=why)

    def own_schema(self) -> dict[str, Any]:
        return {"type": "string", "maxLength": self.max_len, **({"pattern": self.pattern} if self.pattern else {})}


class Choice(Shape):
    """One of a few words (or numbers)."""

    __slots__ = ("values",)

    def __init__(self, *, values: tuple[Any, ...] = (), **kw: Any) -> None:
        super().__init__(**kw)
        self.values = values

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, (str, int)) or isinstance(value, bool) or value not in self.values:
            shown = short(value) if isinstance(value, str) else kind(value)
            self.said(out, path, N_("must be one of {choices}, not {value}"),
                      choices=", ".join(map(str, self.values)), value=shown)

    def own_schema(self) -> dict[str, Any]:
        return {"enum": list(self.values)}


class Int(Shape):
    __slots__ = ("high", "low")

    def __init__(self, low: int = -MAX_NUMBER, high: int = MAX_NUMBER, **kw: Any) -> None:
        super().__init__(**kw)
        self.low, self.high = low, high

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            self.said(out, path, N_("must be a whole number, not {kind}"), kind=kind(value))
        elif not self.low <= value <= self.high:
            self.said(out, path, N_("must be between {low} and {high}, not {value}"), low=self.low, high=self.high,
                      value=value)

    def own_schema(self) -> dict[str, Any]:
        return {"type": "integer", "minimum": self.low, "maximum": self.high}


class Number(Shape):
    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            self.said(out, path, N_("must be a number, not {kind}"), kind=kind(value))

    def own_schema(self) -> dict[str, Any]:
        return {"type": "number"}


class Bool(Shape):
    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, bool):
            self.said(out, path, N_("must be true or false, not {kind}"), kind=kind(value))

    def own_schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


class Time(Shape):
    """A moment as scorepad writes it: ISO 8601, e.g. 2026-11-29T14:00:00+00:00."""

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, str):
            self.said(out, path, N_("must be a date and time as text, not {kind}"), kind=kind(value))
            return
        from datetime import datetime  # start-up: only a checked file holds times

        try:
            ok = len(value) <= 40 and value[:4].isdigit() and bool(datetime.fromisoformat(value))
        except ValueError:
            ok = False
        if not ok:
            self.said(out, path, N_("must be a date and time like 2026-11-29T14:00:00+00:00, not {value}"),
                      value=short(value))

    def own_schema(self) -> dict[str, Any]:
        return {"type": "string", "format": "date-time"}


class ListOf(Shape):
    __slots__ = ("item", "max_len", "min_len")

    def __init__(self, item: Shape, min_len: int = 0, max_len: int = 1_000_000, **kw: Any) -> None:
        super().__init__(**kw)
        self.item, self.min_len, self.max_len = item, min_len, max_len

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, list):
            self.said(out, path, N_("must be a list, not {kind}"), kind=kind(value))
            return
        if not self.min_len <= len(value) <= self.max_len:
            self.said(out, path, N_("must hold {low} to {high} entries, not {n}"), low=self.min_len,
                      high=self.max_len, n=len(value))
            return
        for i, item in enumerate(value):
            if len(out) >= MAX_PROBLEMS:
                return
            self.item.check(item, f"{path}[{i}]", out)

    def own_schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "array", "items": self.item.schema()}
        if self.min_len:
            out["minItems"] = self.min_len
        if self.max_len != 1_000_000:
            out["maxItems"] = self.max_len
        return out


class Items(Shape):
    """A list of a fixed length whose entries have their own shapes (a breakdown line)."""

    __slots__ = ("items",)

    def __init__(self, items: Sequence[Shape], **kw: Any) -> None:
        super().__init__(**kw)
        self.items = items

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, list):
            self.said(out, path, N_("must be a list of {n} entries, not {kind}"), n=len(self.items), kind=kind(value))
        elif len(value) != len(self.items):
            self.said(out, path, N_("must be a list of {n} entries, not a list of {got}"), n=len(self.items),
                      got=len(value))
        else:
            for i, (item, shape) in enumerate(zip(value, self.items, strict=True)):
                shape.check(item, f"{path}[{i}]", out)

    def own_schema(self) -> dict[str, Any]:
        return {"type": "array", "prefixItems": [s.schema() for s in self.items], "items": False}


class TableOf(Shape):
    """A table of names people choose, each value of one shape; `names`: a pattern the names follow."""

    __slots__ = ("names", "values")

    def __init__(self, values: Shape, names: str | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.values, self.names = values, names

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, dict):
            self.said(out, path, N_("must be a table, not {kind}"), kind=kind(value))
            return
        for key, item in value.items():
            self.values.check(item, join(path, str(key)), out)

    def own_schema(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": self.values.schema(),
                **({"propertyNames": {"pattern": self.names}} if self.names else {})}


class Record(Shape):
    """A table with declared keys: a missing required key and an unknown key are both problems.

    `unknown`, when given, is the sentence for an unknown key (default: one naming the keys)."""

    __slots__ = ("fields", "optional", "unknown_said")

    def __init__(self, fields: Mapping[str, Shape], optional: frozenset[str] = frozenset(), unknown: str | None = None,
                 **kw: Any) -> None:
        super().__init__(**kw)
        self.fields, self.optional = fields, optional
        self.unknown_said = unknown if unknown is not None else Said(N_("unknown key (expected {names})"),
                                                                       names=", ".join(fields))

    def check_value(self, value: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, dict):
            self.said(out, path, N_("must be a table, not {kind}"), kind=kind(value))
            return
        for key in value:
            if key not in self.fields:
                out.append(said_at(join(path, str(key)), self.unknown_said))
        for key, shape in self.fields.items():
            if key in value:
                shape.check(value[key], join(path, key), out)
            elif key not in self.optional:
                out.append(said_at(join(path, key), Said(N_("missing"))))

    def known(self, value: Mapping[str, Any], path: str, out: list[str]) -> dict[str, Any]:
        """Check the keys a table has, in its order (not the missing ones: a reader says what their
        default is); return the table without the keys that have problems, so a reader falls back to
        a key's default and reports nothing twice."""
        kept: dict[str, Any] = {}
        for key, item in value.items():
            where = join(path, str(key))
            shape = self.fields.get(key)
            if shape is None:
                out.append(said_at(where, self.unknown_said))
                continue
            before = len(out)
            shape.check(item, where, out)
            if len(out) == before:
                kept[key] = item
        return kept

    def own_schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "object"}
        if self.fields:
            out["properties"] = {name: shape.schema() for name, shape in self.fields.items()}
            required = [name for name in self.fields if name not in self.optional]
            if required:
                out["required"] = required
            out["additionalProperties"] = False
        return out
