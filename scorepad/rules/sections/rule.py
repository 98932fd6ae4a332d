"""`[[rule]]`: thresholds after a hand (or at the end): counters set or added, sides marked, the game ended."""

from __future__ import annotations

from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.format import MARKS, RULE
from scorepad.rules.model import Rule
from scorepad.rules.names import Compiler, Names, all_of, others, team
from scorepad.rules.problems import Problems
from scorepad.rules.schema import validate
from scorepad.rules.sections import entries


def rule_contexts(names: Names) -> tuple[set[str], set[str]]:
    """What a per-side rule and a per-game rule see (the points just gained, and whether the game stopped early)."""
    return names.side | {"gained", "all_gained", "finished_early"}, names.hand({"all_gained", "finished_early"})


def finish_contexts(names: Names) -> tuple[set[str], set[str]]:
    """What an `on = "finish"` or `on = "end"` rule sees: a game stopped between hands (which runs
    both) has no hand, so neither the typed fields nor the values derived from them (lets, pattern
    parts) exist; the counters do."""
    of_a_hand = (names.hand_fields | names.pattern_parts | names.hand_lets | names.player_level
                 | names.side_fields | names.side_lets)
    gone = of_a_hand | all_of(of_a_hand) | others(of_a_hand) | team(of_a_hand)
    side, game = rule_contexts(names)
    return side - gone, game - gone


def read_rules(data: dict[str, Any], names: Names, comp: Compiler, p: Problems, played: bool = False) -> list[Rule]:
    """The rules. An end or finish rule that reads a field or a let is refused in a new text; the text
    of games already played keeps it (it was accepted when they began, and their hands must stay
    readable and importable): there `scorepad finish` says the value is missing, as before."""
    rule_side, rule_game = rule_contexts(names)
    finish_side, finish_game = (rule_side, rule_game) if played else finish_contexts(names)
    side_counters, game_counters = names.side_counters, names.game_counters
    rules = []
    for i, raw in enumerate(entries(data, "rule", p)):
        key = f"rule[{i}]"
        spec = validate(raw, RULE, key, p)
        per = spec.get("per", "side")
        if per not in ("side", "game"):
            p.add(key + ".per", Said(N_("must be side or game")))
            continue
        on = spec.get("on", "hand")
        if on in ("end", "finish"):  # an end rule also runs when `scorepad finish` stops the game
            context = finish_side if per == "side" else finish_game
        else:
            context = rule_side if per == "side" else rule_game
        when = comp(spec["when"], key + ".when", context) if "when" in spec else None
        actions = {}
        for action in ("set", "add", "set_all"):
            items = []
            for cname, src in spec.get(action, {}).items():
                allowed = (side_counters - {"status"}) | (game_counters if action != "set_all" else set())
                if per == "game" and action != "set_all":
                    allowed = game_counters
                if cname not in allowed:
                    known = ", ".join(sorted(allowed)) or Said(N_("none"))
                    p.add(f"{key}.{action}.{cname}", Said(N_("is not a counter this rule can change (counters: {known})"),
                                                           known=known))
                    continue
                f = comp(src, f"{key}.{action}.{cname}", context)
                if f:
                    items.append((cname, f))
            actions[action] = tuple(items)
        mark = spec.get("mark")
        if mark is not None and mark not in MARKS:
            p.add(key + ".mark", Said(N_("must be one of {values}"), values=", ".join(MARKS)))
        if mark is not None and per == "game":
            p.add(key + ".mark", Said(N_("only a per-side rule can mark a side")))
        msg, parts = comp.template(str(spec.get("message", "")), key + ".message", context)
        rules.append(Rule(str(spec.get("id", f"rule{i}")), per, on, when, actions["set"],
                          actions["add"], actions["set_all"], mark, bool(spec.get("end", False)),
                          str(spec.get("label", spec.get("message", spec.get("id", f"rule {i + 1}")))),
                          msg, parts, bool(spec.get("include_out", False))))
    return rules
