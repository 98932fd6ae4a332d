"""Reliability: concurrent writers, SIGKILL at random moments, and backups taken while others write.

The worker processes (tests/worker.py) run the real CLI entry point in-process, each command with
its own database connection, and print one line per finished command; so "acknowledged" below
means: the command had returned exit status 0 to its caller.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run

HERE = Path(__file__).resolve().parents[1]
TALLY = str(HERE / "data" / "tally.toml")
WORKER = str(HERE / "worker.py")

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="uses SIGKILL and POSIX processes"),
              pytest.mark.slow]  # processes killed at random moments: `python -m pytest -m slow` (CI runs it)


def clean_env(tmp: Path) -> dict[str, str]:
    """The environment of a worker: no user config, database or ruleset directories of the machine."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREPAD_")}
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
               PYTHONDONTWRITEBYTECODE="1")
    return env


def start_worker(tmp: Path, name: str, db: Path, commands: list[list[str]], retry: bool = False,
                 start_at: float = 0, **extra: Any) -> subprocess.Popen[str]:
    plan = tmp / f"{name}.json"
    plan.write_text(json.dumps({"db": str(db), "commands": commands, "retry": retry, "start_at": start_at, **extra}),
                    encoding="utf-8")
    return subprocess.Popen([sys.executable, WORKER, str(plan)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=clean_env(tmp), cwd=tmp)


def first_line(proc: subprocess.Popen[str]) -> str:
    """The worker's first line, read byte by byte from the pipe.

    A buffered readline() may take later lines into its buffer, where communicate() (which reads the
    descriptor itself) never sees them: acknowledged hands would then look unacknowledged.
    """
    assert proc.stdout is not None
    data = b""
    while not data.endswith(b"\n"):
        byte = os.read(proc.stdout.fileno(), 1)
        if not byte:
            break
        data += byte
    return data.decode("utf-8")


def results(stdout: str) -> list[dict[str, Any]]:
    """Complete result lines only (a killed worker may leave half a line)."""
    out = []
    for line in stdout.splitlines(keepends=True):
        if line.endswith("\n"):
            out.append(json.loads(line))
    return out


def tag_of(args: list[str]) -> int:
    return next(int(a.split("=", 1)[1]) for a in args if a.startswith("tag="))


def hand_cmd(game: int, tag: int) -> list[str]:
    return ["hand", "--game", str(game), f"pts={tag % 7 - 3},{tag % 5}", f"tag={tag}"]


def stored_tags(db: Path) -> dict[int, list[int]]:
    """Every active hand's tag per game, in hand order; also checks the hand numbers are 1..n."""
    con = sqlite3.connect(db)
    try:
        out: dict[int, list[int]] = {}
        numbers: dict[int, list[int]] = {}
        for gid, n, typed in con.execute(
                "SELECT game_id, n, typed FROM hands WHERE status = 'active' ORDER BY game_id, n"):
            out.setdefault(gid, []).append(tag_of(json.loads(typed)))
            numbers.setdefault(gid, []).append(n)
        for gid, ns in numbers.items():
            assert ns == list(range(1, len(ns) + 1)), f"game {gid}: hand numbers {ns}"
        for gid, hands, state in con.execute("SELECT id, hands, state FROM games"):
            assert hands == len(out.get(gid, [])), f"game {gid}: games.hands {hands} != {len(out.get(gid, []))}"
            totals = [s["score"] for s in json.loads(state)["sides"]]
            want = [sum(t % 7 - 3 for t in out.get(gid, [])), sum(t % 5 for t in out.get(gid, []))]
            assert totals == want, f"game {gid}: cached totals {totals}, hands add up to {want}"
        return out
    finally:
        con.close()


def integrity(db: Path) -> str:
    con = sqlite3.connect(db)
    try:
        return str(con.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        con.close()


def new_game(cli: Callable[..., Run], *players: str) -> int:
    r = cli("new", TALLY, *players)
    assert r.code == 0, r.err
    return int(r.out.strip().splitlines()[-1])


def test_four_processes_record_400_hands(cli: Callable[..., Run], db: Path, tmp_path: Path) -> None:
    """4 processes, 100 hands each: half into a game of their own, half into one shared game."""
    shared = new_game(cli, "ann", "bob")
    own = [new_game(cli, f"p{w}", f"q{w}") for w in range(4)]
    workers = []
    start = time.time() + 1.5
    for w in range(4):
        commands = []
        for k in range(50):
            commands.append(hand_cmd(own[w], 10_000 * (w + 1) + k))
            commands.append(hand_cmd(shared, 1_000 * (w + 1) + k))
        workers.append(start_worker(tmp_path, f"w{w}", db, commands, start_at=start))  # no retries: none needed
    lines: list[dict[str, Any]] = []
    for proc in workers:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        assert "Traceback" not in err
        lines += results(out)
    assert len(lines) == 400
    for line in lines:
        assert "database is locked" not in line["err"], line
        assert "Traceback" not in line["err"] and "internal error" not in line["err"], line
        assert line["code"] == 0, line
    acknowledged = Counter((int(line["args"][2]), tag_of(line["args"])) for line in lines if line["code"] == 0)
    stored = stored_tags(db)
    present = Counter((gid, tag) for gid, tags in stored.items() for tag in tags)
    assert present == acknowledged  # every acknowledged hand exactly once, and nothing else
    assert len(stored[shared]) == 200 and all(len(stored[g]) == 50 for g in own)
    for w in range(4):  # each worker's hands in the shared game are in the order it sent them
        mine = [t for t in stored[shared] if t // 1000 == w + 1]
        assert mine == sorted(mine)
    assert integrity(db) == "ok"
    r = cli("verify")
    assert r.code == 0, r.out + r.err


def test_first_use_of_a_new_database_by_four_processes(tmp_path: Path) -> None:
    """The schema is created (migrated) once even when four processes open a new file together."""
    db = tmp_path / "fresh.db"
    start = time.time() + 1.5  # all four open the new file at the same moment
    workers = [start_worker(tmp_path, f"n{w}", db, [["new", TALLY, f"a{w}{k}", f"b{w}{k}"] for k in range(5)],
                            start_at=start) for w in range(4)]
    lines = []
    for proc in workers:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        lines += results(out)
    assert [line["code"] for line in lines] == [0] * 20, [line["err"] for line in lines if line["code"]]
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 20
    assert con.execute("SELECT count(*) FROM audit WHERE action = 'new'").fetchone()[0] == 20
    con.close()


def test_sigkill_at_random_moments_loses_no_acknowledged_hand(cli: Callable[..., Run], db: Path,
                                                             tmp_path: Path) -> None:
    game = new_game(cli, "ann", "bob")
    rng = random.Random(20260512)
    acknowledged: set[int] = set()
    unacknowledged: set[int] = set()
    kills = 0
    next_tag = 1
    while next_tag <= 200:
        proc = start_worker(tmp_path, f"k{kills}", db, [hand_cmd(game, t) for t in range(next_tag, 201)])
        assert proc.stdout is not None
        first = first_line(proc)  # the worker is up and has recorded a hand: now kill it at random
        time.sleep(rng.uniform(0.0, 0.12))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        out = first + proc.communicate()[0]
        lines = results(out)
        assert all(line["code"] == 0 for line in lines), [line["err"] for line in lines if line["code"]]
        acknowledged |= {tag_of(line["args"]) for line in lines}
        # after every kill: the file is sound, and nothing that was acknowledged is missing
        assert integrity(db) == "ok"
        tags = stored_tags(db).get(game, [])
        assert tags == list(range(1, len(tags) + 1)), "hands lost, duplicated or out of order"
        assert acknowledged <= set(tags)
        # at most the one hand killed between its commit and its reply is new and unacknowledged
        fresh = set(tags) - acknowledged - unacknowledged
        assert len(fresh) <= 1, fresh
        unacknowledged |= fresh
        # the next command works without any repair
        r = cli("standings", "--game", str(game), "--json")
        assert r.code == 0, r.err
        assert json.loads(r.out)["hands"] == len(tags)
        next_tag = len(tags) + 1
    assert kills >= 10, f"the worker was killed only {kills} times; the timing of this test needs a look"
    assert cli("verify").code == 0


def test_backup_is_consistent_while_others_write(cli: Callable[..., Run], db: Path, tmp_path: Path) -> None:
    games = [new_game(cli, "ann", "bob"), new_game(cli, "cat", "dan")]
    writers = [start_worker(tmp_path, f"b{w}", db, [hand_cmd(games[w], w * 1000 + k) for k in range(1, 121)])
               for w in range(2)]
    copies = []
    deadline = time.monotonic() + 60
    while any(p.poll() is None for p in writers) and time.monotonic() < deadline:
        target = tmp_path / f"copy{len(copies)}.db"
        r = cli("backup", str(target))
        assert r.code == 0, r.err
        copies.append(target)
        time.sleep(0.05)
    for proc in writers:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert all(line["code"] == 0 for line in results(out))
    assert len(copies) >= 3, "the writers finished before enough backups were taken"
    final = stored_tags(db)
    sizes = []
    for copy in copies:
        assert integrity(copy) == "ok"
        tags = stored_tags(copy)  # checks games.hands and the cached totals against the hands
        for gid, seq in tags.items():
            assert seq == final[gid][:len(seq)]
        sizes.append(sum(len(s) for s in tags.values()))
        r = cli("--db", str(copy), "verify")
        assert r.code == 0, r.out + r.err
    assert sizes == sorted(sizes), sizes   # each backup holds at least what the one before held
    assert sizes[0] < sum(len(s) for s in final.values()), (sizes, "the first backup came after the writers")
    r = cli("backup", str(copies[0]))
    assert r.code == 2 and "exists" in r.err


def test_finish_does_not_overwrite_a_hand_recorded_meanwhile(cli: Callable[..., Run], db: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """`finish` reads the state, then writes the finished state: a hand recorded by another command
    in between must not be lost from the cached totals (it is refused and can be retried instead)."""
    from scorepad.app import games as play
    from scorepad.store import Store

    game = new_game(cli, "ann", "bob")
    assert cli(*hand_cmd(game, 1)).code == 0
    real_finish_game = play.finish_game

    def finish_game_while_another_records(*args: Any, **kwargs: Any) -> Any:
        other = Store(db)  # another command, with its own connection, records hand 2 meanwhile
        play.record_hand(other, game, hand_cmd(game, 2)[3:])
        other.close()
        return real_finish_game(*args, **kwargs)

    monkeypatch.setattr(play, "finish_game", finish_game_while_another_records)
    r = cli("finish", "--game", str(game))
    monkeypatch.setattr(play, "finish_game", real_finish_game)
    assert r.code in (0, 1), r.err
    assert "Traceback" not in r.err and "internal error" not in r.err
    stored_tags(db)  # the cached totals are those of the hands
    assert cli("verify").code == 0
    if r.code == 1:
        assert "at the same moment" in r.err
        assert cli("finish", "--game", str(game)).code == 0
    standings = json.loads(cli("standings", "--game", str(game), "--json").out)
    assert standings["finished"] and standings["hands"] == 2
