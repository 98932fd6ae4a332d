"""Import re-types every row it is given, undone or not, and reads a pending bid as `bid` does."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run


def exported(cli: Callable[..., Run], tmp_path: Path) -> dict:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert cli("hand", "bid=3,3,3,3", "tricks=4,3,3,3").code == 0
    assert cli("undo").code == 0
    out = tmp_path / "all.json"
    assert cli("export", "--output", str(out)).code == 0
    return dict(json.loads(out.read_text()))


def import_into_fresh(cli: Callable[..., Run], tmp_path: Path, data: dict, monkeypatch: pytest.MonkeyPatch) -> Run:
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / "fresh.db"))
    return cli("import", str(path))


def test_an_undone_row_whose_hand_is_not_its_typed_text_is_refused(cli: Callable[..., Run], tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    data = exported(cli, tmp_path)
    rows = data["games"][0]["hand_rows"]
    undone = next(r for r in rows if r["status"] == "undone")
    undone["hand"]["tricks"] = [13, 0, 0, 0]          # what `redo` would have put back under honest text
    r = import_into_fresh(cli, tmp_path, data, monkeypatch)
    assert r.code == 2 and "not the values typed" in r.err, r.err
    assert cli("games", "--json").out.strip() in ("[]", "")


def test_redo_types_the_hand_again_from_its_text(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert cli("undo").code == 0
    r = cli("redo")
    assert r.code == 0, r.err
    assert [s["score"] for s in json.loads(cli("standings", "--json").out)["sides"]] == [71, -60]


def test_a_pending_bid_with_a_value_typed_twice_is_refused(cli: Callable[..., Run], tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    data = exported(cli, tmp_path)
    data["games"][0]["pending_bid"] = ["bid=4,3,3,3", "ann.bid=5"]
    r = import_into_fresh(cli, tmp_path, data, monkeypatch)
    assert r.code == 2 and "given twice" in r.err, r.err


def test_a_value_worked_out_from_the_hand_number_types_again_as_it_was_typed(
        cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, db: Path) -> None:
    """Sitaratas deals 1 card a player in hands 1-4 and 2 in hand 5, where the tricks add up to 2: a
    player's tricks left out at hand 5 are worked out as 2 - 1 - 1 - 0 = 0. Import and `verify --typed`
    type the stored text again against the game as it stood before hand 5 (they once typed it as a
    first hand, worked out -1 and refused the game's own export)."""
    assert cli("new", "sitaratas", "ann", "bob", "cat", "dan").code == 0
    for _ in range(4):
        assert cli("hand", "bid=1,1,1,0", "tricks=1,0,0,0").code == 0
    r = cli("hand", "bid=1,1,1,1", "ann.tricks=1", "bob.tricks=1", "cat.tricks=0")
    assert r.code == 0 and "dan.tricks=0" in r.out, r.out
    r = cli("verify", "--typed")
    assert r.code == 0, r.out + r.err
    out = tmp_path / "all.json"
    assert cli("export", "--output", str(out)).code == 0
    r = import_into_fresh(cli, tmp_path, json.loads(out.read_text()), monkeypatch)
    assert r.code == 0 and "Imported 1 game" in r.out, r.err
    r = cli("standings", "--game", "1", "--json")   # an import leaves the current game as it was
    assert [s["score"] for s in json.loads(r.out)["sides"]] == [5 * 6, 6, 0, 4 * 5], r.out
