"""The pure scoring engine: apply one typed hand to a game state.

`score_by_formula(game, state, hand)` (through `scoring.apply_hand`) returns the new state, each
side's points with a breakdown (label and points per component) and the events (thresholds
crossed, game end). It does no I/O and keeps no hidden state, so replaying a game's hands from
the start always gives its stored totals. Everything game-specific comes from the ruleset's formulas.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from scorepad.errors import FormulaError, HandError, UserError
from scorepad.limits import number_ok
from scorepad.locale import N_, NO_WORDS, YES_WORDS, Said, current, texts_language
from scorepad.names import check_name
from scorepad.rules.cards import card_label
from scorepad.rules.expr import BudgetError, Formula, budgeted, value_kind
from scorepad.rules.model import STORED_LINES, STORED_RULES, Check, Rule, Ruleset, ScoreItem, Statistic
from scorepad.rules.names import TEMPLATE_RE
from scorepad.rules.values import format_value

State = dict[str, Any]
Hand = dict[str, Any]


@dataclass(frozen=True)
class Side:
    name: str
    members: tuple[int, ...]


@dataclass(frozen=True)
class Game:
    """A ruleset bound to the people at the table: players, sides, options, and who deals the first hand
    (a seat index: the first seat, unless a rematch passed the deal on)."""

    ruleset: Ruleset
    players: tuple[str, ...]
    sides: tuple[Side, ...]
    options: Mapping[str, Any]
    first_dealer: int = 0

    @cached_property
    def side_of(self) -> list[int]:
        """Each player's side (an index into `sides`); computed once per game, read-only."""
        out = [0] * len(self.players)
        for s, side in enumerate(self.sides):
            for i in side.members:
                out[i] = s
        return out

    @cached_property
    def plan(self) -> _Plan:
        """What every hand of this game needs that does not change from hand to hand."""
        return _Plan(self)


class Line(NamedTuple):
    """One line of a side's breakdown: what it is for, the points, and the counters they went to; and
    which line of the ruleset made it (`id` of a [[score]], or of a [[rule]] when `rule`; the player a
    per-player line is for), so that a stored hand keeps the line, not its words in one language."""

    label: str
    points: int | float
    to: tuple[str, ...] = ("score",)
    id: str = ""
    player: str | None = None
    rule: bool = False


def score_line_label(game: Game, label: str, player: str | None) -> str:
    """The words of a score line on the sheet: a per-player line names its player when the side has others."""
    if player is None:
        return label
    seat = game.players.index(player) if player in game.players else -1
    side = next((s for s in game.sides if seat in s.members), None)
    return label if side is not None and len(side.members) == 1 else f"{label} ({player})"


Breakdown = list[list[Line]]
_Named = tuple[str, "str | None"]   # a score line's words on the sheet and the player it is for (or None)


@dataclass
class HandResult:
    state: State
    points: list[int | float]
    breakdown: Breakdown
    events: list[str] = field(default_factory=list)


# ------------------------------------------------------------------ setting up a game

def make_game(ruleset: Ruleset, players: Sequence[str], teams: Mapping[str, Sequence[str]] | None = None,
              options: Mapping[str, str] | None = None) -> Game:
    """Bind players, sides and options to a ruleset; raises UserError on what does not fit."""
    rs = ruleset
    names = [p.strip() for p in players]
    problems: list[str] = []
    if not rs.min_players <= len(names) <= rs.max_players:
        want = str(rs.min_players) if rs.min_players == rs.max_players else f"{rs.min_players}-{rs.max_players}"
        problems.append(Said(N_("{game} is played by {want} players, not {n}"), game=rs.name, want=want, n=len(names)))
    for n in names:
        try:
            check_name(n)
        except UserError as exc:
            problems.append(exc.message)
    lowered = [n.lower() for n in names]
    if len(set(lowered)) != len(lowered):
        problems.append(Said(N_("two players have the same name; give each player a different name")))
    if problems:
        raise UserError(problems[0], problems)

    sides: list[Side] = []
    if rs.sides_kind == "partnership":
        if teams:
            if len(teams) != len(rs.partnerships):
                raise UserError(Said(N_("{game} has {sides} sides; --team named {n}"), game=rs.name,
                                      sides=len(rs.partnerships), n=len(teams)))
            seen: list[int] = []
            for tname, members in teams.items():
                tname = check_name(tname, "a team name")
                idx = [_find_player(names, m) for m in members]
                seen.extend(idx)
                sides.append(Side(tname, tuple(idx)))
            if sorted(seen) != list(range(len(names))):
                raise UserError(Said(N_("every player must be in exactly one --team")))
            sizes = sorted(len(t) for t in rs.partnerships)
            if sorted(len(s.members) for s in sides) != sizes:
                raise UserError(Said(N_("{game} teams have {sizes} players"), game=rs.name, sizes=sizes))
        else:
            for s, seats in enumerate(rs.partnerships):
                tname = rs.side_names[s] if rs.side_names else "+".join(names[i] for i in seats)
                sides.append(Side(tname, seats))
    else:
        if teams:
            raise UserError(Said(N_("{game} is played without teams; --team does not apply"), game=rs.name))
        sides = [Side(n, (i,)) for i, n in enumerate(names)]
    opts = resolve_options(rs, options or {})
    return Game(rs, tuple(names), tuple(sides), opts)


def _find_player(names: Sequence[str], text: str) -> int:
    low = text.strip().lower()
    exact = [i for i, n in enumerate(names) if n.lower() == low]
    if exact:
        return exact[0]
    pref = [i for i, n in enumerate(names) if n.lower().startswith(low)]
    if len(pref) == 1:
        return pref[0]
    raise UserError(Said(N_("{text} is not one of the players ({names})"), text=repr(text), names=", ".join(names)))


def resolve_options(rs: Ruleset, given: Mapping[str, Any]) -> dict[str, Any]:
    """Option values: the ruleset's defaults overridden by typed --opt values, checked."""
    opts = {name: o.default for name, o in rs.options.items()}
    for key, raw in given.items():
        if key == "variant":
            continue
        if key not in rs.options:
            known = ", ".join(rs.options) or "-"
            raise UserError(Said(N_("{game} has no option {key} (options: {known})"), game=rs.name, key=repr(key),
                                 known=known))
        o = rs.options[key]
        value = coerce_option(key, raw, o.default) if isinstance(raw, str) else raw
        if o.values is not None and value not in o.values and isinstance(value, str):
            from scorepad.rules.translations import option_words  # only then: most commands read no translation
            value = option_words(rs, key).get(value.strip().lower(), value)   # its word in a language
        if o.values is not None and value not in o.values:
            raise UserError(Said(N_("option {key} must be one of {values}, not {raw}"), key=key,
                                 values=", ".join(map(str, o.values)), raw=raw))
        is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not number_ok(value):
            raise UserError(Said(N_("option {key} must be a number of at most 15 digits, not {raw}"), key=key, raw=raw))
        if is_number and ((o.min is not None and value < o.min) or (o.max is not None and value > o.max)):
            raise UserError(Said(N_("option {key} must be between {low} and {high}, not {raw}"), key=key, low=o.min,
                                 high=o.max, raw=raw))
        opts[key] = value
    return opts


def coerce_option(key: str, raw: str, default: Any) -> Any:
    """An option's typed text (`--opt key=raw`) as a value of its default's type; refused naming the option."""
    text = raw.strip()
    if isinstance(default, bool):
        low = text.lower()
        if low in YES_WORDS:          # yes or no in any language scorepad speaks (jah, да, так ...)
            return True
        if low in NO_WORDS:
            return False
        raise UserError(Said(N_("option {key} must be yes or no, not {raw}"), key=key, raw=repr(raw)))
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise UserError(Said(N_("option {key} must be a whole number, not {raw}"), key=key, raw=repr(raw))) from None
    if isinstance(default, float):
        try:
            return float(text)
        except ValueError:
            raise UserError(Said(N_("option {key} must be a number, not {raw}"), key=key, raw=repr(raw))) from None
    return text


def base_env(game: Game) -> dict[str, Any]:
    rs = game.ruleset
    env: dict[str, Any] = {"none": None, "n_players": len(game.players), "n_sides": len(game.sides),
                           "players": list(game.players), "sides": [s.name for s in game.sides]}
    env.update(rs.tables)
    env.update(game.options)
    return env


def info_lines(game: Game) -> list[str]:
    """The ruleset's reminder lines that hold with the game's options (`[display] info_when`)."""
    rs = game.ruleset
    if not rs.display_info_when:
        return list(rs.display_info)
    env = base_env(game)
    out = []
    for line, when in zip(rs.display_info, rs.display_info_when, strict=False):
        try:
            if when is None or when.fast(env):
                out.append(line)
        except FormulaError:
            out.append(line)
    return out


class _Plan:
    """A game's fixed name tables and the ruleset's checks and rules sorted once, not every hand."""

    def __init__(self, game: Game) -> None:
        rs = game.ruleset
        self.base = base_env(game)
        side_of = game.side_of
        self.player_static = [{"me": game.players[i], "seat": i, "side": game.sides[side_of[i]].name,
                               "side_no": side_of[i]} for i in range(len(game.players))]
        self.side_static = [{"me": side.name, "side_no": k, "members": [game.players[i] for i in side.members]}
                            for k, side in enumerate(game.sides)]
        self.mates = [game.sides[side_of[i]].members for i in range(len(game.players))]
        self.members = [side.members for side in game.sides]
        let_names = {let.name for let in (*rs.hand_lets, *rs.player_lets, *rs.side_lets)}
        self.early = [c for c in rs.checks if not _uses_lets(c, let_names)]
        self.late = [c for c in rs.checks if _uses_lets(c, let_names)]
        self.resolvers: dict[tuple[str, ...], tuple[dict[str, tuple[str, int]], dict[str, tuple[str, int]]]] = {}
        self.own: dict[tuple[str, ...], tuple[frozenset[str], frozenset[str]]] = {}
        self.hand_rules = [r for r in rs.rules if r.on == "hand"]
        # each field's value in the hand's names: (field, name, how many values; _HAND or _PATTERN: one)
        self.field_keys = [(fname, fname, _PATTERN if fdef.type == "pattern" else _HAND) if fdef.scope == "hand" else
                           (fname, "all_" + fname, len(game.players) if fdef.scope == "player" else len(game.sides))
                           for fname, fdef in rs.fields.items()]
        # each score item with the sides (or players) it is worked out for, in order: (side, index
        # into the player's or side's names, the label of its line)
        self.scores: list[tuple[ScoreItem, bool, list[tuple[int, int, str, str | None]]]] = []
        # a line is stored by its id only when no other line of its kind has that id
        once = [[x.id for x in items] for items in (rs.scores, rs.rules)]
        self.score_ids, self.rule_ids = ({i for i in ids if ids.count(i) == 1} for ids in once)
        for item in rs.scores:
            targets: list[tuple[int, int, str, str | None]]
            if item.per == "player":
                targets = [(side_of[i], i, score_line_label(game, item.label, game.players[i]), game.players[i])
                           for i in range(len(game.players))]
            else:
                targets = [(k, k, item.label, None) for k in range(len(game.sides))]
            self.scores.append((item, item.per == "player", targets))
        self.end_rules = [r for r in rs.rules if r.on == "end"]
        self.finish_rules = [r for r in rs.rules if r.on == "finish"]


    def resolver(self, game: Game, counters: tuple[str, ...]) -> tuple[dict[str, tuple[str, int]],
                                                                       dict[str, tuple[str, int]]]:
        """For a player's and for a side's names: which hand table (`all_X`) each X, others_X and
        team_X is read from and how (_MINE, _NOT_MINE, ...); made once per set of counters."""
        found = self.resolvers.get(counters)
        if found is None:
            rs = game.ruleset
            player: dict[str, tuple[str, int]] = {}
            side: dict[str, tuple[str, int]] = {}

            def of_players(name: str) -> None:
                key = "all_" + name
                player.update({name: (key, _MINE), "others_" + name: (key, _NOT_MINE), "team_" + name: (key, _TEAM)})
                side.update({name: (key, _TEAM), "team_" + name: (key, _TEAM)})

            def of_sides(name: str) -> None:
                key = "all_" + name
                for table in (player, side):
                    table.update({name: (key, _SIDES), "others_" + name: (key, _NOT_SIDES)})

            for fname, fdef in rs.fields.items():
                if fdef.scope == "player":
                    of_players(fname)
            for fname, fdef in rs.fields.items():
                if fdef.scope == "side":
                    of_sides(fname)
            for cname in counters:
                of_sides(cname)
            for let in rs.hand_lets:
                player.pop(let.name, None)
                side.pop(let.name, None)
            for let in rs.player_lets:
                of_players(let.name)
            for let in rs.side_lets:
                of_sides(let.name)
            found = self.resolvers[counters] = (player, side)
        return found

    def own_lets(self, game: Game, counters: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
        """The player lets a player reads as his own value (`X` is `all_X[seat]`), and the side lets a
        side reads as its own: once worked out for everyone, put straight into each one's names."""
        found = self.own.get(counters)
        if found is None:
            player, side = self.resolver(game, counters)
            rs = game.ruleset
            fixed = {name for names in (*self.player_static, *self.side_static) for name in names}  # me, seat...
            found = self.own[counters] = (
                frozenset(let.name for let in rs.player_lets
                          if player.get(let.name) == ("all_" + let.name, _MINE) and let.name not in fixed),
                frozenset(let.name for let in rs.side_lets
                          if side.get(let.name) == ("all_" + let.name, _SIDES) and let.name not in fixed))
        return found


# how a player's or side's name is read from a hand table of values per player or per side:
# the player's own, the other players', the side's own, the other sides', the side's players'
_MINE, _NOT_MINE, _SIDES, _NOT_SIDES, _TEAM = range(5)
_HAND, _PATTERN = -1, -2  # a hand field's value, and a pattern's with its parts, in `_Plan.field_keys`
_SCALARS = frozenset({int, float, str, bool, type(None)})


def copy_state(state: State) -> State:
    """A copy of a state to change: its counters are numbers and words (see `_counter`), so each
    side's table and the game's are copied one level deep; anything else falls back to deepcopy."""
    new = dict(state)
    for key, value in state.items():
        if type(value) in _SCALARS:
            continue
        if key == "sides" and type(value) is list and all(
                type(side) is dict and all(type(v) in _SCALARS for v in side.values()) for side in value):
            new[key] = [dict(side) for side in value]
        elif key == "game" and type(value) is dict and all(type(v) in _SCALARS for v in value.values()):
            new[key] = dict(value)
        else:
            new[key] = copy.deepcopy(value)
    return new


@budgeted
def own_game(game: Game) -> Game:
    """The game with its ruleset's own texts: what a hand is scored with whatever language shows it
    (a line, an event and a refusal keep their ids, and are said in the language where shown)."""
    own = game.ruleset.own
    return game if own is None else dataclasses.replace(game, ruleset=own)


def initial_state(game: Game) -> State:
    rs = game.ruleset
    env = base_env(game)
    sides = []
    for s, side in enumerate(game.sides):
        senv = dict(env, seat=side.members[0], side_no=s, me=side.name,
                    members=[game.players[i] for i in side.members])
        counters: dict[str, Any] = {"score": 0, "status": "playing"}
        for name, f in rs.side_state.items():
            counters[name] = _counter(f.key, _eval(f, senv))
        sides.append(counters)
    gstate = {name: _counter(f.key, _eval(f, env)) for name, f in rs.game_state.items()}
    return {"hands": 0, "sides": sides, "game": gstate, "finished": False, "winners": None,
            "draw": False, "dealer": game.first_dealer}


def current_dealer(state: State, n_players: int) -> int:
    """Who deals the coming hand (an index into the players)."""
    return int(state.get("dealer", state["hands"] % n_players))


def _pass_deal(game: Game, state: State, scope: _Scope | None = None,
               points: list[int | float] | None = None) -> None:
    """The deal passes to the next player in seating order who is still playing, unless the
    ruleset's `players.next_dealer` formula names the next dealer (a seat index or a name)."""
    rule = game.ruleset.next_dealer
    if rule is not None and scope is not None:
        try:
            chosen = rule(_rule_env(game, scope, state, None, points or [], False))
        except FormulaError as exc:
            raise HandError(_hand_formula_problem(exc)) from None
        deal_to(game, state, chosen)
        return
    n = len(game.players)
    side_of = game.side_of
    dealer = current_dealer(state, n)
    for step in range(1, n + 1):
        candidate = (dealer + step) % n
        if state["sides"][side_of[candidate]]["status"] == "playing":
            state["dealer"] = candidate
            return
    state["dealer"] = (dealer + 1) % n


def deal_to(game: Game, state: State, chosen: Any) -> None:
    """The next dealer as `players.next_dealer` named them: a player's name or seat index."""
    if isinstance(chosen, str) and chosen in game.players:
        state["dealer"] = game.players.index(chosen)
        return
    if isinstance(chosen, int) and not isinstance(chosen, bool) and 0 <= chosen < len(game.players):
        state["dealer"] = chosen
        return
    raise HandError(Said(N_("this hand cannot be scored: {problem}"),
                         problem=Said(N_("players.next_dealer gave {kind}, not a player"), kind=value_kind(chosen))))


def active_players(game: Game, state: State) -> list[bool]:
    """Per player in seating order: is the player's side still playing?"""
    return [state["sides"][k]["status"] == "playing" for k in game.side_of]


def _counter_names(env: dict[str, Any], state: State, k: int | None) -> None:
    """Put the side counters into a formula's names: `all_X` always, `X` and `others_X` for side k."""
    for cname in state["sides"][0]:
        values = [s[cname] for s in state["sides"]]
        env["all_" + cname] = values
        if k is not None:
            env[cname] = values[k]
            env["others_" + cname] = values[:k] + values[k + 1:]


def _eval(f: Formula, env: Mapping[str, Any]) -> Any:
    return f(env)


# ------------------------------------------------------------------ evaluation contexts

class _Names(dict[str, Any]):
    """The names one player's or one side's formulas see in a hand, filled in when first read.

    A ruleset may declare many fields and counters and read few of them per player: each name is
    worked out from the hand's tables the first time a formula asks for it and kept for the hand
    (a value never changes within a hand; counters as they move are read by `_RuleEnv`)."""

    __slots__ = ("hand_env", "index", "mates", "resolve", "side_no")
    hand_env: dict[str, Any]
    resolve: dict[str, tuple[str, int]]
    index: int  # the player's seat (a side's: its number)
    side_no: int
    mates: tuple[int, ...]  # the seats of the player's side (a side's: its players)

    def __missing__(self, name: str) -> Any:
        how = self.resolve.get(name)
        if how is None:
            value = self.hand_env[name]
        else:
            key, mode = how
            values = self.hand_env.get(key)
            if values is None:  # a value of this hand not worked out yet
                raise KeyError(name)
            if mode == _MINE:
                value = values[self.index]
            elif mode == _SIDES:
                value = values[self.side_no]
            elif mode == _TEAM:
                value = [values[j] for j in self.mates]
            else:
                k = self.index if mode == _NOT_MINE else self.side_no
                value = values[:k] + values[k + 1:]
        self[name] = value
        return value


def hand_names(game: Game, state: State, hand: Hand) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The names every formula of a hand can read (the game's, the hand's fields, each counter's
    `all_X` as the hand starts), and the side counters' names."""
    rs = game.ruleset
    plan = game.plan
    n = len(game.players)
    active = active_players(game, state)
    env = dict(plan.base)
    env.update(state["game"])
    env.update(hand_no=state["hands"] + 1, hands=state["hands"], dealer=current_dealer(state, n),
               active=active, n_active=sum(active))
    get = hand.get
    for fname, key, count in plan.field_keys:
        value = get(fname)
        if count >= 0:
            env[key] = list(value) if value is not None else [None] * count
        else:
            env[key] = value
            if count == _PATTERN:
                fdef = rs.fields[fname]
                env.update(pattern_parts(fdef.name, fdef.parts, value, get(f"_{fname}_parts")))
    sides = state["sides"]
    counters = tuple(sides[0])
    for cname in counters:
        env["all_" + cname] = [s[cname] for s in sides]
    return env, counters


class _Scope:
    """The names a hand's formulas see: the hand, each player, each side; kept in step as values appear."""

    def __init__(self, game: Game, state: State, hand: Hand) -> None:
        env, counters = hand_names(game, state, hand)
        self.game = game
        self.plan = plan = game.plan
        self.side_of = game.side_of
        self.hand_env = env
        self.counters = counters
        self.rule_envs: dict[int | None, _RuleEnv] = {}
        self.own_lets = plan.own_lets(game, counters)

    @cached_property
    def player_envs(self) -> list[_Names]:
        plan, side_of = self.plan, self.side_of
        for_player = plan.resolver(self.game, self.counters)[0]
        return [self._names(plan.player_static[i], for_player, i, side_of[i], plan.mates[i])
                for i in range(len(side_of))]

    @cached_property
    def side_envs(self) -> list[_Names]:
        plan = self.plan
        for_side = plan.resolver(self.game, self.counters)[1]
        return [self._names(plan.side_static[k], for_side, k, k, plan.members[k])
                for k in range(len(plan.members))]

    def _names(self, static: dict[str, Any], resolve: dict[str, tuple[str, int]], index: int, side_no: int,
               mates: tuple[int, ...]) -> _Names:
        names = _Names(static)
        names.hand_env, names.resolve = self.hand_env, resolve
        names.index, names.side_no, names.mates = index, side_no, mates
        return names

    def set_hand(self, name: str, value: Any) -> None:
        self.hand_env[name] = value

    def set_players(self, name: str, values: list[Any]) -> None:
        self.set_hand("all_" + name, values)

    def set_sides(self, name: str, values: list[Any]) -> None:
        self.set_hand("all_" + name, values)


def pattern_parts(name: str, parts: Sequence[str], value: Any, stored: Any) -> dict[str, Any]:
    if isinstance(stored, dict):
        return {f"{name}_{p}": stored.get(p) for p in parts}
    return {f"{name}_{p}": None for p in parts}


# ------------------------------------------------------------------ applying a hand

def run_checks(game: Game, scope: _Scope, state: State, checks: Sequence[Check],
               failed: list[str] | None = None, partial: bool = False) -> list[str]:
    """The sentences of every check that fails; empty when the hand is legal. The ids of the
    failing checks are appended to `failed` when it is given. `partial`: a hand typed only in part,
    where a check that cannot be evaluated yet is passed over."""
    problems: list[str] = []
    if not checks:
        return problems
    hand = [scope.hand_env]
    active = scope.hand_env["active"]
    players = [e for i, e in enumerate(scope.player_envs) if active[i]]
    sides = [e for k, e in enumerate(scope.side_envs) if state["sides"][k]["status"] == "playing"]
    for check in checks:
        targets = hand if check.per == "hand" else players if check.per == "player" else sides
        when, test = check.when, check.ok
        for env in targets:
            try:
                if when is not None and not when.fast(env):
                    continue
                ok = test.fast(env)
            except BudgetError as exc:
                raise HandError(_hand_formula_problem(exc)) from None
            except FormulaError as exc:
                if partial:
                    continue
                problems.append(_hand_formula_problem(exc))
                if failed is not None:
                    failed.append(check.id)
                continue
            if not ok:
                cards = {name for name, fdef in game.ruleset.fields.items() if fdef.type == "cards"}
                try:
                    problems.append(_total_refusal(game, check, env) or check_refusal(game, check, env, cards))
                except BudgetError as exc:
                    raise HandError(_hand_formula_problem(exc)) from None
                if failed is not None:
                    failed.append(check.id)
    return problems


def check_refusal(game: Game, check: Check, env: Mapping[str, Any], cards: Collection[str]) -> str:
    """A failed check's message with its parts worked out: a CheckRefusal (by the check's place in its
    ruleset) that `shown()` says in the language of the call, whichever texts the hand was scored with."""
    values = message_values(check.message, check.message_parts, env, cards, _words_shown(game))
    text = rule_message(check.message, values, game.ruleset.display_words) if check.message_parts else check.message
    rs = game.ruleset.own or game.ruleset
    index = next((i for i, c in enumerate(game.ruleset.checks) if c is check), -1)
    return CheckRefusal(text, rs, index, values) if index >= 0 else text


class CheckRefusal(str):
    """A [[check]]'s refusal as its hand said it: as a string, its words in the ruleset scored with;
    `place` is the check's place among its ruleset's checks (the same in every language's view) and
    `values` each `{placeholder}`'s value by its text, so it is said in the language shown by id."""

    ruleset: Ruleset
    place: int
    values: dict[str, Any]

    def __new__(cls, text: str, ruleset: Ruleset, place: int, values: dict[str, Any]) -> CheckRefusal:
        self = super().__new__(cls, text)
        self.ruleset, self.place, self.values = ruleset, place, values
        return self

    def __getnewargs__(self) -> tuple[str, Ruleset, int, dict[str, Any]]:   # type: ignore[override]
        return str(self), self.ruleset, self.place, self.values

    def said_in_language(self) -> str:
        """The refusal in the words of its ruleset's view in the language of the call (locale.shown asks)."""
        view = ruleset_shown(self.ruleset)
        check = view.checks[self.place]
        return rule_message(check.message, self.values, view.display_words) if check.message_parts else check.message


def ruleset_shown(rs: Ruleset) -> Ruleset:
    """The ruleset as the language of the call shows it: the view of its texts in that language (built
    once per ruleset and language, its formulas the ruleset's own); its own texts when it has none."""
    own = rs.own or rs
    lang = texts_language()
    table = own.data.get("translations")
    if not (lang and isinstance(table, dict) and lang in table):
        return own
    view = own.views.get(lang)
    if view is None:   # the module only when there is something to do
        from scorepad.rules.translations import translate  # start-up: ~30 ms; only a ruleset with translations needs it

        view = translate(own, lang)
    return view


def _total_refusal(game: Game, check: Check, env: Mapping[str, Any]) -> str | None:
    """The refusal of a field's automatic `total` check (made by the loader, its parts the total and
    the sum; a ruleset cannot word or translate it) in the language shown, the field named as its
    players name it: `взятки — в сумме должно быть 13, а получается 14`. None for any other check."""
    fname = check.total_of
    if fname is None or len(check.message_parts) != 2:
        return None
    lang = current()
    native = game.ruleset.reading.names_in(fname, lang) if lang != "en" else ()   # as assignments.field_label
    total, got = (_part_shown(part, env) for part in check.message_parts)
    return Said(N_("the {field} must add up to {total}, they add up to {sum}"),
                field=(native[0] if native else fname).replace("_", " "), total=total, sum=got)


def _part_shown(part: Formula, env: Mapping[str, Any]) -> str:
    """One `{formula}` of a message as message_values shows it ('?' when it cannot be worked out)."""
    try:
        return format_value(part(env))
    except BudgetError:
        raise
    except FormulaError:
        return "?"


def _words_shown(game: Game) -> Callable[[str, Any], str | None] | None:
    """A field's value in the words of the language shown, for a refusal's message (None in English,
    whose words are the values themselves)."""
    lang = current()
    if lang == "en":
        return None
    fields, reading = game.ruleset.fields, game.ruleset.reading
    return lambda name, value: reading.shown(name, value, lang) if name in fields else None


def _refuse(problems: list[str], failed: list[str]) -> HandError:
    err = HandError(problems[0], problems)
    err.checks = tuple(dict.fromkeys(failed))
    return err


def run_checks_on(game: Game, state: State, hand: Hand, checks: Sequence[Check]) -> list[str]:
    """Some whole-hand checks on a hand typed only in part (the bids before the play, the fields
    typed so far at the prompt): their sentences. The lets that can be worked out from what is typed
    are; a check that cannot be evaluated yet says nothing here (the whole hand is checked when scored)."""
    scope = _Scope(game, state, hand)
    _work_out_lets(game, scope, partial=True)
    return run_checks(game, scope, state, checks, partial=True)


def checks_in_force(game: Game, state: State, hand: Hand, checks: Sequence[Check]) -> list[Check]:
    """The checks that apply to a hand typed only in part: no `when`, or a `when` that holds for the
    hand (for some player or side) as far as it is typed; a `when` that cannot be worked out yet
    does not hold."""
    scope = _Scope(game, state, hand)
    _work_out_lets(game, scope, partial=True)
    active = scope.hand_env["active"]
    out = []
    for check in checks:
        if check.when is None:
            out.append(check)
            continue
        targets = ([scope.hand_env] if check.per == "hand" else
                   [e for i, e in enumerate(scope.player_envs) if active[i]] if check.per == "player" else
                   [e for k, e in enumerate(scope.side_envs) if state["sides"][k]["status"] == "playing"])
        for env in targets:
            try:
                holds = bool(check.when.fast(env))
            except BudgetError:
                raise
            except FormulaError:
                holds = False
            if holds:
                out.append(check)
                break
    return out


def _work_out_lets(game: Game, scope: _Scope, partial: bool = False) -> None:
    """The hand's lets, the player's and the side's, in order, into the scope. `partial`: a hand
    typed only in part, where a let that reads a value not typed yet is left out."""
    rs = game.ruleset

    def value(formula: Formula, env: Mapping[str, Any]) -> Any:
        if not partial:
            return formula.fast(env)
        try:
            return formula.fast(env)
        except BudgetError:
            raise
        except FormulaError:
            return None

    for let in rs.hand_lets:
        scope.set_hand(let.name, value(let.formula, scope.hand_env))
    own_player, own_side = scope.own_lets
    for let in rs.player_lets:
        values = [value(let.formula, env) for env in scope.player_envs] if partial else let.formula.each(scope.player_envs)
        scope.set_players(let.name, values)
        if let.name in own_player:  # what each player's `_Names` would work out when first read
            for env, v in zip(scope.player_envs, values, strict=True):
                env[let.name] = v
    for let in rs.side_lets:
        values = [value(let.formula, env) for env in scope.side_envs] if partial else let.formula.each(scope.side_envs)
        scope.set_sides(let.name, values)
        if let.name in own_side:
            for env, v in zip(scope.side_envs, values, strict=True):
                env[let.name] = v


def _hand_formula_problem(exc: FormulaError) -> Said:
    return Said(N_("this hand cannot be scored: {problem}"), problem=exc.message)


def message_values(text: str, parts: Sequence[Formula], env: Mapping[str, Any], cards: Collection[str] = (),
                   words: Callable[[str, Any], str | None] | None = None) -> dict[str, Any]:
    """Each `{formula}` part's value by its text, as a message shows it before the display words
    (a card field's cards as labels, a field's value in `words`); one that cannot be worked out left out."""
    values: dict[str, Any] = {}
    for m, f in zip(TEMPLATE_RE.finditer(text), parts, strict=False):
        try:
            value = f(env)
        except BudgetError:
            raise
        except FormulaError:
            continue
        if f.source.strip() in cards and isinstance(value, (list, tuple)):
            value = [card_label(c) if isinstance(c, str) else c for c in value]
        elif words is not None:
            value = words(f.source.strip(), value) or value
        values.setdefault(m.group(1).strip(), value)
    return values


class RuleEvent(str):
    """A [[rule]]'s message as its hand said it: as a string, its words in the ruleset scored with;
    `rule` is the rule's id and `values` each `{placeholder}`'s value by its text (one that could not
    be worked out is left out), so the message is said in another language without scoring again."""

    rule: str
    values: dict[str, Any]

    def __new__(cls, text: str, rule: str, values: dict[str, Any]) -> RuleEvent:
        self = super().__new__(cls, text)
        self.rule, self.values = rule, values
        return self

    def __getnewargs__(self) -> tuple[str, str, dict[str, Any]]:   # type: ignore[override]
        return str(self), self.rule, self.values


class LineLabel(str):
    """A score line's label in an event (`reaches 500 first (card points)`), with the line's id: the
    event's words are found again in the language it is shown in."""

    id: str

    def __new__(cls, text: str, line_id: str) -> LineLabel:
        self = super().__new__(cls, text)
        self.id = line_id
        return self

    def __getnewargs__(self) -> tuple[str, str]:   # type: ignore[override]
        return str(self), self.id


def rule_event(game: Game, rule: Rule, env: Mapping[str, Any]) -> str:
    """A rule's message with its `{formula}` parts worked out: a RuleEvent (by the rule's id) when the
    rule is the only one of its id, else its words alone."""
    values: dict[str, Any] = {}
    for m, f in zip(TEMPLATE_RE.finditer(rule.message), rule.message_parts, strict=False):
        try:
            values[m.group(1).strip()] = f(env)
        except BudgetError:
            raise
        except FormulaError:
            continue
    text = rule_message(rule.message, values, game.ruleset.display_words) if rule.message_parts else rule.message
    return RuleEvent(text, rule.id, values) if rule.id in game.plan.rule_ids else text


def rule_message(message: str, values: Mapping[str, Any], shown_words: Mapping[str, str] | None) -> str:
    """A rule's or check's message (in any language) filled from its parts' `values` by their text
    (message_values): a word in `shown_words`, a part without a value '?'."""
    def fill(m: Any) -> str:
        key = m.group(1).strip()
        if key not in values:
            return "?"
        value = values[key]
        if shown_words and isinstance(value, (str, list, tuple)):
            value = _shown(value, shown_words)
        return format_value(value)

    return TEMPLATE_RE.sub(fill, message)


def score_by_formula(game: Game, state: State, hand: Hand) -> HandResult:
    """One hand scored formula by formula, every refusal and error said in its own words (through
    engine/scoring.py, which also bounds the numbers)."""
    scope = _checked_scope(game, state, hand)
    new = copy_state(state)
    new["hands"] = state["hands"] + 1
    try:
        race = _Race.start(game, scope.hand_env, state)
        points, breakdown = _score_lines(game, scope, state, new, race)
    except FormulaError as exc:
        raise HandError(_hand_formula_problem(exc)) from None
    events: list[str] = []
    ended = _run_rules(game, scope, new, scope.plan.hand_rules, points, breakdown,
                       events, finished_early=False)
    finish_if_over(game, new, scope, points, breakdown, events, forced_end=ended, race=race)
    _pass_deal(game, new, scope, points)
    return HandResult(new, points, breakdown, events)


def statistic_values(game: Game, state: State, hand: Hand,
                     breakdown: Sequence[Sequence[Any]] | None = None) -> dict[str, list[Any]]:
    """Each `[stats]` entry's value in this hand (the state as it starts), per player or per side
    as the statistic says (statistic_value); None for a side out of the game. Read from the same
    names the hand was scored with and the hand's `breakdown` as stored (what `line(id)` and
    `rule(id)` read); nothing of the state changes."""
    rs = game.ruleset
    if not rs.statistics:
        return {}
    scope = _checked_scope(game, state, hand)
    playing = [side["status"] == "playing" for side in state["sides"]]
    if any(stat.reads_breakdown for stat in rs.statistics):
        _put_stored_lines(game, scope, breakdown or [])
    out: dict[str, list[Any]] = {}
    for stat in rs.statistics:
        per_player = stat.per == "player"
        envs = scope.player_envs if per_player else scope.side_envs
        try:
            out[stat.id] = [statistic_value(stat, env, state["hands"] + 1)
                            if playing[game.side_of[i] if per_player else i] else None
                            for i, env in enumerate(envs)]
        except FormulaError as exc:
            raise HandError(_hand_formula_problem(exc)) from None
    return out


def _put_stored_lines(game: Game, scope: _Scope, breakdown: Sequence[Sequence[Any]]) -> None:
    """Each player's and side's points in the stored breakdown, by [[score]] id and by [[rule]] id, into
    their names (STORED_LINES, STORED_RULES). A side's line counts for each of its players, a
    per-player line for its player only; a line stored as words (before schema 8) by no id."""
    sides: list[tuple[dict[str, Any], dict[str, Any]]] = []
    players: list[dict[str, Any]] = [{} for _ in game.players]
    for k in range(len(game.sides)):
        lines: dict[str, Any] = {}
        rules: dict[str, Any] = {}
        for line in breakdown[k] if k < len(breakdown) else ():
            if not isinstance(line, Mapping) or not isinstance(line.get("points"), (int, float)):
                continue
            if "rule" in line:
                rules[line["rule"]] = rules.get(line["rule"], 0) + line["points"]
                continue
            ident = str(line.get("id"))
            lines[ident] = lines.get(ident, 0) + line["points"]
            player = (line.get("args") or {}).get("player")
            for i, name in enumerate(game.players):
                if game.side_of[i] == k and player in (None, name):
                    players[i][ident] = players[i].get(ident, 0) + line["points"]
        sides.append((lines, rules))
    for env, (lines, rules) in zip(scope.side_envs, sides, strict=True):
        env[STORED_LINES], env[STORED_RULES] = lines, rules
    for i, env in enumerate(scope.player_envs):
        env[STORED_LINES], env[STORED_RULES] = players[i], sides[game.side_of[i]][1]


def statistic_value(stat: Statistic, env: Mapping[str, Any], hand_no: int = 0) -> Any:
    """One player's (side's) value of a statistic in a hand: 1 or 0 for a count, the number for a sum;
    for a mean (number, 1), or (0, 0) in a hand its `of` leaves out; for a rate (1 or 0, 1) in a hand
    its `of` holds, else (0, 0). The pairs are added up part by part, so a total stays exact. For a
    max or a min the number, or None in a hand its `of` leaves out; for a first (`hand_no`, the hand's
    number in the game, 1) when it holds, else (0, 0): a game keeps the first such pair (app.statistics)."""
    if stat.kind == "count":
        return 1 if stat.formula.fast(env) else 0
    if stat.kind == "first":
        return (hand_no, 1) if stat.formula.fast(env) else (0, 0)
    if stat.of is not None and not stat.of.fast(env):
        return None if stat.kind in ("max", "min") else (0, 0)
    if stat.kind == "rate":
        return (1 if stat.formula.fast(env) else 0, 1)
    value = stat.formula.fast(env)
    if type(value) is not int and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise HandError(Said(N_("this hand cannot be scored: {problem}"), problem=Said(
            N_("statistic {id} must be a number, got {kind}"), id=stat.id, kind=value_kind(value))))
    return (value, 1) if stat.kind == "mean" else value


def _checked_scope(game: Game, state: State, hand: Hand) -> _Scope:
    """The hand's names with its checks passed and its lets worked out; a hand a check fails is refused."""
    scope = _Scope(game, state, hand)
    failed: list[str] = []
    problems = run_checks(game, scope, state, scope.plan.early, failed)
    if problems:
        raise _refuse(problems, failed)
    try:
        _work_out_lets(game, scope)
    except FormulaError as exc:
        raise HandError(_hand_formula_problem(exc)) from None
    problems = run_checks(game, scope, state, scope.plan.late, failed)
    if problems:
        raise _refuse(problems, failed)
    return scope


def _score_lines(game: Game, scope: _Scope, state: State, new: State,
                 race: _Race | None) -> tuple[list[int | float], Breakdown]:
    """Each score line's points for every playing side (or player), added to its counters in `new`."""
    n_sides = len(game.sides)
    points: list[int | float] = [0] * n_sides
    breakdown: Breakdown = [[] for _ in range(n_sides)]
    playing = [side["status"] == "playing" for side in state["sides"]]
    new_sides = new["sides"]
    score_ids = scope.plan.score_ids
    for item, per_player, targets in scope.plan.scores:
        envs = scope.player_envs if per_player else scope.side_envs
        when, formula = item.when, item.points
        stage: list[tuple[int, _Named, int | float]] = []
        for k, at, label, player in targets:
            if not playing[k]:
                continue
            env = envs[at]
            if when is not None and not when.fast(env):
                continue
            pts = formula.fast(env)
            if type(pts) is not int and (isinstance(pts, bool) or not isinstance(pts, (int, float))):
                raise FormulaError(Said(N_("{id}: points must be a number, got {kind}"), id=item.id, kind=value_kind(pts)))
            if pts == 0:
                continue
            stage.append((k, (label, player), pts))
        if race is not None:
            label = LineLabel(item.label, item.id) if item.id in game.plan.score_ids else item.label
            stage = race.count(stage, label, "score" in item.to, new)
        to_score = "score" in item.to  # a line to other counters only is no part of the hand's points
        for k, (label, player), pts in stage:
            if to_score:
                points[k] += pts
            breakdown[k].append(Line(label, pts, item.to, item.id if item.id in score_ids else "", player))
            side = new_sides[k]
            for counter in item.to:
                try:
                    side[counter] = side[counter] + pts
                except TypeError:
                    raise HandError(Said(N_("this hand cannot be scored: {problem}"), problem=Said(
                        N_("{id} adds points to {counter}, which holds {kind}"), id=item.id, counter=counter,
                        kind=value_kind(side[counter])))) from None
    return points, breakdown


@dataclass
class _Race:
    """A "first to N, counted out in order" end (`[end] first_to`): the score lines of a deal are
    counted one after another, and the first side whose total reaches the goal wins. A side's
    points in the line that brings it there count only up to the goal; with `rest_of_deal = "void"`
    the later lines of the deal are not scored. Two sides reaching it in the same line have both
    stopped at the goal: equal totals, which the [end] tie rule settles."""

    goal: int | float
    void: bool
    first: list[int] = field(default_factory=list)
    label: str = ""
    rest_skipped: bool = False

    @classmethod
    def start(cls, game: Game, names: Mapping[str, Any], state: State) -> _Race | None:
        end = game.ruleset.end
        if end.first_to is None:
            return None
        return cls.begin(game, end.first_to(names), state)

    @classmethod
    def begin(cls, game: Game, goal: Any, state: State) -> _Race | None:
        """The race of a deal towards `goal` (the value of `[end] first_to` as the hand starts)."""
        end = game.ruleset.end
        if isinstance(goal, bool) or not isinstance(goal, (int, float)):
            raise FormulaError(Said(N_("end.first_to must be a number, got {value}"), value=repr(goal)))
        playing = [s for s in state["sides"] if s["status"] == "playing"]
        if any(s["score"] >= goal for s in playing):
            return None   # a deal after a tie at the goal is played in full; the higher total wins
        return cls(goal, end.rest_of_deal == "void")

    def count(self, stage: list[tuple[int, _Named, int | float]], label: str, to_score: bool,
              new: State) -> list[tuple[int, _Named, int | float]]:
        """This line's points per side, cut at the goal; records who reached it first."""
        if self.first:
            if self.void:
                self.rest_skipped = self.rest_skipped or bool(stage)
                return []
            return stage
        if not to_score:
            return stage
        out = list(stage)
        for k in sorted({k for k, _, _ in stage}):
            before = new["sides"][k]["score"]
            gain = sum(p for kk, _, p in stage if kk == k)
            if before < self.goal <= before + gain:
                self.first.append(k)
                excess = before + gain - self.goal
                for i in range(len(out) - 1, -1, -1):
                    kk, lab, p = out[i]
                    if kk != k or excess <= 0 or p <= 0:
                        continue
                    cut = min(excess, p)
                    out[i] = (kk, lab, p - cut)
                    excess -= cut
        if self.first:
            self.label = label
        return [line for line in out if line[2] != 0]

    def event(self, game: Game) -> Said:
        who = game.sides[self.first[0]].name
        msgid = (N_("{who} reaches {goal} first ({label}); the rest of the deal is not scored") if self.rest_skipped
                 else N_("{who} reaches {goal} first ({label})"))
        return Said(msgid, who=who, goal=format_value(self.goal), label=self.label)


def _uses_lets(check: Check, lets: set[str]) -> bool:
    names: set[str] = set(check.ok.names)
    if check.when is not None:
        names |= check.when.names
    for part in check.message_parts:
        names |= part.names
    return any(n in lets or n.removeprefix("all_").removeprefix("others_").removeprefix("team_") in lets
               for n in names)


class _RuleEnv(dict[str, Any]):
    """The names a rule sees: the hand's (or the side's) names with the counters as they stand now.

    One per side and hand, reused by every rule: the hand's names are copied once, and a counter is
    looked up in the state when a formula asks for it, so the cost of a rule does not grow with the
    names a ruleset declares (a copy per rule made thousands of lets times thousands of rules slow).
    """

    __slots__ = ("base", "game", "k", "state")
    base: Mapping[str, Any]
    game: Game
    k: int | None
    state: State

    def __missing__(self, name: str) -> Any:
        state, k = self.state, self.k
        if name == "active":
            return active_players(self.game, state)
        if name == "n_active":
            return sum(active_players(self.game, state))
        sides = state["sides"]
        counters = sides[0]
        if k is not None and name in counters:
            return sides[k][name]
        if name.startswith("all_") and name[4:] in counters:
            return [s[name[4:]] for s in sides]
        if k is not None and name.startswith("others_") and name[7:] in counters:
            values = [s[name[7:]] for s in sides]
            return values[:k] + values[k + 1:]
        if name in state["game"]:
            return state["game"][name]
        return self.base[name]


def _rule_env(game: Game, scope: _Scope, state: State, k: int | None, points: list[int | float],
              finished_early: bool) -> dict[str, Any]:
    """The names a rule sees: the hand's values and the counters as they stand now."""
    env = scope.rule_envs.get(k)
    if env is not None and env.state is state:  # the next rule of the hand: only what rules change
        env["all_gained"] = points[:]
        if k is not None:
            env["gained"] = points[k]
        env["finished_early"] = finished_early
        return env
    if env is None:
        base = scope.side_envs[k] if k is not None else scope.hand_env
        env = _RuleEnv(base)
        for cname in state["sides"][0]:  # counters are read from the state when asked (__missing__)
            for name in (cname, "all_" + cname, "others_" + cname):
                env.pop(name, None)
        for gname in (*state["game"], "active", "n_active"):  # read from the state when asked
            env.pop(gname, None)
        env.base, env.k, env.game = base, k, game
        scope.rule_envs[k] = env
    env.state = state
    env["all_gained"] = list(points)
    env["finished_early"] = finished_early
    if k is not None:
        env["gained"] = points[k]
    return env


def _run_rules(game: Game, scope: _Scope, state: State, rules: Sequence[Rule],
               points: list[int | float], breakdown: Breakdown,
               events: list[str], finished_early: bool) -> bool:
    """Apply threshold rules in order; returns True when a rule ended the game."""
    ended = False
    try:
        sides = state["sides"]
        every_side = range(len(sides))
        for rule in rules:
            targets: Sequence[int | None]
            if rule.per == "game":
                targets = _THE_GAME
            elif rule.include_out:
                targets = every_side
            else:
                targets = [k for k in every_side if sides[k]["status"] == "playing"]
            when = rule.when
            for k in targets:
                env = _rule_env(game, scope, state, k, points, finished_early)
                if when is not None and not when.fast(env):
                    continue
                before = state["sides"][k]["score"] if k is not None else None
                message = rule_event(game, rule, env) if rule.message else ""
                adds = _apply_rule(rule, env, state, k)
                if k is not None and before is not None and state["sides"][k]["score"] != before:
                    delta = state["sides"][k]["score"] - before
                    points[k] += delta
                    also = tuple(c for c, v in adds if c != "score" and v == delta)
                    breakdown[k].append(Line(rule.label, delta, ("score", *also),
                                              rule.id if rule.id in game.plan.rule_ids else "", None, True))
                if message:
                    events.append(message)
                if rule.end:
                    ended = True
    except FormulaError as exc:
        raise HandError(_hand_formula_problem(exc)) from None
    except TypeError as exc:
        raise HandError(Said(N_("this hand cannot be scored: {problem}"),
                             problem=Said(N_("a rule mixes words and numbers ({detail})"), detail=str(exc)))) from None
    return ended


_THE_GAME: tuple[None] = (None,)  # the target of a rule per game


def _apply_rule(rule: Rule, env: Mapping[str, Any], state: State, k: int | None) -> list[tuple[str, Any]]:
    """One rule's set, add, set_all and mark for side `k` (None: the game); the values it added."""
    sets = [(c, _counter(f.key, f.fast(env))) for c, f in rule.set] if rule.set else []
    adds = [(c, _counter(f.key, f.fast(env))) for c, f in rule.add] if rule.add else []
    set_all = [(c, _counter(f.key, f.fast(env))) for c, f in rule.set_all] if rule.set_all else []
    for counter, value in sets:
        _store(state, k, counter, value)
    for counter, value in adds:
        side = state["sides"][k] if k is not None else {}
        current = side[counter] if counter in side else state["game"][counter]
        _store(state, k, counter, current + value)
    for counter, value in set_all:
        for side in state["sides"]:
            side[counter] = value
    if rule.mark and k is not None:
        state["sides"][k]["status"] = rule.mark
    return adds


def _counter(key: str, value: Any) -> Any:
    """A counter holds a number, a word, yes/no or nothing: a list would be stored with every hand
    (and a rule could make it grow without end)."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str) and len(value) <= 200:
        return value
    raise FormulaError(Said(N_("{key}: a counter holds a number or a word, not {kind}"), key=key, kind=value_kind(value)))


def _store(state: State, k: int | None, counter: str, value: Any) -> None:
    if k is not None and counter in state["sides"][k]:
        state["sides"][k][counter] = value
    else:
        state["game"][counter] = value


def finish_if_over(game: Game, state: State, scope: _Scope, points: list[int | float],
                   breakdown: Breakdown, events: list[str],
                   forced_end: bool, finished_early: bool = False, race: _Race | None = None) -> None:
    """Decide whether the game is over after a hand (or on `finish`), and who won."""
    end = game.ruleset.end
    statuses = [s["status"] for s in state["sides"]]
    playing = [k for k, st in enumerate(statuses) if st == "playing"]
    over = forced_end or finished_early or any(st == "won" for st in statuses)
    if not over and end.winner == "last_standing" and len(playing) <= 1:
        over = True
    if not over and (end.when is not None or end.first_to is not None):
        env = _rule_env(game, scope, state, None, points, finished_early)
        try:
            if end.first_to is not None:
                goal = end.first_to.fast(env)
                over = any(state["sides"][k]["score"] >= goal for k in playing)
            elif end.when is not None:
                over = bool(end.when.fast(env))
        except (FormulaError, TypeError) as exc:
            problem = exc.message if isinstance(exc, FormulaError) else Said(N_("end.first_to is not a number"))
            raise HandError(Said(N_("this hand cannot be scored: {problem}"), problem=problem)) from None
        if over and tie_goes_on(game, state, race, events):
            over = False
    if not over:
        return
    _run_rules(game, scope, state, game.plan.end_rules, points, breakdown, events,
               finished_early)
    conclude(game, state, events, race, scope.hand_env["all_status"])


def tie_goes_on(game: Game, state: State, race: _Race | None, events: list[str]) -> bool:
    """With `[end] tie = "continue"`, a game whose end is reached with equal best totals goes on
    for another hand (not when a rule marked a winner, nor when one side reached the goal first)."""
    statuses = [s["status"] for s in state["sides"]]
    first = race is not None and len(race.first) == 1
    if game.ruleset.end.tie != "continue" or first or any(st == "won" for st in statuses):
        return False
    playing = [k for k, st in enumerate(statuses) if st == "playing"]
    if len(_best(game, state, playing or list(range(len(statuses))))) > 1:
        events.append(Said(N_("tie at the top: play another hand")))
        return True
    return False


def conclude(game: Game, state: State, events: list[str], race: _Race | None,
             start_status: Sequence[str]) -> None:
    """The game is over: who won (the sides a rule marked, the first to the goal, else the best
    total among those still playing), the statuses, and the last event."""
    rs = game.ruleset
    first = race.first if race is not None and len(race.first) == 1 else []
    statuses = [s["status"] for s in state["sides"]]
    marked = [k for k, st in enumerate(statuses) if st == "won"]
    if marked:
        winners = marked
    elif race is not None and first and statuses[first[0]] == "playing":
        winners = first
        events.append(race.event(game))
    else:
        candidates = [k for k, st in enumerate(statuses) if st == "playing"]
        if not candidates:
            candidates = [k for k, st in enumerate(statuses) if st != "playing"
                          and start_status[k] == "playing"] or list(range(len(statuses)))
            if len(candidates) > 1:   # say why a side that went out or lost can still win
                msgid = (N_("{names} stopped playing in the same hand: the lowest total among them decides")
                         if rs.end.rank == "lowest" else
                         N_("{names} stopped playing in the same hand: the highest total among them decides"))
                events.append(Said(msgid, names=[game.sides[k].name for k in candidates]))
        winners = _best(game, state, candidates)
    names = [game.sides[k].name for k in winners]
    for k, side in enumerate(state["sides"]):
        if k in winners:
            side["status"] = "won"
        elif side["status"] == "playing":
            side["status"] = "lost"
    state["finished"] = True
    state["winners"] = names
    # Sides a rule marked `won` are all winners (one loser, the others win); it is a draw only when
    # every side won. Best totals that are equal are a draw between those sides.
    draw = len(winners) > 1 and (not marked or len(winners) == len(state["sides"]))
    state["draw"] = draw
    if draw:
        events.append(Said(N_("game over: a draw between {names}"), names=names))
    elif len(names) > 1:
        events.append(Said(N_("game over: {names} win"), names=names))
    else:
        events.append(Said(N_("game over: {name} wins"), name=names[0]))


def _best(game: Game, state: State, candidates: Sequence[int]) -> list[int]:
    scores = [state["sides"][k]["score"] for k in candidates]
    target = min(scores) if game.ruleset.end.rank == "lowest" else max(scores)
    return [k for k in candidates if state["sides"][k]["score"] == target]


@budgeted
def finish_game(game: Game, state: State) -> HandResult:
    """End an unfinished game now, applying the ruleset's rules for unfinished games."""
    if state["finished"]:
        raise UserError(Said(N_("this game has already ended")))
    new = copy_state(state)
    scope = _Scope(game, state, {})
    n = len(game.sides)
    points: list[int | float] = [0] * n
    breakdown: Breakdown = [[] for _ in range(n)]
    events: list[str] = []
    _run_rules(game, scope, new, game.plan.finish_rules, points,
               breakdown, events, finished_early=True)
    finish_if_over(game, new, scope, points, breakdown, events, forced_end=True, finished_early=True)
    return HandResult(new, points, breakdown, events)


@budgeted
def next_hand_info(game: Game, state: State) -> dict[str, Any]:
    """What the table needs before the next hand: who deals, and the ruleset's `display.next` items."""
    rs = game.ruleset
    n = len(game.players)
    hand_no = state["hands"] + 1
    env = base_env(game)
    env.update(state["game"])
    active = active_players(game, state)
    dealer = current_dealer(state, n)
    env.update(hand_no=hand_no, hands=state["hands"], dealer=dealer, active=active, n_active=sum(active))
    _counter_names(env, state, None)
    info: dict[str, Any] = {"hand": hand_no, "dealer": game.players[dealer]}
    for label, f in rs.display_next.items():
        try:
            info[label] = _shown(f(env), rs.display_words)
        except BudgetError:
            raise
        except FormulaError:
            info[label] = "?"
    return info


@budgeted
def side_display(game: Game, state: State) -> list[dict[str, Any]]:
    """Each side's counters as the ruleset's `display.side` asks them to be shown."""
    rs = game.ruleset
    out = []
    env = base_env(game)
    env.update(state["game"])
    for k, side in enumerate(game.sides):
        senv = dict(env, me=side.name, side_no=k, members=[game.players[i] for i in side.members])
        _counter_names(senv, state, k)
        shown = {}
        for label, f in rs.display_side.items():
            try:
                shown[label] = _shown(f(senv), rs.display_words)
            except BudgetError:
                raise
            except FormulaError:
                shown[label] = "?"
        out.append(shown)
    return out


def _shown(value: Any, words: Mapping[str, str]) -> Any:
    """A displayed value: a number or word as it is (a word in the language shown where its translation
    gives one: `display_words`), a list of them as it is, anything deeper as text."""
    if isinstance(value, str):
        return words.get(value, value)
    if isinstance(value, (list, tuple)) and any(isinstance(v, (list, tuple, dict)) for v in value):
        return format_value(value)
    if isinstance(value, dict):
        return format_value(list(value.values()))
    if isinstance(value, (list, tuple)):
        return [words.get(v, v) if isinstance(v, str) else v for v in value]
    return value
