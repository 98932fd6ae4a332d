"""The work of formulas is bounded: a static estimate at load and a step budget per hand.

The hostile rulesets (tests/hostile/cost_*.toml) are refused at load by the estimate (test_hostile.py
runs them); these tests show the budget itself: it stops a formula with an error naming it, the hand
is refused with nothing stored, a pinned ruleset that is too costly gives a plain error in `verify`
and `standings`, and on every bundled ruleset's scenario hands the steps counted never exceed the
estimate (so a ruleset that passes `rules check` is never stopped mid-game).
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings

import scorepad.rules.expr as expr
import scorepad.rules.loader as loader_module
from scorepad.engine.game import initial_state, make_game
from scorepad.engine.scoring import apply_hand
from scorepad.errors import FormulaError, ScorepadError
from scorepad.rules.cost import SCALAR, estimate, hand_steps, value_size
from scorepad.rules.expr import BudgetError, compile_formula, formula_budget
from scorepad.rules.loader import load_text
from scorepad.rules.registry import entries
from scorepad.rules.values import format_value
from tests.conftest import Run, dump
from tests.engine.test_properties import ENV as PROPERTY_ENV
from tests.engine.test_properties import NAMES as PROPERTY_NAMES
from tests.engine.test_properties import expressions
from tests.replay import scenario_hands
from tests.speed import within

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = Path(__file__).resolve().parents[1] / "hostile"

# Passes the estimate (about 30,000 steps a hand: 2 x 1,999 items x a few parts), so a game starts;
# the tests lower the runtime budget to see it stop the hand.
MODERATE = """
[game]
id = "moderate"
name = "Moderate"

[tables]
t = [{}]

[fields.pts]
scope = "player"
type = "int"
min = 0
max = 100

[let]
big = "count([x for x in t if x > 5])"

[[score]]
per = "player"
label = "points"
points = "pts"
""".format(", ".join(str(i) for i in range(1999)))


def test_budget_stops_a_loop_and_names_the_formula() -> None:
    f = compile_formula("sum([count(t, x) for x in t])", "score[3].points", ["t"])
    env = {"t": list(range(300))}
    start = time.perf_counter()
    with formula_budget(10_000), pytest.raises(BudgetError) as caught:
        f(env)
    assert within(time.perf_counter() - start, 0.5)
    assert caught.value.message.startswith("score[3].points: ")
    assert "10,000 steps" in caught.value.message
    # the same evaluation on a budget that is big enough gives the real answer
    with formula_budget(1_000_000):
        assert f(env) == 300


def test_a_spent_budget_names_the_formula_that_spent_it() -> None:
    heavy = compile_formula("[x for x in t]", "let.heavy", ["t"])
    light = compile_formula("1 + 1", "let.light", [])
    with formula_budget(100):
        with pytest.raises(BudgetError, match=r"let\.heavy"):
            heavy({"t": list(range(500))})
        with pytest.raises(BudgetError, match=r"let\.heavy"):  # nothing more runs on a spent budget
            light({})


def test_each_part_and_each_item_is_counted() -> None:
    f = compile_formula("sum([x * 2 for x in t if x > 0])", "k", ["t"])

    def used(n: int) -> int:
        with formula_budget(10**9) as budget:
            f({"t": list(range(1, n + 1))})
        return 10**9 - budget.left

    assert used(0) == f.weight  # the parts once
    assert used(8) - used(4) == used(4) - used(0) > 4  # then the same for each item (body and sum)


def test_a_formula_outside_the_engine_has_a_budget_of_its_own() -> None:
    f = compile_formula("sum([count(t, x) for x in t])", "fields.x.max", ["t"])
    start = time.perf_counter()
    with pytest.raises(BudgetError, match=r"fields\.x\.max"):
        f({"t": list(range(2000))})  # 4 million steps: stopped at one million
    assert within(time.perf_counter() - start, 2)


def test_equality_of_nested_lists_is_counted() -> None:
    """`==` on lists of lists goes through every item: counted, so shared rows cannot hide the work."""
    row = list(range(1000))
    a = [row for _ in range(1000)]
    b = [list(row) for _ in range(1000)]
    f = compile_formula("a == b", "check[0].ok", ["a", "b"])
    with formula_budget(50_000), pytest.raises(BudgetError, match=r"check\[0\].ok"):
        f({"a": a, "b": b})
    with formula_budget(10**7):
        assert f({"a": a, "b": b}) is True
        assert compile_formula("a in [b]", "k", ["a", "b"])({"a": a, "b": b}) is True


def test_a_huge_nested_value_is_shown_cut_short() -> None:
    row = list(range(2000))
    grid = [row] * 2000
    cube = [grid] * 2000  # 8 billion numbers if written out
    start = time.perf_counter()
    text = format_value(cube)
    assert within(time.perf_counter() - start, 0.5)
    assert len(text) <= 1100
    deep: list[Any] = [1]
    for _ in range(5000):
        deep = [deep, 2]
    text = format_value(deep)  # 5,000 lists deep: cut at 20, no RecursionError
    assert text.startswith("...") and len(text) <= 1100


def test_card_functions_refuse_a_list_instead_of_printing_it() -> None:
    rs = load_text('[game]\nid = "c"\nname = "C"\n[fields.hand]\ntype = "cards"\n'
                   '[let]\nx = "has(hand, [hand, hand])"\n[[score]]\npoints = 1\n', "c.toml")
    with pytest.raises(FormulaError, match="not a list"):
        rs.hand_lets[0].formula({"hand": ["QS"]})


# --------------------------------------------------------------------------- through the CLI


def test_hand_over_the_budget_is_refused_and_nothing_stored(cli: Callable[..., Run], db: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "moderate.toml"
    path.write_text(MODERATE)
    assert cli("rules", "check", str(path)).code == 0
    assert cli("new", str(path), "ann", "bob").code == 0
    assert cli("hand", "pts=1,2").code == 0
    before = dump(db)
    monkeypatch.setattr(expr, "MAX_STEPS", 5_000)
    start = time.perf_counter()
    r = cli("hand", "pts=3,4")
    assert within(time.perf_counter() - start, 1)
    assert r.code == 2, r.err
    assert "let.big" in r.err and "5,000 steps" in r.err
    assert "Traceback" not in r.err and "internal error" not in r.err
    assert dump(db) == before
    monkeypatch.setattr(expr, "MAX_STEPS", 1_000_000)
    assert cli("hand", "pts=3,4").code == 0


def test_standings_over_the_budget_give_a_plain_error(cli: Callable[..., Run], db: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "moderate.toml"
    path.write_text(MODERATE + '\n[display.side]\nbig = "count([x for x in t if x > 5])"\n')
    assert cli("new", str(path), "ann", "bob").code == 0
    assert cli("standings").code == 0
    monkeypatch.setattr(expr, "MAX_STEPS", 5_000)
    start = time.perf_counter()
    r = cli("standings")
    assert within(time.perf_counter() - start, 1)
    assert r.code == 2 and "display.side.big" in r.err and "5,000 steps" in r.err, r.out + r.err
    assert "Traceback" not in r.err


def _pin(db: Path, text: str) -> None:
    """Pin another ruleset text (under its true hash) to every game, as an older version could have."""
    import hashlib

    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    con = sqlite3.connect(db)
    with con:
        con.execute("INSERT INTO rulesets(hash, ruleset_id, source, text) SELECT ?, ruleset_id, source, ? "
                    "FROM rulesets LIMIT 1", (digest, text))
        con.execute("UPDATE games SET ruleset_hash = ?", (digest,))
    con.close()


@pytest.mark.parametrize("name", ["cost_count_in_loop.toml", "cost_display_side.toml"])
def test_pinned_costly_ruleset_gives_plain_errors(cli: Callable[..., Run], db: Path, tmp_path: Path,
                                                  name: str) -> None:
    path = tmp_path / "moderate.toml"
    path.write_text(MODERATE.replace('id = "moderate"', 'id = "evil"'))
    assert cli("new", str(path), "ann", "bob").code == 0
    assert cli("hand", "pts=1,2").code == 0
    _pin(db, (HOSTILE / name).read_text())
    for command in (("verify",), ("standings",), ("hand", "pts=1,1"), ("games",)):
        start = time.perf_counter()
        r = cli(*command)
        assert within(time.perf_counter() - start, 2), command
        assert "Traceback" not in r.err + r.out and "internal error" not in r.err, (command, r.err)
        if command != ("games",):
            assert r.code in (1, 2), (command, r.out, r.err)
            assert "steps" in r.err + r.out, (command, r.out, r.err)


def test_import_of_a_game_with_a_costly_pinned_ruleset_is_refused(cli: Callable[..., Run], db: Path,
                                                                 tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "moderate.toml"
    path.write_text(MODERATE)
    assert cli("new", str(path), "ann", "bob").code == 0
    assert cli("hand", "pts=1,2").code == 0
    out = tmp_path / "game.toml"
    assert cli("export", "--output", str(out), "--format", "toml").code == 0
    text = out.read_text()
    assert 'big = \\"count([x for x in t if x > 5])\\"' in text or "count([x for x in t if x > 5])" in text
    evil = tmp_path / "evil-game.toml"
    evil.write_text(text.replace("count([x for x in t if x > 5])", "sum([count(t, x) for x in t])"))
    other = tmp_path / "other.db"
    monkeypatch.setenv("SCOREPAD_DB", str(other))
    start = time.perf_counter()
    r = cli("import", str(evil))
    assert within(time.perf_counter() - start, 2)
    assert r.code == 2, r.out + r.err
    assert "let.big" in r.err and "steps" in r.err
    assert "Traceback" not in r.err
    assert cli("games").out.count("moderate") == 0


def test_a_counter_holds_no_list_even_past_the_estimate(cli: Callable[..., Run], db: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine refuses a list for a counter too (a pinned ruleset read before the estimate existed)."""
    monkeypatch.setattr(loader_module, "cost_problems", lambda rs: [])
    path = tmp_path / "grow.toml"
    path.write_text((HOSTILE / "cost_counter_list.toml").read_text())
    assert cli("new", str(path), "ann", "bob").code == 0
    before = dump(db)
    r = cli("hand", "pts=1,2")
    assert r.code == 2 and "rule[0].set.history" in r.err and "a counter holds" in r.err, r.err
    assert dump(db) == before


# --------------------------------------------------------------------------- the estimate bounds the budget


class _Counting(expr.Budget):
    made: ClassVar[list[_Counting]] = []

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        _Counting.made.append(self)


def _scenario_games() -> list[tuple[str, Any, list[dict[str, Any]]]]:
    out = []
    for rid in sorted(entries()):
        for path in sorted((ROOT / "tests" / "scenarios" / rid).glob("*.toml")):
            replay = scenario_hands(path)
            if replay is not None:
                out.append((path.name, *replay))
    return out


@pytest.mark.slow
def test_steps_counted_never_exceed_the_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expr, "Budget", _Counting)
    checked = 0
    for name, game, hands in _scenario_games():
        limit = hand_steps(game.ruleset)["one hand"]
        state = initial_state(game)
        for hand in hands:
            _Counting.made.clear()
            state = apply_hand(game, state, hand).state
            used = [b.limit - b.left for b in _Counting.made]
            assert used and max(used) <= limit, f"{name}: a hand took {max(used)} steps, estimated {limit}"
            checked += 1
    assert checked > 500


def test_bundled_rulesets_are_far_under_the_limit() -> None:
    for rid in sorted(entries()):
        rs = load_text((ROOT / "rulesets" / f"{rid}.toml").read_text(), f"{rid}.toml")
        steps = hand_steps(rs)
        assert max(steps.values()) < expr.MAX_STEPS // 3, (rid, steps)   # kasiino, the most: 14,490


def test_new_game_of_a_costly_ruleset_refused_through_the_library() -> None:
    rs_text = (HOSTILE / "cost_count_in_loop.toml").read_text()
    with pytest.raises(ScorepadError, match=r"score\[0\].points: .*steps"):
        make_game(load_text(rs_text, "evil.toml"), ["a", "b"])


def wide_ruleset(section: str, lets: int, rules: int) -> str:
    """A ruleset of `lets` one-number lets in `section` ([player] or [let]) and `rules` threshold rules."""
    return ('[game]\nid = "wide"\nname = "Wide"\n[players]\nmin = 2\nmax = 12\n'
            f'[fields.pts]\nscope = "player"\ntype = "int"\n[state.side]\nseen = 0\n[{section}]\n'
            + "".join(f'a{i} = "{i}"\n' for i in range(lets))
            + f'[[score]]\nper = "player"\npoints = "pts + a{lets - 1} - {lets - 1}"\n'
            + "".join('[[rule]]\nwhen = "seen < 0"\n' for _ in range(rules)))


@pytest.mark.slow
def test_many_names_and_many_rules_are_refused_quickly(cli: Callable[..., Run], tmp_path: Path) -> None:
    """Thousands of lets times thousands of rules (once 4.7 s a hand, and each load 3 s): past the bound
    on formulas a hand, refused at the check, with the reason, without working the hand out."""
    text = wide_ruleset("player", 6000, 3000)
    path = tmp_path / "wide.toml"
    path.write_text(text)
    start = time.perf_counter()
    r = cli("rules", "check", str(path))
    assert r.code == 2 and "at most 1,500 formulas" in r.out + r.err
    assert cli("new", str(path), *[f"p{i}" for i in range(12)]).code == 2
    assert within(time.perf_counter() - start, 8)


def test_the_widest_ruleset_within_the_bounds_stays_quick(cli: Callable[..., Run], tmp_path: Path) -> None:
    """1,400 lets of the hand and 8 rules for each of 12 sides: loaded, checked and a hand scored at once."""
    text = wide_ruleset("let", 1300, 8)
    path = tmp_path / "wide.toml"
    path.write_text(text)
    start = time.perf_counter()
    assert cli("rules", "check", str(path)).code == 0
    assert cli("new", str(path), *[f"p{i}" for i in range(12)]).code == 0
    r = cli("hand", "pts=" + ",".join(["1"] * 12))
    assert r.code == 0, r.err
    assert within(time.perf_counter() - start, 8)


@given(expressions())
@settings(max_examples=300, deadline=None)
def test_steps_of_any_formula_never_exceed_its_estimate(source: str) -> None:
    """The estimate is an upper bound of the budget's count, for any formula that compiles."""
    try:
        formula = compile_formula(source, "score[0].points", PROPERTY_NAMES)
    except ScorepadError:
        return
    bound, _ = estimate(formula, {n: value_size(v) for n, v in PROPERTY_ENV.items()}, SCALAR)
    with formula_budget(10**12) as budget, contextlib.suppress(ScorepadError):
        formula(dict(PROPERTY_ENV))
    assert 10**12 - budget.left <= bound, source
