"""CLI transcripts of housekeeping at the table: values typed twice, finding, deleting, abandoning,
renaming and replaying games, names that do not exist, and where the database may live."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run, dump

Cli = Callable[..., Run]


def spades(cli: Cli, *extra: str) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan", *extra).code == 0


# ------------------------------------------------------------------ a value given twice

@pytest.mark.parametrize("args, words", [
    (["bid=4,3,3,3", "ann.bid=5", "tricks=5,3,3,2"], "ann.bid is given twice, as 4 (bid=4,3,3,3) and as 5 (ann.bid=5)"),
    (["bid=4,3,3,3", "bid=4,3,3,2", "tricks=5,3,3,2"], "dan.bid is given twice, as 3 (bid=4,3,3,3) and as 2 (bid=4,3,3,2)"),
    (["ann.bid=4", "ann.bid=5", "bid=4,3,3,3", "tricks=5,3,3,2"],
     "ann.bid is given twice, as 4 (ann.bid=4) and as 5 (ann.bid=5)"),
    (["a.tricks=5", "bid=4,3,3,3", "tricks=6,3,3,2"], "ann.tricks is given twice, as 5 (a.tricks=5) and as 6 (tricks=6,3,3,2)"),
])
def test_a_value_given_twice_is_refused(cli: Cli, db: Path, args: list[str], words: str) -> None:
    spades(cli)
    before = dump(db)
    r = cli("hand", *args)
    assert r.code == 2, r.out
    assert words in r.err and "type it once" in r.err
    assert dump(db) == before


def test_a_hand_field_given_twice_is_refused(cli: Cli, db: Path) -> None:
    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0
    before = dump(db)
    r = cli("hand", "hearts=5,4,3,1", "queen=ann", "queen=bob")
    assert r.code == 2 and "queen is given twice, as ann (queen=ann) and as bob (queen=bob)" in r.err
    assert dump(db) == before


def test_the_same_value_twice_is_no_change(cli: Cli) -> None:
    spades(cli)
    r = cli("hand", "bid=4,3,3,3", "ann.bid=4", "tricks=5,3,3,2")
    assert r.code == 0, r.err
    assert "+71" in r.out


def test_edit_replaces_old_values_but_not_twice_in_one_go(cli: Cli, db: Path) -> None:
    spades(cli)
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    before = dump(db)
    r = cli("edit", "1", "ann.bid=5", "ann.bid=6")
    assert r.code == 2 and "ann.bid is given twice, as 5 (ann.bid=5) and as 6 (ann.bid=6)" in r.err
    assert dump(db) == before
    r = cli("edit", "1", "ann.bid=5")   # over bid=4,3,3,3 typed before: that is what edit is for
    assert r.code == 0, r.err
    assert cli("verify").code == 0
