"""Bytes that are not UTF-8 on the command line (Python keeps them in sys.argv as lone surrogates, as
`os.fsdecode` does) end in a sentence naming the option and exit status 2, never an internal
UnicodeEncodeError, and nothing is stored or written. A file path may hold such bytes: the system takes them."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run, dump

BAD = os.fsdecode(b"k\xff")   # what the shell hands Python for the bytes 6B FF


@pytest.fixture
def a_game(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0


@pytest.mark.parametrize("args, said", [
    (("hand", "--key", BAD, "bid=4,3,3,3", "tricks=5,3,3,2"), "--key holds bytes that are not UTF-8 text (k\\xff)"),
    (("hand", "--json", "--key", BAD, "bid=4,3,3,3", "tricks=5,3,3,2"), "--key holds bytes that are not UTF-8"),
    (("--db", f"postgresql://ann:{BAD}@db.example/club", "standings"),
     "postgresql://ann:***@db.example/club: the database address holds bytes that are not UTF-8 text"),
    (("--db", f"postgresql://ann@db.example/{BAD}", "standings"), "postgresql://ann@db.example/k\\xff: the database"),
    (("db", "copy", "SOURCE", f"postgresql://db.example/{BAD}"), "the database address holds bytes that are not UTF-8"),
    (("config", "set", "db", f"postgresql://ann:{BAD}@db.example/club"), "db holds bytes that are not UTF-8 text"),
    (("config", "set", f"alias.{BAD}", "ann"), "the config key holds bytes that are not UTF-8 text"),
    (("rules", "derive", "spades", "my-spades", "--name", BAD), "--name holds bytes that are not UTF-8 text"),
    (("rules", "derive", "spades", "my-spades", "--alias", BAD), "--alias holds bytes that are not UTF-8 text"),
    (("rules", "new", "my-game", "--name", BAD), "--name holds bytes that are not UTF-8 text"),
])
def test_bytes_that_are_not_utf8_are_refused_in_a_sentence(cli: Callable[..., Run], db: Path, a_game: None,
                                                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            args: tuple[str, ...], said: str) -> None:
    monkeypatch.setenv("SCOREPAD_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("SCOREPAD_HOME", str(tmp_path / "home"))
    args = tuple(str(db) if a == "SOURCE" else a for a in args)
    before = dump(db)
    r = cli(*args)
    assert r.code == 2, (r.out, r.err)
    assert said in r.err and "internal error" not in r.err and "Traceback" not in r.err, r.err
    assert dump(db) == before
    assert not (tmp_path / "config.toml").exists() and not (tmp_path / "home").exists()


def test_the_same_from_the_environment(cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREPAD_DB", f"postgresql://ann@db.example/{BAD}")
    r = cli("standings")
    assert r.code == 2 and "the database address holds bytes that are not UTF-8 text" in r.err, r.err


def test_a_file_path_may_hold_them(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / os.fsdecode(b"club\xff.db")
    assert cli("--db", str(path), "new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("--db", str(path), "hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert os.fsencode(path).endswith(b"club\xff.db") and path.exists()


def test_any_other_way_in_is_a_sentence_too(capsys: pytest.CaptureFixture[str]) -> None:
    """Where no check names the option, the error that such bytes raise is still the person's input: status 2."""
    from scorepad.cli.context import internal

    try:
        BAD.encode()
    except UnicodeEncodeError as exc:
        with pytest.raises(SystemExit) as ended:
            internal(exc)
    assert ended.value.code == 2
    assert "a value typed holds bytes that are not UTF-8 text" in capsys.readouterr().err
