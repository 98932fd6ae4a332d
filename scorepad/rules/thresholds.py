"""The totals a game's chart draws as lines across it: Spades' target, Skid's limit, Marjas' 12.

Read from the ruleset itself, never from a list of games: a threshold is a number a side's total is
compared with in the end rule (`end.when`, `end.first_to`) or in a rule's `when` (a total past 12
drops to 7; exactly on the limit burns to 0), where that number depends on the game's options alone
(`target`, `limit`, `12`). Not 0 (the chart draws its zero line anyway: `max(others_score) == 0`
is a shutout, not a line) nor a total that is merely not some number (`!=`). A comparison under a
condition the options already decide against (`lose_at != 0 and score <= lose_at` with lose_at 0)
is no threshold of this game.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from scorepad.errors import FormulaError
from scorepad.rules.expr import Formula, compile_formula
from scorepad.rules.model import Ruleset

TOTALS = frozenset({"score", "all_score", "others_score", "team_score"})
"""The names a formula reads a total by: a side's own, every side's, the other sides', its team's."""


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _reads_total(node: ast.AST) -> bool:
    """`score`, or `max(all_score)` / `min(others_score)`: a total itself, not a sum or count of totals."""
    if isinstance(node, ast.Name):
        return node.id == "score"
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("max", "min")
            and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id in TOTALS)


def _settled(node: ast.AST, known: Mapping[str, Any], key: str) -> Any:
    """The value of a part of a formula that reads only options and tables; None when it reads more."""
    names = _names(node)
    if not names <= set(known) - TOTALS:
        return None
    try:
        formula = compile_formula(ast.unparse(node), key, known)
        return formula.evaluate(known)
    except FormulaError:
        return None


def _comparisons(node: ast.AST, known: Mapping[str, Any], key: str) -> Iterator[float]:
    """The numbers totals are compared with in the parts of `node` the options leave possible."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        if any(_settled(part, known, key) is False for part in node.values):
            return   # a condition the options rule out: this formula never holds in this game
        for part in node.values:
            yield from _comparisons(part, known, key)
        return
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and not isinstance(node.ops[0], ast.NotEq):
        left, right = node.left, node.comparators[0]
        for total, other in ((left, right), (right, left)):
            if _reads_total(total):
                value = _settled(other, known, key)
                if isinstance(value, (int, float)) and not isinstance(value, bool) and value != 0:
                    yield value
        return
    for child in ast.iter_child_nodes(node):
        yield from _comparisons(child, known, key)


def thresholds(rs: Ruleset, options: Mapping[str, Any]) -> list[int | float]:
    """The totals worth a line across the chart of a game played with `options`, smallest first."""
    known = {**rs.tables, **{name: o.default for name, o in rs.options.items()}, **options}
    found: set[int | float] = set()
    formulas: list[Formula] = [r.when for r in rs.rules if r.when is not None]
    if rs.end.when is not None:
        formulas.append(rs.end.when)
    for formula in formulas:
        if formula.tree is not None:
            found.update(_comparisons(formula.tree, known, formula.key))
    if rs.end.first_to is not None and rs.end.first_to.tree is not None:
        value = _settled(rs.end.first_to.tree, known, rs.end.first_to.key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            found.add(value)
    return sorted(found)
