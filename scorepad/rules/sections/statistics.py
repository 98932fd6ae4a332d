"""`[stats.ID]`: what the players of a game count over their hands (nils made, bags taken, bids made %)."""

from __future__ import annotations

import ast
from collections.abc import Collection, Mapping
from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.expr import EnvFunction, Formula
from scorepad.rules.format import STATISTIC
from scorepad.rules.model import STORED_LINES, STORED_RULES, Statistic
from scorepad.rules.names import Compiler, Names, name_ok
from scorepad.rules.problems import Problems
from scorepad.rules.schema import validate
from scorepad.rules.sections import section


def _stored(key: str) -> EnvFunction:
    """`line(id)` or `rule(id)`: the points the line of that id gave in the hand as stored (0: none)."""
    def read(env: Mapping[str, Any], ident: Any) -> Any:
        return env[key].get(ident, 0)
    return EnvFunction(read)


BREAKDOWN = {"line": _stored(STORED_LINES), "rule": _stored(STORED_RULES)}
"""The functions only a statistic's formulas have: they read the hand's stored breakdown by id."""

KINDS = {"count": "count", "sum": "sum", "mean": "mean", "made": "rate", "max": "max", "min": "min", "first": "first"}
"""The key that holds a statistic's formula, and the kind it makes (a rate's formula is `made`)."""

OF_KINDS = frozenset({"rate", "mean", "max", "min"})
"""The kinds taken over the hands where an `of` holds (a rate needs one; the others every hand without)."""


def read_statistics(data: dict[str, Any], names: Names, comp: Compiler, p: Problems,
                    score_ids: Collection[str] = (), rule_ids: Collection[str] = ()) -> list[Statistic]:
    """Each statistic's formula sees what a score line of the same `per` sees (the hand's fields, its
    lets, the counters as the hand starts), so it reads the hand as it was scored; and `line(id)`,
    `rule(id)` of the ids of the ruleset's [[score]] lines and [[rule]]s (`score_ids`, `rule_ids`)."""
    comp = Compiler({**comp.functions, **BREAKDOWN}, p)
    out = []
    for sid, spec in section(data, "stats", None, p).items():
        key = f"stats.{sid}"
        if not name_ok(sid, key, p):
            continue
        if not isinstance(spec, dict):
            p.add(key, Said(N_("must be a table with a label and count, sum, mean, made and of, max, min or first")))
            continue
        spec = validate(spec, STATISTIC, key, p)
        kinds = [k for k in KINDS if k in spec]
        if len(kinds) != 1 or "label" not in spec:
            p.add(key, Said(N_("a statistic needs a label and one of count (the hands where a formula holds), "
                               "sum (a formula's values added up), mean (its average over the hands), made "
                               "with of (a rate: the hands where made holds out of those where of holds), max or "
                               "min (its largest or smallest value over the hands) or first (per game: the "
                               "number of the first hand where a formula holds)")))
            continue
        kind = KINDS[kinds[0]]
        if "of" in spec and kind not in OF_KINDS:
            p.add(f"{key}.of", Said(N_("of belongs to a rate (made), a mean, a max or a min: the hands it is "
                                       "taken over")))
            continue
        if kind == "rate" and "of" not in spec:
            p.add(key, Said(N_("a rate needs of: the hands it is taken out of")))
            continue
        per = spec.get("per", "player")
        seen = names.player if per == "player" else names.side
        f = comp(spec[kinds[0]], f"{key}.{kinds[0]}", seen)
        of = comp(spec["of"], f"{key}.of", seen) if "of" in spec else None
        formulas = [x for x in (f, of) if x is not None]
        reads = [_reads_breakdown(x, {"line": score_ids, "rule": rule_ids}, p) for x in formulas]
        if f and (of or "of" not in spec) and None not in reads:
            out.append(Statistic(sid, str(spec["label"]), per, kind, f, of, any(reads)))
    return out


def _reads_breakdown(f: Formula, ids: Mapping[str, Collection[str]], p: Problems) -> bool | None:
    """Whether the formula calls line() or rule(); None (a problem said) when one is not given one id
    in quotes that the ruleset's [[score]] lines (or [[rule]]s) have."""
    found = bad = False
    for node in ast.walk(f.tree) if f.tree is not None else ():
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ids):
            continue
        fn, found = node.func.id, True
        arg = node.args[0] if len(node.args) == 1 else None
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
            p.add(f.key, Said(N_("{fn}() takes one id in quotes: {fn}('bid')"), fn=fn))
            bad = True
        elif arg.value not in ids[fn]:
            known = ", ".join(sorted(ids[fn])) or "-"
            p.add(f.key, Said(N_("there is no [[score]] line with the id {id} (known: {known})") if fn == "line" else
                              N_("there is no [[rule]] with the id {id} (known: {known})"),
                              id=repr(arg.value), known=known))
            bad = True
    return None if bad else found
