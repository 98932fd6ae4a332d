"""Names people give to players, sides, games and seasons: the one check every way in goes through.

A name is shown on terminals, in HTML, CSV and Markdown, and typed back in assignments
(`ann.bid=4`), so it must be printable text of a sensible length. Control characters (a clear
screen or window-title escape), bidi overrides (U+202E shows `ann` as something else) and line
separators are refused where a name enters: `new`, `rename`, `season use` and import.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence

from scorepad.errors import UserError
from scorepad.locale import N_, _, ngettext

MAX_NAME = 40         # players, teams and seasons: fits a score-sheet column
MAX_GAME_NAME = 80    # a game's --name is a short description ("Friday at Ann's")
MAX_SIDE_NAME = 200   # a partnership without --team is named after its players: "ann+bob"

# Format characters that may stay: the joiners written inside words of some scripts and inside
# emoji sequences. Every other format character (bidi embeddings, overrides, isolates and marks,
# zero-width spaces, invisible operators, tag characters) changes how the text around it looks.
JOINERS = {"\u200c", "\u200d"}


def unsafe_char(ch: str) -> bool:
    """A character that can move the cursor, change a terminal's state or reorder the text around it."""
    category = unicodedata.category(ch)
    if category == "Cf":
        return ch not in JOINERS
    return category in ("Cc", "Zl", "Zp", "Cs")


def not_utf8(value: str) -> bool:
    """Whether `value` carries bytes that are not UTF-8: Python keeps those of the command line and the
    environment as lone surrogates, which no database, TOML file or PostgreSQL connection can hold."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def utf8_text(value: str, what: str) -> str:
    """`value`, or a sentence saying that `what` (an option, a setting) holds bytes that are not UTF-8."""
    if not_utf8(value):
        shown = value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        raise UserError(_("{what} holds bytes that are not UTF-8 text ({value}); type it again in UTF-8").format(
                            what=what, value=shown))
    return value


# What check_name is told it checks, as the callers say it; translated where the sentence is made.
WHAT = (N_("a player name"), N_("a team name"), N_("a game name"), N_("a season name"))


def _first_unsafe(text: str) -> str | None:
    return next((ch for ch in text if unsafe_char(ch)), None)   # also in the spaces around the name


def name_problem(text: str, limit: int = MAX_NAME) -> str | None:
    """Why a name (player, side, game, season) cannot be stored, or None: the one check of names,
    used by `new`, `rename`, `season use` and the import of files. The reason completes "the name ..."."""
    name = text.strip()
    if not name:
        return _("is empty")
    bad = _first_unsafe(text)
    if bad is not None:
        return _("contains the control character U+{code}").format(code=f"{ord(bad):04X}")
    if len(name) > limit:
        return ngettext("is longer than {n} character", "is longer than {n} characters", limit).format(n=limit)
    return None


def check_name(text: object, what: str = "a player name", limit: int = MAX_NAME) -> str:
    """The name with surrounding spaces removed, or UserError saying what is wrong with it."""
    what = _(what)
    if not isinstance(text, str):
        raise UserError(_("{what} must be text, not {name}").format(what=what, name=type(text).__name__))
    name = text.strip()
    if not name:
        raise UserError(_("{what} is empty").format(what=what))
    shown = "".join("?" if unsafe_char(ch) else ch for ch in name)
    if len(shown) > 24:
        shown = shown[:20] + "..."
    bad = _first_unsafe(text)
    if bad is not None:
        raise UserError(_("{what} {name} contains the control character U+{code}; use letters, digits, spaces "
                          "and punctuation").format(what=what, name=repr(shown), code=f"{ord(bad):04X}"))
    if len(name) > limit:
        raise UserError(ngettext("{what} {name} is longer than {n} character", "{what} {name} is longer than {n} "
                                 "characters", limit).format(what=what, name=repr(shown), n=limit))
    return name


# ---- finding a name as a person types it: case and accents aside, and the nearest when mistyped

def fold(text: str) -> str:
    """Case- and accent-insensitive form of a name (ä → a, й stays a Cyrillic letter)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c) or c in "\u0306")


def closest(word: str, names: Iterable[str], shown: Callable[[str], str] = str, n: int = 3) -> list[str]:
    """The known names nearest to a mistyped one (case and accents aside), for "did you mean ...?"."""
    import difflib  # start-up: ~2.5 ms; only a name not found needs it

    by_fold: dict[str, str] = {}
    for name in names:
        by_fold.setdefault(fold(name), name)
    want = fold(word)
    hits = [k for k in by_fold if want and k.startswith(want)]
    hits += difflib.get_close_matches(want, list(by_fold), n=n, cutoff=0.6)
    out: list[str] = []
    for hit in hits:
        name = shown(by_fold[hit])
        if name not in out:
            out.append(name)
    return out[:n]


def did_you_mean(names: Sequence[str]) -> str:
    """` (did you mean spades?)` or nothing."""
    return _(" (did you mean {names}?)").format(names=_(" or ").join(names)) if names else ""
