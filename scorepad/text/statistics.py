"""A declared statistic's total as the players read it: a count or a sum as the number, a mean as
the average with at most two decimals, a rate as a percentage (66,67% in Estonian); and the table of
`scorepad stats`, one per game, a row per player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorepad.locale import current
from scorepad.text.numbers import local_number, local_percent, plain

PARTS = frozenset({"mean", "rate"})
"""The kinds whose totals are kept as parts and shown worked out (an average, a percentage)."""


def statistic_shown(kind: str, value: Any, lang: str | None = None) -> str:
    """A statistic's total in the language shown; a mean or a rate over no hands as "–"."""
    lang = lang or current()
    if isinstance(value, Mapping):
        if kind == "rate":
            return local_percent(value.get("made", 0), value.get("of", 0), lang)
        hands = value.get("hands", 0)
        return local_number(value.get("sum", 0) / hands, lang, 2) if hands else "–"
    return "" if value is None else local_number(plain(value), lang)
