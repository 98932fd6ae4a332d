"""The one namespace of a ruleset and the names each kind of formula sees; compiling formulas with them.

Fields, lets, state counters, options and tables share one namespace. A formula is compiled once,
with exactly the names visible where it runs, so a misspelt name is a load-time problem.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scorepad.errors import FormulaError
from scorepad.locale import N_, Said
from scorepad.rules.expr import Formula, compile_formula
from scorepad.rules.problems import Problems
from scorepad.rules.schema import NAME_PATTERN

NAME_RE = re.compile(NAME_PATTERN)
RESERVED = {
    "hand_no", "hands", "dealer", "n_players", "n_sides", "players", "sides", "me", "seat", "side",
    "side_no", "members", "gained", "none", "true", "false", "status", "score", "finished_early",
    "active", "n_active",
}
TEMPLATE_RE = re.compile(r"\{([^{}]+)\}")


def name_ok(name: str, key: str, p: Problems) -> bool:
    if not NAME_RE.match(name) or name.startswith(("all_", "others_", "team_", "_")):
        p.add(key, Said(N_("a name is lower-case letters, digits and _ (not starting with all_, others_ or team_)")))
        return False
    return True


def all_of(names: Iterable[str]) -> set[str]:
    return {f"all_{n}" for n in names}


def others(names: Iterable[str]) -> set[str]:
    return {f"others_{n}" for n in names}


def team(names: Iterable[str]) -> set[str]:
    return {f"team_{n}" for n in names}


@dataclass(frozen=True)
class Names:
    """What each context sees, worked out once from the declared names."""

    setup: set[str]            # options, tables, the players and sides
    hand_base: set[str]        # setup, the hand's number, dealer, game counters
    hand_fields: set[str]
    player_fields: set[str]
    side_fields: set[str]
    pattern_parts: set[str]
    hand_lets: set[str]
    player_lets: set[str]
    side_lets: set[str]
    side_counters: set[str]
    game_counters: set[str]

    @property
    def player_level(self) -> set[str]:
        return self.player_fields | self.player_lets

    @property
    def side_level(self) -> set[str]:
        return self.side_fields | self.side_lets | self.side_counters

    def hand(self, extra: set[str] | None = None) -> set[str]:
        return (self.hand_base | self.hand_fields | self.pattern_parts | self.hand_lets
                | all_of(self.player_level) | all_of(self.side_level) | (extra or set()))

    @property
    def player(self) -> set[str]:
        return (self.hand() | self.player_level | others(self.player_level) | team(self.player_level)
                | self.side_level | others(self.side_level) | {"me", "seat", "side", "side_no"})

    @property
    def side(self) -> set[str]:
        return (self.hand() | self.side_level | others(self.side_level) | self.player_level
                | team(self.player_level) | {"me", "side_no", "members"})

    @property
    def typed(self) -> set[str]:
        """What a field's required_if or applies_if sees: the typed values only (no derived values yet)."""
        return (self.hand_base | self.hand_fields | self.pattern_parts | all_of(self.player_fields)
                | all_of(self.side_fields))

    @property
    def player_typed(self) -> set[str]:
        """What a per-player default_from sees besides: the own, others' and team's typed values."""
        return (self.typed | self.player_fields | others(self.player_fields) | team(self.player_fields)
                | self.side_fields | others(self.side_fields) | {"me", "seat", "side", "side_no"})

    @property
    def side_typed(self) -> set[str]:
        return (self.typed | self.side_fields | others(self.side_fields) | self.player_fields
                | team(self.player_fields) | {"me", "side_no", "members"})

    def typed_for(self, scope: str) -> set[str]:
        return {"hand": self.typed, "player": self.player_typed, "side": self.side_typed}.get(scope, self.typed)


def declare(options: Iterable[str], tables: Iterable[str], fields: Mapping[str, Any], hand_lets: Iterable[str],
            player_lets: Iterable[str], side_lets: Iterable[str], side_state: Iterable[str],
            game_state: Iterable[str], pattern_parts: set[str], p: Problems) -> Names:
    """Check the one namespace (no name twice, none reserved, each well formed) and work out the contexts."""
    options, tables = list(options), list(tables)
    hand_lets, player_lets, side_lets = list(hand_lets), list(player_lets), list(side_lets)
    side_state, game_state = list(side_state), list(game_state)
    setup = set(options) | set(tables) | {"n_players", "n_sides", "players", "sides", "none"}
    for n in options + tables:
        if n in RESERVED:
            p.add(n, Said(N_("{name} is a reserved name"), name=repr(n)))
    seen: set[str] = set()
    for n in [*fields, *hand_lets, *player_lets, *side_lets, *side_state, *game_state, *options, *tables]:
        if n in seen:
            p.add(n, Said(N_("the name {name} is declared twice (fields, lets, state, options and tables share one "
                             "namespace)"), name=repr(n)))
        seen.add(n)
        if n in RESERVED and n not in ("score", "status"):
            p.add(n, Said(N_("{name} is a reserved name"), name=repr(n)))
        name_ok(n, n, p)
    game_counters = set(game_state)
    return Names(
        setup=setup, hand_base=setup | {"hand_no", "hands", "dealer", "active", "n_active"} | game_counters,
        hand_fields={n for n, f in fields.items() if isinstance(f, dict) and f.get("scope", "hand") == "hand"},
        player_fields={n for n, f in fields.items() if isinstance(f, dict) and f.get("scope") == "player"},
        side_fields={n for n, f in fields.items() if isinstance(f, dict) and f.get("scope") == "side"},
        pattern_parts=pattern_parts, hand_lets=set(hand_lets), player_lets=set(player_lets),
        side_lets=set(side_lets), side_counters=set(side_state) | {"score", "status"},
        game_counters=game_counters)


class Compiler:
    """Compiles the formulas of one file with its card functions; a formula that fails is a problem."""

    def __init__(self, functions: Mapping[str, Any], p: Problems) -> None:
        self.functions = dict(functions)
        self.p = p

    def __call__(self, src: Any, key: str, names: set[str]) -> Formula | None:
        try:
            return compile_formula(src, key, names, self.functions)
        except FormulaError as exc:
            self.p.formula(exc)
            return None

    def template(self, text: str, key: str, names: set[str], check_braces: bool = True) -> tuple[str, tuple[Formula, ...]]:
        """A message with `{formula}` parts; the parts are compiled once, like every formula."""
        parts = []
        for i, m in enumerate(TEMPLATE_RE.finditer(text)):
            f = self(m.group(1), f"{key}{{{i}}}", names)
            if f:
                parts.append(f)
        rest = TEMPLATE_RE.sub("", text)
        if check_braces and ("{" in rest or "}" in rest):
            self.p.add(key, Said(N_("a {{ or }} without its partner (write {{formula}}, one formula between a pair of "
                                    "braces)")))
        return text, tuple(parts)
