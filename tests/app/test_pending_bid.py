"""A bid written down for the coming hand (`scorepad bid`) is part of the game: export and import
carry it (and check it), `db copy` copies it, and `rename` rewrites the names inside it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run, dump


def _spades_with_bid(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert cli("bid", "ann.bid=4", "bob.bid=3", "cat.bid=2", "dan.bid=3").code == 0


def _bid_shown(cli: Callable[..., Run]) -> list[str]:
    r = cli("standings", "--json", "--game", "1")
    assert r.code == 0, r.err
    return list(json.loads(r.out).get("bid", []))


def test_export_and_import_carry_the_pending_bid(cli: Callable[..., Run], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _spades_with_bid(cli)
    out = tmp_path / "all.json"
    assert cli("export", "--output", str(out)).code == 0
    data = json.loads(out.read_text())
    assert data["games"][0]["pending_bid"] == ["ann.bid=4", "bob.bid=3", "cat.bid=2", "dan.bid=3"]
    monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / "fresh.db"))
    r = cli("import", str(out))
    assert r.code == 0, r.err
    assert _bid_shown(cli) == ["ann.bid=4", "bob.bid=3", "cat.bid=2", "dan.bid=3"]
    again = tmp_path / "again.json"
    assert cli("export", "--output", str(again)).code == 0
    assert again.read_bytes() == out.read_bytes()
    assert cli("hand", "--game", "1", "tricks=4,3,3,3").code == 0    # the imported bid completes the hand
    assert _bid_shown(cli) == []


def test_an_export_without_a_bid_has_no_pending_bid_key(cli: Callable[..., Run], tmp_path: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    out = tmp_path / "all.json"
    assert cli("export", "--output", str(out)).code == 0
    assert "pending_bid" not in json.loads(out.read_text())["games"][0]


def test_import_checks_the_pending_bid(cli: Callable[..., Run], tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _spades_with_bid(cli)
    out = tmp_path / "all.json"
    assert cli("export", "--output", str(out)).code == 0
    good = json.loads(out.read_text())
    monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / "fresh.db"))
    cases = {
        "ann.bid=99": "games[0].pending_bid: ann.bid must be 0-13",
        "tricks=4,3,3,3": "games[0].pending_bid: tricks is typed after the play",
        "zed.bid=3": "games[0].pending_bid: 'zed' is not a player",
    }
    for bad, expect in cases.items():
        data = json.loads(json.dumps(good))
        data["games"][0]["pending_bid"] = [bad]
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(data))
        r = cli("import", str(path))
        assert r.code == 2 and expect in r.err, (bad, r.err)
    data = json.loads(json.dumps(good))
    data["games"][0]["pending_bid"] = "ann.bid=4"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    r = cli("import", str(path))
    assert r.code == 2 and "games[0].pending_bid: must be a list, not text" in r.err
    assert not (tmp_path / "fresh.db").exists() or "spades" not in " ".join(dump(tmp_path / "fresh.db"))


def test_db_copy_keeps_the_pending_bid(cli: Callable[..., Run], db: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _spades_with_bid(cli)
    target = tmp_path / "copy.db"
    r = cli("db", "copy", str(db), str(target))
    assert r.code == 0, r.err
    monkeypatch.setenv("SCOREPAD_DB", str(target))
    assert _bid_shown(cli) == ["ann.bid=4", "bob.bid=3", "cat.bid=2", "dan.bid=3"]
    backup = tmp_path / "backup.json"             # from an export file (what `backup` writes on PostgreSQL)
    assert cli("export", "--output", str(backup)).code == 0
    restored = tmp_path / "restored.db"
    r = cli("db", "copy", str(backup), str(restored))
    assert r.code == 0, r.err
    monkeypatch.setenv("SCOREPAD_DB", str(restored))
    assert _bid_shown(cli) == ["ann.bid=4", "bob.bid=3", "cat.bid=2", "dan.bid=3"]


def test_rename_rewrites_the_names_in_the_pending_bid(cli: Callable[..., Run]) -> None:
    _spades_with_bid(cli)
    r = cli("rename", "ann", "zoe")
    assert r.code == 0, r.err
    assert _bid_shown(cli) == ["zoe.bid=4", "bob.bid=3", "cat.bid=2", "dan.bid=3"]
    assert cli("hand", "--game", "1", "tricks=4,3,3,3").code == 0


def test_a_bid_taken_back_is_in_the_audit_trail_and_imports(cli: Callable[..., Run], tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _spades_with_bid(cli)
    assert cli("undo").code == 0                  # takes the bid back: an 'undo bid' audit entry
    out = tmp_path / "all.json"
    assert cli("export", "--output", str(out)).code == 0
    game = json.loads(out.read_text())["games"][0]
    assert "pending_bid" not in game
    bid = ["ann.bid=4", "bob.bid=3", "cat.bid=2", "dan.bid=3"]
    assert [(a["action"], a["detail"]) for a in game["audit"][-2:]] == [("bid", {"bid": bid}),
                                                                        ("undo bid", {"removed_bid": bid})]
    monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / "fresh.db"))
    r = cli("import", str(out))
    assert r.code == 0, r.err
    log = cli("log", "--game", "1")
    assert log.code == 0, log.err
    assert "took back ann.bid=4 bob.bid=3 cat.bid=2 dan.bid=3" in log.out.splitlines()[-1]


def test_a_value_typed_twice_names_the_bid_it_came_from(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("bid", "bid=4,3,3,3").code == 0
    r = cli("hand", "ann.bid=5", "tricks=5,3,3,2")
    assert r.code == 2
    assert ("ann.bid is given twice, as 4 (bid=4,3,3,3, written down by `scorepad bid`) and as 5 (ann.bid=5)"
            in r.err), r.err
    r = cli("hand", "tricks=5,3,3,2", "tricks=5,3,2,3")     # both typed now: the plain sentence
    assert r.code == 2 and "(tricks=5,3,3,2) and as" in r.err and "scorepad bid" not in r.err, r.err
    assert cli("hand", "ann.bid=4", "tricks=5,3,3,2").code == 0     # the same value again is no conflict


def test_the_toml_game_file_carries_the_pending_bid(cli: Callable[..., Run], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    _spades_with_bid(cli)
    out = tmp_path / "game.toml"
    assert cli("export", "--game", "1", "--format", "toml", "--output", str(out)).code == 0
    text = out.read_text()
    assert 'pending_bid = [' in text and '"cat.bid=2"' in text
    monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / "fresh.db"))
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('"cat.bid=2"', '"cat.bid=99"'))
    r = cli("import", str(bad))
    assert r.code == 2 and "pending_bid: cat.bid must be 0-13" in r.err, r.err
    r = cli("import", str(out))
    assert r.code == 0, r.err
    assert _bid_shown(cli) == ["ann.bid=4", "bob.bid=3", "cat.bid=2", "dan.bid=3"]
    assert cli("hand", "--game", "1", "tricks=4,3,3,3").code == 0


def test_the_log_shows_the_bid_its_taking_back_and_a_redo(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("bid", "bid=4,3,3,3").code == 0
    assert cli("undo").code == 0                     # the bid taken back
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert cli("undo").code == 0
    assert cli("redo").code == 0
    log = cli("log").out
    lines = [line.split(None, 2)[2] for line in log.splitlines()]
    assert "bid      bid=4,3,3,3" in lines
    assert "undo bid took back bid=4,3,3,3" in lines
    assert "redo     put back hand 1: bid=4,3,3,3 tricks=5,3,3,2" in lines


def test_a_bid_with_expect_is_refused_once_the_game_moved(cli: Callable[..., Run]) -> None:
    """A script repeating a bid after a lost answer: with --expect it never lands on the next hand."""
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    version = json.loads(cli("standings", "--json").out)["version"]
    assert cli("bid", "bid=4,3,3,3", "--expect", str(version)).code == 0
    assert cli("hand", "tricks=5,3,3,2").code == 0   # the bid was stored, and the hand played meanwhile
    again = cli("bid", "bid=4,3,3,3", "--expect", str(version))
    assert again.code == 1 and f"changed since version {version}" in again.err, again   # as hand --expect
    assert "bid" not in json.loads(cli("standings", "--json").out)   # nothing written down for hand 2
