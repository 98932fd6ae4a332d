"""`[players]`: how many play, in which sides and seats, and who deals next."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.format import PLAYERS
from scorepad.rules.problems import Problems
from scorepad.rules.sections import section


@dataclass(frozen=True)
class Players:
    min: int
    max: int
    sides: str
    seats: tuple[str, ...]
    side_names: tuple[str, ...]
    partnerships: tuple[tuple[int, ...], ...]
    next_dealer: Any          # the formula's source; compiled once the names are known


def read_players(data: dict[str, Any], p: Problems) -> Players:
    pl = section(data, "players", PLAYERS, p)
    min_p = pl.get("min", 2)
    max_p = pl.get("max", min_p)
    if max_p < min_p:
        p.add("players.max", Said(N_("is smaller than players.min")))
    sides_kind = pl.get("sides", "individual")
    side_names = tuple(pl.get("side_names", []))
    partnerships: tuple[tuple[int, ...], ...] = ()
    if sides_kind == "partnership":
        raw = pl.get("partnerships", [[1, 3], [2, 4]])
        if (not isinstance(raw, list)
                or not all(isinstance(t, list) and all(isinstance(i, int) for i in t) for t in raw)):
            p.add("players.partnerships", Said(N_("must be a list of seat-number lists like [[1, 3], [2, 4]]")))
        else:
            partnerships = tuple(tuple(i - 1 for i in t) for t in raw)
            seats_used = sorted(i for t in partnerships for i in t)
            if seats_used != list(range(len(seats_used))) or len(seats_used) != max_p:
                p.add("players.partnerships", Said(N_("must use each seat 1..{most} exactly once"), most=max_p))
        if side_names and len(side_names) != len(partnerships):
            p.add("players.side_names", Said(N_("needs one name per partnership")))
    return Players(min_p, max_p, sides_kind, tuple(pl.get("seats", [])), side_names, partnerships,
                   pl.get("next_dealer"))
