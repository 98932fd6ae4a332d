"""A game shown in a language reads its ruleset's words from one view per ruleset and language,
shared by every call; what is stored is scored once, whatever the language of the call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorepad.app import games as play
from scorepad.locale import speaking
from scorepad.store import Store
from tests.conftest import counting


@pytest.fixture
def store(tmp_path: Path) -> Any:
    st = Store(tmp_path / "views.db")
    play.new_game(st, "spades", ["ann", "bob", "cat", "dan"])
    play.record_hand(st, None, ["bid=4,3,3,3", "tricks=5,3,3,2"])
    play.record_hand(st, None, ["bid=3,3,3,3", "tricks=4,3,3,3"])
    yield st
    st.close()


def breakdowns(st: Store) -> list[Any]:
    return [h.breakdown for h in st.hands(st.game(None).id)]


def test_every_call_in_a_language_shares_one_view_of_the_ruleset(store: Store) -> None:
    row = store.game(None)
    with speaking("uk"):
        first, second = play.in_language(play.game_of(row)), play.in_language(play.game_of(row))
        assert play.sheet(store, row)["hands"][0]["breakdown"][0][0][0] == "контракт"
    own = play.game_of(row).ruleset
    assert first.ruleset is second.ruleset is own.views["uk"] and first.ruleset is not own
    with speaking("en"):
        assert play.in_language(first).ruleset is own   # a view shown in English: the ruleset's own words
    assert [a.points for a in first.ruleset.scores] == [b.points for b in own.scores]


def test_an_edit_in_a_language_scores_the_changed_hand_once(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    real = play.apply_hand
    scored = counting(monkeypatch, "apply_hand", play)
    with speaking("ru"):
        _row, rows = play.edit(store, None, 1, ["tricks=4,4,3,2"])
    assert len(rows) == 2 and scored[0] == 2   # the changed hand and the one after it, each once
    in_russian = breakdowns(store)
    monkeypatch.setattr(play, "apply_hand", real)
    play.edit(store, None, 1, ["tricks=5,3,3,2"])
    play.edit(store, None, 1, ["tricks=4,4,3,2"])
    assert breakdowns(store) == in_russian   # stored by id: the same as an edit in English stores
