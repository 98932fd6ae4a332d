"""Club load: 8 client processes record hands at once, on SQLite and on PostgreSQL side by side.

    python bench/club.py                 # 8 clients x 200 hands (half to a game of their own, half to one shared game)
    python bench/club.py --hands 50      # a quicker run
    python bench/club.py --pg-url URL    # a server of your own (else one is started in a temporary directory)

Each client is tests/worker.py: it runs `scorepad hand` through the CLI entry point in-process, a new
database connection per command (as separate `scorepad` processes would, less the interpreter's
start-up, which bench/run.py measures), and reports every command's wall time. Afterwards the
stored hands are counted per game and tag (0 lost, 0 duplicated) and `verify` must be clean.
Prints the median and p95 latency of `hand` per store. A benchmark, not a test: it never fails a build.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import pgserver  # noqa: E402
from tests.store.test_reliability import TALLY, clean_env, hand_cmd, results, tag_of  # noqa: E402


def scorepad(db: str, *args: str, env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-m", "scorepad", "--db", db, *args], capture_output=True, text=True,
                          env=env, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"scorepad {' '.join(args)}: {done.stderr}")
    return done.stdout


def load(db: str, clients: int, hands: int, tmp: Path) -> dict[str, Any]:
    env = clean_env(tmp)
    shared = int(scorepad(db, "new", TALLY, "ann", "bob", env=env).split()[-1])
    own = [int(scorepad(db, "new", TALLY, f"p{w}", f"q{w}", env=env).split()[-1]) for w in range(clients)]
    start = time.time() + 2.0
    procs = []
    for w in range(clients):
        commands = []
        for k in range(hands // 2):
            commands.append(hand_cmd(own[w], 100_000 * (w + 1) + k))
            commands.append(hand_cmd(shared, 1_000 * (w + 1) + k))
        plan = tmp / f"c{w}.json"
        plan.write_text(json.dumps({"db": db, "commands": commands, "start_at": start, "keys": True,
                                    "key_prefix": f"c{w}"}), encoding="utf-8")
        procs.append(subprocess.Popen([sys.executable, str(ROOT / "tests" / "worker.py"), str(plan)],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp))
    lines: list[dict[str, Any]] = []
    for proc in procs:
        out, _err = proc.communicate()
        lines += results(out)
    wall = time.time() - start
    ms = sorted(line["ms"] for line in lines if line["code"] == 0)
    acknowledged = Counter((int(line["args"][2]), tag_of(line["args"])) for line in lines if line["code"] == 0)
    from scorepad.store.choice import open_store

    store = open_store(db)
    stored = Counter((g, tag_of(h.typed)) for g in [shared, *own] for h in store.hands(g))
    store.close()
    verify = subprocess.run([sys.executable, "-m", "scorepad", "--db", db, "verify"], capture_output=True, text=True,
                            env=env, cwd=ROOT)
    return {"hands": len(lines), "refused": sum(1 for line in lines if line["code"] != 0),
            "lost": sum((acknowledged - stored).values()), "duplicated": sum((stored - acknowledged).values()),
            "unacknowledged_stored": len(set(stored) - set(acknowledged)),
            "verify": verify.returncode == 0, "median_ms": statistics.median(ms) if ms else None,
            "p95_ms": ms[int(len(ms) * 0.95) - 1] if ms else None, "wall_s": round(wall, 1),
            "hands_per_s": round(len(ms) / wall, 1) if wall else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--hands", type=int, default=200, help="hands per client")
    ap.add_argument("--pg-url", help="a PostgreSQL URL to use (an empty database or schema)")
    args = ap.parse_args()
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        figures["sqlite"] = load(str(tmp / "club.db"), args.clients, args.hands, tmp)
        server = None
        url = args.pg_url
        if url is None:
            server = pgserver.new_directory()
            url = pgserver.start(server)
        try:
            figures["postgres"] = load(url, args.clients, args.hands, tmp)
        finally:
            if server is not None:
                pgserver.stop(server)
                import shutil

                shutil.rmtree(server, ignore_errors=True)
    print(f"{args.clients} clients x {args.hands} hands (half to their own game, half to one shared game)")
    print(f"{'':10} {'median':>8} {'p95':>8} {'hands/s':>8} {'refused':>8} {'lost':>5} {'dup':>5} verify")
    for name, f in figures.items():
        print(f"{name:10} {f['median_ms']:>6.1f}ms {f['p95_ms']:>6.1f}ms {f['hands_per_s']:>8} {f['refused']:>8} "
              f"{f['lost']:>5} {f['duplicated']:>5} {'clean' if f['verify'] else 'PROBLEMS'}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
