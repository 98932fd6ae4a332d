"""Turning what a person types (`bid=4,3,3,3`, `ann.tricks=5`, `contract=4HX`) into a typed hand.

The three assignment forms of the CLI contract, forgiving input (names by unique prefix, seats,
`♠` or `S`, `nil`, yes/no in the players' languages), and one plain sentence per problem.
Missing required fields are reported as a list so the CLI can ask for them on a terminal.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import scorepad.rules.cards as cardlib
from scorepad.engine.game import (
    Game,
    Hand,
    State,
    active_players,
    base_env,
    current_dealer,
    pattern_parts,
    run_checks_on,
)
from scorepad.errors import FormulaError, HandError, UserError
from scorepad.limits import number_ok
from scorepad.locale import N_, Said, _, current, ngettext
from scorepad.locale import NO_WORDS as NO
from scorepad.locale import YES_WORDS as YES
from scorepad.rules.expr import Formula
from scorepad.rules.model import Check, FieldDef, Ruleset, field_refs
from scorepad.rules.prose import condition_words
from scorepad.rules.reading import Meaning
from scorepad.rules.reading import key as reading_key
from scorepad.rules.values import format_value
from scorepad.rules.vocabulary import Vocabulary

MAX_VALUE_LENGTH = 200


@dataclass(frozen=True)
class Missing:
    """A required value nobody typed: the field, and for whom (a player or side index, or None)."""

    field: str
    who: int | None


@dataclass
class RawHand:
    """Typed text per field, before conversion: hand fields a string, others a list per seat/side."""

    values: dict[str, Any]
    typed: list[str]
    worked_out: list[str] = field(default_factory=list)   # values scorepad filled in (totals, default_from)
    # the same values as the language shown names them (`даня.взятки=5`); `worked_out` keeps the
    # ruleset's ids (`даня.tricks=5`), which the prompt matches and JSON shows
    worked_out_shown: list[str] = field(default_factory=list)
    # of those, the values a row left out and its total gives (`tricks=5,3,3` for four): shown as read
    # and asked to be confirmed, since a row short by one may as well be a value forgotten
    rest_of_total: list[str] = field(default_factory=list)


def field_range(game: Game, fdef: FieldDef, state: State | None = None,
                env: Mapping[str, Any] | None = None) -> tuple[Any, Any]:
    """The legal range of a number field; bounds that read the coming hand (`hand_no`, counters:
    Sitaratas bids 0 up to the cards dealt) see it when the game's `state` (or an `env` that has
    them) is given, and are left open (None) without one (`rules show`)."""
    low, high = fdef.min, fdef.max  # written-out bounds (most) need no context to be built
    if (low is None or low.constant is not None) and (high is None or high.constant is not None):
        return (None if low is None else low.constant), (None if high is None else high.constant)
    if env is None:
        env = base_env(game)
        if state is not None:
            env.update(hand_context(game, state))
    return _bound(fdef.min, env), _bound(fdef.max, env)


def _bound(formula: Formula | None, env: Mapping[str, Any]) -> Any:
    if formula is None:
        return None
    try:
        return formula(env)
    except FormulaError:
        return None            # a bound that reads the coming hand, asked without one


ASIDE = re.compile(r"\s*\([^()]*\)")
FEW_WORDS = 4        # a list of words this long or shorter is said with a shortened question


def question_legal(game: Game, fdef: FieldDef, state: State | None = None, room: int | None = None) -> str:
    """The legal values said with a question, on one line where they can be: as `describe_field`;
    where that is longer than `room` characters, a pattern is said by its help with a long list of
    words left out (`?` and Tab still give them), then also without the asides in brackets, whichever
    first fits (1000's marriages). A text that fits neither way is said whole: shortened, it would
    lose what it says and still not fit."""
    full = describe_field(game, fdef, state)
    if room is None or len(full) <= room or fdef.type != "pattern" or not fdef.help:
        return full
    words = words_shown(game.ruleset, fdef)
    kept = [", ".join(words)] if words and len(words) <= FEW_WORDS else []
    for said in (fdef.help, ASIDE.sub("", fdef.help)):
        shorter = "; ".join([said, *kept])
        if len(shorter) <= room:
            return shorter
    return full


def describe_field(game: Game, fdef: FieldDef, state: State | None = None) -> str:
    """The legal values of a field, as the prompt and `rules show` print them."""
    parts: list[str] = []
    if fdef.type in ("int", "number"):
        low, high = field_range(game, fdef, state)
        if low is not None and high is not None:
            parts.append(f"{low}-{high}")
        elif low is not None:
            parts.append(_("{low} or more").format(low=low))
        elif high is not None:
            parts.append(_("up to {high}").format(high=high))
        else:
            parts.append(_("a number"))
    elif fdef.type == "bool":
        parts.append(_("yes/no"))
    elif fdef.type == "word" and (current() == "en" or words_shown(game.ruleset, fdef) == list(fdef.words)):
        parts.append("/".join(fdef.values))       # else the language's words for them, below
    elif fdef.type == "player":
        parts.append(_("a player: {names}").format(names=", ".join(players_offered(game, state))))
    elif fdef.type == "side":
        parts.append(_("a side: {names}").format(names=", ".join(s.name for s in game.sides)))
    elif fdef.type == "cards":
        low, high = field_range(game, fdef, state)
        if low is not None and low == high:
            parts.append(ngettext("{n} card like QS or 10H", "{n} cards like QS 10H A", low).format(n=low))
        elif low is not None or high is not None:
            count = (f"{low}-{high}" if low is not None and high is not None else
                     _("{low} or more").format(low=low) if low is not None else _("up to {high}").format(high=high))
            parts.append(_("{count} cards like QS 10H A").format(count=count)
                         + ("" if low else ", " + _("or - for none")))
        else:
            parts.append(_("cards like QS 10H A, or - for none"))
    elif fdef.type == "pattern":
        parts.append(fdef.help or _("see rules show"))
    elif fdef.type == "combos":
        named = _combo_names(game.ruleset, fdef)
        first = ([k for k in fdef.combos if k in named] or list(fdef.combos))[:4]   # named ones first
        example = " ".join(named.get(k, fdef.combos[k].code) for k in first) + (
            " 2x" + named.get(first[0], fdef.combos[first[0]].code) if first else "")
        parts.append(_("combinations by code or points, e.g. {example}; - for none").format(example=example))
    words = words_shown(game.ruleset, fdef)
    if words:
        parts.append(", ".join(words))
    return "; ".join(parts)


def _combo_names(rs: Ruleset, fdef: FieldDef) -> dict[str, str]:
    """Each combination's first name in the language shown (`пинокль` for PINOCHLE); none in English,
    whose players type the codes. A word for two combinations (Piquet's кварта) names neither: typed,
    it is refused with both readings."""
    lang = current()
    if lang == "en":
        return {}
    names: dict[str, str] = {}
    for word in rs.reading.written(fdef.name, lang):
        meanings = rs.reading.word(fdef.name, word)
        if len(meanings) == 1 and meanings[0].kind == "combo" and lang in meanings[0].langs:
            names.setdefault(str(meanings[0].value), word)
    return names


def combos_said(rs: Ruleset, fdef: FieldDef) -> list[tuple[str, str]]:
    """Each combination of a field once, as a player of the language shown names it: (its name there,
    e.g. `марьяж`, else its code; the key of the combination). Codes for one combination (`marriage`
    and `m`: the same field and points) are one entry, by the name any of them has: the list a refusal
    offers, and `rules show`, stay short."""
    named = _combo_names(rs, fdef)
    same: dict[tuple[str, str, str], list[str]] = {}
    for code, combo in fdef.combos.items():
        same.setdefault((combo.field, combo.adds, combo.points.source), []).append(code)
    return [(next((named[c] for c in codes if c in named), fdef.combos[codes[0]].code), codes[0])
            for codes in same.values()]


def words_shown(rs: Ruleset, fdef: FieldDef) -> list[str]:
    """The words a field takes as the language shown offers them: its own words in English; in
    another language that language's words (and the signs, `-` `=`), or the own ones when it has
    none. Every language's words are read whatever is shown."""
    lang = current()
    if lang == "en" or not (fdef.words or (fdef.type == "word" and fdef.values)):
        return list(fdef.words)
    mine = [w for w in rs.reading.written(fdef.name, lang) if any(ch.isalpha() for ch in w)]
    signs = [w for w in fdef.words if not any(ch.isalpha() for ch in w)]
    return [*mine, *signs] if mine else list(fdef.words)


def words_listed(rs: Ruleset, fdef: FieldDef) -> list[str]:
    """Every word a field takes, as `rules show` lists them (each is read, whatever the language):
    those of the language shown first, then the signs, the own (English) words last."""
    shown = words_shown(rs, fdef)
    taken = {reading_key(w) for w in shown}
    return [*shown, *(w for w in fdef.words if reading_key(w) not in taken)]


def field_label(rs: Ruleset, fname: str) -> str:
    """A field as a question or summary names it: its first name in the language shown, else its id."""
    lang = current()
    native = rs.reading.names_in(fname, lang) if lang != "en" else ()
    return native[0] if native else fname


def value_shown(rs: Ruleset, fdef: FieldDef, value: Any) -> str | None:
    """A typed value in the language shown where it has a word of its own (yes/no, `pole` for none);
    None where the value is written as it is (numbers, players, cards)."""
    lang = current()
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if lang == "en" or not isinstance(value, str) or not (fdef.words or fdef.values):
        return None   # a word field, or a field of values whose words the translation gives (Canasta's `обычно`)
    return rs.reading.shown(fdef.name, value, lang)


def split_assignments(game: Game, args: Sequence[str], strict: bool = False, bid: int = 0) -> RawHand:
    """Parse `field=value`, `who.field=value` and `field=v1,v2,...` into per-field raw text.

    `strict` (what a person types now) refuses a value given twice, naming both assignments (with
    two different values, both values); otherwise (text stored earlier, where an edit's values follow the hand's first ones) the
    last one wins. The first `bid` arguments are a bid written down by `scorepad bid`; a refusal says
    so, since the player did not type that value now. A list the shell split at its spaces
    (`bid=4,` `3,` `3,` `3`) is one assignment again (list_continued), and is kept so in `typed`.
    """
    values: dict[str, Any] = {}
    problems: list[str] = []
    given = _Given(game, strict, set(list_continued(args[:bid])), problems)
    pieces = list_continued(args)
    for arg in pieces:
        parsed = _parsed(game, arg, problems)
        if parsed is None:
            continue
        fdef, who_text, right = parsed
        count = len(game.players) if fdef.scope == "player" else len(game.sides)
        if who_text is not None:
            try:
                idx = resolve_who(game, who_text, fdef.scope)
            except UserError as exc:
                problems.append(exc.message)
                continue
            values.setdefault(fdef.name, [None] * count)[idx] = right
            given.once(fdef, idx, right, arg)
        elif fdef.scope == "hand":
            values[fdef.name] = right
            given.once(fdef, None, right, arg)
        else:
            items = row_items(game, fdef, right, problems)
            if items is None:
                continue
            slot = values.setdefault(fdef.name, [None] * count)
            for idx, item in enumerate(items):
                slot[idx] = item
                given.once(fdef, idx, item, arg)
    if problems:
        raise HandError(problems[0], problems)
    return RawHand(values, pieces)


def list_continued(args: Sequence[str]) -> list[str]:
    """The assignments of `args` with each piece that continues a list joined to it: `bid=4,` `3,`
    `3,` `3` (a line split by the shell at the spaces of `bid=4, 3, 3, 3`) is `bid=4, 3, 3, 3`, as
    `play` and the prompt read the line. A piece without `=` continues a list when the assignment
    before it ends with a comma or it begins with one; any other is left to be refused."""
    out: list[str] = []
    for arg in args:
        if "=" not in arg and out and "=" in out[-1] and (out[-1].rstrip().endswith(",")
                                                           or arg.lstrip().startswith(",")):
            out[-1] = f"{out[-1]} {arg}"
        else:
            out.append(arg)
    return out


def _parsed(game: Game, arg: str, problems: list[str]) -> tuple[FieldDef, str | None, str] | None:
    """One assignment as (field, who it is for or None, the value's text); None with the sentence
    added to `problems` when it is not one."""
    rs = game.ruleset
    if "=" not in arg:
        problems.append(_("{arg} is not an assignment; write field=value (fields: {fields})").format(
            arg=repr(arg), fields=field_names(rs)))
        return None
    left, _eq, right = arg.partition("=")
    left, right = left.strip(), right.strip()
    if len(right) > MAX_VALUE_LENGTH:
        problems.append(_("the value for {field} is too long").format(field=left))
        return None
    who_text, dot, fname = left.rpartition(".")
    try:
        fdef = find_field(rs, fname)
    except UserError as exc:
        problems.append(exc.message)
        return None
    if fdef is None:
        problems.append(_("{game} has no field {field} (fields: {fields})").format(
            game=rs.name, field=repr(fname.lower()), fields=field_names(rs)))
        return None
    if dot and fdef.scope == "hand":
        problems.append(_("{field} is a field of the whole hand; write {field}={value}").format(
            field=field_label(rs, fdef.name), value=right))
        return None
    return fdef, (who_text if dot else None), right


class _Given:
    """The values given so far, by field and seat: `strict` refuses one given twice."""

    def __init__(self, game: Game, strict: bool, from_bid: set[str], problems: list[str]) -> None:
        self.game, self.strict, self.from_bid, self.problems = game, strict, from_bid, problems
        self.seen: dict[tuple[str, int | None], tuple[str, str, bool]] = {}  # -> (value, as typed, from the bid)
        self.twice: set[tuple[str, str]] = set()   # the assignments already refused as the same value twice

    def once(self, fdef: FieldDef, idx: int | None, value: str, arg: str) -> None:
        key, now_bid = (fdef.name, idx), arg in self.from_bid
        before = self.seen.get(key)
        self.seen[key] = (value, arg, now_bid)
        if not self.strict or before is None:
            return
        who = None if idx is None else _who_names(self.game, fdef.scope)[idx]
        name = field_label(self.game.ruleset, fdef.name)
        label = f"{who}.{name}" if who else name
        if before[0].casefold() == value.casefold():
            # the same value twice is refused too (it may be a slip for another player's); a bid written
            # down before and typed again the same is that bid, not a second value
            if value and not before[2] and not now_bid and (before[1], arg) not in self.twice:
                self.twice.add((before[1], arg))   # a whole row typed twice: said once
                self.problems.append(_("{label} is given twice ({first_typed} and {second_typed}); type it once")
                                     .format(label=label, first_typed=before[1], second_typed=arg))
            return
        text = (_("{label} is given twice, as {first} ({first_typed}, written down by `scorepad bid`) and as "
                  "{second} ({second_typed}); type it once, or take the bid back with `scorepad undo`")
                if before[2] else
                _("{label} is given twice, as {first} ({first_typed}) and as {second} ({second_typed}); "
                  "type it once"))
        self.problems.append(text.format(label=label, first=before[0], first_typed=before[1], second=value,
                                         second_typed=arg))


def assignment_words(line: str) -> list[str]:
    """A hand typed on one line (in `play`, or at a question of the prompt) as its assignments:
    words split as a shell would, and a word without `=` joined to the value before it, so that
    `cards=QS 10H/-/A 7` and `melds=marriage bezique 4K` read as they do quoted on the command line."""
    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    out: list[str] = []
    for word in words:
        if "=" not in word and out:
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    return out


def looks_like_assignments(text: str) -> bool:
    """Is an answer a line of FIELD=VALUE assignments rather than one value? (Its first word holds
    `=` after a name; no field value is written with `=`.)"""
    head = text.strip().split(" ", 1)[0]
    name, eq, _value = head.partition("=")
    return bool(eq) and bool(name) and not any(c in name for c in ",/")


def canonical_names(game: Game, args: Sequence[str]) -> list[str]:
    """Assignments with each field under its own name (`заказ=140` → `bid=140`), values as typed: text
    that is kept (a bid written down) reads the same whatever language the next command is typed in;
    a list the shell split at its spaces is one assignment again, as split_assignments reads it."""
    out = []
    for arg in list_continued(args):
        left, eq, right = arg.partition("=")
        who, dot, name = left.strip().rpartition(".")
        fdef = field_or_none(game.ruleset, name) if eq else None
        out.append(f"{who}{dot}{fdef.name}={right.strip()}" if fdef is not None else arg)
    return out


def typed_assignments(game: Game, values: Mapping[str, Any], skip_defaults: bool = True) -> list[str]:
    """Raw values per field written as the assignments a person types, under the fields' own names
    (so a hand or bid typed with another language's names reads the same in every language); a row
    where one value per seat can be written so, else one `who.field=value` per seat. Values equal to
    the field's default are left out when `skip_defaults`."""
    typed: list[str] = []
    for name, fdef in game.ruleset.fields.items():
        answer = values.get(name)
        if answer is None:
            continue
        default = value_text(fdef.default) if fdef.default is not None and skip_defaults else None
        if fdef.scope == "hand":
            if answer != default:
                typed.append(f"{name}={answer}")
            continue
        if all(a is None or a == default for a in answer):
            continue
        if fdef.type not in ("cards", "combos") and all(a is not None and "," not in a for a in answer):
            typed.append(f"{name}={','.join(answer)}")
        else:
            who = _who_names(game, fdef.scope)
            typed += [f"{who[i]}.{name}={a}" for i, a in enumerate(answer) if a is not None and a != default]
    return typed


def players_offered(game: Game, state: State | None = None) -> list[str]:
    """The players a player-valued field offers: those still playing (a player who is out of the game
    in `state` ends no deal and declares nothing), everyone when no state is given."""
    if state is None:
        return list(game.players)
    active = active_players(game, state)
    return [p for p, playing in zip(game.players, active, strict=True) if playing] or list(game.players)


def field_candidates(game: Game, fdef: FieldDef, state: State | None = None) -> list[str]:
    """The values a person may type for a field (what Tab offers at the prompt and in the shell):
    its words, player or side names (the players still playing, given the state), yes/no."""
    out: list[str] = []
    if fdef.type == "word":
        out += list(fdef.values)
    elif fdef.type == "bool":
        out += ["yes", "no"]
    elif fdef.type == "player":
        out += players_offered(game, state)
    elif fdef.type == "side":
        out += [s.name for s in game.sides]
    out += [w for w in fdef.words if w not in out]
    return out


def value_text(value: Any) -> str:
    """A typed value written back the way a person would type it (a default in brackets)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value) or "-"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value)


def row_items(game: Game, fdef: FieldDef, right: str, problems: list[str]) -> list[str] | None:
    """`field=v1,v2,...`: one text per player or side in seating order (cards: groups separated by `/`,
    since cards are separated by commas themselves; the last left out where a total gives it), or
    None with the sentence added to `problems`."""
    count = len(game.players) if fdef.scope == "player" else len(game.sides)
    items = [v.strip() for v in right.split("/" if fdef.type == "cards" else ",")]
    if fdef.type == "combos" and count == 1:
        items = [right]
    names = ", ".join(_who_names(game, fdef.scope))
    if fdef.type == "cards" and len(items) != count:
        text = (_("{field} holds cards for each player: write name.{field}=QS,10H, or one group per player "
                  "separated by / ({names}): {field}=QS 10H/-/A 7") if fdef.scope == "player" else
                _("{field} holds cards for each side: write name.{field}=QS,10H, or one group per side "
                  "separated by / ({names}): {field}=QS 10H/-/A 7"))
        got = ngettext("got {n} group", "got {n} groups", len(items)).format(n=len(items))
        problems.append(text.format(field=field_label(game.ruleset, fdef.name), names=names) + "; " + got)
        return None
    if fdef.total is not None and len(items) == count - 1:
        items.append("")            # the last value follows from the total
    if len(items) != count:
        text = (ngettext("{field} needs {n} value, one per player in order ({names}); got {got}",
                         "{field} needs {n} values, one per player in order ({names}); got {got}", count)
                if fdef.scope == "player" else
                ngettext("{field} needs {n} value, one per side in order ({names}); got {got}",
                         "{field} needs {n} values, one per side in order ({names}); got {got}", count))
        problems.append(text.format(field=field_label(game.ruleset, fdef.name), n=count, names=names, got=len(items)))
        return None
    return items


def _who_names(game: Game, scope: str) -> list[str]:
    return list(game.players) if scope == "player" else [s.name for s in game.sides]


def asking_order(game: Game, fdef: FieldDef, state: State | None) -> list[int]:
    """The players (sides) of a per-player (per-side) field in the order they are asked. A bidding
    field goes round the table from the player after the dealer of the coming hand, the dealer last,
    as the bids are made at the table (a side in the turn of its first player to bid); any other
    field, and every field without a game's state, in seating order. Only the asking turns: the values
    stay by seat, and a hand is written down in seating order however it was typed."""
    seats = list(range(len(game.players) if fdef.scope == "player" else len(game.sides)))
    if not fdef.bidding or state is None or fdef.scope == "hand":
        return seats
    n = len(game.players)
    dealer = current_dealer(state, n)
    turn = [(dealer + step) % n for step in range(1, n + 1)]
    if fdef.scope == "player":
        return turn
    side_of = game.side_of
    return list(dict.fromkeys(side_of[i] for i in turn))


def find_field(rs: Ruleset, name: str) -> FieldDef | None:
    """A field by its own name, by a name any language of the ruleset gives it (`tihid`, `заказ`,
    whatever the interface speaks), or by a unique beginning of one; None when nothing fits. A name
    that could mean two fields (two languages give it to different fields, or it begins the names
    of both) is refused with every reading: UserError."""
    found = [f for f in rs.reading.fields(name, current()) if f in rs.fields]
    if len(found) == 1:
        return rs.fields[found[0]]
    if not found:
        return None
    typed = repr(name.strip().lower())
    exact = rs.reading.names.get(reading_key(name), {})
    if exact:
        readings = ", ".join(f"{f} ({'/'.join(exact[f])})" for f in found)
        raise UserError(_("{name} names more than one field: {readings}; type one of {choices} instead").format(
            name=typed, readings=readings, choices=", ".join(found)))
    raise UserError(_("{name} begins the names of more than one field ({fields}); type more of it").format(
        name=typed, fields=", ".join(found)))


def field_or_none(rs: Ruleset, name: str) -> FieldDef | None:
    """find_field for text kept as typed (a bid written down, a hand to rename): a name that is no
    field, or could be two, stays as it was typed and is refused where it is read."""
    try:
        return find_field(rs, name)
    except UserError:
        return None


def field_names(rs: Ruleset, lang: str | None = None) -> str:
    """The fields as an error lists them: each by its names in the interface language (`lang`) and
    its own English name (`заказчик/играющий/bidder`)."""
    lang = lang or current()
    return ", ".join(field_name_shown(rs, f, lang) for f in rs.fields)


def field_name_shown(rs: Ruleset, fname: str, lang: str | None = None) -> str:
    """One field's names in the interface language, then its own (`trumbitegija/trump`)."""
    lang = lang or current()
    native = rs.reading.names_in(fname, lang) if lang != "en" else ()
    return "/".join([*native, fname])


def resolve_who(game: Game, text: str, scope: str) -> int:
    """A player or side by name, unique prefix or seat letter; sides also by one of their players.
    A beginning that fits more than one is refused with those it fits, never guessed."""
    low = text.strip().lower()
    players = [p.lower() for p in game.players]
    sides = [s.name.lower() for s in game.sides]
    seats = [s.lower() for s in game.ruleset.seats]
    typed = game.ruleset.seats_typed   # the seats and sides as other languages write them (С, ВЗ, OW)
    side_of = game.side_of

    def exact(names: list[str]) -> int | None:
        if low in names:
            return names.index(low)
        if names is seats:
            return typed["seats"].get(low)
        return typed["side_names"].get(low) if names is sides else None

    def begun(names: list[str]) -> list[int]:
        return [i for i, n in enumerate(names) if low and n.startswith(low)]

    def prefix(names: list[str]) -> int | None:
        pref = begun(names)
        return pref[0] if len(pref) == 1 else None

    # exact names first (sides, players, seat letters), then unique prefixes: so `S` is the
    # South seat even when a player called sven sits East.
    n = len(players)
    if scope == "player":
        for finder, names in ((exact, players), (exact, seats), (prefix, players)):
            hit = finder(names)
            if hit is not None and hit < n:
                return hit
        fits = begun(players)
        if len(fits) > 1:
            raise UserError(_("{text} fits more than one player ({names}); type more of the name").format(
                text=repr(text), names=", ".join(game.players[i] for i in fits)))
        raise UserError(_("{text} is not a player ({names})").format(text=repr(text), names=", ".join(game.players)))
    for finder, names, is_side in ((exact, sides, True), (exact, players, False), (exact, seats, False),
                                   (prefix, sides, True), (prefix, players, False)):
        hit = finder(names)
        if hit is not None and (is_side or hit < n):
            return hit if is_side else side_of[hit]
    fitting = sorted({*begun(sides), *(side_of[i] for i in begun(players))})
    if len(fitting) == 1:          # the beginning of two partners' names: their side
        return fitting[0]
    if fitting:
        raise UserError(_("{text} fits more than one side ({names}); type more of the name").format(
            text=repr(text), names=", ".join(game.sides[k].name for k in fitting)))
    raise UserError(_("{text} is not a side ({names})").format(text=repr(text),
                                                                names=", ".join(s.name for s in game.sides)))


def convert(game: Game, fdef: FieldDef, text: str, who: str | None = None,
            state: State | None = None) -> tuple[Any, dict[str, Any] | None]:
    """One typed value to its typed form (and pattern parts); raises UserError with a sentence.
    With the game's `state`, a range that reads the coming hand is the range of this hand."""
    name = field_label(game.ruleset, fdef.name)
    label = f"{who}.{name}" if who else name
    raw = text.strip()
    meanings = game.ruleset.reading.word(fdef.name, raw)
    if len(meanings) > 1:
        raise UserError(_two_meanings(fdef, label, raw, meanings))
    if meanings and meanings[0].kind == "value":
        value = meanings[0].value
        if fdef.type == "pattern" and fdef.parts and isinstance(value, str) and fdef.pattern is not None \
                and fdef.pattern.fullmatch(value.upper().replace(" ", "")):
            return _pattern(game, fdef, value, label, state)   # a word for a value the pattern reads (ровно: made)
        return value, None
    if raw == "" and fdef.type != "cards":
        raise UserError(_("{label} is empty").format(label=label))
    joined = _words_joined(game, fdef, raw) if not meanings and fdef.type == "pattern" else None
    if joined is not None:
        return _pattern(game, fdef, joined, label, state)
    reader = _READERS.get(fdef.type)
    if reader is None:
        raise UserError(_("{label}: unknown field type {t}").format(label=label, t=fdef.type))
    return reader(game, fdef, raw, label, state)


def _words_joined(game: Game, fdef: FieldDef, raw: str) -> str | None:
    """A pattern field's value typed as a list of its words (1000's marriages `хрести,піки`, `risti poti`):
    what the words stand for, joined as the pattern reads them (`CS` or `C,S`); None when it is not that."""
    pieces = [p for p in re.split(r"[,/+\s]+", raw) if p]
    if len(pieces) < 2 or fdef.pattern is None:
        return None
    values = []
    for piece in pieces:
        meanings = game.ruleset.reading.word(fdef.name, piece)
        if len(meanings) != 1 or meanings[0].kind != "value" or not isinstance(meanings[0].value, str):
            return None
        values.append(meanings[0].value)
    for sep in ("", ","):
        if fdef.pattern.fullmatch(sep.join(values).upper()):
            return sep.join(values)
    return None


def _two_meanings(fdef: FieldDef, label: str, raw: str, meanings: Sequence[Meaning]) -> str:
    """The refusal of a word that means two things in a field (in two languages, or in one, as
    Russian кварта is both a sequence and a set of four in Piquet): every reading, never a guess."""
    shown = [fdef.combos[m.value].code if m.kind == "combo" else value_text(m.value) for m in meanings]
    readings = ", ".join(f"{text} ({'/'.join(m.langs)})" for text, m in zip(shown, meanings, strict=True))
    return _("{label}: {word} means more than one thing here: {readings}; type one of {choices} instead").format(
        label=label, word=repr(raw), readings=readings, choices=", ".join(dict.fromkeys(shown)))


def _number(game: Game, fdef: FieldDef, raw: str, label: str, state: State | None) -> tuple[Any, None]:
    try:
        value: Any = int(raw) if fdef.type == "int" else float(raw)
    except ValueError:
        extra = " " + _("or {words}").format(words=", ".join(words_shown(game.ruleset, fdef))) if fdef.words else ""
        text = _("{label} must be a whole number{extra}, not {raw}") if fdef.type == "int" else \
            _("{label} must be a number{extra}, not {raw}")
        raise UserError(text.format(label=label, extra=extra, raw=repr(raw))) from None
    if not number_ok(value):
        raise UserError(_("{label} must be a number of at most 15 digits, not {raw}").format(
            label=label, raw=raw if len(raw) <= 20 else raw[:20] + "..."))
    if fdef.type == "number" and float(value).is_integer():
        value = int(value)
    low_v, high_v = field_range(game, fdef, state)
    if (low_v is not None and value < low_v) or (high_v is not None and value > high_v):
        raise UserError(_("{label} must be {legal}, not {raw}").format(label=label,
                                                                        legal=describe_field(game, fdef, state),
                                                                        raw=raw))
    if raw.startswith("+") and low_v is not None and low_v >= 0:
        # a count (tricks, points left) never has a sign: `+1` is a result typed at the wrong question
        raise UserError(_("{label} must be {legal}, not {raw} (a count is typed without a sign)").format(
            label=label, legal=describe_field(game, fdef, state), raw=raw))
    return value, None


def _yes_no(game: Game, fdef: FieldDef, raw: str, label: str, state: State | None) -> tuple[bool, None]:
    low = raw.lower()
    if low in YES:
        return True, None
    if low in NO:
        return False, None
    raise UserError(_("{label} must be yes or no, not {raw}").format(label=label, raw=repr(raw)))


def _word(game: Game, fdef: FieldDef, raw: str, label: str, state: State | None) -> tuple[str, None]:
    word = fdef.synonyms.get(raw.lower(), raw.lower())
    if word in fdef.values:
        return word, None
    pref = [v for v in fdef.values if v.startswith(word)]
    if len(pref) == 1 and word:
        return pref[0], None
    raise UserError(_("{label} must be one of {values}, not {raw}").format(label=label, values=", ".join(fdef.values),
                                                                            raw=repr(raw)))


def _player(game: Game, fdef: FieldDef, raw: str, label: str, state: State | None) -> tuple[str, None]:
    return game.players[resolve_who(game, raw, "player")], None


def _side(game: Game, fdef: FieldDef, raw: str, label: str, state: State | None) -> tuple[str, None]:
    return game.sides[resolve_who(game, raw, "side")].name, None


def _cards(game: Game, fdef: FieldDef, raw: str, label: str, state: State | None) -> tuple[list[str], None]:
    try:
        cards = list(cardlib.parse_cards(raw, game.ruleset.deck))
    except UserError as exc:
        raise UserError(f"{label}: {exc.message}") from None
    low, high = field_range(game, fdef, state)   # a cards field's min and max count its cards
    if (low is not None and len(cards) < low) or (high is not None and len(cards) > high):
        raise UserError(_("{label} must be {legal}, not {n} cards ({raw})").format(
            label=label, legal=describe_field(game, fdef, state), n=len(cards), raw=raw))
    return cards, None


def _combos(game: Game, fdef: FieldDef, raw: str, label: str, state: State | None) -> tuple[list[Any], None]:
    return parse_combos(game, fdef, raw, label), None


def _pattern(game: Game, fdef: FieldDef, raw: str, label: str, state: State | None) -> tuple[str, dict[str, Any]]:
    """A pattern field (`4HX`): the text as matched, and the value of each of its named parts."""
    assert fdef.pattern is not None
    norm = raw.upper().replace(" ", "")
    m = fdef.pattern.fullmatch(norm) if len(norm) <= 40 else None
    if m is None:
        words = " " + _("or {words}").format(words=", ".join(words_shown(game.ruleset, fdef))) if fdef.words else ""
        raise UserError(_("{label}: {raw} is not valid ({help}{words})").format(
            label=label, raw=repr(raw), help=fdef.help or _("see scorepad rules show"), words=words))
    parts: dict[str, Any] = {}
    for part in fdef.parts:
        value = m.group(part) or ""
        mapped = fdef.maps.get(part, {})
        kind = fdef.resolve.get(part)
        if kind and value and value.upper() not in mapped:
            original = raw.replace(" ", "")[m.start(part):m.end(part)]
            idx = resolve_who(game, original, kind)
            parts[part] = game.players[idx] if kind == "player" else game.sides[idx].name
        elif value.upper() in mapped:
            parts[part] = mapped[value.upper()]
        elif value.isdigit():
            parts[part] = int(value)
        else:
            parts[part] = value
    return norm, parts


# how each type of field reads what a person typed (after the field's own words)
_READERS: dict[str, Callable[[Game, FieldDef, str, str, State | None], tuple[Any, dict[str, Any] | None]]] = {
    "int": _number, "number": _number, "bool": _yes_no, "word": _word, "player": _player, "side": _side,
    "cards": _cards, "combos": _combos, "pattern": _pattern,
}


def hand_context(game: Game, state: State | None = None, active: Sequence[bool] | None = None) -> dict[str, Any]:
    """The names of the coming hand that are not fields: hand_no, hands, dealer, active, the game counters."""
    n = len(game.players)
    if active is None:
        active = active_players(game, state) if state is not None else [True] * n
    env: dict[str, Any] = {}
    if state is not None:
        env.update(state["game"])
    hands = state["hands"] if state is not None else 0
    env.update(hand_no=hands + 1, hands=hands, dealer=current_dealer(state, n) if state is not None else 0,
               active=list(active), n_active=sum(active))
    return env


def _typed_env(game: Game, hand: Mapping[str, Any], context: Mapping[str, Any]) -> dict[str, Any]:
    """What applies_if, required_if, total and default_from see: the typed values under their formula names."""
    env = base_env(game)
    env.update(context)
    for fname, fdef in game.ruleset.fields.items():
        value = hand.get(fname)
        if fdef.scope == "hand":
            env[fname] = value
            if fdef.type == "pattern":
                env.update(pattern_parts(fname, fdef.parts, value, hand.get(f"_{fname}_parts")))
        else:
            env["all_" + fname] = list(value) if value is not None else [None] * _count(game, fdef)
    return env


def _count(game: Game, fdef: FieldDef) -> int:
    return len(game.players) if fdef.scope == "player" else len(game.sides)


def _placeholder(fdef: FieldDef) -> Any:
    """The value of a field nobody typed and nothing worked out: its default, else empty."""
    if fdef.scope == "hand":
        return fdef.default
    return fdef.default if fdef.default is not None else _empty(fdef)


def _env_from_typed(game: Game, typed: Mapping[str, Any], state: State | None = None) -> dict[str, Any]:
    """A formula environment from a partial `typed` mapping (names as formulas see them; a per-player
    or per-side field may also be given under its own name as a list), other fields at their defaults;
    the coming hand's number and counters from `state` when given."""
    rs = game.ruleset
    hand: dict[str, Any] = {}
    for fname, fdef in rs.fields.items():
        hand[fname] = _placeholder(fdef) if fdef.scope == "hand" else [_placeholder(fdef)] * _count(game, fdef)
    context = hand_context(game, state, typed.get("active") if isinstance(typed.get("active"), list) else None)
    env = _typed_env(game, hand, context)
    for key, value in typed.items():
        given = rs.fields.get(key)
        if given is not None and given.scope != "hand" and isinstance(value, (list, tuple)):
            env["all_" + key] = list(value)
        else:
            env[key] = value
    return env


def field_applies(game: Game, fdef: FieldDef, typed: Mapping[str, Any], state: State | None = None) -> bool:
    """Does the field belong to this hand, given the values typed so far? (`applies_if`; true when it
    cannot be told yet, so a prompt asks rather than skips.)"""
    if fdef.applies_if is None:
        return True
    return _holds(fdef.applies_if, _env_from_typed(game, typed, state) if not _is_env(typed) else typed)


def field_required(game: Game, fdef: FieldDef, typed: Mapping[str, Any], state: State | None = None) -> bool:
    """Must the field have a value, given the values typed so far? (`required_if`, as the argument form
    reads it when it lists what is missing; true when it cannot be told yet.)"""
    if fdef.required_if is None:
        return not fdef.optional
    return _holds(fdef.required_if, _env_from_typed(game, typed, state) if not _is_env(typed) else typed)


def _is_env(typed: Mapping[str, Any]) -> bool:
    return "n_players" in typed and "hand_no" in typed


def _holds(formula: Formula, env: Mapping[str, Any]) -> bool:
    try:
        return bool(formula(env))
    except FormulaError:
        return True


def _slot_active(game: Game, fdef: FieldDef, active: Sequence[bool]) -> list[bool]:
    """Per value of the field: does its player (or any player of its side) still play?"""
    count = _count(game, fdef)
    if len(active) == count:
        return list(active)
    if fdef.scope == "side":
        return [any(active[j] for j in side.members) for side in game.sides]
    return [True] * count


def fill_total(game: Game, fdef: FieldDef, values: Sequence[Any | None], active: Sequence[bool],
               typed: Mapping[str, Any], state: State | None = None) -> list[Any] | None:
    """The values with the one left out (None) filled in from the field's total; None when that
    cannot be done (no total, not exactly one value left out, or the value would be out of range)."""
    env = typed if _is_env(typed) else _env_from_typed(game, typed, state)
    filled, _ = _fill_total(game, fdef, values, _slot_active(game, fdef, active), env)
    return filled


def _fill_total(game: Game, fdef: FieldDef, values: Sequence[Any | None], act: Sequence[bool],
                env: Mapping[str, Any]) -> tuple[list[Any] | None, str | None]:
    """(filled values, None), or (None, a sentence saying why the value cannot be filled in)."""
    if fdef.total is None:
        return None, None
    gaps = [i for i, v in enumerate(values) if v is None and act[i]]
    if len(gaps) != 1:
        return None, None
    known = [v for i, v in enumerate(values) if i != gaps[0] and act[i] and v is not None]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in known):
        return None, None
    try:
        total = fdef.total(env)
    except FormulaError:
        return None, None
    if isinstance(total, bool) or not isinstance(total, (int, float)):
        return None, None
    value = total - sum(known)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    who = _who_names(game, fdef.scope)[gaps[0]]
    low, high = field_range(game, fdef, env=env)
    if (low is not None and value < low) or (high is not None and value > high) or (
            fdef.type == "int" and not float(value).is_integer()):
        label = field_label(game.ruleset, fdef.name)
        return None, _("{field} would have to be {value} for the {label} to add up to {total}, but it must be "
                       "{legal}").format(field=f"{who}.{label}", value=value, label=label.replace("_", " "), total=total,
                                         legal=describe_field(game, fdef))
    out = [v if v is not None or act[i] else _placeholder(fdef) for i, v in enumerate(values)]
    out[gaps[0]] = value
    return out, None


def check_field_names(game: Game, check: Check) -> set[str]:
    """The typed fields a whole-hand check depends on, directly or through [let]/[player]/[side]
    values: the fields to ask again when the check fails."""
    rs = game.ruleset
    lets = {let.name: let.formula for let in (*rs.hand_lets, *rs.player_lets, *rs.side_lets)}
    formulas: list[Formula] = [check.ok, *check.message_parts]
    if check.when is not None:
        formulas.append(check.when)
    out: set[str] = set()
    seen: set[str] = set()
    while formulas:
        formula = formulas.pop()
        out |= field_refs(formula, rs.fields)
        for name in formula.names:
            base = name
            for prefix in ("all_", "others_", "team_"):
                base = base.removeprefix(prefix)
            if base in lets and base not in seen:
                seen.add(base)
                formulas.append(lets[base])
    if check.total_of is not None:
        out.add(check.total_of)
    return out


def bid_checks(game: Game) -> list[Check]:
    """The whole-hand checks that use only bidding fields (directly or through lets): they run at bid time."""
    return checks_on(game, {n for n, f in game.ruleset.fields.items() if f.bidding})


def checks_on(game: Game, known: Collection[str]) -> list[Check]:
    """The checks that need no field outside `known` (directly or through lets): the ones that can
    refuse a hand typed only in part, where the value is typed rather than after every other field."""
    return [check for check in game.ruleset.checks
            if (used := check_field_names(game, check)) and used <= set(known)]


def check_bids(game: Game, state: State, hand: Hand) -> list[str]:
    """The sentences of the bid-time checks that fail for the bids of `hand` (empty when the bids stand)."""
    return run_checks_on(game, state, hand, bid_checks(game))


# `2x`, `2×`, `2*`, and `2х` with the Cyrillic letter a Russian or Ukrainian keyboard gives
COMBO_TOKEN = re.compile(r"^(?:(?P<pre>\d{1,2})\s*[x×*хХ])?(?P<what>[^\s]+?)(?:[x×*хХ](?P<post>\d{1,2}))?$", re.I)
MAX_COMBOS = 60


def parse_combos(game: Game, fdef: FieldDef, text: str, label: str) -> list[Any]:
    """`4K 2x40 bezique` or `250 40 40 20`: the combinations (codes as declared), a number that is no
    combination's points kept as a number (for the field's `rest`). A number stands for the first
    combination in the ruleset worth that much."""
    if text.strip().lower() in ("-", "none", "no", "0", ""):
        return []
    env = base_env(game)
    by_points: dict[float, str] = {}
    for code, combo in fdef.combos.items():
        try:
            value = combo.points(env)
        except FormulaError:
            continue
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            by_points.setdefault(float(value), code)
    out: list[Any] = []
    for what, times, token in _combo_items(game, fdef, text, label):
        code = _combo_named(game, fdef, what, label)
        if code not in fdef.combos:
            number = _number_or_none(what)
            if number is not None and float(number) in by_points:
                code = by_points[float(number)]
            elif number is not None and fdef.rest is not None:
                out.extend([number] * times)
                continue
            else:
                raise UserError(_not_a_combination(game.ruleset, fdef, label, token))
        out.extend([fdef.combos[code].code] * times)
        if len(out) > MAX_COMBOS:
            raise UserError(_("{label}: more than {n} combinations").format(label=label, n=MAX_COMBOS))
    return out


def _not_a_combination(rs: Ruleset, fdef: FieldDef, label: str, token: str) -> str:
    """The refusal of a typed word that is no combination, with what the field takes as a player of the
    language shown types it: the codes in English, else the combinations by their names there."""
    if current() == "en":
        known = " ".join(c.code for c in fdef.combos.values())
        return _("{label}: {token} is not a combination (codes: {known}; or their points)").format(
            label=label, token=repr(token), known=known)
    return _("{label}: {token} is not a combination ({known}; or their points)").format(
        label=label, token=repr(token), known=", ".join(said for said, _key in combos_said(rs, fdef)))


def _combo_items(game: Game, fdef: FieldDef, text: str, label: str) -> Iterator[tuple[str, int, str]]:
    """Each combination typed: (its name or points, how many, as typed); a comma ends one."""
    for part in text.split(","):
        tokens = part.split()
        i = 0
        while i < len(tokens):
            what, times, step = _combo_words(game, fdef, tokens, i, label)
            yield what, times, " ".join(tokens[i:i + step])
            i += step


_LONGEST_NAME = 6  # words in the longest combination name read as one (валет бубны и дама пик: 5)


def _combo_words(game: Game, fdef: FieldDef, tokens: Sequence[str], i: int, label: str) -> tuple[str, int, int]:
    """The combination named from word i on: (its name, how many, the words it takes). The longest
    run of words (up to _LONGEST_NAME) that the field's words hold as one name is one combination
    (козырный марьяж, kaks paari, 2xtrumbi perekond); when each of its words is a combination too
    (стрит флеш: a straight flush, or a straight and a flush) the words are refused with both readings."""
    m = COMBO_TOKEN.match(tokens[i])
    what = m.group("what") if m else tokens[i]
    pre = m.group("pre") if m else None
    if not (m and m.group("post")):
        for count in range(min(_LONGEST_NAME, len(tokens) - i), 1, -1):
            found = _name_of_words(game, fdef, [what], tokens[i + 1:i + count])
            if found is None:
                continue
            words, post = found
            phrase = " ".join(words)
            if all(_is_combo(game, fdef, w) for w in words):
                one = _combo_named(game, fdef, phrase, label)
                each = [_combo_named(game, fdef, w, label) for w in words]
                raise UserError(_("{label}: {words} reads two ways, as {first} or as {second}; write it "
                                  "as one word or put a comma between the two").format(
                                      label=label, words=repr(phrase), first=fdef.combos[one].code,
                                      second=" ".join(fdef.combos[c].code for c in each)))
            return phrase, int(pre or post or 1), count
    return what, int(pre or (m.group("post") if m else None) or 1), 1


def _name_of_words(game: Game, fdef: FieldDef, first: list[str],
                   rest: Sequence[str]) -> tuple[list[str], str | None] | None:
    """The words of one combination's name (and a count written after its last word, `x2`), or None
    when the words are no name the field holds (a count may stand only before the first word and after
    the last)."""
    words, post = list(first), None
    for j, token in enumerate(rest):
        m = COMBO_TOKEN.match(token)
        if m is None or m.group("pre") or (m.group("post") and j < len(rest) - 1):
            return None
        words.append(m.group("what"))
        post = m.group("post")
    if any(x.kind == "combo" for x in game.ruleset.reading.word(fdef.name, " ".join(words))):
        return words, post
    return None


def _is_combo(game: Game, fdef: FieldDef, word: str) -> bool:
    return word.upper() in fdef.combos or any(x.kind == "combo" for x in game.ruleset.reading.word(fdef.name, word))


def _combo_named(game: Game, fdef: FieldDef, what: str, label: str) -> str:
    """The code of a combination typed by its code or by a name of any language of the ruleset
    (терция, SUUDLUS, maja); what is neither comes back as typed, upper-case. A name of two
    combinations (кварта in Piquet) is refused with both."""
    code = what.upper()
    if code in fdef.combos:
        return code
    named = [x for x in game.ruleset.reading.word(fdef.name, what) if x.kind == "combo"]
    if len(named) > 1:
        raise UserError(_two_meanings(fdef, label, what, named))
    return str(named[0].value) if named else code


def _number_or_none(text: str) -> int | float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return int(value) if value.is_integer() else value


def _expand_combos(game: Game, hand: Hand, typed: dict[str, list[bool]], problems: list[str]) -> None:
    """A typed combination list sets the per-combination fields of that player (or side): the count of
    each code, or its points; a per-combination value typed as well must agree with the list where the
    list names that combination, and is added beside it where it does not (`melds=4A tm dix=1`)."""
    env = base_env(game)
    for fname, fdef in game.ruleset.fields.items():
        if fdef.type != "combos":
            continue
        names = _who_names(game, fdef.scope) if fdef.scope != "hand" else [""]
        targets = sorted({c.field for c in fdef.combos.values()} | ({fdef.rest} if fdef.rest else set()),
                         key=list(game.ruleset.fields).index)
        lists = [hand[fname]] if fdef.scope == "hand" else hand[fname]
        for i, items in enumerate(lists):
            if not typed[fname][i]:
                continue
            sums: dict[str, Any] = {t: 0 for t in targets}
            named: set[str] = set()
            for item in items or []:
                if isinstance(item, str):
                    combo = fdef.combos[item.upper()]
                    named.add(combo.field)
                    try:
                        pts = combo.points(env)
                    except FormulaError as exc:
                        problems.append(Said(N_("this hand cannot be scored: {problem}"), problem=exc.message))
                        continue
                    sums[combo.field] += 1 if combo.adds == "count" else pts
                elif fdef.rest is not None:
                    sums[fdef.rest] += item
            shown = field_label(game.ruleset, fname)
            for target, value in sums.items():
                tdef = game.ruleset.fields[target]
                label = field_label(game.ruleset, target)
                label = f"{names[i]}.{label}" if names[i] else label
                if typed[target][i] and target not in named and target != fdef.rest:
                    continue   # typed on its own, beside a list that does not name it
                if typed[target][i]:
                    given = hand[target] if tdef.scope == "hand" else hand[target][i]
                    if not _same(given, value):
                        problems.append(_("{label} is typed as {value}, but {value2}{fname} gives {value3}; type one of "
                                           "them, or make them agree").format(
                                            label=label, value=_show(given), value2=names[i] + '.' if names[i] else '',
                                            fname=shown, value3=_show(value)))
                    continue
                low, high = field_range(game, tdef)
                if (low is not None and value < low) or (high is not None and value > high):
                    problems.append(_("{label} would be {value} from {fname}, but it must be {value2}").format(
                                        label=label, value=_show(value), fname=shown, value2=describe_field(game, tdef)))
                if tdef.scope == "hand":
                    hand[target] = value
                else:
                    hand[target][i] = value
                typed[target][i] = True


def type_hand(game: Game, raw: RawHand, active: Sequence[bool], state: State | None = None,
              only: Collection[str] | None = None) -> tuple[Hand, list[Missing]]:
    """Convert every typed value; work out what follows (applies_if, default_from, total); fill defaults;
    list what is still missing (only among `only` when given: the bidding fields at bid time).
    Raises HandError with every problem."""
    hand, typed = _converted(game, raw, state)
    problems: list[str] = []
    _expand_combos(game, hand, typed, problems)
    if problems:
        raise HandError(problems[0], problems)
    worked = _WorkedOut(game, hand, typed, hand_context(game, state, active))
    for fname in game.ruleset.field_order or tuple(game.ruleset.fields):
        worked.field(fname, active)
    if worked.problems:
        raise HandError(worked.problems[0], worked.problems)
    raw.worked_out, raw.worked_out_shown, raw.rest_of_total = worked.lines, worked.shown, worked.rest
    return hand, _missing(game, worked, active, only)


def _converted(game: Game, raw: RawHand, state: State | None) -> tuple[Hand, dict[str, list[bool]]]:
    """Every typed value converted (a hand field's value, or one per player or side), and which were typed."""
    hand: Hand = {}
    problems: list[str] = []
    typed: dict[str, list[bool]] = {}
    for fname, fdef in game.ruleset.fields.items():
        given = raw.values.get(fname)
        if fdef.scope == "hand":
            typed[fname] = [given is not None]
            hand[fname] = None
            if given is not None:
                try:
                    value, parts = convert(game, fdef, given, None, state)
                    hand[fname] = value
                    if parts is not None:
                        hand[f"_{fname}_parts"] = parts
                except UserError as exc:
                    problems.append(exc.message)
            continue
        names = _who_names(game, fdef.scope)
        texts = [given[i] if given is not None else None for i in range(len(names))]
        texts = [None if t is not None and t.strip() == "" and fdef.type != "cards" else t for t in texts]
        out: list[Any] = []            # `tricks=5,,3,3`: an empty place is left out
        for i, text in enumerate(texts):
            try:
                out.append(None if text is None else convert(game, fdef, text, names[i], state)[0])
            except UserError as exc:
                problems.append(exc.message)
                out.append(None)
        typed[fname] = [t is not None for t in texts]
        hand[fname] = out
    if problems:
        raise HandError(problems[0], problems)
    return hand, typed


class _WorkedOut:
    """The values that follow from the typed ones, field by field in the order they are worked out:
    a field that does not apply is set aside, a default_from fills what was not typed (and must agree
    with what was), a total fills the one value left out. `known` says which values are there now."""

    def __init__(self, game: Game, hand: Hand, typed: dict[str, list[bool]], context: Mapping[str, Any]) -> None:
        self.game, self.hand, self.typed = game, hand, typed
        self.env = _typed_env(game, hand, context)
        self.known = {name: list(mask) for name, mask in typed.items()}
        self.lines: list[str] = []            # `who.name=value` of each value worked out, by the field's id
        self.shown: list[str] = []            # the same as the language shown names the field and value
        self.rest: list[str] = []             # of `shown`, the values a total gave
        self.skipped: set[str] = set()
        self.problems: list[str] = []
        self._disagreements: set[frozenset[str]] = set()

    def field(self, fname: str, active: Sequence[bool]) -> None:
        game, fdef, hand = self.game, self.game.ruleset.fields[fname], self.hand
        names = _who_names(game, fdef.scope) if fdef.scope != "hand" else [""]
        if fdef.applies_if is not None and not _holds(fdef.applies_if, self.env):
            self._set_aside(fdef, names)
            return
        values = [hand[fname]] if fdef.scope == "hand" else list(hand[fname])
        if fdef.default_from is not None:
            self._default_from(fdef, names, values)
        if fdef.total is not None:
            values = self._total(fdef, names, values, active)
        known = self.known[fname]
        if fdef.scope == "hand":
            hand[fname] = values[0] if known[0] else fdef.default
        else:
            hand[fname] = [v if known[i] else _placeholder(fdef) for i, v in enumerate(values)]
        _set_env(game, self.env, fdef, hand)

    def _set_aside(self, fdef: FieldDef, names: list[str]) -> None:
        """A field that does not apply to this hand: a value typed for it is refused."""
        for i, was_typed in enumerate(self.typed[fdef.name]):
            if was_typed:
                name = field_label(self.game.ruleset, fdef.name)
                label = f"{names[i]}.{name}" if names[i] else name
                assert fdef.applies_if is not None
                self.problems.append(_("{label} does not apply to this hand: it is typed only when {value}").format(
                    label=label, value=condition_words(fdef.applies_if.source,
                                                       Vocabulary(self.game.ruleset, base_env(self.game)))))
        self.skipped.add(fdef.name)
        self.known[fdef.name] = [False] * len(names)
        self.hand[fdef.name] = _placeholder(fdef) if fdef.scope == "hand" else [_placeholder(fdef)] * len(names)
        self.hand.pop(f"_{fdef.name}_parts", None)
        _set_env(self.game, self.env, fdef, self.hand)

    def _default_from(self, fdef: FieldDef, names: list[str], values: list[Any]) -> None:
        """Each value its default_from gives, where the values it reads are known."""
        assert fdef.default_from is not None
        for i in range(len(values)):
            if not _inputs_known(self.game, fdef, i, self.known):
                continue
            try:
                computed = fdef.default_from(_slot_env(self.game, self.env, fdef, i))
            except FormulaError:
                continue
            if computed is None:        # none: nothing follows for this value
                continue
            if not self.typed[fdef.name][i]:
                values[i] = computed
                self.known[fdef.name][i] = True
                self._worked(fdef, names[i], computed)
            elif not _same(values[i], computed):
                name = field_label(self.game.ruleset, fdef.name)
                self._disagree(fdef, i, f"{names[i]}.{name}" if names[i] else name, values[i], computed)

    def _disagree(self, fdef: FieldDef, i: int, label: str, value: Any, computed: Any) -> None:
        rs = self.game.ruleset
        assert fdef.default_from is not None
        sources = [n for n in rs.fields if n in field_refs(fdef.default_from, rs.fields) and any(self.known[n])]
        pair = frozenset([fdef.name, *sources, str(i)])
        if pair in self._disagreements:      # the same two values, seen from the other side
            return
        self._disagreements.add(pair)
        what = _(" and ").join(field_label(rs, n) for n in sources) or _("the other values")
        self.problems.append(ngettext("{label} is typed as {typed}, but {what} gives {computed}; type one of "
                                      "them, or make them agree",
                                      "{label} is typed as {typed}, but {what} give {computed}; type one of "
                                      "them, or make them agree", max(len(sources), 1)).format(
                                 label=label, typed=_show(value), what=what, computed=_show(computed)))

    def _total(self, fdef: FieldDef, names: list[str], values: list[Any], active: Sequence[bool]) -> list[Any]:
        """The one value left out of a row with a total, filled in."""
        act = _slot_active(self.game, fdef, active)
        filled, why = _fill_total(self.game, fdef, values, act, self.env)
        if why:
            self.problems.append(why)
        if filled is None:
            return values
        gap = next(i for i, v in enumerate(values) if v is None and act[i])
        self.known[fdef.name][gap] = True
        self._worked(fdef, names[gap], filled[gap])
        self.rest.append(self.shown[-1])
        return filled

    def _worked(self, fdef: FieldDef, who: str, value: Any) -> None:
        """A value worked out, as `lines` (ids) and `shown` (the words of the language shown) write it."""
        rs = self.game.ruleset
        head = f"{who}." if who else ""
        self.lines.append(f"{head}{fdef.name}={_show(value)}")
        self.shown.append(f"{head}{field_label(rs, fdef.name)}={value_shown(rs, fdef, value) or _show(value)}")


def _missing(game: Game, worked: _WorkedOut, active: Sequence[bool], only: Collection[str] | None) -> list[Missing]:
    """The required values neither typed nor worked out (of those that apply, and are required now)."""
    missing: list[Missing] = []
    for fname, fdef in game.ruleset.fields.items():
        if fname in worked.skipped or (only is not None and fname not in only):
            continue
        if fdef.default is not None or (fdef.optional and fdef.required_if is None):
            continue
        if fdef.required_if is not None and not _holds(fdef.required_if, worked.env):
            continue
        known = worked.known[fname]
        if fdef.scope == "hand":
            if not known[0]:
                missing.append(Missing(fname, None))
            continue
        missing += [Missing(fname, i) for i, is_active in enumerate(_slot_active(game, fdef, active))
                    if is_active and not known[i]]
    return missing


def type_bids(game: Game, raw: RawHand, active: Sequence[bool],
              state: State | None = None) -> tuple[Hand, list[Missing]]:
    """The bidding fields of a hand typed before the play; a field typed after the play is refused."""
    bidding = [n for n, f in game.ruleset.fields.items() if f.bidding]
    if not bidding:
        raise HandError(_("{name} has no bids written down before the play").format(name=game.ruleset.name))
    late = [n for n in raw.values if n not in bidding]
    if late:
        problems = [_("{field} is typed after the play, not with the bids (bids: {bids})").format(
            field=field_label(game.ruleset, n), bids=", ".join(field_label(game.ruleset, b) for b in bidding))
            for n in late]
        raise HandError(problems[0], problems)
    return type_hand(game, raw, active, state, only=bidding)


def _set_env(game: Game, env: dict[str, Any], fdef: FieldDef, hand: Hand) -> None:
    value = hand[fdef.name]
    if fdef.scope == "hand":
        env[fdef.name] = value
        if fdef.type == "pattern":
            env.update(pattern_parts(fdef.name, fdef.parts, value, hand.get(f"_{fdef.name}_parts")))
    else:
        env["all_" + fdef.name] = list(value)


def _slot_env(game: Game, env: Mapping[str, Any], fdef: FieldDef, k: int) -> dict[str, Any]:
    """The names a per-player (or per-side) default_from sees for player (side) k: its own values as X,
    the others' as others_X, the team's as team_X, besides everything of the hand."""
    out = dict(env)
    if fdef.scope == "hand":
        return out
    rs = game.ruleset
    side_of = game.side_of
    if fdef.scope == "player":
        side_k = side_of[k]
        mates = game.sides[side_k].members
        out.update(me=game.players[k], seat=k, side=game.sides[side_k].name, side_no=side_k)
    else:
        side_k = k
        mates = game.sides[k].members
        out.update(me=game.sides[k].name, side_no=k, members=[game.players[i] for i in mates])
    for name, f in rs.fields.items():
        if f.scope == "hand":
            continue
        values = list(env["all_" + name])
        if f.scope == "player":
            team = [values[j] for j in mates]
            out["team_" + name] = team
            if fdef.scope == "player":
                out[name] = values[k]
                out["others_" + name] = values[:k] + values[k + 1:]
            else:
                out[name] = team
        else:
            out[name] = values[side_k]
            out["others_" + name] = values[:side_k] + values[side_k + 1:]
    return out


def _inputs_known(game: Game, fdef: FieldDef, k: int, known: Mapping[str, list[bool]]) -> bool:
    """Was anything typed (or worked out) that the default_from of value k uses? Its own player's or
    side's values for a plain name, anyone's for `all_X` and `others_X`; a formula of no field always is."""
    assert fdef.default_from is not None
    rs = game.ruleset
    refs = field_refs(fdef.default_from, rs.fields)
    if not refs:
        return True
    for name in fdef.default_from.names:
        base = name
        for prefix in ("all_", "others_", "team_"):
            base = base.removeprefix(prefix)
        found = rs.fields.get(base) or next(
            (f for f in rs.fields.values() if f.type == "pattern" and name.startswith(f.name + "_")), None)
        if found is None:
            continue
        src = found
        mask = known[src.name]
        own = name == base or name.startswith("team_")
        if src.scope == "hand" or not own or fdef.scope == "hand":
            if any(mask):
                return True
        elif src.scope == fdef.scope == "player" and not name.startswith("team_"):
            if mask[k]:
                return True
        elif src.scope == "player":   # a side's players, or a player's team
            members = game.sides[k if fdef.scope == "side" else game.side_of[k]].members
            if any(mask[j] for j in members):
                return True
        else:                          # a side field seen by a player or a side
            if mask[k if fdef.scope == "side" else game.side_of[k]]:
                return True
    return False


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(a - b) < 1e-9
    if isinstance(a, str) and isinstance(b, str):
        return a.lower() == b.lower()
    return bool(a == b)


def _show(value: Any) -> str:

    return format_value(value)


def _empty(fdef: FieldDef) -> Any:
    if fdef.type in ("cards", "combos"):
        return []
    if fdef.type == "bool":
        return False
    if fdef.type in ("int", "number"):
        return 0
    return None


def whole_hand(game: Game, state: State, raw: RawHand,
               typed: tuple[Hand, list[Missing]] | None = None) -> Hand:
    """The typed values of a hand, every one there and no card or combination held twice; else HandError
    (one sentence per value missing, or "N values are missing" before them). `typed`: what `type_hand`
    already gave for this text and state (a caller that typed it need not type it again)."""
    hand, missing = typed if typed is not None else type_hand(game, raw, active_players(game, state), state)
    if missing:
        sentences = missing_sentence(game, missing)
        raise HandError(sentences[0] if len(sentences) == 1 else
                        ngettext("{n} value is missing", "{n} values are missing", len(sentences)).format(n=len(sentences)),
                        sentences)
    problems = copies_problems(game, hand)
    if problems:
        raise HandError(problems[0], problems)
    return hand


def missing_sentence(game: Game, missing: Sequence[Missing]) -> list[str]:
    out = []
    for m in missing:
        fdef = game.ruleset.fields[m.field]
        name = field_label(game.ruleset, m.field)
        if m.who is None:
            out.append(_("missing {field} ({legal})").format(field=name, legal=describe_field(game, fdef)))
        else:
            who = _who_names(game, fdef.scope)[m.who]
            out.append(_("missing {field} ({legal})").format(field=f"{who}.{name}", legal=describe_field(game, fdef)))
    return out


def copies_problems(game: Game, hand: Hand) -> list[str]:
    """Cards typed more often than the deck holds them (the same card in two hands)."""
    lists: list[tuple[str, ...]] = []
    for fname, fdef in game.ruleset.fields.items():
        if fdef.type != "cards":
            continue
        value = hand.get(fname)
        if fdef.scope == "hand":
            lists.append(tuple(value or ()))
        else:
            lists.extend(tuple(v or ()) for v in value or [])
    return cardlib.check_copies(lists, game.ruleset.deck)
