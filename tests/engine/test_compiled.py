"""Formulas run as generated code agree with the closure trees they were first compiled to:
the same value or the same error, and the same steps charged to the budget."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.errors import ScorepadError
from scorepad.rules.expr import compile_formula, formula_budget, reference_evaluation
from scorepad.rules.model import card_functions
from tests.engine.test_properties import ENV, NAMES, expressions

CARD_FUNCS = card_functions({"A": 11, "10": 10, "K": 4})
CHAINS = st.tuples(st.sampled_from(["x", "y", "3", "'a'", "xs", "t['a']", "len(xs)"]),
                   st.lists(st.tuples(st.sampled_from(["<", "<=", "==", "!=", ">", ">=", "in", "not in"]),
                                      st.sampled_from(["x", "y", "1", "'a'", "xs", "[1, 2]", "word"])),
                            min_size=1, max_size=3)).map(lambda t: t[0] + "".join(f" {op} {b}" for op, b in t[1]))


def _run(formula: Any, reference: bool, limit: int, env: dict[str, Any] = ENV) -> tuple[Any, int]:
    with formula_budget(limit) as budget:
        try:
            if reference:
                with reference_evaluation():
                    value: Any = ("value", formula(dict(env)))
            else:
                value = ("value", formula(dict(env)))
        except ScorepadError as exc:
            value = ("error", type(exc).__name__, exc.message)
        return value, budget.left


@settings(max_examples=400, deadline=None)
@given(st.one_of(expressions(), CHAINS, CHAINS.map(lambda c: f"[v for v in xs if {c.replace('x ', 'v ')}]")),
       st.sampled_from([10**6, 40, 7]))
def test_generated_code_agrees_with_the_closures(source: str, limit: int) -> None:
    try:
        formula = compile_formula(source, "score[0].points", NAMES)
    except ScorepadError:
        return
    formula.compiled()
    assert formula.reference is not None and formula.run is not formula.reference
    assert _run(formula, False, limit) == _run(formula, True, limit)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["value(cards)", "has(cards, 'AS')", "nrank(cards, 'A') + nsuit(cards, 'H')",
                        "sum([value([c]) for c in cards])", "sorted([1, 3, 2])", "max(xs) - min(xs, 5)"]),
       st.lists(st.sampled_from(["AS", "10H", "KD", "2C"]), max_size=6))
def test_card_functions_agree(source: str, cards: list[str]) -> None:
    formula = compile_formula(source, "k", [*NAMES, "cards"], CARD_FUNCS).compiled()
    env = dict(ENV, cards=cards)
    assert _run(formula, False, 10**6, env) == _run(formula, True, 10**6, env)


# Values at the edges of what the inline fast paths of generated code take (whole numbers within the
# cap) and what they must hand to the checked helpers: the cap itself, beyond it, yes/no, fractions,
# words, lists and tables, nothing.
EDGE_ENV: dict[str, Any] = {
    "n": 3, "m": -2, "cap": 10**15, "ncap": -10**15, "over": 10**15 + 1, "yes": True, "half": 2.5,
    "whole_f": 4.0, "w": "a", "w2": "b", "ns": [1, 2, 3], "caps": [10**15, 10**15], "mixed": [1, True, 2.0],
    "empty": [], "bools": [True, False, True], "fracs": [0.5, 0.5], "swing": [10**15, 1, -2],
    "tab": {"a": 1, "3": [4, 5], "b": "a"}, "nothing": None, "nested": [[1, 2], [1, 2]],
}
EDGE_NAMES = sorted(EDGE_ENV)
EDGE_LEAVES = st.one_of(st.sampled_from(EDGE_NAMES), st.sampled_from(["0", "1", "-1", "2", "'a'", "'3'", "'zz'",
                                                                     "1000000000000000", "0.5", "true"]))


def edge_formulas() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binop = st.tuples(inner, st.sampled_from(["+", "-", "*", "<", "<=", ">", ">=", "==", "!=", "//", "%"]),
                          inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})")
        sub = st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]")
        call = st.tuples(st.sampled_from(["sum", "max", "min", "len", "abs"]), inner).map(lambda t: f"{t[0]}({t[1]})")
        sums = st.lists(inner, max_size=4).map(lambda xs: "sum([" + ", ".join(xs) + "])")
        comp = st.tuples(inner, inner).map(lambda t: f"[{t[0].replace('n', 'v', 1)} for v in {t[1]} if v]")
        return st.one_of(binop, sub, call, sums, comp, st.lists(inner, min_size=1, max_size=3).map(
            lambda xs: "[" + ", ".join(xs) + "]"))
    return st.recursive(EDGE_LEAVES, extend, max_leaves=8)


@settings(max_examples=600, deadline=None)
@given(edge_formulas(), st.sampled_from([10**6, 30, 5]))
def test_inline_fast_paths_agree_at_the_edges(source: str, limit: int) -> None:
    """Generated code inlines + - *, comparisons, lookups and sum/max/min/len of one list: on values at
    and beyond the cap, yes/no, fractions and containers it gives what the closure tree gives (value
    or error, and the budget left)."""
    try:
        formula = compile_formula(source, "player.edge", EDGE_NAMES)
    except ScorepadError:
        return
    formula.compiled()
    assert formula.run is not formula.reference
    ours, theirs = _run(formula, False, limit, EDGE_ENV), _run(formula, True, limit, EDGE_ENV)
    assert repr(ours) == repr(theirs)  # repr: 3 and 3.0, 1 and True are not the same result
