"""Every scorepad command as a whole process, each paired with a run of the minimal Typer program.

The table this prints is the evidence for "every other command at most 1.0x a minimal Typer
program": COMMANDS names every command and sub-command of the Typer app (a test checks that none is
missing), each with arguments that succeed on a small prepared database and can be repeated round
after round (what one command changes, another puts back: hand/undo/redo, rename there and back).

Each run of a command follows a run of bench/minimal_typer.py; the ratio is the median of the
command's runs over the median of the Typer runs paired with it, in wall time and in CPU seconds
(user + system, from wait4: less sensitive to a loaded machine).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Command:
    """One benchmarked command line: `args(round)` gives the words after `scorepad` for a round."""

    label: str
    args: Callable[[int], list[str]]
    stdin: str = ""
    env: tuple[tuple[str, str], ...] = ()
    ok: tuple[int, ...] = (0,)


@dataclass(frozen=True)
class Paths:
    """The prepared files the commands read and write."""

    tmp: Path
    db: Path
    main_game: str       # spades, 12 hands, the commands that change hands work on it
    finished_game: str   # a finished spades game, rematched each round
    export_json: Path
    game_toml: Path
    ruleset_file: Path   # a starter ruleset written by `rules new` (with its scenario beside it)
    rescore_file: Path   # the spades ruleset's text, for `rescore`
    rules_dir: Path


def fixed(*words: str) -> Callable[[int], list[str]]:
    return lambda _round: list(words)


def command_list(p: Paths) -> list[Command]:
    """Every command of scorepad's Typer app, with arguments that work on the prepared database."""
    g, fin = p.main_game, p.finished_game
    sp, rd = str(p.rescore_file), str(p.rules_dir)
    complete = (("_SCOREPAD_COMPLETE", "complete_bash"), ("COMP_WORDS", "scorepad rules sh"), ("COMP_CWORD", "2"))
    return [
        Command("--help", fixed("--help")),
        Command("--version", fixed("--version")),
        Command("completion (Tab on `rules sh`)", fixed(), env=complete),
        Command("standings", fixed("standings")),
        Command("sheet", fixed("sheet", "--game", g)),
        Command("bid", fixed("bid", "--game", g, "bid=3,3,3,3")),
        Command("hand", fixed("hand", "--game", g, "tricks=4,3,3,3")),
        Command("undo", fixed("undo", "--game", g)),
        Command("redo", fixed("redo", "--game", g)),
        Command("edit", fixed("edit", "--game", g, "1", "tricks=4,3,3,3")),
        Command("log", fixed("log", "--game", g)),
        Command("rename", lambda r: ["rename", *(("ann", "anna") if r % 2 == 0 else ("anna", "ann")), "--game", g]),
        Command("games", fixed("games")),
        Command("new", fixed("new", "spades", "ann", "bob", "cat", "dan")),
        Command("abandon", fixed("abandon")),
        Command("rematch", lambda r: ["rematch", "--game", fin, "--name", f"again-{r}"]),
        Command("finish", fixed("finish")),
        Command("delete", lambda r: ["delete", f"again-{r}", "--yes"]),
        Command("use", fixed("use", g)),   # the main game current again for the next round's standings
        Command("play", fixed("play", g), stdin="quit\n"),
        Command("player", fixed("player", "bob")),
        # serves until Ctrl-C: timed up to its refusal of a game that does not exist (its start-up and imports)
        Command("serve (a game that does not exist: refused)", fixed("serve", "--game", "no-such-game"), ok=(2,)),
        Command("season", fixed("season")),
        Command("stats", fixed("stats", "bob")),
        Command("verify", fixed("verify")),
        Command("backup", lambda r: ["backup", str(p.tmp / f"backup-{r}.db")]),
        Command("export", fixed("export", "--output", str(p.tmp / "out.json"), "--force")),
        Command("import", fixed("import", str(p.export_json))),
        Command("rescore", fixed("rescore", g, "--ruleset", sp)),
        Command("rules list", fixed("rules", "list")),
        Command("rules show", fixed("rules", "show", "spades")),
        Command("rules schema", fixed("rules", "schema")),
        Command("rules check", fixed("rules", "check", str(p.ruleset_file))),
        Command("rules test", fixed("rules", "test", str(p.ruleset_file))),
        Command("rules export", fixed("rules", "export", "spades")),
        Command("rules derive", fixed("--rules-dir", rd, "rules", "derive", "spades", "spades-500", "--opt",
                                      "target=300", "--force")),
        Command("rules new", fixed("--rules-dir", rd, "rules", "new", "starter-game", "--force")),
        Command("config list", fixed("config", "list")),
        Command("config set", fixed("config", "set", "alias.an", "ann")),
        Command("config get", fixed("config", "get", "alias.an")),
        Command("db migrate", fixed("db", "migrate")),
        Command("db copy", lambda r: ["db", "copy", str(p.db), str(p.tmp / f"copy-{r}.db")]),
        # needs PostgreSQL (psycopg and a server): timed up to its refusal
        Command("club init (no PostgreSQL: refused)", fixed("club", "init"), ok=(1, 2)),
    ]


def covered_names(cmds: list[Command]) -> set[str]:
    """The Typer command names ("hand", "rules list") a command list runs."""
    out = set()
    for c in cmds:
        args = c.args(0)
        if args[:1] == ["--rules-dir"]:
            args = args[2:]
        words = [w for w in args if not w.startswith("-") and "=" not in w]
        if words:
            out.add(" ".join(words[:2]) if words[0] in ("rules", "config", "db", "club") else words[0])
    return out


def prepare(tmp: Path) -> Paths:
    """A small database: a spades game of 12 hands (current), a finished one, an export, a TOML game."""
    from scorepad.app import games as play
    from scorepad.app.gamefile import game_toml
    from scorepad.app.rulesets import write_starter
    from scorepad.app.transfer.export import export_chunks
    from scorepad.rules.registry import resolve, resolved_text
    from scorepad.store import Store

    tmp.mkdir(parents=True, exist_ok=True)
    db = tmp / "commands.db"
    store = Store(db)
    done = play.new_game(store, "spades", ["bob", "cat", "dan", "eve"], opts=["target=100"])
    for tricks in ("7,2,2,2", "7,2,2,2", "7,2,2,2", "7,2,2,2", "7,2,2,2"):
        row = store.game(done.id)
        if row.finished:
            break
        play.record_hand(store, done.id, ["bid=5,2,2,2", f"tricks={tricks}"])
    if not store.game(done.id).finished:
        play.finish(store, done.id)
    main = play.new_game(store, "spades", ["ann", "bob", "cat", "dan"], opts=["target=100000"])
    for i in range(12):
        play.record_hand(store, main.id, [f"bid={1 + i % 4},3,3,3", "tricks=4,3,3,3"])
    export_json = tmp / "export.json"
    with export_json.open("w", encoding="utf-8") as f:
        for chunk in export_chunks(store):
            f.write(chunk)
    game_file = tmp / "game.toml"
    game_file.write_text(game_toml(store, str(main.id)), encoding="utf-8")
    store.close()
    rules_dir = tmp / "rules"
    rules_dir.mkdir(exist_ok=True)
    ruleset_file, _scenario = write_starter("starter-game", None, [str(rules_dir)], rules_dir, True)
    path, _variant = resolve("spades", [])
    rescore_file = tmp / "spades-copy.toml"
    rescore_file.write_text(resolved_text(path, [])[0], encoding="utf-8")
    return Paths(tmp, db, str(main.id), str(done.id), export_json, game_file, Path(ruleset_file), rescore_file,
                 rules_dir)


def run_once(cmd: list[str], env: dict[str, str], stdin: str, ok: tuple[int, ...]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system of the child, from wait4) of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stdin is not None
    proc.stdin.write(stdin.encode())
    proc.stdin.close()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if code not in ok:
        raise SystemExit(f"{' '.join(cmd)} exited {code}: {err}")
    return wall, usage.ru_utime + usage.ru_stime


def instructions(cmd: list[str], env: dict[str, str], stdin: str, ok: tuple[int, ...]) -> int:
    """Instructions the whole process executes, counted by valgrind's callgrind: a figure the load of
    the machine does not change (children, like a pager, are not followed)."""
    import re
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", *cmd],
                             env=env, input=stdin, capture_output=True, text=True)
    if run.returncode not in ok:
        raise SystemExit(f"{' '.join(cmd)} exited {run.returncode} under valgrind: {run.stderr[-2000:]}")
    found = re.search(r"Collected : (\d+)", run.stderr)
    if not found:
        raise SystemExit(f"no instruction count from callgrind: {run.stderr[-2000:]}")
    return int(found.group(1))


def _own_home(env: dict[str, str], home: Path) -> dict[str, str]:
    home.mkdir(parents=True, exist_ok=True)
    return dict(env, HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"))


def bench_commands(tmp: Path, runs: int, env: dict[str, str], scorepad: list[str],
                   only: str | None = None, against: list[str] | None = None,
                   count_instructions: bool = False) -> dict[str, Any]:
    """The table; `only` (comma-separated labels) runs a few of them (commands that change what
    another puts back, like hand and undo, should then be chosen together). `against`: another
    scorepad (e.g. an older checkout) run the same way, interleaved, on its own copy of the files.
    `count_instructions`: also one run of each under valgrind, instructions as a ratio to Typer's."""
    typer_cmd = [sys.executable, str(ROOT / "bench" / "minimal_typer.py"), "hello"]
    subjects: list[tuple[str, list[str], list[Command], dict[str, str]]] = []
    for name, exe in (("before", against), ("now", scorepad)):
        if exe is None:
            continue
        paths = prepare(tmp / f"commands-{name}")
        cmds = command_list(paths)
        if only:
            wanted = {w.strip() for w in only.split(",")}
            unknown = wanted - {c.label for c in cmds}
            if unknown:
                raise SystemExit(f"unknown command labels: {', '.join(sorted(unknown))}")
            cmds = [c for c in cmds if c.label in wanted]
        subjects.append((name, exe, cmds, dict(_own_home(env, tmp / f"home-{name}"), SCOREPAD_DB=str(paths.db))))
    labels = [c.label for c in subjects[0][2]]
    walls: dict[tuple[str, str], list[float]] = {}
    cpus: dict[tuple[str, str], list[float]] = {}
    for r in range(runs + 1):   # round 0 warms up: page cache, .pyc files
        for i, label in enumerate(labels):
            timed = [("typer", *run_once(typer_cmd, env, "", (0,)))]
            for name, exe, cmds, sub_env in subjects:
                c = cmds[i]
                timed.append((name, *run_once([*exe, *c.args(r)], dict(sub_env, **dict(c.env)), c.stdin, c.ok)))
            if r:
                for name, wall, cpu in timed:
                    walls.setdefault((label, name), []).append(wall)
                    cpus.setdefault((label, name), []).append(cpu)
    counts: dict[tuple[str, str], int] = {}
    if count_instructions:
        typer_count = instructions(typer_cmd, env, "", (0,))
        for i, label in enumerate(labels):
            counts[(label, "typer")] = typer_count
            for name, exe, cmds, sub_env in subjects:
                c = cmds[i]
                counts[(label, name)] = instructions([*exe, *c.args(runs + 1)], dict(sub_env, **dict(c.env)),
                                                     c.stdin, c.ok)
    print(f"\n6. Every command (whole process, {runs} runs each, each run beside a run of the minimal Typer "
          "program; a small database)")
    print("   ratios: median wall time over the median of the Typer runs beside it; cpu: the same in CPU seconds"
          + ("; 'before': the other scorepad given with --against" if against else ""))
    head = f"   {'command':34} {'median':>10} {'typer':>10} {'/typer':>7} {'cpu/typer':>10}"
    head += f" {'before':>8} {'cpu before':>11}" if against else ""
    head += f" {'instr':>7}" + (f" {'instr before':>13}" if against else "") if counts else ""
    print(head)
    out: dict[str, Any] = {"runs": runs, "commands": {}}
    over = []

    def med(label: str, name: str, table: dict[tuple[str, str], list[float]]) -> float:
        return statistics.median(table[(label, name)])

    for label in labels:
        ref, ref_cpu = med(label, "typer", walls), med(label, "typer", cpus)
        now, now_cpu = med(label, "now", walls), med(label, "now", cpus)
        row: dict[str, Any] = {"median_ms": round(now * 1000, 1), "typer_median_ms": round(ref * 1000, 1),
                               "vs_typer": round(now / ref, 2), "cpu_vs_typer": round(now_cpu / ref_cpu, 2)}
        line = f"   {label:34} {now * 1000:7.1f} ms {ref * 1000:7.1f} ms {now / ref:6.2f}x {now_cpu / ref_cpu:9.2f}x"
        if against:
            before, before_cpu = med(label, "before", walls), med(label, "before", cpus)
            row.update(before_vs_typer=round(before / ref, 2), before_cpu_vs_typer=round(before_cpu / ref_cpu, 2))
            line += f" {before / ref:7.2f}x {before_cpu / ref_cpu:10.2f}x"
        if counts:
            ref_count = counts[(label, "typer")]
            row["instructions"] = counts[(label, "now")]
            row["instructions_vs_typer"] = round(counts[(label, "now")] / ref_count, 2)
            line += f" {counts[(label, 'now')] / ref_count:6.2f}x"
            if against:
                row["before_instructions_vs_typer"] = round(counts[(label, "before")] / ref_count, 2)
                line += f" {counts[(label, 'before')] / ref_count:12.2f}x"
        out["commands"][label] = row
        if now / ref > 1.0:
            over.append(label)
        print(line)
    print("   target: every command at most 1.0x the minimal Typer program"
          + (f"; over: {', '.join(over)}" if over else "; all within"))
    return out
