"""Formulas and message templates read aloud for a player (what `rules show` prints without --formulas).

A check's message is written for the moment a hand breaks it ("{me} bid {bid}, the tricks add up
to {sum(all_tricks)}"). Read as a rule, its placeholders are explained: one fixed by the options
and tables shows its value, `me` is "a player" or "a side", a value of the hand is named in
words ("[the total of everyone's tricks]"), and a bracketed aside that only reports the hand's values is left out.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence
from typing import Any

from scorepad.errors import FormulaError
from scorepad.expr import Formula

TEMPLATE_RE = re.compile(r"\{([^{}]+)\}")
_MARK = "\x00"
_ASIDE_RE = re.compile(r"\s*\([^()]*\x00[^()]*\)")
_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "×", ast.Div: "/", ast.FloorDiv: "/", ast.Mod: "mod",
        ast.Pow: "^"}
_COMPARE = {ast.Eq: "is", ast.NotEq: "is not", ast.Lt: "is less than", ast.LtE: "is at most",
            ast.Gt: "is more than", ast.GtE: "is at least", ast.In: "is in", ast.NotIn: "is not in"}


def name_words(name: str, who: str = "the player") -> str:
    """`all_tricks` → everyone's tricks, `others_score` → the others' score, `me` → the player."""
    if name == "me":
        return who
    for prefix, words in (("all_", "everyone's "), ("others_", "the others' "), ("team_", "the team's ")):
        if name.startswith(prefix):
            return words + name[len(prefix):].replace("_", " ")
    return name.replace("_", " ")


def formula_words(source: str, who: str = "the player") -> str:
    """A formula as words (`sum(all_tricks)` → the total of everyone's tricks); never braces or code."""
    try:
        tree = ast.parse(source.strip(), mode="eval").body
    except SyntaxError:
        return "a value"
    return _words(tree, who)


def _words(node: ast.AST, who: str) -> str:
    if isinstance(node, ast.Constant):
        if node.value is None:
            return "none"
        if isinstance(node.value, bool):
            return "yes" if node.value else "no"
        return str(node.value)
    if isinstance(node, ast.Name):
        return name_words(node.id, who)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        args = [_words(a, who) for a in node.args]
        fn = node.func.id
        if fn == "sum" and len(args) == 1:
            return f"the total of {args[0]}"
        if fn in ("max", "min") and len(args) == 1:
            return f"the {'highest' if fn == 'max' else 'lowest'} of {args[0]}"
        if fn in ("max", "min") and args:
            return f"the {'higher' if fn == 'max' else 'lower'} of {' and '.join(args)}"
        if fn in ("abs", "round", "int", "floor", "ceil") and args:
            return args[0]
        if fn in ("len", "count") and args:
            return f"the number of {args[0]}"
        if fn == "nrank" and len(args) == 2:
            return f"the {args[1]}s in {args[0]}"
        if fn == "nsuit" and len(args) == 2:
            return f"the {args[1]} cards in {args[0]}"
        if fn == "value" and len(args) == 1:
            return f"the card points of {args[0]}"
        if fn == "has" and len(args) == 2:
            return f"whether {args[0]} hold {args[1]}"
        return f"{fn.replace('_', ' ')} of {' and '.join(args)}" if args else fn.replace("_", " ")
    if isinstance(node, ast.Subscript):
        return f"{_words(node.value, who)} for {_words(node.slice, who)}"
    if isinstance(node, ast.Attribute):
        return f"{_words(node.value, who)} {node.attr.replace('_', ' ')}"
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left, right = (f"({_words(n, who)})" if isinstance(n, (ast.BinOp, ast.IfExp)) else _words(n, who)
                       for n in (node.left, node.right))
        return f"{left} {_OPS[type(node.op)]} {right}"
    if isinstance(node, ast.UnaryOp):
        inner = _words(node.operand, who)
        return f"not {inner}" if isinstance(node.op, ast.Not) else (f"-{inner}" if isinstance(node.op, ast.USub) else inner)
    if isinstance(node, ast.BoolOp):
        joiner = " and " if isinstance(node.op, ast.And) else " or "
        return joiner.join(_words(v, who) for v in node.values)
    if isinstance(node, ast.Compare):
        out = _words(node.left, who)
        for op, rhs in zip(node.ops, node.comparators, strict=False):
            is_none = (isinstance(rhs, ast.Constant) and rhs.value is None) or (
                isinstance(rhs, ast.Name) and rhs.id == "none")
            if is_none and type(op) in (ast.Eq, ast.NotEq):
                out += " is not given" if isinstance(op, ast.Eq) else " is given"
            else:
                out += f" {_COMPARE.get(type(op), 'compared with')} {_words(rhs, who)}"
        return out
    if isinstance(node, ast.IfExp):
        return f"{_words(node.body, who)} or {_words(node.orelse, who)}"
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return ", ".join(_words(e, who) for e in node.elts)
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        return _words(node.elt, who)
    return "a value"


def message_words(text: str, parts: Sequence[Formula], env: Mapping[str, Any], who: str) -> str:
    """A check's or rule's message as a rule for a player: placeholders fixed by the options and tables
    show their value, `me` reads as `who`, an aside in brackets that reports the hand's values is left
    out, and any other value of the hand is named in words between square brackets."""
    from scorepad.engine import format_value

    pieces: list[str] = []
    out = []
    last = 0
    for i, m in enumerate(TEMPLATE_RE.finditer(text)):
        out.append(text[last:m.start()])
        last = m.end()
        f = parts[i] if i < len(parts) else None
        source = m.group(1).strip()
        if source == "me":
            out.append(who)
            continue
        if f is not None and set(f.names) <= set(env):
            try:
                out.append(format_value(f(env)))
                continue
            except FormulaError:
                pass
        out.append(f"{_MARK}{len(pieces)}{_MARK}")
        pieces.append(f"[{formula_words(source, who)}]")
    out.append(text[last:])
    result = _ASIDE_RE.sub("", "".join(out))
    result = re.sub(f"{_MARK}(\\d+){_MARK}", lambda m: pieces[int(m.group(1))], result)
    return result.replace("{", "(").replace("}", ")")
