"""The quick route (scorepad/cli/quick.py) run in a child process on a new game of spades, reporting
whether a module had been imported when the command ended: what a test of what the route leaves out
needs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def new_spades_game(tmp_path: Path) -> dict[str, str]:
    """The environment of a new database under tmp_path holding one game of spades."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREPAD_")}
    env["SCOREPAD_DB"] = str(tmp_path / "t.db")
    subprocess.run([sys.executable, "-m", "scorepad", "new", "spades", "a", "b", "c", "d"], env=env, cwd=ROOT,
                   check=True, capture_output=True)
    return env


def run_noting_module(env: dict[str, str], module: str, args: list[str]) -> tuple[str, str]:
    """The command's standard output, and "True" or "False": whether `module` was imported by its end."""
    code = ("import sys; sys.argv = ['scorepad'] + sys.argv[1:]; from scorepad.cli.quick import main\n"
            f"try:\n    main()\nfinally:\n    print({module!r} in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr.strip().splitlines()[-1]
