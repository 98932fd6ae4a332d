"""Numbers and dates as the reader's language writes them: 142 (never 142.0), Estonian 0,5, 30. nov 2026.

One place for the season's tables, its page and its charts, and a game's sheet, so a number reads
the same in each of them.
"""

from __future__ import annotations

from datetime import date
from typing import Any


def plain(value: Any) -> Any:
    """A number without a needless fraction: 142.0 as 142; anything else as it was."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def local_number(value: Any, lang: str, digits: int | None = None) -> str:
    """A number as the reader's locale writes it (0,5 in Estonian, Russian and Ukrainian), via Babel,
    rounded to `digits` decimals when given; 142.0 as 142. Anything that is not a number as it was."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "" if value is None else str(value)
    if digits is not None:
        value = round(value, digits)
    value = plain(value)
    if lang == "en" or isinstance(value, int):
        return str(value)
    from babel.numbers import format_decimal  # only for a number with a fraction, in another language

    return str(format_decimal(value, locale=lang, group_separator=False))


def local_date(text: str, lang: str) -> str:
    """A YYYY-MM-DD date in the reader's locale's medium form (30. nov 2026, 30 нояб. 2026 г.), via Babel."""
    if lang == "en":
        return text

    from babel.dates import format_date  # start-up: babel ~20 ms; only a page in another language needs it

    try:
        return str(format_date(date.fromisoformat(text), format="medium", locale=lang))
    except ValueError:
        return text


def local_percent(part: int | float, whole: int | float, lang: str) -> str:
    """`part` of `whole` as a percentage with at most two decimals, as the language writes it (66,67%
    in Estonian); "–" when `whole` is 0 (nothing to take a share of)."""
    if not whole:
        return "–"
    return local_number(100 * part / whole, lang, 2) + "%"
