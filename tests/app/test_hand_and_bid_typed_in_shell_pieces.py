"""`scorepad hand bid=4, 3, 3, 3` and `scorepad bid bid=4, 3, 3, 3`: the shell splits the list at its
spaces, the pieces are read as `play` reads the line; the hand kept with those pieces goes through
export and import (which types its text again) unchanged."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run


def scores(cli: Callable[..., Run], game: str | None = None) -> list[int]:
    r = cli("standings", "--json", *(["--game", game] if game else []))
    assert r.code == 0, r.err
    return [s["score"] for s in json.loads(r.out)["sides"]]


def test_hand_reads_a_list_split_at_its_spaces(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    r = cli("hand", "bid=4,", "3,", "3,", "3", "tricks=5,3,3,2")
    assert r.code == 0, r.err
    assert scores(cli) == [71, -60]
    r = cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2", "3")
    assert r.code == 2 and "'3' is not an assignment" in r.err, r.err


def test_bid_reads_a_list_split_at_its_spaces(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    r = cli("bid", "bid=4,", "3,", "3,", "3")
    assert r.code == 0, r.err
    assert json.loads(cli("standings", "--json").out)["bid"] == ["bid=4, 3, 3, 3"]
    r = cli("hand", "tricks=5,", "3,", "3,", "2")
    assert r.code == 0, r.err
    assert scores(cli) == [71, -60]


def test_a_hand_typed_in_pieces_is_exported_and_imported(cli: Callable[..., Run], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,", "3,", "3,", "3", "tricks=5", ",3", ",3", ",2").code == 0
    out = tmp_path / "all.json"
    assert cli("export", "--output", str(out)).code == 0
    assert json.loads(out.read_text())["games"][0]["hand_rows"][0]["typed"] == ["bid=4, 3, 3, 3", "tricks=5 ,3 ,3 ,2"]
    monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / "fresh.db"))
    r = cli("import", str(out))
    assert r.code == 0, r.err
    assert scores(cli, "1") == [71, -60]
    r = cli("verify")
    assert r.code == 0, r.err
