"""Names people give to players, sides, games and seasons: the one check every way in goes through.

A name is shown on terminals, in HTML, CSV and Markdown, and typed back in assignments
(`ann.bid=4`), so it must be printable text of a sensible length. Control characters (a clear
screen or window-title escape), bidi overrides (U+202E shows `ann` as something else) and line
separators are refused where a name enters: `new`, `rename`, `season use` and import.
"""

from __future__ import annotations

import unicodedata

from scorepad.errors import UserError
from scorepad.locale import _

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


def name_problem(text: str, limit: int = MAX_NAME) -> str | None:
    """Why a name (player, side, game, season) cannot be stored, or None: the one check of names,
    used by `new`, `rename`, `season use` and the import of files."""
    name = text.strip()
    if not name:
        return "is empty"
    bad = next((ch for ch in text if unsafe_char(ch)), None)   # also in the spaces around it
    if bad is not None:
        return f"contains the control character U+{ord(bad):04X}"
    if len(name) > limit:
        return f"is longer than {limit} characters"
    return None


def check_name(text: object, what: str = "a player name", limit: int = MAX_NAME) -> str:
    """The name with surrounding spaces removed, or UserError saying what is wrong with it."""
    if not isinstance(text, str):
        raise UserError(_("{what} must be text, not {name}").format(what=what, name=type(text).__name__))
    why = name_problem(text, limit)
    if why is None:
        return text.strip()
    shown = "".join("?" if unsafe_char(ch) else ch for ch in text.strip())
    if len(shown) > 24:
        shown = shown[:20] + "..."
    if why == "is empty":
        raise UserError(_("{what} is empty").format(what=what))
    hint = "; use letters, digits, spaces and punctuation" if "control" in why else ""
    raise UserError(f"{what} {shown!r} {why}{hint}")
