"""Bounds that hold everywhere a number enters or leaves scorepad.

One bound for numbers: typed values, options and computed scores stay within ±10^15, so what the
program stores it can always export, import and copy (JSON readers and PostgreSQL's numeric columns
agree on every such number, and a float keeps every whole number up to it exactly).
"""

from __future__ import annotations

import math
from typing import Any

MAX_NUMBER = 10**15


def number_ok(value: Any) -> bool:
    """A number scorepad may hold: finite and within ±MAX_NUMBER (anything not a number passes)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return True
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return -MAX_NUMBER <= value <= MAX_NUMBER
