"""A worker process for the reliability tests: runs scorepad commands in-process, one after another.

    python tests/worker.py PLAN.json

PLAN is {"db": path, "commands": [[arg, ...], ...], "retry": bool, "start_at": unix time}. Each command is run through
`scorepad.cli.app.main`, the Typer route of the console script (a fresh database connection per command;
the quick route of `hand` would record the hands faster than the kill test's timing expects), and
one JSON line per command is printed and flushed as soon as the command returns:
{"i": index, "args": [...], "code": exit status, "out": ..., "err": ..., "tries": n}. A line is
printed only after the command finished, so a line with code 0 means the command had reported
success (the crash test relies on that). With "retry", a command refused because another command
changed the same game at the same moment is run again. With "keys", each hand carries the idempotency
key KEY_PREFIX-i; with "retry_unreachable", a command cut off from the club database is repeated (same key)
until it gets through. "ms" is each command's wall time, "cuts" how often it was cut off.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorepad.cli.app import main

CONFLICT = "at the same moment"
UNREACHABLE = "cannot reach the club database"


def run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    sys.argv = ["scorepad", *args]
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return code, out.getvalue(), err.getvalue()


def work(plan: dict) -> None:
    db = plan["db"]
    while time.time() < plan.get("start_at", 0):  # several workers start their first command together
        pass
    for i, command in enumerate(plan["commands"]):
        tries = 0
        cut: list[str] = []
        if plan.get("keys") and command[0] == "hand":
            command = [*command, "--key", f"{plan.get('key_prefix', 'w')}-{i}"]
        started = time.perf_counter()
        while True:
            tries += 1
            code, out, err = run(["--db", db, *command])
            if plan.get("retry") and code == 1 and CONFLICT in err and tries < 200:
                continue
            if plan.get("retry_unreachable") and code == 1 and UNREACHABLE in err and tries < 600:
                cut.append(err[-300:])  # the server is down: the same command, with the same key, again
                time.sleep(0.1)
                continue
            break
        ms = (time.perf_counter() - started) * 1000
        # short lines (well under PIPE_BUF, 4096 bytes) are written atomically, so a kill never leaves
        # half a line: every complete line is a command that had finished
        line = json.dumps({"i": i, "args": command, "code": code, "out": out[-600:], "err": err[-600:],
                           "tries": tries, "ms": round(ms, 2), "cut": cut[:2], "cuts": len(cut)})
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    work(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")))
