"""The ruleset format declared once, as data: each section's keys, their kinds and what they mean.

In the spirit of pre-commit's cfgv: a `Map` of `Required` and `Optional` keys. From this one
declaration come the loader's checks of unknown keys and simple types (`validate`) and the JSON
Schema that editors use (`json_schema`, printed by `scorepad rules schema`). Checks that need more
than a key's kind (a formula compiles, a card exists, partnerships use each seat once) stay in the
section readers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from scorepad.locale import N_, Said
from scorepad.rules.expr import MAX_NUMBER

if TYPE_CHECKING:
    from scorepad.rules.problems import Problems

FORMAT_VERSION = 1
MAX_TEXT = 10000
NAME_PATTERN = r"^[a-z_][a-z0-9_]{0,40}$"
SCHEMA_ID = "urn:scorepad:ruleset:format-1"


# ------------------------------------------------------------------------------------ kinds

@dataclass(frozen=True)
class Kind:
    """What a value may be; `message` is the loader's sentence when it is not (None: a reader checks it)."""

    json: Mapping[str, Any]
    message: str | None = None

    def ok(self, value: Any) -> bool:
        return True

    def schema(self) -> dict[str, Any]:
        return dict(self.json)


class _Text(Kind):
    def ok(self, value: Any) -> bool:
        return isinstance(value, str)


class _Bool(Kind):
    def ok(self, value: Any) -> bool:
        return isinstance(value, bool)


class _TextList(Kind):
    def ok(self, value: Any) -> bool:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)


class _TextMap(Kind):
    def ok(self, value: Any) -> bool:
        return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())


class _Table(Kind):
    def ok(self, value: Any) -> bool:
        return isinstance(value, dict)


@dataclass(frozen=True)
class Int(Kind):
    """A whole number in low..high."""

    low: int = 0
    high: int = MAX_NUMBER

    def ok(self, value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high

    def schema(self) -> dict[str, Any]:
        return {"type": "integer", "minimum": self.low, "maximum": self.high}


@dataclass(frozen=True)
class Choice(Kind):
    """One of a few words."""

    values: tuple[Any, ...] = ()

    def ok(self, value: Any) -> bool:
        return isinstance(value, (str, int)) and not isinstance(value, bool) and value in self.values

    def schema(self) -> dict[str, Any]:
        return {"enum": list(self.values), **self.json}


def Text(description: str = "") -> Kind:
    return _Text({"type": "string", "maxLength": MAX_TEXT, **_described(description)}, Said(N_("must be text")))


def Bool(description: str = "") -> Kind:
    return _Bool({"type": "boolean", **_described(description)}, Said(N_("must be true or false")))


def TextList(description: str = "", items: Mapping[str, Any] | None = None) -> Kind:
    return _TextList({"type": "array", "items": dict(items or {"type": "string", "maxLength": MAX_TEXT}),
                      **_described(description)}, Said(N_("must be a list of text")))


def TextMap(description: str = "", message: str = Said(N_("must be a table of language = name"))) -> Kind:
    return _TextMap({"type": "object", "additionalProperties": {"type": "string", "maxLength": MAX_TEXT},
                     **_described(description)}, message)


NUMBER: dict[str, Any] = {"type": "number", "minimum": -MAX_NUMBER, "maximum": MAX_NUMBER}
FORMULA_JSON: dict[str, Any] = {"anyOf": [{"type": "string", "maxLength": 2000}, NUMBER, {"type": "boolean"}]}


def Formula(description: str = "") -> Kind:
    """A formula (text), or a plain number or true/false; the reader compiles it."""
    return Kind({**FORMULA_JSON, **_described(description)})


MAX_ITEMS = 2000
VALUE_JSON: dict[str, Any] = {"$ref": "#/$defs/value"}
VALUE_DEF: dict[str, Any] = {   # any value a ruleset may hold: bounded numbers, texts and lists
    "anyOf": [{"type": "string", "maxLength": MAX_TEXT}, NUMBER, {"type": "boolean"},
              {"type": "array", "maxItems": MAX_ITEMS, "items": VALUE_JSON},
              {"type": "object", "additionalProperties": VALUE_JSON}]}


def Value(description: str = "") -> Kind:
    """Any TOML value (a default, a table's entry); the reader checks it against its use."""
    return Kind({**VALUE_JSON, **_described(description)})


def Table(description: str = "", values: Mapping[str, Any] | None = None, message: str | None = None) -> Kind:
    """A table of arbitrary names; `values` is the JSON Schema of each entry."""
    json: dict[str, Any] = {"type": "object", **_described(description)}
    if values is not None:
        json["additionalProperties"] = dict(values)
    return _Table(json, message)


def _described(description: str) -> dict[str, Any]:
    return {"description": description} if description else {}


# ------------------------------------------------------------------------------------ keys and maps

@dataclass(frozen=True)
class Key:
    name: str
    kind: Kind
    required: bool = False


def Required(name: str, kind: Kind) -> Key:
    return Key(name, kind, True)


def Optional(name: str, kind: Kind) -> Key:
    return Key(name, kind, False)


@dataclass(frozen=True)
class Map:
    """A TOML table with declared keys; `entries` (if given) is the Map of each entry of a table of names."""

    name: str
    keys: tuple[Key, ...] = ()
    description: str = ""
    unknown: str = Said(N_("unknown key"))
    entries: Map | None = None
    entry_names: str | None = None      # a pattern the names of `entries` follow
    array: bool = False                 # [[name]]: a list of such tables
    extra: Mapping[str, Any] = field(default_factory=dict)   # more JSON Schema (e.g. on the whole map)

    @cached_property
    def by_name(self) -> dict[str, Key]:
        """The declared keys by name (read for every key of every table a ruleset has)."""
        return {k.name: k for k in self.keys}

    @property
    def allowed(self) -> set[str]:
        return set(self.by_name)

    def key(self, name: str) -> Key:
        return self.by_name[name]

    def json_schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "object", **_described(self.description)}
        if self.keys:
            out["properties"] = {k.name: _key_schema(k) for k in self.keys}
            required = [k.name for k in self.keys if k.required]
            if required:
                out["required"] = required
        if self.entries is not None:
            out["additionalProperties"] = self.entries.json_schema()
            if self.entry_names:
                out["propertyNames"] = {"pattern": self.entry_names}
        elif self.keys:
            out["additionalProperties"] = False
        out.update(self.extra)
        if self.array:
            return {"type": "array", "items": out, **_described(self.description)}
        return out


def _key_schema(key: Key) -> dict[str, Any]:
    return key.kind.schema() if not isinstance(key.kind, MapKind) else key.kind.map.json_schema()


@dataclass(frozen=True)
class MapKind(Kind):
    """A key whose value is itself a declared table (a nested section)."""

    map: Map = field(default_factory=lambda: Map(""))

    def ok(self, value: Any) -> bool:
        return isinstance(value, list) if self.map.array else isinstance(value, dict)


def Section(m: Map) -> Kind:
    return MapKind({}, None, m)


# ------------------------------------------------------------------------------------ validation

def validate(value: Mapping[str, Any], m: Map, where: str, p: Problems) -> dict[str, Any]:
    """Report unknown keys and values of the wrong kind (file order); return the table without them,
    so a reader falls back to the key's default and reports nothing twice."""
    out: dict[str, Any] = {}
    allowed = m.by_name
    for k, v in value.items():
        key = f"{where}.{k}" if where else str(k)
        if k not in allowed:
            p.add(key, Said(N_("{unknown} (known: {names})"), unknown=m.unknown, names=", ".join(sorted(allowed))))
            continue
        kind = allowed[k].kind
        if kind.message is not None and not kind.ok(v):
            p.add(key, kind.message)
            continue
        out[k] = v
    return out


def unknown_keys(value: Mapping[str, Any], m: Map, where: str, p: Problems) -> None:
    """Only the unknown keys (for tables whose values a reader checks in its own words)."""
    for k in value:
        if k not in m.allowed:
            p.add(f"{where}.{k}", Said(N_("{unknown} (known: {names})"), unknown=m.unknown,
                                       names=", ".join(sorted(m.allowed))))
