"""Shared fixtures: a throw-away database and a way to run the CLI in-process with exit codes."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from scorepad.cli import main


@dataclass
class Run:
    code: int
    out: str
    err: str


def dump(path: Path) -> list[str]:
    """Every row of every table of a database: equal before and after a refused command."""
    con = sqlite3.connect(path)
    try:
        return list(con.iterdump())
    finally:
        con.close()


USER_ENV = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "APPDATA",
            "LOCALAPPDATA", "USERPROFILE")
"""Where platformdirs looks for the user's config and data, on Linux, macOS and Windows."""

SCOREPAD_ENV = ("SCOREPAD_DB", "SCOREPAD_CONFIG", "SCOREPAD_HOME", "SCOREPAD_RULES", "SCOREPAD_LANG")
"""The environment variables through which a user's own settings would reach a test."""


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets an empty home: the user's config.toml, data directory and SCOREPAD_* settings
    never reach it (tests that want a config write one into this home)."""
    home = tmp_path_factory.mktemp("home")
    for name in USER_ENV:
        monkeypatch.setenv(name, str(home if name in ("HOME", "USERPROFILE") else home / name.lower()))
    for name in SCOREPAD_ENV:
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "test.db"
    monkeypatch.setenv("SCOREPAD_DB", str(path))
    monkeypatch.delenv("SCOREPAD_RULES", raising=False)
    return path


@pytest.fixture
def cli(db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., Run]:
    def run(*args: str) -> Run:
        monkeypatch.setattr(sys, "argv", ["scorepad", *args])
        code = 0
        try:
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run
