"""`[let]`, `[player]` and `[side]`: derived values of the hand, of each player and of each side.

Each is compiled in file order, so a let may use the lets above it (and none below: no cycles).
"""

from __future__ import annotations

from typing import Any

from scorepad.rules.model import Let
from scorepad.rules.names import Compiler, Names, all_of, others, team
from scorepad.rules.problems import Problems
from scorepad.rules.sections import section


def let_tables(data: dict[str, Any], p: Problems) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The three tables' names and sources (their names join the namespace before anything compiles)."""
    return section(data, "let", None, p), section(data, "player", None, p), section(data, "side", None, p)


def read_lets(hand_raw: dict[str, Any], player_raw: dict[str, Any], side_raw: dict[str, Any], names: Names,
              comp: Compiler) -> tuple[list[Let], list[Let], list[Let]]:
    hand_lets = []
    known_now = names.typed | all_of(names.side_counters)
    for lname, src in hand_raw.items():
        f = comp(src, f"let.{lname}", known_now)
        if f:
            hand_lets.append(Let(lname, f))
        known_now.add(lname)  # in place: a copy per let made many lets quadratic
    pf, sf, counters = names.player_fields, names.side_fields, names.side_counters
    player_known = (known_now | pf | others(pf) | team(pf) | sf | counters | others(sf | counters)
                    | {"me", "seat", "side", "side_no"})
    player_lets = []
    for lname, src in player_raw.items():
        f = comp(src, f"player.{lname}", player_known)
        if f:
            player_lets.append(Let(lname, f))
        player_known |= {lname, f"all_{lname}", f"others_{lname}", f"team_{lname}"}
    side_known = (known_now | all_of(names.player_level) | sf | counters | others(sf | counters)
                  | names.player_level | team(names.player_level) | {"me", "side_no", "members"})
    side_lets = []
    for lname, src in side_raw.items():
        f = comp(src, f"side.{lname}", side_known)
        if f:
            side_lets.append(Let(lname, f))
        side_known |= {lname, f"all_{lname}", f"others_{lname}"}
    return hand_lets, player_lets, side_lets
