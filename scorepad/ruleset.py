"""Ruleset files: load TOML strictly, overlay variants, check every key, compile every formula.

The loader lives in the scorepad.rules package: the format declared as data (rules/format.py,
rules/schema.py), one reader per section (rules/sections/), and rules/loader.py that runs them.
This module keeps the names the rest of scorepad imports.
"""

from __future__ import annotations

from scorepad.rules.format import FIELD_TYPES, MARKS, SCOPES, WINNER_MODES
from scorepad.rules.loader import build, load_text
from scorepad.rules.model import (
    Check,
    Combo,
    EndRule,
    FieldDef,
    Let,
    Option,
    Rule,
    Ruleset,
    ScoreItem,
    card_functions,
    field_order,
    field_refs,
)
from scorepad.rules.names import NAME_RE, RESERVED, TEMPLATE_RE
from scorepad.rules.problems import Problems
from scorepad.rules.schema import FORMAT_VERSION, MAX_TEXT
from scorepad.rules.sections.fields import MAX_INPUT, MAX_PATTERN_PATHS
from scorepad.rules.sections.variants import LIST_SECTIONS, apply_variant, merge
from scorepad.rules.source import MAX_FILE_BYTES, MAX_NESTING, MAX_TABLE_ITEMS, parse_toml, read_text

_Problems = Problems
_field_order = field_order

__all__ = [
    "FIELD_TYPES", "FORMAT_VERSION", "LIST_SECTIONS", "MARKS", "MAX_FILE_BYTES", "MAX_INPUT", "MAX_NESTING",
    "MAX_PATTERN_PATHS", "MAX_TABLE_ITEMS", "MAX_TEXT", "NAME_RE", "RESERVED", "SCOPES", "TEMPLATE_RE",
    "WINNER_MODES", "Check", "Combo", "EndRule", "FieldDef", "Let", "Option", "Problems", "Rule", "Ruleset",
    "ScoreItem", "apply_variant", "build", "card_functions", "field_order", "field_refs", "load_text", "merge",
    "parse_toml", "read_text",
]
