"""Names people give to players, sides, games and seasons: the one check every way in goes through.

A name is shown on terminals, in HTML, CSV and Markdown, and typed back in assignments
(`ann.bid=4`), so it must be printable text of a sensible length. Control characters (a clear
screen or window-title escape), bidi overrides (U+202E shows `ann` as something else) and line
separators are refused where a name enters: `new`, `rename`, `season use` and import.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from scorepad.errors import UserError

MAX_NAME = 40        # players, sides and seasons: fits a score-sheet column
MAX_GAME_NAME = 80   # a game's --name is a short description ("Friday at Ann's")

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


def describe_char(ch: str) -> str:
    """U+202E (RIGHT-TO-LEFT OVERRIDE): how a refused character is named in a message."""
    return f"U+{ord(ch):04X}" + (f" ({unicodedata.name(ch)})" if unicodedata.name(ch, "") else "")


def check_name(text: object, what: str = "a player name", limit: int = MAX_NAME) -> str:
    """The name with surrounding spaces removed, or UserError saying what is wrong with it."""
    if not isinstance(text, str):
        raise UserError(f"{what} must be text, not {type(text).__name__}")
    name = text.strip()
    if not name:
        raise UserError(f"{what} is empty")
    bad = next((ch for ch in name if unsafe_char(ch)), None)
    if bad is not None:
        shown = "".join("?" if unsafe_char(ch) else ch for ch in name)
        raise UserError(f"{what} {shown!r} contains the control character {describe_char(bad)}; "
                        "use letters, digits, spaces and punctuation")
    if len(name) > limit:
        raise UserError(f"{what} {name[:20]!r}... is {len(name)} characters long; at most {limit} are allowed")
    return name


def check_game_names(players: Iterable[object], sides: Iterable[object], name: object = None,
                     season: object = None) -> None:
    """Every name of a game that comes from a file (import): players, sides, the game's and season's name."""
    for player in players:
        check_name(player)
    for side in sides:
        check_name(side, "a side name", 2 * MAX_NAME + 1)   # a partnership is named "ann+bob"
    if name is not None:
        check_name(name, "a game name", MAX_GAME_NAME)
    if season is not None:
        check_name(season, "a season name")
