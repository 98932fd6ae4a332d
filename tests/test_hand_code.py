"""The hand code (a game's checks, lets, score lines and rules generated as one function) scores every
hand exactly as the per-formula engine does: random small rulesets (tests/random_ruleset.py) and random
hands, each hand scored both ways (tests/hand_code_check.py compares the HandResult or the refusal,
with the type of every number, and that the state given is left as it was).

The step budget is part of the comparison: some examples lower it (formulas over a table of a few
hundred entries run it out), and a hand that runs it out must be refused by both with the same message,
naming the same formula; the hand code gives such a hand back to the per-formula engine on a fresh budget.
"""

from __future__ import annotations

from collections import Counter
from unittest import mock

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorepad import engine, expr
from scorepad.errors import ScorepadError
from scorepad.ruleset import load_text
from tests.hand_code_check import both, finish_both, hand_code_counts
from tests.random_ruleset import Made, hands, rulesets

# A fixed number of examples drawn from a fixed seed: the same rulesets on every run, well under 30 s.
EXAMPLES = 150
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])

# what the examples did, so a test below can show that they exercised what they claim to
SEEN: Counter[str] = Counter()


def play(made: Made, data: st.DataObject, budget: int) -> None:
    try:
        ruleset = load_text(made.text, "random.toml")
        game = engine.make_game(ruleset, made.players, None, {})
        state = engine.initial_state(game)
    except ScorepadError as exc:  # a few draws are refused at load (the cost estimate); the rest play
        SEEN["refused at load"] += 1
        assume(False)
        raise AssertionError from exc
    SEEN["rulesets"] += 1
    side_names = [s.name for s in game.sides]
    with mock.patch.object(expr, "MAX_STEPS", budget):
        for number in range(1, data.draw(st.integers(1, 8), label="hands") + 1):
            hand = data.draw(hands(made, side_names), label=f"hand {number}")
            got, result = both(game, state, hand, f"hand {number}")
            if got[0] == "error":
                SEEN["refused: budget" if "steps" in got[2] else "refused: check" if got[1] == "HandError"
                     and got[4] else "refused: other"] += 1
                continue
            SEEN["scored"] += 1
            assert result is not None
            state = result.state
            if state["finished"]:
                SEEN["game over"] += 1
                return
        finish_both(game, state, "finish")


@SETTINGS
@given(rulesets(), st.data())
def test_hand_code_scores_random_rulesets_as_the_per_formula_engine(made: Made, data: st.DataObject) -> None:
    play(made, data, expr.MAX_STEPS)


@SETTINGS
@given(rulesets(), st.data(), st.sampled_from([60, 400, 3_000, 30_000]))
def test_a_spent_budget_is_refused_alike(made: Made, data: st.DataObject, budget: int) -> None:
    play(made, data, budget)


def test_the_examples_cover_what_they_claim() -> None:
    """Not a test that cannot fail: the random rulesets must load, score, refuse by a check, run out of
    budget and end games, or the comparisons above prove little. When the engine counts the hands
    its hand code scored, some must have been."""
    SEEN.clear()
    before = hand_code_counts()
    test_hand_code_scores_random_rulesets_as_the_per_formula_engine()
    test_a_spent_budget_is_refused_alike()
    assert SEEN["rulesets"] >= EXAMPLES, SEEN
    assert SEEN["refused at load"] <= SEEN["rulesets"] // 4, SEEN
    for what in ("scored", "refused: check", "refused: budget", "refused: other", "game over"):
        assert SEEN[what] >= 10, (what, SEEN)
    after = hand_code_counts()
    if before is not None and after is not None:
        assert after[0] - before[0] >= SEEN["scored"] // 4, (before, after, SEEN)
