"""What a game's chart marks beside its running totals: the ruleset's thresholds and the hands' events.

The thresholds are read from the ruleset with the game's options (rules.thresholds). An event is
marked on the side it names (Skid's "bob goes past 125 and is out", "game over: ann+cat wins"), on
no side when it names none; a line a rule wrote into a side's breakdown (Spades' bag penalty, Marjas'
"past 12: back to 7", Skid's "burnt to 0") is marked on that side. Nothing here scores a hand again:
it reads the sheet's stored lines and events.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from scorepad.engine.game import Game
from scorepad.rules.thresholds import thresholds


def side_named(text: str, sides: Sequence[str]) -> int | None:
    """The side whose name the text holds as a whole word (the longest name first: "ann+cat" before
    "ann"); None when it names no side or several."""
    found: set[int] = set()
    taken = text
    for k in sorted(range(len(sides)), key=lambda k: -len(sides[k])):
        pattern = rf"(?<![\w+]){re.escape(sides[k])}(?![\w+])"
        if re.search(pattern, taken):
            found.add(k)
            taken = re.sub(pattern, " ", taken)
    return found.pop() if len(found) == 1 else None


def marks(game: Game, hands: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each hand's events and rule lines as {"hand", "side" (index or None), "text"}, in hand order."""
    names = [s.name for s in game.sides]
    rule_labels = {r.label for r in game.ruleset.rules if r.label}
    out: list[dict[str, Any]] = []
    for h in hands:
        events = [{"hand": h["hand"], "side": side_named(str(e), names), "text": e} for e in h["events"]]
        told = {m["side"] for m in events}   # a rule that says what it did is marked once, by its message
        for k, lines in enumerate(h["breakdown"]):
            if k not in told:
                out.extend({"hand": h["hand"], "side": k, "text": f"{line[0]} {line[1]:+}"}
                           for line in lines if line[0] in rule_labels and isinstance(line[1], (int, float)))
        out.extend(events)
    return out


def story(game: Game, hands: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The sheet's additions for its chart: "thresholds" (totals drawn as lines) and "marks"."""
    return {"thresholds": thresholds(game.ruleset, game.options), "marks": marks(game, hands)}
