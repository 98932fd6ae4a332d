"""`[state.side]` and `[state.game]`: counters kept from hand to hand, with their starting values."""

from __future__ import annotations

from typing import Any

from scorepad.rules.expr import Formula
from scorepad.rules.format import STATE
from scorepad.rules.names import Compiler, Names
from scorepad.rules.problems import Problems
from scorepad.rules.sections import section


def state_tables(data: dict[str, Any], p: Problems) -> tuple[dict[str, Any], dict[str, Any]]:
    """The counters' names and sources (their names are part of the namespace before anything compiles)."""
    state = section(data, "state", STATE, p)
    return state.get("side", {}), state.get("game", {})


def read_state(side_raw: dict[str, Any], game_raw: dict[str, Any], names: Names,
               comp: Compiler) -> tuple[dict[str, Formula], dict[str, Formula]]:
    """The starting values: a side's may use its seat and members, the game's only the setup."""
    side_state = {}
    for cname, src in side_raw.items():
        f = comp(src, f"state.side.{cname}", names.setup | {"seat", "side_no", "me", "members"})
        if f:
            side_state[cname] = f
    game_state = {}
    for cname, src in game_raw.items():
        f = comp(src, f"state.game.{cname}", names.setup)
        if f:
            game_state[cname] = f
    return side_state, game_state
