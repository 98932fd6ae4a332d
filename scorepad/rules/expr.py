"""The safe formula language of rulesets: a whitelist compiler from Python expression syntax to closures.

Rulesets come from strangers, so a formula may only do arithmetic and comparisons on numbers,
look values up in lists and tables, and call the functions listed here. There is no attribute
access, no import, no assignment, no loop but one bounded comprehension, and every number is
capped, so a formula can neither reach the interpreter nor run for long. Formulas are compiled
once per ruleset; errors name the TOML key and point at the mistake.

Work is bounded twice. `cost.estimate()` gives each formula's worst case in steps from the sizes of the
lists it can see (the ruleset refuses formulas that could exceed `MAX_STEPS` a hand), and every
evaluation runs on a step budget (`formula_budget()`, one per hand): each formula call costs its
number of parts, each comprehension its length times its body, each function over a list that
list's length. A budget that runs out stops the formula with an error naming it; no clock is used,
so the same hand always gives the same answer and nothing is left half done.
"""

from __future__ import annotations

import ast
import functools
import itertools
import math
import operator
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from scorepad.errors import FormulaError
from scorepad.locale import N_, Grouped, Said

MAX_SOURCE = 2000
MAX_NODES = 400
MAX_DEPTH = 40
MAX_NUMBER = 10**15
MAX_EXPONENT = 64
MAX_STRING = 200
# The step budget of one hand (all its formulas together) and the limit of the static estimate.
# A step is about one part of a formula evaluated, or one item of a list a function goes through;
# a million of them is roughly half a second. The bundled rulesets need at most a few thousand.
MAX_STEPS = 50_000

P = ParamSpec("P")
R = TypeVar("R")
Env = Mapping[str, Any]
Evaluator = Callable[[Env], Any]


class BudgetError(FormulaError):
    """The formulas of one hand (or one display) took more steps than the budget allows."""


class _Exhausted(Exception):
    """Raised inside a formula when the budget runs out; Formula.__call__ turns it into BudgetError."""


class Budget:
    """The steps left for the formulas of one hand; the first formula that runs it out is named."""

    __slots__ = ("left", "limit", "message")

    def __init__(self, limit: int) -> None:
        self.left = limit
        self.limit = limit
        self.message: str | None = None


_ACTIVE: ContextVar[Budget | None] = ContextVar("scorepad_formula_budget", default=None)


@contextmanager
def formula_budget(limit: int = MAX_STEPS) -> Iterator[Budget]:
    """Run the formulas evaluated inside on one budget of `limit` steps (the engine: one per hand)."""
    budget = Budget(limit)
    token = _ACTIVE.set(budget)
    try:
        yield budget
    finally:
        _ACTIVE.reset(token)


def budgeted(fn: Callable[P, R]) -> Callable[P, R]:
    """Run `fn` on a fresh budget of MAX_STEPS: the engine's entry points (one hand, one display)."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        token = _ACTIVE.set(Budget(MAX_STEPS))
        try:
            return fn(*args, **kwargs)
        finally:
            _ACTIVE.reset(token)
    return run


def _charge(steps: int) -> None:
    budget = _ACTIVE.get()
    if budget is not None:
        budget.left -= steps
        if budget.left < 0:
            raise _Exhausted


@dataclass(frozen=True)
class Formula:
    """A compiled formula: its source, where it came from, and the closure that evaluates it."""

    source: str
    key: str
    names: frozenset[str]
    run: Evaluator
    weight: int = 1  # parts of the formula: the steps one evaluation costs before its loops
    # the validated tree: what the cost estimate and the kinds of values are read from
    tree: ast.expr | None = field(default=None, compare=False, repr=False)
    # the value when the formula is a whole number written out (a field's `min = 0`), else None: what
    # needs no context and no budget to evaluate (typing a value checks it against its field's range)
    constant: int | None = field(default=None, compare=False, repr=False)

    def evaluate(self, env: Env) -> Any:
        """Evaluate the closure tree on the active budget, its errors named by the formula's key."""
        budget = _ACTIVE.get()
        if budget is None:  # evaluated on its own (a field's bounds, a test): a budget of its own
            with formula_budget():
                return self.evaluate(env)
        left = budget.left - self.weight
        budget.left = left
        try:
            if left < 0:
                raise _Exhausted
            return self.run(env)
        except _Exhausted:
            if budget.message is None:
                budget.message = Said(N_("{key}: {formula} was stopped: the formulas of one hand may take at most "
                                         "{limit} steps (it goes through large lists too often)"),
                                      key=self.key, formula=repr(self.source), limit=Grouped(budget.limit))
            raise BudgetError(budget.message) from None
        except FormulaError as exc:
            if exc.message.startswith(self.key + ":"):
                raise
            raise FormulaError(Said(N_("{key}: {formula} failed: {problem}"), key=self.key, formula=repr(self.source),
                                    problem=exc.message)) from None
        except RecursionError:
            raise FormulaError(Said(N_("{key}: the formula nests too deeply"), key=self.key)) from None
        except (ArithmeticError, TypeError, ValueError, KeyError, IndexError) as exc:
            raise FormulaError(Said(N_("{key}: {formula} failed: {problem}"), key=self.key, formula=repr(self.source),
                                    problem=_plain(exc))) from None

    __call__ = evaluate
    fast = evaluate  # the name the engine's hot loops call it by

    def each(self, envs: list[Any]) -> list[Any]:
        """The formula evaluated in each of `envs` (a let for every player or side), as
        `[f.evaluate(env) for env in envs]` gives it: the weights are charged at once, and where
        that would run the budget out (or a list in the formula does), every value is worked out
        again one at a time, so the same formula is named and the same error said."""
        budget = _ACTIVE.get()
        cost = self.weight * len(envs)
        if budget is None or budget.left < cost:
            return [self.evaluate(env) for env in envs]
        before = budget.left
        budget.left = before - cost
        run = self.run
        try:
            return [run(env) for env in envs]
        except (_Exhausted, FormulaError, RecursionError, ArithmeticError, TypeError, ValueError, KeyError,
                IndexError):
            budget.left = before  # one at a time, each error as evaluate words it
            return [self.evaluate(env) for env in envs]


def _plain(exc: BaseException) -> str:
    """The sentence of an error a formula met: the `Said` it was raised with, kept to be translated."""
    if isinstance(exc, ZeroDivisionError):
        return Said(N_("division by zero"))
    if exc.args and isinstance(exc.args[0], Said):
        return exc.args[0]
    return str(exc) or type(exc).__name__


# what a number too large was, in the sentence that refuses it
_TOO_LARGE = {"value": N_("number too large (value beyond ±10^15)"),
              "constant": N_("number too large (constant beyond ±10^15)"),
              "power": N_("number too large (power beyond ±10^15)")}


def _number(value: Any, what: str = "value") -> int | float:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        if abs(value) > MAX_NUMBER:
            raise FormulaError(Said(_TOO_LARGE[what]))
        return value
    if isinstance(value, float):
        if not math.isfinite(value) or abs(value) > MAX_NUMBER:
            raise FormulaError(Said(_TOO_LARGE[what]))
        if value.is_integer():
            return int(value)
        return value
    raise TypeError(Said(N_("expected a number, got {kind}"), kind=_kind(value)))


def _kind(value: Any) -> str:
    if isinstance(value, str):
        return Said(N_("the word {word}"), word=repr(value))
    if isinstance(value, (list, tuple)):
        return Said(N_("a list"))
    if isinstance(value, dict):
        return Said(N_("a table"))
    if value is None:
        return Said(N_("nothing (an empty field)"))
    if isinstance(value, bool):
        return Said(N_("true or false"))
    return Said(N_("a number")) if isinstance(value, (int, float)) else type(value).__name__


value_kind = _kind  # what a value is, in words, without printing it (it may be huge)


def _pow(a: Any, b: Any) -> int | float:
    base, exp = _number(a), _number(b)
    if not isinstance(exp, int) or not 0 <= exp <= MAX_EXPONENT:
        raise FormulaError(Said(N_("exponent must be a whole number 0..{most}"), most=MAX_EXPONENT))
    if abs(base) > 10**6:
        raise FormulaError(Said(N_("number too large (power of a base beyond 10^6)")))
    return _number(base**exp, "power")


def _div(a: Any, b: Any) -> int | float:
    return _number(_number(a) / _number(b))


def _checked(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def run(a: Any, b: Any) -> Any:
        return _number(op(_number(a), _number(b)))

    return run


def _add(a: Any, b: Any) -> Any:
    return _number(_number(a) + _number(b))


def _sub(a: Any, b: Any) -> Any:
    return _number(_number(a) - _number(b))


def _mul(a: Any, b: Any) -> Any:
    return _number(_number(a) * _number(b))


BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: _add,
    ast.Sub: _sub,
    ast.Mult: _mul,
    ast.Div: _div,
    ast.FloorDiv: _checked(lambda a, b: a // b),
    ast.Mod: _checked(lambda a, b: a % b),
    ast.Pow: _pow,
}


def _order(op: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    def run(a: Any, b: Any) -> bool:
        if isinstance(a, str) and isinstance(b, str):
            return op(a, b)
        return op(_number(a), _number(b))

    return run


_CONTAINERS = (list, tuple, dict)


_CONTAINER_TYPES = frozenset(_CONTAINERS)


def _eq(a: Any, b: Any) -> bool:
    """`a == b`, charging the budget for every item compared when both are lists or tables."""
    if type(a) in _CONTAINER_TYPES and type(b) in _CONTAINER_TYPES:
        return _deep_eq(a, b)
    return bool(a == b)


def _plain_eq(a: Any, b: Any) -> bool:
    return bool(a == b)


def _plain_ne(a: Any, b: Any) -> bool:
    return bool(a != b)


def _deep_eq(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if type(a) is not type(b):
        return bool(a == b)  # a list and a table: unequal at once
    _charge(1 + min(len(a), len(b)))
    if len(a) != len(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_eq(v, b[k]) for k, v in a.items())
    return all(_eq(x, y) for x, y in zip(a, b, strict=True))


def _contains(a: Any, b: Any) -> bool:
    if not isinstance(b, (list, tuple, dict, str)):
        raise TypeError(Said(N_("'in' needs a list, table or word on the right, got {kind}"), kind=_kind(b)))
    if isinstance(b, str) and not isinstance(a, str):
        raise TypeError(Said(N_("'in' a word needs a word on the left")))
    if isinstance(b, (list, tuple)):
        _charge(len(b))
        if isinstance(a, _CONTAINERS):
            return any(_eq(a, x) for x in b)
    return a in b


CMPOPS: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: _eq,
    ast.NotEq: lambda a, b: not _eq(a, b),
    ast.Lt: _order(lambda a, b: a < b),
    ast.LtE: _order(lambda a, b: a <= b),
    ast.Gt: _order(lambda a, b: a > b),
    ast.GtE: _order(lambda a, b: a >= b),
    ast.In: _contains,
    ast.NotIn: lambda a, b: not _contains(a, b),
}


def _seq(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, dict):
        return list(value.values())
    raise TypeError(Said(N_("expected a list, got {kind}"), kind=_kind(value)))


_WHOLE = frozenset({int})


def _minmax(pick: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        items = _seq(args[0]) if len(args) == 1 else list(args)
        if not items:
            raise ValueError(Said(N_("empty list")))
        # whole numbers in the cap (the usual list of scores) picked without a call per item
        if frozenset(map(type, items)) == _WHOLE and min(items) >= -MAX_NUMBER and max(items) <= MAX_NUMBER:
            return pick(items)
        return pick(_number(x) for x in items)

    return run


def _sum(values: Any) -> int | float:
    """Every partial sum within the cap; whole numbers added with one type test each."""
    total: int | float = 0
    for x in values if type(values) is list else _seq(values):
        if type(x) is int and type(total) is int and -MAX_NUMBER <= x <= MAX_NUMBER:
            total += x
            if -MAX_NUMBER <= total <= MAX_NUMBER:
                continue
        else:
            total += _number(x)
        total = _number(total)
    return total


def _count(values: Any, item: Any = True) -> int:
    if isinstance(item, _CONTAINERS):
        return sum(1 for x in _seq(values) if _eq(x, item))
    return sum(1 for x in _seq(values) if x == item)


def _index(values: Any, item: Any) -> int:
    items = _seq(values)
    if isinstance(item, _CONTAINERS):
        return next((i for i, x in enumerate(items) if _eq(x, item)), -1)
    return items.index(item) if item in items else -1


def _round(value: Any, step: Any = 1) -> int | float:
    """Round half away from zero to a multiple of `step` (the way players round: 45 → 50)."""
    x, s = _number(value), _number(step)
    if s <= 0:
        raise ValueError(Said(N_("round step must be positive")))
    q = abs(x) / s
    n = math.floor(q + 0.5)
    return _number(math.copysign(n * s, x) if x else 0)


def _clamp(value: Any, low: Any, high: Any) -> int | float:
    return max(_number(low), min(_number(high), _number(value)))


def _if(cond: Any, a: Any, b: Any) -> Any:
    return a if cond else b


def _get(table: Any, key: Any, default: Any = 0) -> Any:
    if not isinstance(table, (dict, list, tuple)):
        raise TypeError(Said(N_("get() needs a table or list, got {kind}"), kind=_kind(table)))
    if isinstance(table, dict):  # no error message is built for a missing key: get() is used in loops
        found = _table_entry(table, key)
        return default if found is _MISSING else found
    try:
        return _lookup(table, key)
    except (KeyError, IndexError):
        return default


_MISSING = object()


def _table_entry(container: dict[Any, Any], key: Any) -> Any:
    if isinstance(key, _CONTAINERS):
        raise TypeError(Said(N_("a table entry is named by a number or a word, not {kind}"), kind=_kind(key)))
    if key in container:
        return container[key]
    if isinstance(key, (int, float)) and not isinstance(key, bool) and str(key) in container:
        return container[str(key)]
    if isinstance(key, bool) and str(key).lower() in container:
        return container[str(key).lower()]
    return _MISSING


def _lookup(container: Any, key: Any) -> Any:
    if isinstance(container, dict):
        if type(key) is str and key in container:  # the common case first: a word names the entry
            return container[key]
        found = _table_entry(container, key)
        if found is not _MISSING:
            return found
        entries = ", ".join(map(str, list(container)[:20])) + (", ..." if len(container) > 20 else "")
        raise KeyError(Said(N_("no entry {key} in the table (entries: {entries})"), key=repr(key), entries=entries))
    if isinstance(container, (list, tuple)):
        if isinstance(key, bool) or not isinstance(key, int):
            raise TypeError(Said(N_("a list position must be a whole number, got {kind}"), kind=_kind(key)))
        if not -len(container) <= key < len(container):
            raise IndexError(Said(N_("position {key} is outside the list of {n}"), key=key, n=len(container)))
        return container[key]
    if isinstance(container, str):
        raise TypeError(Said(N_("a word cannot be indexed")))
    raise TypeError(Said(N_("cannot look up an entry in {kind}"), kind=_kind(container)))


def subset_steps(n: int, k: int | None = None) -> int:
    """The steps subsets() (k None) or combinations() charges for a list of n items: one per sub-list
    and one per item in it, the same count the static estimate (cost.py) uses."""
    if k is None:
        return (1 << n) + n * (1 << max(n - 1, 0))
    return math.comb(n, k) * (1 + k)


def _sublists(what: str, n: int, steps: int) -> None:
    """Charge a function that builds sub-lists before it builds any: more than one hand's whole budget
    is refused outright (also where no budget is active), so a list of 2000 items builds nothing."""
    if steps > MAX_STEPS:
        raise ValueError(Said(N_("{what} of a list of {n} items would take more steps than the {most} one hand "
                                 "may take"), what=what, n=n, most=Grouped(MAX_STEPS)))
    _charge(steps)


def _subsets(values: Any) -> list[list[Any]]:
    """Every sub-list of a list (2**n of them, the empty one first, each in the list's order): what
    a count over any combination of cards needs (cribbage's fifteens). At most 12 items fit a hand."""
    items = _seq(values)
    n = len(items)
    _sublists("subsets()", n, subset_steps(min(n, 64)))
    return [[items[i] for i in range(n) if mask >> i & 1] for mask in range(1 << n)]


def _combinations(values: Any, k: Any) -> list[list[Any]]:
    """Every sub-list of k items of a list, in the list's order (pairs of cards: k = 2)."""
    items = _seq(values)
    size = _number(k)
    if not isinstance(size, int) or size < 0:
        raise ValueError(Said(N_("combinations() takes a whole number of items 0 or more, got {k}"), k=size))
    if size > len(items):
        return []
    _sublists("combinations()", len(items), subset_steps(len(items), size))   # math.comb is exact and quick
    return [list(c) for c in itertools.combinations(items, size)]


BUILTINS: dict[str, Callable[..., Any]] = {
    "min": _minmax(min),
    "max": _minmax(max),
    "sum": _sum,
    "abs": lambda x: abs(_number(x)),
    "len": lambda x: len(_seq(x)) if not isinstance(x, str) else len(x),
    "count": _count,
    "any": lambda xs: any(_seq(xs)),
    "all": lambda xs: all(_seq(xs)),
    "sorted": lambda xs: sorted(_seq(xs), key=_number),
    "index": _index,
    "round": _round,
    "floor": lambda x: math.floor(_number(x)),
    "ceil": lambda x: math.ceil(_number(x)),
    "clamp": _clamp,
    "sign": lambda x: (_number(x) > 0) - (_number(x) < 0),
    "int": lambda x: int(_number(x)),
    "get": _get,
    "if_": _if,
    "subsets": _subsets,
    "combinations": _combinations,
}
# the functions that go through the list they are given (one step per item); len() only counts
ITERATING = frozenset({"min", "max", "sum", "len", "count", "any", "all", "sorted", "index"})


def _parts(node: ast.AST) -> int:
    return sum(1 for _ in ast.walk(node))


class EnvFunction:
    """A function that reads, besides its arguments, what the formula runs on: a statistic's `line(id)`
    and `rule(id)` read the hand's stored breakdown that way. Offered only where it is passed in."""

    def __init__(self, run: Callable[..., Any]) -> None:
        self.run = run


class _Compiler:
    def __init__(self, source: str, key: str, known: Collection[str],
                 functions: Mapping[str, Callable[..., Any]]) -> None:
        self.source = source
        self.key = key
        self.known = known
        self.functions = functions
        self.locals: list[str] = []
        self.used: set[str] = set()
        self.in_comprehension = False
        self.in_body = False  # compiling a comprehension's element or condition
        self.constants: dict[int, Evaluator] = {}  # keeps the closures alive so ids stay unique

    def fail(self, node: ast.AST | None, message: str) -> FormulaError:
        col = getattr(node, "col_offset", None)
        caret = f"\n    {self.source}\n    {' ' * col}^" if col is not None and "\n" not in self.source else ""
        return FormulaError(Said("{key}: {message}{caret}", key=self.key, message=message, caret=caret))

    def compile(self, node: ast.AST) -> Evaluator:
        method = getattr(self, "c_" + type(node).__name__, None)
        if method is None:
            raise self.fail(node, Said(N_("{what} is not allowed in a formula"), what=_describe(node)))
        result: Evaluator = method(node)
        return result

    def c_Constant(self, node: ast.Constant) -> Evaluator:
        value = node.value
        if isinstance(value, bool) or value is None:
            pass
        elif isinstance(value, (int, float)):
            try:
                value = _number(value, "constant")
            except FormulaError as exc:
                raise self.fail(node, exc.message) from None
        elif isinstance(value, str):
            if len(value) > MAX_STRING:
                raise self.fail(node, Said(N_("a word longer than {most} characters"), most=MAX_STRING))
            if "__" in value:  # no game word has one; it is how a formula would name interpreter internals
                raise self.fail(node, Said(N_("a word with __ in it is not allowed")))
        else:
            raise self.fail(node, Said(N_("the constant {value} is not allowed"), value=repr(value)))
        return self._const(value)

    def _const(self, value: Any) -> Evaluator:
        def run(env: Env) -> Any:
            return value
        self.constants[id(run)] = run
        return run

    def c_Name(self, node: ast.Name) -> Evaluator:
        name = node.id
        if name in ("true", "True"):
            return lambda env: True
        if name in ("false", "False"):
            return lambda env: False
        if name in self.locals or name in self.known:
            self.used.add(name)
            if self.in_body and name not in self.locals:
                # in a comprehension's body env is its _Overlay: go straight to the formula's names
                return lambda env: env.base[name]  # type: ignore[attr-defined]
            getter: Evaluator = operator.itemgetter(name)  # env[name] without a Python frame
            return getter
        known = ", ".join(sorted(n for n in self.known if not n.startswith("_")))
        raise self.fail(node, Said(N_("unknown name {name} (known: {known})"), name=repr(name), known=known))

    def c_BinOp(self, node: ast.BinOp) -> Evaluator:
        op = BINOPS.get(type(node.op))
        if op is None:
            raise self.fail(node, Said(N_("this operator is not allowed (use + - * / // % **)")))
        left, right = self.compile(node.left), self.compile(node.right)
        if id(left) in self.constants and id(right) in self.constants:
            try:
                folded = op(left({}), right({}))
            except FormulaError as exc:
                raise self.fail(node, exc.message) from None
            except (ArithmeticError, TypeError, ValueError) as exc:
                raise self.fail(node, _plain(exc)) from None
            return self._const(folded)
        lean = _LEAN_BINOPS.get(type(node.op))
        return lean(left, right) if lean is not None else lambda env: op(left(env), right(env))

    def c_UnaryOp(self, node: ast.UnaryOp) -> Evaluator:
        operand = self.compile(node.operand)
        if isinstance(node.op, ast.Not):
            return lambda env: not operand(env)
        if isinstance(node.op, ast.USub):
            if id(operand) in self.constants:
                try:
                    return self._const(-_number(operand({})))
                except TypeError as exc:
                    raise self.fail(node, _plain(exc)) from None
            return lambda env: -_number(operand(env))
        if isinstance(node.op, ast.UAdd):
            return lambda env: _number(operand(env))
        raise self.fail(node, Said(N_("this operator is not allowed")))

    def c_BoolOp(self, node: ast.BoolOp) -> Evaluator:
        parts = [self.compile(v) for v in node.values]
        if len(parts) == 2:  # Python's `and` and `or` give the same value as the loops below
            a, b = parts
            if isinstance(node.op, ast.And):
                return lambda env: a(env) and b(env)
            return lambda env: a(env) or b(env)
        if isinstance(node.op, ast.And):
            def run_and(env: Env) -> Any:
                result: Any = True
                for part in parts:
                    result = part(env)
                    if not result:
                        return result
                return result
            return run_and

        def run_or(env: Env) -> Any:
            result: Any = False
            for part in parts:
                result = part(env)
                if result:
                    return result
            return result
        return run_or

    def c_Compare(self, node: ast.Compare) -> Evaluator:
        first = self.compile(node.left)
        rest: list[tuple[Callable[[Any, Any], bool], Evaluator]] = []
        scalar = [isinstance(n, ast.Constant) for n in (node.left, *node.comparators)]
        for i, (op, comp) in enumerate(zip(node.ops, node.comparators, strict=False)):
            fn = CMPOPS.get(type(op))
            if fn is None:
                raise self.fail(node, Said(N_("'is' is not allowed; use == or !=")))
            if scalar[i] or scalar[i + 1]:  # a word or number on one side: == costs one step
                fn = {ast.Eq: _plain_eq, ast.NotEq: _plain_ne}.get(type(op), fn)
            rest.append((fn, self.compile(comp)))
        if len(rest) == 1:  # the usual `a == b`, `a < b`: no loop
            (fn, second), kind = rest[0], type(node.ops[0])
            # a formula's values are numbers, words, lists and tables, whose == and != give a bool
            if fn is _plain_eq:
                return lambda env: first(env) == second(env)
            if fn is _plain_ne:
                return lambda env: first(env) != second(env)
            if kind in (ast.Lt, ast.LtE, ast.Gt, ast.GtE):
                return _lean_order(kind, first, second)
            return lambda env: fn(first(env), second(env))

        def run(env: Env) -> bool:
            left = first(env)
            for fn, right_fn in rest:
                right = right_fn(env)
                if not fn(left, right):
                    return False
                left = right
            return True
        return run

    def c_IfExp(self, node: ast.IfExp) -> Evaluator:
        test, body, orelse = self.compile(node.test), self.compile(node.body), self.compile(node.orelse)
        return lambda env: body(env) if test(env) else orelse(env)

    def _arguments(self, node: ast.Call) -> list[Evaluator]:
        """A call's arguments compiled: positional ones only, none starred."""
        if node.keywords:
            raise self.fail(node, Said(N_("functions take positional arguments only")))
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise self.fail(node, Said(N_("* arguments are not allowed")))
        return [self.compile(a) for a in node.args]

    def c_Call(self, node: ast.Call) -> Evaluator:
        if not isinstance(node.func, ast.Name):
            raise self.fail(node, Said(N_("only the listed functions can be called, by name")))
        name = node.func.id
        fn = self.functions.get(name) or BUILTINS.get(name)
        if fn is None:
            known = ", ".join(sorted({*BUILTINS, *self.functions}))
            raise self.fail(node, Said(N_("unknown function {name} (known: {known})"), name=repr(name), known=known))
        args = self._arguments(node)
        if isinstance(fn, EnvFunction):
            reader = fn.run
            return lambda env: reader(env, *[a(env) for a in args])
        if name == "if_":
            if len(args) != 3:
                raise self.fail(node, Said(N_("if_ takes three arguments")))
            c, a, b = args
            return lambda env: a(env) if c(env) else b(env)
        if name in ITERATING or name in self.functions:
            # a function that goes through its first argument pays one step per item
            log = name == "sorted"
            if len(args) == 1 and not log:
                (only,) = args

                def run_one(env: Env) -> Any:
                    value = only(env)
                    if type(value) in _CONTAINER_TYPES:
                        budget = _ACTIVE.get()  # _charge(len(value)), without a call: sum(), max() are common
                        if budget is not None:
                            budget.left -= len(value)
                            if budget.left < 0:
                                raise _Exhausted
                    return fn(value)
                return run_one

            def run_iterating(env: Env) -> Any:
                values = [a(env) for a in args]
                if values and isinstance(values[0], _CONTAINERS):
                    n = len(values[0])
                    _charge(n * max(1, n.bit_length()) if log else n)
                return fn(*values)
            return run_iterating
        return lambda env: fn(*[a(env) for a in args])

    def c_Subscript(self, node: ast.Subscript) -> Evaluator:
        if isinstance(node.slice, ast.Slice):
            raise self.fail(node, Said(N_("slices are not allowed")))
        container, key = self.compile(node.value), self.compile(node.slice)
        return lambda env: _lookup(container(env), key(env))

    def c_List(self, node: ast.List) -> Evaluator:
        items = [self.compile(e) for e in node.elts]
        return lambda env: [i(env) for i in items]

    c_Tuple = c_List

    def c_ListComp(self, node: ast.ListComp | ast.GeneratorExp) -> Evaluator:
        if self.in_comprehension:
            raise self.fail(node, Said(N_("a comprehension inside a comprehension is not allowed "
                                          "(compute the inner list in [let] first)")))
        if len(node.generators) != 1:
            raise self.fail(node, Said(N_("a comprehension may have one 'for'")))
        gen = node.generators[0]
        if gen.is_async or not isinstance(gen.target, ast.Name):
            raise self.fail(node, Said(N_("the comprehension variable must be a plain name")))
        self.in_comprehension = True  # also for the iterable: no comprehension anywhere inside one
        try:
            iterable = self.compile(gen.iter)
            var = gen.target.id
            self.locals.append(var)
            self.in_body = True
            try:
                element = self.compile(node.elt)
                conds = [self.compile(c) for c in gen.ifs]
            finally:
                self.locals.pop()
                self.in_body = False
        finally:
            self.in_comprehension = False
        per_item = 1 + _parts(node.elt) + sum(_parts(c) for c in gen.ifs)

        def run(env: Env) -> list[Any]:
            items = _seq(iterable(env))
            _charge(len(items) * per_item)
            local = _Overlay()  # the loop variable over the formula's names, which are not copied
            local.base = env
            out = []
            for item in items:
                local[var] = item
                if all(c(local) for c in conds):
                    out.append(element(local))
            return out
        return run

    c_GeneratorExp = c_ListComp


def _lean_add(left: Evaluator, right: Evaluator) -> Evaluator:
    def run(env: Env) -> Any:
        a, b = left(env), right(env)
        if type(a) is int and type(b) is int:  # whole numbers in the cap, a sum in it: as _add gives
            r = a + b
            if -MAX_NUMBER <= r <= MAX_NUMBER and -MAX_NUMBER <= a <= MAX_NUMBER and -MAX_NUMBER <= b <= MAX_NUMBER:
                return r
        return _add(a, b)
    return run


def _lean_sub(left: Evaluator, right: Evaluator) -> Evaluator:
    def run(env: Env) -> Any:
        a, b = left(env), right(env)
        if type(a) is int and type(b) is int:
            r = a - b
            if -MAX_NUMBER <= r <= MAX_NUMBER and -MAX_NUMBER <= a <= MAX_NUMBER and -MAX_NUMBER <= b <= MAX_NUMBER:
                return r
        return _sub(a, b)
    return run


def _lean_mul(left: Evaluator, right: Evaluator) -> Evaluator:
    def run(env: Env) -> Any:
        a, b = left(env), right(env)
        if type(a) is int and type(b) is int and -MAX_NUMBER <= a <= MAX_NUMBER and -MAX_NUMBER <= b <= MAX_NUMBER:
            r = a * b
            if -MAX_NUMBER <= r <= MAX_NUMBER:
                return r
        return _mul(a, b)
    return run


# An operator's closure with whole numbers worked out inline (one type test each), anything else
# through the checked function of BINOPS, which gives the same value or error.
_LEAN_BINOPS: dict[type, Callable[[Evaluator, Evaluator], Evaluator]] = {
    ast.Add: _lean_add, ast.Sub: _lean_sub, ast.Mult: _lean_mul}


def _lean_order(op: type, left: Evaluator, right: Evaluator) -> Evaluator:
    """`left < right` (and <=, >, >=) as one closure: whole numbers in the cap compared inline,
    anything else through CMPOPS (which gives the same answer or error)."""
    checked = CMPOPS[op]
    if op is ast.Lt:
        def run_lt(env: Env) -> bool:
            a, b = left(env), right(env)
            if type(a) is int and type(b) is int and -MAX_NUMBER <= a <= MAX_NUMBER and -MAX_NUMBER <= b <= MAX_NUMBER:
                return a < b
            return checked(a, b)
        return run_lt
    if op is ast.LtE:
        def run_le(env: Env) -> bool:
            a, b = left(env), right(env)
            if type(a) is int and type(b) is int and -MAX_NUMBER <= a <= MAX_NUMBER and -MAX_NUMBER <= b <= MAX_NUMBER:
                return a <= b
            return checked(a, b)
        return run_le
    if op is ast.Gt:
        def run_gt(env: Env) -> bool:
            a, b = left(env), right(env)
            if type(a) is int and type(b) is int and -MAX_NUMBER <= a <= MAX_NUMBER and -MAX_NUMBER <= b <= MAX_NUMBER:
                return a > b
            return checked(a, b)
        return run_gt

    def run_ge(env: Env) -> bool:
        a, b = left(env), right(env)
        if type(a) is int and type(b) is int and -MAX_NUMBER <= a <= MAX_NUMBER and -MAX_NUMBER <= b <= MAX_NUMBER:
            return a >= b
        return checked(a, b)
    return run_ge


class _Overlay(dict[str, Any]):
    """A comprehension's variable over the names of the formula (a ruleset may declare thousands)."""

    __slots__ = ("base",)
    base: Env

    def __missing__(self, name: str) -> Any:
        return self.base[name]


def _describe(node: ast.AST) -> str:
    """What a node of a refused kind is, in words (a `Said`); Python's own keywords and names as they are."""
    names = {
        "Attribute": N_("attribute access (a dot)"), "JoinedStr": N_("an f-string"),
        "NamedExpr": N_("assignment (:=)"), "Dict": N_("a table literal"), "Set": N_("a set literal"),
        "DictComp": N_("a table comprehension"), "SetComp": N_("a set comprehension"),
    }
    kind = type(node).__name__
    if kind in names:
        return Said(names[kind])
    return {"Lambda": "lambda", "Await": "await", "Yield": "yield", "YieldFrom": "yield", "Starred": "*"}.get(kind, kind)


def compile_formula(source: Any, key: str, known: Collection[str],
                    functions: Mapping[str, Callable[..., Any]] | None = None) -> Formula:
    """Compile `source` (text, or a plain number/bool from TOML) once; raises FormulaError naming `key`."""
    if isinstance(source, (bool, int, float)):
        const = source if isinstance(source, bool) else _number(source)
        run: Evaluator = lambda env: const  # noqa: E731
        return Formula(str(source), key, frozenset(), run, 1, ast.Constant(const),
                       constant=const if type(const) is int else None)
    if not isinstance(source, str):
        raise FormulaError(Said(N_("{key}: a formula must be text or a number"), key=key))
    if len(source) > MAX_SOURCE:
        raise FormulaError(Said(N_("{key}: the formula is longer than {most} characters"), key=key, most=MAX_SOURCE))
    text = source.strip()
    if not text:
        raise FormulaError(Said(N_("{key}: the formula is empty"), key=key))
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise FormulaError(Said(N_("{key}: not a valid formula ({detail}): {formula}"), key=key, detail=exc.msg,
                                formula=repr(text))) from None
    except (RecursionError, MemoryError, ValueError):
        raise FormulaError(Said(N_("{key}: the formula nests too deeply"), key=key)) from None
    count = 0  # also the formula's weight: the steps one evaluation costs before its loops
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise FormulaError(Said(N_("{key}: the formula is too long (over {most} parts)"), key=key, most=MAX_NODES))
        if depth > MAX_DEPTH:
            raise FormulaError(Said(N_("{key}: the formula nests too deeply (over {most} levels)"), key=key,
                                    most=MAX_DEPTH))
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    compiler = _Compiler(text, key, known, functions or {})
    assert isinstance(tree, ast.Expression)
    body = tree.body
    run = compiler.compile(body)  # first: it also collects the names the formula reads
    written = body.value if isinstance(body, ast.Constant) and type(body.value) is int else None
    return Formula(text, key, frozenset(compiler.used), run, count, body,
                   constant=written if written is not None and abs(written) <= MAX_NUMBER else None)
