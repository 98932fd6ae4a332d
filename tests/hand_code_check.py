"""Scoring one hand through both engines and comparing what they give, for the hand-code tests.

The per-formula engine (`scoring.per_formula_engine()`) is the reference; with `handcode.HAND_WARM_UP`
at 0 every hand of a supported ruleset goes through its generated hand code instead. Both must give
the same outcome: the same HandResult (state, points, breakdown, events), or the same error (type,
message, problems, failed checks), compared with the type of every number (1, 1.0 and true differ),
and neither may change the state or the hand it was given or share a list or table with the new state.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

from scorepad.engine import game as engine
from scorepad.engine import handcode, scoring
from scorepad.engine.game import Game, HandResult, Line
from scorepad.errors import ScorepadError

Outcome = tuple[Any, ...]


def typed(value: Any) -> Any:
    """The value with the type of every scalar kept beside it, so `1 == 1.0 == True` no longer hides a change."""
    if isinstance(value, Line):
        return ("Line", typed(value.label), typed(value.points), typed(value.to))
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [typed(v) for v in value])
    if isinstance(value, tuple):
        return ("tuple", [typed(v) for v in value])
    return (type(value).__name__, value)


def outcome(run: Callable[[], HandResult]) -> Outcome:
    """What a person would see of one engine call: the result, or the error that refused it."""
    try:
        result = run()
    except ScorepadError as exc:
        return ("error", type(exc).__name__, exc.message, list(exc.problems),
                tuple(getattr(exc, "checks", ()) or ()))
    except (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError, OverflowError) as exc:
        # an engine bug (a person would see "internal error"); the two engines must still agree on it,
        # and tests/engine/test_hand_code.py counts these so they are not hidden
        return ("internal error", type(exc).__name__, str(exc))
    return ("result", typed(result.state), typed(result.points), typed(result.breakdown), typed(result.events))


def shared(a: Any, b: Any) -> list[str]:
    """Lists and tables that two values share (a new state must not share any with the state it came from)."""
    seen: dict[int, str] = {}

    def walk(value: Any, path: str, into: dict[int, str] | None, found: list[str]) -> None:
        if isinstance(value, (dict, list)):
            if into is not None:
                into[id(value)] = path
            elif id(value) in seen:
                found.append(f"{path} is {seen[id(value)]}")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for k, v in items:
                walk(v, f"{path}[{k!r}]", into, found)

    found: list[str] = []
    walk(a, "old", seen, found)
    walk(b, "new", None, found)
    return found


@contextmanager
def hand_code_on() -> Iterator[None]:
    """Every hand through the generated hand code from the first one (where the ruleset is supported)."""
    with mock.patch.object(handcode, "HAND_WARM_UP", 0):
        yield


def hand_code_counts() -> tuple[int, int]:
    """(hands scored by the hand code, hands it gave back to the per-formula engine) so far in this process."""
    counts = scoring.hand_code_counts
    return counts["scored"], counts["given up"]


def both(game: Game, state: dict[str, Any], hand: dict[str, Any],
         where: str = "") -> tuple[Outcome, HandResult | None]:
    """Score the hand through the hand code and through the per-formula engine; assert they agree.
    Returns the reference outcome and result (None when the hand was refused)."""
    state_before, hand_before = copy.deepcopy(state), copy.deepcopy(hand)
    with hand_code_on():
        fast_result: list[HandResult] = []
        fast = outcome(lambda: _keep(fast_result, scoring.apply_hand(game, state, hand)))
    assert typed(state) == typed(state_before), f"{where}: the hand code changed the state it was given"
    assert typed(hand) == typed(hand_before), f"{where}: the hand code changed the hand it was given"
    with scoring.per_formula_engine():
        slow_result: list[HandResult] = []
        slow = outcome(lambda: _keep(slow_result, scoring.apply_hand(game, state, hand)))
    assert typed(state) == typed(state_before), f"{where}: the per-formula engine changed the state it was given"
    assert fast == slow, f"{where}: the hand code gave\n  {fast}\nthe per-formula engine\n  {slow}"
    if fast_result:
        assert not shared(state, fast_result[0].state), f"{where}: {shared(state, fast_result[0].state)}"
    return slow, slow_result[0] if slow_result else None


def _keep(into: list[HandResult], result: HandResult) -> HandResult:
    into.append(result)
    return result


def finish_both(game: Game, state: dict[str, Any], where: str = "") -> Outcome:
    """`scorepad finish` through both engines (its rules run with the hand's names of the last state)."""
    before = copy.deepcopy(state)
    with hand_code_on():
        fast = outcome(lambda: engine.finish_game(game, state))
    with scoring.per_formula_engine():
        slow = outcome(lambda: engine.finish_game(game, state))
    assert typed(state) == typed(before), f"{where}: finish changed the state it was given"
    assert fast == slow, f"{where}: finish through the hand code gave\n  {fast}\nthe per-formula engine\n  {slow}"
    return slow
