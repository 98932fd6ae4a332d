"""Hostile rulesets: every file in tests/hostile/ (and the huge ones made here) is refused quickly.

Each file starts with `# hostile: what it tries` and `# expect: words of the refusal`. Both
`scorepad rules check` and `scorepad new` must refuse it with exit status 2 and a clear message
(no traceback) in under a second, store no game, and change nothing outside the test's directory.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run
from tests.speed import within

HOSTILE = Path(__file__).resolve().parents[1] / "hostile"
FILES = sorted(HOSTILE.glob("*.toml"))
GAME_HEAD = '[game]\nid = "evil"\nname = "Evil"\n'


def expectation(path: Path) -> str:
    for line in path.read_bytes().decode("utf-8", "replace").splitlines()[:3]:
        if line.startswith("# expect:"):
            return line.partition(":")[2].strip()
    raise AssertionError(f"{path.name} has no '# expect:' line")


def generated() -> dict[str, tuple[bytes, str]]:
    """The huge ones, made here rather than committed: name -> (file bytes, words of the refusal)."""
    return {
        "huge_file.toml": ((GAME_HEAD + "[tables]\n" + "".join(f"t{i} = {i}\n" for i in range(30000))).encode(),
                           "larger than 256 KiB"),
        "huge_string.toml": ((GAME_HEAD + 'description = "' + "x" * 200_000 + '"\n').encode(),
                             "longer than 10000"),
        "huge_many_values.toml": ((GAME_HEAD.replace("name", "aliases = [" + ", ".join(['"a"'] * 25000) + "]\nname")).encode(),
                                  "too many values"),
        "huge_deep_arrays.toml": ((GAME_HEAD + "[tables]\nt = " + "[" * 100_000 + "]" * 100_000 + "\n").encode(),
                                  "nests"),
        "huge_deep_tables.toml": ((GAME_HEAD + "[tables." + ".".join(["a"] * 5000) + "]\nx = 1\n").encode(),
                                  "nests"),
        "huge_formula_list.toml": ((GAME_HEAD + '[[score]]\npoints = "sum([' + ",".join(["1"] * 990) + '])"\n').encode(),
                                   "too long"),
    }


def test_corpus_is_big_enough() -> None:
    assert len(FILES) + len(generated()) >= 30


def corpus_copy(tmp_path: Path) -> tuple[Path, Path]:
    """The corpus and the generated files copied into tmp_path/work, and an empty tmp_path/home."""
    work = tmp_path / "work"
    shutil.copytree(HOSTILE, work)
    for name, (data, _) in generated().items():
        (work / name).write_bytes(data)
    home = tmp_path / "home"
    home.mkdir()
    return work, home


@pytest.fixture
def arena(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the corpus plus the generated files as the working directory; HOME inside tmp."""
    work, home = corpus_copy(tmp_path)
    for var in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        monkeypatch.setenv(var, str(home) if var == "HOME" else str(home / var.lower()))
    monkeypatch.chdir(work)
    return work


CASES = [(p.name, expectation(p)) for p in FILES] + [(n, w) for n, (_, w) in generated().items()]


def games_in(db: Path) -> int:
    if not db.exists():
        return 0
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:
        return 0
    finally:
        con.close()


@pytest.mark.parametrize("name, words", CASES, ids=[c[0] for c in CASES])
def test_refused_by_check_and_new(cli: Callable[..., Run], arena: Path, db: Path, name: str, words: str) -> None:
    for command in (("rules", "check", name), ("new", name, "ann", "bob")):
        start = time.perf_counter()
        r = cli(*command)
        elapsed = time.perf_counter() - start
        assert r.code == 2, f"{command}: exit {r.code}\n{r.out}{r.err}"
        assert within(elapsed, 1.0), f"{command} took {elapsed:.2f} s"
        assert "Traceback" not in r.err + r.out and "internal error" not in r.err, r.err
        assert r.err.strip(), "refused without a message"
        assert words in r.err, f"{command}: expected {words!r} in:\n{r.err}"
        assert len(r.err) < 20_000, "the refusal is a wall of text"
    assert games_in(db) == 0
    assert not list(arena.parent.rglob("PWNED"))


def tree(path: Path) -> dict[str, str]:
    return {str(p.relative_to(path)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(path.rglob("*"))}


def test_whole_corpus_in_one_subprocess_changes_nothing(tmp_path: Path) -> None:
    """The real console script on every file at once: each refused and named, nothing written anywhere."""
    work, home = corpus_copy(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREPAD_")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
               SCOREPAD_DB=str(tmp_path / "db" / "x.db"), PYTHONDONTWRITEBYTECODE="1")
    before_tmp, before_corpus = tree(tmp_path), tree(HOSTILE)
    names = sorted(p.name for p in work.glob("*.toml"))
    start = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "scorepad", "rules", "check", *names], cwd=work, env=env,
                       capture_output=True, text=True, timeout=120)
    elapsed = time.perf_counter() - start
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    assert ": ok" not in r.stdout, r.stdout
    for name in names:
        if not name.startswith("base_"):  # a derived file's problem is reported against the base it names
            assert name in r.stderr, f"{name} not reported"
    assert within(elapsed, 2 + 0.2 * len(names)), f"{elapsed:.2f} s"
    assert tree(tmp_path) == before_tmp
    assert tree(HOSTILE) == before_corpus
    assert not Path("/tmp/PWNED").exists()
