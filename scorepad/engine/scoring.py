"""Scoring one hand: the game's generated hand code (handcode.py) where it has been written and
takes the hand, else formula by formula (game.py), which also says every refusal and error.

The one entry point the app, the table and `verify` call; it sits above both ways of scoring, so
neither imports the other's caller.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from scorepad.engine.game import Game, Hand, HandResult, State, score_by_formula
from scorepad.engine.handcode import hand_function
from scorepad.errors import HandError, UserError
from scorepad.limits import MAX_NUMBER, number_ok
from scorepad.locale import N_, Said
from scorepad.rules import expr
from scorepad.rules.expr import budgeted

_PER_FORMULA = False  # True: every hand scored formula by formula (the reference for the hand code)

hand_code_counts = {"scored": 0, "given up": 0}  # hands scored by hand code, and given up to the per-formula way


@contextmanager
def per_formula_engine() -> Iterator[None]:
    """Score every hand formula by formula, never through a game's generated hand code: the
    reference the hand code is checked against (tests, benchmarks)."""
    global _PER_FORMULA
    saved, _PER_FORMULA = _PER_FORMULA, True
    try:
        yield
    finally:
        _PER_FORMULA = saved


@budgeted
def apply_hand(game: Game, state: State, hand: Hand) -> HandResult:
    """Score one hand: checks, derived values, points, counters, thresholds, end of game."""
    if state["finished"]:
        raise UserError(Said(N_("this game has ended and takes no more hands (undo or edit still work)")))
    result = None
    if not _PER_FORMULA:
        result = _by_hand_code(game, state, hand)
    if result is None:
        result = score_by_formula(game, state, hand)
    _within_bounds(result)
    return result


def _within_bounds(result: HandResult) -> None:
    """A hand whose points or totals would pass ±10^15 is refused: no number is stored that an
    export could not carry back."""
    numbers = [*result.points]
    for side in result.state["sides"]:
        numbers += [v for v in side.values() if isinstance(v, int | float)]
    numbers += [v for v in result.state["game"].values() if isinstance(v, int | float)]
    if not all(number_ok(v) for v in numbers):
        raise HandError(Said(N_("this hand would take a score or counter past {limit} (at most 15 digits)"),
                             limit=f"{MAX_NUMBER:.0e}"))


def _by_hand_code(game: Game, state: State, hand: Hand) -> HandResult | None:
    """The hand scored by the game's generated hand code; None when there is none yet, or when it
    gave up on this hand (the per-formula engine then scores it from the start, on a budget as fresh
    as the hand code's was)."""
    fn = hand_function(game, state)
    if fn is None:
        return None
    budget = expr.active_budget()
    try:
        result = fn(state, hand, budget)
    except Exception:  # noqa: BLE001  # whatever it was, the per-formula engine says it in its own words
        budget.left, budget.message = budget.limit, None
        hand_code_counts["given up"] += 1
        return None
    hand_code_counts["scored"] += 1
    return result
