"""A write whose answer is lost (the connection drops, or Ctrl-C, after the COMMIT was sent): the store is
asked again before anything is offered again, so no hand is stored twice and no stored hand is called
"not stored"; undo, redo, edit and finish carry the version they act on, so a repeat never changes twice.

The store here is SQLite with the fault put where a server's would be: the transaction commits, then the
answer is lost (StoreUnreachable) or a Ctrl-C arrives. tests/store/test_lost_commit_on_server.py does the
same on a real PostgreSQL connection cut after the COMMIT."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from scorepad.app import games as play
from scorepad.app.answer_lost import MaybeStored
from scorepad.app.redo import redo
from scorepad.errors import StoreConflict, StoreUnreachable
from scorepad.store import Store
from scorepad.table.entry import enter_hand
from scorepad.table.session import Session
from tests.table.typist import Script


class Faulty(Store):
    """An SQLite store whose next write commits and then loses its answer, or is interrupted after it.
    `after` counts the writes to let through first; `unreachable` makes every later write fail too."""

    def __init__(self, path: Path) -> None:
        self.fault: str | None = None
        self.after = 0
        self.unreachable = False
        super().__init__(path)   # (its migrations are a write)

    @contextmanager
    def write(self) -> Iterator[Any]:
        if self.unreachable:
            raise StoreUnreachable("cannot reach the club database (test): connection refused")
        with super().write() as db:
            yield db
        if self.fault is None:
            return
        if self.after:
            self.after -= 1
            return
        fault, self.fault = self.fault, None
        if fault == "lost":
            raise StoreUnreachable("cannot reach the club database (test): server closed the connection")
        if fault == "lost for good":
            self.unreachable = True
            raise StoreUnreachable("cannot reach the club database (test): server closed the connection")
        for _ in range(2 if fault == "ctrl-c twice" else 1):
            os.kill(os.getpid(), signal.SIGINT)


@pytest.fixture
def store(tmp_path: Path) -> Faulty:
    s = Faulty(tmp_path / "lost.db")
    play.new_game(s, "spades", ["ann", "bob", "cat", "dan"])
    return s


def hands_typed(store: Store) -> list[list[str]]:
    return [h.typed for h in store.hands(store.game(None).id)]


HAND = ["bid=4,3,3,3", "tricks=5,3,3,2"]


@pytest.mark.parametrize("fault", ["lost", "ctrl-c", "ctrl-c twice"])
def test_the_argument_form_stores_a_hand_once_and_says_so(store: Faulty, fault: str) -> None:
    store.fault = fault
    rec = play.record_hand(store, None, HAND, key="k1")
    assert rec.n == 1 and rec.result.points == [71, -60]
    assert hands_typed(store) == [HAND]


@pytest.mark.parametrize("fault", ["lost", "ctrl-c", "ctrl-c twice"])
def test_the_prompt_and_play_store_a_hand_once(store: Faulty, fault: str) -> None:
    store.fault = fault
    # complete values: stored at once; a re-offer of the same hand would ask "Record?" and store it again
    console = Script(["y", "y", "y"])
    rec = enter_hand(store, None, HAND, console)
    assert rec.n == 1
    assert hands_typed(store) == [HAND]
    assert not any("Meanwhile" in line for line in console.said)


def test_play_session_a_lost_answer_is_one_hand(store: Faulty) -> None:
    store.fault = "lost"
    console = Script([" ".join(HAND), "standings", "quit"])
    Session(store, console, None).run()
    assert hands_typed(store) == [HAND]
    assert not any("Meanwhile" in line or "nothing was stored" in line for line in console.said)


def test_a_store_that_cannot_be_asked_again_says_the_hand_may_be_stored(store: Faulty) -> None:
    store.fault = "lost for good"
    with pytest.raises(MaybeStored) as got:
        play.record_hand(store, None, HAND, key="k9")
    assert "may have been stored" in got.value.message and "--key k9 bid=4,3,3,3 tricks=5,3,3,2" in got.value.message
    store.unreachable = False
    # the repeat it names is answered with the stored hand, not stored again
    assert play.record_hand(store, None, HAND, key="k9").n == 1
    assert hands_typed(store) == [HAND]


def test_a_lost_answer_to_a_write_that_was_not_stored_says_so(store: Faulty) -> None:
    class Refusing(Faulty):
        def append_hand(self, db: Any, game_id: int, row: Any, key: str | None) -> None:
            raise StoreUnreachable("cannot reach the club database (test): reset before the commit")

    s = Refusing(store.path)
    with pytest.raises(StoreUnreachable) as got:
        play.record_hand(s, None, HAND, key="k2")
    assert "the hand was not stored" in got.value.message
    assert hands_typed(s) == []


CHANGES: list[tuple[str, Callable[[Store, int | None], Any]]] = [
    ("undo", lambda s, v: play.undo(s, None, v)),
    ("edit", lambda s, v: play.edit(s, None, 2, ["tricks=4,4,3,2"], expect=v)),
    ("finish", lambda s, v: play.finish(s, None, expect=v)),
]


@pytest.mark.parametrize("name,change", CHANGES)
@pytest.mark.parametrize("fault", ["lost", "ctrl-c twice"])
def test_a_change_whose_answer_was_lost_is_done_once(store: Faulty, name: str, fault: str,
                                                     change: Callable[[Store, int | None], Any]) -> None:
    play.record_hand(store, None, HAND)
    play.record_hand(store, None, ["bid=3,3,3,3", "tricks=4,3,3,3"])
    version = store.game(None).version
    store.fault = fault
    change(store, version)            # reported done: the store was asked again
    after = store.game(None)
    assert after.version == version + 1
    with pytest.raises(StoreConflict) as got:   # the repeat of what was done is refused with what happened
        change(store, version)
    assert "nothing was stored" in got.value.message and store.game(None).version == version + 1
    if name == "undo":
        assert after.hands == 1


def test_redo_whose_answer_was_lost_is_done_once(store: Faulty) -> None:
    play.record_hand(store, None, HAND)
    play.undo(store, None)
    version = store.game(None).version
    store.fault = "lost"
    assert redo(store, None, version).n == 1
    with pytest.raises(StoreConflict):
        redo(store, None, version)
    assert hands_typed(store) == [HAND]


def test_an_undo_that_cannot_be_asked_again_names_the_safe_repeat(store: Faulty) -> None:
    play.record_hand(store, None, HAND)
    play.record_hand(store, None, ["bid=3,3,3,3", "tricks=4,3,3,3"])
    version = store.game(None).version
    store.fault = "lost for good"
    with pytest.raises(MaybeStored) as got:
        play.undo(store, None, version)
    assert f"scorepad undo --expect {version}" in got.value.message
    store.unreachable = False
    with pytest.raises(StoreConflict):
        play.undo(store, None, version)
    assert store.game(None).hands == 1


def test_play_undo_after_a_lost_answer_takes_back_one_hand(store: Faulty) -> None:
    play.record_hand(store, None, HAND)
    play.record_hand(store, None, ["bid=3,3,3,3", "tricks=4,3,3,3"])
    store.fault = "lost"
    console = Script(["undo", "quit"])
    Session(store, console, None).run()
    assert store.game(None).hands == 1
    assert any("Hand 2 removed" in line for line in console.said)
