"""A scenario's hands typed and scored in turn, for the tests and benchmarks that replay them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scorepad.app.games import type_and_score
from scorepad.app.scenario import load_scenario
from scorepad.engine.game import Game, initial_state
from scorepad.errors import ScorepadError


def scenario_hands(path: Path) -> tuple[Game, list[dict[str, Any]]] | None:
    """The scenario's game and its typed hands up to the first refused one; refused, `finish` and
    input-less hands left out. None when the scenario itself is refused."""
    try:
        data, game = load_scenario(path)
    except (ScorepadError, KeyError):
        return None
    state = initial_state(game)
    hands = []
    for h in data.get("hand", []):
        if "error" in h or h.get("finish") or "input" not in h:
            continue
        try:
            _, hand, res = type_and_score(game, state, h["input"])
        except ScorepadError:
            break
        hands.append(hand)
        state = res.state
    return game, hands
