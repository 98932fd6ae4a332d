"""Every line of a bundled ruleset is noticed by its scenarios: a scenario that passes whatever a line says
tests nothing about that line.

For each bundled ruleset, one thing at a time is changed (a mutant) and the ruleset's scenario files are
played against it; some scenario must then fail (a mismatch, or an error while playing). The changes:
a [[score]] line's points + 1, a [[rule]]'s `when` negated, a [[check]]'s `ok` made always true (the same
for the entries of each `[variants.NAME]`), and a numeric `[let]`/`[player]`/`[side]` formula + 1. A
mutant that no longer loads (a let used where only a number of cards fits, say) is not counted as
noticed: it is counted apart, and the test only asks that every mutant that loads is noticed. A line no
scenario can reach (a check an earlier field validation already covers) is listed in DEAD with its
reason. `python -m tests.rules.test_every_line_is_noticed` prints the figures.
"""

from __future__ import annotations

import ast
import copy
import functools
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from scorepad.app.scenario import run_scenario
from scorepad.errors import ScorepadError
from scorepad.rules.bundled import bundled_dir
from scorepad.rules.loader import load_text
from scorepad.rules.model import Ruleset
from scorepad.rules.registry import ruleset_id

pytestmark = pytest.mark.slow  # every line of every bundled ruleset against its scenarios: `python -m pytest -m slow`

SCENARIO_DIR = Path(__file__).parents[1] / "scenarios"
RULESET_FILES = sorted(bundled_dir().glob("*.toml"))

# (game id, mutant) -> why no scenario can notice it. Only lines that cannot be reached belong here.
DEAD: dict[tuple[str, str], str] = {}

# Functions whose value is a number: a formula that is one of these (or arithmetic) is numeric.
_NUMERIC_CALLS = {"sum", "len", "count", "max", "min", "abs", "round", "int", "floor", "ceil", "index",
                  "points", "card_points", "rank_value"}


@dataclass
class Audit:
    """What one ruleset's mutants gave."""

    mutants: int = 0
    unloadable: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _numeric(formula: str) -> bool:
    """Whether a formula's value is a number by its shape (arithmetic, a number, a counting function, or a
    conditional of such): + 1 on a truth value or a name would test the language, not the ruleset."""
    try:
        node = ast.parse(formula.strip(), mode="eval").body
    except SyntaxError:
        return False
    return _numeric_node(node)


def _numeric_node(node: ast.expr) -> bool:
    if isinstance(node, ast.IfExp):
        return _numeric_node(node.body) and _numeric_node(node.orelse)
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.BinOp):
        return not isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor))
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.USub)
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in _NUMERIC_CALLS
    return False


def _entry_mutants(table: dict[str, Any], where: list[str], prefix: str) -> Iterator[tuple[str, list[str], str]]:
    """(name, path to the key, new value) for the [[score]], [[rule]] and [[check]] entries of one table."""
    for i, entry in enumerate(table.get("score", [])):
        if isinstance(entry, dict) and isinstance(entry.get("points"), str):
            yield f"{prefix}score {entry.get('id')}", [*where, "score", str(i), "points"], f"({entry['points']}) + 1"
    for i, entry in enumerate(table.get("rule", [])):
        if isinstance(entry, dict) and isinstance(entry.get("when"), str):
            yield f"{prefix}rule {entry.get('id')}", [*where, "rule", str(i), "when"], f"not ({entry['when']})"
    for i, entry in enumerate(table.get("check", [])):
        if isinstance(entry, dict) and isinstance(entry.get("ok"), str):
            yield f"{prefix}check {entry.get('id')}", [*where, "check", str(i), "ok"], "True"


def mutants(data: dict[str, Any]) -> Iterator[tuple[str, str | None, dict[str, Any]]]:
    """(name, the variant it belongs to or None, the mutated ruleset) for every line this audit changes."""
    changes: list[tuple[str, str | None, list[str], str]] = []
    changes += [(n, None, p, v) for n, p, v in _entry_mutants(data, [], "")]
    for section in ("let", "player", "side"):
        for key, formula in (data.get(section) or {}).items():
            if isinstance(formula, str) and _numeric(formula):
                changes.append((f"{section} {key}", None, [section, key], f"({formula}) + 1"))
    for variant, overlay in (data.get("variants") or {}).items():
        if isinstance(overlay, dict):
            changes += [(n, variant, p, v) for n, p, v in
                        _entry_mutants(overlay, ["variants", variant], f"variant {variant}: ")]
    for name, variant, path, value in changes:
        mutated = copy.deepcopy(data)
        node: Any = mutated
        for step in path[:-1]:
            node = node[int(step)] if isinstance(node, list) else node[step]
        node[path[-1]] = value
        yield name, variant, mutated


@functools.cache
def scenarios_by_game() -> dict[str, list[tuple[Path, str | None]]]:
    """Every scenario file with the variant it plays, by the id of the game it names (by id, alias or
    native name: `ruleset = "две руки"` is two-hands-down's). Read when the audit runs, not when tests are collected."""
    out: dict[str, list[tuple[Path, str | None]]] = {}
    for path in sorted(SCENARIO_DIR.rglob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        spec = str(data["ruleset"])
        game = ruleset_id(spec.rpartition(":")[0] if ":" in spec else spec)
        variant = data.get("variant") or (spec.rpartition(":")[2] if ":" in spec else None)
        out.setdefault(game, []).append((path, variant))
    return out


def _noticed(path: Path, ruleset: Ruleset) -> bool:
    try:
        return bool(run_scenario(path, ruleset))
    except Exception:  # noqa: BLE001 - a mutant that makes a scenario crash is noticed by it
        return True


def audit(ruleset_file: Path, scenarios: list[tuple[Path, str | None]]) -> Audit:
    """Play `scenarios` against every mutant of one ruleset file."""
    start = time.perf_counter()
    data = tomllib.loads(ruleset_file.read_text(encoding="utf-8"))
    result = Audit()
    for name, variant, mutated in mutants(data):
        result.mutants += 1
        text = tomli_w.dumps(mutated)
        playing = [(p, v) for p, v in scenarios if variant is None or v == variant]
        loaded: dict[str | None, Ruleset] = {}
        try:
            for v in {v for _p, v in playing}:
                loaded[v] = load_text(text, ruleset_file.name, v)
        except ScorepadError:
            result.unloadable.append(name)
            continue
        if not any(_noticed(p, loaded[v]) for p, v in playing):
            result.missed.append(name)
    result.seconds = time.perf_counter() - start
    return result



def _game_id(path: Path) -> str:
    return str(tomllib.loads(path.read_text(encoding="utf-8"))["game"]["id"])


@pytest.mark.parametrize("ruleset_file", RULESET_FILES, ids=[p.stem for p in RULESET_FILES])
def test_every_line_is_noticed(ruleset_file: Path) -> None:
    game = _game_id(ruleset_file)
    scenarios = scenarios_by_game().get(game, [])
    assert scenarios, f"{game}: no scenario file plays this ruleset"
    result = audit(ruleset_file, scenarios)
    missed = [m for m in result.missed if (game, m) not in DEAD]
    assert not missed, f"{game}: no scenario notices these lines changed: {', '.join(missed)}"
    stale = [m for (g, m) in DEAD if g == game and m not in result.missed]
    assert not stale, f"{game}: DEAD lists lines that a scenario does notice (or that are gone): {stale}"


def test_a_changed_line_is_noticed_and_an_unplayed_one_is_not(tmp_path: Path) -> None:
    """The audit itself: a scenario that expects a hand's points notices a score line changed, and a
    check whose refusal no scenario tries is reported missed."""
    ruleset_file = bundled_dir() / "ace-clears.toml"
    scenario = tmp_path / "one.toml"
    scenario.write_text('ruleset = "ace-clears"\nplayers = ["a", "b"]\n'
                        '[[hand]]\ninput = ["loser=b"]\npoints = [0, 1]\n', encoding="utf-8")
    result = audit(ruleset_file, [(scenario, None)])
    assert "score lost" not in result.missed
    assert "check winner_not_loser" in result.missed
    assert "check place_once" in result.missed


if __name__ == "__main__":
    total = noticed = unloadable = 0
    began = time.perf_counter()
    for file in RULESET_FILES:
        got = audit(file, scenarios_by_game().get(_game_id(file), []))
        total += got.mutants
        unloadable += len(got.unloadable)
        noticed += got.mutants - len(got.unloadable) - len(got.missed)
        for m in got.missed:
            key = (_game_id(file), m)
            print(*key, "(dead)" if key in DEAD else "")
        for m in got.unloadable:
            print(_game_id(file), m, "(does not load)")
    print(f"{total} mutants, {noticed} noticed, {unloadable} do not load, "
          f"{total - noticed - unloadable} missed, {time.perf_counter() - began:.1f} s")
