"""Turning what a person types (`bid=4,3,3,3`, `ann.tricks=5`, `contract=4HX`) into a typed hand.

The three assignment forms of the CLI contract, forgiving input (names by unique prefix, seats,
`♠` or `S`, `nil`, yes/no in the players' languages), and one plain sentence per problem.
Missing required fields are reported as a list so the CLI can ask for them on a terminal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import scorepad.cards as cardlib
from scorepad.engine import Game, Hand, base_env
from scorepad.errors import FormulaError, HandError, UserError
from scorepad.ruleset import FieldDef

YES = {"yes", "y", "true", "1", "jah", "j", "да", "д", "так", "т", "+", "on"}
NO = {"no", "n", "false", "0", "ei", "e", "нет", "н", "ні", "-", "off"}
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


def field_range(game: Game, fdef: FieldDef) -> tuple[Any, Any]:
    env = base_env(game)
    low = fdef.min(env) if fdef.min is not None else None
    high = fdef.max(env) if fdef.max is not None else None
    return low, high


def describe_field(game: Game, fdef: FieldDef) -> str:
    """The legal values of a field, as the prompt and `rules show` print them."""
    parts: list[str] = []
    if fdef.type in ("int", "number"):
        low, high = field_range(game, fdef)
        if low is not None and high is not None:
            parts.append(f"{low}-{high}")
        elif low is not None:
            parts.append(f"{low} or more")
        elif high is not None:
            parts.append(f"up to {high}")
        else:
            parts.append("a number")
    elif fdef.type == "bool":
        parts.append("yes/no")
    elif fdef.type == "word":
        parts.append("/".join(fdef.values))
    elif fdef.type == "player":
        parts.append("a player: " + ", ".join(game.players))
    elif fdef.type == "side":
        parts.append("a side: " + ", ".join(s.name for s in game.sides))
    elif fdef.type == "cards":
        parts.append("cards like QS 10H A, or - for none")
    elif fdef.type == "pattern":
        parts.append(fdef.help or "see rules show")
    if fdef.words:
        parts.append(", ".join(fdef.words))
    return "; ".join(parts)


def split_assignments(game: Game, args: Sequence[str], strict: bool = False) -> RawHand:
    """Parse `field=value`, `who.field=value` and `field=v1,v2,...` into per-field raw text.

    `strict` (what a person types now) refuses a value given twice with two different values, naming
    both; otherwise (text stored earlier, where an edit's values follow the hand's first ones) the
    last one wins.
    """
    rs = game.ruleset
    values: dict[str, Any] = {}
    problems: list[str] = []
    given: dict[tuple[str, int | None], tuple[str, str]] = {}  # (field, seat or side) -> (value, as typed)

    def once(fdef: FieldDef, idx: int | None, value: str, arg: str) -> None:
        before = given.setdefault((fdef.name, idx), (value, arg))
        if strict and before[0].casefold() != value.casefold():
            who = None if idx is None else _who_names(game, fdef.scope)[idx]
            label = f"{who}.{fdef.name}" if who else fdef.name
            problems.append(f"{label} is given twice, as {before[0]} ({before[1]}) and as {value} ({arg}); "
                            "type it once")
        given[(fdef.name, idx)] = (value, arg)

    for arg in args:
        if "=" not in arg:
            problems.append(f"{arg!r} is not an assignment; write field=value (fields: {', '.join(rs.fields)})")
            continue
        left, _, right = arg.partition("=")
        left, right = left.strip(), right.strip()
        if len(right) > MAX_VALUE_LENGTH:
            problems.append(f"the value for {left} is too long")
            continue
        who_text, dot, fname = left.rpartition(".")
        fname = fname.lower()
        fdef = _find_field(rs.fields, fname)
        if fdef is None:
            problems.append(f"{game.ruleset.name} has no field {fname!r} (fields: {', '.join(rs.fields)})")
            continue
        count = len(game.players) if fdef.scope == "player" else len(game.sides)
        if dot:
            if fdef.scope == "hand":
                problems.append(f"{fdef.name} is a field of the whole hand; write {fdef.name}={right}")
                continue
            try:
                idx = resolve_who(game, who_text, fdef.scope)
            except UserError as exc:
                problems.append(exc.message)
                continue
            slot = values.setdefault(fdef.name, [None] * count)
            slot[idx] = right
            once(fdef, idx, right, arg)
        elif fdef.scope == "hand":
            values[fdef.name] = right
            once(fdef, None, right, arg)
        else:
            # Cards are separated by commas themselves, so card groups are separated by `/`.
            items = [v.strip() for v in right.split("/" if fdef.type == "cards" else ",")]
            if fdef.type == "cards" and len(items) != count:
                problems.append(f"{fdef.name} holds cards for each {fdef.scope}: write name.{fdef.name}=QS,10H, "
                                f"or one group per {fdef.scope} separated by / "
                                f"({', '.join(_who_names(game, fdef.scope))}): {fdef.name}=QS 10H/-/A 7; "
                                f"got {len(items)} group{'s' if len(items) != 1 else ''}")
                continue
            if len(items) != count:
                who = "players" if fdef.scope == "player" else "sides"
                problems.append(f"{fdef.name} needs {count} values, one per {who[:-1]} in order "
                                f"({', '.join(_who_names(game, fdef.scope))}); got {len(items)}")
                continue
            slot = values.setdefault(fdef.name, [None] * count)
            for idx, item in enumerate(items):
                slot[idx] = item
                once(fdef, idx, item, arg)
    if problems:
        raise HandError(problems[0], problems)
    return RawHand(values, list(args))


def _who_names(game: Game, scope: str) -> list[str]:
    return list(game.players) if scope == "player" else [s.name for s in game.sides]


def _find_field(fields: Mapping[str, FieldDef], name: str) -> FieldDef | None:
    if name in fields:
        return fields[name]
    matches = [f for n, f in fields.items() if n.startswith(name)]
    return matches[0] if len(matches) == 1 else None


def resolve_who(game: Game, text: str, scope: str) -> int:
    """A player or side by name, unique prefix or seat letter; sides also by one of their players."""
    low = text.strip().lower()
    players = [p.lower() for p in game.players]
    sides = [s.name.lower() for s in game.sides]
    seats = [s.lower() for s in game.ruleset.seats]
    side_of = game.side_of

    def exact(names: list[str]) -> int | None:
        return names.index(low) if low in names else None

    def prefix(names: list[str]) -> int | None:
        pref = [i for i, n in enumerate(names) if n.startswith(low)]
        return pref[0] if len(pref) == 1 and low else None

    # exact names first (sides, players, seat letters), then unique prefixes: so `S` is the
    # South seat even when a player called sven sits East.
    n = len(players)
    if scope == "player":
        for finder, names in ((exact, players), (exact, seats), (prefix, players)):
            hit = finder(names)
            if hit is not None and hit < n:
                return hit
        raise UserError(f"{text!r} is not a player ({', '.join(game.players)})")
    for finder, names, is_side in ((exact, sides, True), (exact, players, False), (exact, seats, False),
                                   (prefix, sides, True), (prefix, players, False)):
        hit = finder(names)
        if hit is not None and (is_side or hit < n):
            return hit if is_side else side_of[hit]
    raise UserError(f"{text!r} is not a side ({', '.join(s.name for s in game.sides)})")


def convert(game: Game, fdef: FieldDef, text: str, who: str | None = None) -> tuple[Any, dict[str, Any] | None]:
    """One typed value to its typed form (and pattern parts); raises UserError with a sentence."""
    label = f"{who}.{fdef.name}" if who else fdef.name
    raw = text.strip()
    low = raw.lower()
    if low in fdef.words:
        return fdef.words[low], None
    if raw == "" and fdef.type != "cards":
        raise UserError(f"{label} is empty")
    t = fdef.type
    if t in ("int", "number"):
        try:
            value: Any = int(raw) if t == "int" else float(raw)
        except ValueError:
            extra = f" or {', '.join(fdef.words)}" if fdef.words else ""
            raise UserError(f"{label} must be a {'whole ' if t == 'int' else ''}number{extra}, not {raw!r}") from None
        if t == "number" and float(value).is_integer():
            value = int(value)
        low_v, high_v = field_range(game, fdef)
        if (low_v is not None and value < low_v) or (high_v is not None and value > high_v):
            raise UserError(f"{label} must be {describe_field(game, fdef)}, not {raw}")
        return value, None
    if t == "bool":
        if low in YES:
            return True, None
        if low in NO:
            return False, None
        raise UserError(f"{label} must be yes or no, not {raw!r}")
    if t == "word":
        word = fdef.synonyms.get(low, low)
        if word in fdef.values:
            return word, None
        pref = [v for v in fdef.values if v.startswith(word)]
        if len(pref) == 1 and word:
            return pref[0], None
        raise UserError(f"{label} must be one of {', '.join(fdef.values)}, not {raw!r}")
    if t == "player":
        return game.players[resolve_who(game, raw, "player")], None
    if t == "side":
        return game.sides[resolve_who(game, raw, "side")].name, None
    if t == "cards":
        try:
            return list(cardlib.parse_cards(raw, game.ruleset.deck)), None
        except UserError as exc:
            raise UserError(f"{label}: {exc.message}") from None
    if t == "pattern":
        assert fdef.pattern is not None
        norm = raw.upper().replace(" ", "")
        m = fdef.pattern.fullmatch(norm) if len(norm) <= 40 else None
        if m is None:
            words = f" or {', '.join(fdef.words)}" if fdef.words else ""
            raise UserError(f"{label}: {raw!r} is not valid ({fdef.help or 'see scorepad rules show'}{words})")
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
    raise UserError(f"{label}: unknown field type {t}")


def type_hand(game: Game, raw: RawHand, active: Sequence[bool]) -> tuple[Hand, list[Missing]]:
    """Convert every typed value; fill defaults; list what is still missing. Raises HandError."""
    rs = game.ruleset
    hand: Hand = {}
    problems: list[str] = []
    missing: list[Missing] = []
    for fname, fdef in rs.fields.items():
        given = raw.values.get(fname)
        if fdef.scope == "hand":
            if given is None:
                hand[fname] = fdef.default
            else:
                try:
                    value, parts = convert(game, fdef, given)
                    hand[fname] = value
                    if parts is not None:
                        hand[f"_{fname}_parts"] = parts
                except UserError as exc:
                    problems.append(exc.message)
        else:
            names = _who_names(game, fdef.scope)
            count = len(names)
            out: list[Any] = []
            for i in range(count):
                text = given[i] if given is not None else None
                if text is None:
                    out.append(fdef.default if fdef.default is not None else _empty(fdef))
                    continue
                try:
                    out.append(convert(game, fdef, text, names[i])[0])
                except UserError as exc:
                    problems.append(exc.message)
                    out.append(None)
            hand[fname] = out
    if problems:
        raise HandError(problems[0], problems)
    env = base_env(game)
    env.update({k: v for k, v in hand.items() if not k.startswith("_")})
    for fname, fdef in rs.fields.items():
        if fdef.scope != "hand":
            env["all_" + fname] = hand[fname]
        if fdef.type == "pattern":
            parts = hand.get(f"_{fname}_parts") or {}
            env.update({f"{fname}_{p}": parts.get(p) for p in fdef.parts})
    env.update(hand_no=0, hands=0, dealer=0, active=list(active), n_active=sum(active))
    for fname, fdef in rs.fields.items():
        if fdef.default is not None or (fdef.optional and fdef.required_if is None):
            continue
        if fdef.required_if is not None:
            try:
                needed = bool(fdef.required_if(env))
            except FormulaError:
                needed = True
            if not needed:
                continue
        given = raw.values.get(fname)
        if fdef.scope == "hand":
            if given is None:
                missing.append(Missing(fname, None))
        else:
            for i in range(len(_who_names(game, fdef.scope))):
                is_active = active[i] if fdef.scope == "player" else any(
                    active[j] for j in game.sides[i].members)
                if (given is None or given[i] is None) and is_active:
                    missing.append(Missing(fname, i))
    return hand, missing


def _empty(fdef: FieldDef) -> Any:
    if fdef.type == "cards":
        return []
    if fdef.type == "bool":
        return False
    if fdef.type in ("int", "number"):
        return 0
    return None


def missing_sentence(game: Game, missing: Sequence[Missing]) -> list[str]:
    out = []
    for m in missing:
        fdef = game.ruleset.fields[m.field]
        if m.who is None:
            out.append(f"missing {m.field} ({describe_field(game, fdef)})")
        else:
            who = _who_names(game, fdef.scope)[m.who]
            out.append(f"missing {who}.{m.field} ({describe_field(game, fdef)})")
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
