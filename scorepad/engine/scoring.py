"""Scoring one hand: the one entry point the app, the table and `verify` call.

The hand is scored formula by formula (game.py), on one step budget; a hand whose numbers would
pass what an export can carry back is refused here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorepad.engine.game import Game, Hand, HandResult, State, score_by_formula, statistic_values
from scorepad.errors import HandError, UserError
from scorepad.limits import MAX_NUMBER, number_ok
from scorepad.locale import N_, Said
from scorepad.rules.expr import budgeted


@budgeted
def apply_hand(game: Game, state: State, hand: Hand) -> HandResult:
    """Score one hand: checks, derived values, points, counters, thresholds, end of game."""
    if state["finished"]:
        raise UserError(Said(N_("this game has ended and takes no more hands (undo or edit still work)")))
    result = score_by_formula(game, state, hand)
    _within_bounds(result)
    return result


@budgeted
def hand_statistics(game: Game, state: State, hand: Hand,
                    breakdown: Sequence[Sequence[Any]] | None = None) -> dict[str, list[Any]]:
    """A hand's `[stats]` values, per player or side (game.statistic_values), on a budget of its own;
    `breakdown`: the hand's as stored, for statistics that read its lines by id."""
    return statistic_values(game, state, hand, breakdown)


def _within_bounds(result: HandResult) -> None:
    """A hand whose points or totals would pass ±10^15 is refused: no number is stored that an
    export could not carry back."""
    numbers = [*result.points]
    for side in result.state["sides"]:
        numbers += side.values()
    numbers += result.state["game"].values()
    if not all(number_ok(v) for v in numbers if type(v) is not int or not -MAX_NUMBER <= v <= MAX_NUMBER):
        raise HandError(Said(N_("this hand would take a score or counter past {limit} (at most 15 digits)"),
                             limit=f"{MAX_NUMBER:.0e}"))
