"""A hand as it was typed, said back in the language shown: `контракт=4S разыгрывающий=N взятки=10`
for `contract=4S by=N tricks=10`, each field by the first name players of that language type, each
value in its words (yes/no, a field's words, cards in the language's notation, combinations by
their names there). The undo and edit messages, the log and the edit prompt all say a hand this way,
so a player reads it as the table types it. English, and whatever cannot be read, stays as typed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from scorepad.engine.assignments import combos_said, convert, field_label, field_or_none, value_shown
from scorepad.engine.game import Game
from scorepad.errors import ScorepadError
from scorepad.locale import current
from scorepad.rules import cards as cardlib
from scorepad.rules.model import FieldDef, Ruleset


def typed_said(game: Game, typed: Sequence[str]) -> str:
    """The assignments of a hand (`field=value`, `who.field=value`, `field=v1,v2`) in the language
    shown, joined by spaces; in English exactly as typed."""
    if current() == "en":
        return " ".join(typed)
    return " ".join(assignment_said(game, item) for item in typed)


def assignment_said(game: Game, item: str) -> str:
    """One assignment in the language shown; an assignment that names no field stays as typed."""
    left, eq, right = item.partition("=")
    if not eq:
        return item
    who, dot, name = left.strip().rpartition(".")
    try:
        fdef = field_or_none(game.ruleset, name)
    except ScorepadError:
        fdef = None
    if fdef is None:
        return item
    label = field_label(game.ruleset, fdef.name)
    row = not dot and fdef.scope != "hand" and not (fdef.type == "combos" and _one(game, fdef))
    if row:
        sep = "/" if fdef.type == "cards" else ","
        value = sep.join(value_said(game, fdef, part) for part in right.split(sep))
    else:
        value = value_said(game, fdef, right)
    return f"{who}{dot}{label}={value}"


def _one(game: Game, fdef: FieldDef) -> bool:
    """A combinations field of one player or side: its whole text is one value (it has commas)."""
    return len(game.players if fdef.scope == "player" else game.sides) == 1


def value_said(game: Game, fdef: FieldDef, text: str) -> str:
    """One value of a field in the language shown (the spaces around it kept); as typed where the
    language writes it the same way or it cannot be read."""
    raw = text.strip()
    if not raw:
        return text
    try:
        value, _parts = convert(game, fdef, raw)
    except ScorepadError:
        return text
    said = _said(game, fdef, raw, value)
    lead, trail = text[:len(text) - len(text.lstrip())], text[len(text.rstrip()):]
    return f"{lead}{said}{trail}"


def _said(game: Game, fdef: FieldDef, raw: str, value: Any) -> str:
    rs = game.ruleset
    if isinstance(value, bool) or (isinstance(value, str) and fdef.type in ("word", "pattern", "cards", "combos")):
        return value_shown(rs, fdef, value) or raw
    if fdef.type == "cards" and isinstance(value, list):
        return " ".join(cardlib.card_shown(card) for card in value) or raw
    if fdef.type == "combos" and isinstance(value, list):
        return combos_text(rs, fdef, value) or raw
    if fdef.type in ("player", "side"):
        return seat_said(rs, raw)
    return raw


def seat_said(rs: Ruleset, raw: str) -> str:
    """A seat letter or a side's name typed for a player or a side (`N`, `EW`, Russian `ВЗ`) as the
    language shown writes it (`С`, `ВЗ`); a player's name, as typed."""
    low = raw.strip().lower()
    for kind, own in (("seats", rs.seats), ("side_names", rs.side_names)):
        index = next((i for i, name in enumerate(own) if name.lower() == low), rs.seats_typed[kind].get(low))
        if index is not None:
            return rs.seat_shown(kind, index, current()) or str(own[index])
    return raw


def combos_text(rs: Ruleset, fdef: FieldDef, codes: Sequence[Any]) -> str:
    """Combinations (their codes, or points kept as numbers) by their names in the language shown,
    `2x` before one made twice: `4A tm` is `4 туза козырный марьяж` in Russian (read back the same:
    the longest name first)."""
    names: dict[str, str] = {}
    for said, code in combos_said(rs, fdef):
        combo = fdef.combos[code]
        for other, c in fdef.combos.items():
            if (c.field, c.adds, c.points.source) == (combo.field, combo.adds, combo.points.source):
                names.setdefault(c.code, said)
                names.setdefault(other, said)
    counted = Counter(codes)
    parts = []
    for code, times in counted.items():
        name = names.get(str(code), str(code)) if not isinstance(code, (int, float)) else str(code)
        parts.append(name if times == 1 else f"{times}x{name}")
    return " ".join(parts)   # never a comma: it separates the players of a row
