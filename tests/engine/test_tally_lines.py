"""A score line whose `to` leaves out `score` keeps a tally beside the score (Preferans' pool and
mountain): it goes to its counters and the breakdown, but not into the hand's points."""

from __future__ import annotations

from scorepad.engine.game import initial_state, make_game
from scorepad.engine.scoring import apply_hand
from scorepad.rules.loader import load_text

TALLY = """
format = 1
[game]
id = "tally"
name = "Tally"
[players]
min = 2
max = 2
[fields.a]
scope = "player"
type = "int"
[state.side]
pool = 0
[[score]]
id = "pool"
label = "pool"
per = "player"
points = "a"
to = ["pool"]
[[score]]
id = "bonus"
label = "bonus"
per = "player"
points = "1"
[[rule]]
id = "score_from_pool"
label = "from the pool"
set = { score = "score + 10 * pool" }
"""


def test_a_tally_line_is_no_part_of_the_points() -> None:
    game = make_game(load_text(TALLY, "tally.toml"), ["x", "y"])
    result = apply_hand(game, initial_state(game), {"a": [2, 0]})
    # x: bonus 1 to the score, pool +2 beside it, then the rule adds 10 x 2 = 20: points 21, not 23
    assert result.points == [21, 1]
    assert [s["pool"] for s in result.state["sides"]] == [2, 0]
    assert [s["score"] for s in result.state["sides"]] == [21, 1]
    assert [(line.label, line.points) for line in result.breakdown[0]] == [
        ("pool", 2), ("bonus", 1), ("from the pool", 20)]
