"""Record what an engine gives for every scenario hand, as plain JSON data.

tests/data/engine_golden.json holds that record as the engine gave it before generated formula code,
lazy name tables and the shaped state copy (closure-tree formulas, per-hand name tables, deepcopy);
tests/engine/test_engine_equal.py and tests/engine/test_engine_names.py check that the engine still gives exactly it.
After an intended change of scoring, rewrite it from the current engine and review the diff:

    python -m tests.engine_golden
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from types import ModuleType
from typing import Any

from scorepad.app.scenario import load_scenario
from scorepad.engine.assignments import split_assignments, type_hand
from scorepad.engine.scoring import apply_hand
from scorepad.errors import ScorepadError
from scorepad.rules.loader import load_text
from scorepad.rules.registry import load

HERE = Path(__file__).parent
GOLDEN = HERE / "data" / "engine_golden.json"
SCENARIOS = sorted((HERE / "scenarios").rglob("*.toml"))

# The names a player's and a side's formulas see (X, others_X, team_X, all_X, lets included).
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
PROBE_HANDS = (([3, 2, 4, 1], [4, 2, 5, 2]), ([1, 5, 2, 3], [1, 6, 2, 4]), ([2, 2, 2, 2], [3, 3, 3, 4]))


def plain(value: Any) -> Any:
    """The value as JSON gives it back (tuples as lists, keys as strings), so a record compares to the file."""
    return json.loads(json.dumps(value, sort_keys=True))


def _words(breakdown: Any) -> list[Any]:
    """Each line's label, points and counters: the record holds what the sheet shows, not the line's id."""
    return [[(line.label, line.points, line.to) for line in items] for items in breakdown]


def scenario_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def _outcome(run: Any) -> list[Any]:
    try:
        result = run()
    except ScorepadError as exc:
        return ["error", [type(exc).__name__, str(exc), list(getattr(exc, "details", []) or [])]]
    if isinstance(result, (dict, list)):
        return ["value", result]
    return ["result", [result.state, result.points, _words(result.breakdown), result.events]]


def record_scenario(eng: ModuleType, path: Path) -> dict[str, Any] | None:
    """Initial state, then per hand: its outcome and the next-hand and side display before it.
    None when the scenario is refused at setup (no hands to record)."""
    try:
        data, game = load_scenario(path)
    except ScorepadError:
        return None
    state = eng.initial_state(game)
    hands: list[dict[str, Any]] = []
    out = {"initial_state": state, "hands": hands}
    for number, h in enumerate(data.get("hand", []), 1):
        before = copy.deepcopy(state)
        if h.get("finish"):
            outcome = _outcome(lambda state=state: eng.finish_game(game, state))
        else:
            try:
                raw = split_assignments(game, h.get("input", []), False)
                hand, missing = type_hand(game, raw, eng.active_players(game, state), state)
            except ScorepadError:
                continue
            if missing:
                continue
            outcome = _outcome(lambda state=state, hand=hand: apply_hand(game, state, hand))
        assert state == before, f"hand {number} of {path.name}: the state given to the engine was changed"
        hands.append({"hand": number, "outcome": outcome,
                      "next_hand_info": _outcome(lambda state=state: eng.next_hand_info(game, state)),
                      "side_display": _outcome(lambda state=state: eng.side_display(game, state))})
        if outcome[0] == "result":
            state = outcome[1][0]
            if state["finished"]:
                break
    return plain(out)


def record_names(eng: ModuleType) -> list[Any]:
    """Three spades hands scored with probe formulas that read every kind of name."""
    base = load("spades")
    game = eng.make_game(load_text(base.text + PROBES, base.source), ["ann", "bob", "cat", "dan"], None,
                         {"target": "1000000"})
    state = eng.initial_state(game)
    out = []
    for bids, tricks in PROBE_HANDS:
        raw = split_assignments(game, [f"bid={','.join(map(str, bids))}", f"tricks={','.join(map(str, tricks))}"])
        hand, missing = type_hand(game, raw, eng.active_players(game, state), state)
        assert not missing
        res = apply_hand(game, state, hand)
        out.append([res.state, res.points, _words(res.breakdown), res.events])
        state = res.state
    return plain(out)


def record(eng: ModuleType) -> dict[str, Any]:
    return {"scenarios": {scenario_id(p): record_scenario(eng, p) for p in SCENARIOS}, "names": record_names(eng)}


def read() -> dict[str, Any]:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def write(data: dict[str, Any]) -> None:
    """Sorted keys, one line per scenario, so a change of scoring shows as a diff of the scenarios it touches."""
    def dump(value: Any) -> str:
        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    lines = [f"{dump(k)}:{dump(v)}" for k, v in sorted(data["scenarios"].items())]
    text = '{"names":' + dump(data["names"]) + ',\n"scenarios":{\n' + ",\n".join(lines) + "\n}}\n"
    GOLDEN.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    from scorepad.engine import game as engine

    write(record(engine))
    print(f"wrote {GOLDEN}")
