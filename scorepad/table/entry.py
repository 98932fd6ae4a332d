"""Entering a hand on a terminal: the prompt, then the store, with the game as it stands then.

The database is never held while the person types: the game is read, the prompt runs with no
transaction open, and the hand is stored only if the game is still at the version it was read at.
If another terminal recorded (or took back) a hand meanwhile, that is shown, and the prompt's hand
is checked and summarised again against the game as it stands before it is stored.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorepad.app.answer_lost import new_key
from scorepad.app.bids import Bid, bidding_or_refuse, record_bid
from scorepad.app.games import (
    HandStart,
    Recorded,
    Typed,
    game_of,
    in_language,
    open_game,
    record_given,
    start_hand,
    write_hand,
)
from scorepad.engine.assignments import split_assignments
from scorepad.engine.hand_entry import Outcome
from scorepad.errors import HandError, StoreConflict, UserError
from scorepad.locale import _
from scorepad.store import GameRow, Store
from scorepad.table.console import Console
from scorepad.table.prompt import HandPrompt
from scorepad.text.render import num


def take_hand(store: Store, game_id: int | str | None, args: Sequence[str], console: Console | None,
              key: str, expect: int | None = None) -> Recorded:
    """`scorepad hand`: the typed text read once (`start_hand`); stored as given without a terminal (or
    with `expect`, a script's), else the prompt asks what is left (`enter_hand`)."""
    start = start_hand(store, game_id, args)
    if console is None or expect is not None:
        return record_given(store, start, expect=expect, key=key)
    return _prompted(store, start, console, key)


def enter_hand(store: Store, game_id: int | str | None, args: Sequence[str], console: Console,
               key: str | None = None) -> Recorded:
    """Record the next hand: `args` (and a bid written down before) stand; every other field that
    applies is asked. Complete, legal `args` are stored at once, without questions, unless a row of
    them is short by one (its total gives the value left out): that is shown and Record? asked. `key`
    (made here when not given) is the hand's idempotency key."""
    # the questions, the words typed and the result in the chosen language
    return _prompted(store, start_hand(store, game_id, args), console, key or new_key())


def _prompted(store: Store, start: HandStart, console: Console, key: str) -> Recorded:
    row, entry = start.row, start.entry
    prompt = HandPrompt.driving(entry, console)
    if entry.asked and not entry.short_row:   # complete on the command line: stored at once when it scores
        try:
            outcome = entry.score()
        except HandError:
            pass  # the prompt shows the problem and asks the fields again
        else:
            rec = _store(store, row, prompt, outcome, console, key)
            if rec is not None:
                return rec
            row = store.game(row.id)
            entry.rebase(row.state, row.hands + 1)
    return _run(store, row, prompt, console, key)


def _run(store: Store, row: GameRow, prompt: HandPrompt, console: Console, key: str) -> Recorded:
    while True:
        outcome = prompt.run()
        rec = _store(store, row, prompt, outcome, console, key)
        if rec is not None:
            return rec
        row = store.game(row.id)
        if row.state["finished"]:
            raise UserError(_('the game ended meanwhile (a hand was recorded in another terminal); nothing was stored'))
        prompt.entry.rebase(row.state, row.hands + 1)


def _store(store: Store, row: GameRow, prompt: HandPrompt, outcome: Outcome, console: Console,
           key: str) -> Recorded | None:
    """Store the hand through the one write every front end uses, if the game is still as it was read;
    else say what changed and return None. `key` is this hand's: a lost answer is asked about again."""
    try:
        return write_hand(store, row, prompt.game, Typed(outcome.raw, outcome.hand, outcome.result),
                          expect=row.version, key=key, bid=len(prompt.entry.base))
    except StoreConflict:
        show_changes(store, row, store.game(row.id), console)
        return None


def show_changes(store: Store, before: GameRow, after: GameRow, console: Console) -> None:
    """What another terminal did to the game since `before` was read."""
    if after.hands > before.hands:
        for h in store.hands(after.id)[before.hands:]:
            sides = ", ".join(f"{s['name']} {num(p)}" for s, p in zip(after.sides, h.points, strict=False))
            console.say(_("Meanwhile hand {n} was recorded elsewhere ({value}): {sides}").format(
                            n=h.n, value=' '.join(h.typed), sides=sides), "event")
    elif after.hands < before.hands:
        console.say(_("Meanwhile the game was taken back to {hands} hands elsewhere.").format(hands=after.hands), "event")
    else:
        console.say(_('Meanwhile the game was changed elsewhere.'), "event")
    console.say(_("Your hand is now hand {value}; it is checked against the game as it stands.").format(
                    value=after.hands + 1), "event")


def enter_bid(store: Store, game_id: int | str | None, console: Console) -> Bid:
    """Ask the bidding fields of the coming hand (a bid written down before gives the defaults), with
    the checks the bids alone decide run as each is typed; then write them down as `bid` does."""
    row = open_game(store.game(game_id))
    if row.state["finished"]:
        raise UserError(_('this game has ended and takes no more hands (undo or edit still work)'))
    game = in_language(game_of(row))
    bidding_or_refuse(game.ruleset)
    before = store.pending_bid(row.id) or []
    prompt = HandPrompt(game, row.state, console, split_assignments(game, before), hand_no=row.hands + 1, mode="bids")
    prompt.drive()     # a line `bid=4,3,3,3` typed at a question: the bidding fields not on it are asked
    for line in prompt.entry.bid_summary():   # each player's bid by name, as `hand` shows a hand as read
        console.say(f"  {line}")
    return record_bid(store, row.id, prompt.entry.raw().typed)
