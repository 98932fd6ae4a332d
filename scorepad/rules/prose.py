"""Formulas and message templates read aloud for a player (what `rules show` prints without --formulas).

A formula is read with the values in force (options, tables: scorepad.rules.vocabulary): a part they
settle shows its value, and a condition they settle is dropped or decides the whole. The ruleset's
names read as the words the language has for them (a field by the name its translation lets players
type, quoted); a name without words there makes the formula `Unworded`, and the caller leaves that
part out rather than show an id.

A check's message is written for the moment a hand breaks it ("{me} bid {bid}, the tricks add up
to {sum(all_tricks)}"). Read as a rule, its placeholders are explained: one fixed by the options and
tables shows its value; a player or side is "a player" where it opens the sentence and a letter (A,
B) elsewhere, where another language would inflect a noun ("у {me}"), introduced as "Player A" when
it recurs; a number of the hand is a letter (N, M) the sentence's own words explain ("N plain queens");
any other value of the hand is named in words; and a bracketed aside that only reports the hand's
values is left out.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scorepad.errors import FormulaError
from scorepad.locale import N_, _, current
from scorepad.rules.expr import Formula, compile_formula
from scorepad.rules.values import format_value
from scorepad.rules.vocabulary import Vocabulary, card_words, formula_kind, is_card

TEMPLATE_RE = re.compile(r"\{([^{}]+)\}")
_MARK = "\x00"
_ASIDE_RE = re.compile(r"\s*\([^()]*\x00[^()]*\)")
_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "×", ast.Div: "/", ast.FloorDiv: "/", ast.Mod: "mod",
        ast.Pow: "^"}
# A comparison read aloud; a name around it is the ruleset's own (quoted in another language than
# English), so each language words it to read right around an uninflected name.
_COMPARE = {ast.Eq: N_("{left} is {right}"), ast.NotEq: N_("{left} is not {right}"),
            ast.Lt: N_("{left} is less than {right}"), ast.LtE: N_("{left} is at most {right}"),
            ast.Gt: N_("{left} is more than {right}"), ast.GtE: N_("{left} is at least {right}"),
            ast.In: N_("{left} is in {right}"), ast.NotIn: N_("{left} is not in {right}")}
_NEGATED = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE,
            ast.LtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In}
_PREFIXES = (("all_", N_("everyone's {name}")), ("others_", N_("the others' {name}")),
             ("team_", N_("the team's {name}")))
# The letters that stand for the hand's numbers in a rule ("N plain queens"): the same in every language,
# none of them a rank (J Q K A, Estonian S E Ä)
NUMBER_LETTERS = ("N", "M", "L", "P", "R", "U", "V", "W", "X", "Y", "Z")
_LET_DEPTH = 3          # a derived value read through its formula, at most this many levels deep
_LET_WORDS = 80         # ... and in at most this many characters: a longer reading is no name for it
_INLINED = "_scorepad_let"
UNSETTLED = object()    # what `settled` gives a formula the values in force leave open
_NO_VALUE = object()


class Unworded(Exception):
    """A formula names something the language shown has no words for."""


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


def formula_words(source: str, who: str | None = None, vocab: Vocabulary | None = None) -> str:
    """A formula as words (`sum(all_tricks)` → the total of everyone's tricks); never braces or code.
    With a vocabulary the values in force are filled in and the ruleset's names read in the language
    shown; Unworded when one has no words there."""
    try:
        tree = ast.parse(source.strip(), mode="eval").body
    except SyntaxError:
        return _("a value")
    return _Reader(who, vocab).words(fold(tree, vocab) if vocab is not None else tree)


def settled(source: str, vocab: Vocabulary) -> Any:
    """The value the values in force give a formula (a condition: True or False), or `UNSETTLED`."""
    try:
        tree = fold(ast.parse(source.strip(), mode="eval").body, vocab)
    except SyntaxError:
        return UNSETTLED
    return tree.value if isinstance(tree, ast.Constant) else UNSETTLED


def joined_words(template: str, parts: Sequence[str]) -> str:
    """`a and b and c` through a two-place template ("{left} and {right}"), for any number of parts."""
    out = parts[0]
    for part in parts[1:]:
        out = _(template).format(left=out, right=part)
    return out


def shown_value(value: Any) -> str:
    """A value as the language shows it: yes/no for a boolean, a card in the language's notation."""

    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str) and is_card(value):
        return card_words(value)
    return format_value(value)


# ---------------------------------------------------------------------- the values in force

def fold(node: ast.expr, vocab: Vocabulary, depth: int = 0) -> ast.expr:
    """`node` with each part the values in force settle replaced by its value (`limit` → 125), and an
    `and`, `or`, `not` or `... if ... else ...` with a settled side made simpler."""
    names = _free_names(node)
    if names and names <= vocab.fixed:
        try:
            value = compile_formula(ast.unparse(node), "rules show", vocab.fixed, vocab.rs.functions())(vocab.env)
        except FormulaError:
            value = _NO_VALUE
        if value is not _NO_VALUE and (value is None or isinstance(value, (bool, int, float, str))):
            return ast.Constant(value)
    if isinstance(node, ast.Name) and node.id in ("true", "false"):
        return ast.Constant(node.id == "true")
    if isinstance(node, ast.Name) and depth < _LET_DEPTH and vocab.let(node.id) is not None \
            and vocab.name(node.id) is None:     # a derived value without a name: read through its formula
        inlined = fold(ast.parse(vocab.let(node.id).source, mode="eval").body, vocab, depth + 1)
        setattr(inlined, _INLINED, node.id)
        return inlined
    for name, value in ast.iter_fields(node):
        if isinstance(value, ast.expr):
            setattr(node, name, fold(value, vocab, depth))
        elif isinstance(value, list):
            setattr(node, name, [fold(v, vocab, depth) if isinstance(v, ast.expr) else v for v in value])
    return _simpler(node)


def _free_names(node: ast.AST) -> set[str]:
    """The names a formula reads (not the functions it calls, nor a comprehension's own variable)."""
    called = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
    bound = {t.id for n in ast.walk(node) if isinstance(n, ast.comprehension) for t in ast.walk(n.target)
             if isinstance(t, ast.Name)}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and id(n) not in called} - bound


def _simpler(node: ast.expr) -> ast.expr:
    if isinstance(node, ast.BoolOp):
        is_and = isinstance(node.op, ast.And)
        rest: list[ast.expr] = []
        values = [w for v in node.values for w in (v.values if isinstance(v, ast.BoolOp) and type(v.op) is type(node.op)
                                                  else [v])]          # `a and (b and c)`: a and b and c
        for v in values:
            if isinstance(v, ast.Constant):
                if bool(v.value) != is_and:      # false in an `and`, true in an `or`: that decides it
                    return v
                continue
            rest.append(v)
        if not rest:
            return ast.Constant(is_and)
        return rest[0] if len(rest) == 1 else ast.BoolOp(node.op, rest)
    if isinstance(node, ast.IfExp) and isinstance(node.test, ast.Constant):
        return node.body if node.test.value else node.orelse
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = node.operand
        if isinstance(inner, ast.Constant):
            return ast.Constant(not inner.value)
        if isinstance(inner, ast.Compare) and len(inner.ops) == 1 and type(inner.ops[0]) in _NEGATED:
            return ast.Compare(inner.left, [_NEGATED[type(inner.ops[0])]()], inner.comparators)
    return node


# ---------------------------------------------------------------------- reading a formula

class _Reader:
    """Reads a formula's tree aloud, node by node (one wording per kind of node)."""

    def __init__(self, who: str | None, vocab: Vocabulary | None) -> None:
        self.who = who
        self.vocab = vocab

    def words(self, node: ast.AST) -> str:
        for kinds, wording in _WORDINGS:
            if isinstance(node, kinds):
                out = str(wording(self, node))
                if hasattr(node, _INLINED) and len(out) > _LET_WORDS:
                    raise Unworded
                return out
        return self.unworded()

    def unworded(self) -> str:
        if self.vocab is not None:
            raise Unworded
        return _("a value")

    def name(self, ident: str) -> str:
        vocab = self.vocab
        if vocab is None or ident == "me":
            return name_words(ident, self.who)
        for prefix, words in _PREFIXES:
            if ident.startswith(prefix):
                inner = vocab.name(ident[len(prefix):])
                if inner is None:
                    raise Unworded
                return _(words).format(name=inner)
        named = vocab.name(ident)
        if named is not None:
            return named
        raise Unworded

    def constant(self, node: ast.Constant, field: str | None = None) -> str:
        value = node.value
        if value is None:
            return "none"
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        if isinstance(value, str):
            word = self.vocab.value_word(field, value) if self.vocab is not None and field else None
            if is_card(value):
                word = card_words(value)
            if current() != "en" or self.vocab is not None:
                return repr(word or value)  # a value as typed, set apart from the words of the sentence around it
            return word or value
        return shown_value(value)

    def call(self, node: ast.Call) -> str:
        if not isinstance(node.func, ast.Name):
            return self.unworded()
        fn = node.func.id
        args = [self.words(a) for a in node.args]
        if fn == "sum" and len(args) == 1:
            return _("the total of {values}").format(values=args[0])
        if fn in ("max", "min") and len(args) == 1:
            return (_("the highest of {values}") if fn == "max" else _("the lowest of {values}")).format(values=args[0])
        if fn in ("max", "min") and args:
            listed = joined_words(N_("{left} and {right}"), args)
            return (_("the higher of {values}") if fn == "max" else _("the lower of {values}")).format(values=listed)
        if fn in ("abs", "round", "int", "floor", "ceil") and args:
            return args[0]
        if fn == "count" and len(args) == 2:
            return _("how many of {values} are {value}").format(values=args[0], value=args[1])
        if fn in ("len", "count") and args:
            return _("the number of {values}").format(values=args[0])
        if fn == "nrank" and len(args) == 2:
            return _("the {rank}s in {cards}").format(rank=args[1], cards=args[0])
        if fn == "nsuit" and len(args) == 2:
            return _("the {suit} cards in {cards}").format(suit=args[1], cards=args[0])
        if fn == "value" and len(args) == 1:
            return _("the card points of {cards}").format(cards=args[0])
        if fn in ("subsets", "combinations"):
            return self.sublists(fn, args)
        if fn == "has" and len(args) == 2:
            return _("whether {cards} hold {card}").format(cards=args[0], card=args[1])
        if self.vocab is not None:
            raise Unworded          # a function of the formula language: its name is code
        if args:
            return _("{function} of {values}").format(function=_id_words(fn),
                                                      values=joined_words(N_("{left} and {right}"), args))
        return _id_words(fn)

    def sublists(self, fn: str, args: list[str]) -> str:
        """subsets(cards) and combinations(cards, k) in words."""
        if fn == "subsets" and len(args) == 1:
            return _("every combination of {values}").format(values=args[0])
        if fn == "combinations" and len(args) == 2:
            return _("every group of {k} of {values}").format(k=args[1], values=args[0])
        return self.unworded()

    def binop(self, node: ast.BinOp) -> str:
        if type(node.op) not in _OPS:
            return self.unworded()
        left, right = (f"({self.words(n)})" if isinstance(n, (ast.BinOp, ast.IfExp)) else self.words(n)
                       for n in (node.left, node.right))
        return f"{left} {_OPS[type(node.op)]} {right}"

    def unary(self, node: ast.UnaryOp) -> str:
        inner = self.words(node.operand)
        if isinstance(node.op, ast.Not):
            return _("not {condition}").format(condition=inner)
        return f"-{inner}" if isinstance(node.op, ast.USub) else inner

    def boolop(self, node: ast.BoolOp) -> str:
        template = N_("{left} and {right}") if isinstance(node.op, ast.And) else N_("{left} or {right}")
        return joined_words(template, [f"({self.words(v)})" if isinstance(v, (ast.BoolOp, ast.IfExp))
                                       else self.words(v) for v in node.values])

    def operand(self, node: ast.AST) -> str:
        """A side of a comparison: in brackets when it is a choice or a condition of its own."""
        return f"({self.words(node)})" if isinstance(node, (ast.IfExp, ast.BoolOp, ast.Compare)) else self.words(node)

    def compare(self, node: ast.Compare) -> str:
        if len(node.ops) == 1 and isinstance(node.left, ast.Name) and node.left.id == "me" \
                and type(node.ops[0]) in (ast.Eq, ast.NotEq):      # `me == won_by`: won by is this player
            node = ast.Compare(node.comparators[0], node.ops, [node.left])
        out = self.operand(node.left)
        field = node.left.id if isinstance(node.left, ast.Name) else None
        for op, rhs in zip(node.ops, node.comparators, strict=False):
            is_none = (isinstance(rhs, ast.Constant) and rhs.value is None) or (
                isinstance(rhs, ast.Name) and rhs.id == "none")
            if is_none and type(op) in (ast.Eq, ast.NotEq):
                out = (_("{value} is not given") if isinstance(op, ast.Eq) else _("{value} is given")).format(value=out)
            else:
                right = self.constant(rhs, field) if isinstance(rhs, ast.Constant) else self.operand(rhs)
                template = _COMPARE.get(type(op), N_("{left} compared with {right}"))
                out = _(template).format(left=out, right=right)
        return out

    def subscript(self, node: ast.Subscript) -> str:
        return _("{value} for {key}").format(value=self.words(node.value), key=self.words(node.slice))

    def comprehension(self, node: ast.ListComp | ast.GeneratorExp) -> str:
        """A list made item by item: its own variable has no words (`k` in `... for k in ...`)."""
        if self.vocab is not None:
            raise Unworded
        return self.words(node.elt)

    def ifexp(self, node: ast.IfExp) -> str:
        value, condition = self.words(node.body), self.words(node.test)
        if isinstance(node.orelse, ast.Constant) and node.orelse.value is None:
            return _("{value} when {condition}").format(value=value, condition=condition)
        return _("{value} when {condition}, otherwise {other}").format(value=value, condition=condition,
                                                                     other=self.words(node.orelse))


_WORDINGS: tuple[tuple[Any, Callable[[_Reader, Any], str]], ...] = (
    (ast.Constant, _Reader.constant),
    (ast.Name, lambda reader, node: reader.name(node.id)),
    (ast.Call, _Reader.call),
    (ast.Subscript, _Reader.subscript),
    (ast.BinOp, _Reader.binop),
    (ast.UnaryOp, _Reader.unary),
    (ast.BoolOp, _Reader.boolop),
    (ast.Compare, _Reader.compare),
    (ast.IfExp, _Reader.ifexp),
    ((ast.List, ast.Tuple, ast.Set), lambda reader, node: ", ".join(reader.words(e) for e in node.elts)),
    ((ast.ListComp, ast.GeneratorExp), lambda reader, node: reader.comprehension(node)),
)


# ---------------------------------------------------------------------- messages read as rules

def message_words(text: str, parts: Sequence[Formula], env: Mapping[str, Any], who: str,
                  vocab: Vocabulary | None = None, side: bool = False) -> str:
    """A check's or rule's message as a rule for a player (see the module's docstring): the values in
    force filled in, the player or side and the hand's numbers as letters, other values in words, and
    an aside in brackets that reports the hand's values left out. `side`: `me` is a side. Unworded
    when a value outside an aside has no words in the language."""
    slots: list[tuple[str, str, str | None]] = []      # (kind, key, words) of each placeholder not settled
    out = []
    last = 0
    fixed = vocab.fixed if vocab is not None else frozenset(env)
    for i, m in enumerate(TEMPLATE_RE.finditer(text)):
        out.append(text[last:m.start()])
        last = m.end()
        f = parts[i] if i < len(parts) else None
        source = m.group(1).strip()
        if source != "me" and f is not None and set(f.names) <= fixed:
            try:
                out.append(shown_value(f(env)))
                continue
            except FormulaError:
                pass
        out.append(f"{_MARK}{len(slots)}{_MARK}")
        slots.append(_slot(source, who, vocab, side))
    out.append(text[last:])
    result = _ASIDE_RE.sub("", "".join(out))
    result = _fill(result, slots, who)
    result = re.sub(r"\s+([,.;:])", r"\1", re.sub(r"  +", " ", result)).strip()
    return result.replace("{", "(").replace("}", ")")


def _slot(source: str, who: str, vocab: Vocabulary | None, side: bool) -> tuple[str, str, str | None]:
    """What one placeholder of the hand is: a player or side, a number, or words (empty: left out;
    None: no words in the language, which leaves the whole sentence out unless it sits in an aside)."""
    key = re.sub(r"\s+", "", source)
    if source == "me":
        return ("side" if side else "player", key, "")
    if vocab is None:
        return ("words", key, formula_words(source, who))
    try:
        tree = ast.parse(source, mode="eval").body
    except SyntaxError:
        return ("words", key, None)
    kind = formula_kind(tree, vocab)
    if kind in ("player", "side", "number"):
        return (kind, key, "")
    if kind in ("list", "cards"):
        return ("words", key, "")
    try:
        return ("words", key, formula_words(source, who, vocab))
    except Unworded:
        return ("words", key, None)


def _fill(text: str, slots: list[tuple[str, str, str | None]], who: str) -> str:
    """The placeholders left after the asides, as words and letters: the same value the same letter;
    Unworded when one of them has no words."""
    order = [int(m.group(1)) for m in re.finditer(f"{_MARK}(\\d+){_MARK}", text)]
    sequences = {"player": _("A B C D E F").split(), "number": list(NUMBER_LETTERS)}
    letters: dict[str, str] = {}
    used = {"player": 0, "number": 0}
    count: dict[str, int] = {}
    for i in order:
        kind, key, _words = slots[i]
        count[key] = count.get(key, 0) + 1
        group = "player" if kind in ("player", "side") else kind
        if group in sequences and key not in letters:
            letters[key] = sequences[group][min(used[group], len(sequences[group]) - 1)]
            used[group] += 1
    opening = re.match(f"\\s*{_MARK}(\\d+){_MARK}", text)
    first = int(opening.group(1)) if opening else None
    alone = used["player"] == 1        # one player or side in the sentence: the opening one may be a noun

    def one(m: re.Match[str]) -> str:
        i = int(m.group(1))
        kind, key, words = slots[i]
        if kind == "words":
            if words is None:
                raise Unworded
            return words
        if i == first and kind != "number":     # a player or side opening the sentence: a noun
            if count[key] == 1 and alone:
                return who if key == "me" else _("a side") if kind == "side" else _("a player")
            return (_("side {name}") if kind == "side" else _("player {name}")).format(name=letters[key])
        return letters[key]

    return re.sub(f"{_MARK}(\\d+){_MARK}", one, text)


def condition_words(source: str, vocab: Vocabulary | None = None) -> str:
    """A formula condition read aloud for a player: `out != none and not bridge` → `out is given and not bridge`.
    With a vocabulary, in the names of the language shown (the ids where it has none)."""
    if vocab is not None:
        try:
            return formula_words(source, vocab=vocab)
        except Unworded:
            pass
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
