"""`[display]`: what the standings show besides the totals."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.expr import Formula
from scorepad.rules.format import DISPLAY
from scorepad.rules.names import Compiler, Names, all_of, others
from scorepad.rules.problems import Problems
from scorepad.rules.sections import section


@dataclass(frozen=True)
class Display:
    side: dict[str, Formula]
    next: dict[str, Formula]
    info: tuple[str, ...]
    sheet_below: str | None
    info_when: tuple[Formula | None, ...] = ()   # per info line: shown when this holds (the options in force)


def read_display(data: dict[str, Any], state_side: set[str], names: Names, comp: Compiler, p: Problems) -> Display:
    """`state_side`: the counters of [state.side], one of which `sheet_below` may name."""
    display = section(data, "display", DISPLAY, p)
    counters = names.side_counters
    side = {}
    for label, src in (display.get("side", {}) or {}).items():
        f = comp(src, f"display.side.{label}", names.setup | names.game_counters | counters | all_of(counters)
                 | others(counters) | {"me", "side_no", "members"})
        if f:
            side[label] = f
    nxt = {}
    for label, src in (display.get("next", {}) or {}).items():
        f = comp(src, f"display.next.{label}", names.hand_base | all_of(counters))
        if f:
            nxt[label] = f
    sheet_below = display.get("sheet_below")
    if sheet_below is not None and sheet_below not in state_side:
        p.add("display.sheet_below", Said(N_("names the side counter whose points are written below the line")))
    info = tuple(display.get("info", []))
    when_src = list(display.get("info_when", []) or [])
    if when_src and len(when_src) != len(info):
        p.add("display.info_when", Said(N_("has {n} conditions for {lines} info lines; give one per line ('' = always)"),
                                        n=len(when_src), lines=len(info)))
    when = tuple(comp(src, f"display.info_when[{i}]", names.setup) if src else None for i, src in enumerate(when_src))
    return Display(side, nxt, info, sheet_below, when)
