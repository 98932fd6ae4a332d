"""Ruleset files: load TOML strictly, overlay variants, check every key, compile every formula.

A ruleset is untrusted data. Loading collects every problem (file, TOML key, plain sentence)
before failing, refuses unknown keys, and compiles formulas once with the names visible in each
context, so a misspelt name is reported at load time rather than in the middle of a game.
The format is documented for players in docs/rulesets.md.
"""

from __future__ import annotations

import copy
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import scorepad.cards as cardlib
from scorepad.cost import cost_problems
from scorepad.errors import FormulaError, RulesetError, UserError
from scorepad.expr import MAX_NUMBER, Formula, compile_formula

FORMAT_VERSION = 1
MAX_FILE_BYTES = 256 * 1024
MAX_TABLE_ITEMS = 2000
MAX_NESTING = 8
MAX_TEXT = 10000
NAME_RE = re.compile(r"^[a-z_][a-z0-9_]{0,40}$")
FIELD_TYPES = ("int", "number", "bool", "word", "player", "side", "cards", "pattern", "combos")
SCOPES = ("hand", "player", "side")
MARKS = ("won", "lost", "out", "playing")
WINNER_MODES = ("highest", "lowest", "marked", "last_standing")
LIST_SECTIONS = ("check", "score", "rule")
RESERVED = {
    "hand_no", "hands", "dealer", "n_players", "n_sides", "players", "sides", "me", "seat", "side",
    "side_no", "members", "gained", "none", "true", "false", "status", "score", "finished_early",
    "active", "n_active",
}

TOP_KEYS = {"format", "game", "players", "cards", "options", "fields", "tables", "let", "player",
            "side", "check", "score", "state", "rule", "end", "display", "variants"}
GAME_KEYS = {"id", "name", "names", "aliases", "description", "notes", "family"}
PLAYERS_KEYS = {"min", "max", "sides", "seats", "side_names", "partnerships", "next_dealer"}
CARDS_KEYS = {"deck", "ranks", "copies", "jokers", "values"}
OPTION_KEYS = {"default", "values", "min", "max", "help"}
FIELD_KEYS = {"scope", "type", "min", "max", "words", "values", "synonyms", "default", "optional",
              "required_if", "help", "pattern", "parts", "maps", "resolve", "prompt", "applies_if", "total",
              "bidding", "default_from", "combos", "rest"}
COMBO_KEYS = {"field", "points", "adds"}
COMBO_CODE_RE = re.compile(r"^[^\s,=]{1,20}$")
CHECK_KEYS = {"id", "per", "ok", "message", "when"}
SCORE_KEYS = {"id", "per", "label", "points", "when", "to"}
RULE_KEYS = {"id", "per", "on", "when", "set", "add", "set_all", "mark", "end", "label",
             "message", "include_out"}
END_KEYS = {"when", "winner", "tie", "rank", "description", "first_to", "rest_of_deal"}
DISPLAY_KEYS = {"side", "next", "info", "sheet_below"}
VARIANT_EXTRA_KEYS = {"remove"}


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    values: tuple[Any, ...] | None
    min: int | float | None
    max: int | float | None
    help: str


@dataclass(frozen=True)
class Combo:
    """One combination of a `combos` field: typing its code (or its points) adds to a count field."""

    code: str
    field: str          # the per-combination field it adds to
    points: Formula     # what the combination is worth, so a typed number finds it
    adds: str           # "count": 1 per combination; "points": its points


@dataclass(frozen=True)
class FieldDef:
    name: str
    scope: str
    type: str
    min: Formula | None
    max: Formula | None
    words: dict[str, Any]
    values: tuple[str, ...]
    synonyms: dict[str, str]
    default: Any
    optional: bool
    required_if: Formula | None
    help: str
    pattern: re.Pattern[str] | None
    parts: tuple[str, ...]
    maps: dict[str, dict[str, Any]]
    resolve: dict[str, str] = field(default_factory=dict)
    applies_if: Formula | None = None      # when false the field is not part of this hand
    total: Formula | None = None           # the values over the playing players/sides add up to this
    bidding: bool = False                  # written down at bid time, before the play
    default_from: Formula | None = None    # the value worked out from other typed fields
    combos: dict[str, Combo] = field(default_factory=dict)   # type combos: upper-case code -> combination
    rest: str | None = None                # type combos: the field a number that is no combination adds to


@dataclass(frozen=True)
class Let:
    name: str
    formula: Formula


@dataclass(frozen=True)
class Check:
    id: str
    per: str
    ok: Formula
    when: Formula | None
    message: str
    message_parts: tuple[Formula, ...]
    total_of: str | None = None   # the field whose `total` this check is (made by the loader)


@dataclass(frozen=True)
class ScoreItem:
    id: str
    per: str
    label: str
    points: Formula
    when: Formula | None
    to: tuple[str, ...]


@dataclass(frozen=True)
class Rule:
    id: str
    per: str
    on: str
    when: Formula | None
    set: tuple[tuple[str, Formula], ...]
    add: tuple[tuple[str, Formula], ...]
    set_all: tuple[tuple[str, Formula], ...]
    mark: str | None
    end: bool
    label: str
    message: str
    message_parts: tuple[Formula, ...]
    include_out: bool


@dataclass(frozen=True)
class EndRule:
    when: Formula | None
    winner: str
    tie: str
    rank: str
    description: str
    # "First to N, counted out in order": the score lines are counted in file order and the first
    # side whose total reaches `first_to` wins; `rest_of_deal` says whether the later points of
    # that deal are scored ("scored") or not ("void").
    first_to: Formula | None = None
    rest_of_deal: str = "void"


@dataclass
class Ruleset:
    """A loaded, checked ruleset with its formulas compiled; immutable after loading."""

    id: str
    name: str
    names: dict[str, str]
    aliases: tuple[str, ...]
    description: str
    notes: tuple[str, ...]
    variant: str | None
    variants: dict[str, str]
    min_players: int
    max_players: int
    sides_kind: str
    seats: tuple[str, ...]
    side_names: tuple[str, ...]
    partnerships: tuple[tuple[int, ...], ...]
    deck: cardlib.Deck
    card_values: dict[str, Any]
    options: dict[str, Option]
    fields: dict[str, FieldDef]
    tables: dict[str, Any]
    hand_lets: tuple[Let, ...]
    player_lets: tuple[Let, ...]
    side_lets: tuple[Let, ...]
    checks: tuple[Check, ...]
    scores: tuple[ScoreItem, ...]
    side_state: dict[str, Formula]
    game_state: dict[str, Formula]
    rules: tuple[Rule, ...]
    end: EndRule
    display_side: dict[str, Formula]
    display_next: dict[str, Formula]
    display_info: tuple[str, ...]
    sheet_below: str | None
    next_dealer: Formula | None
    text: str
    source: str
    data: dict[str, Any] = field(repr=False, default_factory=dict)

    @cached_property
    def field_order(self) -> tuple[str, ...]:
        """The fields in the order their values are worked out (see assign.py); checked when loading."""
        return _field_order(self.fields, _Problems(self.source))

    @property
    def hash(self) -> str:
        import hashlib  # only when a game starts: keeps it off every command's start-up

        return hashlib.sha256(self.text.encode()).hexdigest()[:16]

    def functions(self) -> dict[str, Any]:
        return card_functions(self.card_values)


def card_functions(values: Mapping[str, Any]) -> dict[str, Any]:
    """Formula functions over card lists, bound to a ruleset's card values."""

    def value(cards: Any) -> int | float:
        total: int | float = 0
        for card in cards or ():
            v = cardlib.card_value(card, values)
            total += v if isinstance(v, (int, float)) else 0
        return total

    def has(cards: Any, card: Any) -> bool:
        return cardlib.parse_card(_word(card)) in (cards or ())

    def nrank(cards: Any, rank: Any) -> int:
        want = cardlib.parse_card(_word(rank))
        return sum(1 for c in cards or () if cardlib.split_card(c)[0] == want)

    def nsuit(cards: Any, suit: Any) -> int:
        s = cardlib.SUIT_SYMBOLS.get(_word(suit).upper())
        return sum(1 for c in cards or () if cardlib.split_card(c)[1] == s)

    return {"value": value, "has": has, "nrank": nrank, "nsuit": nsuit}


def _word(value: Any) -> str:
    """A card, rank or suit given to a card function as text; a list is refused, not printed."""
    if isinstance(value, (list, tuple, dict)):
        raise TypeError("a card, rank or suit is a word like 'QS', 'Q' or 'S', not a list")
    return str(value)




# --------------------------------------------------------------------------- loading

class _Problems:
    """Collects every problem of one file before failing, as `file: key: sentence`."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.items: list[str] = []

    def add(self, key: str, message: str) -> None:
        self.items.append(f"{self.source}: {key}: {message}" if key else f"{self.source}: {message}")

    def formula(self, exc: FormulaError) -> None:
        self.items.append(f"{self.source}: {exc.message}")


def parse_toml(text: str, source: str) -> dict[str, Any]:
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise RulesetError(f"{source}: the file is larger than {MAX_FILE_BYTES // 1024} KiB",
                           [f"{source}: the file is larger than {MAX_FILE_BYTES // 1024} KiB"])
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = f"{source}: not valid TOML: {exc}"
        raise RulesetError(msg, [msg]) from None
    except RecursionError:
        msg = f"{source}: the TOML nests too deeply"
        raise RulesetError(msg, [msg]) from None
    return data


def read_text(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        msg = f"{path}: cannot read the file ({exc.strerror})"
        raise RulesetError(msg, [msg]) from None
    if len(raw) > MAX_FILE_BYTES:
        msg = f"{path}: the file is larger than {MAX_FILE_BYTES // 1024} KiB"
        raise RulesetError(msg, [msg])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        msg = f"{path}: the file is not UTF-8 text"
        raise RulesetError(msg, [msg]) from None


def merge(base: dict[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    """Deep-merge a variant overlay: tables merge, lists of check/score/rule append or replace by id."""
    out = copy.deepcopy(base)
    for key, value in overlay.items():
        if key in LIST_SECTIONS and isinstance(value, list):
            items = list(out.get(key, []))
            for entry in value:
                ident = entry.get("id") if isinstance(entry, dict) else None
                pos = next((i for i, e in enumerate(items) if ident and e.get("id") == ident), None)
                if pos is None:
                    items.append(copy.deepcopy(entry))
                else:
                    items[pos] = copy.deepcopy(entry)
            out[key] = items
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _depth_and_size(value: Any, depth: int = 0) -> tuple[int, int]:
    if depth > MAX_NESTING:
        return depth, 0
    if isinstance(value, dict):
        results = [_depth_and_size(v, depth + 1) for v in value.values()]
    elif isinstance(value, list):
        results = [_depth_and_size(v, depth + 1) for v in value]
    else:
        return depth, 1
    return max([depth, *(d for d, _ in results)]), 1 + sum(s for _, s in results)


def apply_variant(data: dict[str, Any], variant: str | None, source: str) -> dict[str, Any]:
    """The base ruleset with a variant's overlay applied (and its `remove` list honoured)."""
    variants = data.get("variants", {})
    if variant is None:
        return data
    if not isinstance(variants, dict) or variant not in variants:
        known = ", ".join(variants) if isinstance(variants, dict) and variants else "none"
        raise RulesetError(f"{source}: unknown variant {variant!r} (variants: {known})")
    overlay = dict(variants[variant])
    overlay.pop("name", None)
    overlay.pop("names", None)
    overlay.pop("description", None)
    removed = overlay.pop("remove", [])
    merged = merge({k: v for k, v in data.items()}, overlay)
    for ident in removed if isinstance(removed, list) else []:
        for section in LIST_SECTIONS:
            merged[section] = [e for e in merged.get(section, []) if e.get("id") != ident]
        # `remove = ["tricks_total"]` also drops the check a field's `total` makes
        spec = merged.get("fields", {}).get(str(ident).removesuffix("_total")) if isinstance(
            merged.get("fields"), dict) and str(ident).endswith("_total") else None
        if isinstance(spec, dict):
            spec.pop("total", None)
    return merged


def load_text(text: str, source: str, variant: str | None = None) -> Ruleset:
    """Load a ruleset from TOML text; raises RulesetError listing every problem."""
    data = parse_toml(text, source)
    if isinstance(data.get("game"), dict) and variant is None:
        pass
    base_problems = _Problems(source)
    _check_variants_table(data, base_problems)
    if base_problems.items:
        raise RulesetError(base_problems.items[0], base_problems.items)
    merged = apply_variant(data, variant, source)
    return build(merged, data, text, source, variant)


def _check_variants_table(data: dict[str, Any], problems: _Problems) -> None:
    variants = data.get("variants", {})
    if not isinstance(variants, dict):
        problems.add("variants", "must be a table of variants")
        return
    for name, overlay in variants.items():
        if not NAME_RE.match(name.replace("-", "_")):
            problems.add(f"variants.{name}", "a variant name is lower-case letters, digits, - or _")
        if not isinstance(overlay, dict):
            problems.add(f"variants.{name}", "must be a table")
            continue
        for key in overlay:
            if key not in TOP_KEYS - {"variants", "format"} | VARIANT_EXTRA_KEYS | {"name", "names", "description"}:
                problems.add(f"variants.{name}.{key}", "unknown key in a variant")


def build(data: dict[str, Any], base: dict[str, Any], text: str, source: str,
          variant: str | None) -> Ruleset:
    p = _Problems(source)
    depth, size = _depth_and_size(data)
    if depth > MAX_NESTING:
        p.add("", f"the file nests tables deeper than {MAX_NESTING} levels")
        raise RulesetError(p.items[0], p.items)
    if size > 20000:
        p.add("", "the file has too many values (over 20000)")
        raise RulesetError(p.items[0], p.items)
    for where, message in _oversized(data, ""):
        p.add(where, message)
    if p.items:
        raise RulesetError(p.items[0] if len(p.items) == 1 else f"{len(p.items)} problems in {source}", p.items)
    for key in data:
        if key not in TOP_KEYS:
            p.add(key, f"unknown section (known: {', '.join(sorted(TOP_KEYS))})")
    fmt = data.get("format", FORMAT_VERSION)
    if fmt != FORMAT_VERSION:
        p.add("format", f"this scorepad reads ruleset format {FORMAT_VERSION}, not {fmt!r}")

    game = _table(data, "game", p, GAME_KEYS)
    rid = game.get("id")
    if not isinstance(rid, str) or not re.match(r"^[a-z0-9][a-z0-9-]{0,40}$", rid):
        p.add("game.id", "needs an id of lower-case letters, digits and - (like 'spades')")
        rid = "invalid"
    name = _str(game, "name", "game.name", p, required=True)
    native_names = _strmap(game.get("names", {}), "game.names", p)
    aliases = _strlist(game.get("aliases", []), "game.aliases", p)
    notes = _strlist(game.get("notes", []), "game.notes", p)
    description = _str(game, "description", "game.description", p)

    variants_table = base.get("variants", {})
    variants = {k: str(v.get("name", k)) if isinstance(v, dict) else k
                for k, v in variants_table.items()} if isinstance(variants_table, dict) else {}
    if variant and isinstance(variants_table, dict) and isinstance(variants_table.get(variant), dict):
        extra = variants_table[variant].get("description")
        if isinstance(extra, str):
            description = f"{description}\n{extra}".strip()

    pl = _table(data, "players", p, PLAYERS_KEYS)
    min_p = _int(pl.get("min", 2), "players.min", p, 1, 12)
    max_p = _int(pl.get("max", min_p), "players.max", p, 1, 12)
    if max_p < min_p:
        p.add("players.max", "is smaller than players.min")
    sides_kind = pl.get("sides", "individual")
    if sides_kind not in ("individual", "partnership"):
        p.add("players.sides", "must be 'individual' or 'partnership'")
        sides_kind = "individual"
    seats = tuple(_strlist(pl.get("seats", []), "players.seats", p))
    side_names = tuple(_strlist(pl.get("side_names", []), "players.side_names", p))
    partnerships_raw = pl.get("partnerships", [[1, 3], [2, 4]] if sides_kind == "partnership" else [])
    partnerships: tuple[tuple[int, ...], ...] = ()
    if sides_kind == "partnership":
        if (not isinstance(partnerships_raw, list)
                or not all(isinstance(t, list) and all(isinstance(i, int) for i in t)
                           for t in partnerships_raw)):
            p.add("players.partnerships", "must be a list of seat-number lists like [[1, 3], [2, 4]]")
        else:
            partnerships = tuple(tuple(i - 1 for i in t) for t in partnerships_raw)
            seats_used = sorted(i for t in partnerships for i in t)
            if seats_used != list(range(len(seats_used))) or len(seats_used) != max_p:
                p.add("players.partnerships", f"must use each seat 1..{max_p} exactly once")
        if side_names and len(side_names) != len(partnerships):
            p.add("players.side_names", "needs one name per partnership")

    cards = _table(data, "cards", p, CARDS_KEYS)
    deck = cardlib.deck_named("52")
    if "ranks" in cards:
        ranks = _strlist(cards["ranks"], "cards.ranks", p)
        bad = [r for r in ranks if r not in cardlib.RANK_ORDER]
        if bad:
            p.add("cards.ranks", f"unknown ranks {bad} (ranks are {', '.join(cardlib.RANK_ORDER)})")
        deck = cardlib.Deck(tuple(r for r in cardlib.RANK_ORDER if r in ranks),
                            _int(cards.get("copies", 1), "cards.copies", p, 1, 8),
                            _int(cards.get("jokers", 0), "cards.jokers", p, 0, 16))
    elif "deck" in cards:
        if cards["deck"] not in cardlib.DECKS:
            p.add("cards.deck", f"unknown deck (known: {', '.join(cardlib.DECKS)})")
        else:
            deck = cardlib.deck_named(cards["deck"])
            if "jokers" in cards or "copies" in cards:
                deck = cardlib.Deck(deck.ranks,
                                    _int(cards.get("copies", deck.copies), "cards.copies", p, 1, 8),
                                    _int(cards.get("jokers", deck.jokers), "cards.jokers", p, 0, 16))
    card_values: dict[str, Any] = {}
    raw_values = cards.get("values", {})
    if not isinstance(raw_values, dict):
        p.add("cards.values", "must be a table like { Q = 10, QS = 50 }")
    else:
        for key, value in raw_values.items():
            try:
                canon = cardlib.parse_card(key)
            except UserError:
                p.add(f"cards.values.{key}", "is not a card or rank")
                continue
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                p.add(f"cards.values.{key}", "must be a number")
                continue
            card_values[canon] = value

    options: dict[str, Option] = {}
    for oname, spec in _table(data, "options", p, None).items():
        key = f"options.{oname}"
        if not _name_ok(oname, key, p):
            continue
        if not isinstance(spec, dict):
            p.add(key, "must be a table with a default")
            continue
        _unknown(spec, OPTION_KEYS, key, p)
        if "default" not in spec:
            p.add(key + ".default", "every option needs a default")
            continue
        values = spec.get("values")
        if values is not None and (not isinstance(values, list) or spec["default"] not in values):
            p.add(key + ".values", "must be a list that contains the default")
            values = None
        options[oname] = Option(oname, spec["default"], tuple(values) if values else None,
                                spec.get("min"), spec.get("max"), str(spec.get("help", "")))

    tables = _table(data, "tables", p, None)
    for tname, value in tables.items():
        _name_ok(tname, f"tables.{tname}", p)
        if _depth_and_size(value)[1] > MAX_TABLE_ITEMS:
            p.add(f"tables.{tname}", f"has more than {MAX_TABLE_ITEMS} entries")

    state = _table(data, "state", p, {"side", "game"})
    side_state_raw = state.get("side", {}) if isinstance(state.get("side", {}), dict) else {}
    game_state_raw = state.get("game", {}) if isinstance(state.get("game", {}), dict) else {}

    fields_raw = _table(data, "fields", p, None)
    hand_let_raw = _table(data, "let", p, None)
    player_let_raw = _table(data, "player", p, None)
    side_let_raw = _table(data, "side", p, None)

    # --- the names each context sees
    setup_names = set(options) | set(tables) | {"n_players", "n_sides", "players", "sides", "none"}
    for n in list(options) + list(tables):
        if n in RESERVED:
            p.add(n, f"{n!r} is a reserved name")
    hand_fields = {n for n, f in fields_raw.items() if isinstance(f, dict) and f.get("scope", "hand") == "hand"}
    player_fields = {n for n, f in fields_raw.items() if isinstance(f, dict) and f.get("scope") == "player"}
    side_fields = {n for n, f in fields_raw.items() if isinstance(f, dict) and f.get("scope") == "side"}
    pattern_parts: set[str] = set()
    compiled_patterns: dict[str, tuple[re.Pattern[str] | None, tuple[str, ...]]] = {}
    for n, f in fields_raw.items():
        if isinstance(f, dict) and f.get("type") == "pattern":
            compiled_patterns[n] = _compile_pattern(f, f"fields.{n}", p)
            pattern_parts |= {f"{n}_{part}" for part in compiled_patterns[n][1]}
    side_counters = set(side_state_raw) | {"score", "status"}
    game_counters = set(game_state_raw)
    all_declared = [*fields_raw, *hand_let_raw, *player_let_raw, *side_let_raw, *side_state_raw,
                    *game_state_raw, *options, *tables]
    seen: set[str] = set()
    for n in all_declared:
        if n in seen:
            p.add(n, f"the name {n!r} is declared twice (fields, lets, state, options and tables share one namespace)")
        seen.add(n)
        if n in RESERVED and n not in ("score", "status"):
            p.add(n, f"{n!r} is a reserved name")
        _name_ok(n, n, p)

    player_level = player_fields | set(player_let_raw)
    side_level = side_fields | set(side_let_raw) | side_counters
    hand_base = (setup_names | {"hand_no", "hands", "dealer", "active", "n_active"} | game_counters)

    def all_of(names: set[str]) -> set[str]:
        return {f"all_{n}" for n in names}

    def hand_ctx(extra: set[str] | None = None) -> set[str]:
        if extra is None:
            extra = set()
        return hand_base | hand_fields | pattern_parts | set(hand_let_raw) | all_of(player_level) | all_of(side_level) | extra

    player_ctx_names = (hand_ctx() | player_level | {f"others_{n}" for n in player_level}
                        | {f"team_{n}" for n in player_level} | side_level
                        | {f"others_{n}" for n in side_level} | {"me", "seat", "side", "side_no"})
    side_ctx_names = (hand_ctx() | side_level | {f"others_{n}" for n in side_level} | player_level
                      | {f"team_{n}" for n in player_level} | {"me", "side_no", "members"})
    # what a field's required_if sees: the typed values only (no derived values yet)
    typed_names = hand_base | hand_fields | pattern_parts | all_of(player_fields) | all_of(side_fields)
    # what a per-player or per-side default_from sees besides: the own, others' and team's typed values
    player_typed = (typed_names | player_fields | {f"others_{n}" for n in player_fields}
                    | {f"team_{n}" for n in player_fields} | side_fields | {f"others_{n}" for n in side_fields}
                    | {"me", "seat", "side", "side_no"})
    side_typed = (typed_names | side_fields | {f"others_{n}" for n in side_fields} | player_fields
                  | {f"team_{n}" for n in player_fields} | {"me", "side_no", "members"})
    funcs = card_functions(card_values)

    def comp(src: Any, key: str, names: set[str]) -> Formula | None:
        try:
            return compile_formula(src, key, names, funcs)
        except FormulaError as exc:
            p.formula(exc)
            return None

    # --- fields
    fields: dict[str, FieldDef] = {}
    for fname, spec in fields_raw.items():
        key = f"fields.{fname}"
        if not isinstance(spec, dict):
            p.add(key, "must be a table with a type")
            continue
        _unknown(spec, FIELD_KEYS, key, p)
        scope = spec.get("scope", "hand")
        ftype = spec.get("type", "int")
        if scope not in SCOPES:
            p.add(key + ".scope", f"must be one of {', '.join(SCOPES)}")
        if ftype not in FIELD_TYPES:
            p.add(key + ".type", f"must be one of {', '.join(FIELD_TYPES)}")
        words_raw = spec.get("words", {})
        words: dict[str, Any] = {}
        if not isinstance(words_raw, dict):
            p.add(key + ".words", "must be a table like { nil = 0, blind = 'blind' }")
        else:
            words = {str(k).lower(): v for k, v in words_raw.items()}
        values = tuple(str(v).lower() for v in spec.get("values", [])) if isinstance(spec.get("values", []), list) else ()
        if ftype == "word" and not values:
            p.add(key + ".values", "a word field lists its legal values")
        synonyms_raw = spec.get("synonyms", {})
        synonyms = {str(k).lower(): str(v).lower() for k, v in synonyms_raw.items()} if isinstance(synonyms_raw, dict) else {}
        pattern = None
        parts: tuple[str, ...] = ()
        maps: dict[str, dict[str, Any]] = {}
        resolve: dict[str, str] = {}
        if ftype == "pattern":
            pattern, parts = compiled_patterns[fname]
            resolve_raw = spec.get("resolve", {})
            if not isinstance(resolve_raw, dict) or any(v not in ("player", "side") or k not in parts
                                                        for k, v in resolve_raw.items()):
                p.add(key + ".resolve", "maps a group of the pattern to 'player' or 'side'")
            else:
                resolve = dict(resolve_raw)
            maps_raw = spec.get("maps", {})
            if isinstance(maps_raw, dict):
                maps = {k: {str(a).upper(): b for a, b in v.items()} for k, v in maps_raw.items() if isinstance(v, dict)}
        bound_names = setup_names
        fmin = comp(spec["min"], key + ".min", bound_names) if "min" in spec else None
        fmax = comp(spec["max"], key + ".max", bound_names) if "max" in spec else None
        req_if = comp(spec["required_if"], key + ".required_if", typed_names) if "required_if" in spec else None
        applies_if = comp(spec["applies_if"], key + ".applies_if", typed_names) if "applies_if" in spec else None
        total = None
        if "total" in spec:
            if scope not in ("player", "side") or ftype not in ("int", "number"):
                p.add(key + ".total", "only a number field of each player or side can add up to a total")
            else:
                total = comp(spec["total"], key + ".total", typed_names)
        bidding = spec.get("bidding", False)
        if not isinstance(bidding, bool):
            p.add(key + ".bidding", "must be true or false")
            bidding = False
        default_from = None
        if "default_from" in spec:
            if "default" in spec:
                p.add(key + ".default_from", "a field has a default or a default_from, not both")
            default_from = comp(spec["default_from"], key + ".default_from",
                                {"hand": typed_names, "player": player_typed, "side": side_typed}.get(scope, typed_names))
        combos: dict[str, Combo] = {}
        rest = None
        if ftype == "combos":
            combos, rest = _read_combos(spec, key, scope, fields_raw, comp, setup_names, p)
        elif "combos" in spec or "rest" in spec:
            p.add(key + ".combos", "combos and rest belong to a field of type combos")
        fields[fname] = FieldDef(fname, scope, ftype, fmin, fmax, words, values, synonyms,
                                 spec.get("default"), bool(spec.get("optional", ftype == "combos")), req_if,
                                 str(spec.get("help", "")), pattern, parts, maps, resolve,
                                 applies_if, total, bidding, default_from, combos, rest)
    _field_order(fields, p)   # refuses applies_if and total that depend on each other
    total_checks = [_total_check(f, comp, hand_ctx(), p) for f in fields.values() if f.total is not None]

    hand_lets = []
    known_now = typed_names | all_of(side_counters)
    for lname, src in hand_let_raw.items():
        f = comp(src, f"let.{lname}", known_now)
        if f:
            hand_lets.append(Let(lname, f))
        known_now.add(lname)  # in place: a copy per let made many lets quadratic
    player_known = (known_now | player_fields | {f"others_{n}" for n in player_fields}
                    | {f"team_{n}" for n in player_fields} | side_fields | side_counters
                    | {f"others_{n}" for n in side_fields | side_counters}
                    | {"me", "seat", "side", "side_no"})
    player_lets = []
    for lname, src in player_let_raw.items():
        f = comp(src, f"player.{lname}", player_known)
        if f:
            player_lets.append(Let(lname, f))
        player_known |= {lname, f"all_{lname}", f"others_{lname}", f"team_{lname}"}
    side_known = (known_now | all_of(player_level) | side_fields | side_counters
                  | {f"others_{n}" for n in side_fields | side_counters} | player_level
                  | {f"team_{n}" for n in player_level} | {"me", "side_no", "members"})
    side_lets = []
    for lname, src in side_let_raw.items():
        f = comp(src, f"side.{lname}", side_known)
        if f:
            side_lets.append(Let(lname, f))
        side_known |= {lname, f"all_{lname}", f"others_{lname}"}

    checks = [c for c in total_checks if c is not None]
    for i, spec in enumerate(_list(data, "check", p)):
        key = f"check[{i}]"
        _unknown(spec, CHECK_KEYS, key, p)
        per = spec.get("per", "hand")
        names = {"hand": hand_ctx(), "player": player_ctx_names, "side": side_ctx_names}.get(per)
        if names is None:
            p.add(key + ".per", "must be hand, player or side")
            continue
        if "ok" not in spec or "message" not in spec:
            p.add(key, "a check needs ok (the condition that must hold) and message")
            continue
        ok = comp(spec["ok"], key + ".ok", names)
        when = comp(spec["when"], key + ".when", names) if "when" in spec else None
        msg, parts_f = _template(str(spec["message"]), key + ".message", names, comp, p)
        if ok:
            checks.append(Check(str(spec.get("id", f"check{i}")), per, ok, when, msg, parts_f))

    state_names = {"hand": hand_ctx(), "player": player_ctx_names, "side": side_ctx_names}
    scores = []
    for i, spec in enumerate(_list(data, "score", p)):
        key = f"score[{i}]"
        _unknown(spec, SCORE_KEYS, key, p)
        per = spec.get("per", "side")
        if per not in ("player", "side"):
            p.add(key + ".per", "must be player or side")
            continue
        names = state_names[per]
        pts = comp(spec.get("points"), key + ".points", names) if "points" in spec else None
        if "points" not in spec:
            p.add(key, "a score line needs points")
        when = comp(spec["when"], key + ".when", names) if "when" in spec else None
        to = spec.get("to", ["score"])
        if isinstance(to, str):
            to = [to]
        for counter in to:
            if counter not in side_state_raw and counter != "score":
                p.add(key + ".to", f"{counter!r} is not a side counter in [state.side]")
        if pts:
            scores.append(ScoreItem(str(spec.get("id", f"score{i}")), per,
                                    str(spec.get("label", f"item {i + 1}")), pts, when, tuple(to)))

    side_state = {}
    init_names = setup_names | {"seat", "side_no", "me", "members"}
    for cname, src in side_state_raw.items():
        f = comp(src, f"state.side.{cname}", init_names)
        if f:
            side_state[cname] = f
    game_state = {}
    for cname, src in game_state_raw.items():
        f = comp(src, f"state.game.{cname}", setup_names)
        if f:
            game_state[cname] = f

    rule_side = side_ctx_names | {"gained", "all_gained", "finished_early"}
    rule_game = hand_ctx({"all_gained", "finished_early"})
    rules = []
    for i, spec in enumerate(_list(data, "rule", p)):
        key = f"rule[{i}]"
        _unknown(spec, RULE_KEYS, key, p)
        per = spec.get("per", "side")
        if per not in ("side", "game"):
            p.add(key + ".per", "must be side or game")
            continue
        on = spec.get("on", "hand")
        if on not in ("hand", "end", "finish"):
            p.add(key + ".on", "must be hand, end or finish")
        names = rule_side if per == "side" else rule_game
        when = comp(spec["when"], key + ".when", names) if "when" in spec else None
        actions = {}
        for action in ("set", "add", "set_all"):
            raw = spec.get(action, {})
            if not isinstance(raw, dict):
                p.add(f"{key}.{action}", "must be a table like { counter = formula }")
                raw = {}
            items = []
            for cname, src in raw.items():
                allowed = (side_counters - {"status"}) | (game_counters if action != "set_all" else set())
                if per == "game" and action != "set_all":
                    allowed = game_counters
                if cname not in allowed:
                    known = ", ".join(sorted(allowed)) or "none"
                    p.add(f"{key}.{action}.{cname}", f"is not a counter this rule can change (counters: {known})")
                    continue
                f = comp(src, f"{key}.{action}.{cname}", names)
                if f:
                    items.append((cname, f))
            actions[action] = tuple(items)
        mark = spec.get("mark")
        if mark is not None and mark not in MARKS:
            p.add(key + ".mark", f"must be one of {', '.join(MARKS)}")
        if mark is not None and per == "game":
            p.add(key + ".mark", "only a per-side rule can mark a side")
        msg, parts_f = _template(str(spec.get("message", "")), key + ".message", names, comp, p)
        rules.append(Rule(str(spec.get("id", f"rule{i}")), per, on, when, actions["set"],
                          actions["add"], actions["set_all"], mark, bool(spec.get("end", False)),
                          str(spec.get("label", spec.get("message", spec.get("id", f"rule {i + 1}")))),
                          msg, parts_f, bool(spec.get("include_out", False))))

    next_dealer = comp(pl["next_dealer"], "players.next_dealer", rule_game) if "next_dealer" in pl else None
    end_raw = _table(data, "end", p, END_KEYS)
    end_when = comp(end_raw["when"], "end.when", hand_ctx()) if "when" in end_raw else None
    winner = end_raw.get("winner", "highest")
    if winner not in WINNER_MODES:
        p.add("end.winner", f"must be one of {', '.join(WINNER_MODES)}")
    tie = end_raw.get("tie", "draw")
    if tie not in ("draw", "continue"):
        p.add("end.tie", "must be draw or continue")
    rank = end_raw.get("rank", "lowest" if winner == "lowest" else "highest")
    if rank not in ("highest", "lowest"):
        p.add("end.rank", "must be highest or lowest (which total is better)")
    first_to = comp(end_raw["first_to"], "end.first_to", hand_ctx()) if "first_to" in end_raw else None
    rest_of_deal = end_raw.get("rest_of_deal", "void")
    if rest_of_deal not in ("void", "scored"):
        p.add("end.rest_of_deal", "must be void (the points after the winning one are not scored) or scored")
    if "rest_of_deal" in end_raw and "first_to" not in end_raw:
        p.add("end.rest_of_deal", "applies only with end.first_to")
    if "first_to" in end_raw:
        if "when" in end_raw:
            p.add("end.when", "is not used with end.first_to (reaching first_to ends the game)")
        if winner != "highest" or rank != "highest":
            p.add("end.winner", "must be highest with end.first_to")
    end = EndRule(end_when, winner, tie, rank, str(end_raw.get("description", "")), first_to, rest_of_deal)

    display = _table(data, "display", p, DISPLAY_KEYS)
    display_side = {}
    for label, src in (display.get("side", {}) or {}).items():
        f = comp(src, f"display.side.{label}", setup_names | game_counters | side_counters
                 | all_of(side_counters) | {f"others_{n}" for n in side_counters}
                 | {"me", "side_no", "members"})
        if f:
            display_side[label] = f
    display_next = {}
    for label, src in (display.get("next", {}) or {}).items():
        f = comp(src, f"display.next.{label}", hand_base | all_of(side_counters))
        if f:
            display_next[label] = f
    info = tuple(_strlist(display.get("info", []), "display.info", p))
    sheet_below = display.get("sheet_below")
    if sheet_below is not None and sheet_below not in side_state_raw:
        p.add("display.sheet_below", "names the side counter whose points are written below the line")

    if p.items:
        raise RulesetError(p.items[0] if len(p.items) == 1 else f"{len(p.items)} problems in {source}", p.items)
    ruleset = Ruleset(
        id=rid, name=name or rid, names=native_names, aliases=tuple(aliases), description=description or "",
        notes=tuple(notes), variant=variant, variants=variants, min_players=min_p, max_players=max_p,
        sides_kind=sides_kind, seats=seats, side_names=side_names, partnerships=partnerships,
        deck=deck, card_values=card_values, options=options, fields=fields, tables=tables,
        hand_lets=tuple(hand_lets), player_lets=tuple(player_lets), side_lets=tuple(side_lets),
        checks=tuple(checks), scores=tuple(scores), side_state=side_state, game_state=game_state,
        rules=tuple(rules), end=end, display_side=display_side, display_next=display_next,
        display_info=info, sheet_below=sheet_below, next_dealer=next_dealer, text=text, source=source, data=data)
    for key, message in cost_problems(ruleset):  # formulas that could make a hand take too long
        p.add(key, message)
    if p.items:
        raise RulesetError(p.items[0] if len(p.items) == 1 else f"{len(p.items)} problems in {source}", p.items)
    return ruleset


def _read_combos(spec: Mapping[str, Any], key: str, scope: str, fields_raw: Mapping[str, Any], comp: Any,
                 names: set[str], p: _Problems) -> tuple[dict[str, Combo], str | None]:
    """`[fields.X.combos]`: code = { field = "four_kings", points = 80, adds = "count" }."""
    raw = spec.get("combos")
    if not isinstance(raw, dict) or not raw:
        p.add(key + ".combos", "a combos field needs a table of combinations: code = { field = ..., points = ... }")
        return {}, None

    def target_ok(target: Any, where: str) -> bool:
        tspec = fields_raw.get(target) if isinstance(target, str) else None
        if not isinstance(tspec, dict):
            p.add(where, f"{target!r} is not a field of this ruleset")
            return False
        if tspec.get("scope", "hand") != scope or tspec.get("type", "int") not in ("int", "number"):
            p.add(where, f"{target} must be a number field of the same scope ({scope})")
            return False
        return True

    combos: dict[str, Combo] = {}
    for code, entry in raw.items():
        where = f"{key}.combos.{code}"
        if not COMBO_CODE_RE.match(str(code)) or str(code).replace(".", "").isdigit():
            p.add(where, "a code is up to 20 characters without spaces, commas or =, and not a number "
                         "(numbers stand for a combination's points)")
            continue
        if not isinstance(entry, dict):
            p.add(where, "must be a table like { field = \"four_kings\", points = 80 }")
            continue
        _unknown(entry, COMBO_KEYS, where, p)
        adds = entry.get("adds", "count")
        if adds not in ("count", "points"):
            p.add(where + ".adds", "must be count (1 per combination) or points (its points)")
            continue
        if "points" not in entry:
            p.add(where + ".points", "every combination has points (a number or a formula of options and tables)")
            continue
        if not target_ok(entry.get("field"), where + ".field"):
            continue
        points = comp(entry["points"], where + ".points", names)
        if points is not None:
            if str(code).upper() in combos:
                p.add(where, "the same code twice (codes are read without regard to case)")
            combos[str(code).upper()] = Combo(str(code), str(entry["field"]), points, adds)
    rest = spec.get("rest")
    if rest is not None and not target_ok(rest, key + ".rest"):
        rest = None
    return combos, rest


def field_refs(formula: Formula | None, fields: Mapping[str, FieldDef]) -> set[str]:
    """The typed fields a formula uses: `all_tricks`, `others_tricks`, `contract_level` all use their field."""
    if formula is None:
        return set()
    out: set[str] = set()
    for name in formula.names:
        base = name
        for prefix in ("all_", "others_", "team_"):
            base = base.removeprefix(prefix)
        if base in fields:
            out.add(base)
            continue
        for fname, fdef in fields.items():
            if fdef.type == "pattern" and name.startswith(fname + "_") and name[len(fname) + 1:] in fdef.parts:
                out.add(fname)
    return out


def _field_order(fields: Mapping[str, FieldDef], p: _Problems) -> tuple[str, ...]:
    """Fields in file order, except that a field comes after the fields its applies_if, total or
    default_from use (so each is worked out from values already known). applies_if and total must not
    depend on each other in a circle; default_from may (each is then worked out from the other when
    only that one was typed: the soloist's points from the pair's, or the pair's from the soloist's)."""
    strict = {name: (field_refs(f.applies_if, fields) | field_refs(f.total, fields)) - {name}
              for name, f in fields.items()}
    soft = {name: field_refs(f.default_from, fields) - {name} - strict[name] for name, f in fields.items()}
    for name, f in fields.items():
        for key, formula in (("applies_if", f.applies_if), ("default_from", f.default_from), ("total", f.total)):
            if name in field_refs(formula, fields) and key != "default_from":
                p.add(f"fields.{name}.{key}", f"uses the field {name} itself")
            elif name in field_refs(formula, fields):
                p.add(f"fields.{name}.{key}", f"works {name} out from {name} itself")
        if f.bidding:
            for key, formula in (("applies_if", f.applies_if), ("required_if", f.required_if),
                                 ("default_from", f.default_from), ("total", f.total)):
                late = sorted(n for n in field_refs(formula, fields) if not fields[n].bidding)
                if late:
                    p.add(f"fields.{name}.{key}", f"a bidding field cannot depend on {', '.join(late)}, "
                                                  "which is typed after the play (mark it bidding = true too)")
    order: list[str] = []
    placed: set[str] = set()
    visiting: list[str] = []
    file_order = list(fields)

    def place(name: str, via_default_from: bool) -> None:
        if name in placed:
            return
        if name in visiting:
            if not via_default_from:
                cycle = visiting[visiting.index(name):]
                p.add(f"fields.{name}", f"the applies_if or total of the fields {' and '.join(cycle)} "
                                        "depend on each other")
            return
        visiting.append(name)
        for dep in sorted(strict[name], key=file_order.index):
            place(dep, False)
        for dep in sorted(soft[name], key=file_order.index):
            place(dep, True)
        visiting.pop()
        placed.add(name)
        order.append(name)

    for name in fields:
        place(name, False)
    return tuple(order)


def _total_check(f: FieldDef, comp: Any, names: set[str], p: _Problems) -> Check | None:
    """The automatic check of a field's `total`: "the tricks must add up to 13, they add up to 12"."""
    assert f.total is not None
    key = f"fields.{f.name}.total"
    total_src = f.total.source
    ok = comp(f"({total_src}) == none or sum(all_{f.name}) == ({total_src})", key, names)
    label = f.name.replace("_", " ")
    message = f"the {label} must add up to {{{total_src}}}, they add up to {{sum(all_{f.name})}}"
    text, parts = _template(message, key, names, comp, p)
    if ok is None:
        return None
    return Check(f"{f.name}_total", "hand", ok, f.applies_if, text, parts, f.name)


TEMPLATE_RE = re.compile(r"\{([^{}]+)\}")


def _template(text: str, key: str, names: set[str], comp: Any,
              p: _Problems | None = None) -> tuple[str, tuple[Formula, ...]]:
    """A message with `{formula}` parts; the parts are compiled once, like every formula."""
    parts = []
    for i, m in enumerate(TEMPLATE_RE.finditer(text)):
        f = comp(m.group(1), f"{key}{{{i}}}", names)
        if f:
            parts.append(f)
    rest = TEMPLATE_RE.sub("", text)
    if p is not None and ("{" in rest or "}" in rest):
        p.add(key, "a { or } without its partner (write {formula}, one formula between a pair of braces)")
    return text, tuple(parts)


def _compile_pattern(spec: dict[str, Any], key: str, p: _Problems) -> tuple[re.Pattern[str] | None, tuple[str, ...]]:
    src = spec.get("pattern")
    if not isinstance(src, str) or len(src) > 300:
        p.add(key + ".pattern", "a pattern field needs a pattern (a regular expression up to 300 characters)")
        return None, ()
    # Refuse the shapes that make regular expressions slow: repeated groups, backreferences,
    # and many unbounded repeats. Inputs are also capped at 40 characters.
    if re.search(r"\)[*+{]", src) or re.search(r"\\[1-9]|\(\?P=", src) or len(re.findall(r"[*+]|\{\d*,\}", src)) > 3:
        p.add(key + ".pattern", "the pattern may not repeat a group, refer back, or use more than 3 unbounded repeats")
        return None, ()
    try:
        pattern = re.compile(src, re.IGNORECASE)
    except re.error as exc:
        p.add(key + ".pattern", f"not a valid pattern: {exc}")
        return None, ()
    if _pattern_paths(src) > MAX_PATTERN_PATHS:
        p.add(key + ".pattern", "the pattern has too many ways to match (optional or repeated parts in a row); "
                                "it could make scorepad hang on a typed value")
        return None, ()
    parts = tuple(spec.get("parts", list(pattern.groupindex)))
    missing = [part for part in parts if part not in pattern.groupindex]
    if missing:
        p.add(key + ".parts", f"the pattern has no named group for {missing}")
    return pattern, parts


MAX_PATTERN_PATHS = 20000
MAX_INPUT = 40  # typed pattern values are at most 40 characters (assign.py)


def _pattern_paths(src: str) -> float:
    """An upper bound on the ways a backtracking matcher can try the pattern on a 40-character input.

    Each repeat multiplies by the counts it can take (at most 41), each alternation adds its branches;
    `a?` thirty times or `a{0,40}` eight times in a row is refused, the bridge contract pattern costs 39.
    """
    try:
        import re._parser as sre_parse
    except ImportError:  # pragma: no cover - before Python 3.11
        import sre_parse

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


def _oversized(value: Any, key: str) -> list[tuple[str, str]]:
    """Numbers beyond ±10^15 (or inf/nan) and text over 10,000 characters anywhere in the file."""
    out: list[tuple[str, str]] = []
    stack: list[tuple[Any, str]] = [(value, key)]
    while stack and len(out) < 20:
        item, where = stack.pop()
        if isinstance(item, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k)) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(item))
        elif isinstance(item, bool):
            continue
        elif isinstance(item, (int, float)):
            if not math.isfinite(item) or abs(item) > MAX_NUMBER:
                out.append((where, "number too large (numbers in a ruleset are at most ±10^15)"))
        elif isinstance(item, str) and len(item) > MAX_TEXT:
            out.append((where, f"the text is longer than {MAX_TEXT} characters"))
    return out


def _table(data: Mapping[str, Any], key: str, p: _Problems, allowed: set[str] | None) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        p.add(key, "must be a table")
        return {}
    if allowed is not None:
        _unknown(value, allowed, key, p)
    return value


def _list(data: Mapping[str, Any], key: str, p: _Problems) -> list[dict[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        p.add(key, f"must be a list of tables ([[{key}]])")
        return []
    return value


def _unknown(value: Mapping[str, Any], allowed: set[str], key: str, p: _Problems) -> None:
    for k in value:
        if k not in allowed:
            p.add(f"{key}.{k}", f"unknown key (known: {', '.join(sorted(allowed))})")


def _name_ok(name: str, key: str, p: _Problems) -> bool:
    if not NAME_RE.match(name) or name.startswith(("all_", "others_", "team_", "_")):
        p.add(key, "a name is lower-case letters, digits and _ (not starting with all_, others_ or team_)")
        return False
    return True


def _str(table: Mapping[str, Any], k: str, key: str, p: _Problems, required: bool = False) -> str:
    value = table.get(k)
    if value is None:
        if required:
            p.add(key, "is required")
        return ""
    if not isinstance(value, str):
        p.add(key, "must be text")
        return ""
    return value


def _strlist(value: Any, key: str, p: _Problems) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        p.add(key, "must be a list of text")
        return []
    return value


def _strmap(value: Any, key: str, p: _Problems) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        p.add(key, "must be a table of language = name")
        return {}
    return dict(value)


def _int(value: Any, key: str, p: _Problems, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        p.add(key, f"must be a whole number {low}..{high}")
        return low
    return value
