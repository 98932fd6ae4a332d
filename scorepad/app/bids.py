"""Bids before the play: the bidding fields of the coming hand, written down when they are made.

In the bidding games the bids (or the contract) are noted before the cards are played and the
result after. `record_bid` keeps the bidding fields of the next hand as a pending bid in the
store (audited, one transaction), running at once the checks that need only the bids (Sitaratas'
dealer may not make the bids add up to the tricks). `hand` then completes that hand; `undo`
takes a pending bid back before it takes back a hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorepad.app.games import expected, game_of, in_language, open_game
from scorepad.engine.assignments import RawHand, canonical_names, check_bids, missing_sentence, split_assignments, type_bids
from scorepad.engine.game import Game, active_players
from scorepad.errors import HandError, UserError
from scorepad.locale import _
from scorepad.rules.model import Ruleset
from scorepad.store import GameRow, Store


@dataclass
class Bid:
    row: GameRow
    n: int
    typed: list[str]
    replaced: list[str] | None = None   # the bid written down before, which this one replaced


def bidding_fields(rs: Ruleset) -> list[str]:
    return [name for name, fdef in rs.fields.items() if fdef.bidding]


def record_bid(store: Store, game_id: int | str | None, args: Sequence[str], expect: int | None = None) -> Bid:
    """Write down the bidding fields of the coming hand, read as `hand` reads them (names and words
    of the player's language, a value typed twice refused) and checked at once by the rules that need
    only the bids. A bid written down before is replaced, and the caller says so. With `expect` (the
    version a script was shown) a game that moved meanwhile is refused, so a bid repeated after a lost
    answer never lands on the next hand. (On a terminal the table asks the bidding fields first:
    scorepad/table/entry.py, `enter_bid`.)"""
    row = open_game(expected(store, store.game(game_id), expect))
    game = in_language(game_of(row))
    if row.state["finished"]:
        raise UserError(_('this game has ended and takes no more hands (undo or edit still work)'))
    bidding_or_refuse(game.ruleset)
    before = store.pending_bid(row.id)
    raw = split_assignments(game, args, strict=True)
    problems = bid_problems(game, row.state, raw)
    if problems:
        raise HandError(problems[0], problems)
    typed = canonical_names(game, args)
    store.set_pending_bid(row.id, row.version, typed)
    return Bid(store.game(row.id), row.hands + 1, typed, before)


def bidding_or_refuse(rs: Ruleset) -> list[str]:
    """The ruleset's bidding fields; a game without any refuses a bid with the way to type the hand."""
    bidding = bidding_fields(rs)
    if not bidding:
        raise UserError(_("{name} has no fields written down at bid time; record the whole hand with "
                           "`scorepad hand`").format(name=rs.name))
    return bidding


def bid_problems(game: Game, state: dict[str, object], raw: RawHand) -> list[str]:
    """Bidding values that are missing or illegal, and the bid-time checks that fail."""
    hand, missing = type_bids(game, raw, active_players(game, state), state)
    if missing:
        return missing_sentence(game, missing)
    return check_bids(game, state, hand)


def undo_bid(store: Store, game_id: int | str | None) -> tuple[GameRow, list[str]] | None:
    """Take back the bid written down for the coming hand; None when there is none."""
    row = store.game(game_id)
    pending = store.pending_bid(row.id)
    if pending is None:
        return None
    store.set_pending_bid(row.id, row.version, None)
    return store.game(row.id), pending
