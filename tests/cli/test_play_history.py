"""Where `play` keeps the lines typed at its prompt: beside a database file, and for a club's server in
the user's data directory (a URL is never taken for a path: no `127.0.0.1:5432/` folder appears)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from scorepad.cli.app import _history_file
from scorepad.table.console import remove_stale_temporaries


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


# A stand-in for GNU readline's history writing, as histfile.c does it: NAME-PID.tmp beside the file, then a
# rename over it; the terminal is closed (SIGHUP) between the two.
_HANG_UP_WHILE_SAVING = """
import os, signal, sys, time
from pathlib import Path
from scorepad.table.console import TerminalConsole

signal.signal(signal.SIGHUP, signal.SIG_DFL)   # a terminal's process ends on a hang-up (even under nohup)

class Readline:
    def write_history_file(self, path):
        tmp = Path(f"{path}-{os.getpid()}.tmp")
        tmp.touch()
        os.kill(os.getpid(), signal.SIGHUP)   # the terminal goes away
        time.sleep(0.2)
        tmp.write_text("bid=4,3,3,3\\n")
        os.replace(tmp, path)

console = TerminalConsole.__new__(TerminalConsole)
console._readline, console._history = Readline(), Path(sys.argv[1])
console.save_history()
"""


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="a POSIX hang-up")
def test_a_terminal_closed_while_the_history_is_saved_leaves_no_temporary_file(tmp_path: Path) -> None:
    history = tmp_path / "club.history"
    done = subprocess.run([sys.executable, "-c", _HANG_UP_WHILE_SAVING, str(history)], timeout=60)
    assert done.returncode == -signal.SIGHUP   # the hang-up still ends the process, once the file is written
    assert [p.name for p in tmp_path.iterdir()] == ["club.history"]
    assert history.read_text() == "bid=4,3,3,3\n"


def test_temporary_files_of_ended_sessions_are_removed(tmp_path: Path) -> None:
    history = tmp_path / "club.history"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f"club.history-{int(dead.stdout)}.tmp"
    alive = tmp_path / f"club.history-{os.getppid()}.tmp"   # a running process may still be writing its own
    other = tmp_path / "club.db-1.tmp"
    for path in (stale, alive, other):
        path.touch()
    remove_stale_temporaries(history)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([alive.name, other.name])
