"""The formula language: what it computes, and what it refuses (quickly, naming the key)."""

from __future__ import annotations

import time

import pytest

from scorepad.errors import FormulaError
from scorepad.rules.expr import compile_formula
from tests.speed import within


def run(src: str, **env: object) -> object:
    return compile_formula(src, "k", list(env))(env)


def test_arithmetic_and_conditions() -> None:
    f = compile_formula("10*bid + (tricks - bid) if tricks >= bid else -10*bid", "k", ["bid", "tricks"])
    assert f({"bid": 4, "tricks": 5}) == 41
    assert f({"bid": 4, "tricks": 3}) == -40
    assert run("max(scores) - min(scores)", scores=[3, 9, 4]) == 6
    assert run("sum(t for t in ts if t > 1)", ts=[1, 2, 3]) == 5
    assert run("table[vul][n]", table={"true": [1, 2]}, vul=True, n=1) == 2
    assert run("sched[3]", sched={"3": 7}) == 7
    assert run("round(47, 5)") == 45 and run("round(48, 5)") == 50 and run("round(-47.5, 5)") == -50
    assert run("7 / 2") == 3.5 and run("8 / 2") == 4
    assert run("'blind' == b", b="blind") is True
    assert run("count(xs, 0)", xs=[0, 1, 0]) == 2
    assert run("get(t, 'x', 5)", t={}) == 5


@pytest.mark.parametrize("src, words", [
    ("x.__class__", "attribute access"),
    ("__import__('os')", "unknown function"),
    ("open('/etc/passwd')", "unknown function"),
    ("(lambda: 1)()", "only the listed functions"),
    ("[a for a in xs for b in xs]", "one 'for'"),
    ("[[a for a in xs] for b in xs]", "inside a comprehension"),
    ("9**9**9**9", "exponent"),
    ("2 ** 65", "exponent"),
    ("10**8 * 10**8", "too large"),
    ("bidd + 1", "unknown name 'bidd'"),
    ("f'{x}'", "f-string"),
    ("xs[1:2]", "slices"),
    ("(x := 1)", "assignment"),
    ("x if", "not a valid formula"),
    ("(" * 300 + "1" + ")" * 300, "not a valid formula"),
    ("-" * 100 + "1", "nests too deeply"),
    ("1+" * 500 + "1", "nests too deeply"),
    ("max(" + "1," * 500 + "1)", "too long"),
    ("x" * 2001, "longer than 2000"),
    ("'a' * 10", "expected a number"),
])
def test_refused_at_load_time(src: str, words: str) -> None:
    start = time.perf_counter()
    with pytest.raises(FormulaError) as info:
        compile_formula(src, "score.points", ["x", "xs"])(
            {"x": 1, "xs": [1, 2]})
    assert words in info.value.message
    assert info.value.message.startswith("score.points")
    assert within(time.perf_counter() - start, 1)


@pytest.mark.parametrize("src, env, words", [
    ("x * y", {"x": "vul", "y": 10**9}, "expected a number"),
    ("x ** y", {"x": 4000000, "y": 40}, "too large"),
    ("x / y", {"x": 1, "y": 0}, "division by zero"),
    ("xs[5]", {"xs": [1]}, "outside the list"),
    ("t['q']", {"t": {"a": 1}}, "no entry"),
])
def test_refused_at_run_time(src: str, env: dict[str, object], words: str) -> None:
    f = compile_formula(src, "rule[0].when", list(env))
    with pytest.raises(FormulaError) as info:
        f(env)
    assert words in info.value.message and info.value.message.startswith("rule[0].when")


def test_lists_passed_in_cannot_be_changed() -> None:
    xs = [3, 1, 2]
    assert run("sorted(xs)", xs=xs) == [1, 2, 3]
    assert xs == [3, 1, 2]


@pytest.mark.parametrize("src", [
    "sum([[a for a in xs] for b in xs][0])",       # in the element
    "[a for a in xs if any(b > a for b in xs)]",   # in the condition
    "[a for a in [b for b in xs]]",                # in the list it goes through
    "sum(a for a in sorted([b * 2 for b in xs]))",  # in the list, inside a call
])
def test_no_comprehension_inside_a_comprehension(src: str) -> None:
    """docs/rulesets.md: one comprehension, never one inside another (its element, condition or list)."""
    with pytest.raises(FormulaError, match="inside a comprehension"):
        compile_formula(src, "score.points", ["xs"])


def test_comprehensions_side_by_side_are_allowed() -> None:
    f = compile_formula("sum([a for a in xs]) + count([b > 1 for b in xs])", "k", ["xs"])
    assert f({"xs": [1, 2, 3]}) == 8


@pytest.mark.parametrize(("src", "constant"), [
    (13, 13), (-4, -4), ("0", 0), (" 7 ", 7), ("-4", None), ("12 - 1", None), ("hand_no", None), (2.5, None),
    (True, None),
])
def test_a_written_out_whole_number_is_known_without_evaluating(src: object, constant: int | None) -> None:
    """A field's `min = 0` / `max = 13` are checked against every typed value: a written-out number
    is read off the formula (no context, no budget); anything else is evaluated."""
    formula = compile_formula(src, "f", {"hand_no"})
    assert formula.constant == constant
    if constant is not None:
        assert formula({}) == constant
