"""Formulas run as generated code agree with the closure trees they were first compiled to:
the same value or the same error, and the same steps charged to the budget."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.errors import ScorepadError
from scorepad.expr import compile_formula, formula_budget, reference_evaluation
from scorepad.ruleset import card_functions
from tests.test_properties import ENV, NAMES, expressions

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
