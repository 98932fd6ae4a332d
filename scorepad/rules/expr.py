"""The safe formula language of rulesets: a whitelist compiler from Python expression syntax to closures.

Rulesets come from strangers, so a formula may only do arithmetic and comparisons on numbers,
look values up in lists and tables, and call the functions listed here. There is no attribute
access, no import, no assignment, no loop but one bounded comprehension, and every number is
capped, so a formula can neither reach the interpreter nor run for long. Formulas are compiled
once per ruleset; errors name the TOML key and point at the mistake.

Work is bounded twice. `estimate()` gives each formula's worst case in steps from the sizes of the
lists it can see (the ruleset refuses formulas that could exceed `MAX_STEPS` a hand), and every
evaluation runs on a step budget (`formula_budget()`, one per hand): each formula call costs its
number of parts, each comprehension its length times its body, each function over a list that
list's length. A budget that runs out stops the formula with an error naming it; no clock is used,
so the same hand always gives the same answer and nothing is left half done.
"""

from __future__ import annotations

import ast
import functools
import math
import re
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import CodeType
from typing import Any, ParamSpec, TypeVar

from scorepad.errors import FormulaError
from scorepad.record import field, record

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


def active_budget() -> Budget:
    """The budget the formulas evaluated now run on (the engine's entry points each set one)."""
    budget = _ACTIVE.get()
    if budget is None:
        raise RuntimeError("no formula budget is active")
    return budget


def _charge(steps: int) -> None:
    budget = _ACTIVE.get()
    if budget is not None:
        budget.left -= steps
        if budget.left < 0:
            raise _Exhausted


@record
class Formula:
    """A compiled formula: its source, where it came from, and the closure that evaluates it."""

    source: str
    key: str
    names: frozenset[str]
    run: Evaluator
    weight: int = 1  # parts of the formula: the steps one evaluation costs before its loops
    # the validated tree: what a game's whole-hand code (engine/handcode.py) is written from
    tree: ast.expr | None = field(default=None, compare=False, repr=False)
    # the ruleset's functions the formula may call (card functions): what the hand code binds
    functions: Mapping[str, Callable[..., Any]] = field(default_factory=dict, compare=False, repr=False)
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
                budget.message = (f"{self.key}: {self.source!r} was stopped: the formulas of one hand may "
                                  f"take at most {budget.limit:,} steps (it goes through large lists too often)")
            raise BudgetError(budget.message) from None
        except FormulaError as exc:
            if exc.message.startswith(self.key + ":"):
                raise
            raise FormulaError(f"{self.key}: {self.source!r} failed: {exc.message}") from None
        except RecursionError:
            raise FormulaError(f"{self.key}: the formula nests too deeply") from None
        except (ArithmeticError, TypeError, ValueError, KeyError, IndexError) as exc:
            raise FormulaError(f"{self.key}: {self.source!r} failed: {_plain(exc)}") from None

    __call__ = evaluate
    fast = evaluate  # the name the engine's hot loops call it by


def _plain(exc: BaseException) -> str:
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    return str(exc) or type(exc).__name__


def _number(value: Any, what: str = "value") -> int | float:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        if abs(value) > MAX_NUMBER:
            raise FormulaError(f"number too large ({what} beyond ±10^15)")
        return value
    if isinstance(value, float):
        if not math.isfinite(value) or abs(value) > MAX_NUMBER:
            raise FormulaError(f"number too large ({what} beyond ±10^15)")
        if value.is_integer():
            return int(value)
        return value
    raise TypeError(f"expected a number, got {_kind(value)}")


def _kind(value: Any) -> str:
    if isinstance(value, str):
        return f"the word {value!r}"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    if value is None:
        return "nothing (an empty field)"
    return type(value).__name__


value_kind = _kind  # what a value is, in words, without printing it (it may be huge)


def _pow(a: Any, b: Any) -> int | float:
    base, exp = _number(a), _number(b)
    if not isinstance(exp, int) or not 0 <= exp <= MAX_EXPONENT:
        raise FormulaError(f"exponent must be a whole number 0..{MAX_EXPONENT}")
    if abs(base) > 10**6:
        raise FormulaError("number too large (power of a base beyond 10^6)")
    return _number(base**exp, "power")


def _div(a: Any, b: Any) -> int | float:
    return _number(_number(a) / _number(b))


def _checked(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def run(a: Any, b: Any) -> Any:
        return _number(op(_number(a), _number(b)))

    return run


BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: _checked(lambda a, b: a + b),
    ast.Sub: _checked(lambda a, b: a - b),
    ast.Mult: _checked(lambda a, b: a * b),
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
        raise TypeError(f"'in' needs a list, table or word on the right, got {_kind(b)}")
    if isinstance(b, str) and not isinstance(a, str):
        raise TypeError("'in' a word needs a word on the left")
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
    raise TypeError(f"expected a list, got {_kind(value)}")


def _minmax(pick: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        items = _seq(args[0]) if len(args) == 1 else list(args)
        if not items:
            raise ValueError("empty list")
        return pick(_number(x) for x in items)

    return run


def _sum(values: Any) -> int | float:
    total: int | float = 0
    for x in _seq(values):
        total = _number(total + _number(x))
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
        raise ValueError("round step must be positive")
    q = abs(x) / s
    n = math.floor(q + 0.5)
    return _number(math.copysign(n * s, x) if x else 0)


def _clamp(value: Any, low: Any, high: Any) -> int | float:
    return max(_number(low), min(_number(high), _number(value)))


def _if(cond: Any, a: Any, b: Any) -> Any:
    return a if cond else b


def _get(table: Any, key: Any, default: Any = 0) -> Any:
    if not isinstance(table, (dict, list, tuple)):
        raise TypeError(f"get() needs a table or list, got {_kind(table)}")
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
        raise TypeError(f"a table entry is named by a number or a word, not {_kind(key)}")
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
        raise KeyError(f"no entry {key!r} in the table (entries: {entries})")
    if isinstance(container, (list, tuple)):
        if isinstance(key, bool) or not isinstance(key, int):
            raise TypeError(f"a list position must be a whole number, got {_kind(key)}")
        if not -len(container) <= key < len(container):
            raise IndexError(f"position {key} is outside the list of {len(container)}")
        return container[key]
    if isinstance(container, str):
        raise TypeError("a word cannot be indexed")
    raise TypeError(f"cannot look up an entry in {_kind(container)}")


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
}
# the functions that go through the list they are given (one step per item); len() only counts
ITERATING = frozenset({"min", "max", "sum", "len", "count", "any", "all", "sorted", "index"})


def _parts(node: ast.AST) -> int:
    return sum(1 for _ in ast.walk(node))


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
        text = f"{self.key}: {message}"
        col = getattr(node, "col_offset", None)
        if col is not None and "\n" not in self.source:
            text += f"\n    {self.source}\n    {' ' * col}^"
        return FormulaError(text)

    def compile(self, node: ast.AST) -> Evaluator:
        method = getattr(self, "c_" + type(node).__name__, None)
        if method is None:
            raise self.fail(node, f"{_describe(node)} is not allowed in a formula")
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
                raise self.fail(node, f"a word longer than {MAX_STRING} characters")
            if "__" in value:  # no game word has one; it is how a formula would name interpreter internals
                raise self.fail(node, "a word with __ in it is not allowed")
        else:
            raise self.fail(node, f"the constant {value!r} is not allowed")
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
            return lambda env: env[name]
        known = ", ".join(sorted(n for n in self.known if not n.startswith("_")))
        raise self.fail(node, f"unknown name {name!r} (known: {known})")

    def c_BinOp(self, node: ast.BinOp) -> Evaluator:
        op = BINOPS.get(type(node.op))
        if op is None:
            raise self.fail(node, "this operator is not allowed (use + - * / // % **)")
        left, right = self.compile(node.left), self.compile(node.right)
        if id(left) in self.constants and id(right) in self.constants:
            try:
                folded = op(left({}), right({}))
            except FormulaError as exc:
                raise self.fail(node, exc.message) from None
            except (ArithmeticError, TypeError, ValueError) as exc:
                raise self.fail(node, _plain(exc)) from None
            return self._const(folded)
        return lambda env: op(left(env), right(env))

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
        raise self.fail(node, "this operator is not allowed")

    def c_BoolOp(self, node: ast.BoolOp) -> Evaluator:
        parts = [self.compile(v) for v in node.values]
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
                raise self.fail(node, "'is' is not allowed; use == or !=")
            if scalar[i] or scalar[i + 1]:  # a word or number on one side: == costs one step
                fn = {ast.Eq: _plain_eq, ast.NotEq: _plain_ne}.get(type(op), fn)
            rest.append((fn, self.compile(comp)))

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

    def c_Call(self, node: ast.Call) -> Evaluator:
        if not isinstance(node.func, ast.Name):
            raise self.fail(node, "only the listed functions can be called, by name")
        name = node.func.id
        fn = self.functions.get(name) or BUILTINS.get(name)
        if fn is None:
            known = ", ".join(sorted({*BUILTINS, *self.functions}))
            raise self.fail(node, f"unknown function {name!r} (known: {known})")
        if node.keywords:
            raise self.fail(node, "functions take positional arguments only")
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise self.fail(node, "* arguments are not allowed")
        args = [self.compile(a) for a in node.args]
        if name == "if_":
            if len(args) != 3:
                raise self.fail(node, "if_ takes three arguments")
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
            raise self.fail(node, "slices are not allowed")
        container, key = self.compile(node.value), self.compile(node.slice)
        return lambda env: _lookup(container(env), key(env))

    def c_List(self, node: ast.List) -> Evaluator:
        items = [self.compile(e) for e in node.elts]
        return lambda env: [i(env) for i in items]

    c_Tuple = c_List

    def c_ListComp(self, node: ast.ListComp | ast.GeneratorExp) -> Evaluator:
        if self.in_comprehension:
            raise self.fail(node, "a comprehension inside a comprehension is not allowed "
                                  "(compute the inner list in [let] first)")
        if len(node.generators) != 1:
            raise self.fail(node, "a comprehension may have one 'for'")
        gen = node.generators[0]
        if gen.is_async or not isinstance(gen.target, ast.Name):
            raise self.fail(node, "the comprehension variable must be a plain name")
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


class _Overlay(dict[str, Any]):
    """A comprehension's variable over the names of the formula (a ruleset may declare thousands)."""

    __slots__ = ("base",)
    base: Env

    def __missing__(self, name: str) -> Any:
        return self.base[name]


def _describe(node: ast.AST) -> str:
    names = {
        "Attribute": "attribute access (a dot)", "Lambda": "lambda", "JoinedStr": "an f-string",
        "NamedExpr": "assignment (:=)", "Dict": "a table literal", "Set": "a set literal",
        "DictComp": "a table comprehension", "SetComp": "a set comprehension",
        "Await": "await", "Yield": "yield", "YieldFrom": "yield", "Starred": "*",
    }
    return names.get(type(node).__name__, type(node).__name__)


# --------------------------------------------------------------------------- generated code

def _fast_add(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int and -MAX_NUMBER <= a <= MAX_NUMBER and -MAX_NUMBER <= b <= MAX_NUMBER:
        r = a + b
        if -MAX_NUMBER <= r <= MAX_NUMBER:
            return r
    return _number(_number(a) + _number(b))


def _fast_sub(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int and -MAX_NUMBER <= a <= MAX_NUMBER and -MAX_NUMBER <= b <= MAX_NUMBER:
        r = a - b
        if -MAX_NUMBER <= r <= MAX_NUMBER:
            return r
    return _number(_number(a) - _number(b))


def _fast_mul(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int and -MAX_NUMBER <= a <= MAX_NUMBER and -MAX_NUMBER <= b <= MAX_NUMBER:
        r = a * b
        if -MAX_NUMBER <= r <= MAX_NUMBER:
            return r
    return _number(_number(a) * _number(b))


def _fast_order(op: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    def run(a: Any, b: Any) -> bool:
        ta, tb = type(a), type(b)
        if (ta is int or ta is float) and (tb is int or tb is float):
            if -MAX_NUMBER <= a <= MAX_NUMBER and -MAX_NUMBER <= b <= MAX_NUMBER:
                return op(a, b)
        elif ta is str and tb is str:
            return op(a, b)
        return op(_number(a), _number(b))
    return run


def _fast_eq(a: Any, b: Any) -> bool:
    if type(a) in _CONTAINER_TYPES and type(b) in _CONTAINER_TYPES:
        return _deep_eq(a, b)
    return bool(a == b)


def _fast_ne(a: Any, b: Any) -> bool:
    if type(a) in _CONTAINER_TYPES and type(b) in _CONTAINER_TYPES:
        return not _deep_eq(a, b)
    return bool(a != b)


def _iterate_one(fn: Callable[[Any], Any], value: Any) -> Any:
    """A function over one list: one step per item, then the function."""
    if type(value) in _CONTAINER_TYPES:
        budget = _ACTIVE.get()
        if budget is not None:
            budget.left -= len(value)
            if budget.left < 0:
                raise _Exhausted
    return fn(value)


def _iterate(fn: Callable[..., Any], log: bool, *values: Any) -> Any:
    if values and isinstance(values[0], _CONTAINERS):
        n = len(values[0])
        _charge(n * max(1, n.bit_length()) if log else n)
    return fn(*values)


_INT_ONLY = frozenset({int})


def _small_ints(values: Any) -> bool:
    """A list of whole numbers (not yes/no) whose sizes together stay within the cap: no sum or
    partial sum of them can leave it, so they need no check one by one."""
    return (type(values) is list and bool(values) and set(map(type, values)) <= _INT_ONLY
            and sum(map(abs, values)) <= MAX_NUMBER)


def _fast_sum(*args: Any) -> int | float:
    if len(args) == 1 and _small_ints(args[0]):
        return sum(args[0])  # type: ignore[no-any-return]
    return _sum(*args)  # any other list, and the same error as sum() for the wrong number of values


def _fast_minmax(pick: Callable[..., Any], slow: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        if len(args) == 1 and _small_ints(args[0]):
            return pick(args[0])
        return slow(*args)
    return run


def _charge_list(value: list[Any]) -> None:
    budget = _ACTIVE.get()
    if budget is not None:
        budget.left -= len(value)
        if budget.left < 0:
            raise _Exhausted


def _sum_one(value: Any) -> Any:
    """`sum(xs)` in generated code: the charge of `_iterate_one` and `_fast_sum` in one call. Whole
    numbers (and yes/no, which count 1 and 0 either way) whose sizes together stay within the cap
    are added at once: no partial sum can leave it; a fraction makes the total one, and goes the
    checked way."""
    if type(value) is list:
        budget = _ACTIVE.get()
        if budget is not None:
            budget.left -= len(value)
            if budget.left < 0:
                raise _Exhausted
        try:
            if sum(map(abs, value)) <= MAX_NUMBER and type(total := sum(value)) is int:
                return total
        except TypeError:
            pass
        return _sum(value)
    return _iterate_one(_fast_sum, value)


def _pick_one(pick: Callable[..., Any], slow: Callable[..., Any]) -> Callable[[Any], Any]:
    """`max(xs)`, `min(xs)` in generated code: `_iterate_one` and `_fast_minmax` in one call."""
    def run(value: Any) -> Any:
        if type(value) is list:
            _charge_list(value)
            if value and set(map(type, value)) <= _INT_ONLY and sum(map(abs, value)) <= MAX_NUMBER:
                return pick(value)
            return slow(value)
        return _iterate_one(slow, value)
    return run


def _len_one(value: Any) -> Any:
    """`len(xs)` in generated code: `_iterate_one` and len() in one call."""
    if type(value) is list:
        _charge_list(value)
        return len(value)
    return _iterate_one(BUILTINS["len"], value)


_ONE_LIST: dict[str, Callable[[Any], Any]] = {
    "sum": _sum_one, "max": _pick_one(max, BUILTINS["max"]), "min": _pick_one(min, BUILTINS["min"]), "len": _len_one,
}


_FAST_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sum": _fast_sum, "max": _fast_minmax(max, BUILTINS["max"]), "min": _fast_minmax(min, BUILTINS["min"]),
}


def _items(value: Any, per_item: int) -> list[Any]:
    """A comprehension's list, its whole cost charged before the first item."""
    items = _seq(value)
    _charge(len(items) * per_item)
    return items


def _chain(first: Any, rest: tuple[tuple[Callable[[Any, Any], bool], Callable[[], Any]], ...]) -> bool:
    """`a < b < c`: each operand evaluated only when the comparisons before it held."""
    left = first
    for fn, right_fn in rest:
        right = right_fn()
        if not fn(left, right):
            return False
        left = right
    return True


_GEN_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    **BINOPS, ast.Add: _fast_add, ast.Sub: _fast_sub, ast.Mult: _fast_mul,
}
_GEN_CMPOPS: dict[type, Callable[[Any, Any], bool]] = {
    **CMPOPS, ast.Eq: _fast_eq, ast.NotEq: _fast_ne,
    ast.Lt: _fast_order(lambda a, b: a < b), ast.LtE: _fast_order(lambda a, b: a <= b),
    ast.Gt: _fast_order(lambda a, b: a > b), ast.GtE: _fast_order(lambda a, b: a >= b),
}


_SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})
_SIGNS = (ast.USub, ast.UAdd)


def _polynomial(node: ast.AST, atoms: list[ast.AST]) -> int:
    """The + - * operations of a sum of products, its other parts appended to `atoms` (whole-number
    constants are not parts; any other constant is, and stops the sum being worked out as written)."""
    if isinstance(node, ast.BinOp) and type(node.op) in _INLINE_ARITHMETIC:
        return 1 + _polynomial(node.left, atoms) + _polynomial(node.right, atoms)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, _SIGNS):
        return _polynomial(node.operand, atoms)
    if not (isinstance(node, ast.Constant) and type(node.value) is int):
        atoms.append(node)
    return 0


def _polynomial_bound(node: ast.AST, limit: int) -> int:
    """The largest size any partial result of a sum of products can have, its parts within ±limit."""
    if isinstance(node, ast.BinOp) and type(node.op) in _INLINE_ARITHMETIC:
        left, right = _polynomial_bound(node.left, limit), _polynomial_bound(node.right, limit)
        return left * right if isinstance(node.op, ast.Mult) else left + right
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, _SIGNS):
        return _polynomial_bound(node.operand, limit)
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return abs(node.value)
    return limit


def _plain_polynomial(node: ast.AST, names: Mapping[int, str]) -> str:
    """A sum of products as plain Python arithmetic over its parts' evaluated names."""
    if isinstance(node, ast.BinOp) and type(node.op) in _INLINE_ARITHMETIC:
        symbol = _INLINE_ARITHMETIC[type(node.op)]
        return f"({_plain_polynomial(node.left, names)} {symbol} {_plain_polynomial(node.right, names)})"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, _SIGNS):
        inner = _plain_polynomial(node.operand, names)
        return f"(-{inner})" if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.Constant):
        return repr(node.value)
    return names[id(node)]


class _GiveUp(Exception):
    """Raised by hand code on a value it leaves to the per-formula engine."""


def _give_up() -> Any:
    raise _GiveUp


# Functions whose value is a number within the cap (or yes/no) whatever they are given, when the
# ruleset does not define a function of that name
_NUMBER_FUNCTIONS = frozenset({"sum", "len", "abs", "round", "floor", "ceil", "clamp", "sign", "int", "count",
                               "index", "min", "max"})


def _known_number(node: ast.AST, functions: Mapping[str, Callable[..., Any]]) -> bool:
    """Whether the value of `node` is always a number (or yes/no) within the cap: a constant, a
    computed number, a comparison, a numeric built-in function."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float))
    if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Compare)):
        return True
    if isinstance(node, ast.Name):
        return node.id in ("true", "True", "false", "False")
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in _NUMBER_FUNCTIONS and node.func.id not in functions
    if isinstance(node, ast.IfExp):
        return _known_number(node.body, functions) and _known_number(node.orelse, functions)
    if isinstance(node, ast.BoolOp):
        return all(_known_number(v, functions) for v in node.values)
    return False


# functions whose helper only checks that its one value is a number (`_number`) before calling the
# built-in, which gives a whole number either way: in hand code, on a value already known to be a
# checked number, the built-in itself (not abs: abs(2.0) is 2.0 where the helper gives 2)
_PLAIN_ON_NUMBERS: dict[str, Callable[[Any], Any]] = {"floor": math.floor, "ceil": math.ceil, "int": int}
_INLINE_ARITHMETIC: dict[type, str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}
_INLINE_ORDER: dict[type, str] = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


_NO_ENTRY = object()  # hand code: a table entry looked up ahead of a loop was not there
_HAND_LOCAL = re.compile(r"n[0-9]+")  # a hand code's local: a name or let worked out before any loop


class _CodeGen:
    """The Python text of formulas the _Compiler has accepted, for a game's whole-hand code
    (engine/handcode.py): a formula is evaluated by its closure tree everywhere else.

    Only the validated tree is translated, node by node, into inline operations and calls of the
    checked helpers above; the names a formula reads become the hand code's locals (or `env['name']`
    lookups), every value, helper and function is bound in the code's globals (which hold no
    builtins), and the words of the formula are constants, never spliced into the text. Where it is
    sure of the values (whole numbers within the cap, words in tables, positions in lists) it does
    what the closure tree does, with the same charges to the budget; a value it is not sure of gives
    the hand up (`_give_up`) to the per-formula engine, which says any error in its own words.
    """

    def __init__(self, functions: Mapping[str, Callable[..., Any]]) -> None:
        self.functions = functions
        self.glob: dict[str, Any] = {"__builtins__": {}}
        self.locals: list[str] = []
        self.ids: dict[int, str] = {}
        self.temps = 0
        self.plain = False  # True: every operation as a helper call (where := cannot be used)
        # how a name the formula reads is written: `env['name']` unless the hand code says otherwise
        self.name_of: Callable[[str], str] | None = None
        self.in_lambda = 0  # inside a lambda (a chained comparison's later operand): no `_c :=` there
        self.atom_names: dict[int, str] = {}  # parts of a sum of products already evaluated (hand_polynomial)
        # hand code inside a loop over the players or sides: `t['word']` of a table the hand worked
        # out before the loop (a local `nX`) is looked up once, before the loop; (local, word) ->
        # (name, expression), emitted by the writer ahead of the loop. None: not in such a loop.
        self.hoisted: dict[tuple[str, str], tuple[str, str]] | None = None

    def temp(self) -> str:
        """A new local name for a value worked out once in the generated text."""
        self.temps += 1
        return f"_t{self.temps}"

    def operand(self, node: ast.AST) -> tuple[str, str, bool]:
        """How generated code evaluates an operand once and names it: (the first use, the later uses,
        whether it is a whole number known to be within the cap: a constant)."""
        if isinstance(node, ast.Constant) and type(node.value) is int:
            text = repr(_number(node.value, "constant"))
            return text, text, True
        name = self.temp()
        return f"({name} := {self.expr(node)})", name, False

    def whole(self, *operands: tuple[str, str, bool]) -> str:
        """The test that each operand is a whole number within the cap (each evaluated, in order)."""
        cap, is_int = MAX_NUMBER, self.bind(int)
        kind = [f"({self.bind(type)}({first}) is {is_int})" for first, _, const in operands if not const]
        ranges = [f"-{cap} <= {name} <= {cap}" for _, name, const in operands if not const]
        return " and ".join([" & ".join(kind), *ranges] if kind else ranges or ["True"])

    def hand_operands(self, *nodes: ast.AST) -> tuple[list[str], list[str]]:
        """Hand code: each operand evaluated once and named, with the test that it is a number
        within the cap; an operand known to be a checked number (a constant, a computed number)
        needs none. A word, a list or nothing fails the test by raising TypeError."""
        cap = MAX_NUMBER
        names, tests = [], []
        for node in nodes:
            if isinstance(node, ast.Constant) and type(node.value) is int:
                names.append(repr(_number(node.value, "constant")))
                continue
            name = self.temp()
            names.append(name)
            if _known_number(node, self.functions):
                tests.append(f"(({name} := {self.expr(node)}) is not None)")
            else:
                tests.append(f"-{cap} <= ({name} := {self.expr(node)}) <= {cap}")
        return names, tests

    def deferred_charges(self) -> bool:
        """Hand code outside a comprehension's list and a lambda: a list's charge can be added to the
        hand's local count `_c` (checked against the budget at once, given to it at the end)."""
        return not self.plain and not self.in_lambda

    def charge_len(self, name: str, per_item: str = "") -> str:
        return f"((_c := _c + {self.bind(len)}({name}){per_item}) <= B.left or {self.bind(_give_up)}())"

    def hand_contains(self, left: ast.AST, right: ast.AST) -> str:
        """Hand code's `a in xs` for a word, number, yes/no or nothing in a list; else `_contains`."""
        a, b = self.temp(), self.temp()
        return (f"({a} in {b} if ({self.bind(type)}({a} := {self.expr(left)}) in {self.bind(_SCALAR_TYPES)}) & "
                f"({self.bind(type)}({b} := {self.expr(right)}) is {self.bind(list)}) and {self.charge_len(b)} "
                f"else {self.bind(_contains)}({a}, {b}))")

    def hand_one_list(self, name: str, arg: str) -> str | None:
        """Hand code's sum/len/any/all of one list, its charge deferred; None for any other call."""
        x = self.temp()
        is_list = f"{self.bind(type)}({x} := {arg}) is {self.bind(list)} and {self.charge_len(x)}"
        if name == "sum":
            total, values = self.temp(), self.temp()
            # a table's entries (`_seq`: its values) as a list's items; anything else through `_sum_one`
            table = (f"({total} if {self.bind(type)}({x}) is {self.bind(dict)} and {self.charge_len(x)} and "
                     f"(({values} := {self.bind(list)}({x}.values())) is {values}) and {self.whole_sum(values, total)} "
                     f"else {self.bind(_sum_one)}({x}))")
            return f"({total} if {is_list} and {self.whole_sum(x, total)} else {table})"
        if name == "len":
            return f"({self.bind(len)}({x}) if {is_list} else {self.bind(_len_one)}({x}))"
        if name == "count":  # count(xs): the items equal to yes (`_count`'s x == True, as list.count compares)
            return f"({x}.count(True) if {is_list} else {self.bind(_iterate_one)}({self.bind(_count)}, {x}))"
        if name in ("any", "all"):
            fn = any if name == "any" else all
            return f"({self.bind(fn)}({x}) if {is_list} else {self.bind(_iterate_one)}({self.bind(BUILTINS[name])}, {x}))"
        return None

    def whole_sum(self, items: str, total: str) -> str:
        """The test that the list `items` adds up as `_sum` would, its total put in `total`: whole
        numbers, none below 0 and the total within the cap (no partial sum beyond it: the common case,
        counts and points), or their sizes together within the cap."""
        add, cap = self.bind(sum), MAX_NUMBER
        return (f"{self.bind(type)}({total} := {add}({items})) is {self.bind(int)} and "
                f"((0 <= {total} <= {cap} and (not {items} or {self.bind(min)}({items}) >= 0)) or "
                f"{add}({self.bind(map)}({self.bind(abs)}, {items})) <= {cap})")

    def hand_polynomial(self, node: ast.BinOp) -> str | None:
        """Hand code's sum of products (`a * x + b * y - c`, two operations or more): when every part
        is a whole number small enough that no partial result can leave the cap, the whole sum is
        worked out as it is written; otherwise each operation as `hand_arithmetic` does, on the parts
        already evaluated. None when the formula has a fraction in it or only one operation."""
        atoms: list[ast.AST] = []
        operations = _polynomial(node, atoms)
        if self.atom_names or operations < 2 or any(isinstance(a, ast.Constant) for a in atoms):
            return None
        small = next((limit for limit in (10**6, 10**5, 10**4, 10**3, 10**2, 10)
                      if _polynomial_bound(node, limit) <= MAX_NUMBER), None)
        if small is None:
            return None
        names = [self.temp() for _ in atoms]
        kind, is_int, result = self.bind(type), self.bind(int), self.temp()
        # every part evaluated (a tuple of them: the checked way reads them too), each within the
        # limit (a word, a list or nothing raises there: the hand stops), and the result whole: a
        # fraction among the parts makes it a float, and the checked way works it out
        evaluated = "(" + "".join(f"({t} := {self.polynomial_part(a)}), " for t, a in zip(names, atoms, strict=True)) + ")"
        ranges = " and ".join(f"-{small} <= {t} <= {small}" for t in names)
        self.atom_names.update((id(a), t) for a, t in zip(atoms, names, strict=True))
        try:
            checked = self.hand_arithmetic(node, _INLINE_ARITHMETIC[type(node.op)])
            plain = _plain_polynomial(node, self.atom_names)
        finally:
            for a in atoms:
                del self.atom_names[id(a)]
        return f"({result} if {evaluated} and {ranges} and {kind}({result} := {plain}) is {is_int} else {checked})"

    def polynomial_part(self, atom: ast.AST) -> str:
        """A part of a sum of products: every part is read, so a table's entry looked up ahead of the
        loop is read as it was found; a missing one (`_NO_ENTRY`) fails the range test by raising,
        and the hand goes the per-formula way, which says it is missing."""
        if isinstance(atom, ast.Subscript) and isinstance(atom.slice, ast.Constant) and type(atom.slice.value) is str:
            found = self.hoisted_lookup(atom.value, self.bind(atom.slice.value), bare=True)
            if found is not None:
                return found
        return self.expr(atom)

    def hand_arithmetic(self, node: ast.BinOp, symbol: str) -> str:
        """Hand code's `a + b`, `a - b`, `a * b`: numbers within the cap (else the hand stops), a
        whole result within the cap as it is, anything else (a fraction, beyond the cap) through
        the same helper as in a formula's own code."""
        (a, b), tests = self.hand_operands(node.left, node.right)
        result, cap = self.temp(), MAX_NUMBER
        inner = f"({a} {symbol} {b} if {' and '.join(tests)} else {self.bind(_give_up)}())" if tests else f"{a} {symbol} {b}"
        slow = self.bind(_GEN_BINOPS[type(node.op)])
        return (f"({result} if {self.bind(type)}({result} := {inner}) is {self.bind(int)} "
                f"and -{cap} <= {result} <= {cap} else {slow}({a}, {b}))")

    def hand_division(self, node: ast.BinOp) -> str:
        """Hand code's `a / b` (`_div`): numbers within the cap; a quotient within it, a whole one as an
        int; dividing by zero raises, and anything else stops the hand."""
        (a, b), tests = self.hand_operands(node.left, node.right)
        q, cap = self.temp(), MAX_NUMBER
        guard = " and ".join([*tests, f"-{cap} <= ({q} := {a} / {b}) <= {cap}"])
        return f"(({self.bind(int)}({q}) if {q}.is_integer() else {q}) if {guard} else {self.bind(_give_up)}())"

    def hand_order(self, left: ast.AST, right: ast.AST, symbol: str) -> str:
        """Hand code's `a < b`: numbers within the cap compare as they are; anything else stops the hand."""
        (a, b), tests = self.hand_operands(left, right)
        if not tests:
            return f"({a} {symbol} {b})"
        return f"({a} {symbol} {b} if {' and '.join(tests)} else {self.bind(_give_up)}())"

    def equality(self, left: ast.AST, right: ast.AST, equal: bool) -> str:
        """`a == b` inline: lists and tables compared item by item (charged) as `_fast_eq` does."""
        a, b = self.operand(left), self.operand(right)
        kinds = self.bind(_CONTAINER_TYPES)
        deep = f"{self.bind(_deep_eq)}({a[1]}, {b[1]})"
        test = f"({self.bind(type)}({a[0]}) in {kinds}) & ({self.bind(type)}({b[0]}) in {kinds})"
        if equal:
            return f"({deep} if {test} else {a[1]} == {b[1]})"
        return f"((not {deep}) if {test} else {a[1]} != {b[1]})"

    def subscript(self, node: ast.Subscript) -> str:
        """`t['word']`, `xs[i]` inline for a word in a table and a position in a list; anything
        else (a missing entry, a number naming an entry, a position outside) goes to `_lookup`."""
        c = self.temp()
        lookup = self.bind(_lookup)
        container = f"({c} := {self.expr(node.value)})"
        key = node.slice
        if isinstance(key, ast.Constant) and type(key.value) is str:
            k = self.bind(key.value)
            hoisted = self.hoisted_lookup(node.value, k)
            if hoisted is not None:
                return hoisted
            return f"({c}[{k}] if {self.bind(type)}{container} is {self.bind(dict)} and {k} in {c} else {lookup}({c}, {k}))"
        kind = self.bind(type)
        if isinstance(key, ast.Constant) and type(key.value) is int:  # a position outside: IndexError
            return f"({c}[{key.value!r}] if {kind}{container} is {self.bind(list)} else {lookup}({c}, {key.value!r}))"
        # also a position in a list (outside: IndexError), and a whole number naming a table's entry by
        # its text (`_table_entry`: the number itself first)
        k, tc, tk, text = self.temp(), self.temp(), self.temp(), self.temp()
        is_dict, is_int = f"({tc} is {self.bind(dict)})", f"({tk} is {self.bind(int)})"
        by_number = (f"({c}[{text}] if {is_dict} & {is_int} and {k} not in {c} and ({text} := {self.bind(str)}({k})) "
                     f"in {c} else {lookup}({c}, {k}))")
        return (f"({c}[{k}] if (({tc} := {kind}{container}) is {self.bind(dict)}) & (({tk} := {kind}({k} := "
                f"{self.expr(key)})) is {self.bind(str)}) and {k} in {c} or ({tc} is {self.bind(list)}) & {is_int} "
                f"else {by_number})")

    def hoisted_lookup(self, container: ast.AST, k: str, bare: bool = False) -> str | None:
        """`t['word']` read from its lookup before the loop (see `hoisted`); None when `t` is not a
        value the hand worked out before it. Ahead of the loop a missing entry is only noted (the
        formula may not read it, in a branch not taken); where the formula reads it, it raises."""
        if (self.hoisted is None or not isinstance(container, ast.Name) or container.id in self.locals
                or self.name_of is None):
            return None
        source = self.name_of(container.id)
        if not _HAND_LOCAL.fullmatch(source):
            return None
        found = self.hoisted.get((source, k))
        if found is None:
            c, missing = self.temp(), self.bind(_NO_ENTRY)
            text = f"({c}[{k}] if {self.bind(type)}({c} := {source}) is {self.bind(dict)} and {k} in {c} else {missing})"
            found = self.hoisted[(source, k)] = (self.temp(), text)
        name = found[0]
        if bare:  # read where a missing entry stops the hand anyway (`hand_polynomial`'s parts)
            return name
        # no entry: the lookup where the formula makes it raises as it would have
        return f"({name} if {name} is not {self.bind(_NO_ENTRY)} else {self.bind(_lookup)}({source}, {k}))"

    def bind(self, value: Any) -> str:
        """A global name for `value` in the generated code."""
        name = self.ids.get(id(value))
        if name is None or self.glob.get(name) is not value:
            name = f"_g{len(self.glob)}"
            self.glob[name] = value
            self.ids[id(value)] = name
        return name

    def expr(self, node: ast.AST) -> str:
        """The Python text of one validated node (the compiler refused every other kind first)."""
        named = self.atom_names.get(id(node))
        if named is not None:
            return named
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.BinOp):
            return self.binop(node)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node)
        if isinstance(node, ast.BoolOp):
            word = " and " if isinstance(node.op, ast.And) else " or "
            return "(" + word.join(self.expr(v) for v in node.values) + ")"
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.IfExp):
            return f"({self.expr(node.body)} if {self.expr(node.test)} else {self.expr(node.orelse)})"
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Subscript):
            if not self.plain:
                return self.subscript(node)
            return f"{self.bind(_lookup)}({self.expr(node.value)}, {self.expr(node.slice)})"
        if isinstance(node, (ast.List, ast.Tuple)):
            return "[" + "".join(self.expr(e) + ", " for e in node.elts) + "]"
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            return self.comprehension(node)
        raise FormulaError(f"{_describe(node)} is not allowed in a formula")  # the compiler refused it first

    def constant(self, node: ast.Constant) -> str:
        value = node.value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = _number(value, "constant")
        return self.bind(value) if isinstance(value, str) else repr(value)

    def name(self, name: str) -> str:
        if name in ("true", "True"):
            return "True"
        if name in ("false", "False"):
            return "False"
        if name in self.locals:
            return f"_v{self.locals[::-1].index(name)}_{len(self.locals)}"
        if self.name_of is not None:
            return self.name_of(name)
        return f"env[{self.bind(name)}]"

    def binop(self, node: ast.BinOp) -> str:
        symbol = _INLINE_ARITHMETIC.get(type(node.op))
        if isinstance(node.op, ast.Div) and not self.plain:
            return self.hand_division(node)
        if symbol is not None and not self.plain:
            return self.hand_polynomial(node) or self.hand_arithmetic(node, symbol)
        return f"{self.bind(_GEN_BINOPS[type(node.op)])}({self.expr(node.left)}, {self.expr(node.right)})"

    def unary(self, node: ast.UnaryOp) -> str:
        inner = self.expr(node.operand)
        if isinstance(node.op, ast.Not):
            return f"(not {inner})"
        if isinstance(node.op, ast.USub):
            return f"(-{self.bind(_number)}({inner}))"
        return f"{self.bind(_number)}({inner})"

    def compare(self, node: ast.Compare) -> str:
        scalar = [isinstance(n, ast.Constant) for n in (node.left, *node.comparators)]
        fns = []
        for i, op in enumerate(node.ops):
            fn = _GEN_CMPOPS[type(op)]
            if scalar[i] or scalar[i + 1]:  # a word or number on one side: == costs one step
                fn = {ast.Eq: _plain_eq, ast.NotEq: _plain_ne}.get(type(op), fn)
            fns.append(fn)
        if len(fns) == 1:
            kind: type = type(node.ops[0])
            if fns[0] is _plain_eq or fns[0] is _plain_ne:  # a word or number on one side: plain ==
                return f"({self.expr(node.left)} {'==' if fns[0] is _plain_eq else '!='} {self.expr(node.comparators[0])})"
            if kind in (ast.In, ast.NotIn) and self.deferred_charges():
                found = self.hand_contains(node.left, node.comparators[0])
                return found if kind is ast.In else f"(not {found})"
            if kind in _INLINE_ORDER and not self.plain:
                return self.hand_order(node.left, node.comparators[0], _INLINE_ORDER[kind])
            if kind in (ast.Eq, ast.NotEq) and not self.plain:
                return self.equality(node.left, node.comparators[0], kind is ast.Eq)
            return f"{self.bind(fns[0])}({self.expr(node.left)}, {self.expr(node.comparators[0])})"
        first = self.expr(node.left)
        self.in_lambda += 1
        try:
            rest = "".join(f"({self.bind(fn)}, lambda: {self.expr(c)}), " for fn, c in zip(fns, node.comparators,
                                                                                         strict=True))
        finally:
            self.in_lambda -= 1
        return f"{self.bind(_chain)}({first}, ({rest}))"

    def call(self, node: ast.Call) -> str:
        assert isinstance(node.func, ast.Name)
        name = node.func.id
        fn = self.functions.get(name) or BUILTINS[name]
        if fn is BUILTINS.get(name):
            fn = _FAST_FUNCTIONS.get(name, fn)
        if (name in _PLAIN_ON_NUMBERS and name not in self.functions and len(node.args) == 1
                and not node.keywords and _known_number(node.args[0], self.functions)):
            # a number already checked (within the cap): the built-in itself, as the helper would call it
            return f"{self.bind(_PLAIN_ON_NUMBERS[name])}({self.expr(node.args[0])})"
        args = [self.expr(a) for a in node.args]
        if name == "if_":
            c, a, b = args
            return f"({a} if {c} else {b})"
        if name in ITERATING or name in self.functions:
            if len(args) == 1 and name not in self.functions and self.deferred_charges():
                inline = self.hand_one_list(name, args[0])
                if inline is not None:
                    return inline
            if len(args) == 1 and name in _ONE_LIST and name not in self.functions:
                return f"{self.bind(_ONE_LIST[name])}({args[0]})"
            if len(args) == 1 and name != "sorted":
                return f"{self.bind(_iterate_one)}({self.bind(fn)}, {args[0]})"
            log = "True" if name == "sorted" else "False"
            if name != "sorted" and args and self.deferred_charges():
                # hand code: a function of a list (a card function, count, index) called at once
                names = [self.temp() for _ in args]
                rest = "".join(f" & (({t} := {a}) is {t})" for t, a in zip(names[1:], args[1:], strict=True))
                listed = ", ".join(names)
                return (f"({self.bind(fn)}({listed}) if ({self.bind(type)}({names[0]} := {args[0]}) is "
                        f"{self.bind(list)}){rest} and {self.charge_len(names[0])} "
                        f"else {self.bind(_iterate)}({self.bind(fn)}, False, {listed}))")
            return f"{self.bind(_iterate)}({self.bind(fn)}, {log}, {', '.join(args)})"
        return f"{self.bind(fn)}({', '.join(args)})"

    def comprehension(self, node: ast.ListComp | ast.GeneratorExp) -> str:
        gen = node.generators[0]
        assert isinstance(gen.target, ast.Name)
        saved, self.plain = self.plain, True  # no := in a comprehension's iterable: helper calls there
        try:
            iterable = self.expr(gen.iter)
        finally:
            self.plain = saved
        per_item = 1 + _parts(node.elt) + sum(_parts(c) for c in gen.ifs)
        self.locals.append(gen.target.id)
        try:
            var = f"_v0_{len(self.locals)}"
            element = self.expr(node.elt)
            conds = "".join(f" if {self.expr(c)}" for c in gen.ifs)
        finally:
            self.locals.pop()
        return f"[{element} for {var} in {self.bind(_items)}({iterable}, {per_item}){conds}]"


def compile_formula(source: Any, key: str, known: Collection[str],
                    functions: Mapping[str, Callable[..., Any]] | None = None) -> Formula:
    """Compile `source` (text, or a plain number/bool from TOML) once; raises FormulaError naming `key`."""
    if isinstance(source, (bool, int, float)):
        const = source if isinstance(source, bool) else _number(source)
        run: Evaluator = lambda env: const  # noqa: E731
        return Formula(str(source), key, frozenset(), run, 1, ast.Constant(const),
                       constant=const if type(const) is int else None)
    if not isinstance(source, str):
        raise FormulaError(f"{key}: a formula must be text or a number")
    if len(source) > MAX_SOURCE:
        raise FormulaError(f"{key}: the formula is longer than {MAX_SOURCE} characters")
    text = source.strip()
    if not text:
        raise FormulaError(f"{key}: the formula is empty")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise FormulaError(f"{key}: not a valid formula ({exc.msg}): {text!r}") from None
    except (RecursionError, MemoryError, ValueError):
        raise FormulaError(f"{key}: the formula nests too deeply") from None
    count = 0  # also the formula's weight: the steps one evaluation costs before its loops
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise FormulaError(f"{key}: the formula is too long (over {MAX_NODES} parts)")
        if depth > MAX_DEPTH:
            raise FormulaError(f"{key}: the formula nests too deeply (over {MAX_DEPTH} levels)")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    compiler = _Compiler(text, key, known, functions or {})
    assert isinstance(tree, ast.Expression)
    body = tree.body
    run = compiler.compile(body)  # first: it also collects the names the formula reads
    written = body.value if isinstance(body, ast.Constant) and type(body.value) is int else None
    return Formula(text, key, frozenset(compiler.used), run, count, body, functions=compiler.functions,
                   constant=written if written is not None and abs(written) <= MAX_NUMBER else None)


_CODE: dict[tuple[str, str], CodeType] = {}  # generated text and file name -> its code object
_TABLE_LIMIT = 20_000


def _compiled(text: str, filename: str) -> CodeType:
    """The code object of generated text, compiled once per process (the hand code of another load
    of the same ruleset gives the same text; its values are bound anew in its globals). Bounded:
    emptied when full, it only costs a compile again."""
    code = _CODE.get((text, filename))
    if code is None:
        if len(_CODE) >= _TABLE_LIMIT:
            _CODE.clear()
        code = _CODE[(text, filename)] = compile(text, filename, "exec")
    return code


# --------------------------------------------------------------------------- the static cost estimate

Size = tuple[int, int, int]
"""What a value can hold at most: (the longest list or table in it, all the values in it counted,
how deep lists nest in it). A number or a word is (0, 1, 0)."""

SCALAR: Size = (0, 1, 0)
_CAP = 10**15


def _cap(n: int) -> int:
    return min(n, _CAP)


def list_of(count: int, item: Size) -> Size:
    """The size of a list of `count` values each at most `item` (all_X of a per-player X)."""
    return max(count, item[0], 1), _cap(1 + count * item[1]), item[2] + 1


def value_size(value: Any) -> Size:
    """The size of a plain value (a table of the ruleset, an option's default)."""
    if isinstance(value, dict):
        items = list(value.values())
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        return SCALAR
    longest, total, depth = max(len(items), 1), 1, 0
    for item in items:
        s, t, d = value_size(item)
        longest, total, depth = max(longest, s), _cap(total + t), max(depth, d)
    return longest, total, depth + 1


def widest(sizes: Collection[Size]) -> Size:
    """A size that bounds each of `sizes` (a value that may be any one of them)."""
    if not sizes:
        return SCALAR
    return max(s[0] for s in sizes), max(s[1] for s in sizes), max(s[2] for s in sizes)


def _item(container: Size) -> Size:
    """The size of one entry of a list or table of size `container`."""
    if container[2] <= 1:
        return SCALAR
    return container[0], max(container[1] - 1, 1), container[2] - 1


def estimate(formula: Formula, sizes: Mapping[str, Size], default: Size) -> tuple[int, Size]:
    """The most steps one evaluation of `formula` can take, and the largest value it can give.

    `sizes` bounds what each name can hold (names not in it may hold `default`). The bound follows
    the budget's charges: the formula's parts once, a comprehension's body once per item of its
    list, a function over a list once per item, `==` and `in` on lists once per item compared.
    """
    if formula.tree is None:
        return formula.weight, default
    extra, size = _Estimator(sizes, default).walk(formula.tree)
    return _cap(formula.weight + extra), size


class _Estimator:
    def __init__(self, sizes: Mapping[str, Size], default: Size) -> None:
        self.sizes = sizes
        self.default = default
        self.locals: dict[str, Size] = {}

    def walk(self, node: ast.AST) -> tuple[int, Size]:
        """(steps beyond one per part, size of the value) of `node`."""
        if isinstance(node, ast.Constant):
            return 0, SCALAR
        if isinstance(node, ast.Name):
            if node.id in self.locals:
                return 0, self.locals[node.id]
            if node.id in ("true", "True", "false", "False"):
                return 0, SCALAR
            return 0, self.sizes.get(node.id, self.default)
        if isinstance(node, ast.BinOp):
            return _cap(self.walk(node.left)[0] + self.walk(node.right)[0]), SCALAR
        if isinstance(node, ast.UnaryOp):
            return self.walk(node.operand)[0], SCALAR
        if isinstance(node, ast.BoolOp):
            parts = [self.walk(v) for v in node.values]
            return _cap(sum(c for c, _ in parts)), widest([s for _, s in parts])
        if isinstance(node, ast.IfExp):
            parts = [self.walk(node.test), self.walk(node.body), self.walk(node.orelse)]
            return _cap(sum(c for c, _ in parts)), widest([parts[1][1], parts[2][1]])
        if isinstance(node, ast.Compare):
            return self.compare(node), SCALAR
        if isinstance(node, ast.Subscript):
            (c1, container), (c2, _) = self.walk(node.value), self.walk(node.slice)
            return _cap(c1 + c2), _item(container)
        if isinstance(node, (ast.List, ast.Tuple)):
            parts = [self.walk(e) for e in node.elts]
            inner = widest([s for _, s in parts])
            size = (max(len(parts), inner[0], 1), _cap(1 + sum(s[1] for _, s in parts)), inner[2] + 1)
            return _cap(sum(c for c, _ in parts)), size
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            return self.comprehension(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        return _CAP, self.default  # nothing else compiles; never cheap if it did

    def compare(self, node: ast.Compare) -> int:
        cost, left = self.walk(node.left)
        for op, comp in zip(node.ops, node.comparators, strict=False):
            c, right = self.walk(comp)
            cost += c
            if isinstance(op, (ast.In, ast.NotIn)):
                deep = 2 * min(left[1], right[1]) if left[2] else 0
                cost += right[0] * (1 + deep)
            elif isinstance(op, (ast.Eq, ast.NotEq)) and left[2] and right[2]:
                cost += 2 * min(left[1], right[1])
            left = right
        return _cap(cost)

    def comprehension(self, node: ast.ListComp | ast.GeneratorExp) -> tuple[int, Size]:
        gen = node.generators[0]
        c_iter, items = self.walk(gen.iter)
        var = gen.target.id if isinstance(gen.target, ast.Name) else ""
        saved = self.locals.get(var)
        self.locals[var] = _item(items)
        try:
            c_elt, elt = self.walk(node.elt)
            c_ifs = sum(self.walk(c)[0] for c in gen.ifs)
        finally:
            if saved is None:
                self.locals.pop(var, None)
            else:
                self.locals[var] = saved
        per_item = 1 + _parts(node.elt) + sum(_parts(c) for c in gen.ifs) + c_elt + c_ifs
        size = (max(items[0], elt[0], 1), _cap(1 + items[0] * elt[1]), elt[2] + 1)
        return _cap(c_iter + items[0] * per_item), size

    def call(self, node: ast.Call) -> tuple[int, Size]:
        name = node.func.id if isinstance(node.func, ast.Name) else ""
        parts = [self.walk(a) for a in node.args]
        cost = sum(c for c, _ in parts)
        sizes = [s for _, s in parts]
        first = sizes[0] if sizes else SCALAR
        if name == "if_":
            return _cap(cost), widest(sizes[1:])
        if name in ITERATING or name not in BUILTINS:  # the ruleset's own (card) functions go through cards
            n = first[0]
            cost += n * max(1, n.bit_length()) if name == "sorted" else n
            if name in ("count", "index") and len(sizes) > 1 and sizes[1][2]:
                cost += n * 2 * min(first[1], sizes[1][1])
        if name == "sorted":
            return _cap(cost), first
        if name == "get":
            return _cap(cost), widest([_item(first), *sizes[2:]])
        return _cap(cost), SCALAR
