"""Every hand of every bundled scenario, typed question by question at the hand prompt, stores exactly
what the argument form stores: the same typed hand and the same points, with no question asked forever."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorepad.app.games import type_and_score
from scorepad.app.scenario import load_scenario
from scorepad.engine.assignments import split_assignments
from scorepad.engine.game import initial_state
from scorepad.errors import ScorepadError
from scorepad.table.prompt import HandPrompt
from tests.table.typist import Typist

SCENARIOS = Path(__file__).parents[1] / "scenarios"
GAMES = sorted(p.name for p in SCENARIOS.iterdir() if p.is_dir())


@pytest.mark.parametrize("game_dir", GAMES)
def test_the_prompt_stores_what_the_argument_form_stores(game_dir: str) -> None:
    typed = 0
    for path in sorted((SCENARIOS / game_dir).glob("*.toml")):
        try:
            data, game = load_scenario(path)
        except ScorepadError:
            continue
        state = initial_state(game)
        for n, h in enumerate(data.get("hand", []), 1):
            if "error" in h or h.get("finish") or "input" not in h:
                continue
            try:
                _raw, want_hand, want = type_and_score(game, state, h["input"])
            except ScorepadError:
                break
            typist = Typist(game, split_assignments(game, h["input"]))
            got = HandPrompt(game, state, typist, None, hand_no=n).run()
            where = f"{path.name} hand {n} ({' '.join(h['input'])})\n" + "\n".join(typist.transcript)
            assert got.hand == want_hand, where
            assert got.result.points == want.points, where
            typed += 1
            state = want.state
    assert typed > 0
