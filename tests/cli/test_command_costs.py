"""What each command costs in imports (no timing: which modules a command's process loads), and the
benchmark list of every command (bench/commands.py) kept complete."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import Run

ROOT = Path(__file__).resolve().parents[2]

ENGINE = ("scorepad.engine.game", "scorepad.rules.loader", "scorepad.engine.assignments")
"""The scoring machinery: only commands that load a ruleset or score a hand need it."""


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_commands", ROOT / "bench" / "commands.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _typer_names() -> set[str]:
    from scorepad.cli.app import app

    names: set[str] = set()

    def walk(group: object, prefix: str) -> None:
        for command in group.registered_commands:  # type: ignore[attr-defined]
            names.add(prefix + (command.name or command.callback.__name__))
        for sub in group.registered_groups:  # type: ignore[attr-defined]
            walk(sub.typer_instance, prefix + sub.name + " ")

    walk(app, "")
    return names


def test_the_benchmark_runs_every_command(tmp_path: Path) -> None:
    bench = _bench()
    p = tmp_path
    paths = bench.Paths(p, p / "x.db", "1", "2", p / "e.json", p / "g.toml", p / "r.toml", p / "s.toml", p / "rules")
    covered = bench.covered_names(bench.command_list(paths))
    missing = _typer_names() - covered
    assert not missing, f"bench/commands.py does not run: {', '.join(sorted(missing))}"
    assert {"hand", "rules list", "config set", "db copy"} <= covered


def _loaded(args: list[str], env: dict[str, str], modules: tuple[str, ...]) -> list[str]:
    """The modules of `modules` that a whole `scorepad ARGS` process imported."""
    code = ("import sys, contextlib, io\n"
            f"sys.argv = ['scorepad', *{args!r}]\n"
            "from scorepad.cli.app import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try:\n        main()\n    except SystemExit:\n        pass\n"
            f"print(','.join(m for m in {modules!r} if m in sys.modules))\n")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return [m for m in run.stdout.strip().split(",") if m]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    from scorepad.app import games as play
    from scorepad.store import Store

    base = {k: v for k, v in os.environ.items() if not k.startswith("SCOREPAD_")}
    db = tmp_path / "t.db"
    store = Store(db)
    row = play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    play.record_hand(store, row.id, ["bid=3,3,3,3", "tricks=4,3,3,3"])
    store.close()
    return dict(base, SCOREPAD_DB=str(db), HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
                XDG_DATA_HOME=str(tmp_path / "data"))


@pytest.mark.parametrize("args", [
    ["rules", "list"], ["rules", "list", "--json"], ["--lang", "ru", "rules", "list"],
    ["rules", "export", "spades"], ["games"], ["log"], ["use", "1"], ["config", "list"], ["db", "migrate"],
    ["abandon"], ["delete", "1", "--yes"],
])
def test_commands_that_score_nothing_load_no_engine(args: list[str], env: dict[str, str]) -> None:
    assert _loaded(args, env, ENGINE) == []


def test_the_check_above_can_see_the_engine(env: dict[str, str]) -> None:
    assert _loaded(["rules", "show", "spades"], env, ENGINE) == list(ENGINE)


def test_player_prints_what_tabulate_printed(cli: Callable[..., Run]) -> None:
    """`player` writes its table without tabulate: the same text as tabulate's simple format."""
    from tabulate import tabulate

    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0
    assert cli("new", "spades", "ann", "bob", "cat", "dan", "--opt", "target=100").code == 0
    for _ in range(2):
        assert cli("hand", "bid=3,3,3,3", "tricks=4,3,3,3").code == 0
    rows = json.loads(cli("player", "ann", "--json").out)
    assert len(rows) == 2
    rows.append(dict(rows[0], score=12.5, game=1234))   # a score with a fraction aligns on the point
    words = {"W": "won", "L": "lost", "D": "draw", "unfinished": "not finished"}
    expected = tabulate([[r["date"], r["game"], r["name"], ", ".join(r["side"]), r["score"],
                          f"{r['place']}/{r['of']}", words[r["result"]]] for r in rows],
                        headers=["date", "game", "ruleset", "side", "score", "place", "result"], tablefmt="simple")
    from scorepad.text.player_page import player_text

    assert player_text(rows) == expected
    assert cli("player", "ann").out.startswith(player_text(rows[:2]) + "\n\nPartners:\n")   # Spades: partners
