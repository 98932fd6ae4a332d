"""Shared fixtures: a throw-away database and a way to run the CLI in-process with exit codes."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from scorepad.cli.quick import main
from tests.browser import chromium  # noqa: F401 (a fixture: real Chromium for the page tests)


@dataclass
class Run:
    code: int
    out: str
    err: str


def counting(monkeypatch: pytest.MonkeyPatch, name: str, *modules: Any) -> list[int]:
    """A counter of the calls of function `name` as each of `modules` calls it (one list, one number)."""
    calls = [0]
    real = getattr(modules[0], name)

    def counted(*args: Any, **kw: Any) -> Any:
        calls[0] += 1
        return real(*args, **kw)

    for module in modules:
        monkeypatch.setattr(module, name, counted)
    return calls


def dump(path: Path) -> list[str]:
    """Every row of every table of a database: equal before and after a refused command."""
    con = sqlite3.connect(path)
    try:
        return list(con.iterdump())
    finally:
        con.close()


USER_ENV = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "APPDATA",
            "LOCALAPPDATA", "USERPROFILE")
"""Where platformdirs looks for the user's config and data, on Linux, macOS and Windows."""

SCOREPAD_ENV = ("SCOREPAD_DB", "SCOREPAD_CONFIG", "SCOREPAD_HOME", "SCOREPAD_RULES", "SCOREPAD_LANG")
"""The environment variables through which a user's own settings would reach a test."""


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets an empty home: the user's config.toml, data directory and SCOREPAD_* settings
    never reach it (tests that want a config write one into this home)."""
    home = tmp_path_factory.mktemp("home")
    for name in USER_ENV:
        monkeypatch.setenv(name, str(home if name in ("HOME", "USERPROFILE") else home / name.lower()))
    for name in SCOREPAD_ENV:
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts in English whatever the machine's locale, and leaves no language behind."""
    from scorepad.locale import set_language

    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    set_language(None)
    yield
    set_language(None)


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "test.db"
    monkeypatch.setenv("SCOREPAD_DB", str(path))
    monkeypatch.delenv("SCOREPAD_RULES", raising=False)
    return path


def _in_process(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., Run]:
    """The CLI run in this process: its exit status and what it printed."""
    def run(*args: str) -> Run:
        monkeypatch.setattr(sys, "argv", ["scorepad", *args])
        code = 0
        try:
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


@pytest.fixture
def cli(db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., Run]:
    return _in_process(capsys, monkeypatch)


# ------------------------------------------------------------------ both stores

STORE_KINDS = ["sqlite", "postgres"]


def _pg_missing(reason: str) -> None:
    """Skip, or fail where a server is required (SCOREPAD_REQUIRE_POSTGRES=1, as in CI)."""
    if os.environ.get("SCOREPAD_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"PostgreSQL is required (SCOREPAD_REQUIRE_POSTGRES=1): {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def pg_admin() -> Iterator[str | None]:
    """A superuser URL of a PostgreSQL server: SCOREPAD_TEST_PG_URL's, else one started for this run.

    Yields None (with the reason kept in PG_REASON) when there is neither; the tests that need it
    then skip, or fail with SCOREPAD_REQUIRE_POSTGRES=1.
    """
    try:
        import psycopg  # noqa: F401
    except ImportError:
        PG_REASON[0] = "psycopg is not installed (pip install '.[test,postgres]')"
        yield None
        return
    url = os.environ.get("SCOREPAD_TEST_PG_URL")
    if url:
        yield url
        return
    from tests import pgserver

    if pgserver.bin_dir() is None:
        PG_REASON[0] = "no PostgreSQL server binaries here (apt-get install postgresql) and no SCOREPAD_TEST_PG_URL"
        yield None
        return
    directory = pgserver.new_directory()
    try:
        url = pgserver.start(directory)
    except (OSError, subprocess.CalledProcessError) as exc:
        PG_REASON[0] = f"could not start a PostgreSQL server: {exc}"
        yield None
        return
    try:
        yield url
    finally:
        pgserver.stop(directory)
        shutil.rmtree(directory, ignore_errors=True)


PG_REASON = ["no PostgreSQL server"]


def with_search_path(url: str, schema: str) -> str:
    """The URL connecting with `schema` first on the search path (each test gets its own schema)."""
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{schema}"


@contextlib.contextmanager
def pg_schema(admin: str) -> Iterator[str]:
    """A fresh schema on the server, dropped afterwards; yields the URL that uses it."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as con:
        con.execute(f"CREATE SCHEMA {name}")
    try:
        yield with_search_path(admin, name)
    finally:
        with psycopg.connect(admin, autocommit=True) as con:
            con.execute(f"DROP SCHEMA {name} CASCADE")


def store_spec(kind: str, tmp_path: Path, pg_admin: str | None, stack: contextlib.ExitStack) -> str:
    """A new empty database of `kind`: an SQLite file path, or a PostgreSQL URL with its own schema."""
    if kind == "sqlite":
        return str(tmp_path / "test.db")
    if pg_admin is None:
        _pg_missing(PG_REASON[0])
    assert pg_admin is not None
    return stack.enter_context(pg_schema(pg_admin))


@pytest.fixture(params=STORE_KINDS)
def anydb(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
          pg_admin: str | None) -> Iterator[str]:
    """SCOREPAD_DB set to a new database of each store in turn."""
    with contextlib.ExitStack() as stack:
        spec = store_spec(request.param, tmp_path, pg_admin, stack)
        monkeypatch.setenv("SCOREPAD_DB", spec)
        monkeypatch.delenv("SCOREPAD_RULES", raising=False)
        monkeypatch.setenv("SCOREPAD_CONFIG", str(tmp_path / "config.toml"))
        yield spec


@pytest.fixture
def acli(anydb: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., Run]:
    """The CLI in-process against `anydb` (each store in turn)."""
    return _in_process(capsys, monkeypatch)


def dump_any(spec: str) -> list[str]:
    """Every row of every table of either store: equal before and after a refused command."""
    from scorepad.store.protocol import is_server

    if not is_server(spec):
        return dump(Path(spec))
    import psycopg

    out = []
    with psycopg.connect(spec, autocommit=True) as con:
        tables = [t for (t,) in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1")]
        for table in tables:
            out += [f"{table}: {row!r}" for row in con.execute(f"SELECT * FROM {table} ORDER BY 1")]
    return out
