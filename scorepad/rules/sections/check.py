"""`[[check]]`: what makes a hand impossible, with the message that refuses it."""

from __future__ import annotations

from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.format import CHECK
from scorepad.rules.model import Check
from scorepad.rules.names import Compiler, Names
from scorepad.rules.problems import Problems
from scorepad.rules.schema import validate
from scorepad.rules.sections import entries


def read_checks(data: dict[str, Any], names: Names, comp: Compiler, p: Problems) -> list[Check]:
    checks = []
    contexts = {"hand": names.hand(), "player": names.player, "side": names.side}
    for i, raw in enumerate(entries(data, "check", p)):
        key = f"check[{i}]"
        spec = validate(raw, CHECK, key, p)
        per = spec.get("per", "hand")
        context = contexts.get(per) if isinstance(per, str) else None
        if context is None:
            p.add(key + ".per", Said(N_("must be hand, player or side")))
            continue
        if "ok" not in spec or "message" not in raw:
            p.add(key, Said(N_("a check needs ok (the condition that must hold) and message")))
            continue
        ok = comp(spec["ok"], key + ".ok", context)
        when = comp(spec["when"], key + ".when", context) if "when" in spec else None
        msg, parts = comp.template(str(raw["message"]), key + ".message", context)
        if ok:
            checks.append(Check(str(spec.get("id", f"check{i}")), per, ok, when, msg, parts))
    return checks
