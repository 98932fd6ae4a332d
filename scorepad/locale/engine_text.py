"""The engine's own sentences (program text, not ruleset text) in the chosen language, where shown.

The engine stays pure and speaks English: its events are stored with the hands, and its refusals are
exceptions. Each English sentence is its id; this table of patterns turns it into the msgid of the
catalog with the variable parts as placeholders, at the render layer and in the CLI's error output.
"""

from __future__ import annotations

import re

from scorepad.locale import N_, _, current

# (pattern of the English sentence, msgid with the pattern's named groups as placeholders)
PATTERNS: tuple[tuple[str, str], ...] = (
    (r"game over: a draw between (?P<names>.+)", N_("game over: a draw between {names}")),
    (r"game over: (?P<names>.+ and .+) win", N_("game over: {names} win")),
    (r"game over: (?P<name>.+) wins", N_("game over: {name} wins")),
    (r"tie at the top: play another hand", N_("tie at the top: play another hand")),
    (r"(?P<names>.+) stopped playing in the same hand: the highest total among them decides",
     N_("{names} stopped playing in the same hand: the highest total among them decides")),
    (r"(?P<names>.+) stopped playing in the same hand: the lowest total among them decides",
     N_("{names} stopped playing in the same hand: the lowest total among them decides")),
    (r"(?P<who>.+) reaches (?P<goal>\S+) first \((?P<label>.+)\); the rest of the deal is not scored",
     N_("{who} reaches {goal} first ({label}); the rest of the deal is not scored")),
    (r"(?P<who>.+) reaches (?P<goal>\S+) first \((?P<label>.+)\)", N_("{who} reaches {goal} first ({label})")),
    (r"this hand cannot be scored: (?P<problem>.+)", N_("this hand cannot be scored: {problem}")),
    (r"this game has ended and takes no more hands \(undo or edit still work\)",
     N_("this game has ended and takes no more hands (undo or edit still work)")),
    (r"this game has already ended", N_("this game has already ended")),
    (r"(?P<game>.+) is played by (?P<want>\S+) players, not (?P<n>\d+)",
     N_("{game} is played by {want} players, not {n}")),
    (r"a player name is empty", N_("a player name is empty")),
    (r"two players have the same name; give each player a different name",
     N_("two players have the same name; give each player a different name")),
    (r"every player must be in exactly one --team", N_("every player must be in exactly one --team")),
    (r"(?P<game>.+) has (?P<sides>\d+) sides; --team named (?P<n>\d+)", N_("{game} has {sides} sides; --team named {n}")),
    (r"(?P<game>.+) teams have (?P<sizes>\d+(?: and \d+)+) players", N_("{game} teams have {sizes} players")),
    (r"(?P<game>.+) is played each for himself; --team does not apply",
     N_("{game} is played each for himself; --team does not apply")),
    (r"(?P<text>'.*') is not one of the players \((?P<names>.*)\)",
     N_("{text} is not one of the players ({names})")),
    (r"(?P<game>.+) has no option (?P<key>'.*') \(options: (?P<known>.*)\)",
     N_("{game} has no option {key} (options: {known})")),
    (r"option (?P<key>\S+) must be one of (?P<values>.+), not (?P<raw>.*)",
     N_("option {key} must be one of {values}, not {raw}")),
    (r"option (?P<key>\S+) must be between (?P<low>\S+) and (?P<high>\S+), not (?P<raw>.*)",
     N_("option {key} must be between {low} and {high}, not {raw}")),
    (r"(?P<raw>'.*') is not yes or no", N_("{raw} is not yes or no")),
    (r"(?P<raw>'.*') is not a whole number", N_("{raw} is not a whole number")),
    (r"(?P<raw>'.*') is not a number", N_("{raw} is not a number")),
)
_COMPILED: list[tuple[re.Pattern[str], str]] = []   # compiled when first needed: English never needs them


def engine_text(text: str) -> str:
    """An English sentence of the engine in the chosen language (unknown sentences as they are)."""
    if current() == "en":
        return text
    if not _COMPILED:
        _COMPILED.extend((re.compile(p, re.S), msgid) for p, msgid in PATTERNS)
    for pattern, msgid in _COMPILED:
        m = pattern.fullmatch(text)
        if m is not None:
            parts = {k: engine_text(v) if k == "problem" else v for k, v in m.groupdict().items()}
            if "sizes" in parts:                  # "2 and 3": the numbers, without the English word
                parts["sizes"] = parts["sizes"].replace(" and ", "/")
            try:
                return _(msgid).format(**parts)
            except (KeyError, IndexError, ValueError):
                return text
    return text
