"""`[stats.ID]`: what the players of a game count over their hands (nils made, bags taken, bids made %)."""

from __future__ import annotations

from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.format import STATISTIC
from scorepad.rules.model import Statistic
from scorepad.rules.names import Compiler, Names, name_ok
from scorepad.rules.problems import Problems
from scorepad.rules.schema import validate
from scorepad.rules.sections import section

KINDS = {"count": "count", "sum": "sum", "mean": "mean", "made": "rate"}
"""The key that holds a statistic's formula, and the kind it makes (a rate's formula is `made`)."""


def read_statistics(data: dict[str, Any], names: Names, comp: Compiler, p: Problems) -> list[Statistic]:
    """Each statistic's formula sees what a score line of the same `per` sees (the hand's fields, its
    lets, the counters as the hand starts), so it reads the hand as it was scored."""
    out = []
    for sid, spec in section(data, "stats", None, p).items():
        key = f"stats.{sid}"
        if not name_ok(sid, key, p):
            continue
        if not isinstance(spec, dict):
            p.add(key, Said(N_("must be a table with a label and count, sum, mean or made and of")))
            continue
        spec = validate(spec, STATISTIC, key, p)
        kinds = [k for k in KINDS if k in spec]
        if len(kinds) != 1 or "label" not in spec:
            p.add(key, Said(N_("a statistic needs a label and one of count (the hands where a formula holds), "
                               "sum (a formula's values added up), mean (its average over the hands) or made "
                               "with of (a rate: the hands where made holds out of those where of holds)")))
            continue
        kind = KINDS[kinds[0]]
        if "of" in spec and kind not in ("rate", "mean"):
            p.add(f"{key}.of", Said(N_("of belongs to a rate (made) or a mean: the hands it is taken over")))
            continue
        if kind == "rate" and "of" not in spec:
            p.add(key, Said(N_("a rate needs of: the hands it is taken out of")))
            continue
        per = spec.get("per", "player")
        seen = names.player if per == "player" else names.side
        f = comp(spec[kinds[0]], f"{key}.{kinds[0]}", seen)
        of = comp(spec["of"], f"{key}.of", seen) if "of" in spec else None
        if f and (of or "of" not in spec):
            out.append(Statistic(sid, str(spec["label"]), per, kind, f, of))
    return out
