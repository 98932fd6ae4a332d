"""The "first to N, counted out in order" end (`[end] first_to`): loading and the engine's counting."""

from __future__ import annotations

import pytest

from scorepad.engine.game import initial_state, make_game
from scorepad.engine.scoring import apply_hand
from scorepad.errors import RulesetError
from scorepad.rules.loader import load_text
from scorepad.rules.model import Ruleset

BASE = """
format = 1
[game]
id = "race"
name = "Race"
[players]
min = 2
max = 2
[options.target]
default = 5
[fields.a]
scope = "player"
type = "int"
default = 0
[fields.b]
scope = "player"
type = "int"
default = 0
[[score]]
id = "first"
label = "first line"
per = "player"
points = "a"
[[score]]
id = "second"
label = "second line"
per = "player"
points = "b"
"""


def race(end: str) -> Ruleset:
    return load_text(BASE + end, "race.toml")


@pytest.mark.parametrize("end, words", [
    ('[end]\nfirst_to = "target"\nwhen = "max(all_score) >= target"\n', "end.when"),
    ('[end]\nfirst_to = "target"\nwinner = "lowest"\n', "end.winner"),
    ('[end]\nfirst_to = "target"\nrest_of_deal = "maybe"\n', "end.rest_of_deal"),
    ('[end]\nwhen = "max(all_score) >= 5"\nrest_of_deal = "void"\n', "only with end.first_to"),
])
def test_first_to_refuses_when_and_other_winners(end: str, words: str) -> None:
    with pytest.raises(RulesetError) as exc:
        race(end)
    assert words in str(exc.value.problems)


def test_points_stop_at_the_goal_and_the_rest_is_void() -> None:
    rs = race('[end]\nfirst_to = "target"\n')
    game = make_game(rs, ["x", "y"])
    state = initial_state(game)
    # first line: x 3, y 4 (nobody at 5); second line: x +4 reaches 5 with 2 of them and wins.
    result = apply_hand(game, state, {"a": [3, 4], "b": [4, 0]})
    assert result.points == [5, 4]
    assert result.state["winners"] == ["x"]
    assert any("x reaches 5 first (second line)" in e for e in result.events)


def test_two_sides_in_the_same_line_stop_at_the_goal_and_tie() -> None:
    rs = race('[end]\nfirst_to = "target"\ntie = "continue"\n')
    game = make_game(rs, ["x", "y"])
    result = apply_hand(game, initial_state(game), {"a": [2, 3], "b": [9, 9]})
    assert result.points == [5, 5] and not result.state["finished"]
    # the next deal is played in full; the higher total wins
    after = apply_hand(game, result.state, {"a": [1, 3], "b": [0, 0]})
    assert after.points == [1, 3] and after.state["winners"] == ["y"]


def test_rest_of_deal_scored_keeps_every_point_but_the_first_wins() -> None:
    rs = race('[end]\nfirst_to = "target"\nrest_of_deal = "scored"\n')
    game = make_game(rs, ["x", "y"])
    result = apply_hand(game, initial_state(game), {"a": [5, 0], "b": [0, 9]})
    assert result.points == [5, 9] and result.state["winners"] == ["x"]
