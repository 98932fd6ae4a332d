"""Every bundled ruleset's scenario hands (tests/scenarios/<id>/*.toml) scored through the hand code and
through the per-formula engine, hand after hand: the same result or the same refusal (see
tests/hand_code_check.py). This complements tests/engine/test_engine_equal.py, which holds the engine to a
recorded file; here the two ways of scoring are held to each other, also on the refused hands of the
scenarios and after a game's warm-up, when its hand code takes over in the middle of a game.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from scorepad.app.games import split_assignments, type_hand
from scorepad.app.scenario import load_scenario
from scorepad.engine import game as engine
from scorepad.engine import handcode, scoring
from scorepad.errors import ScorepadError
from scorepad.rules.loader import load_text
from scorepad.rules.registry import load
from tests.engine_golden import PROBE_HANDS, PROBES, SCENARIOS, scenario_id
from tests.hand_code_check import Outcome, both, finish_both, hand_code_counts, outcome

pytestmark = pytest.mark.slow  # every scenario hand scored both ways: `python -m pytest -m slow` (CI runs it)

RULESETS = sorted({p.parent.name for p in SCENARIOS})


def typed_hands(path: Path) -> tuple[engine.Game, list[dict[str, Any]]] | None:
    """The scenario's game and its hands as the engine gets them ({"finish": True} for `finish`);
    hands that cannot be typed (refused before the engine) are left out. None: refused at setup."""
    try:
        data, game = load_scenario(path)
    except ScorepadError:
        return None
    return game, data.get("hand", [])


def _typed(game: engine.Game, state: dict[str, Any], h: dict[str, Any]) -> dict[str, Any] | None:
    try:
        raw = split_assignments(game, h.get("input", []), False)
        hand, missing = type_hand(game, raw, engine.active_players(game, state), state)
    except ScorepadError:
        return None
    return None if missing else hand


def test_every_bundled_ruleset_has_scenarios_here() -> None:
    assert len(RULESETS) >= 30, RULESETS


@pytest.mark.parametrize("path", SCENARIOS, ids=[scenario_id(p) for p in SCENARIOS])
def test_scenario_hands_scored_alike(path: Path) -> None:
    _scored_alike(path)


@pytest.mark.parametrize("rid", RULESETS)
def test_scenario_hands_scored_alike_with_every_loop_kept(rid: str) -> None:
    """The same with no player's or side's formula written out seat by seat: each stays in its loop,
    as long formulas do (handcode._WRITTEN_OUT); the code is made anew for the other limit."""
    with mock.patch.object(handcode, "_WRITTEN_OUT", 0), mock.patch.object(handcode, "_ENTRIES", {}):
        for path in sorted(p for p in SCENARIOS if p.parent.name == rid):
            _scored_alike(path)


def _scored_alike(path: Path) -> None:
    loaded = typed_hands(path)
    if loaded is None:
        pytest.skip("scenario refused at setup: no hands to compare")
    game, hands = loaded
    state = engine.initial_state(game)
    compared = 0
    for number, h in enumerate(hands, 1):
        where = f"{path.name} hand {number}"
        if h.get("finish"):
            got: Outcome = finish_both(game, state, where)
            if got[0] == "result":
                break
            continue
        hand = _typed(game, state, h)
        if hand is None:
            continue
        got, result = both(game, state, hand, where)
        compared += 1
        if result is not None:
            state = result.state
            if state["finished"]:
                break
    assert compared or not any("input" in h for h in hands), "no hand of the scenario reached the engine"


def _sequence(game: engine.Game, hands: list[dict[str, Any]]) -> list[Outcome]:
    """Each typed hand's outcome in turn, as the engine is set up around the call."""
    state = engine.initial_state(game)
    out = []
    for h in hands:
        if h.get("finish"):
            continue
        hand = _typed(game, state, h)
        if hand is None:
            continue
        results: list[engine.HandResult] = []

        def run(hand: dict[str, Any] = hand, state: dict[str, Any] = state,
                into: list[engine.HandResult] = results) -> engine.HandResult:
            into.append(scoring.apply_hand(game, state, hand))
            return into[-1]
        out.append(outcome(run))
        if results:
            state = results[0].state
            if state["finished"]:
                break
    return out


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_hand_code_taking_over_mid_game_scores_alike(ruleset_id: str) -> None:
    """The longest scenario of each ruleset played on a fresh game with a warm-up of two hands (the first
    two formula by formula, the rest through the hand code), hand for hand as the per-formula engine plays
    it; and the hand code does take over: every bundled ruleset is one it can write."""
    paths = [p for p in SCENARIOS if p.parent.name == ruleset_id]
    longest = max(paths, key=lambda p: len(p.read_text(encoding="utf-8")))
    if typed_hands(longest) is None:
        pytest.skip("scenario refused at setup")
    with scoring.per_formula_engine():
        loaded = typed_hands(longest)
        assert loaded is not None
        reference = _sequence(*loaded)
    before = hand_code_counts()
    with mock.patch.object(handcode, "HAND_WARM_UP", 2), mock.patch.dict(handcode._HANDS_SEEN, clear=True):
        loaded = typed_hands(longest)
        assert loaded is not None
        warmed = _sequence(*loaded)
    assert len(warmed) == len(reference)
    for number, (ours, theirs) in enumerate(zip(warmed, reference, strict=True), 1):
        assert ours == theirs, f"{longest.name}, hand {number} reaching the engine"
    scored = [o for o in reference if o[0] == "result"]
    if len(scored) > 2 and all(o[0] == "result" for o in reference[2:]):
        assert hand_code_counts()[0] > before[0], "the hand code scored none of the hands after the warm-up"


def test_every_kind_of_name_read_alike() -> None:
    """Spades with probe lines that read X, others_X, team_X, all_X, lets and counters (tests/engine_golden.py)."""
    base = load("spades")
    game = engine.make_game(load_text(base.text + PROBES, base.source), ["ann", "bob", "cat", "dan"], None,
                            {"target": "100000000000"})
    state = engine.initial_state(game)
    for bids, tricks in PROBE_HANDS * 3:
        raw = split_assignments(game, [f"bid={','.join(map(str, bids))}", f"tricks={','.join(map(str, tricks))}"])
        hand, missing = type_hand(game, raw, engine.active_players(game, state), state)
        assert not missing
        before = copy.deepcopy(hand)
        got, result = both(game, state, hand, f"bids {bids}")
        assert got[0] == "result" and result is not None and hand == before
        state = result.state
