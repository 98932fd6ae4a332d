"""Time limits that follow the machine's speed, for the tests that guard against hangs.

The guarded cases took 7-90 s before their fixes and take well under the limits now, on a quiet
machine; on a loaded one (or a slow CI box) a fixed limit of 0.5-2 s flakes. `within` passes at once
when the time is under the limit; only when it is over does it time a fixed reference workload (read,
check and start a bundled ruleset, score one hand) and stretch the limit by how much slower that runs
now than on a quiet machine (QUIET_SECONDS). So the guards still fail for a real hang, whatever the load:
the hang slows down as much as the reference does.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from scorepad.engine.assignments import split_assignments, type_hand
from scorepad.engine.game import initial_state, make_game
from scorepad.engine.scoring import apply_hand
from scorepad.rules.loader import load_text

SPADES = Path(__file__).resolve().parent.parent / "rulesets" / "spades.toml"

# Best of 20 runs of reference() on an AMD EPYC core (Python 3.11) when the load was lowest, rounded down.
QUIET_SECONDS = 0.015


def reference() -> float:
    """Seconds the reference workload takes now (median of three)."""
    text = SPADES.read_text(encoding="utf-8")
    times = []
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(5):
            game = make_game(load_text(text, "spades.toml"), ["ann", "bob", "cat", "dan"])
            state = initial_state(game)
            raw = split_assignments(game, ["bid=3,2,4,1", "tricks=4,2,5,2"])
            hand, _ = type_hand(game, raw, [0, 1, 2, 3], state)
            apply_hand(game, state, hand)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def allowed(seconds: float) -> float:
    """The limit `seconds` (as on a quiet machine) stretched by how much slower the machine is now."""
    return seconds * max(1.0, reference() / QUIET_SECONDS)


def within(elapsed: float, seconds: float) -> bool:
    """Whether `elapsed` is under the limit `seconds`, stretched on a machine slower than a quiet one."""
    return elapsed < seconds or elapsed < allowed(seconds)
