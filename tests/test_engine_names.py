"""The names a player's and a side's formulas see (X, others_X, team_X, all_X of player and side values,
lets included) are what the engine before gave, on a partnership game whose formulas read all of them."""

from __future__ import annotations

import pytest

from scorepad import engine, expr
from scorepad.expr import reference_evaluation
from scorepad.play import split_assignments, type_hand
from scorepad.registry import load
from scorepad.ruleset import load_text
from tests import legacy_engine

PROBES = '''
[[score]]
per = "player"
label = "player probe"
points = "sum(team_tricks) * 1000 + sum(others_tricks) * 10 + tricks + len(all_tricks) + sum(others_numeric_bid) * 100"

[[score]]
per = "side"
label = "side probe"
points = "sum(tricks) * 7 + sum(team_tricks) * 3000 + sum(others_score) + score * 3 + sum(all_bags)"
'''


@pytest.mark.parametrize("warm_up", [0, 100])
def test_every_kind_of_name_reads_as_before(warm_up: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expr, "WARM_UP", warm_up)
    base = load("spades")
    rs = load_text(base.text + PROBES, base.source)
    game = engine.make_game(rs, ["ann", "bob", "cat", "dan"], None, {"target": "1000000"})
    state = engine.initial_state(game)
    for bids, tricks in (([3, 2, 4, 1], [4, 2, 5, 2]), ([1, 5, 2, 3], [1, 6, 2, 4]), ([2, 2, 2, 2], [3, 3, 3, 4])):
        raw = split_assignments(game, [f"bid={','.join(map(str, bids))}", f"tricks={','.join(map(str, tricks))}"])
        hand, missing = type_hand(game, raw, engine.active_players(game, state), state)
        assert not missing
        new = engine.apply_hand(game, state, hand)
        with reference_evaluation():
            old = legacy_engine.apply_hand(game, state, hand)
        assert (new.state, new.points, new.breakdown, new.events) == (old.state, old.points, old.breakdown, old.events)
        assert any(line.label.startswith("player probe") for side in new.breakdown for line in side)
        state = new.state
