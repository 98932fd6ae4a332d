"""Hands refused with a sentence (exit 2) where a ruleset lets a value go wrong in a later hand or a
refusal's own message runs the hand out of steps: never a traceback, never a half-scored hand."""

from __future__ import annotations

from unittest import mock

import pytest

from scorepad.engine import game as engine
from scorepad.engine.scoring import apply_hand
from scorepad.errors import HandError
from scorepad.rules import expr
from scorepad.rules.loader import load_text

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
    """A rule may set a counter to a word; a score line that adds to that counter in a later hand
    refuses the hand with a sentence, as a rule that adds to it does."""
    game = engine.make_game(load_text(WORD_IN_A_COUNTER, "wordcount.toml"), ["ann", "bob"], None, {})
    first = apply_hand(game, engine.initial_state(game), {"pts": [1, 2]})
    assert [side["tally"] for side in first.state["sides"]] == ["ann", "bob"]
    with pytest.raises(HandError, match="holds the word"):
        apply_hand(game, first.state, {"pts": [1, 2]})


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
    """A failing check whose message runs the hand out of steps refuses the hand with the budget's
    sentence, as a formula that runs it out elsewhere does."""
    game = engine.make_game(load_text(LONG_MESSAGE, "longmessage.toml"), ["ann", "bob"], None, {})
    state = engine.initial_state(game)
    held = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]
    with mock.patch.object(expr, "MAX_STEPS", 20), pytest.raises(HandError) as refused:
        apply_hand(game, state, {"held": held, "pts": [1, 2]})
    assert refused.value.message.startswith("this hand cannot be scored:"), refused.value.message
    assert "steps" in refused.value.message
    assert apply_hand(game, state, {"held": held[:2], "pts": [1, 2]}).points == [1, 2]
