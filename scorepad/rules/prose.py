"""Formulas and message templates read aloud for a player (what `rules show` prints without --formulas).

A check's message is written for the moment a hand breaks it ("{me} bid {bid}, the tricks add up
to {sum(all_tricks)}"). Read as a rule, its placeholders are explained: one fixed by the options
and tables shows its value, `me` is "a player" or "a side", a value of the hand is named in
words ("[the total of everyone's tricks]"), and a bracketed aside that only reports the hand's values is left out.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scorepad.errors import FormulaError
from scorepad.locale import N_, _, current
from scorepad.rules.expr import Formula

TEMPLATE_RE = re.compile(r"\{([^{}]+)\}")
_MARK = "\x00"
_ASIDE_RE = re.compile(r"\s*\([^()]*\x00[^()]*\)")
_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "×", ast.Div: "/", ast.FloorDiv: "/", ast.Mod: "mod",
        ast.Pow: "^"}
# A comparison read aloud; the names around it stay the ruleset's ids, so each language words it
# to read right around an uninflected name ("kui trump ei ole 'none'", "если trump не 'none'").
_COMPARE = {ast.Eq: N_("{left} is {right}"), ast.NotEq: N_("{left} is not {right}"),
            ast.Lt: N_("{left} is less than {right}"), ast.LtE: N_("{left} is at most {right}"),
            ast.Gt: N_("{left} is more than {right}"), ast.GtE: N_("{left} is at least {right}"),
            ast.In: N_("{left} is in {right}"), ast.NotIn: N_("{left} is not in {right}")}
_PREFIXES = (("all_", N_("everyone's {name}")), ("others_", N_("the others' {name}")),
             ("team_", N_("the team's {name}")))


def _id_words(name: str) -> str:
    """An id as shown inside prose: English reads `last_trick` as "last trick"; another language keeps
    the id as it is typed, so that it never passes for a word of that language."""
    return name.replace("_", " ") if current() == "en" else name


def name_words(name: str, who: str | None = None) -> str:
    """`all_tricks` → everyone's tricks, `others_score` → the others' score, `me` → the player."""
    if name == "me":
        return _("the player") if who is None else who
    for prefix, words in _PREFIXES:
        if name.startswith(prefix):
            return _(words).format(name=_id_words(name[len(prefix):]))
    return _id_words(name)


def formula_words(source: str, who: str | None = None) -> str:
    """A formula as words (`sum(all_tricks)` → the total of everyone's tricks); never braces or code."""
    try:
        tree = ast.parse(source.strip(), mode="eval").body
    except SyntaxError:
        return _("a value")
    return _words(tree, who)


def joined_words(template: str, parts: Sequence[str]) -> str:
    """`a and b and c` through a two-place template ("{left} and {right}"), for any number of parts."""
    out = parts[0]
    for part in parts[1:]:
        out = _(template).format(left=out, right=part)
    return out


def _call_words(fn: str, args: list[str]) -> str:
    if fn == "sum" and len(args) == 1:
        return _("the total of {values}").format(values=args[0])
    if fn in ("max", "min") and len(args) == 1:
        return (_("the highest of {values}") if fn == "max" else _("the lowest of {values}")).format(values=args[0])
    if fn in ("max", "min") and args:
        listed = joined_words(N_("{left} and {right}"), args)
        return (_("the higher of {values}") if fn == "max" else _("the lower of {values}")).format(values=listed)
    if fn in ("abs", "round", "int", "floor", "ceil") and args:
        return args[0]
    if fn in ("len", "count") and args:
        return _("the number of {values}").format(values=args[0])
    if fn == "nrank" and len(args) == 2:
        return _("the {rank}s in {cards}").format(rank=args[1], cards=args[0])
    if fn == "nsuit" and len(args) == 2:
        return _("the {suit} cards in {cards}").format(suit=args[1], cards=args[0])
    if fn == "value" and len(args) == 1:
        return _("the card points of {cards}").format(cards=args[0])
    if fn == "has" and len(args) == 2:
        return _("whether {cards} hold {card}").format(cards=args[0], card=args[1])
    if args:
        return _("{function} of {values}").format(function=_id_words(fn), values=joined_words(N_("{left} and {right}"), args))
    return _id_words(fn)


def _words(node: ast.AST, who: str | None) -> str:
    """A formula's tree read aloud, node by node (one wording per kind of node)."""
    for kinds, wording in _WORDINGS:
        if isinstance(node, kinds):
            return str(wording(node, who))
    return _("a value")


def _constant_words(node: Any, who: str | None) -> str:
    if node.value is None:
        return "none"
    if isinstance(node.value, bool):
        return _("yes") if node.value else _("no")
    if isinstance(node.value, str) and current() != "en":
        return repr(node.value)     # a value as typed, set apart from the words of the language around it
    return str(node.value)


def _call_node_words(node: Any, who: str | None) -> str:
    if isinstance(node.func, ast.Name):
        return _call_words(node.func.id, [_words(a, who) for a in node.args])
    return _("a value")


def _binop_words(node: Any, who: str | None) -> str:
    if type(node.op) not in _OPS:
        return _("a value")
    left, right = (f"({_words(n, who)})" if isinstance(n, (ast.BinOp, ast.IfExp)) else _words(n, who)
                   for n in (node.left, node.right))
    return f"{left} {_OPS[type(node.op)]} {right}"


def _unary_words(node: Any, who: str | None) -> str:
    inner = _words(node.operand, who)
    if isinstance(node.op, ast.Not):
        return _("not {condition}").format(condition=inner)
    return f"-{inner}" if isinstance(node.op, ast.USub) else inner


def _boolop_words(node: Any, who: str | None) -> str:
    template = N_("{left} and {right}") if isinstance(node.op, ast.And) else N_("{left} or {right}")
    return joined_words(template, [f"({_words(v, who)})" if isinstance(v, (ast.BoolOp, ast.IfExp))
                                   else _words(v, who) for v in node.values])


def _compare_words(node: Any, who: str | None) -> str:
    out = _words(node.left, who)
    for op, rhs in zip(node.ops, node.comparators, strict=False):
        is_none = (isinstance(rhs, ast.Constant) and rhs.value is None) or (
            isinstance(rhs, ast.Name) and rhs.id == "none")
        if is_none and type(op) in (ast.Eq, ast.NotEq):
            out = (_("{value} is not given") if isinstance(op, ast.Eq) else _("{value} is given")).format(value=out)
        else:
            template = _COMPARE.get(type(op), N_("{left} compared with {right}"))
            out = _(template).format(left=out, right=_words(rhs, who))
    return out


_WORDINGS: tuple[tuple[Any, Callable[[Any, str | None], str]], ...] = (
    (ast.Constant, _constant_words),
    (ast.Name, lambda node, who: name_words(node.id, who)),
    (ast.Call, _call_node_words),
    (ast.Subscript, lambda node, who: _("{value} for {key}").format(value=_words(node.value, who),
                                                                   key=_words(node.slice, who))),
    (ast.Attribute, lambda node, who: f"{_words(node.value, who)} {_id_words(node.attr)}"),
    (ast.BinOp, _binop_words),
    (ast.UnaryOp, _unary_words),
    (ast.BoolOp, _boolop_words),
    (ast.Compare, _compare_words),
    (ast.IfExp, lambda node, who: _("{left} or {right}").format(left=_words(node.body, who),
                                                              right=_words(node.orelse, who))),
    ((ast.List, ast.Tuple, ast.Set), lambda node, who: ", ".join(_words(e, who) for e in node.elts)),
    ((ast.ListComp, ast.GeneratorExp), lambda node, who: _words(node.elt, who)),
)


def message_words(text: str, parts: Sequence[Formula], env: Mapping[str, Any], who: str) -> str:
    """A check's or rule's message as a rule for a player: placeholders fixed by the options and tables
    show their value, `me` reads as `who` (in brackets inside a sentence of another language), an aside
    in brackets that reports the hand's values is left out, and any other value of the hand is named in
    words between square brackets."""
    from scorepad.rules.values import format_value

    pieces: list[str] = []
    out = []
    last = 0
    for i, m in enumerate(TEMPLATE_RE.finditer(text)):
        out.append(text[last:m.start()])
        last = m.end()
        f = parts[i] if i < len(parts) else None
        source = m.group(1).strip()
        if source == "me":
            # Another language inflects the word where it is not the subject ("у {me}"): there it is
            # shown as a slot, like the hand's values, rather than in a case the sentence does not take.
            opening = not "".join(out).strip()
            out.append(who if opening or current() == "en" else f"[{who}]")
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


def condition_words(source: str) -> str:
    """A formula condition read aloud for a player: `out != none and not bridge` → `out is given and not bridge`.
    In another language the formula is worded by scorepad.rules.prose, in that language's catalog."""
    if current() != "en":
        return formula_words(source)
    text = source.strip()
    for pattern, words in ((r"\s*!=\s*none\b", " is given"), (r"\s*==\s*none\b", " is not given"),
                           (r"\s*==\s*", " is "), (r"\s*!=\s*", " is not "), (r"\s*>=\s*", " is at least "),
                           (r"\s*<=\s*", " is at most "), (r"\s*>\s*", " is more than "),
                           (r"\s*<\s*", " is less than "), (r"\ball_(\w+)", r"everyone's \1"),
                           (r"\btrue\b", "yes"), (r"\bfalse\b", "no")):
        text = re.sub(pattern, words, text)
    return text.replace("_", " ")
