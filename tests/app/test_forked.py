"""Work shared among forked processes ends cleanly however it ends: a worker that dies is an error
(not a wait for ever), Ctrl-C is the command's alone and leaves no process behind, a worker whose
parent was killed ends itself, and `verify` forks only for a database large enough to pay for it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from scorepad.app import games as play
from scorepad.app import verify as verification
from scorepad.app.transfer import forked
from scorepad.errors import ScorepadError
from scorepad.store import Store

# Slow work in two forked processes, each result the pid of the process that did it.
SHARED = """
import os, sys, time
from scorepad.app.transfer.forked import forked_in_order
def work(i):
    time.sleep(0.05 if i < 4 else 0.3)
    return [os.getpid()]
try:
    for pid in forked_in_order(work, range(1000), 2):
        print(pid, flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """A wait that would never end fails the test instead."""
    def expired(*_: Any) -> None:
        raise TimeoutError(f"still waiting after {seconds} s")
    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie waiting for its new parent to reap it does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def started() -> tuple[subprocess.Popen[str], set[int]]:
    """The script above running in a session of its own, and the pids of both its workers."""
    proc = subprocess.Popen([sys.executable, "-c", SHARED], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    assert proc.stdout is not None
    pids: set[int] = set()
    with deadline(60):
        while len(pids) < 2:
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else ""
            pids.add(int(line))
    return proc, pids


def gone(pids: set[int], seconds: float = 10) -> bool:
    end = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < end:
        time.sleep(0.1)
    return not any(alive(p) for p in pids)


def spades_games(tmp_path: Path, count: int = 5) -> tuple[Store, list[int]]:
    store = Store(tmp_path / "db.sqlite")
    ids = []
    for g in range(count):
        row = play.new_game(store, "spades", ["ann", "bob", "cat", "dan"], opts=["target=1000000"])
        for _ in range(g + 1):
            play.record_hand(store, row.id, ["bid=3,3,3,3", "tricks=4,3,3,3"])
        ids.append(row.id)
    return store, ids


def test_ctrl_c_ends_every_worker_and_only_the_command_reports_it() -> None:
    """Ctrl-C reaches the whole process group: the command handles it, its workers say nothing (no
    traceback of each) and are gone when it has ended."""
    proc, pids = started()
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert "interrupted" in out and "Traceback" not in err, err
    assert proc.returncode == 0
    assert gone(pids, 0)


def test_workers_of_a_killed_command_end_themselves() -> None:
    """A command killed outright (no chance to end its workers): they notice and end."""
    proc, pids = started()
    proc.kill()
    proc.communicate(timeout=30)
    try:
        assert gone(pids), "the workers outlived their command"
    finally:
        for p in pids:
            if alive(p):
                os.kill(p, signal.SIGKILL)


def test_a_verify_worker_that_dies_is_a_plain_error_not_a_hang(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    store, ids = spades_games(tmp_path)
    real, parent = verification._verify_game, os.getpid()

    def dies_on_the_third(row: Any, hands: Any, retype: bool = False) -> list[str]:
        if row.id == ids[2] and os.getpid() != parent:
            os._exit(7)  # as a process killed for its memory, or a crash in C code
        return real(row, hands, retype)

    monkeypatch.setattr(verification, "_verify_game", dies_on_the_third)
    with deadline(60), pytest.raises(ScorepadError, match=r"a worker process ended \(exit status 7\)"):
        verification.verify(store, workers=2)
    assert verification.verify(store, workers=1) == []  # in one process the same games verify
    store.close()


def test_verify_forks_only_above_its_threshold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Forking costs start-up: a database of PARALLEL_HANDS hands or fewer is verified in the process."""
    store, _ids = spades_games(tmp_path)   # 15 hands
    calls: list[int] = []
    real = forked.forked_in_order

    def counted(work: Any, items: Any, workers: int) -> Iterator[Any]:
        calls.append(workers)
        return real(work, items, workers)

    monkeypatch.setattr("scorepad.app.verify.forked_in_order", counted)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(verification, "PARALLEL_HANDS", 15)
    assert verification.verify(store) == [] and calls == []
    monkeypatch.setattr(verification, "PARALLEL_HANDS", 14)
    assert verification.verify(store) == [] and calls == [2]
    store.close()
