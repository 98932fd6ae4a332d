"""The static cost check of a ruleset: the most steps its formulas can take in one hand.

Every formula's worst case is estimated (`estimate`) from the sizes of what its names can hold:
the ruleset's tables and options, card fields (a deck), one value per player or side (at most
`players.max`), and the `[let]` values estimated before it. A formula runs once per hand, player or
side, so its estimate counts that many times. A ruleset whose formulas together could take more
than `expr.MAX_STEPS` steps in one hand (or in one showing of the standings) is refused at load and
by `rules check`, naming the costliest formula; the engine's budget enforces the same limit.
"""

from __future__ import annotations

import ast
import dataclasses
import math
from collections import ChainMap
from collections.abc import Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from scorepad.locale import N_, Grouped, Said
from scorepad.rules.expr import BUILTINS, ITERATING, MAX_STEPS, Formula, _parts, subset_steps

if TYPE_CHECKING:
    from scorepad.rules.model import Ruleset


# --------------------------------------------------------------------------- one formula's worst case

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
        if name in ("subsets", "combinations"):
            return self.sublists(node, cost, first)
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

    @staticmethod
    def sublists(node: ast.Call, cost: int, first: Size) -> tuple[int, Size]:
        """subsets(list) and combinations(list, k): one step per sub-list and per item in them (the
        charge of expr._sublists); a k that is not written out is taken at its worst, n // 2."""
        n = min(first[0], 64)   # 2**64 is past the cap already
        if node.func.id == "subsets" or len(node.args) < 2:  # type: ignore[attr-defined]
            count, steps = 1 << n, subset_steps(n)
        else:
            k_node = node.args[1]
            k = k_node.value if isinstance(k_node, ast.Constant) and type(k_node.value) is int else n // 2
            k = max(0, min(k, n))
            count, steps = math.comb(n, k), subset_steps(n, k)
        return _cap(cost + steps), (max(_cap(count), first[0], 1), _cap(1 + count * first[1]), first[2] + 1)


Group = list[tuple[Formula, int, int]]  # formula, its steps, how many times it runs


# What one hand may ask of the program besides the steps of its formulas: how many formulas run
# (each player's and side's counted), and how much formula text is turned into code for them. The
# largest bundled rulesets run 433 formulas a hand and 10,448 characters of them; these bounds leave
# about three times that, and hold loading, compiling and scoring 100 hands of any ruleset that passes
# to well under a second (bench/worst_ruleset.py).
MAX_RUNS = 1_500
MAX_CODE = 30_000


def cost_problems(rs: Ruleset) -> list[tuple[str, str]]:
    """(TOML key, sentence) for each formula that makes a hand (or the standings) too costly,
    and for each formula that could put a list into a counter."""
    groups, counters = _estimates(rs)
    problems = _too_large(groups["one hand"], rs.max_players)
    for what, group in groups.items():
        problems += _too_costly(group, what)
    for f, size in counters:
        if size[2]:
            problems.append((f.key, Said(N_("this formula can give a list, but a counter holds a number or a word"))))
    return problems


def hand_steps(rs: Ruleset) -> dict[str, int]:
    """The estimated most steps of one hand, one showing of the standings and a game's start."""
    groups, _ = _estimates(rs)
    return {what: sum(steps * times for _, steps, times in group) for what, group in groups.items()}


def _estimates(rs: Ruleset) -> tuple[dict[str, Group], list[tuple[Formula, Size]]]:
    sizes = _Sizes(rs)
    hand: Group = []
    n = rs.max_players
    counters: list[tuple[Formula, Size]] = []

    def add(group: Group, formulas: Iterable[Formula | None], per: str, counter: bool = False,
            times: int | None = None) -> None:
        for f in formulas:
            if f is not None:
                steps, size = estimate(f, sizes.context(per), sizes.default)
                group.append((f, steps, times or (1 if per in ("hand", "game") else n)))
                if counter:
                    counters.append((f, size))

    for fdef in rs.fields.values():  # a per-player (per-side) field's formulas run for each of them
        add(hand, _formulas_of(fdef), "hand", times=1 if fdef.scope == "hand" else n)
    for let in rs.hand_lets:
        sizes.let(let.name, let.formula, "hand")
        add(hand, [let.formula], "hand")
    for let in rs.player_lets:
        sizes.let(let.name, let.formula, "player")
        add(hand, [let.formula], "player")
    for let in rs.side_lets:
        sizes.let(let.name, let.formula, "side")
        add(hand, [let.formula], "side")
    for check in rs.checks:
        add(hand, [check.ok, check.when, *check.message_parts], check.per)
    for item in rs.scores:
        add(hand, [item.points, item.when], item.per)
    for rule in rs.rules:
        add(hand, [rule.when, *rule.message_parts], rule.per)
        add(hand, [f for _, f in (*rule.set, *rule.add, *rule.set_all)], rule.per, counter=True)
    add(hand, [rs.end.when, rs.next_dealer], "game")
    for stat in rs.statistics:   # counted on the hand's names as scored: on the budget of a hand
        add(hand, [stat.formula, *([stat.of] if stat.of else [])], stat.per)

    display: Group = []
    add(display, rs.display_side.values(), "side")
    add(display, rs.display_next.values(), "game")
    start: Group = []
    add(start, rs.side_state.values(), "side", counter=True)
    add(start, rs.game_state.values(), "game", counter=True)
    # the keys are the words of the sentences that name them (_too_costly)
    return {N_("one hand"): hand, N_("showing the standings"): display, N_("starting a game"): start}, counters


def _too_large(group: Group, players: int) -> list[tuple[str, str]]:
    """The ruleset is refused when one hand runs more formulas, or more formula text, than the bounds."""
    runs = sum(times for _, _, times in group)
    code = sum(len(f.source) * times for f, _, times in group)
    if (runs <= MAX_RUNS and code <= MAX_CODE) or not group:
        return []
    sections: dict[str, list[Formula]] = {}
    weight: dict[str, int] = {}
    for f, _, times in group:   # the section that asks the most names where to look
        section = f.key.split(".")[0].split("[")[0]
        sections.setdefault(section, []).append(f)
        weight[section] = weight.get(section, 0) + len(f.source) * times
    section = max(weight, key=weight.__getitem__)
    return [(sections[section][0].key, Said(N_(
        "one hand of up to {players} players runs {runs} formulas with {code} characters of formula text "
        "in all ([{section}] the most); at most {most_runs} formulas and {most_code} characters are allowed "
        "(a [player] or [side] formula counts once for each player or side): work lists out in fewer, shorter "
        "formulas"), players=players, runs=Grouped(runs), code=Grouped(code), section=section,
        most_runs=Grouped(MAX_RUNS), most_code=Grouped(MAX_CODE)))]


def _too_costly(group: Group, what: str) -> list[tuple[str, str]]:
    total = sum(steps * times for _, steps, times in group)
    if total <= MAX_STEPS:
        return []
    out: list[tuple[str, str]] = []
    for f, steps, times in group:
        if steps * times > MAX_STEPS:
            said = (Said(N_("this formula can take up to {steps} steps in {what}, more than the {most} allowed (it "
                            "goes through large lists many times); use smaller tables, or work out a list once in "
                            "[let]"), steps=Grouped(steps * times), what=Said(what), most=Grouped(MAX_STEPS))
                    if times == 1 else
                    Said(N_("this formula can take up to {steps} steps (run up to {times} times) in {what}, more "
                            "than the {most} allowed (it goes through large lists many times); use smaller tables, "
                            "or work out a list once in [let]"), steps=Grouped(steps * times), times=times,
                         what=Said(what), most=Grouped(MAX_STEPS)))
            out.append((f.key, said))
    if not out:
        f, steps, times = max(group, key=lambda g: g[1] * g[2])
        out.append((f.key, Said(N_("the formulas of {what} can take up to {total} steps together, more than the "
                                   "{most} allowed; this one is the costliest ({steps})"), what=Said(what),
                                total=Grouped(total), most=Grouped(MAX_STEPS), steps=Grouped(steps * times))))
    return out


def _formulas_of(obj: object) -> list[Formula]:
    """Every formula a field definition holds (whatever keys the field format has)."""
    out: list[Formula] = []
    if dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            value = getattr(obj, f.name)
            if isinstance(value, Formula):
                out.append(value)
            elif isinstance(value, (tuple, list)):
                out += [v for v in value if isinstance(v, Formula)]
            elif isinstance(value, dict):
                out += [v for v in value.values() if isinstance(v, Formula)]
    return out


class _Sizes:
    """The sizes each name can hold, in the hand, for one player and for one side."""

    def __init__(self, rs: Ruleset) -> None:
        n = rs.max_players
        self.n = n
        people = (n, n + 1, 1)
        hand: dict[str, Size] = {}
        for name, table in rs.tables.items():
            hand[name] = value_size(table)
        for name, opt in rs.options.items():
            hand[name] = widest([value_size(opt.default), *(value_size(v) for v in opt.values or ())])
        for name in ("players", "sides", "active", "all_gained", "members"):
            hand[name] = people
        for name in ("none", "n_players", "n_sides", "hand_no", "hands", "dealer", "n_active", "gained",
                     "finished_early", "me", "seat", "side", "side_no", "score", "status"):
            hand[name] = SCALAR
        deck = len(rs.deck.ranks) * 4 * rs.deck.copies + rs.deck.jokers
        self.player: dict[str, Size] = {}
        self.side: dict[str, Size] = {}
        for fname, fdef in rs.fields.items():
            most = deck   # a cards field holds at most its written-out max of cards, else the deck
            if fdef.type == "cards" and fdef.max is not None and fdef.max.constant is not None:
                most = max(0, min(deck, fdef.max.constant))
            value: Size = (most, most + 1, 1) if fdef.type == "cards" else SCALAR
            if fdef.type in ("cards", "int", "number", "bool", "word", "player", "side", "pattern"):
                for part in fdef.parts:
                    hand[f"{fname}_{part}"] = widest([value_size(v) for v in fdef.maps.get(part, {}).values()])
            else:  # a kind of field this estimate does not know: anything
                value = (-1, -1, -1)
            self._declare(hand, fname, value, fdef.scope)
        counters = set(rs.side_state) | {"score", "status"}
        for cname in counters:  # counters hold numbers or words (the engine refuses anything else)
            self._declare(hand, cname, SCALAR, "side")
        for cname in rs.game_state:
            hand[cname] = SCALAR
        self.hand = hand
        known = [s for s in (*hand.values(), *self.player.values(), *self.side.values()) if s[0] >= 0]
        self.default: Size = (max([people[0], *(s[0] for s in known)]), sum(s[1] for s in known) + 1,
                               max(s[2] for s in known) + 1)
        for table in (self.hand, self.player, self.side):
            for name, size in table.items():
                if size[0] < 0:
                    table[name] = self.default

    def _declare(self, hand: dict[str, Size], name: str, value: Size, scope: str) -> None:
        """A name with one value per player or side: `X`, `all_X`, `others_X`, `team_X` in each context."""
        n = self.n
        if value[0] < 0:
            hand[name] = self.player[name] = self.side[name] = value
            for prefix in ("all_", "others_", "team_"):
                hand[prefix + name] = self.player[prefix + name] = self.side[prefix + name] = value
            return
        many = list_of(n, value)
        if scope == "hand":
            hand[name] = value
            return
        hand["all_" + name] = many
        if scope == "player":
            self.player.update({name: value, "others_" + name: many, "team_" + name: many})
            self.side.update({name: many, "team_" + name: many})
        else:
            self.side.update({name: value, "others_" + name: many})
            self.player.update({name: value, "others_" + name: many})

    def let(self, name: str, formula: Formula, scope: str) -> None:
        _, value = estimate(formula, self.context(scope), self.default)
        self._declare(self.hand, name, value, "hand" if scope == "hand" else scope)

    def context(self, per: str) -> Mapping[str, Size]:
        if per == "player":
            return ChainMap(self.player, self.hand)  # no copy: a ruleset may have thousands of lets
        if per == "side":
            return ChainMap(self.side, self.hand)
        return self.hand

