"""The language of one request: `--lang` given to `serve` wins, then the browser's Accept-Language,
then the language the command line would speak (config, SCOREPAD_LANG, locale)."""

from __future__ import annotations

from scorepad.locale import LANGUAGES


def accepted(header: str | None) -> str | None:
    """The first language of an Accept-Language header (by its q weight) that scorepad speaks."""
    if not header:
        return None
    wanted: list[tuple[float, int, str]] = []
    for k, part in enumerate(header.split(",")[:30]):   # a header of thousands of parts is not read to its end
        piece = part.strip()
        if not piece:
            continue
        code, _sep, params = piece.partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _eq, value = param.strip().partition("=")
            if name == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        base = code.strip().lower().replace("_", "-").split("-")[0]
        if weight > 0 and base in LANGUAGES:
            wanted.append((-weight, k, base))
    return min(wanted)[2] if wanted else None


def request_language(flag: str | None, header: str | None, fallback: str) -> str:
    """What one reader is answered in: `flag` (serve's --lang), else the browser's wish, else `fallback`."""
    return flag or accepted(header) or fallback
