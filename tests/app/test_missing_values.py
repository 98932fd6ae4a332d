"""A hand typed with values missing is refused in the language shown, naming the fields as players of
that language type them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scorepad.app import games as play
from scorepad.errors import HandError
from scorepad.locale import set_language
from scorepad.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    st = Store(tmp_path / "t.db")
    yield st
    st.close()
    set_language(None)


def test_missing_values_are_counted_and_named_in_the_language_shown(store: Store) -> None:
    row = play.new_game(store, "thousand", ["ann", "bob", "cat"])
    set_language("ru")
    with pytest.raises(HandError) as exc:
        play.record_hand(store, row.id, ["очки=70,30,20"])
    assert exc.value.message == "не хватает 2 значений"
    assert exc.value.problems[0].startswith("не хватает заказчик (")
    set_language(None)
    with pytest.raises(HandError) as exc:
        play.record_hand(store, row.id, ["points=70,30,20"])
    assert exc.value.message == "2 values are missing" and exc.value.problems[0].startswith("missing bidder (")
    assert store.game(row.id).hands == 0
