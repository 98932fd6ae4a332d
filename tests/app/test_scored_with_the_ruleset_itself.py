"""A hand typed in another language is read in that language but scored with the game's pinned ruleset
itself, never with a translated view of it: the result shown right after it is recorded and a check's
refusal find their words by id in the language of the call."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import scorepad.engine.hand_entry as hand_entry
from scorepad.app import games as play
from scorepad.errors import HandError
from scorepad.locale import shown, speaking
from scorepad.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    st = Store(tmp_path / "own.db")
    yield st
    st.close()


@pytest.fixture
def scored_with(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The rulesets every hand was scored with (apply_hand spied on where the app and the entry call it)."""
    seen: list[Any] = []
    for module in (play, hand_entry):
        real = module.apply_hand

        def spy(game: Any, *args: Any, _real: Any = real, **kw: Any) -> Any:
            seen.append(game.ruleset)
            return _real(game, *args, **kw)

        monkeypatch.setattr(module, "apply_hand", spy)
    return seen


def test_a_hand_recorded_in_russian_is_scored_with_the_pinned_ruleset(store: Store, scored_with: list[Any]) -> None:
    play.new_game(store, "spades", ["аня", "боря", "катя", "даня"])
    with speaking("ru"):
        rec = play.record_hand(store, None, ["заказ=4,3,3,3", "взятки=5,3,3,2"])
        shown_now = play.hand_json(rec)
        sheet = play.sheet(store, rec.row)
    pinned = play.game_of(rec.row).ruleset
    assert scored_with and all(rs is pinned for rs in scored_with)
    assert pinned.own is None and "ru" in pinned.views   # the view read the words typed and shows them
    labels = [[line["label"] for line in side["breakdown"]] for side in shown_now["sides"]]
    assert labels == [[line[0] for line in side] for side in sheet["hands"][0]["breakdown"]]
    assert "контракт" in labels[0]
    with speaking("en"):
        english = play.hand_json(rec)
    assert "контракт" not in [line["label"] for line in english["sides"][0]["breakdown"]]


def test_a_refusal_of_a_hand_typed_in_russian_is_russian(store: Store, scored_with: list[Any]) -> None:
    play.new_game(store, "ace-clears", ["anna", "boris", "kira"])
    with speaking("ru"), pytest.raises(HandError) as exc:
        play.record_hand(store, None, ["победитель=anna", "проигравший=anna"])
    pinned = play.game_of(store.game(None)).ruleset
    assert scored_with and all(rs is pinned for rs in scored_with)
    with speaking("ru"):
        assert shown(exc.value.message) == "anna не может в одной игре и выиграть, и проиграть"
    assert store.game(None).hands == 0


def test_a_finish_in_russian_is_worked_out_with_the_pinned_ruleset(store: Store,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    real = play.finish_game
    monkeypatch.setattr(play, "finish_game", lambda game, state: seen.append(game.ruleset) or real(game, state))
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    play.record_hand(store, None, ["bid=4,3,3,3", "tricks=5,3,3,2"])
    with speaking("ru"):
        row, result = play.finish(store, None)
        _breakdown, events = play.result_shown(play.game_of(row), result)
        said = [shown(e) for e in events]
    assert seen == [play.game_of(row).ruleset]
    assert said == ["игра окончена: победа — ann+cat"]
