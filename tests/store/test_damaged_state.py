"""A game's cached totals altered outside scorepad (any role, any program): season and standings read
the state stored with the game's last hand, and `verify` names the game and says what is wrong."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Run


def test_a_damaged_cache_is_named_by_verify_and_breaks_nothing(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    with sqlite3.connect(db) as con:   # the schema refuses a state that is not a JSON table: a file altered harder
        con.execute("DROP TRIGGER games_shape_update")
    for damage in ("{}", "[]", "not json", '{"sides": [], "hands": 1, "finished": false, "game": {}}'):
        with sqlite3.connect(db) as con:
            con.execute("UPDATE games SET state = ?", (damage,))
        r = cli("season", "--include-unfinished")
        assert r.code == 0, r.err
        r = cli("standings", "--json")
        assert r.code == 0, r.err
        assert [s["score"] for s in json.loads(r.out)["sides"]] == [71, -60]
        r = cli("verify")
        assert r.code != 0 and "game 1: its cached totals are damaged" in r.out + r.err
        assert "internal error" not in r.err
    assert cli("hand", "bid=3,3,3,3", "tricks=4,3,3,3").code == 0   # the next hand writes a whole state again
    assert cli("verify").code == 0
