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

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from scorepad.engine import game as engine
from scorepad.engine import handcode, scoring
from scorepad.errors import HandError, ScorepadError
from scorepad.rules import expr
from scorepad.rules.loader import load_text
from tests.hand_code_check import both, finish_both, hand_code_counts
from tests.random_ruleset import Made, hands, rulesets

pytestmark = pytest.mark.slow  # random rulesets scored both ways: `python -m pytest -m slow` (CI runs it)

# A fixed number of examples drawn from a fixed seed: the same rulesets on every run, well under 30 s.
EXAMPLES = 200
# No shrinking: a failing example prints its whole ruleset and the hand that differs, and shrinking
# rulesets this size takes minutes.
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])

# what the examples did, so a test below can show that they exercised what they claim to
SEEN: Counter[str] = Counter()


def play(made: Made, data: st.DataObject, budget: int) -> None:
    # the game's options as chosen with --opt now and then, not only the ruleset's defaults
    options = data.draw(st.sampled_from([{}, {}, {"target": "12"}, {"mode": "hi"}, {"target": "30", "mode": "hi"}]),
                        label="options")
    try:
        ruleset = load_text(made.text, "random.toml")
        game = engine.make_game(ruleset, made.players, None, options)
        state = engine.initial_state(game)
    except ScorepadError as exc:  # a few draws are refused at load (the cost estimate); the rest play
        SEEN["refused at load"] += 1
        assume(False)
        raise AssertionError from exc
    SEEN["rulesets"] += 1
    if data.draw(st.integers(0, 4), label="stored before the dealer was kept") == 0:
        del state["dealer"]  # a state stored before it kept the dealer: the dealer follows from the hands
    side_names = [s.name for s in game.sides]
    with mock.patch.object(expr, "MAX_STEPS", budget):
        for number in range(1, data.draw(st.integers(1, 10), label="hands") + 1):
            hand = data.draw(hands(made, side_names), label=f"hand {number}")
            got, result = both(game, state, hand, f"hand {number}")
            if got[0] == "internal error":
                SEEN["internal error"] += 1
                continue
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
def random_rulesets_scored(made: Made, data: st.DataObject) -> None:
    play(made, data, expr.MAX_STEPS)


@SETTINGS
@given(rulesets(), st.data(), st.sampled_from([300, 3_000, 30_000, 300_000]))
def random_rulesets_on_small_budgets(made: Made, data: st.DataObject, budget: int) -> None:
    play(made, data, budget)


def covered(needed: tuple[str, ...]) -> None:
    """Not a test that cannot fail: the random rulesets must load, and their hands score, fail checks,
    fail otherwise, end games (and run out of budget), or the comparisons prove little."""
    assert SEEN["rulesets"] >= EXAMPLES, SEEN
    assert SEEN["refused at load"] <= SEEN["rulesets"] // 4, SEEN
    for what in needed:
        assert SEEN[what] >= 10, (what, SEEN)


def test_random_rulesets_scored_alike() -> None:
    SEEN.clear()
    before = hand_code_counts()
    random_rulesets_scored()
    covered(("scored", "refused: check", "refused: other", "game over"))
    after = hand_code_counts()
    assert after[0] - before[0] >= SEEN["scored"] // 2, (before, after, SEEN)


def test_a_spent_budget_is_refused_alike() -> None:
    SEEN.clear()
    random_rulesets_on_small_budgets()
    covered(("scored", "refused: budget"))


WORD_IN_A_COUNTER = """
[game]
id = "wordcount"
name = "Word count"

[fields.pts]
scope = "player"
type = "int"

[state.side]
tally = 0

[[score]]
per = "player"
label = "points"
points = "pts"
to = ["score", "tally"]

[[rule]]
id = "name_it"
set = { tally = "me" }
"""


def test_points_added_to_a_word_counter_refuse_the_hand() -> None:
    """Found by the random rulesets: a rule may set a counter to a word, and a score line that adds to that
    counter in a later hand must refuse the hand with a sentence (exit 2), as a rule that adds to it does."""
    game = engine.make_game(load_text(WORD_IN_A_COUNTER, "wordcount.toml"), ["ann", "bob"], None, {})
    first = scoring.apply_hand(game, engine.initial_state(game), {"pts": [1, 2]})
    assert [side["tally"] for side in first.state["sides"]] == ["ann", "bob"]
    for warm_up in (10**9, 0):
        with mock.patch.object(handcode, "HAND_WARM_UP", warm_up), pytest.raises(HandError, match="holds the word"):
            scoring.apply_hand(game, first.state, {"pts": [1, 2]})


LONG_MESSAGE = """
[game]
id = "longmessage"
name = "Long message"

[fields.held]
type = "cards"

[fields.pts]
scope = "player"
type = "int"

[[check]]
id = "few_cards"
ok = "len(held) < 3"
message = "only a few cards, not {sorted([len(held) + len(c) for c in held])}"

[[score]]
per = "player"
label = "points"
points = "pts"
"""


def test_a_check_message_out_of_budget_refuses_the_hand() -> None:
    """A failing check whose message runs the hand out of steps refuses the hand with the budget's sentence
    (exit 2), as a formula that runs it out elsewhere does, in both engines."""
    game = engine.make_game(load_text(LONG_MESSAGE, "longmessage.toml"), ["ann", "bob"], None, {})
    state = engine.initial_state(game)
    held = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]
    with mock.patch.object(expr, "MAX_STEPS", 20):
        for warm_up in (10**9, 0):
            with mock.patch.object(handcode, "HAND_WARM_UP", warm_up), pytest.raises(HandError) as refused:
                scoring.apply_hand(game, state, {"held": held, "pts": [1, 2]})
            assert refused.value.message.startswith("this hand cannot be scored:"), refused.value.message
            assert "steps" in refused.value.message
    assert scoring.apply_hand(game, state, {"held": held[:2], "pts": [1, 2]}).points == [1, 2]


TABLE_IN_LOOPS = """
[game]
id = "tableloops"
name = "Table in loops"

[players]
min = 3
max = 3

[options.kind]
default = "plain"
values = ["plain", "odd"]

[tables]
worth = { ace = 11, ten = 10, king = 4 }
bonuses = { ace = 1, ten = 2 }
by_count = { 1 = 5, 2 = 8, 3 = 12 }

[fields.aces]
scope = "player"
type = "int"

[fields.tens]
scope = "player"
type = "int"

[let]
bonus = "bonuses if kind == 'plain' else 0"

[player]
cards = '''(aces * worth['ace'] + tens * worth['ten'] + (worth['missing'] if aces > 3 else 0)
  + by_count[aces + 1])'''

[side]
extra = "sum(team_cards) + bonus['ten']"

[[check]]
id = "few_aces"
per = "player"
ok = "aces * worth['ace'] <= 44"
message = "at most four aces"

[[score]]
per = "player"
label = "cards"
points = "cards + worth['king'] * (1 if kind == 'odd' else 0)"

[[score]]
per = "side"
label = "extra"
points = "extra - bonus['ace']"
"""


@pytest.mark.parametrize("kind", ["plain", "odd"])
def test_table_entries_read_ahead_of_a_loop(kind: str) -> None:
    """An entry of a table named by a word is read once ahead of the loop over the players or sides
    (a let, a check, a score line), one named by a number through its text. An entry that is missing where
    the formula does not read it changes nothing; one of a value that is not a table stops the hand code,
    and the per-formula engine scores the hand."""
    game = engine.make_game(load_text(TABLE_IN_LOOPS, "tableloops.toml"), ["ann", "bob", "cy"], None,
                            {"kind": kind})
    state = engine.initial_state(game)
    before = hand_code_counts()
    _, result = both(game, state, {"aces": [1, 2, 0], "tens": [0, 1, 3]}, kind)
    after = hand_code_counts()
    if kind == "plain":
        # cards 11 + 8, 32 + 12, 30 + 5 (by_count names its entries by number); each side's extra is
        # its player's cards + 2, less 1
        assert result is not None
        assert result.points == [19 + (19 + 2 - 1), 44 + (44 + 2 - 1), 35 + (35 + 2 - 1)]
        assert after[0] == before[0] + 1  # scored by the hand code
    else:  # `bonus` is a number: `bonus['ten']` fails in both
        assert result is None and after[1] == before[1] + 1
    _, refused = both(game, state, {"aces": [5, 0, 0], "tens": [0, 0, 0]}, kind)
    assert refused is None


def test_a_missing_entry_in_a_sum_of_products_refuses_the_hand_alike() -> None:
    """A part of a sum of products read ahead of the loop and missing from its table: the per-formula
    engine refuses the hand naming the entry, and the hand code gives the hand to it."""
    text = TABLE_IN_LOOPS.replace("tens * worth['ten']", "tens * worth['queen']")
    game = engine.make_game(load_text(text, "tableloops.toml"), ["ann", "bob", "cy"], None, {"kind": "plain"})
    before = hand_code_counts()
    refused, result = both(game, engine.initial_state(game), {"aces": [1, 2, 0], "tens": [0, 1, 3]})
    assert result is None and refused[:2] == ("error", "HandError") and "queen" in refused[2], refused
    assert hand_code_counts()[1] == before[1] + 1


SUM_OF_A_LIST = """
[game]
id = "sumlist"
name = "Sum of a list"

[players]
min = 3
max = 3

[fields.pts]
scope = "player"
type = "int"

[[score]]
per = "player"
label = "all of it"
points = "sum(all_pts)"
"""


@pytest.mark.parametrize("pts", [[10**15, 1, -5], [-(10**15), -1, 5], [10**15, -(10**15), 3], [3, 0, 4], [0, 0, 0],
                                 [10**15 - 7, 7, 0], [10**15 - 7, 8, 0], [2, -3, 1]])
def test_a_list_summed_as_the_per_formula_engine_does(pts: list[int]) -> None:
    """sum() of whole numbers: every partial sum within the cap or the hand is refused, whichever way the
    hand code finds that out (none below 0 and the total within the cap, or the sizes together)."""
    game = engine.make_game(load_text(SUM_OF_A_LIST, "sumlist.toml"), ["ann", "bob", "cy"], None, {})
    _, result = both(game, engine.initial_state(game), {"pts": pts})
    partials = [sum(pts[:j]) for j in range(1, len(pts) + 1)]
    assert (result is not None) == all(abs(p) <= 10**15 for p in partials), (pts, result)
