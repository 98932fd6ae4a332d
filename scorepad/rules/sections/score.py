"""`[[score]]`: the points of a hand, per player or side, to the score or another side counter."""

from __future__ import annotations

from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.format import SCORE
from scorepad.rules.model import ScoreItem
from scorepad.rules.names import Compiler, Names
from scorepad.rules.problems import Problems
from scorepad.rules.schema import validate
from scorepad.rules.sections import entries


def read_scores(data: dict[str, Any], side_counters: set[str], names: Names, comp: Compiler,
                p: Problems) -> list[ScoreItem]:
    """`side_counters` are the counters of [state.side] (besides score) a line may add to."""
    scores = []
    for i, raw in enumerate(entries(data, "score", p)):
        key = f"score[{i}]"
        spec = validate(raw, SCORE, key, p)
        per = spec.get("per", "side")
        if per not in ("player", "side"):
            p.add(key + ".per", Said(N_("must be player or side")))
            continue
        context = names.player if per == "player" else names.side
        pts = comp(spec.get("points"), key + ".points", context) if "points" in spec else None
        if "points" not in spec:
            p.add(key, Said(N_("a score line needs points")))
        when = comp(spec["when"], key + ".when", context) if "when" in spec else None
        to = spec.get("to", ["score"])
        if isinstance(to, str):
            to = [to]
        if not isinstance(to, list) or not all(isinstance(c, str) for c in to):
            p.add(key + ".to", Said(N_("must be a side counter's name or a list of them")))
            to = ["score"]
        for counter in to:
            if counter not in side_counters and counter != "score":
                p.add(key + ".to", Said(N_("{counter} is not a side counter in [state.side]"), counter=repr(counter)))
        if pts:
            scores.append(ScoreItem(str(spec.get("id", f"score{i}")), per,
                                    str(spec.get("label", f"item {i + 1}")), pts, when, tuple(to)))
    return scores
