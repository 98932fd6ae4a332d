"""What the benchmarks share: the environment a child `scorepad` runs in, the code of an earlier commit
to run beside today's, a PostgreSQL database for a run, and the Spades hands they type.

Each benchmark is a script (`python bench/run.py`); this module sits beside them and imports only the
standard library, tests/pgserver.py and the store's driver, so the scripts import it and never each other.
"""

from __future__ import annotations

import os
import random
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PG_REF = "bce1886"   # the code before issue 26: psycopg, 15 statements a hand
NO_PYC = [False]     # bench/run.py --no-pyc: children compile every module on every start


def clean_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREPAD_")}
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"))
    # Byte-code caching on, into a private directory (the warm-up run fills it): what an installed
    # scorepad gets. With PYTHONDONTWRITEBYTECODE=1 and no cache, an editable install compiles every
    # scorepad module on every start (see --no-pyc).
    if not NO_PYC[0]:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "no-pycache")
    return env


def scorepad_cmd() -> list[str]:
    exe = shutil.which("scorepad")
    return [exe] if exe else [sys.executable, "-m", "scorepad"]


def launcher(tree: Path) -> list[str]:
    """The console script of the scorepad in `tree` (what an installed `scorepad` runs)."""
    code = (f"import sys; sys.path.insert(0, {str(tree)!r}); sys.argv[0] = 'scorepad'; "
            "from scorepad.cli.quick import script; script()")
    return [sys.executable, "-P", "-c", code]


def bench_env(tmp: Path) -> dict[str, str]:
    """No user config or database of the machine; byte-code cached (as an installed scorepad has it)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCOREPAD_", "PG"))}
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
               PYTHONPYCACHEPREFIX=str(tmp / "pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def reference_tree(tmp: Path, ref: str) -> Path | None:
    """The scorepad package of commit `ref` (git archive), to run the same command as it was; None
    when the git history is not at hand (a shallow clone or an exported tree)."""
    out = tmp / f"ref-{ref}"
    if (out / "scorepad").is_dir():
        return out
    try:
        tar = subprocess.run(["git", "archive", ref, "scorepad"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    out.mkdir()
    subprocess.run(["tar", "-x", "-C", str(out)], input=tar, check=True)
    return out


def with_dbname(url: str, name: str) -> str:
    """The same server and login, database `name` (a URL's path, or a connection string's dbname)."""
    if "://" in url:
        from urllib.parse import urlsplit, urlunsplit

        parts = urlsplit(url)
        return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))
    return f"{url} dbname={name}"


@contextmanager
def pg_database(url: str | None) -> Iterator[str | None]:
    """A new database for the run on the server `url` names (else SCOREPAD_TEST_PG_URL's, else a server
    started in a temporary directory), dropped afterwards; None when there is no PostgreSQL here."""
    from tests import pgserver

    server = None
    url = url or os.environ.get("SCOREPAD_TEST_PG_URL")
    if url is None:
        if pgserver.bin_dir() is None:
            yield None
            return
        server = pgserver.new_directory()
        url = pgserver.start(server)
    import psycopg

    name = f"scorepad_bench_{secrets.token_hex(4)}"   # made here, no user text: safe to name in the statement
    admin = psycopg.connect(url, autocommit=True)
    try:
        admin.execute(f"CREATE DATABASE {name}")
        yield with_dbname(url, name)
    finally:
        try:
            admin.execute(f"DROP DATABASE IF EXISTS {name}")
        finally:
            admin.close()
            if server is not None:
                pgserver.stop(server)
                shutil.rmtree(server, ignore_errors=True)


def reference(tmp: Path, ref: str | None) -> Path | None:
    """The checkout of commit `ref` (git archive), or None without git history or when not asked."""
    if not ref or ref == "none":
        return None
    tree = reference_tree(tmp, ref)
    if tree is not None and not (tree / "rulesets").is_dir():   # the package reads its bundled rulesets beside it
        tar = subprocess.run(["git", "archive", ref, "rulesets"], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=tar, check=True)
    return tree


def spades_hand(rng: random.Random) -> list[str]:
    """A legal spades hand: bids 1-5, tricks a random split of 13."""
    bids = [rng.randint(1, 4) for _ in range(4)]
    cuts = sorted(rng.randint(0, 13) for _ in range(3))
    tricks = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]
    return [f"bid={','.join(map(str, bids))}", f"tricks={','.join(map(str, tricks))}"]




class SpadesGame(NamedTuple):
    """A template game: its hands as stored rows, the finish, one more hand and how it was typed."""

    rows: list[Any]
    finish: Any
    spare: dict[str, Any]
    spare_typed: list[str]


def spades_templates(rs: Any, options: dict[str, str], hands: int, rng: random.Random,
                     count: int = 100) -> tuple[Any, list[SpadesGame]]:
    """`count` games of Spades of `hands` hands each, typed and scored once by the engine: the
    templates a large bench database repeats under other players' names (Spades hands hold none).
    Returns the template game (seated p0..p3) and the games."""
    from scorepad.app.games import hand_row, type_and_score
    from scorepad.engine.game import finish_game, initial_state, make_game

    game = make_game(rs, ["p0", "p1", "p2", "p3"], None, options)
    made = []
    for _ in range(count):
        state = initial_state(game)
        rows = []
        for n in range(1, hands + 1):
            raw, hand, result = type_and_score(game, state, spades_hand(rng))
            rows.append(hand_row(n, raw.typed, hand, result))
            state = result.state
        spare_raw, spare, _ = type_and_score(game, state, spades_hand(rng))  # a hand to take back
        made.append(SpadesGame(rows, finish_game(game, state), spare, spare_raw.typed))
    return game, made


class PlaySession:
    """A `scorepad play` process on a pseudo-terminal, typed into as a person at the table does."""

    PROMPT = rb"hand \d+> "
    SHOWN = rb"Next: hand \d+, \w+ deals\."

    def __init__(self, cmd: list[str], env: dict[str, str]) -> None:
        import pty

        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.buf = b""
        self.until(self.PROMPT)

    def until(self, pattern: bytes, timeout: float = 60) -> float:
        """Read until `pattern` is shown; the moment it was."""
        import re
        import select

        end = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.buf)
            if found:
                self.buf = self.buf[found.end():]
                return time.perf_counter()
            ready, _, _ = select.select([self.master], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                self.proc.kill()
                raise SystemExit(f"play: no {pattern!r} within {timeout} s; last output {self.buf[-300:]!r}")
            self.buf += os.read(self.master, 65536)

    def hand(self, line: str) -> tuple[float, float]:
        """Type a hand line: (seconds to its standings shown, seconds to the next prompt)."""
        start = time.perf_counter()
        os.write(self.master, line.encode() + b"\r")
        shown = self.until(self.SHOWN)
        prompt = self.until(self.PROMPT)
        return shown - start, prompt - start

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                os.write(self.master, b"quit\r")
                self.proc.wait(30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.master)


def play_on_pty(cmd: list[str], env: dict[str, str], lines: list[str]) -> list[tuple[float, float]] | None:
    """(seconds to the standings printed, seconds to the next prompt) for each line typed into `play`;
    None where there is no pseudo-terminal."""
    try:
        import pty  # noqa: F401
    except ImportError:
        return None
    session = PlaySession(cmd, env)
    try:
        return [session.hand(line) for line in lines]
    finally:
        session.close()
