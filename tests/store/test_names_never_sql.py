"""A name read from a database (a table, a column) never becomes SQL text: db copy refuses a source whose
tables or columns are not scorepad's own, on either target, and runs nothing the names say."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.store.migrations import TABLES, known_columns
from tests.conftest import Run, dump_any, store_spec


def hostile_column(marker: Path) -> str:
    # read by SQLite as `1`, by PostgreSQL as the end of a COPY column list followed by FROM PROGRAM
    return f"/* /* */ 1 -- */ hash) FROM PROGRAM 'touch {marker}' --"


def source_with(cli: Callable[..., Run], path: Path, change: str) -> None:
    assert cli("--db", str(path), "new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("--db", str(path), "hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    con = sqlite3.connect(path)
    con.execute(change)
    con.commit()
    con.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_column_named_like_sql_is_refused_and_nothing_runs(cli: Callable[..., Run], tmp_path: Path,
                                                             pg_admin: str | None, kind: str) -> None:
    marker = tmp_path / "ran"
    source = tmp_path / "source.db"
    name = hostile_column(marker).replace('"', '""')
    source_with(cli, source, f'ALTER TABLE rulesets RENAME COLUMN text TO "{name}"')
    with contextlib.ExitStack() as stack:
        target = store_spec(kind, tmp_path / "t", pg_admin, stack) if kind == "postgres" else str(tmp_path / "t.db")
        (tmp_path / "t").mkdir(exist_ok=True)
        r = cli("db", "copy", str(source), target)
        assert r.code == 2, r.err
        assert "columns of its table rulesets are not scorepad's" in r.err and "Traceback" not in r.err
        assert not marker.exists()
        if kind == "postgres":
            assert [row for row in dump_any(target) if not row.startswith("scorepad_schema")] == []
        else:
            assert not Path(target).exists()   # the file this copy would have made is not left behind


def test_a_table_that_is_not_scorepads_is_refused(cli: Callable[..., Run], tmp_path: Path) -> None:
    source = tmp_path / "source.db"
    source_with(cli, source, 'CREATE TABLE "x; DROP TABLE games; --" (id INTEGER PRIMARY KEY, v TEXT)')
    r = cli("db", "copy", str(source), str(tmp_path / "t.db"))
    assert r.code == 2 and "its tables are not scorepad's" in r.err
    assert cli("--db", str(source), "verify").code == 0   # the source is untouched


def test_an_extra_column_is_refused(cli: Callable[..., Run], tmp_path: Path) -> None:
    source = tmp_path / "source.db"
    source_with(cli, source, "ALTER TABLE hands ADD COLUMN extra TEXT")
    r = cli("db", "copy", str(source), str(tmp_path / "t.db"))
    assert r.code == 2 and "table hands" in r.err


def test_sql_text_takes_only_the_schemas_names() -> None:
    known_columns("hands", TABLES["hands"])
    with pytest.raises(ValueError):
        known_columns("hands", ["id", "n) FROM PROGRAM 'x' --"])
    with pytest.raises(ValueError):
        known_columns("games; DROP TABLE hands", ["id"])
