"""The language is the call's, not the process's: two threads (as a server's two requests) speak two
languages at the same moment, each getting its own words, and a block in one language ends with it."""

from __future__ import annotations

import threading
from pathlib import Path

from scorepad.app import games as play
from scorepad.locale import _, current, set_language, speaking
from scorepad.store import Store
from scorepad.text.render import standings_text

STORED = "Good night. Everything is stored."


def test_two_threads_two_languages_at_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "two.db")
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    play.record_hand(store, None, ["bid=4,3,3,3", "tricks=5,3,3,2"])
    row = store.game(None)
    expected = {}
    for code in ("et", "uk"):
        with speaking(code):
            expected[code] = (_(STORED), standings_text(play.standings(row)))
    assert expected["et"] != expected["uk"]
    both = threading.Barrier(2)
    got: dict[str, list[tuple[str, str]]] = {"et": [], "uk": []}

    def reader(code: str) -> None:
        set_language(code)
        for _round in range(30):
            both.wait()   # the other thread has set its language too, and is reading now
            got[code].append((_(STORED), standings_text(play.standings(row))))

    threads = [threading.Thread(target=reader, args=(code,)) for code in ("et", "uk")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for code in ("et", "uk"):
        assert got[code] == [expected[code]] * 30
    assert current() == "en"   # the threads' languages never reached this one


def test_a_block_in_one_language_ends_with_it() -> None:
    set_language("ru")
    try:
        with speaking("et"):
            assert current() == "et" and _(STORED) != STORED
        assert current() == "ru"
    finally:
        set_language(None)
