"""A stored hand's events: each by the id of its message, never its words.

Stored, an event is {"msgid": <the program's message id>, "args": {...}} (what scorepad says: `game
over: {names} win`) or {"rule": <a [[rule]]'s id>, "args": {<placeholder>: value}} (a ruleset's
message, its `{formula}` parts' values by their text). An argument that is itself a sentence is
{"msgid", "args"}, a score line's label {"score": id}. The words are found when the hand is shown, in
the language shown: a game is shown in Ukrainian without scoring a hand again. An event stored as
words (as scorepad wrote before schema 9, or one whose text named no single message) stays as it is
and is shown as it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from scorepad.locale import Grouped, Said
from scorepad.store.migrations import EVENT_NAMERS

if TYPE_CHECKING:
    from scorepad.engine.game import Game, HandResult

StoredEvent = dict[str, Any] | str


def stored_event(event: str) -> StoredEvent:
    """One event as stored: by its message's id; as words when it has none (a rule not alone with its id)."""
    from scorepad.engine.game import RuleEvent  # start-up: the engine only when a hand is stored

    if isinstance(event, Said):
        return {"msgid": event.msgid, "args": {k: _stored_arg(v) for k, v in event.args.items()}}
    if isinstance(event, RuleEvent):
        return {"rule": event.rule, "args": dict(event.values)}
    return str(event)


def _stored_arg(value: Any) -> Any:
    if isinstance(value, Said):
        return stored_event(value)
    if isinstance(value, (list, tuple)):
        return [_stored_arg(v) for v in value]
    line_id = getattr(value, "id", None)   # a LineLabel: its line's id (its words if the id is gone)
    if isinstance(value, str) and isinstance(line_id, str):
        return {"score": line_id}
    if isinstance(value, Grouped):
        return int(value)
    return str(value) if isinstance(value, str) else value


def stored_events(result: HandResult) -> list[StoredEvent]:
    """A scored hand's events as a hand row stores them (in no language)."""
    return [stored_event(e) for e in result.events]


def event_shown(game: Game, event: Any) -> str:
    """A stored event as the engine said it, in the words of `game`'s ruleset: a program message a
    `Said` (shown in the language of the call), a rule's message the ruleset's; words as they are."""
    from scorepad.engine.game import rule_message  # start-up: the engine only when an event is shown

    if isinstance(event, str) or not isinstance(event, dict):
        return str(event)
    args = event.get("args") or {}
    if "msgid" in event:
        try:
            return Said(str(event["msgid"]), **{str(k): _arg_shown(game, v) for k, v in args.items()})
        except (KeyError, IndexError, ValueError, AttributeError):
            return str(event["msgid"])   # arguments its message does not take: the message as it is
    rule = next((r for r in game.ruleset.rules if r.id == event.get("rule")), None)
    if rule is None:
        return str(event.get("rule"))
    return rule_message(rule.message, args, game.ruleset.display_words) if rule.message_parts else rule.message


def _arg_shown(game: Game, value: Any) -> Any:
    if isinstance(value, list):
        return [_arg_shown(game, v) for v in value]
    if isinstance(value, dict) and "score" in value:
        return next((s.label for s in game.ruleset.scores if s.id == value["score"]), str(value["score"]))
    if isinstance(value, dict) and "msgid" in value:
        return event_shown(game, value)
    return value


def shown_events(game: Game, stored: Sequence[Any]) -> list[str]:
    """A hand's stored events in the words of `game`'s ruleset and the language of the call."""
    return [event_shown(game, e) for e in stored]


def same_events(result: HandResult, stored: Any) -> bool:
    """Whether stored events say what a replay of their hand says: one stored by id as the replay
    stores it, one stored as words (an older export, text the migration could not name) as its words."""
    if not isinstance(stored, list) or len(stored) != len(result.events):
        return False
    return all(s == str(e) if isinstance(s, str) else s == stored_event(e)
               for s, e in zip(stored, result.events, strict=True))


def same_events_text(result: HandResult, text: str) -> bool:
    """same_events of a stored column's JSON text; False when it is not JSON."""
    try:
        return same_events(result, json.loads(text))
    except (ValueError, RecursionError):
        return False


def named_events(stored: Sequence[Any], replayed: Sequence[str]) -> list[StoredEvent]:
    """Events stored as words named by id where the words are those of exactly one of the replayed
    hand's events (by what it stores); any other event stays as it is."""
    by_text: dict[str, list[StoredEvent]] = {}
    for event in replayed:
        found = by_text.setdefault(str(event), [])
        if (named := stored_event(event)) not in found:
            found.append(named)
    return [found[0] if isinstance(e, str) and len(found := by_text.get(e, [])) == 1 else e for e in stored]


def _migrate_game(row: Mapping[str, Any], hands: list[tuple[int, str, Any, Any, list[Any]]]) -> list[list[Any]]:
    """The schema-9 step's namer: one game's hands (n, status, hand, state, events as parsed) with the
    events stored as words named by id, found by scoring each hand that has them again once."""
    from scorepad.app.pinned import pinned_ruleset  # start-up: the loader only when old rows are migrated
    from scorepad.engine.game import Game, Side, initial_state  # start-up: the engine only when migrating
    from scorepad.engine.scoring import apply_hand  # start-up: beside the engine
    from scorepad.errors import ScorepadError  # start-up: beside the engine, only when migrating

    out = [events for *_, events in hands]
    try:
        rs = pinned_ruleset(row["ruleset_text"], row["ruleset_source"], row["variant"])
        sides = tuple(Side(s["name"], tuple(s["members"])) for s in row["sides"])
        game = Game(rs, tuple(row["players"]), sides, dict(row["options"]), row["first_dealer"])
        start = initial_state(game)
    except (ScorepadError, KeyError, TypeError, ValueError):
        return out   # a ruleset that no longer loads: its hands keep their words (`verify` names it)
    after = {n: state for n, status, _hand, state, _events in hands if status == "active"}
    for i, (n, _status, hand, _state, events) in enumerate(hands):
        if not isinstance(events, list) or not any(isinstance(e, str) for e in events):
            continue
        before = start if n == 1 else after.get(n - 1, {})
        try:
            out[i] = named_events(events, apply_hand(game, before, hand).events)
        except (ScorepadError, KeyError, TypeError, ValueError, AttributeError):
            continue   # a hand that no longer scores: its events keep their words
    return out


if _migrate_game not in EVENT_NAMERS:
    EVENT_NAMERS.append(_migrate_game)
