"""A value of a formula as a person reads it (a list cut short, cards as C♦), in messages and tables."""

from __future__ import annotations

from typing import Any

MAX_SHOWN = 1000  # characters of one value in a message or a table cell


def format_value(value: Any) -> str:
    """A value as a person reads it; a list is cut at MAX_SHOWN characters (a formula can make
    a list of lists of lists whose full text would not fit in memory)."""
    if isinstance(value, (list, tuple)):
        out: list[str] = []
        _format_into(value, out, [MAX_SHOWN])
        return "".join(out)
    return _format_one(value)


def _format_one(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return decimal_text(value)
    if value is None:
        return "-"
    return str(value)


def decimal_text(value: float) -> str:
    """A number as a person reads it: whole when it is whole, else at most two decimals (a third of a
    whist is 0.33, not 0.3333333333333333; exact values stay in the stored hands and in JSON)."""
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _format_into(value: Any, out: list[str], left: list[int], depth: int = 0) -> None:
    for i, item in enumerate(value):
        if left[0] <= 0:
            return
        text = ", " if i else ""
        if isinstance(item, (list, tuple)):
            out.append(text)
            left[0] -= len(text) + 1
            if depth >= 20:  # lists in lists 20 deep: no one reads further
                out.append("...")
                continue
            _format_into(item, out, left, depth + 1)
            continue
        text += _format_one(item)
        if len(text) > left[0]:
            text = text[:max(left[0], 0)] + "..."
        out.append(text)
        left[0] -= len(text)
