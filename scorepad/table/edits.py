"""`edit N` on a terminal: hand N as it was typed, asked again with those values as defaults."""

from __future__ import annotations

from scorepad.app import games as play
from scorepad.engine.assignments import split_assignments
from scorepad.engine.game import initial_state
from scorepad.errors import UserError
from scorepad.locale import _, ngettext
from scorepad.store import GameRow, HandRow, Store
from scorepad.table.console import Console
from scorepad.table.prompt import HandPrompt
from scorepad.text.typed import typed_said


def edit_interactively(store: Store, game_id: int | str | None, n: int,
                       console: Console) -> tuple[GameRow, list[HandRow]]:
    """Show how hand n was typed, ask every field (per player too) with the old values in brackets, then store the
    change like `edit N FIELD=V...` (later hands re-scored; refused whole if one no longer fits)."""
    row = store.game(game_id)
    game = play.game_of(row)
    asked = play.in_language(game)   # the questions, the words typed and the breakdown in the language shown
    hands = store.hands(row.id)
    if not 1 <= n <= len(hands):
        raise UserError(ngettext("there is no hand {n} in game {id} (it has {count} hand)",
                                 "there is no hand {n} in game {id} (it has {count} hands)", len(hands)).format(
                                     n=n, id=row.id, count=len(hands)))
    old = hands[n - 1]
    state = hands[n - 2].state if n > 1 else initial_state(game)
    console.say(_("Hand {n} was typed: {value}").format(n=n, value=typed_said(game, old.typed)
                                                         or _("(nothing: all defaults)")))
    prompt = HandPrompt(asked, state, console, split_assignments(asked, old.typed), hand_no=n, mode="edit")
    outcome = prompt.run()
    return play.edit(store, row.id, n, prompt.entry.raw(full=True).typed or outcome.raw.typed)
