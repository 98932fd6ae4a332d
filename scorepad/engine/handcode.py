"""A game's whole hand as one generated Python function: the checks, lets, score lines and rules of
its ruleset written out in the order the engine runs them, every name a formula reads a local
variable of that function.

The per-formula engine (engine.py) makes a Python call per formula and looks each name up in a
table per player and per side; a replay of thousands of hands spends most of its time there. The
hand code does the same work in one call. It covers only the way a hand usually goes: when a check
fails, a formula raises anything, the budget runs out or the state is not shaped as the code
expects, it gives up (None) and the engine scores the hand again from the start formula by formula,
so every refusal and every error is the per-formula engine's own. The text is made from the
validated formula trees by pycode._CodeGen (with the budget charges of the closure trees that
evaluate a formula everywhere else), once per ruleset; each game binds its players and sides.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import CodeType, FunctionType
from typing import Any

from scorepad.engine import game as engine
from scorepad.engine.game import Game, HandResult, Line, State, _Race
from scorepad.rules import values
from scorepad.rules.expr import Budget, Formula, _Exhausted
from scorepad.rules.model import Ruleset
from scorepad.rules.names import TEMPLATE_RE
from scorepad.rules.pycode import _CodeGen, _compiled

HandFunction = Callable[[State, dict[str, Any], Budget], HandResult]
"""(state, typed hand, the hand's budget) -> what scoring.apply_hand gives"""


HAND_WARM_UP = 50  # hands of a ruleset text scored formula by formula in a process before its hand code is written


class _Refused(Exception):
    """Raised by the hand code where the per-formula engine would refuse the hand (a check failed)."""


def _without(values: list[Any], k: int) -> list[Any]:
    return values[:k] + values[k + 1:]


def _pick(values: list[Any], seats: tuple[int, ...]) -> list[Any]:
    return [values[j] for j in seats]


def _column(sides: list[dict[str, Any]], name: str) -> list[Any]:
    return [side[name] for side in sides]


def _listed(value: Any, count: int) -> list[Any]:
    """A player's or side's field as the hand's names hold it (engine.hand_names)."""
    return list(value) if value is not None else [None] * count


def _part(stored: Any, part: str) -> Any:
    """One part of a pattern field (engine.pattern_parts)."""
    return stored.get(part) if isinstance(stored, dict) else None


def _unknown(name: str) -> Any:
    """A name that is not among the hand's names when it is read (a let not worked out yet)."""
    raise KeyError(name)


def _reached(sides: list[dict[str, Any]], goal: Any) -> bool:
    """engine.finish_if_over's `first_to` test: a side still playing has reached the goal."""
    return any(side["score"] >= goal for side in sides if side["status"] == "playing")


def _fill(text: str, values: list[str]) -> str:
    it = iter(values)
    return TEMPLATE_RE.sub(lambda m: next(it, "?"), text)


def _points(pts: Any) -> Any:
    """A score line's points: a number, or the hand goes the per-formula way (which names the item)."""
    if type(pts) is not int and (isinstance(pts, bool) or not isinstance(pts, (int, float))):
        raise _Refused
    return pts


# A player's or side's formula of at most this many characters of hand code is written out once per
# seat (no loop to run); a longer one stays in a loop (compiled once: pinochle's meld, written out for
# four players, took 28 ms to compile where a hand takes 0.05 ms).
_WRITTEN_OUT = 1000


class _Writer:
    """Writes the text of one ruleset's hand function. Names are resolved as engine._Names and
    engine._RuleEnv resolve them; the game's seats and sides are bound by `bind_game`."""

    def __init__(self, game: Game, counters: tuple[str, ...], game_counters: tuple[str, ...]) -> None:
        rs = game.ruleset
        self.rs = rs
        self.plan = game.plan
        self.counters = counters
        self.game_counters = game_counters
        self.gen = _CodeGen({})
        self.sources = self.hand_sources(game)
        self.gen.name_of = self.name
        self.player_resolve, self.side_resolve = self.plan.resolver(game, counters)
        self.lines: list[str] = []
        self.depth = 1
        self.loads: dict[str, str] = {}   # a name of the hand read at the start -> its local
        self.lets: dict[str, str] = {}    # a hand let's name, a player/side let's all_ name -> its local
        self.context: tuple[str, str] = ("hand", "")
        # The steps the hand is charged before it starts: every formula's weight, times the players,
        # the sides or the score line's targets it is evaluated for. The per-formula engine charges
        # a formula's weight only when it is evaluated: the hand code can charge more, never less,
        # so it runs out of budget wherever that engine would (and gives the hand to it).
        self.weight: dict[str, int] = {}
        self.times = "1"
        # the players and sides at the table: a player's or side's let is written once per seat
        # (the code is made per ruleset, state shape and these two numbers)
        self.n_players, self.n_sides = len(game.players), len(game.sides)
        self.player_static = set(self.plan.player_static[0]) if self.plan.player_static else set()
        self.side_static = set(self.plan.side_static[0]) if self.plan.side_static else set()

    # ------------------------------------------------------------------ names

    def local(self, name: str) -> str:
        return f"n{len(self.loads) + len(self.lets)}"

    def hand_level(self, name: str) -> str:
        """A name read from the hand's names: a let once worked out, a name the hand starts with,
        anything else looked up when read (a missing one raises KeyError as the engine's table)."""
        found = self.lets.get(name)
        if found is not None:
            return found
        if name in self.sources:
            found = self.loads.get(name)
            if found is None:
                found = self.loads[name] = self.local(name)
            return found
        return f"{self.gen.bind(_unknown)}({self.gen.bind(name)})"

    def hand_sources(self, game: Game) -> dict[str, str]:
        """Where each name a hand starts with is read from: what engine.hand_names puts in the
        hand's names, in the same order (a later source of a name wins), read straight from the
        game, the state and the typed hand; only the names some formula reads are read."""
        bind, plan = self.gen.bind, self.plan
        out = {name: f"_BASE[{bind(name)}]" for name in plan.base}
        out.update((name, f"G0[{bind(name)}]") for name in self.game_counters)
        out.update(hand_no="(state['hands'] + 1)", hands="state['hands']",
                   dealer=f"{bind(engine.current_dealer)}(state, _N)", active="ACTIVE",
                   n_active=f"{bind(sum)}(ACTIVE)")
        for fname, key, count in plan.field_keys:
            if count >= 0:
                size = "_N" if self.rs.fields[fname].scope == "player" else "_M"
                out[key] = (f"(_v if {bind(type)}(_v := HG({bind(fname)})) is {bind(list)} "
                            f"else {bind(_listed)}(_v, {size}))")
            else:
                out[key] = f"HG({bind(fname)})"
                if count == engine._PATTERN:
                    fdef = self.rs.fields[fname]
                    for part in fdef.parts:
                        out[f"{fdef.name}_{part}"] = f"{bind(_part)}(HG({bind('_' + fname + '_parts')}), {bind(part)})"
        out.update((f"all_{c}", f"{bind(_column)}(S0, {bind(c)})") for c in self.counters)
        return out

    def name(self, name: str) -> str:
        kind, at = self.context
        if kind == "player":
            return self.player_name(name, at)
        if kind == "side":
            return self.side_name(name, at)
        if kind == "rule":
            return self.rule_name(name, at)
        if kind == "game":
            return self.game_rule_name(name)
        return self.hand_level(name)

    def resolved(self, how: tuple[str, int], index: str, side_no: str, mates: str) -> str:
        key, mode = how
        values = self.hand_level(key)
        if mode == engine._MINE:
            return f"{values}[{index}]"
        if mode == engine._SIDES:
            return f"{values}[{side_no}]"
        if mode == engine._TEAM:
            return f"{self.gen.bind(_pick)}({values}, {mates})"
        k = index if mode == engine._NOT_MINE else side_no
        return f"{self.gen.bind(_without)}({values}, {k})"

    def player_name(self, name: str, i: str) -> str:
        if name in self.player_static:
            return {"me": f"_PL[{i}]", "seat": i, "side": f"_SIDE[{i}]", "side_no": f"_SO[{i}]"}[name]
        how = self.player_resolve.get(name)
        if how is not None:
            return self.resolved(how, i, f"_SO[{i}]", f"_MATES[{i}]")
        return self.hand_level(name)

    def side_name(self, name: str, k: str) -> str:
        if name in self.side_static:
            return {"me": f"_SN[{k}]", "side_no": k, "members": f"_MN[{k}]"}[name]
        how = self.side_resolve.get(name)
        if how is not None:
            return self.resolved(how, k, k, f"_MEMBERS[{k}]")
        return self.hand_level(name)

    def live_name(self, name: str, k: str | None) -> str | None:
        """What a rule reads from the counters as they stand now (engine._RuleEnv.__missing__)."""
        bind = self.gen.bind
        if name == "all_gained":
            return f"{bind(list)}(points)"
        if name == "finished_early":
            return "False"
        if name == "gained" and k is not None:
            return f"points[{k}]"
        if k is not None and name in self.side_static:
            return None
        if name == "active":
            return f"{bind(engine.active_players)}(_GAME, new)"
        if name == "n_active":
            return f"{bind(sum)}({bind(engine.active_players)}(_GAME, new))"
        if k is not None and name in self.counters:
            return f"NS[{k}][{bind(name)}]"
        if name.startswith("all_") and name[4:] in self.counters:
            return f"{bind(_column)}(NS, {bind(name[4:])})"
        if k is not None and name.startswith("others_") and name[7:] in self.counters:
            return f"{bind(_without)}({bind(_column)}(NS, {bind(name[7:])}), {k})"
        if name in self.game_counters:
            return f"NG[{bind(name)}]"
        return None

    def rule_name(self, name: str, k: str) -> str:
        live = self.live_name(name, k)
        return live if live is not None else self.side_name(name, k)

    def game_rule_name(self, name: str) -> str:
        live = self.live_name(name, None)
        return live if live is not None else self.hand_level(name)

    # ------------------------------------------------------------------ text

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    @contextmanager
    def ahead_of_seats(self) -> Iterator[None]:
        """The lines written inside repeat for each player or side (a loop, or the seats written
        out): the table entries their formulas read by a word are looked up once, in lines put
        ahead of them (`_CodeGen.hoisted`)."""
        assert self.gen.hoisted is None, "the seats' lines are not nested"
        at, depth = len(self.lines), self.depth
        self.gen.hoisted = {}
        try:
            yield
            self.lines[at:at] = ["    " * depth + f"{name} = {text}" for name, text in self.gen.hoisted.values()]
        finally:
            self.gen.hoisted = None

    def playing(self, per_player: bool, at: str) -> str:
        """Whether the player (still in the game) or the side (still playing) at `at` takes part."""
        bind = self.gen.bind
        return f"ACTIVE[{at}]" if per_player else f"S0[{at}][{bind('status')}] == {bind('playing')}"

    def value(self, formula: Formula, context: tuple[str, str]) -> str:
        """The formula's expression in `context`; its weight is added to what the hand is charged
        at its start, once for each time it can be evaluated (`self.times`)."""
        self.weight[self.times] = self.weight.get(self.times, 0) + int(formula.weight)
        assert formula.tree is not None
        saved, self.context = self.context, context
        self.gen.functions = formula.functions
        try:
            return self.gen.expr(formula.tree)
        finally:
            self.context = saved

    def refuse(self) -> str:
        return f"raise {self.gen.bind(_Refused)}"

    def checks(self, checks: Any) -> None:
        for check in checks:
            self.times = {"hand": "1", "player": "_N"}.get(check.per, "_M")
            if check.per == "hand":
                ctx = ("hand", "")
                if check.when is not None:
                    self.emit(f"if {self.value(check.when, ctx)}:")
                    self.emit(f"    if not {self.value(check.ok, ctx)}: {self.refuse()}")
                else:
                    self.emit(f"if not {self.value(check.ok, ctx)}: {self.refuse()}")
                continue
            # per player (still in the game) or side (still playing), the loop over the seats
            # written out, the table entries it reads looked up once ahead of it
            per_player = check.per == "player"
            var, seats = ("i", self.n_players) if per_player else ("k", self.n_sides)
            ctx = ("player", "i") if per_player else ("side", "k")
            with self.ahead_of_seats():
                when = self.value(check.when, ctx) if check.when is not None else None
                ok = self.value(check.ok, ctx)
                if len(ok) + len(when or "") > _WRITTEN_OUT:  # a long check stays in its loop
                    self.emit(f"for {var} in range({'_N' if per_player else '_M'}):")
                    test = self.playing(per_player, var) + ("" if when is None else f" and {when}")
                    self.emit(f"    if {test}:")
                    self.emit(f"        if not {ok}: {self.refuse()}")
                    continue
                for seat in range(seats):
                    self.emit(f"{var} = {seat}")
                    test = self.playing(per_player, str(seat)) + ("" if when is None else f" and {when}")
                    self.emit(f"if {test}:")
                    self.emit(f"    if not {ok}: {self.refuse()}")

    def let_values(self) -> None:
        rs = self.rs
        self.times = "1"
        for let in rs.hand_lets:
            text = self.value(let.formula, ("hand", ""))
            target = f"n{len(self.loads) + len(self.lets)}"
            self.emit(f"{target} = {text}")
            self.lets[let.name] = target
        for lets, count, seats, kind, var in ((rs.player_lets, "_N", self.n_players, "player", "i"),
                                              (rs.side_lets, "_M", self.n_sides, "side", "k")):
            self.times = count
            for let in lets:
                # the loop over the seats written out: `i = 0`, its value, `i = 1`, ...
                with self.ahead_of_seats():
                    text = self.value(let.formula, (kind, var))
                    target = f"n{len(self.loads) + len(self.lets)}"  # after the names the formula loads
                    if len(text) > _WRITTEN_OUT:  # a long formula stays in its loop: compiled once, not per seat
                        self.emit(f"{target} = []")
                        self.emit(f"for {var} in range({count}):")
                        self.emit(f"    {target}.append({text})")
                    else:
                        for seat in range(seats):
                            self.emit(f"{var} = {seat}")
                            self.emit(f"_u{seat} = {text}")
                        self.emit(f"{target} = [{', '.join(f'_u{seat}' for seat in range(seats))}]")
                self.lets["all_" + let.name] = target

    def scores(self, race: bool) -> None:
        bind = self.gen.bind
        for j, (item, per_player, _targets) in enumerate(self.plan.scores):
            ctx = ("player", "at") if per_player else ("side", "at")
            self.times = f"T{j}"
            to = bind(item.to)
            if race:
                self.emit("stage = []")
            with self.ahead_of_seats():
                self.emit(f"for k, at, label in _TARGETS[{j}]:")
                self.depth += 1
                self.emit("if not PLAYING[k]: continue")
                if item.when is not None:
                    self.emit(f"if not {self.value(item.when, ctx)}: continue")
                # a whole number as is; anything else through _points (the common case without a call)
                self.emit(f"pts = (_p if type(_p := {self.value(item.points, ctx)}) is int else {bind(_points)}(_p))")
                self.emit("if pts == 0: continue")
            if race:
                self.emit("stage.append((k, label, pts))")
                self.depth -= 1
                self.emit("if race is not None:")
                self.emit(f"    stage = race.count(stage, {bind(item.label)}, {'score' in item.to}, new)")
                self.emit("for k, label, pts in stage:")
                self.depth += 1
            if "score" in item.to:  # a line to other counters only is no part of the hand's points
                self.emit("points[k] += pts")
            self.emit(f"BD[k].append(_TN(_LINE, (label, pts, {to})))  # Line(label, pts, to) without its __new__")
            self.emit("side = NS[k]")
            for counter in item.to:
                c = bind(counter)
                self.emit(f"side[{c}] = side[{c}] + pts")
            self.depth -= 1

    def rules(self, rules: Any) -> None:
        """Each threshold rule, for the game or for each side (still playing, unless it includes the out)."""
        bind = self.gen.bind
        for rule in rules:
            per_game = rule.per == "game"
            self.times = "1" if per_game else "_M"
            if per_game:
                ctx: tuple[str, str] = ("game", "")
                self.emit("if True:")
            elif rule.include_out:
                ctx = ("rule", "k")
                self.emit("for k in range(_M):")
            else:
                ctx = ("rule", "k")
                self.emit(f"for k in [x for x in range(_M) if NS[x][{bind('status')}] == {bind('playing')}]:")
            self.depth += 1
            if rule.when is not None:
                self.emit(f"if {self.value(rule.when, ctx)}:")
                self.depth += 1
            self.rule_body(rule, ctx, per_game)
            self.depth -= 1 + (rule.when is not None)

    def rule_body(self, rule: Any, ctx: tuple[str, str], per_game: bool) -> None:
        """One rule where it holds: its values worked out first, then stored, the score's change
        written as a line of the breakdown, its message and the end of the game."""
        bind = self.gen.bind
        if not per_game:
            self.emit(f"before = NS[k][{bind('score')}]")
        sets = self.rule_values(rule.set, "set", ctx)
        adds = self.rule_values(rule.add, "add", ctx)
        set_all = self.rule_values(rule.set_all, "all", ctx)
        if rule.message and rule.message_parts:
            parts = []
            for n, f in enumerate(rule.message_parts):
                self.emit(f"part{n} = {bind(values.format_value)}({self.value(f, ctx)})")
                parts.append(f"part{n}")
            self.emit(f"message = {bind(_fill)}({bind(rule.message)}, [{', '.join(parts)}])")
        for name, var in sets:
            self.emit(f"{self.counter_ref(name, per_game)} = {var}")
        for name, var in adds:
            ref = self.counter_ref(name, per_game)
            self.emit(f"{ref} = {ref} + {var}")
        for name, var in set_all:
            self.emit("for side in NS:")
            self.emit(f"    side[{bind(name)}] = {var}")
        if rule.mark and not per_game:
            self.emit(f"NS[k][{bind('status')}] = {bind(rule.mark)}")
        if not per_game:
            self.score_line(rule, adds)
        if rule.message:
            self.emit("if message: events.append(message)" if rule.message_parts else f"events.append({bind(rule.message)})")
        if rule.end:
            self.emit("ended = True")

    def rule_values(self, pairs: Any, prefix: str, ctx: tuple[str, str]) -> list[tuple[str, str]]:
        out = []
        for n, (name, f) in enumerate(pairs):
            self.emit(f"{prefix}{n} = {self.counter_value(f, ctx)}")
            out.append((name, f"{prefix}{n}"))
        return out

    def score_line(self, rule: Any, adds: list[tuple[str, str]]) -> None:
        bind = self.gen.bind
        score = bind("score")
        self.emit(f"if NS[k][{score}] != before:")
        self.emit(f"    delta = NS[k][{score}] - before")
        self.emit("    points[k] += delta")
        also = "".join(f"({bind(name)}, {var}), " for name, var in adds)
        self.emit(f"    also = tuple(c for c, v in ({also}) if c != {score} and v == delta)")
        self.emit(f"    BD[k].append(_TN(_LINE, ({bind(rule.label)}, delta, ({score}, *also))))")

    def game_over(self) -> None:
        """engine.finish_if_over after a hand: is the game over; if so its end rules, the winners."""
        end, bind = self.rs.end, self.gen.bind
        self.emit(f"over = ended or any(side[{bind('status')}] == {bind('won')} for side in NS)")
        if end.winner == "last_standing":
            self.emit(f"over = over or sum(side[{bind('status')}] == {bind('playing')} for side in NS) <= 1")
        self.times = "1"
        test = None
        if end.first_to is not None:
            test = f"{bind(_reached)}(NS, {self.value(end.first_to, ('game', ''))})"
        elif end.when is not None:
            test = f"bool({self.value(end.when, ('game', ''))})"
        if test is not None:
            self.emit("if not over:")
            self.emit(f"    over = {test}")
            self.emit(f"    if over and {bind(engine.tie_goes_on)}(_GAME, new, race, events):")
            self.emit("        over = False")
        self.emit("if over:")
        self.depth += 1
        self.rules(self.plan.end_rules)
        self.emit(f"{bind(engine.conclude)}(_GAME, new, events, race, [side[{bind('status')}] for side in S0])")
        self.depth -= 1

    def next_dealer(self) -> None:
        """engine._pass_deal: the deal passes on, or to whom `players.next_dealer` names."""
        rule = self.rs.next_dealer
        if rule is None:
            self.emit(f"{self.gen.bind(engine._pass_deal)}(_GAME, new)")
            return
        self.times = "1"
        self.emit(f"{self.gen.bind(engine.deal_to)}(_GAME, new, {self.value(rule, ('game', ''))})")

    def counter_value(self, f: Formula, ctx: tuple[str, str]) -> str:
        """A rule's new value for a counter, checked as engine._counter does (a whole number at once)."""
        bind = self.gen.bind
        return f"(_p if type(_p := {self.value(f, ctx)}) is int else {bind(engine._counter)}({bind(f.key)}, _p))"

    def counter_ref(self, name: str, per_game: bool) -> str:
        """Where a rule's set/add of `name` goes: the side's counter, else the game's (engine._store)."""
        if not per_game and name in self.counters:
            return f"NS[k][{self.gen.bind(name)}]"
        return f"NG[{self.gen.bind(name)}]"

    def write(self) -> tuple[str, dict[str, Any]]:
        plan, rs = self.plan, self.rs
        self.checks(plan.early)
        self.let_values()
        self.checks(plan.late)
        if rs.end.first_to is not None:
            self.times = "1"
            self.emit(f"race = {self.gen.bind(_Race.begin)}(_GAME, {self.value(rs.end.first_to, ('hand', ''))}, state)")
        else:
            self.emit("race = None")
        # engine.copy_state: the sides' and the game's counters copied; anything else in the state is
        # shared, never changed in place (every change is an assignment of a new value)
        self.emit("new = {**state, 'hands': state['hands'] + 1, 'sides': [{**side} for side in S0], 'game': {**G0}}")
        self.emit("NS = new['sides']")
        self.emit("NG = new['game']")
        self.emit("points = [0] * _M")
        self.emit("BD = [[] for _ in range(_M)]")
        self.emit("events = []")
        self.emit("ended = False")
        self.emit(f"PLAYING = [side[{self.gen.bind('status')}] == {self.gen.bind('playing')} for side in S0]")
        self.scores(race=rs.end.first_to is not None)
        self.rules(self.plan.hand_rules)
        self.game_over()
        self.next_dealer()
        self.emit("B.left -= _c  # the lists' charges counted along the way, each checked as it was counted")
        self.emit(f"if B.left < 0: raise {self.gen.bind(_Exhausted)}  # and the charges made since")
        self.emit(f"return {self.gen.bind(engine.HandResult)}(new, points, BD, events)")
        bind = self.gen.bind
        start = ["B.left -= _WEIGHT", f"if B.left < 0: raise {bind(_Exhausted)}", "_c = 0", "S0 = state['sides']",
                 "G0 = state['game']", "HG = hand.get", f"ACTIVE = {bind(engine.active_players)}(_GAME, state)"]
        loads = [f"    {line}" for line in start] + [f"    {local} = {self.sources[name]}"
                                                      for name, local in self.loads.items()]
        self.gen.glob.update(range=range, tuple=tuple, any=any, sum=sum, bool=bool, type=type, int=int, _TN=tuple.__new__,
                             _LINE=Line)
        text = "def _hand(state, hand, B):\n" + "\n".join(loads + self.lines) + "\n"
        return text, self.gen.glob


class HandCode:
    """One ruleset's hand function, made once, and bound to each game that plays it."""

    def __init__(self, writer: _Writer) -> None:
        self.text, self.glob = writer.write()
        module: dict[str, Any] = dict(self.glob)
        exec(_compiled(self.text, "<hand code>"), module)  # text written from the validated formula trees only
        self.function_code: CodeType = module["_hand"].__code__  # bound to each game's globals
        self.weight = writer.weight

    def steps(self, game: Game) -> int:
        """What a hand of `game` is charged at its start (see _Writer.weight)."""
        plan = game.plan
        times = {"1": 1, "_N": len(game.players), "_M": len(game.sides)}
        times.update((f"T{j}", len(targets)) for j, (_, _, targets) in enumerate(plan.scores))
        return sum(w * times[at] for at, w in self.weight.items())

    def bind_game(self, game: Game) -> HandFunction:
        plan = game.plan
        glob = dict(self.glob)
        side_of = game.side_of
        glob.update(_WEIGHT=self.steps(game), _BASE=plan.base, _N=len(game.players), _M=len(game.sides),
                    _GAME=game, _SO=side_of, _PL=game.players,
                    _SIDE=[game.sides[s].name for s in side_of], _SN=[s.name for s in game.sides],
                    _MN=[st["members"] for st in plan.side_static], _MATES=plan.mates, _MEMBERS=plan.members,
                    _TARGETS=[targets for _, _, targets in plan.scores])
        # a copy of the code object for each game: the interpreter specializes a code object's global
        # reads to one globals dict, and games of one ruleset taking turns would undo it every turn
        fn: HandFunction = FunctionType(self.function_code.replace(), glob)
        return fn


class _Entry:
    """One loaded ruleset's hand code, per shape of the state (None: not made for it)."""

    __slots__ = ("code", "ref")

    def __init__(self, ref: weakref.ref[Ruleset]) -> None:
        self.ref = ref
        # per state shape (side counters, game counters), players and sides
        self.code: dict[_CodeKey, HandCode | None] = {}


_ENTRIES: dict[int, _Entry] = {}
# Hands scored formula by formula per ruleset text and variant in this process, over every load of
# it (a replay loads a game's pinned text once; the scenarios of the tests and benchmarks load it once
# per game). Bounded: emptied when full, it only costs a warm-up again.
_HANDS_SEEN: dict[tuple[str, str | None], int] = {}
_SEEN_LIMIT = 1000


def _entry(rs: Ruleset) -> _Entry:
    key = id(rs)
    found = _ENTRIES.get(key)
    if found is None or found.ref() is not rs:
        def forget(ref: weakref.ref[Ruleset]) -> None:
            if key in _ENTRIES and _ENTRIES[key].ref is ref:
                del _ENTRIES[key]
        found = _ENTRIES[key] = _Entry(weakref.ref(rs, forget))
    return found


def hand_function(game: Game, state: State) -> HandFunction | None:
    """The game's hand function once its ruleset (its text and variant) has scored
    HAND_WARM_UP hands in this process; None before, and when the writer could not make it."""
    cache = game.plan.hand_functions
    shape = _shape(state)
    fn: HandFunction | None = cache.get(shape)
    if fn is not None:
        return fn
    rs = game.ruleset
    entry = _entry(rs)
    key = _code_key(game, shape)
    if key not in entry.code:
        text = (rs.text, rs.variant)
        seen = _HANDS_SEEN.get(text, 0) + 1
        if len(_HANDS_SEEN) >= _SEEN_LIMIT:
            _HANDS_SEEN.clear()
        _HANDS_SEEN[text] = seen
        if seen <= HAND_WARM_UP:
            return None
        _make(entry, key, game)
    code = entry.code[key]
    if code is None:
        return None
    fn = cache[shape] = code.bind_game(game)
    return fn


def prepare(game: Game, state: State) -> None:
    """Write the game's hand code now if its ruleset has had its warm-up and the code is not made
    yet: `play` calls this once a hand's standings are shown, so the compiling (5-20 ms once, for
    the largest rulesets) happens while the table plays the next hand, not after it is typed."""
    if state["finished"]:
        return
    rs = game.ruleset
    if _HANDS_SEEN.get((rs.text, rs.variant), 0) < HAND_WARM_UP:
        return
    entry = _entry(rs)
    key = _code_key(game, _shape(state))
    if key not in entry.code:
        _make(entry, key, game)


_Shape = tuple[tuple[str, ...], tuple[str, ...]]
_CodeKey = tuple[tuple[str, ...], tuple[str, ...], int, int]


def _shape(state: State) -> _Shape:
    """The state's side counters and game counters: the names the hand code reads."""
    return tuple(state["sides"][0]), tuple(state["game"])


def _code_key(game: Game, shape: _Shape) -> _CodeKey:
    """What one ruleset's hand code is made for: a state shape, and the players and sides at the table."""
    return (*shape, len(game.players), len(game.sides))


def _make(entry: _Entry, key: _CodeKey, game: Game) -> None:
    try:
        entry.code[key] = HandCode(_Writer(game, key[0], key[1]))
    except Exception:  # noqa: BLE001  # a formula the writer cannot translate: formula by formula
        entry.code[key] = None
