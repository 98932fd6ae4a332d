"""The words the ruleset format is declared in (rules/format.py): its kinds of keys, each with the
JSON Schema that editors use (`scorepad rules schema`) and the loader's sentence when a value is not
of its kind, made of the one shape model (scorepad.shape).

Checks that need more than a key's kind (a formula compiles, a card exists, partnerships use each
seat once) stay in the section readers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from scorepad import shape
from scorepad.locale import N_, Said
from scorepad.rules.expr import MAX_NUMBER
from scorepad.shape import Anything, ListOf, Record, Shape, TableOf, join

if TYPE_CHECKING:
    from scorepad.rules.problems import Problems

FORMAT_VERSION = 1
MAX_TEXT = 10000
NAME_PATTERN = r"^[a-z_][a-z0-9_]{0,40}$"
SCHEMA_ID = "urn:scorepad:ruleset:format-1"

NUMBER: dict[str, Any] = {"type": "number", "minimum": -MAX_NUMBER, "maximum": MAX_NUMBER}
FORMULA_JSON: dict[str, Any] = {"anyOf": [{"type": "string", "maxLength": 2000}, NUMBER, {"type": "boolean"}]}
MAX_ITEMS = 2000
VALUE_JSON: dict[str, Any] = {"$ref": "#/$defs/value"}
VALUE_DEF: dict[str, Any] = {   # any value a ruleset may hold: bounded numbers, texts and lists
    "anyOf": [{"type": "string", "maxLength": MAX_TEXT}, NUMBER, {"type": "boolean"},
              {"type": "array", "maxItems": MAX_ITEMS, "items": VALUE_JSON},
              {"type": "object", "additionalProperties": VALUE_JSON}]}


def _described(description: str) -> dict[str, Any]:
    return {"description": description} if description else {}


def Text(description: str = "") -> Shape:
    return shape.Text(max_len=MAX_TEXT, message=Said(N_("must be text")), json=_described(description))


def Bool(description: str = "") -> Shape:
    return shape.Bool(message=Said(N_("must be true or false")), json=_described(description))


def TextList(description: str = "", items: Mapping[str, Any] | None = None) -> Shape:
    """A list of texts (`items`: the JSON Schema of each, checked by the reader)."""
    item = Anything(json=items) if items is not None else shape.Text(max_len=MAX_TEXT)
    return ListOf(item, message=Said(N_("must be a list of text")), json=_described(description))


def TextMap(description: str = "", message: str = Said(N_("must be a table of language = name"))) -> Shape:
    return TableOf(shape.Text(max_len=MAX_TEXT), message=message, json=_described(description))


def Formula(description: str = "") -> Shape:
    """A formula (text), or a plain number or true/false; the reader compiles it."""
    return Anything(json={**FORMULA_JSON, **_described(description)})


def Value(description: str = "") -> Shape:
    """Any TOML value (a default, a table's entry); the reader checks it against its use."""
    return Anything(json={**VALUE_JSON, **_described(description)})


def Table(description: str = "", values: Mapping[str, Any] | None = None, message: str | None = None) -> Shape:
    """A table of arbitrary names (`values`: the JSON Schema of each entry, checked by the reader);
    without a `message` the reader checks that it is a table."""
    json: dict[str, Any] = {"type": "object", **_described(description)}
    if values is not None:
        json["additionalProperties"] = dict(values)
    return Anything(table=message is not None, message=message, json=json)


Key = tuple[str, Shape, bool]


def Required(name: str, kind: Shape) -> Key:
    return name, kind, True


def Optional(name: str, kind: Shape) -> Key:
    return name, kind, False


def Map(keys: tuple[Key, ...], description: str = "", unknown: str = Said(N_("unknown key")),
        extra: Mapping[str, Any] | None = None, known: bool = True) -> Record:
    """A TOML table with declared keys; an unknown key is reported as `unknown`, followed by the known
    keys unless `known` is False (a variant may hold any section: the list would be long)."""
    names = ", ".join(sorted(name for name, _, _ in keys))
    return Record({name: kind for name, kind, _ in keys}, frozenset(name for name, _, req in keys if not req),
                    Said(N_("{unknown} (known: {names})"), unknown=unknown, names=names) if known else unknown,
                    json={**(extra or {}), **_described(description)})


def Tables(m: Record) -> Shape:
    """[[name]]: a list of tables of one declared shape."""
    return ListOf(m, json={k: v for k, v in m.json.items() if k == "description"})


def Entries(entry: Shape, names: str, description: str) -> Shape:
    """A table of names people choose ([options.NAME], [fields.NAME]), each entry of one shape."""
    return TableOf(entry, names, json=_described(description))


def validate(value: Mapping[str, Any], m: Record, where: str, p: Problems) -> dict[str, Any]:
    """Report unknown keys and values of the wrong kind (file order); return the table without them,
    so a reader falls back to the key's default and reports nothing twice."""
    found: list[str] = []
    kept = m.known(value, where, found)
    for said in found:
        p.add(said.args["path"], said.args["message"]) if isinstance(said, Said) else p.add(where, said)
    return kept


def unknown_keys(value: Mapping[str, Any], m: Record, where: str, p: Problems) -> None:
    """Only the unknown keys (for tables whose values a reader checks in its own words)."""
    for k in value:
        if k not in m.fields:
            p.add(join(where, str(k)), m.unknown_said)
