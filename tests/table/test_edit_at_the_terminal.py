"""`edit N` at the terminal asks every field the hand has, for every player and side, with the old
values in brackets: a value typed for one player (Skid's cards, Marjas' auxiliary trumps) can be
corrected there, and `<` goes back to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorepad.app import games as play
from scorepad.store import Store
from scorepad.table.edits import edit_interactively
from tests.table.typist import Script


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "e.db")


def test_edit_asks_each_players_cards_and_goes_back_to_them(store: Store) -> None:
    play.new_game(store, "skid", ["ann", "bob", "cat"])
    play.record_hand(store, None, ["out=ann", "bob.cards=QS 10H", "cat.cards=A 7"])
    # out, jack, reshuffles kept; ann went out, so her cards (none) are not asked; bob's cards typed
    # again, then `<` from cat's back to bob's
    console = Script(["", "", "", "QS", "<", "QS 9H", "", "y"])
    row, rows = edit_interactively(store, None, 1, console)
    # bob is now the first asked of the row, so his question says what cards may be typed
    assert "bob: cards (cards like QS 10H A, or - for none) [QS 10H]: " in console.questions
    assert "bob: cards (cards like QS 10H A, or - for none) [QS]: " in console.questions   # reached again with `<`
    assert not any(q.startswith("ann: cards") for q in console.questions)
    assert "cat: cards [A 7]: " in console.questions
    hand = store.hands(row.id)[0]
    assert hand.hand["cards"] == [[], ["QS", "9H"], ["A", "7"]]
    assert "bob.cards=QS 9H" in hand.typed and len(rows) == 1


def test_edit_asks_a_side_field_typed_for_one_side(store: Store) -> None:
    play.new_game(store, "marjas", ["n", "e", "s", "w"])
    play.record_hand(store, None, ["trump=n", "n.extra=1", "matt=n", "last=e"])
    console = Script(["", "", "", "2", "1", "y"])     # trump, matt, last kept; each side's extra typed again
    row, rows = edit_interactively(store, None, 1, console)
    assert console.questions[3:5] == ["n+s: extra (0-3) [1]: ", "e+w: extra [0]: "]
    assert store.hands(row.id)[0].hand["extra"] == [2, 1] and len(rows) == 1
