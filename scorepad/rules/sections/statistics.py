"""`[stats.ID]`: what the players of a game count over their hands (nils made, bags taken)."""

from __future__ import annotations

from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.format import STATISTIC
from scorepad.rules.model import Statistic
from scorepad.rules.names import Compiler, Names, name_ok
from scorepad.rules.problems import Problems
from scorepad.rules.schema import validate
from scorepad.rules.sections import section


def read_statistics(data: dict[str, Any], names: Names, comp: Compiler, p: Problems) -> list[Statistic]:
    """Each statistic's formula sees what a score line of the same `per` sees (the hand's fields, its
    lets, the counters as the hand starts), so it reads the hand as it was scored."""
    out = []
    for sid, spec in section(data, "stats", None, p).items():
        key = f"stats.{sid}"
        if not name_ok(sid, key, p):
            continue
        if not isinstance(spec, dict):
            p.add(key, Said(N_("must be a table with a label and count or sum")))
            continue
        spec = validate(spec, STATISTIC, key, p)
        kinds = [k for k in ("count", "sum") if k in spec]
        if len(kinds) != 1 or "label" not in spec:
            p.add(key, Said(N_("a statistic needs a label and one of count (the hands where a formula holds) "
                               "or sum (a formula's values added up)")))
            continue
        per = spec.get("per", "player")
        f = comp(spec[kinds[0]], f"{key}.{kinds[0]}", names.player if per == "player" else names.side)
        if f:
            out.append(Statistic(sid, str(spec["label"]), per, kinds[0], f))
    return out
