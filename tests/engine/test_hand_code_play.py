"""In `play`, a ruleset's hand code is compiled right after a hand's standings are shown (while the
table plays the next hand), never while a typed hand waits for its standings."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any
from unittest import mock

from scorepad.app import games as play
from scorepad.engine import handcode, scoring
from scorepad.store import Store
from scorepad.table.session import Session


def test_the_hand_code_is_compiled_between_hands(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    made_in: list[list[str]] = []
    real_make = handcode._make

    def make(*args: Any) -> None:
        made_in.append([frame.function for frame in inspect.stack()[1:6]])
        real_make(*args)

    answers = ["bid=3,3,3,3 tricks=4,3,3,3"] * 12 + ["quit"]

    class Scripted:
        def ask(self, question: str, candidates: Any = ()) -> str:
            return answers.pop(0)

        def say(self, text: str, style: str = "") -> None:
            pass

    try:
        play.new_game(store, "spades", ["ann", "bob", "cy", "dee"], name="between")
        # a fresh ruleset text count, a short warm-up
        with mock.patch.object(handcode, "HAND_WARM_UP", 5), mock.patch.object(handcode, "_HANDS_SEEN", {}), \
                mock.patch.object(handcode, "_ENTRIES", {}), mock.patch.object(handcode, "_make", make):
            scored_before = scoring.hand_code_counts["scored"]
            Session(store, Scripted()).run()
            scored = scoring.hand_code_counts["scored"] - scored_before
        assert made_in, "the hand code was never made"
        assert all("prepare" in callers and "after_hand" in callers for callers in made_in), made_in
        hands = store.game(None).hands
        assert hands > 5 and scored == hands - 5  # after the warm-up, every hand went through it
    finally:
        store.close()
