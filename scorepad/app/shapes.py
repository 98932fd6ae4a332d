"""Reading strangers' data files safely: a JSON reader that refuses what the database cannot hold,
and the generic scan every value of such a file passes before its declared shape is checked.

The export format (docs/export.md) and the one-game TOML file are declared with scorepad.shape;
`problems(document, shape)` returns one sentence per problem, each starting with where it is
(`games[3].hand_rows[2].points: ...`), so a refusal names the place to look.
"""

from __future__ import annotations

import json
import math
from typing import Any

from scorepad.locale import Said, _, shown
from scorepad.shape import MAX_NUMBER, MAX_PROBLEMS, MAX_TEXT, Shape, join, said_at

MAX_DIGITS = 20  # longer integers are refused before Python converts them
MAX_DEPTH = 32  # the export nests 8 levels deep; a ruleset text is a string, not nesting


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
            scan(item, join(path, key), out, depth + 1)
    return out


def _text_problem(text: str, where: str, out: list[str]) -> None:
    if len(text) > MAX_TEXT:
        out.append(_("{where}: text longer than {n} KiB").format(where=where, n=MAX_TEXT // 1024))
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        out.append(_("{where}: not valid Unicode text (a lone surrogate)").format(where=where))


def checked(shape: Shape, value: Any, path: str, out: list[str]) -> None:
    """Append a value's problems against its declared shape, as sentences in the reader's language."""
    found: list[str] = []
    shape.check(value, path, found)
    out.extend(shown(said_at(_("the file"), said.args["message"]) if isinstance(said, Said) and said.args.get("path") == ""
                     else said) for said in found)


def problems(document: Any, shape: Shape) -> list[str]:
    """Every problem of a parsed document (up to MAX_PROBLEMS): the generic scan, then the shape."""
    out = scan(document)
    if not out:
        checked(shape, document, "", out)
    return out[:MAX_PROBLEMS]
