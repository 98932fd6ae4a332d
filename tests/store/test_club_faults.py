"""The club server stopped abruptly (pg_ctl stop -m immediate) while tables record hands, then started again.

Every acknowledged hand is there, none twice; a client cut off gets a sentence (exit 1, "cannot reach
the club database ..."), never a traceback; repeating its command with the same --key stores it once.
This test starts a server of its own (it must stop it), so it needs the server binaries.
"""

from __future__ import annotations

import os
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import pgserver
from tests.conftest import Run, _pg_missing
from tests.store.test_reliability import TALLY, first_line, hand_cmd, results, start_worker, tag_of
from tests.store.test_stores import tags_in

pytestmark = pytest.mark.slow  # a server stopped and started under load: `python -m pytest -m slow` (CI runs it)


@pytest.fixture
def own_server() -> Iterator[tuple[str, Path]]:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _pg_missing("psycopg is not installed (pip install '.[test,postgres]')")
    if pgserver.bin_dir() is None or (os.geteuid() == 0 and shutil.which("runuser") is None):
        _pg_missing("no PostgreSQL server binaries to start a server this test may stop")
    directory = pgserver.new_directory()
    try:
        yield pgserver.start(directory), directory
    finally:
        pgserver.stop(directory, "immediate")
        shutil.rmtree(directory, ignore_errors=True)


def test_server_stopped_during_load_loses_and_duplicates_nothing(own_server: tuple[str, Path], cli: Callable[..., Run],
                                                                 tmp_path: Path) -> None:
    url, directory = own_server
    shared = int(cli("--db", url, "new", TALLY, "ann", "bob").out.split()[-1])
    own = [int(cli("--db", url, "new", TALLY, f"p{w}", f"q{w}").out.split()[-1]) for w in range(3)]
    start = time.time() + 1.0
    workers = []
    for w in range(3):
        commands = []
        for k in range(30):
            commands.append(hand_cmd(own[w], 10_000 * (w + 1) + k))
            commands.append(hand_cmd(shared, 1_000 * (w + 1) + k))
        plan_extra: dict[str, Any] = {"keys": True, "retry_unreachable": True, "key_prefix": f"f{w}"}
        workers.append(start_worker(tmp_path, f"f{w}", url, commands, start_at=start,  # type: ignore[arg-type]
                                    **plan_extra))
    first = first_line(workers[0])  # the load is running (read from the pipe itself: see first_line)
    time.sleep(0.3)
    pgserver.stop(directory, "immediate")
    time.sleep(1.0)
    pgserver.restart(directory)
    lines: list[dict[str, Any]] = results(first)
    for proc in workers:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        assert "Traceback" not in err
        lines += results(out)
    assert len(lines) == 180
    assert [line["err"] for line in lines if line["code"] != 0] == []
    cut = [text for line in lines for text in line["cut"]]
    assert sum(line["cuts"] for line in lines) >= 1, "the server stop hit no command; the timing needs a look"
    for text in cut:
        assert text.startswith("error: cannot reach the club database 127.0.0.1:"), text
        assert "Traceback" not in text and "internal error" not in text
        # either it is known (nothing reached the server, or the hand was asked about again and not found)
        # or the sentence names the key that repeats it safely
        assert "--key" in text or "nothing was stored" in text or "the hand was not stored" in text, text
    acknowledged = Counter((int(line["args"][2]), tag_of(line["args"])) for line in lines)
    stored = Counter((game, tag) for game in [shared, *own] for tag in tags_in(url, game))
    assert stored == acknowledged  # every hand exactly once: none lost, none duplicated by the retries
    r = cli("--db", url, "verify")
    assert r.code == 0, r.out + r.err
