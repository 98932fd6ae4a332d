"""The fast engine (generated formula code, names filled in when read, the shaped state copy)
scores every scenario hand exactly as the engine before it did, with the closure-tree formulas."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from scorepad import engine, expr
from scorepad.errors import ScorepadError
from scorepad.expr import reference_evaluation
from scorepad.play import split_assignments, type_hand
from scorepad.scenario import load_scenario
from tests import legacy_engine

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.toml"))


def _outcome(run: Any) -> tuple[str, Any]:
    try:
        result = run()
    except ScorepadError as exc:
        return "error", (type(exc).__name__, str(exc), list(getattr(exc, "details", []) or []))
    if isinstance(result, (dict, list)):
        return "value", result
    return "result", (result.state, result.points, [list(map(tuple, b)) for b in result.breakdown], result.events)


def _legacy(fn: Any, *args: Any) -> Any:
    def run() -> Any:
        with reference_evaluation():
            return fn(*args)
    return run


@pytest.mark.parametrize("path", SCENARIOS, ids=[f"{p.parent.name}/{p.stem}" for p in SCENARIOS])
def test_scenario_scored_as_before(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expr, "WARM_UP", 0)  # every formula as generated code from its first call
    try:
        data, game = load_scenario(path)
    except ScorepadError:
        pytest.skip("scenario refused at setup: no hands to compare")
    state = engine.initial_state(game)
    with reference_evaluation():
        assert legacy_engine.initial_state(game) == state
    compared = 0
    for h in data.get("hand", []):
        before = copy.deepcopy(state)
        if h.get("finish"):
            new = _outcome(lambda state=state: engine.finish_game(game, state))
            old = _outcome(_legacy(legacy_engine.finish_game, game, state))
        else:
            try:
                raw = split_assignments(game, h.get("input", []), False)
                hand, missing = type_hand(game, raw, engine.active_players(game, state), state)
            except ScorepadError:
                continue
            if missing:
                continue
            new = _outcome(lambda state=state, hand=hand: engine.apply_hand(game, state, hand))
            old = _outcome(_legacy(legacy_engine.apply_hand, game, state, hand))
        assert new == old, f"hand {compared + 1} of {path.name}"
        assert state == before, "the state given to the engine is not changed"
        for fn in ("next_hand_info", "side_display"):
            ours = _outcome(lambda fn=fn, state=state: getattr(engine, fn)(game, state))
            theirs = _outcome(_legacy(getattr(legacy_engine, fn), game, state))
            assert ours == theirs, f"{fn} before hand {compared + 1} of {path.name}"
        compared += 1
        if new[0] == "result":
            state = new[1][0]
            if state["finished"]:
                break
