"""`[variants.NAME]`: overlays of the base ruleset (GAME:VARIANT), merged before the sections are read."""

from __future__ import annotations

import copy
import datetime
from collections.abc import Mapping
from typing import Any

from scorepad.errors import RulesetError
from scorepad.locale import N_, Said
from scorepad.rules.format import VARIANT
from scorepad.rules.names import NAME_RE
from scorepad.rules.problems import Problems

LIST_SECTIONS = ("check", "score", "rule")


def check_variants(data: dict[str, Any], p: Problems) -> None:
    """The variants table itself: names, and only keys an overlay may hold."""
    variants = data.get("variants", {})
    if not isinstance(variants, dict):
        p.add("variants", Said(N_("must be a table of variants")))
        return
    for name, overlay in variants.items():
        if not NAME_RE.match(name.replace("-", "_")):
            p.add(f"variants.{name}", Said(N_("a variant name is lower-case letters, digits, - or _")))
        if not isinstance(overlay, dict):
            p.add(f"variants.{name}", Said(N_("must be a table")))
            continue
        for key in overlay:
            if key not in VARIANT.fields:
                p.add(f"variants.{name}.{key}", VARIANT.unknown_said)


def variant_names(base: dict[str, Any]) -> dict[str, str]:
    """variant id -> its name, for lists and `rules show`."""
    table = base.get("variants", {})
    return {k: str(v.get("name", k)) if isinstance(v, dict) else k for k, v in table.items()} \
        if isinstance(table, dict) else {}


def variant_description(base: dict[str, Any], variant: str | None) -> str | None:
    table = base.get("variants", {})
    if variant and isinstance(table, dict) and isinstance(table.get(variant), dict):
        extra = table[variant].get("description")
        return extra if isinstance(extra, str) else None
    return None


def tree_copy(value: Any) -> Any:
    """A deep copy of parsed TOML (tables, arrays and immutable scalars, a tree without shared parts):
    what copy.deepcopy gives for it, without deepcopy's dispatch and memo (which cost a third of loading
    a ruleset with variants, whose translations are checked against each variant)."""
    if isinstance(value, dict):
        return {k: tree_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [tree_copy(v) for v in value]
    if isinstance(value, (str, int, float, bool, type(None), datetime.date, datetime.time)):
        return value   # immutable (bool is an int; datetime a date)
    return copy.deepcopy(value)


def merge(base: dict[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    """Deep-merge a variant overlay: tables merge, lists of check/score/rule append or replace by id."""
    out: dict[str, Any] = tree_copy(base)
    for key, value in overlay.items():
        if key in LIST_SECTIONS and isinstance(value, list):
            items = list(out.get(key, []))
            for entry in value:
                ident = entry.get("id") if isinstance(entry, dict) else None
                pos = next((i for i, e in enumerate(items) if ident and e.get("id") == ident), None)
                if pos is None:
                    items.append(tree_copy(entry))
                else:
                    items[pos] = tree_copy(entry)
            out[key] = items
        elif key == "stats" and isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merged_statistics(out[key], value)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = tree_copy(value)
    return out


STATISTIC_KINDS = ("count", "sum", "mean", "made", "max", "min", "first", "of")
"""The keys that say what a statistic counts: an overlay that gives one replaces all of the base's."""


def _merged_statistics(base: dict[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    """`[stats]` under an overlay (a variant, a derived ruleset): a new id is added; one the base has
    merges key by key (a new label keeps the formula), except that a statistic given a kind (count,
    sum, mean, made and of, max, min or first) is counted that way only: the base's count does not stay beside a new sum."""
    out: dict[str, Any] = tree_copy(base)
    for sid, entry in overlay.items():
        old = out.get(sid)
        if isinstance(entry, dict) and isinstance(old, dict):
            if any(k in entry for k in STATISTIC_KINDS):
                old = {k: v for k, v in old.items() if k not in STATISTIC_KINDS}
            out[sid] = merge(old, entry)
        else:
            out[sid] = tree_copy(entry)
    return out


def apply_variant(data: dict[str, Any], variant: str | None, source: str) -> dict[str, Any]:
    """The base ruleset with a variant's overlay applied (and its `remove` list honoured)."""
    variants = data.get("variants", {})
    if variant is None:
        return data
    if not isinstance(variants, dict) or variant not in variants:
        if isinstance(variants, dict) and variants:
            raise RulesetError(Said(N_("{source}: unknown variant {variant} (variants: {known})"), source=source,
                                    variant=repr(variant), known=", ".join(variants)))
        raise RulesetError(Said(N_("{source}: unknown variant {variant} (variants: none)"), source=source,
                                variant=repr(variant)))
    overlay = dict(variants[variant])
    overlay.pop("name", None)
    overlay.pop("names", None)
    overlay.pop("description", None)
    removed = overlay.pop("remove", [])
    merged = merge({k: v for k, v in data.items()}, overlay)
    for ident in removed if isinstance(removed, list) else []:
        for section in LIST_SECTIONS:
            merged[section] = [e for e in merged.get(section, []) if e.get("id") != ident]
        if isinstance(merged.get("stats"), dict):   # a statistic the variant's game has no use for
            merged["stats"] = {k: v for k, v in merged["stats"].items() if k != ident}
        # `remove = ["tricks_total"]` also drops the check a field's `total` makes
        spec = merged.get("fields", {}).get(str(ident).removesuffix("_total")) if isinstance(
            merged.get("fields"), dict) and str(ident).endswith("_total") else None
        if isinstance(spec, dict):
            spec.pop("total", None)
    return merged
