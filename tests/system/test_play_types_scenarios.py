"""The hands of a scenario of every bundled game typed question by question in `scorepad play`, on a
real pseudo-terminal as a person types them: what is stored is exactly what the argument form stores."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest

from scorepad.app import games as play
from scorepad.app.scenario import load_scenario
from scorepad.engine.assignments import split_assignments
from scorepad.engine.game import initial_state
from scorepad.errors import ScorepadError
from scorepad.store import Store
from tests.table.typist import QUESTION, Typist

SCENARIOS = Path(__file__).parents[1] / "scenarios"
GAMES = sorted(p.name for p in SCENARIOS.iterdir() if p.is_dir())
# One game in every run (a bidding game with sides); the other games' terminals wait out every
# question: `python -m pytest -m slow` (CI runs them). Every scenario of every game is typed at the
# prompt in-process by tests/table/test_prompt_types_every_scenario.py.
EVERY_RUN = {"spades"}
PROMPTS = [r"hand \d+> ", r"Rematch\? \[Y/n\] ", r"Record\? \[Y/n/e\] ", r"[^\r\n]+: "]


def typed_hands(path: Path) -> tuple[dict[str, Any], list[tuple[list[str], dict[str, Any], list[Any]]]]:
    """The scenario and its hands the argument form records: (typed, hand, points), up to the first refused."""
    data, game = load_scenario(path)
    state = initial_state(game)
    out = []
    for h in data.get("hand", []):
        if "error" in h or h.get("finish") or "input" not in h:
            continue
        try:
            _raw, hand, result = play.type_and_score(game, state, h["input"])
        except ScorepadError:
            break
        out.append((list(h["input"]), json.loads(json.dumps(hand)), result.points))
        state = result.state
        if state["finished"]:
            break
    return data, out


def longest_scenario(game_dir: str) -> Path:
    best, most = None, -1
    for path in sorted((SCENARIOS / game_dir).glob("*.toml")):
        try:
            n = len(typed_hands(path)[1])
        except (ScorepadError, KeyError):
            continue
        if n > most:
            best, most = path, n
    assert best is not None
    return best


def settled(child: Any, text: str) -> str:
    """The last line on the screen once the program has stopped writing: the whole question, however
    the terminal's output was cut into reads."""
    text += child.buffer
    child.buffer = ""
    while True:
        try:
            text += child.read_nonblocking(4096, timeout=0.02)
        except pexpect.TIMEOUT:
            try:             # quiet for a moment: still quiet a little later (a loaded machine pauses mid-output)?
                text += child.read_nonblocking(4096, timeout=0.15)
            except pexpect.TIMEOUT:
                return text.replace("\r", "").rsplit("\n", 1)[-1]


@pytest.mark.parametrize("game_dir", [g if g in EVERY_RUN else pytest.param(g, marks=pytest.mark.slow) for g in GAMES])
def test_play_stores_what_the_argument_form_stores(game_dir: str, tmp_path: Path) -> None:
    path = longest_scenario(game_dir)
    data, hands = typed_hands(path)
    store = Store(tmp_path / "t.db")
    spec = data["ruleset"] + (f":{data['variant']}" if data.get("variant") else "")
    teams = [f"{name}={','.join(members)}" for name, members in (data.get("teams") or {}).items()]
    opts = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in data.get("options", {}).items()]
    row = play.new_game(store, spec, data["players"], teams, opts)
    game = play.game_of(row)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCOREPAD", "XDG_"))}
    env.update(SCOREPAD_DB=str(tmp_path / "t.db"), HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), NO_COLOR="1", TERM="dumb", SCOREPAD_LANG="en")
    child = pexpect.spawn(sys.executable, ["-m", "scorepad", "play"], env=env, encoding="utf-8", timeout=30,
                          dimensions=(50, 2000))
    child.delaybeforesend = None
    child.logfile_read = open(tmp_path / "log.txt", "w")  # noqa: SIM115
    done = 0
    typist: Typist | None = None
    while done < len(hands):
        child.expect(PROMPTS)
        question = settled(child, child.after)
        if question.startswith("Rematch?"):     # the last hand ended the game
            child.sendline("n")
            done += 1
            break
        if question.startswith("hand ") and question.endswith("> "):
            if typist is not None:
                done += 1
                if done == len(hands):
                    break
            typist = Typist(game, split_assignments(game, hands[done][0]))
            child.sendline("")
        elif typist is not None and (question.startswith("Record?") or QUESTION.match(question)):
            child.sendline(typist.answer(question))
    child.sendline("quit")
    child.expect(pexpect.EOF)
    stored = store.hands(row.id)
    assert len(stored) == len(hands), f"{path.name}: {len(stored)} of {len(hands)} hands stored"
    for k, (typed, hand, points) in enumerate(hands):
        where = f"{path.name} hand {k + 1} ({' '.join(typed)})"
        assert stored[k].hand == hand, where
        assert stored[k].points == points, where
