"""What a loaded ruleset is: frozen records of each section, and the Ruleset that holds them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import scorepad.rules.cards as cardlib
from scorepad.locale import N_, Said
from scorepad.rules.expr import Formula
from scorepad.rules.problems import Problems
from scorepad.rules.reading import Reading, build_reading


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    values: tuple[Any, ...] | None
    min: int | float | None
    max: int | float | None
    help: str
    label: str = ""                                  # the name players read in the language ("" = the id)
    value_names: Mapping[str, str] = field(default_factory=dict)   # a word value -> its word in the language

    def shown_name(self) -> str:
        """The option as the interface names it: its name in the language, else its id."""
        return self.label or self.name

    def shown_value(self, value: Any) -> Any:
        """A value as the interface says it: a word value in the language's word, anything else as it is."""
        return self.value_names.get(value, value) if isinstance(value, str) else value


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
class Statistic:
    """A number the players of a game keep over their hands: each hand, per player or side, the hands
    where `formula` holds are counted (`kind` "count"), its values added up ("sum") or averaged over
    the hands where `of` holds ("mean"), or the hands where it holds counted out of those where `of`
    holds ("rate": made / of); its largest or smallest value over those hands ("max", "min"); or, per
    game, the number of the first hand in which it holds ("first", averaged over the games it held in)."""

    id: str
    name: str
    per: str
    kind: str
    formula: Formula
    of: Formula | None = None   # mean, max, min (optional) and rate (required): the hands it is taken over
    reads_breakdown: bool = False   # calls line() or rule(): needs the hand's stored breakdown


STORED_LINES = "__lines"
"""The key of a statistic's names that holds, by [[score]] id, the points this player (side) got from
each score line in the hand as stored; `line(id)` reads it (a formula cannot name it: no name has __)."""
STORED_RULES = "__rules"
"""The same for what each [[rule]] wrote into the side's score in the hand; `rule(id)` reads it."""


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
    display_info_when: tuple[Formula | None, ...]   # per info line, when it is shown (empty: always)
    sheet_below: str | None
    next_dealer: Formula | None
    text: str
    source: str
    data: dict[str, Any] = field(repr=False, default_factory=dict)
    statistics: tuple[Statistic, ...] = ()   # [stats]: counted over a player's hands, never scored
    # field-name aliases of a translation (`tihid` -> `tricks`), set by translation.translate()
    field_aliases: dict[str, str] = field(default_factory=dict)
    # a translation's words for what [display] formulas show (`neither` -> `никто`), set by translate()
    display_words: dict[str, str] = field(default_factory=dict)
    # a game's pinned ruleset: the file as written, whose [translations] are checked language by
    # language when shown (translation.check_translations); None when they were checked at loading
    unchecked_translations: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    checked_languages: set[str] = field(default_factory=set, repr=False, compare=False)   # found right since
    # the ruleset's texts in each language it was shown in (translation.translate), built once per language
    # and shared by every game of this ruleset; formulas are never in a view of their own
    views: dict[str, Ruleset] = field(default_factory=dict, repr=False, compare=False)
    own: Ruleset | None = field(default=None, repr=False, compare=False)   # a view's ruleset (its own texts)

    @cached_property
    def field_order(self) -> tuple[str, ...]:
        """The fields in the order their values are worked out (see assign.py); checked when loading."""
        return field_order(self.fields, Problems(self.source))

    @cached_property
    def question_order(self) -> tuple[str, ...]:
        """The fields in the order the prompt asks them (see question_order)."""
        return question_order(self.fields)

    @cached_property
    def reading(self) -> Reading:
        """The field names and value words players type, in every language of the file (built on first use)."""
        return build_reading(self)

    @cached_property
    def seats_typed(self) -> dict[str, dict[str, int]]:
        """The seat letters and side names the languages of the file give (`[translations.ru] seats =
        ["С", "В", "Ю", "З"]`), read whatever the interface speaks: "seats"/"side_names" -> the name
        in lower case -> its index. A name two languages give to different seats means neither."""
        out: dict[str, dict[str, int]] = {"seats": {}, "side_names": {}}
        table = self.data.get("translations", {})
        clashes: set[tuple[str, str]] = set()
        for tr in table.values() if isinstance(table, dict) else ():
            for k, names in out.items():
                for i, name in enumerate(tr.get(k, ()) if isinstance(tr, dict) else ()):
                    low = str(name).strip().lower()
                    if names.setdefault(low, i) != i:
                        clashes.add((k, low))
        for k, low in clashes:
            del out[k][low]
        return out

    def seat_shown(self, kind: str, index: int, lang: str) -> str | None:
        """A seat's letter or a side's name in `lang` (kind "seats" or "side_names"), None if it has none."""
        table = self.data.get("translations", {})
        tr = table.get(lang) if isinstance(table, dict) else None
        names = tr.get(kind) if isinstance(tr, dict) else None
        return str(names[index]) if isinstance(names, list) and index < len(names) else None

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
        raise TypeError(Said(N_("a card, rank or suit is a word like 'QS', 'Q' or 'S', not a list")))
    return str(value)


# ---- which fields a formula reads, and the order fields are worked out in (the loader checks it)

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


def decided_by(fdef: FieldDef, fields: Mapping[str, FieldDef]) -> set[str]:
    """The fields that decide whether a field belongs to the hand and what fills it in: those its
    applies_if and total read."""
    return (field_refs(fdef.applies_if, fields) | field_refs(fdef.total, fields)) - {fdef.name}


def question_order(fields: Mapping[str, FieldDef]) -> tuple[str, ...]:
    """The order a person is asked the fields in: the ruleset's order, the bidding fields first (the
    bids are made before the play), except that a field waits for the fields that decide whether and
    how it is asked. Those are the fields its applies_if and total
    read (decided_by), and those its required_if reads that have a value whether typed or not (a
    default, or required): Pinochle's `conceded` comes before the card points it makes unnecessary.
    A field that is another form of the same value does not move a field: an optional one its
    required_if reads (bridge's `result` beside `tricks`), or one its default_from reads (Canasta's
    `melded_cards` beside `melded`); the ruleset's order says which form is asked first."""
    needs = {name: decided_by(f, fields) | {n for n in field_refs(f.required_if, fields) - {name}
                                            if fields[n].default is not None or not fields[n].optional}
             for name, f in fields.items()}
    out: list[str] = []
    waiting = sorted(fields, key=lambda name: not fields[name].bidding)
    while waiting:
        later = set(waiting)
        ready = next((n for n in waiting if not (needs[n] & later)
                      or any(n in needs[m] for m in needs[n] & later)), waiting[0])   # in a circle: the first
        out.append(ready)
        waiting.remove(ready)
    return tuple(out)


def field_order(fields: Mapping[str, FieldDef], p: Problems) -> tuple[str, ...]:
    """Fields in file order, except that a field comes after the fields its applies_if, total or
    default_from use (so each is worked out from values already known). applies_if and total must not
    depend on each other in a circle; default_from may (each is then worked out from the other when
    only that one was typed: the soloist's points from the pair's, or the pair's from the soloist's)."""
    strict = {name: decided_by(f, fields) for name, f in fields.items()}
    soft = {name: field_refs(f.default_from, fields) - {name} - strict[name] for name, f in fields.items()}
    for name, f in fields.items():
        for key, formula in (("applies_if", f.applies_if), ("default_from", f.default_from), ("total", f.total)):
            if name in field_refs(formula, fields) and key != "default_from":
                p.add(f"fields.{name}.{key}", Said(N_("uses the field {name} itself"), name=name))
            elif name in field_refs(formula, fields):
                p.add(f"fields.{name}.{key}", Said(N_("works {name} out from {name} itself"), name=name))
        if f.bidding:
            for key, formula in (("applies_if", f.applies_if), ("required_if", f.required_if),
                                 ("default_from", f.default_from), ("total", f.total)):
                late = sorted(n for n in field_refs(formula, fields) if not fields[n].bidding)
                if late:
                    p.add(f"fields.{name}.{key}", Said(N_("a bidding field cannot depend on {fields}, which is typed "
                                                          "after the play (mark it bidding = true too)"),
                                                       fields=", ".join(late)))
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
                p.add(f"fields.{name}", Said(N_("the applies_if or total of the fields {fields} depend on each other"),
                                             fields=cycle))
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
