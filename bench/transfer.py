"""Moving a club's history: `export`, `import`, `db copy` and `verify` of a large database, on SQLite and
PostgreSQL, each as a whole `scorepad` process: wall time, CPU seconds and peak memory beside its target.

    python bench/transfer.py                    # 5,000 games, 100,000 hands (a club's few seasons)
    python bench/transfer.py --quick            # 200 games, 4,000 hands: a smoke run (CI)
    python bench/transfer.py --games 1000       # 20,000 hands
    python bench/transfer.py --before ff68188   # also the same steps of another commit, in turn with these
    python bench/transfer.py --pg-url URL       # a server of your own (else SCOREPAD_TEST_PG_URL's, else
                                                # one started in a temporary directory)
    python bench/transfer.py --no-pg            # SQLite only

The database: games of bundled Spades, 20 hands each (every tenth game also has a hand taken back
by `undo`), typed and scored by the engine once as 100 templates and written under other players'
names through the store (with --before, the Spades text of that commit, which its code must load).
Every step runs the CLI in a child process: CPU is its user + system seconds with its children's
(the PostgreSQL server's share is not in it); memory is sampled from /proc: the largest process's
peak RSS, and the peak of all its processes together (their PSS). Each PostgreSQL database is a
schema of its own, dropped at the end. A benchmark, not a test: it prints figures and never fails
on them. bench/README.md keeps the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import spades_templates  # noqa: E402

HANDS_PER_GAME = 20
# no game reaches its target or the bag limit: the hands say no events, whose wording changes between
# versions, so that the code of an older commit (--before) replays the database too
OPTIONS = {"target": "1000000", "bag_limit": "1000"}
# seconds and MB (issue 26); a step's kind is its first word
TARGETS: dict[str, tuple[float, float | None]] = {"import": (10.0, 200.0), "db copy": (10.0, 200.0),
                                                   "export": (5.0, None), "verify": (10.0, None)}
# what the issue measured before (100,000 hands): import 48 s and 646 MB, export 12 s
ISSUE = {"import": "48 s, 646 MB", "export": "12 s"}


def build(db: Path, games: int, commit: str | None) -> float:
    """The source database: `games` finished Spades games of 20 hands; returns the seconds it took.
    `commit`: the Spades text of that commit (so that its code reads the database too)."""
    from scorepad.engine.game import make_game
    from scorepad.rules.loader import load_text
    from scorepad.rules.registry import load
    from scorepad.store import Store, dumps

    start = time.perf_counter()
    rs = load("spades")
    if commit is not None:
        text = subprocess.run(["git", "show", f"{commit}:rulesets/spades.toml"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout
        rs = load_text(text, "spades.toml", played=True)
    rng = random.Random(26)
    template_game, templates = spades_templates(rs, OPTIONS, HANDS_PER_GAME, rng)
    pool = [f"player{i:02d}" for i in range(40)]
    store = Store(db)
    with store.write() as con:
        store.pin_ruleset(con, rs.id, rs.text, f"{rs.id}.toml")
        for g in range(games):
            game = make_game(rs, rng.sample(pool, 4), None, OPTIONS)
            rows, finish, spare, spare_typed = templates[g % len(templates)]
            names = {t.name: s.name for t, s in zip(template_game.sides, game.sides, strict=True)}
            final = dict(finish.state, winners=[names[w] for w in finish.state["winners"]]
                         if finish.state["winners"] else None)
            day = f"2026-{1 + g * 12 // games:02d}-{1 + g % 28:02d}T20:00:00+00:00"
            sides = [{"name": s.name, "members": list(s.members)} for s in game.sides]
            gid = con.execute(
                "INSERT INTO games(uid, ruleset_id, ruleset_hash, variant, name, season, players, sides, options,"
                " created, finished, hands, state) VALUES(?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?, 1, ?, ?)",
                (uuid.UUID(int=rng.getrandbits(128)).hex, rs.id, rs.hash, f"season {1 + g * 3 // games}",
                 dumps(list(game.players)), dumps(sides), dumps(dict(game.options)), day, len(rows),
                 dumps(final))).lastrowid
            hands = [(gid, r.n, "active", dumps(r.typed), dumps(r.hand), dumps(r.points), dumps(r.breakdown),
                      dumps(r.events), dumps(r.state), day) for r in rows]
            audit = [(gid, day, "new", None, dumps({"players": list(game.players), "options": dict(game.options)}))]
            if g % 10 == 9:  # a 21st hand recorded and taken back
                hands.append((gid, len(rows) + 1, "undone", dumps(spare_typed), dumps(spare), "[0,0]", "[[],[]]",
                              "[]", dumps(dict(rows[-1].state, hands=len(rows) + 1)), day))   # its own count
                audit.append((gid, day, "undo", len(rows) + 1, dumps({"removed": {"n": len(rows) + 1,
                                                                                  "typed": spare_typed}})))
            audit.append((gid, day, "finish", None, dumps({"points": finish.points, "events": finish.events})))
            con.executemany("INSERT INTO hands(game_id, n, status, typed, hand, points, breakdown, events, state,"
                            " created) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", hands)
            con.executemany("INSERT INTO audit(game_id, at, action, hand_n, detail) VALUES(?, ?, ?, ?, ?)", audit)
        con.execute("INSERT OR IGNORE INTO meta(key, value) VALUES('current_season', 'season 1')")
    store.close()
    return time.perf_counter() - start


class Server:
    """PostgreSQL databases for the bench: a new schema each, on the given server or one started here."""

    def __init__(self, url: str | None) -> None:
        self.directory: Path | None = None
        if url is None:
            from tests import pgserver

            self.directory = pgserver.new_directory()
            url = pgserver.start(self.directory)
        self.url = url
        self.schemas: list[str] = []

    def new(self) -> str:
        import psycopg

        name = f"bench_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(self.url, autocommit=True) as con:
            con.execute(f"CREATE SCHEMA {name}")
        self.schemas.append(name)
        return f"{self.url}{'&' if '?' in self.url else '?'}options=-csearch_path%3D{name}"

    def close(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as con:
            for name in self.schemas:
                con.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        if self.directory is not None:
            import shutil

            from tests import pgserver

            pgserver.stop(self.directory)
            shutil.rmtree(self.directory, ignore_errors=True)


class Memory(threading.Thread):
    """A process and its children, sampled every 0.1 s from /proc (Linux): the largest peak RSS of one
    of them (VmHWM: ru_maxrss would count the bench's own memory, from before the exec), and the
    peak of what they hold together (the sum of their PSS: a page shared after a fork counted once)."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.peak_kb = 0
        self.all_kb = 0
        self.done = threading.Event()

    def run(self) -> None:
        while True:
            pids = _tree(self.pid)
            self.peak_kb = max(self.peak_kb, *(_status_kb(p, "VmHWM:") for p in pids))
            self.all_kb = max(self.all_kb, sum(_pss_kb(p) for p in pids))
            if self.done.wait(0.1):
                return


def _tree(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += children.get(pid, [])
    return out


def _status_kb(pid: int, key: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _pss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def timed(cmd: list[str], env: dict[str, str]) -> dict[str, Any]:
    """One child process: wall and CPU seconds (its own and its children's), the peak of its largest
    process and of all its processes together; exits the bench when the command fails."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err)
        memory = Memory(proc.pid)
        if Path("/proc/self/smaps_rollup").exists():
            memory.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        memory.done.set()
        if memory.is_alive():
            memory.join()
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"{' '.join(cmd[-4:])} failed: {err.read().decode()[-2000:]}")
    peak = memory.peak_kb or usage.ru_maxrss   # without /proc: ru_maxrss, which may count the bench too
    return {"wall_s": round(wall, 2), "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
            "peak_mb": round(peak / 1024, 1), "all_mb": round((memory.all_kb or peak) / 1024, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="200 games (4,000 hands): a smoke run")
    ap.add_argument("--games", type=int, help="games of 20 hands (default 5,000)")
    ap.add_argument("--before", help="a git commit whose scorepad runs the same steps, in turn with this one")
    ap.add_argument("--pg-url", help="a PostgreSQL superuser URL (else SCOREPAD_TEST_PG_URL, else a server "
                                     "started here); --no-pg: SQLite only")
    ap.add_argument("--no-pg", action="store_true", help="SQLite only")
    ap.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    args = ap.parse_args()
    games = args.games or (200 if args.quick else 5000)
    sys.path.insert(0, str(ROOT / "bench"))
    from common import clean_env, reference_tree, scorepad_cmd

    figures: dict[str, Any] = {"games": games, "hands": games * HANDS_PER_GAME, "steps": {}}
    with tempfile.TemporaryDirectory(prefix="scorepad-transfer-") as name:
        tmp = Path(name)
        source = tmp / "club.db"
        built = build(source, games, args.before)
        print(f"{games} games, {games * HANDS_PER_GAME} hands (+{games // 10} taken back); built in {built:.1f} s, "
              f"{source.stat().st_size / 2**20:.0f} MB")
        env = clean_env(tmp)
        codes = [("now", scorepad_cmd(), env)]
        if args.before:
            tree = reference_tree(tmp, args.before)
            if tree is None:
                raise SystemExit(f"--before {args.before}: no git history here")
            codes.insert(0, ("before", [sys.executable, "-P", "-m", "scorepad"], dict(env, PYTHONPATH=str(tree))))
        server = None
        if not args.no_pg:
            server = Server(args.pg_url or os.environ.get("SCOREPAD_TEST_PG_URL"))
        try:
            run_steps(tmp, source, codes, server, figures["steps"])
        finally:
            if server is not None:
                server.close()
    report(figures, args.before)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


def run_steps(tmp: Path, source: Path, codes: list[tuple[str, list[str], dict[str, str]]],
              server: Server | None, out: dict[str, Any]) -> None:
    """Every step, each code in turn (before, now, before, now ...: drift of a shared machine hits both
    alike); each code writes into databases of its own."""
    plans = []
    for label, exe, env in codes:
        timed([*exe, "--db", str(source), "games", "--json"], env)  # warm-up: byte-code, the page cache
        d = tmp / label
        d.mkdir()
        export = d / "export.json"
        steps: list[tuple[str, list[str]]] = [
            ("export sqlite", ["--db", str(source), "export", "--output", str(export)]),
            ("import -> sqlite", ["--db", str(d / "imported.db"), "import", str(export)]),
            ("verify sqlite", ["--db", str(source), "verify"]),
        ]
        if server is not None:
            pg_copy, pg_import = server.new(), server.new()
            steps += [
                ("import -> postgres", ["--db", pg_import, "import", str(export)]),
                ("db copy sqlite -> postgres", ["db", "copy", str(source), pg_copy]),
                ("db copy postgres -> sqlite", ["db", "copy", pg_copy, str(d / "back.db")]),
                ("export postgres", ["--db", pg_copy, "export", "--output", str(d / "export-pg.json")]),
                ("verify postgres", ["--db", pg_copy, "verify"]),
            ]
        plans.append((label, exe, env, steps))
    for k in range(len(plans[0][3])):
        for label, exe, env, steps in plans:
            step, words = steps[k]
            got = timed([*exe, *words], env)
            out.setdefault(step, {})[label] = got
            print(f"  {label:6} {step:28} {got['wall_s']:6.2f} s  cpu {got['cpu_s']:6.2f} s  "
                  f"peak {got['peak_mb']:6.1f} MB  all {got['all_mb']:6.1f} MB", flush=True)
    if server is not None:
        for label, *_rest in plans:
            same = (tmp / label / "export-pg.json").read_bytes() == (tmp / label / "export.json").read_bytes()
            print(f"  {label:6} the PostgreSQL copy exports the same bytes: {'yes' if same else 'NO'}")


def report(figures: dict[str, Any], before: str | None) -> None:
    full = figures["hands"] == 100_000
    print(f"\n{figures['hands']} hands, {figures['games']} games; the targets are for 100,000 hands (issue 26)"
          + ("" if full else ": this run is smaller, so its figures are not held to them"))
    print("peak: the largest process (VmHWM); all: its processes together (PSS), checking processes included")
    head = f"{'step':28} {'wall':>8} {'cpu':>8} {'peak':>9} {'all':>9} {'target':>14}"
    head += f" {'of target':>9}" if full else ""
    head += f" {'before':>8} {'peak':>9} {'now/before':>10}" if before else ""
    print(head)
    for step, by in figures["steps"].items():
        kind = " ".join(step.split()[:2]) if step.startswith("db copy") else step.split()[0]
        seconds, mb = TARGETS[kind]
        now = by["now"]
        target = f"{seconds:g} s" + (f", {mb:g} MB" if mb else "")
        every = f"{now['all_mb']:6.1f} MB"
        line = f"{step:28} {now['wall_s']:6.2f} s {now['cpu_s']:6.2f} s {now['peak_mb']:6.1f} MB {every} {target:>14}"
        line += f" {now['wall_s'] / seconds:8.2f}x" if full else ""
        if "before" in by:
            was = by["before"]
            line += f" {was['wall_s']:6.2f} s {was['peak_mb']:6.1f} MB {now['wall_s'] / was['wall_s']:9.2f}x"
        print(line)
    print("the issue's figures before, 100,000 hands: " + "; ".join(f"{k} {v}" for k, v in ISSUE.items()))


if __name__ == "__main__":
    main()
