"""Random small rulesets and random hands for them, for the property test of the hand code.

A ruleset is written as TOML text in the format of docs/rulesets.md and loaded like any other, so it
goes through the loader's checks (names, cost). Its formulas are made from a small typed grammar over
exactly the names each kind of formula sees (scorepad/rules/names.py and the sections' readers): the
hand's, a player's, a side's, a rule's; every kind of name appears (X, others_X, team_X, all_X; me,
seat, side, side_no, members; n_players, dealer, hand_no, hands, active, n_active; counters, game
counters, tables, options). Most formulas are well typed, some are not (a word added to a number, a
missing table key, a division by zero, the minimum of an empty list): those hands are refused, and
the two engines must refuse them alike.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

# value types of the grammar: number, yes/no, word; lists of each
NUM, BOOL, WORD, NUMS, BOOLS, WORDS = "n", "b", "w", "N", "B", "W"
CARDS = "C"  # a cards field's list of cards
DECK = [f"{rank}{suit}" for rank in ("9", "10", "J", "Q", "K", "A") for suit in "SHDC"]
LIST_OF = {NUMS: NUM, BOOLS: BOOL, WORDS: WORD}
WORD_VALUES = ("lo", "mid", "hi")

Ctx = dict[str, str]
PREFIXES = ("all_", "others_", "team_")
SPECIAL = {"gained", "all_gained", "active", "n_active", "hand_no", "hands", "dealer", "seat", "side_no", "me", "side",
           "members", "finished_early", "score", "status", "all_score", "all_status", "others_score", "tally",
           "pool", "flag", "tag", "gword", "all_tally"}


def q(text: str) -> str:
    """A TOML basic string."""
    return json.dumps(text, ensure_ascii=False)


@dataclass
class Names:
    """The declared names and their types, grouped the way the loader groups them."""

    setup: Ctx = field(default_factory=dict)          # options, tables, players, sides, n_players, n_sides
    hand_base: Ctx = field(default_factory=dict)      # hand_no, hands, dealer, active, n_active, game counters
    hand_fields: Ctx = field(default_factory=dict)
    player_fields: Ctx = field(default_factory=dict)
    side_fields: Ctx = field(default_factory=dict)
    hand_lets: Ctx = field(default_factory=dict)
    player_lets: Ctx = field(default_factory=dict)
    side_lets: Ctx = field(default_factory=dict)
    side_counters: Ctx = field(default_factory=dict)  # score, status and [state.side]
    game_counters: Ctx = field(default_factory=dict)

    @staticmethod
    def lists(names: Ctx, prefix: str) -> Ctx:
        return {prefix + n: t.upper() for n, t in names.items() if t in (NUM, BOOL, WORD)}

    def player_level(self) -> Ctx:
        return {**self.player_fields, **self.player_lets}

    def side_level(self) -> Ctx:
        return {**self.side_fields, **self.side_lets, **self.side_counters}

    def typed(self) -> Ctx:
        return {**self.setup, **self.hand_base, **self.hand_fields, **self.lists(self.player_fields, "all_"),
                **self.lists(self.side_fields, "all_")}

    def hand(self) -> Ctx:
        return {**self.typed(), **self.hand_lets, **self.lists(self.player_level(), "all_"),
                **self.lists(self.side_level(), "all_")}

    def player(self) -> Ctx:
        pl, sl = self.player_level(), self.side_level()
        return {**self.hand(), **pl, **self.lists(pl, "others_"), **self.lists(pl, "team_"), **sl,
                **self.lists(sl, "others_"), "me": WORD, "seat": NUM, "side": WORD, "side_no": NUM}

    def side(self) -> Ctx:
        pl, sl = self.player_level(), self.side_level()
        return {**self.hand(), **sl, **self.lists(sl, "others_"), **self.lists(pl, ""), **self.lists(pl, "team_"),
                "me": WORD, "side_no": NUM, "members": WORDS}

    def rule_side(self) -> Ctx:
        return {**self.side(), "gained": NUM, "all_gained": NUMS, "finished_early": BOOL}

    def rule_game(self) -> Ctx:
        return {**self.hand(), "all_gained": NUMS, "finished_early": BOOL}

    def between_hands(self, ctx: Ctx) -> Ctx:
        """A context without the hand's fields and lets: an `on = "end"` or `"finish"` rule's (it also
        runs when a game is finished between hands)."""
        own = {**self.hand_fields, **self.player_fields, **self.side_fields, **self.hand_lets,
               **self.player_lets, **self.side_lets}
        gone = {prefix + n for n in own for prefix in ("", *PREFIXES)}
        return {n: t for n, t in ctx.items() if n not in gone}


class Formulas:
    """Formulas of a given type over the names of one context, drawn with hypothesis."""

    def __init__(self, draw: st.DrawFn, words: tuple[str, ...]) -> None:
        self.draw = draw
        self.words = words  # word literals worth comparing with (field words, names, statuses)

    def pick(self, options: list[str]) -> str:
        return self.draw(st.sampled_from(options))

    def names(self, ctx: Ctx, kind: str) -> list[str]:
        """Names of the type, as a list to pick from in which each kind of name (all_X, others_X, team_X,
        the names of the hand's and the side's state, the rest) is about as likely as the others."""
        groups: dict[str, list[str]] = {}
        for n, t in sorted(ctx.items()):
            if t == kind:
                group = "special" if n in SPECIAL else n.split("_")[0] + "_" if n.startswith(PREFIXES) else "plain"
                groups.setdefault(group, []).append(n)
        if not groups:
            return []
        return self.draw(st.sampled_from(sorted(groups.values())))

    def of(self, kind: str, ctx: Ctx, depth: int = 2, comp: bool = True) -> str:
        if kind == NUM:
            return self.num(ctx, depth, comp)
        if kind == BOOL:
            return self.boolean(ctx, depth, comp)
        if kind == WORD:
            return self.word(ctx, depth, comp)
        return self.lst(ctx, depth, comp, kind)

    def num(self, ctx: Ctx, depth: int = 2, comp: bool = True) -> str:
        names = self.names(ctx, NUM)
        leaves = [*names, *names, str(self.draw(st.integers(-3, 12)))]
        if depth <= 0 or self.draw(st.integers(0, 3)) == 0:
            return self.pick(leaves)
        d = depth - 1
        kind = self.draw(st.integers(0, 16))
        if kind <= 3:
            op = self.pick(["+", "-", "*", "+", "-"])
            return f"({self.num(ctx, d, comp)} {op} {self.num(ctx, d, comp)})"
        if kind == 4:
            rhs = self.pick([str(self.draw(st.integers(1, 5)))] * 9 + [self.num(ctx, 0)])  # a name may be 0
            return f"({self.num(ctx, d, comp)} {self.pick(['//', '%'])} {rhs})"
        if kind == 5:
            cond, a, b = self.boolean(ctx, d, comp), self.num(ctx, d, comp), self.num(ctx, d, comp)
            return self.pick([f"({cond} and {a} or {b})", f"({a} if {cond} else {b})"])
        if kind == 6:
            fn = self.pick(["sum", "sum", "len", "len", "max", "min", "sorted"])  # max of [] fails
            lst = self.lst(ctx, d, comp, NUMS)
            return f"sorted({lst})[0]" if fn == "sorted" else f"{fn}({lst})"
        if kind == 7:
            lkind = self.pick([BOOLS, WORDS, NUMS])
            lst = self.lst(ctx, d, comp, lkind)
            return self.pick([f"len({lst})", f"count({lst}, {self.of(LIST_OF[lkind], ctx, 0)})"])
        if kind == 8:
            return self.pick([f"abs({self.num(ctx, d, comp)})", f"-{self.num(ctx, 0)}",
                              f"sign({self.num(ctx, d, comp)})", f"int({self.num(ctx, d, comp)})"])
        if kind == 9:
            a, b = self.num(ctx, d, comp), self.num(ctx, d, comp)
            return self.pick([f"max({a}, {b})", f"min({a}, {b})", f"clamp({a}, 0, {b})",
                              f"round({a}, 5)", f"floor({a} / 2)", f"ceil({a} / 3)", f"{a} / 4"])
        if kind == 10 and "tab" in ctx:
            return self.pick([f"tab[abs({self.num(ctx, d, comp)}) % len(tab)]", f"tab[{self.num(ctx, 0)}]",
                              f"tab[abs({self.num(ctx, d, comp)}) % len(tab)]", f"get(tmap, {self.word(ctx, d, comp)}, 0)",
                              f"tmap[{self.word(ctx, d, comp)}]", f"get(tmap, {self.word(ctx, d, comp)}, 0)",
                              # an entry named by a constant (read once ahead of a loop), one of them missing
                              "tmap['hi']", "tmap['lo']", f"(tmap['nope'] if {self.boolean(ctx, 0)} else 2)",
                              # a whole number naming an entry by its text; 0 names none
                              f"tnum[abs({self.num(ctx, d, comp)}) % 4]", "sum(tmap)", "sum(tnum) - len(tmap)"])
        if kind == 11 and comp:
            src = self.lst(ctx, d, False, NUMS)
            body = self.num({**ctx, "v": NUM}, d, False)
            cond = self.boolean({**ctx, "v": NUM}, 1, False)
            return f"sum([{body} for v in {src} if {cond}])"
        if kind == 12:
            return f"if_({self.boolean(ctx, d, comp)}, {self.num(ctx, d, comp)}, {self.num(ctx, d, comp)})"
        if kind == 13 and "big" in ctx and comp:  # work in proportion to the square of a table's length
            return self.pick(["sum([count(big, v) for v in big])", "len([v for v in big if v in big])",
                              "sum([index(big, v) for v in big])"])
        if kind == 16 and self.names(ctx, CARDS):
            cards = self.pick(self.names(ctx, CARDS))
            return self.pick([f"value({cards})", f"nrank({cards}, 'A')", f"nsuit({cards}, 'S')", f"len({cards})"])
        if kind == 15 and self.draw(st.booleans()):  # a list's first value (some lists are empty)
            return f"{self.lst(ctx, d, comp, NUMS)}[0]"
        if kind == 14:
            lst = self.lst(ctx, d, comp, WORDS)
            return f"index({lst}, {self.word(ctx, d, comp)})"
        return self.pick(leaves)

    def boolean(self, ctx: Ctx, depth: int = 2, comp: bool = True) -> str:
        names = self.names(ctx, BOOL)
        leaves = [*names, *names, "true", "false"]
        if depth <= 0 or self.draw(st.integers(0, 3)) == 0:
            return self.pick(leaves)
        d = depth - 1
        kind = self.draw(st.integers(0, 10))
        if kind <= 3:
            op = self.pick(["<", "<=", ">", ">=", "==", "!="])
            return f"{self.num(ctx, d, comp)} {op} {self.num(ctx, d, comp)}"
        if kind == 4:
            return f"{self.word(ctx, d, comp)} {self.pick(['==', '!='])} {self.word(ctx, d, comp)}"
        if kind == 5:
            return f"{self.word(ctx, d, comp)} {self.pick(['in', 'not in'])} {self.lst(ctx, d, comp, WORDS)}"
        if kind == 6:
            return f"({self.boolean(ctx, d, comp)} {self.pick(['and', 'or'])} {self.boolean(ctx, d, comp)})"
        if kind == 7:
            return f"not {self.boolean(ctx, d, comp)}"
        if kind == 8:
            fn = self.pick(["any", "all"])
            if comp and self.draw(st.booleans()):
                src = self.lst(ctx, d, False, NUMS)
                return f"{fn}({self.boolean({**ctx, 'v': NUM}, 1, False)} for v in {src})"
            return f"{fn}({self.lst(ctx, d, comp, BOOLS)})"
        if kind == 9:
            cards = self.names(ctx, CARDS)
            if len(cards) > 0 and self.draw(st.booleans()):
                return f"has({self.pick(cards)}, {self.pick(['QS', 'A', 'AS', '10H'])!r})"
            return f"{self.num(ctx, d, comp)} in {self.lst(ctx, d, comp, NUMS)}"
        words = self.names(ctx, WORD)
        if words:
            return f"{self.pick(words)} {self.pick(['==', '!='])} none"
        return self.pick(leaves)

    def word(self, ctx: Ctx, depth: int = 2, comp: bool = True) -> str:
        names = self.names(ctx, WORD)
        leaves = [*names, *names, q(self.pick(list(self.words))).replace('"', "'")]
        if depth <= 0 or self.draw(st.integers(0, 3)) == 0:
            return self.pick(leaves)
        d = depth - 1
        kind = self.draw(st.integers(0, 3))
        if kind == 0:
            return f"({self.word(ctx, d, comp)} if {self.boolean(ctx, d, comp)} else {self.word(ctx, d, comp)})"
        if kind == 1:
            return self.pick(["players[dealer]", f"players[{self.num(ctx, d, comp)} % n_players]",
                              f"sides[{self.num(ctx, 0)} % n_sides]"])
        if kind == 2:
            return self.pick(["members[0]" if "members" in ctx else "players[0]", "sides[0]"])
        return self.pick(leaves)

    def lst(self, ctx: Ctx, depth: int = 2, comp: bool = True, kind: str = NUMS) -> str:
        names = self.names(ctx, kind)
        item = LIST_OF[kind]
        leaves = [*names, *names] or [f"[{self.of(item, ctx, 0)}]"]
        if depth <= 0 or self.draw(st.integers(0, 2)) == 0:
            return self.pick(leaves)
        d = depth - 1
        choice = self.draw(st.integers(0, 4))
        if choice == 0:
            return "[" + ", ".join(self.of(item, ctx, d, comp) for _ in range(self.draw(st.integers(0, 3)))) + "]"
        if choice == 1 and comp:
            src = self.lst(ctx, d, False, NUMS)
            inner = {**ctx, "v": NUM}
            return f"[{self.of(item, inner, 1, False)} for v in {src} if {self.boolean(inner, 1, False)}]"
        if choice == 2 and kind == NUMS:
            return f"sorted({self.lst(ctx, d, comp, kind)})"
        if choice == 3 and kind == NUMS and "tab" in ctx:
            return "tab"
        return self.pick(leaves)


@dataclass
class Made:
    """A random ruleset: its text, who plays it, and what a hand of it types."""

    text: str
    players: list[str]
    hand_fields: dict[str, str]     # name -> type (n, b, w, player, side)
    player_fields: dict[str, str]
    side_fields: dict[str, str]
    n_sides: int
    options: dict[str, str]


PLAYER_NAMES = ["ann", "bob", "cat", "dan", "eve", "fay"]


@st.composite
def rulesets(draw: st.DrawFn) -> Made:
    lines: list[str] = ["format = 1", "", "[game]", 'id = "random"', 'name = "Random"', ""]
    names = Names()
    partnership = draw(st.booleans())
    if partnership:
        n_players, seats = draw(st.sampled_from([(4, [[1, 3], [2, 4]]), (6, [[1, 4], [2, 5], [3, 6]]),
                                                 (3, [[1], [2, 3]]), (4, [[1, 2, 3], [4]]), (4, [[1, 3], [2, 4]])]))
        n_sides = len(seats)
        lines += ["[players]", f"min = {n_players}", f"max = {n_players}", 'sides = "partnership"',
                  f"partnerships = {seats}", ""]
    else:
        n_players = draw(st.integers(2, 5))
        n_sides = n_players
        lines += ["[players]", f"min = {n_players}", f"max = {n_players}", ""]
    players = PLAYER_NAMES[:n_players]
    side_words = tuple(f"{a}+{b}" for a, b in zip(players, players[2:], strict=False))[:1]
    words = (*WORD_VALUES, *players[:2], "playing", "won", "out", *side_words)
    fx = Formulas(draw, words)

    # options and tables
    target = draw(st.integers(5, 40))
    lines += ["[options.target]", f"default = {target}", "", "[options.mode]", 'default = "lo"',
              'values = ["lo", "hi"]', ""]
    names.setup.update(target=NUM, mode=WORD, n_players=NUM, n_sides=NUM, players=WORDS, sides=WORDS)
    tab = draw(st.lists(st.integers(-5, 20), min_size=1, max_size=5))
    lines += ["[cards]", 'deck = "24"', 'values = { A = 11, "10" = 10, K = 4, QS = 40 }', ""]
    lines += ["[tables]", f"tab = {tab}", "tmap = { lo = 1, mid = 3, hi = 5 }", "tnum = { 1 = 4, 2 = 6, 3 = 9 }"]
    names.setup.update(tab=NUMS)
    big = draw(st.sampled_from([0, 0, 0, 30, 200, 400]))
    if big:
        lines.append(f"big = {list(range(big))}")
        names.setup["big"] = NUMS
    lines.append("")
    names.hand_base.update(hand_no=NUM, hands=NUM, dealer=NUM, active=BOOLS, n_active=NUM)

    # fields: what a hand types
    made_fields: dict[str, dict[str, str]] = {"hand": {}, "player": {}, "side": {}}
    for scope, prefix, bucket in (("hand", "h", names.hand_fields), ("player", "p", names.player_fields),
                                  ("side", "s", names.side_fields)):
        kinds = draw(st.lists(st.sampled_from(["int", "bool", "word", "player", "side", "number", "pattern"]
                                              if scope == "hand" else ["int", "int", "bool", "word", "number", "cards"]
                                              if scope == "player" else ["int", "int", "bool", "word"]),
                              min_size=1 if scope == "player" else 0, max_size=3))
        for i, ftype in enumerate(kinds):
            fname = f"{prefix}{ftype[0]}{i}"
            lines += [f"[fields.{fname}]", f'scope = "{scope}"', f'type = "{ftype}"']
            if ftype == "int":
                lines += ["min = -5", "max = 20"]
            elif ftype == "word":
                lines.append(f"values = {json.dumps(list(WORD_VALUES))}")
            elif ftype == "pattern":
                lines.append("pattern = '(?P<level>[1-7])(?P<strain>C|D|H|S|NT)'")
                bucket.update({f"{fname}_level": NUM, f"{fname}_strain": WORD})
            if ftype in ("player", "side", "pattern", "cards"):
                lines.append("optional = true")
            lines.append("")
            bucket[fname] = {"int": NUM, "number": NUM, "bool": BOOL, "cards": CARDS}.get(ftype, WORD)
            made_fields[scope][fname] = {"int": NUM, "bool": BOOL, "word": WORD}.get(ftype, ftype)

    # counters
    names.side_counters.update(score=NUM, status=WORD)
    state_side = draw(st.lists(st.sampled_from([("tally", NUM, "0"), ("tally", NUM, "target // 5"),
                                                ("flag", BOOL, "false"), ("tag", WORD, "'lo'")]),
                               max_size=3, unique_by=lambda t: t[0]))
    state_game = draw(st.lists(st.sampled_from([("pool", NUM, "0"), ("pool", NUM, "n_players"),
                                                ("gword", WORD, "'mid'")]), max_size=2, unique_by=lambda t: t[0]))
    if state_side:
        lines.append("[state.side]")
        for cname, kind, init in state_side:
            lines.append(f"{cname} = {q(init)}")
            names.side_counters[cname] = kind
        lines.append("")
    if state_game:
        lines.append("[state.game]")
        for cname, kind, init in state_game:
            lines.append(f"{cname} = {q(init)}")
            names.game_counters[cname] = kind
            names.hand_base[cname] = kind
        lines.append("")

    # lets: each sees the ones above it
    hand_let_ctx = {**names.typed(), **Names.lists(names.side_counters, "all_")}
    n_lets = draw(st.integers(0, 3))
    if n_lets:
        lines.append("[let]")
        for i in range(n_lets):
            kind = draw(st.sampled_from([NUM, NUM, BOOL, WORD, NUMS]))
            lines.append(f"hl{i} = {q(fx.of(kind, hand_let_ctx))}")
            names.hand_lets[f"hl{i}"] = kind
            hand_let_ctx[f"hl{i}"] = kind
        lines.append("")
    pf, sf, counters = names.player_fields, names.side_fields, names.side_counters
    player_ctx = {**hand_let_ctx, **pf, **Names.lists(pf, "others_"), **Names.lists(pf, "team_"), **sf, **counters,
                  **Names.lists({**sf, **counters}, "others_"), "me": WORD, "seat": NUM, "side": WORD, "side_no": NUM}
    n_lets = draw(st.integers(0, 4))
    if n_lets:
        lines.append("[player]")
        for i in range(n_lets):
            kind = draw(st.sampled_from([NUM, NUM, BOOL, WORD]))
            lines.append(f"pl{i} = {q(fx.of(kind, player_ctx))}")
            names.player_lets[f"pl{i}"] = kind
            player_ctx.update({f"pl{i}": kind, **Names.lists({f"pl{i}": kind}, "all_"),
                               **Names.lists({f"pl{i}": kind}, "others_"), **Names.lists({f"pl{i}": kind}, "team_")})
        lines.append("")
    pl = names.player_level()
    side_ctx = {**hand_let_ctx, **Names.lists(pl, "all_"), **sf, **counters, **Names.lists({**sf, **counters}, "others_"),
                **Names.lists(pl, ""), **Names.lists(pl, "team_"), "me": WORD, "side_no": NUM, "members": WORDS}
    n_lets = draw(st.integers(0, 2))
    if n_lets:
        lines.append("[side]")
        for i in range(n_lets):
            kind = draw(st.sampled_from([NUM, BOOL, WORD]))
            lines.append(f"sl{i} = {q(fx.of(kind, side_ctx))}")
            names.side_lets[f"sl{i}"] = kind
            side_ctx.update({f"sl{i}": kind, **Names.lists({f"sl{i}": kind}, "all_"),
                             **Names.lists({f"sl{i}": kind}, "others_")})
        lines.append("")

    contexts = {"hand": names.hand(), "player": names.player(), "side": names.side()}

    # checks: most hold most of the time, some fail
    for i in range(draw(st.integers(0, 3))):
        per = draw(st.sampled_from(["hand", "player", "side"]))
        ctx = contexts[per]
        ok = draw(st.sampled_from([f"{fx.num(ctx, 1)} > -1000", f"{fx.num(ctx, 2)} > -1000",
                                   f"{fx.num(ctx, 1)} != -999", fx.boolean(ctx), fx.boolean(ctx, 1)]))
        lines += ["[[check]]", f'id = "c{i}"', f'per = "{per}"', f"ok = {q(ok)}"]
        if draw(st.booleans()):
            lines.append(f"when = {q(fx.boolean(ctx))}")
        parts = " ".join("{" + fx.of(draw(st.sampled_from([NUM, WORD, BOOL, NUMS])), ctx, 1) + "}"
                         for _ in range(draw(st.integers(0, 2))))
        if draw(st.integers(0, 3)) == 0:
            parts += " {" + fx.num(ctx, 1) + " / 4}"
        lines += [f"message = {q(('{me}: ' if per != 'hand' else '') + 'check ' + str(i) + ' fails ' + parts)}", ""]

    # score lines
    to_choices: list[list[str] | None] = [None, ["score"]]
    if names.side_counters.get("tally") == NUM:
        to_choices += [["score", "tally"], ["tally"]]
    for i in range(draw(st.integers(1, 5))):
        per = draw(st.sampled_from(["player", "side"]))
        ctx = contexts[per]
        # now and then points that are no number (yes/no, a word, a list): refused alike
        points = fx.num(ctx, 3) if draw(st.integers(0, 29)) else fx.of(draw(st.sampled_from([BOOL, WORD, NUMS])), ctx)
        lines += ["[[score]]", f'id = "s{i}"', f'per = "{per}"', f'label = "line {i}"', f"points = {q(points)}"]
        if draw(st.booleans()):
            lines.append(f"when = {q(fx.boolean(ctx))}")
        to = draw(st.sampled_from(to_choices))
        if to is not None:
            lines.append(f"to = {json.dumps(to)}")
        lines.append("")

    # probes: lines that read a player's and a side's names of every kind, so a value read from the
    # wrong player or side always shows in the points
    player_nums = sorted(n for n, t in names.player_level().items() if t == NUM)
    side_nums = sorted(n for n, t in names.side_level().items() if t == NUM)
    if len(player_nums) > 0 and draw(st.integers(0, 2)):
        x, y = draw(st.sampled_from(player_nums)), draw(st.sampled_from(side_nums))
        lines += ["[[score]]", 'id = "probe_player"', 'per = "player"', 'label = "player probe"',
                  (f'points = "sum(team_{x}) * 1000 + sum(others_{x}) * 100 + {x} * 10 + len(all_{x}) + seat '
                  f'+ sum(others_{y}) * 3 + {y} + team_{x}[0] * 7 + others_{x}[0] * 5 + all_{x}[0] * 2"'), ""]
        lines += ["[[score]]", 'id = "probe_side"', 'per = "side"', 'label = "side probe"',
                  (f'points = "sum({x}) * 1000 + sum(team_{x}) * 100 + sum(all_{x}) * 10 + sum(others_{y}) * 3 '
                  f'+ {y} + side_no + len(members) + {x}[0] * 7 + team_{x}[0] * 5 + index(players, members[0])"'), ""]

    patterns = sorted(n for n, kind in made_fields["hand"].items() if kind == "pattern")
    if patterns:
        pat = draw(st.sampled_from(patterns))
        lines += ["[[score]]", 'id = "probe_pattern"', 'per = "side"', 'label = "pattern probe"',
                  f'points = "({pat}_level if {pat}_level != none else -1) * 10 + (5 if {pat}_strain == \'NT\' else 1)"',
                  ""]

    # rules
    rule_ctx = {"side": names.rule_side(), "game": names.rule_game()}
    side_settable = {n: t for n, t in names.side_counters.items() if n != "status"}
    for i in range(draw(st.integers(0, 4))):
        per = draw(st.sampled_from(["side", "side", "game"]))
        on = draw(st.sampled_from(["hand", "hand", "hand", "end", "finish"]))
        ctx = rule_ctx[per] if on == "hand" else names.between_hands(rule_ctx[per])
        lines += ["[[rule]]", f'id = "r{i}"', f'per = "{per}"', f'on = "{on}"']
        if draw(st.integers(0, 3)):
            lines.append(f"when = {q(fx.boolean(ctx))}")
        settable = {**(side_settable if per == "side" else {}), **names.game_counters}
        addable = {n: t for n, t in settable.items() if t == NUM}
        for action, pool in (("set", settable), ("add", addable), ("set_all", side_settable)):
            if pool and draw(st.integers(0, 2)) == 0:
                chosen = draw(st.lists(st.sampled_from(sorted(pool)), min_size=1, max_size=2, unique=True))
                # now and then a value of the wrong type: the rule then fails alike in both engines
                items = ", ".join(f"{c} = {q(fx.of(pool[c] if draw(st.integers(0, 9)) else WORD, ctx, 1))}"
                                  for c in chosen)
                lines.append(f"{action} = {{ {items} }}")
        if per == "side" and draw(st.integers(0, 3)) == 0:
            lines.append(f'mark = "{draw(st.sampled_from(["won", "lost", "out", "playing"]))}"')
        if draw(st.integers(0, 5)) == 0:
            lines.append("end = true")
        if draw(st.booleans()):
            lines.append(f'label = "rule {i}"')
        if draw(st.booleans()):
            part = "{" + fx.of(draw(st.sampled_from([NUM, NUM, WORD, BOOL, NUMS])), ctx, 1) + "}"
            if draw(st.integers(0, 3)) == 0:
                part = part[:-1] + " / 4}"
            lines.append(f"message = {q(('{me} ' if per == 'side' else '') + f'rule {i}: {part}')}")
        if per == "side" and draw(st.integers(0, 3)) == 0:
            lines.append("include_out = true")
        lines.append("")

    if draw(st.integers(0, 2)) == 0:  # later rules see the counters and points as earlier rules left them
        lines += ["[[rule]]", 'id = "bump"', 'when = "hand_no % 2 == 1"', 'add = { score = "1 + side_no" }',
                  'label = "bump"', ""]
        follow = "gained * 100 + sum(all_gained) * 10 + score"
        followed = draw(st.sampled_from(sorted(n for n, t in {**side_settable, **names.game_counters}.items()
                                               if t == NUM and n != "score") or ["-"]))
        lines += ["[[rule]]", 'id = "follow"', f'message = "{{me}}: {{{follow}}} {{all_score}}"']
        if followed != "-":
            lines.append(f'set = {{ {followed} = "{follow}" }}')
        lines.append("")

    if draw(st.integers(0, 2)) == 0:  # a side stops playing at a given hand: `active`, include_out, last_standing
        lines += ["[[rule]]", 'id = "leave"', f'when = "hand_no == {draw(st.integers(1, 3))} and side_no == 0"',
                  f'mark = "{draw(st.sampled_from(["out", "lost"]))}"', ""]
        if draw(st.booleans()):
            lines += ["[[rule]]", 'id = "roll_call"', 'include_out = true', 'message = "{me} is {status}"', ""]

    if draw(st.integers(0, 4)) == 0:
        game_ctx = rule_ctx["game"]
        who = draw(st.sampled_from(["(dealer + 2) % n_players", "players[0]", f"{fx.num(game_ctx, 1)} % 9",
                                    f"abs({fx.num(game_ctx, 2)}) % n_players", fx.word(game_ctx, 1)]))
        lines.insert(lines.index("[players]") + 1, f"next_dealer = {q(who)}")

    # end
    lines.append("[end]")
    end_kind = draw(st.integers(0, 5))
    hand_ctx = contexts["hand"]
    if end_kind == 0:
        goal = draw(st.sampled_from(["target", str(draw(st.integers(3, 15))), "tab[0] + 10"]))
        lines += [f"first_to = {q(goal)}", f'rest_of_deal = "{draw(st.sampled_from(["void", "scored"]))}"',
                  f'tie = "{draw(st.sampled_from(["draw", "continue"]))}"']
    else:
        if end_kind <= 3:
            when = draw(st.sampled_from(["max(all_score) >= target", "min(all_score) <= -target",
                                         f"hand_no >= {draw(st.integers(2, 6))}",
                                         fx.boolean(hand_ctx)]))
            lines.append(f"when = {q(when)}")
        lines += [f'winner = "{draw(st.sampled_from(["highest", "lowest", "marked", "last_standing"]))}"',
                  f'tie = "{draw(st.sampled_from(["draw", "continue"]))}"',
                  f'rank = "{draw(st.sampled_from(["highest", "lowest"]))}"']
    lines.append("")
    return Made("\n".join(lines), players, made_fields["hand"], made_fields["player"], made_fields["side"],
                n_sides, {})


def _value(draw: st.DrawFn, kind: str, made: Made, side_names: list[str]) -> Any:
    if kind == NUM:
        return draw(st.integers(-5, 20))
    if kind == "number":
        return draw(st.sampled_from([0, 1, 2.5, -1.5, 3.0, 7, 0.25]))
    if kind == "cards":
        return draw(st.lists(st.sampled_from(DECK), max_size=4, unique=True))
    if kind == BOOL:
        return draw(st.booleans())
    if kind == WORD:
        return draw(st.sampled_from(WORD_VALUES))
    if kind == "player":
        return draw(st.sampled_from([None, *made.players]))
    return draw(st.sampled_from([None, *side_names]))


@st.composite
def hands(draw: st.DrawFn, made: Made, side_names: list[str]) -> dict[str, Any]:
    """A typed hand: every field's value (a list per player or per side for those scopes)."""
    hand: dict[str, Any] = {}
    for fname, kind in made.hand_fields.items():
        if kind == "pattern":
            level, strain = draw(st.sampled_from([(None, None), (1, "C"), (4, "H"), (7, "NT"), (3, "S")]))
            hand[fname] = None if level is None else f"{level}{strain}"
            if level is not None and draw(st.integers(0, 5)):  # as typed; without the parts now and then
                hand[f"_{fname}_parts"] = {"level": level, "strain": strain}
            continue
        hand[fname] = _value(draw, kind, made, side_names)
    # a per-player or per-side field left out of the hand now and then: nobody's value (None each)
    for fname, kind in made.player_fields.items():
        if draw(st.integers(0, 14)):
            hand[fname] = [_value(draw, kind, made, side_names) for _ in made.players]
    for fname, kind in made.side_fields.items():
        if draw(st.integers(0, 14)):
            hand[fname] = [_value(draw, kind, made, side_names) for _ in range(made.n_sides)]
    return hand
