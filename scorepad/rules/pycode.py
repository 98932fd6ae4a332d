"""Formulas written as Python source: the translation a game's whole-hand code (engine/handcode.py)
is made of.

A formula is evaluated by its closure tree (expr.py) everywhere but in the hand code, which does a
whole hand in one generated function. `_CodeGen` writes the validated tree of a formula that expr's
compiler accepted, node by node, as inline operations and calls of the checked helpers below (or
expr's own), with the same charges to the budget; the text is compiled once per process (`_compiled`).
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Mapping
from types import CodeType
from typing import Any

from scorepad.errors import FormulaError
from scorepad.locale import N_, Said
from scorepad.rules.expr import (
    _CONTAINER_TYPES,
    _CONTAINERS,
    BINOPS,
    BUILTINS,
    CMPOPS,
    ITERATING,
    MAX_NUMBER,
    _charge,
    _contains,
    _count,
    _deep_eq,
    _describe,
    _lookup,
    _number,
    _parts,
    _plain_eq,
    _plain_ne,
    _seq,
    _sum,
)


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
        _charge(len(value))
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


def _sum_one(value: Any) -> Any:
    """`sum(xs)` in generated code: the charge of `_iterate_one` and `_fast_sum` in one call. Whole
    numbers (and yes/no, which count 1 and 0 either way) whose sizes together stay within the cap
    are added at once: no partial sum can leave it; a fraction makes the total one, and goes the
    checked way."""
    if type(value) is list:
        _charge(len(value))
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
            _charge(len(value))
            if value and set(map(type, value)) <= _INT_ONLY and sum(map(abs, value)) <= MAX_NUMBER:
                return pick(value)
            return slow(value)
        return _iterate_one(slow, value)
    return run


def _len_one(value: Any) -> Any:
    """`len(xs)` in generated code: `_iterate_one` and len() in one call."""
    if type(value) is list:
        _charge(len(value))
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
        raise FormulaError(Said(N_("{what} is not allowed in a formula"), what=_describe(node)))  # the compiler refused it first

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


