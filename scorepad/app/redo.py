"""Redo: put back the last hand that undo took back, scored against the game as it stands."""

from __future__ import annotations

from scorepad.app.answer_lost import new_key
from scorepad.app.games import (
    Recorded,
    changed_once,
    expected,
    game_of,
    hand_row,
    type_and_score,
)
from scorepad.errors import ScorepadError, UserError
from scorepad.locale import _, shown
from scorepad.store import Store


def redo(store: Store, game_id: int | str | None, expect: int | None = None) -> Recorded:
    """The hand most recently undone at the next number comes back as it was typed; if the game
    changed since so that it no longer fits, it is refused with the reason. `expect`: the version the
    person saw (a repeat of a redo already done is refused with what happened). The hand is stored in
    the ruleset's own texts and shown in the language of the call (its breakdown and events), as `hand` shows one."""
    row = expected(store, store.game(game_id), expect)
    n = row.hands + 1
    undone = store.undone_hand(row.id, n)
    if undone is None:
        raise UserError(_("there is no undone hand {n} to put back (redo follows an undo)").format(n=n))
    if store.pending_bid(row.id) is not None:
        raise UserError(_("a bid is written down for hand {n}; undo it before putting the old hand {n} back").format(n=n))
    game = game_of(row)
    try:   # typed again from its text, as every hand is: the text is what the audit shows
        _raw, hand, result = type_and_score(game, row.state, undone.typed)
    except ScorepadError as exc:
        raise UserError(_("hand {n} ({value}) no longer fits the game: {message}").format(
                            n=n, value=' '.join(undone.typed), message=shown(exc.message))) from None
    key = new_key()
    changed_once(store, row, key, _("redo"), "scorepad redo", lambda: store.add_hand(
        row.id, row.version, hand_row(n, undone.typed, hand, result),
        audit=("redo", {"restored": {"n": n, "typed": list(undone.typed)}, "key": key})))
    return Recorded(store.game(row.id), game, n, result)   # scored with the ruleset itself: shown by id
