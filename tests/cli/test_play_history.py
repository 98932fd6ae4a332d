"""Where `play` keeps the lines typed at its prompt: beside a database file, and for a club's server in
the user's data directory (a URL is never taken for a path: no `127.0.0.1:5432/` folder appears)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from scorepad.cli.app import _history_file


def test_a_file_s_history_is_beside_it(tmp_path: Path) -> None:
    store = SimpleNamespace(server=False, path=tmp_path / "club.db")
    assert _history_file(store) == tmp_path / "club.history"


def test_a_server_s_history_is_in_the_user_s_data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREPAD_HOME", str(tmp_path))
    store = SimpleNamespace(server=True, where="127.0.0.1:41863/club", path=Path("127.0.0.1:41863/club"))
    assert _history_file(store) == tmp_path / "history" / "127.0.0.1_41863_club.history"
    monkeypatch.delenv("SCOREPAD_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    found = _history_file(store)
    assert found.is_absolute() and found.parent == tmp_path / "data" / "scorepad" / "history"
