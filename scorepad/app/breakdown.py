"""A stored hand's breakdown: each line by the id of the ruleset's line that made it, never its words.

Stored, a line is {"id": <a [[score]]'s id>} or {"rule": <a [[rule]]'s id>}, with "points", "to" when
not only the score, and "args": {"player": ...} for a per-player line. Its words are the ruleset's
label, found when the hand is shown, in the language shown: a game recorded in Estonian is shown in
Ukrainian without scoring a hand again. A line stored as words ([label, points, to], as scorepad
wrote before schema 8, or a label that named no single line of the pinned ruleset) stays as it is and
is shown as it is: no stored text is lost.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from scorepad.store.migrations import BREAKDOWN_NAMERS

if TYPE_CHECKING:
    from scorepad.engine.game import Game, HandResult, Line

Words = list[Any]          # [label, points, to]: a line as the sheet shows it
StoredLine = dict[str, Any] | list[Any]


def stored_line(line: Line) -> StoredLine:
    """One line as stored: by its id; as words when the engine gave it none (its id is not its ruleset's only one)."""
    to = list(line.to)
    if not line.id:
        return [line.label, line.points, to]
    out: dict[str, Any] = {"rule" if line.rule else "id": line.id, "points": line.points}
    if line.player is not None:
        out["args"] = {"player": line.player}
    if to != ["score"]:
        out["to"] = to
    return out


def stored_breakdown(result: HandResult) -> list[list[StoredLine]]:
    """A scored hand's breakdown as a hand row stores it (in no language)."""
    return [[stored_line(line) for line in items] for items in result.breakdown]


def words_breakdown(result: HandResult) -> list[list[Words]]:
    """A scored hand's breakdown in the words of the ruleset it was scored with (what is shown of it)."""
    return [[[line.label, line.points, list(line.to)] for line in items] for items in result.breakdown]


def line_words(game: Game, line: Any) -> Words:
    """A stored line as [label, points, to] in the language of `game`'s ruleset; a line stored as words
    as it is, one whose id the ruleset lacks under its id (never thrown away)."""
    from scorepad.engine.game import score_line_label  # start-up: the engine only when a breakdown is read

    if isinstance(line, list):
        return [line[0], line[1], list(line[2]) if len(line) > 2 else ["score"]]
    to = list(line.get("to", ["score"]))
    if "rule" in line:
        label = next((r.label for r in game.ruleset.rules if r.id == line["rule"]), str(line["rule"]))
        return [label, line["points"], to]
    key = line.get("id", "")
    label = next((s.label for s in game.ruleset.scores if s.id == key), str(key))
    player = (line.get("args") or {}).get("player")
    return [score_line_label(game, label, player), line["points"], to]


def shown_breakdown(game: Game, stored: Sequence[Sequence[Any]]) -> list[list[Words]]:
    """A stored breakdown in the words of `game`'s ruleset (translated when the game is shown in a language)."""
    return [[line_words(game, line) for line in items] for items in stored]


def same_breakdown(game: Game, result: HandResult, stored: Any) -> bool:
    """Whether a stored breakdown says what a replay of its hand says, line by line in the pinned
    ruleset's words: a line stored as words (an older export, a label the migration could not name)
    equals the replayed line of that label."""
    if not isinstance(stored, list) or len(stored) != len(result.breakdown):
        return False
    try:
        shown = shown_breakdown(game, stored)
    except (AttributeError, IndexError, KeyError, TypeError):
        return False
    replayed = words_breakdown(result)
    from scorepad.app.transfer.schema import same  # here: the transfer schema imports this module

    return same(shown, replayed)


def same_breakdown_text(game: Game, result: HandResult, text: str) -> bool:
    """same_breakdown of a stored column's (or an export's) JSON text; False when it is not JSON."""
    try:
        return same_breakdown(game, result, json.loads(text))
    except (ValueError, RecursionError):
        return False


def named_breakdown(game: Game, stored: Sequence[Sequence[Any]]) -> list[list[StoredLine]]:
    """Lines stored as words named by id where the ruleset's own (English) label of exactly one line of
    this game says them; any other line stays as it is."""
    from scorepad.engine.game import score_line_label  # start-up: the engine only when a breakdown is read

    plan = game.plan
    labels: dict[str, list[dict[str, Any]]] = {}
    for item in game.ruleset.scores:
        if item.id not in plan.score_ids:
            continue
        players = game.players if item.per == "player" else (None,)
        for player in players:
            named: dict[str, Any] = {"id": item.id}
            if player is not None:
                named["args"] = {"player": player}
            labels.setdefault(score_line_label(game, item.label, player), []).append(named)
    for rule in game.ruleset.rules:
        if rule.id in plan.rule_ids:
            labels.setdefault(rule.label, []).append({"rule": rule.id})
    out: list[list[StoredLine]] = []
    for items in stored:
        side: list[StoredLine] = []
        for line in items:
            found = labels.get(line[0], []) if isinstance(line, list) and line and isinstance(line[0], str) else []
            if len(found) != 1 or len(line) < 2:
                side.append(line)
                continue
            to = list(line[2]) if len(line) > 2 and isinstance(line[2], list) else ["score"]
            named = {**found[0], "points": line[1]}
            if to != ["score"]:
                named["to"] = to
            side.append(named)
        out.append(side)
    return out


def _migrate_game(row: Mapping[str, Any], breakdowns: list[Any]) -> list[Any]:
    """The schema-8 step's namer: one game's stored breakdowns (as parsed) with ids for words."""
    from scorepad.app.pinned import pinned_ruleset  # start-up: the loader only when old rows are migrated
    from scorepad.engine.game import Game, Side  # start-up: the engine only when a breakdown is read
    from scorepad.errors import ScorepadError  # start-up: beside the engine, only when a breakdown is read

    try:
        rs = pinned_ruleset(row["ruleset_text"], row["ruleset_source"], row["variant"])
    except ScorepadError:
        return breakdowns   # a ruleset that no longer loads: its hands keep their words (`verify` names it)
    sides = tuple(Side(s["name"], tuple(s["members"])) for s in row["sides"])
    game = Game(rs, tuple(row["players"]), sides, dict(row["options"]), row["first_dealer"])
    return [named_breakdown(game, b) if isinstance(b, list) and all(isinstance(s, list) for s in b) else b
            for b in breakdowns]


if _migrate_game not in BREAKDOWN_NAMERS:
    BREAKDOWN_NAMERS.append(_migrate_game)
