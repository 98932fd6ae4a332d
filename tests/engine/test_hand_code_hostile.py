"""The hostile rulesets (tests/hostile/) meet the hand code: refused at load exactly as before when every
hand goes through the hand code, and, let past the load-time estimate (as a ruleset pinned before the
estimate existed would be), their costly formulas refused while a hand is scored by the step budget and
the counter guard, alike through the hand code and through the per-formula engine, in the same words
(tests/rules/test_hostile.py runs them through the CLI; tests/rules/test_budget.py shows the budget itself).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import scorepad.rules.loader as loader_module
from scorepad.engine import game as engine
from scorepad.engine import scoring
from scorepad.errors import ScorepadError
from scorepad.rules.model import Ruleset
from scorepad.rules.registry import load
from tests.hand_code_check import both, hand_code_on
from tests.rules.test_hostile import FILES, expectation

COSTLY = [p for p in FILES if p.name.startswith("cost_")]


def _refusal(path: Path) -> tuple[str, str, list[str]] | None:
    try:
        rs = load(str(path))
        engine.make_game(rs, ["ann", "bob"])
    except ScorepadError as exc:
        return type(exc).__name__, exc.message, list(exc.problems)
    return None


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_hostile_ruleset_refused_alike_with_hand_code(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(path.parent)  # derived files name their base by a relative path
    with scoring.per_formula_engine():
        reference = _refusal(path)
    with hand_code_on():
        ours = _refusal(path)
    assert reference is not None, f"{path.name} is no longer refused"
    assert ours == reference
    assert expectation(path) in " ".join([reference[1], *reference[2]])


def _hands(game: engine.Game) -> list[dict[str, Any]]:
    """Plain hands of the game: each field's first legal value (then a large number, so that checks over the
    numbers fail and their messages are shown), for each player or side of its scope."""
    out = []
    for number in (1, 999):
        hand: dict[str, Any] = {}
        for fname, fdef in game.ruleset.fields.items():
            value: Any = {"int": number, "number": number, "bool": False, "cards": [],
                          "word": (fdef.values or ("",))[0], "player": game.players[0],
                          "side": game.sides[0].name}.get(fdef.type, fdef.default)
            if fdef.scope == "player":
                hand[fname] = [value] * len(game.players)
            elif fdef.scope == "side":
                hand[fname] = [value] * len(game.sides)
            else:
                hand[fname] = value
        out.append(hand)
    return out


def _past_the_estimate(path: Path, monkeypatch: pytest.MonkeyPatch) -> Ruleset | None:
    monkeypatch.setattr(loader_module, "cost_problems", lambda rs: [])
    try:
        return load(str(path))
    except ScorepadError:
        return None  # refused for another reason than its cost: nothing to play


def _play(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The file's hands scored through both engines (compared as they go); the outcomes."""
    rs = _past_the_estimate(path, monkeypatch)
    if rs is None:
        return []
    players = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lea"][:rs.max_players]
    try:
        game = engine.make_game(rs, players)
        state = engine.initial_state(game)
    except ScorepadError as exc:  # the [state] starts themselves refused: no hand to score
        return [("error", type(exc).__name__, exc.message)]
    outcomes = []
    for number, hand in enumerate(_hands(game), 1):
        got, result = both(game, state, hand, f"{path.name} hand {number}")
        outcomes.append(got)
        if result is not None:
            state = result.state
    return outcomes


@pytest.mark.parametrize("path", COSTLY, ids=[p.name for p in COSTLY])
def test_costly_hand_scored_or_refused_alike_past_the_estimate(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not _play(path, monkeypatch):
        pytest.skip("refused at load for more than its cost: no hand to score")


def test_costly_hands_run_out_of_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Most costly files really do run a hand out of budget (the estimate is a worst case: some do not, such
    as a comparison of lists whose rows are one list), so the comparison above covers the budget's refusals."""
    refused = {path.name for path in COSTLY
               if any(o[0] == "error" and ("steps" in o[2] or "counter holds" in o[2]) for o in _play(path, monkeypatch))}
    assert len(refused) >= len(COSTLY) // 2, sorted(refused)
