"""subsets() and combinations(): the sub-lists a count over combinations of cards needs (cribbage's
fifteens), charged per sub-list before any is built, bounded at load from what the list can hold, and
refused outright past one hand's budget; and a cards field's min and max, which count its cards."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.errors import FormulaError, RulesetError
from scorepad.rules.cost import SCALAR, estimate, hand_steps
from scorepad.rules.expr import MAX_STEPS, BudgetError, compile_formula, formula_budget, subset_steps
from scorepad.rules.loader import load_text
from tests.conftest import Run
from tests.speed import within


def value_of(source: str, **env: object) -> object:
    return compile_formula(source, "k", list(env))(env)


def test_subsets_are_every_sub_list_in_order() -> None:
    assert value_of("subsets(xs)", xs=[1, 2, 3]) == [[], [1], [2], [1, 2], [3], [1, 3], [2, 3], [1, 2, 3]]
    assert value_of("subsets(xs)", xs=[]) == [[]]
    # the fifteens of 5 5 5 10 10: each ten with each five (6), the three fives (1)
    assert value_of("len([s for s in subsets(xs) if sum(s) == 15])", xs=[5, 5, 5, 10, 10]) == 7


def test_combinations_are_the_sub_lists_of_k_items() -> None:
    assert value_of("combinations(xs, 2)", xs=[1, 2, 3]) == [[1, 2], [1, 3], [2, 3]]
    assert value_of("combinations(xs, 0)", xs=[1, 2]) == [[]]
    assert value_of("combinations(xs, 3)", xs=[1, 2]) == []
    assert value_of("len([p for p in combinations(xs, 2) if p[0] == p[1]])", xs=[5, 5, 5, 9]) == 3
    with pytest.raises(FormulaError, match="whole number"):
        value_of("combinations(xs, -1)", xs=[1])
    with pytest.raises(FormulaError, match="whole number"):
        value_of("combinations(xs, 1.5)", xs=[1])


def test_the_budget_pays_for_every_sub_list_and_item() -> None:
    f = compile_formula("subsets(xs)", "k", ["xs"])
    with formula_budget(10**6) as budget:
        f({"xs": [1, 2, 3, 4]})
    assert 10**6 - budget.left == f.weight + subset_steps(4) == f.weight + 16 + 4 * 8
    g = compile_formula("combinations(xs, 2)", "k", ["xs"])
    with formula_budget(10**6) as budget:
        g({"xs": [1, 2, 3, 4]})
    assert 10**6 - budget.left == g.weight + 6 * 3


def test_a_budget_that_cannot_pay_builds_nothing() -> None:
    f = compile_formula("len(subsets(xs))", "let.many", ["xs"])
    with formula_budget(1_000), pytest.raises(BudgetError, match=r"let\.many"):
        f({"xs": list(range(10))})   # 1,024 sub-lists and 5,120 items: more than 1,000


@pytest.mark.parametrize("source", ["subsets(xs)", "combinations(xs, 1000)", "combinations(xs, 3)"])
def test_past_one_hands_budget_is_refused_at_once_without_memory(source: str) -> None:
    f = compile_formula(source, "let.huge", ["xs"])
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(FormulaError, match="more steps than the 50,000 one hand may take"):
            f({"xs": list(range(2000))})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert within(time.perf_counter() - start, 0.2)
    assert peak < 2_000_000


def test_the_estimate_follows_the_size_of_the_list() -> None:
    f = compile_formula("len([s for s in subsets(xs) if sum(s) == 15])", "k", ["xs"])
    small, _ = estimate(f, {"xs": (5, 6, 1)}, SCALAR)
    assert subset_steps(5) < small < 2_000
    big, _ = estimate(f, {"xs": (52, 53, 1)}, SCALAR)
    assert big > MAX_STEPS
    pairs = compile_formula("combinations(xs, 2)", "k", ["xs"])
    assert estimate(pairs, {"xs": (10, 11, 1)}, SCALAR)[0] == pairs.weight + subset_steps(10, 2)
    # a k that is not written out is taken at its worst: 10 choose 5
    any_k = compile_formula("combinations(xs, n)", "k", ["xs", "n"])
    assert estimate(any_k, {"xs": (10, 11, 1)}, SCALAR)[0] >= subset_steps(10, 5)


FIFTEENS = """
[game]
id = "fifteens"
name = "Fifteens"

[cards]
deck = "52"
values = {{ A = 1, "2" = 2, "3" = 3, "4" = 4, "5" = 5, "6" = 6, "7" = 7, "8" = 8, "9" = 9, "10" = 10, J = 10, Q = 10, K = 10 }}

[fields.hand]
scope = "player"
type = "cards"
{bounds}

[player]
fifteens = "len([s for s in subsets(hand) if value(s) == 15])"

[[score]]
per = "player"
points = "2 * fifteens"
"""


def test_a_cards_field_max_bounds_the_estimate() -> None:
    with pytest.raises(RulesetError, match="steps"):
        load_text(FIFTEENS.format(bounds=""), "fifteens.toml")          # a whole pack: 2**52 sub-lists
    rs = load_text(FIFTEENS.format(bounds="min = 5\nmax = 5"), "fifteens.toml")
    assert hand_steps(rs)["one hand"] < 5_000


def test_a_cards_field_min_and_max_count_the_cards(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "fifteens.toml"
    path.write_text(FIFTEENS.format(bounds='min = 5\nmax = 5\nhelp = "five cards"'), encoding="utf-8")
    assert cli("new", str(path), "ann", "bob").code == 0
    short = cli("hand", "ann.hand=5H 5S JD QC", "bob.hand=2C 3C 4C 6C 7C")
    assert short.code == 2
    assert "ann.hand must be 5 cards" in short.out + short.err and "Traceback" not in short.err
    ok = cli("hand", "ann.hand=5H 5S JD QC 5C", "bob.hand=2C 3C 4C 6C 7C")
    assert ok.code == 0
    assert "Hand 1" in ok.out        # the refused hand stored nothing
    # ann: J+5 and Q+5 with each of three fives, 5+5+5: 7 fifteens, 14; bob: 2+6+7, 2+3+4+6: 4
    assert "ann: +14" in ok.out and "bob: +4" in ok.out
