"""`[fields.NAME]`: what is typed after each hand, its kind, range, default and when it applies.

Also the pieces only fields have: patterns (checked so they cannot make scorepad hang),
combinations (`combos`), the order fields are worked out in, and the check a field's `total` makes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.format import COMBO, FIELD
from scorepad.rules.model import Check, Combo, FieldDef, Ruleset, field_order
from scorepad.rules.names import Compiler, Names
from scorepad.rules.problems import Problems
from scorepad.rules.schema import unknown_keys, validate
from scorepad.rules.sections import section

COMBO_CODE_RE = re.compile(r"^[^\s,=]{1,20}$")
MAX_PATTERN_PATHS = 20000
MAX_INPUT = 40  # typed pattern values are at most 40 characters (assign.py)


def field_tables(data: dict[str, Any], p: Problems) -> dict[str, Any]:
    """The fields' tables, each checked against its declaration (their names join the namespace first)."""
    out: dict[str, Any] = {}
    for fname, spec in section(data, "fields", None, p).items():
        if not isinstance(spec, dict):
            p.add(f"fields.{fname}", Said(N_("must be a table with a type")))
            continue
        out[fname] = validate(spec, FIELD, f"fields.{fname}", p)
    return out


def compile_patterns(fields_raw: Mapping[str, Any], p: Problems) -> dict[str, tuple[re.Pattern[str] | None, tuple[str, ...]]]:
    """Each pattern field's pattern and parts (the parts are names formulas may use)."""
    return {n: compile_pattern(f, f"fields.{n}", p) for n, f in fields_raw.items() if f.get("type") == "pattern"}


def read_fields(fields_raw: Mapping[str, Any], patterns: Mapping[str, tuple[re.Pattern[str] | None, tuple[str, ...]]],
                names: Names, comp: Compiler, p: Problems) -> dict[str, FieldDef]:
    fields: dict[str, FieldDef] = {}
    for fname, spec in fields_raw.items():
        fields[fname] = read_field(fname, spec, fields_raw, patterns, names, comp, p)
    field_order(fields, p)   # refuses applies_if and total that depend on each other
    return fields


def default_problem(default: Any, ftype: str, values: tuple[str, ...], words: Mapping[str, Any], key: str,
                    p: Problems) -> None:
    """A default that the field could never hold is refused when the ruleset is checked, not when
    a hand first leans on it: a word or a number where the other is typed, a word not among the values."""
    if isinstance(default, str) and default.lower() in words:
        return
    if ftype in ("int", "number"):
        ok = isinstance(default, int | float) and not isinstance(default, bool) and (
            ftype == "number" or float(default).is_integer())
        wanted = N_("must be a whole number, not {value}") if ftype == "int" else N_("must be a number, not {value}")
    elif ftype == "bool":
        ok, wanted = isinstance(default, bool), N_("must be true or false, not {value}")
    elif ftype == "word":
        ok = isinstance(default, str) and default.lower() in values
        wanted = N_("must be one of its values ({values}), not {value}")
    else:
        ok, wanted = isinstance(default, str | list), N_("must be text, not {value}")
    if not ok:
        p.add(key, Said(wanted, value=repr(default), **({"values": ", ".join(values)} if ftype == "word" else {})))


def read_field(fname: str, spec: Mapping[str, Any], fields_raw: Mapping[str, Any],
               patterns: Mapping[str, tuple[re.Pattern[str] | None, tuple[str, ...]]],
               names: Names, comp: Compiler, p: Problems) -> FieldDef:
    key = f"fields.{fname}"
    scope = spec.get("scope", "hand")
    ftype = spec.get("type", "int")
    words = {str(k).lower(): v for k, v in spec.get("words", {}).items()}
    values = tuple(str(v).lower() for v in spec.get("values", [])) if isinstance(spec.get("values", []), list) else ()
    if ftype == "word" and not values:
        p.add(key + ".values", Said(N_("a word field lists its legal values")))
    synonyms_raw = spec.get("synonyms", {})
    synonyms = {str(k).lower(): str(v).lower() for k, v in synonyms_raw.items()} if isinstance(synonyms_raw, dict) else {}
    pattern = None
    parts: tuple[str, ...] = ()
    maps: dict[str, dict[str, Any]] = {}
    resolve: dict[str, str] = {}
    if ftype == "pattern":
        pattern, parts = patterns[fname]
        resolve_raw = spec.get("resolve", {})
        if not isinstance(resolve_raw, dict) or any(v not in ("player", "side") or k not in parts
                                                    for k, v in resolve_raw.items()):
            p.add(key + ".resolve", Said(N_("maps a group of the pattern to 'player' or 'side'")))
        else:
            resolve = dict(resolve_raw)
        maps_raw = spec.get("maps", {})
        if isinstance(maps_raw, dict):
            maps = {k: {str(a).upper(): b for a, b in v.items()} for k, v in maps_raw.items() if isinstance(v, dict)}
    fmin = comp(spec["min"], key + ".min", names.hand_base) if "min" in spec else None   # may read the hand's number
    fmax = comp(spec["max"], key + ".max", names.hand_base) if "max" in spec else None
    req_if = comp(spec["required_if"], key + ".required_if", names.typed) if "required_if" in spec else None
    applies_if = comp(spec["applies_if"], key + ".applies_if", names.typed) if "applies_if" in spec else None
    total = None
    if "total" in spec:
        if scope not in ("player", "side") or ftype not in ("int", "number"):
            p.add(key + ".total", Said(N_("only a number field of each player or side can add up to a total")))
        else:
            total = comp(spec["total"], key + ".total", names.typed)
    default_from = None
    if "default_from" in spec:
        if "default" in spec:
            p.add(key + ".default_from", Said(N_("a field has a default or a default_from, not both")))
        default_from = comp(spec["default_from"], key + ".default_from", names.typed_for(scope))
    combos: dict[str, Combo] = {}
    rest = None
    if ftype == "combos":
        combos, rest = read_combos(spec, key, scope, fields_raw, comp, names.setup, p)
    elif "combos" in spec or "rest" in spec:
        p.add(key + ".combos", Said(N_("combos and rest belong to a field of type combos")))
    if "default" in spec:
        default_problem(spec["default"], ftype, values, words, key + ".default", p)
    return FieldDef(fname, scope, ftype, fmin, fmax, words, values, synonyms,
                    spec.get("default"), bool(spec.get("optional", ftype == "combos")), req_if,
                    str(spec.get("help", "")), pattern, parts, maps, resolve,
                    applies_if, total, spec.get("bidding", False), default_from, combos, rest)


def read_combos(spec: Mapping[str, Any], key: str, scope: str, fields_raw: Mapping[str, Any], comp: Compiler,
                names: set[str], p: Problems) -> tuple[dict[str, Combo], str | None]:
    """`[fields.X.combos]`: code = { field = "four_kings", points = 80, adds = "count" }."""
    raw = spec.get("combos")
    if not isinstance(raw, dict) or not raw:
        p.add(key + ".combos", Said(N_("a combos field needs a table of combinations: code = {{ field = ..., points = ... }}")))
        return {}, None

    def target_ok(target: Any, where: str) -> bool:
        tspec = fields_raw.get(target) if isinstance(target, str) else None
        if not isinstance(tspec, dict):
            p.add(where, Said(N_("{target} is not a field of this ruleset"), target=repr(target)))
            return False
        if tspec.get("scope", "hand") != scope or tspec.get("type", "int") not in ("int", "number"):
            p.add(where, Said(N_("{target} must be a number field of the same scope ({scope})"), target=target, scope=scope))
            return False
        return True

    combos: dict[str, Combo] = {}
    for code, entry in raw.items():
        where = f"{key}.combos.{code}"
        if not COMBO_CODE_RE.match(str(code)) or str(code).replace(".", "").isdigit():
            p.add(where, Said(N_("a code is up to 20 characters without spaces, commas or =, and not a number "
                                 "(numbers stand for a combination's points)")))
            continue
        if not isinstance(entry, dict):
            p.add(where, Said(N_("must be a table like {{ field = \"four_kings\", points = 80 }}")))
            continue
        unknown_keys(entry, COMBO, where, p)
        adds = entry.get("adds", "count")
        if adds not in ("count", "points"):
            p.add(where + ".adds", Said(N_("must be count (1 per combination) or points (its points)")))
            continue
        if "points" not in entry:
            p.add(where + ".points", Said(N_("every combination has points (a number or a formula of options and tables)")))
            continue
        if not target_ok(entry.get("field"), where + ".field"):
            continue
        points = comp(entry["points"], where + ".points", names)
        if points is not None:
            if str(code).upper() in combos:
                p.add(where, Said(N_("the same code twice (codes are read without regard to case)")))
            combos[str(code).upper()] = Combo(str(code), str(entry["field"]), points, adds)
    rest = spec.get("rest")
    if rest is not None and not target_ok(rest, key + ".rest"):
        rest = None
    return combos, rest


def bound_problems(rs: Ruleset) -> list[tuple[str, str]]:
    """A number field's `min` and `max` are numbers: a formula that can give a list or a word (a word
    option, a player, a branch written as a list) is refused here, as a default of the wrong kind is,
    instead of failing every hand when the value typed is compared with it."""
    from scorepad.rules.vocabulary import Vocabulary, possible_kinds  # start-up: only loading a whole ruleset

    env = {**{name: opt.default for name, opt in rs.options.items()}, **rs.tables}
    vocab = Vocabulary(rs, env)
    out: list[tuple[str, str]] = []
    for f in rs.fields.values():
        if f.type not in ("int", "number"):
            continue
        for bound, formula in (("min", f.min), ("max", f.max)):
            if formula is None or formula.constant is not None:
                continue
            kinds = possible_kinds(formula.tree, vocab)
            key = f"fields.{f.name}.{bound}"
            if kinds & {"list", "cards"}:
                out.append((key, Said(N_("a bound is a number, and this formula can give a list"))))
            elif kinds & {"word", "player", "side"}:
                out.append((key, Said(N_("a bound is a number, and this formula can give a word"))))
    return out


def total_check(f: FieldDef, comp: Compiler, names: set[str]) -> Check | None:
    """The automatic check of a field's `total`: "the tricks must add up to 13, they add up to 12"."""
    assert f.total is not None
    key = f"fields.{f.name}.total"
    total_src = f.total.source
    ok = comp(f"({total_src}) == none or sum(all_{f.name}) == ({total_src})", key, names)
    label = f.name.replace("_", " ")
    message = f"the {label} must add up to {{{total_src}}}, they add up to {{sum(all_{f.name})}}"
    text, parts = comp.template(message, key, names)
    if ok is None:
        return None
    return Check(f"{f.name}_total", "hand", ok, f.applies_if, text, parts, f.name)


def compile_pattern(spec: dict[str, Any], key: str, p: Problems) -> tuple[re.Pattern[str] | None, tuple[str, ...]]:
    src = spec.get("pattern")
    if not isinstance(src, str) or len(src) > 300:
        p.add(key + ".pattern", Said(N_("a pattern field needs a pattern (a regular expression up to 300 characters)")))
        return None, ()
    # Refuse the shapes that make regular expressions slow: repeated groups, backreferences,
    # and many unbounded repeats. Inputs are also capped at 40 characters.
    if re.search(r"\)[*+{]", src) or re.search(r"\\[1-9]|\(\?P=", src) or len(re.findall(r"[*+]|\{\d*,\}", src)) > 3:
        p.add(key + ".pattern", Said(N_("the pattern may not repeat a group, refer back, or use more than 3 unbounded "
                                        "repeats")))
        return None, ()
    try:
        pattern = re.compile(src, re.IGNORECASE)
    except re.error as exc:
        p.add(key + ".pattern", Said(N_("not a valid pattern: {detail}"), detail=str(exc)))
        return None, ()
    if _pattern_paths(src) > MAX_PATTERN_PATHS:
        p.add(key + ".pattern", Said(N_("the pattern has too many ways to match (optional or repeated parts in a row); "
                                        "it could make scorepad hang on a typed value")))
        return None, ()
    parts = tuple(spec.get("parts", list(pattern.groupindex)))
    missing = [part for part in parts if part not in pattern.groupindex]
    if missing:
        p.add(key + ".parts", Said(N_("the pattern has no named group for {parts}"), parts=", ".join(missing)))
    return pattern, parts


def _pattern_paths(src: str) -> float:
    """An upper bound on the ways a backtracking matcher can try the pattern on a 40-character input.

    Each repeat multiplies by the counts it can take (at most 41), each alternation adds its branches;
    `a?` thirty times or `a{0,40}` eight times in a row is refused, the bridge contract pattern costs 39.
    """
    try:
        import re._parser as sre_parse  # Python 3.11 and later
    except ImportError:  # pragma: no cover - before Python 3.11
        import sre_parse  # Python before 3.11

    def seq(items: Any) -> float:
        total = 1.0
        for op, av in items:
            name = str(op)
            if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                low, high, sub = av
                high = min(high, MAX_INPUT)
                total *= max(high - low + 1, 1) * seq(sub)
            elif name == "BRANCH":
                total *= sum(seq(b) for b in av[1])
            elif name == "SUBPATTERN":
                total *= seq(av[-1])
            elif name in ("ASSERT", "ASSERT_NOT"):
                total *= seq(av[1])
            elif name == "GROUPREF_EXISTS":
                total *= seq(av[1]) + (seq(av[2]) if av[2] else 1)
            if total > 1e12:
                return total
        return total

    try:
        return seq(sre_parse.parse(src))
    except Exception:  # noqa: BLE001 - anything the private parser cannot read is refused
        return float("inf")


