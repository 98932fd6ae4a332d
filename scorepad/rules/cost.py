"""The static cost check of a ruleset: the most steps its formulas can take in one hand.

Every formula's worst case is estimated (`expr.estimate`) from the sizes of what its names can hold:
the ruleset's tables and options, card fields (a deck), one value per player or side (at most
`players.max`), and the `[let]` values estimated before it. A formula runs once per hand, player or
side, so its estimate counts that many times. A ruleset whose formulas together could take more
than `expr.MAX_STEPS` steps in one hand (or in one showing of the standings) is refused at load and
by `rules check`, naming the costliest formula; the engine's budget enforces the same limit.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from scorepad import record
from scorepad.rules.expr import MAX_STEPS, SCALAR, Formula, Size, estimate, list_of, value_size, widest

if TYPE_CHECKING:
    from scorepad.rules.model import Ruleset


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
            problems.append((f.key, "this formula can give a list, but a counter holds a number or a word"))
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

    display: Group = []
    add(display, rs.display_side.values(), "side")
    add(display, rs.display_next.values(), "game")
    start: Group = []
    add(start, rs.side_state.values(), "side", counter=True)
    add(start, rs.game_state.values(), "game", counter=True)
    return {"one hand": hand, "showing the standings": display, "starting a game": start}, counters


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
    return [(sections[section][0].key, (
        f"one hand of up to {players} players runs {runs:,} formulas with {code:,} characters of formula text "
        f"in all ([{section}] the most); at most {MAX_RUNS:,} formulas and {MAX_CODE:,} characters are allowed "
        "(a [player] or [side] formula counts once for each player or side): work lists out in fewer, shorter "
        "formulas"))]


def _too_costly(group: Group, what: str) -> list[tuple[str, str]]:
    total = sum(steps * times for _, steps, times in group)
    if total <= MAX_STEPS:
        return []
    out = []
    for f, steps, times in group:
        if steps * times > MAX_STEPS:
            runs = "" if times == 1 else f" (run up to {times} times)"
            out.append((f.key, (f"this formula can take up to {steps * times:,} steps{runs} in {what}, more than "
                               f"the {MAX_STEPS:,} allowed (it goes through large lists many times); "
                               "use smaller tables, or work out a list once in [let]")))
    if not out:
        f, steps, times = max(group, key=lambda g: g[1] * g[2])
        out.append((f.key, (f"the formulas of {what} can take up to {total:,} steps together, more than the "
                           f"{MAX_STEPS:,} allowed; this one is the costliest ({steps * times:,})")))
    return out


def _formulas_of(obj: object) -> list[Formula]:
    """Every formula a field definition holds (whatever keys the field format has)."""
    out: list[Formula] = []
    if record.is_record(obj):
        for name in record.fields(obj):
            value = getattr(obj, name)
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
            value: Size = (deck, deck + 1, 1) if fdef.type == "cards" else SCALAR
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

