"""Reading a ruleset's text: size, encoding and TOML, and the limits on what a file may hold."""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path
from typing import Any

from scorepad.errors import RulesetError
from scorepad.locale import N_, Said
from scorepad.rules.schema import MAX_TEXT

MAX_FILE_BYTES = 256 * 1024
MAX_TABLE_ITEMS = 2000
MAX_NESTING = 8
MAX_VALUES = 20000

_TOML_POSITION = re.compile(r" \(at (?:line (\d+), column (\d+)|end of document)\)$")


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """The TOML of a ruleset's text, parsed every time it is read: no parsed copy is kept anywhere
    (a copy kept on disk would be trusted on its name; parsing a pinned text costs a few ms)."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        msg = Said(N_("{source}: the file is larger than {kib} KiB"), source=source, kib=MAX_FILE_BYTES // 1024)
        raise RulesetError(msg, [msg])
    return _parse(text, source)


def _parse(text: str, source: str) -> dict[str, Any]:

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where, detail = _toml_position(str(exc), text)
        msg = Said(N_("{source}: not valid TOML: {detail}"), source=f"{source}{where}", detail=detail)
        raise RulesetError(msg, [msg]) from None
    except RecursionError:
        msg = Said(N_("{source}: the TOML nests too deeply"), source=source)
        raise RulesetError(msg, [msg]) from None
    return data


def _toml_position(detail: str, text: str) -> tuple[str, str]:
    """tomllib's `... (at line N, column M)` as `:N:M` after the file name, the form `rules check` prints
    and editors read (`(at end of document)`: just after the last character of the last line)."""
    found = _TOML_POSITION.search(detail)
    if found is None:
        return "", detail
    if found.group(1):
        line, column = int(found.group(1)), int(found.group(2))
    else:
        last = text.removesuffix("\n")   # the last line a reader sees, not the empty one after it
        line, column = last.count("\n") + 1, len(last) - last.rfind("\n")
    return f":{line}:{column}", detail[:found.start()]


def read_text(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        msg = Said(N_("{path}: cannot read the file ({strerror})"), path=str(path), strerror=exc.strerror)
        raise RulesetError(msg, [msg]) from None
    if len(raw) > MAX_FILE_BYTES:
        msg = Said(N_("{source}: the file is larger than {kib} KiB"), source=str(path), kib=MAX_FILE_BYTES // 1024)
        raise RulesetError(msg, [msg])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        msg = Said(N_("{path}: the file is not UTF-8 text"), path=str(path))
        raise RulesetError(msg, [msg]) from None


def depth_and_size(value: Any, depth: int = 0) -> tuple[int, int]:
    if depth > MAX_NESTING:
        return depth, 0
    if isinstance(value, dict):
        results = [depth_and_size(v, depth + 1) for v in value.values()]
    elif isinstance(value, list):
        results = [depth_and_size(v, depth + 1) for v in value]
    else:
        return depth, 1
    return max([depth, *(d for d, _ in results)]), 1 + sum(s for _, s in results)


def oversized(value: Any, key: str) -> list[tuple[str, str]]:
    """Numbers beyond ±10^15 (or inf/nan) and text over 10,000 characters anywhere in the file."""
    # imported here, not at the top: reading a file for its [game] header needs neither
    from scorepad.rules.expr import MAX_NUMBER

    out: list[tuple[str, str]] = []
    stack: list[tuple[Any, str]] = [(value, key)]
    while stack and len(out) < 20:
        item, where = stack.pop()
        if isinstance(item, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k)) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(item))
        elif isinstance(item, bool):
            continue
        elif isinstance(item, (int, float)):
            if not math.isfinite(item) or abs(item) > MAX_NUMBER:
                out.append((where, Said(N_("number too large (numbers in a ruleset are at most ±10^15)"))))
        elif isinstance(item, str) and len(item) > MAX_TEXT:
            out.append((where, Said(N_("the text is longer than {most} characters"), most=MAX_TEXT)))
    return out


def control_characters(value: Any, key: str) -> list[tuple[str, str]]:
    """Texts (and keys: display labels are keys) holding a character that acts on a terminal: an escape
    sequence, a bidi override, a line separator. A ruleset's texts are shown on terminals as names are;
    refused here, so a shared ruleset cannot carry them. Line breaks and tabs are text (CR only before LF)."""
    out: list[tuple[str, str]] = []
    stack: list[tuple[Any, str]] = [(value, key)]
    while stack and len(out) < 20:
        item, where = stack.pop()
        if isinstance(item, dict):
            for k, v in item.items():
                inner = f"{where}.{k}" if where else str(k)
                bad = _first_control(str(k))
                if bad is not None:
                    out.append((inner, Said(N_("the name holds the control character U+{code}; a ruleset's texts are "
                                               "shown on terminals"), code=f"{ord(bad):04X}")))
                stack.append((v, inner))
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(item))
        elif isinstance(item, str):
            bad = _first_control(item)
            if bad is not None:
                out.append((where, Said(N_("the text holds the control character U+{code}; a ruleset's texts are "
                                           "shown on terminals"), code=f"{ord(bad):04X}")))
    return sorted(out)


def _first_control(text: str) -> str | None:
    if text.isprintable():
        return None
    from scorepad.names import unsafe_char  # start-up: only a text that is not plainly printable needs it

    text = text.replace("\r\n", "\n")
    return next((ch for ch in text if ch not in "\n\t" and unsafe_char(ch)), None)
