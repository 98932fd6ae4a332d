"""Moving a large history: `import` reads an export a game at a time (in any JSON layout, in forked
checking processes for a large file) and stays all or nothing after batches were written; the
export's own indenter writes what json.dumps writes; `db copy` goes a batch at a time and keeps
nothing when the copy differs; `verify` on a server shares the games among processes."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.app import dbcopy
from scorepad.app import verify as verification
from scorepad.app.transfer import checks, export, importing, pieces, schema, writing
from scorepad.errors import ScorepadError, StoreError, UserError
from scorepad.store import Store, text_hash
from scorepad.store.choice import open_store
from tests.conftest import Run, dump_any, store_spec


def history(run: Callable[..., Run], db: str) -> None:
    """A small club history: undo, edit, a finished game, another ruleset, a season, a bid written down."""
    assert run("--db", db, "new", "spades", "ann", "bob", "cat", "dan", "--season", "autumn").code == 0
    for hand in (("bid=4,3,3,3", "tricks=5,3,3,2"), ("bid=3,3,3,3", "tricks=4,3,3,3"),
                 ("bid=2,3,4,3", "tricks=2,3,5,3")):
        assert run("--db", db, "hand", *hand).code == 0
    assert run("--db", db, "undo").code == 0
    assert run("--db", db, "edit", "1", "tricks=4,4,3,2").code == 0
    assert run("--db", db, "new", "hearts", "ann", "bob", "cat", "eve").code == 0
    assert run("--db", db, "hand", "hearts=5,4,3,1", "queen=ann").code == 0
    assert run("--db", db, "finish").code == 0
    assert run("--db", db, "new", "spades", "eve", "fay", "gus", "hal").code == 0
    assert run("--db", db, "hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert run("--db", db, "bid", "eve.bid=4", "fay.bid=3", "gus.bid=2", "hal.bid=3").code == 0


@pytest.fixture
def exported(cli: Callable[..., Run], tmp_path: Path) -> Path:
    source = str(tmp_path / "source.db")
    history(cli, source)
    out = tmp_path / "club.json"
    assert cli("--db", source, "export", "--output", str(out)).code == 0
    return out


def export_of(spec: str | Path) -> str:
    store = open_store(str(spec))
    try:
        return export.export_text(store)
    finally:
        store.close()


@contextlib.contextmanager
def target(kind: str, tmp_path: Path, pg_admin: str | None) -> Iterator[str]:
    with contextlib.ExitStack() as stack:
        yield store_spec(kind, tmp_path, pg_admin, stack)


def relayout(text: str, how: str) -> str:
    data = json.loads(text)
    if how == "one line":
        return json.dumps(data, ensure_ascii=False)
    if how == "rulesets first":
        return json.dumps({k: data[k] for k in ("rulesets", "meta", "version", "games", "format")}, indent=3)
    if how == "windows":
        return json.dumps(data, indent="\t").replace("\n", "\r\n") + "\r\n"
    return text


@pytest.mark.parametrize("how", ["as written", "one line", "rulesets first", "windows"])
def test_any_layout_reads_alike_in_small_pieces(exported: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                how: str) -> None:
    """Read 7 characters at a time, every layout of the same export imports to the same database."""
    monkeypatch.setattr(pieces, "READ_PIECE", 7)
    monkeypatch.setattr(writing, "IMPORT_BATCH", 3)
    path = tmp_path / "other.json"
    path.write_text(relayout(exported.read_text(encoding="utf-8"), how), encoding="utf-8", newline="")
    fresh = Store(tmp_path / "fresh.db")
    assert importing.import_file(fresh, path) == (3, 0)
    assert importing.import_file(fresh, path) == (0, 3)
    assert export.export_text(fresh) == exported.read_text(encoding="utf-8")
    assert verification.verify(fresh) == []
    fresh.close()


def test_a_key_twice_is_read_whole(exported: Path, tmp_path: Path) -> None:
    """A top-level key twice: JSON keeps the last, as the whole reading does (the piecewise one gives up)."""
    text = exported.read_text(encoding="utf-8")
    path = tmp_path / "twice.json"
    path.write_text(text.rstrip()[:-1] + ', "meta": {"current_season": "spring"}}', encoding="utf-8")
    fresh = Store(tmp_path / "fresh.db")
    assert importing.import_file(fresh, path) == (3, 0)
    assert fresh.get_meta("current_season") == "spring"
    fresh.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
@pytest.mark.parametrize("processes", [1, 2])
def test_refused_after_batches_were_written_stores_nothing(cli: Callable[..., Run], exported: Path, tmp_path: Path,
                                                          pg_admin: str | None, monkeypatch: pytest.MonkeyPatch,
                                                          kind: str, processes: int) -> None:
    """The last game is wrong: the games before it were written (a batch each) and are rolled back."""
    monkeypatch.setattr(writing, "IMPORT_BATCH", 1)
    if processes > 1:
        monkeypatch.setattr(pieces, "PARALLEL_CHARS", 0)
        monkeypatch.setattr(checks, "RUN_CHARS", 1)
    data = json.loads(exported.read_text(encoding="utf-8"))
    data["games"][-1]["state"]["sides"][0]["score"] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data, indent=1), encoding="utf-8")
    with target(kind, tmp_path, pg_admin) as spec:
        assert cli("--db", spec, "new", "spades", "ann", "bob", "cat", "dan").code == 0
        before = dump_any(spec)
        r = cli("--db", spec, "import", str(bad))
        assert r.code == 2 and "games[2].state: differs from a replay" in r.err, r.err
        assert dump_any(spec) == before
        r = cli("--db", spec, "import", str(exported))
        assert r.code == 0 and "Imported 3 games" in r.out, r.err


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_checked_in_processes_as_in_one(exported: Path, tmp_path: Path, pg_admin: str | None,
                                        monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    monkeypatch.setattr(pieces, "PARALLEL_CHARS", 0)
    monkeypatch.setattr(checks, "RUN_CHARS", 1)
    monkeypatch.setattr(writing, "IMPORT_BATCH", 2)
    with target(kind, tmp_path, pg_admin) as spec:
        store = open_store(spec)
        assert importing.import_file(store, exported) == (3, 0)
        store.close()
        assert export_of(spec) == exported.read_text(encoding="utf-8")
    data = json.loads(exported.read_text(encoding="utf-8"))
    j = next(j for j, h in enumerate(data["games"][0]["hand_rows"]) if h["status"] == "active")
    data["games"][0]["hand_rows"][j]["points"][0] += 1
    data["games"][2]["uid"] = data["games"][1]["uid"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    found = []
    for parallel in (0, 1 << 40):
        monkeypatch.setattr(pieces, "PARALLEL_CHARS", parallel)
        with pytest.raises(UserError) as refused:
            importing.import_file(Store(tmp_path / f"t{parallel}.db"), bad)
        found.append(refused.value.problems)
    assert found[0] == found[1] and len(found[0]) == 2
    assert found[0][0].startswith(f"games[0].hand_rows[{j}].points: differs")
    assert found[0][1].startswith("games[2].uid: the same uid")


def test_a_checking_process_that_dies_is_a_plain_error_and_nothing_is_stored(
        exported: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A checking process killed (memory, a crash in C code) ends the import with a sentence, not a
    wait for ever, and the database keeps what it had."""
    import os
    import signal

    monkeypatch.setattr(pieces, "PARALLEL_CHARS", 0)
    monkeypatch.setattr(checks, "RUN_CHARS", 1)
    monkeypatch.setattr(writing, "IMPORT_BATCH", 1)
    real, parent = checks.Checker.game_text, os.getpid()

    def killed_at_the_second(self: Any, i: int, text: str) -> Any:
        if i == 1 and os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(self, i, text)

    monkeypatch.setattr(checks.Checker, "game_text", killed_at_the_second)
    store = Store(tmp_path / "t.db")
    before = store.games()

    def expired(*_: Any) -> None:
        raise TimeoutError("the import still waits for a process that is gone")
    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(60)
    try:
        with pytest.raises(ScorepadError, match=r"a worker process ended \(killed by signal 9\)"):
            importing.import_file(store, exported)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert store.games() == before == []
    store.close()


# ------------------------------------------------------------------ what the piecewise reading lets past `scan`

JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(10**22), 10**22),
                         st.floats(allow_nan=True, allow_infinity=True),
                         st.sampled_from(["", "ann", "\\ud800", "\U0001f0cf", "]}[{", '"', "\\"]))


def deep(value: Any, levels: int) -> Any:
    for k in range(levels):
        value = [value] if k % 2 else {"x": value}
    return value


def test_the_export_indenter_refuses_what_is_not_a_number() -> None:
    for value in (float("nan"), [1, {"a": float("inf")}]):
        with pytest.raises(StoreError):
            export._indented(value, "\n")


# ------------------------------------------------------------------ db copy

def test_db_copy_in_small_batches_both_ways(cli: Callable[..., Run], exported: Path, tmp_path: Path,
                                            pg_admin: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dbcopy, "BATCH", 2)
    source = str(tmp_path / "source.db")
    with target("postgres", tmp_path, pg_admin) as pg:
        r = cli("db", "copy", source, pg)
        assert r.code == 0 and "both sides are equal" in r.out, r.err
        back = str(tmp_path / "back.db")
        r = cli("db", "copy", pg, back)
        assert r.code == 0 and "both sides are equal" in r.out, r.err
        assert export_of(pg) == export_of(back) == exported.read_text(encoding="utf-8")
        assert cli("--db", back, "verify").code == 0


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_db_copy_that_differs_keeps_nothing(cli: Callable[..., Run], exported: Path, tmp_path: Path,
                                            pg_admin: str | None, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    """The comparison runs before the commit: a copy found different is rolled back, from a database or a file."""
    source = str(tmp_path / "source.db")
    with target(kind, tmp_path, pg_admin) as spec:
        open_store(spec).close()
        before = dump_any(spec)
        monkeypatch.setattr(dbcopy, "compare", lambda a, b: ["hands: 9 and 8 rows, first difference at row 9"])
        r = cli("db", "copy", source, spec)
        assert r.code != 0 and "first difference at row 9" in r.err
        assert dump_any(spec) == before
        monkeypatch.setattr(dbcopy, "differs_from_file", lambda store, path: True)
        r = cli("db", "copy", str(exported), spec)
        assert r.code != 0 and "differs from" in r.err
        assert dump_any(spec) == before


def test_db_copy_compare_names_the_first_difference(cli: Callable[..., Run], tmp_path: Path) -> None:
    source = str(tmp_path / "source.db")
    history(cli, source)
    copy = str(tmp_path / "copy.db")
    assert cli("db", "copy", source, copy).code == 0
    a, b = Store(Path(source)), Store(Path(copy))
    assert dbcopy.compare(a, b) == []
    hands, audit = (a.db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("hands", "audit"))
    with b.write() as con:
        con.execute("UPDATE hands SET created = 'x' WHERE id = 3")
        con.execute("DELETE FROM audit WHERE id = (SELECT MAX(id) FROM audit)")
    assert dbcopy.compare(a, b) == [f"hands: {hands} and {hands} rows, first difference at row 3",
                                    f"audit: {audit} and {audit - 1} rows, first difference at row {audit}"]


# ------------------------------------------------------------------ the stores' many-rows writes, verify on a server

@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_insert_rows_and_next_ids(tmp_path: Path, pg_admin: str | None, kind: str) -> None:
    awkward = 'tab\there, line\nbreak, \\back\\slash, \r, "quoted", ünï, \\N'
    with target(kind, tmp_path, pg_admin) as spec:
        store = open_store(spec)
        with store.write() as db:
            store.insert_rows(db, "meta", ("key", "value"), [("a", awkward), ("b", "\\N"), ("c", "")])
            ids = store.next_ids(db, "audit", 3)
            store.insert_rows(db, "audit", ("id", "game_id", "at", "action", "hand_n", "detail"),
                              [(i, 7, "2026", "x", None, "{}") for i in ids])
        assert dict(store.db.execute("SELECT key, value FROM meta WHERE key IN ('a', 'b', 'c')")) == {
            "a": awkward, "b": "\\N", "c": ""}
        assert [r for r in store.db.execute("SELECT id, hand_n FROM audit ORDER BY id")] == [(i, None) for i in ids]
        with store.write() as db:
            assert store.next_ids(db, "audit", 1)[0] > ids[-1]
        store.close()


def test_verify_on_a_server_shared_among_processes(cli: Callable[..., Run], tmp_path: Path,
                                                   pg_admin: str | None) -> None:
    with target("postgres", tmp_path, pg_admin) as pg:
        history(cli, pg)
        store = open_store(pg)
        with store.write() as db:
            db.execute("UPDATE hands SET state = replace(state, '\"status\":\"playing\"', '\"status\":\"out\"')"
                       " WHERE game_id = 1")
        alone = verification.verify(store, workers=1)
        assert {line.split(":")[0] for line in alone} == {"game 1"}
        assert verification.verify(store, workers=2) == alone
        store.close()


# ------------------------------------------------------------------ the quick shape test says what the shape says

HOSTILE = Path(__file__).resolve().parents[1] / "hostile" / "import"
VALID_GAMES = json.loads((HOSTILE / "valid.json").read_text(encoding="utf-8"))["games"]
ODD = [None, True, 0, -1, 2**53 + 1, 1.5, "", "x", "x" * 300, "\x1b", "2026-13-45", "2026-11-29T14:00:00+00:00",
       [], [0], ["a"], {}, {"a": 1}, {"typed": []}, "active", "undo"]


def places(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [here]
    if isinstance(value, dict):
        for k, v in value.items():
            out += places(v, (*here, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += places(v, (*here, i))
    return out


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.integers(0, len(VALID_GAMES) - 1), st.data())
def test_quick_shape_test_agrees_with_the_shape(k: int, data: st.DataObject) -> None:
    import copy

    game = copy.deepcopy(VALID_GAMES[k])
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(places(game)[1:]))
        parent = game
        for key in path[:-1]:
            parent = parent[key]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = copy.deepcopy(data.draw(st.sampled_from(ODD)))
    found: list[str] = []
    schema.GAME.check(game, "games[0]", found)
    assert checks._GAME_FITS(game) == (not found), found


def test_a_file_changed_between_its_readings_is_refused(exported: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    first = pieces.Layout.game_texts

    def altered(layout: Any, path: Path) -> Iterator[str]:
        for k, text in enumerate(first(layout, path)):
            yield text if k < 2 else text[:-1]

    monkeypatch.setattr(pieces.Layout, "game_texts", altered)
    monkeypatch.setattr(writing, "IMPORT_BATCH", 1)
    store = Store(tmp_path / "t.db")
    with pytest.raises(UserError) as refused:
        importing.import_file(store, exported)
    assert "the file changed while it was read" in refused.value.message
    assert store.games() == []


# ------------------------------------------------------------------ an SQLite file: staged beside it, copied over at the end

def test_the_file_stays_writable_while_games_are_checked(exported: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the last step holds the SQLite file: another command can write while the games are checked."""
    import sqlite3

    path = tmp_path / "t.db"
    store = Store(path)
    writable = []
    checked = checks.Checker.game_text

    def game_text(self: Any, i: int, text: str) -> Any:
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            writable.append(True)
        except sqlite3.OperationalError:
            writable.append(False)
        finally:
            other.close()
        return checked(self, i, text)

    monkeypatch.setattr(checks.Checker, "game_text", game_text)
    monkeypatch.setattr(writing, "IMPORT_BATCH", 1)
    assert importing.import_file(store, exported) == (3, 0)
    assert writable == [True, True, True]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".scorepad-import-")]
    store.close()


def test_a_game_that_arrived_meanwhile_is_skipped(exported: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Another import wrote one of the games while this one checked them: it is counted as present."""
    store = Store(tmp_path / "t.db")
    uid = json.loads(exported.read_text(encoding="utf-8"))["games"][1]["uid"]
    merge = importing._merge

    def meanwhile(*args: Any) -> int:
        other = Store(tmp_path / "t.db")
        other.create_game(ruleset_id="t", ruleset_hash=text_hash("t"), ruleset_text="t",
                          ruleset_source="t.toml", variant=None, name=None, season=None, players=["a", "b"],
                          sides=[], options={}, state={}, uid=uid)
        other.close()
        return merge(*args)

    monkeypatch.setattr(importing, "_merge", meanwhile)
    assert importing.import_file(store, exported) == (2, 1)
    assert sorted(r[0] for r in store.db.execute("SELECT uid FROM games")) == sorted(
        g["uid"] for g in json.loads(exported.read_text(encoding="utf-8"))["games"])
    assert store.db.execute("SELECT COUNT(*) FROM hands WHERE game_id NOT IN (SELECT id FROM games)").fetchone()[0] == 0
    store.close()


def test_refused_import_leaves_no_staging_file(exported: Path, tmp_path: Path) -> None:
    data = json.loads(exported.read_text(encoding="utf-8"))
    data["games"][2]["hands"] = 7
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    store = Store(tmp_path / "t.db")
    with pytest.raises(UserError):
        importing.import_file(store, bad)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".scorepad-import-")]
    assert store.games() == []
    store.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_export_written_in_processes_is_the_same_text(cli: Callable[..., Run], exported: Path, tmp_path: Path,
                                                      pg_admin: str | None, monkeypatch: pytest.MonkeyPatch,
                                                      kind: str) -> None:
    monkeypatch.setattr(export, "PARALLEL_HANDS", 0)
    monkeypatch.setattr(export, "EXPORT_BATCH", 1)
    with target(kind, tmp_path, pg_admin) as spec:
        assert cli("db", "copy", str(tmp_path / "source.db"), spec).code == 0
        assert export_of(spec) == exported.read_text(encoding="utf-8")
        store = open_store(spec)
        with store.write() as db:
            # an altered database: first its schema's check of a state's JSON, then a state it would refuse
            db.execute("DROP TRIGGER games_shape_update" if kind == "sqlite"
                       else "ALTER TABLE games DROP CONSTRAINT games_state_json")
            db.execute("UPDATE games SET state = ? WHERE id = 2", ('{"score": NaN}',))
        with pytest.raises(StoreError):
            export.export_text(store)
        store.close()


def test_a_table_keeps_its_order_as_written(exported: Path, tmp_path: Path) -> None:
    """What is stored is the file's values as written (the store's JSON), whatever order their keys are in."""
    from scorepad.store import dumps

    data = json.loads(exported.read_text(encoding="utf-8"))
    game = data["games"][0]
    game["options"] = dict(reversed(game["options"].items()))
    active = next(h for h in game["hand_rows"] if h["status"] == "active")
    active["state"] = dict(reversed(active["state"].items()))
    path = tmp_path / "reordered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    store = Store(tmp_path / "t.db")
    assert importing.import_file(store, path) == (3, 0)
    gid = store.game_ids_by_uid()[game["uid"]]
    assert store.db.execute("SELECT options FROM games WHERE id = ?", (gid,)).fetchone()[0] == dumps(game["options"])
    assert dumps(active["state"]) in [s for (s,) in store.db.execute("SELECT state FROM hands WHERE game_id = ?", (gid,))]
    assert export.export_text(store) == exported.read_text(encoding="utf-8")
    store.close()


def test_the_export_is_json_dumps_of_the_database(cli: Callable[..., Run], exported: Path, tmp_path: Path) -> None:
    """The export, written a game at a time, is json.dumps of the whole database as one table (indent 1,
    sorted keys), with the values a damaged database may hold as well."""
    store = Store(tmp_path / "source.db")
    with store.write() as db:
        db.execute("UPDATE games SET name = NULL, variant = 'v', finished = 7 WHERE id = 1")
        db.execute("UPDATE hands SET created = '' WHERE id = 1")
    data = export.export_data(store)
    assert len(data["games"]) == 3 and any("pending_bid" in g for g in data["games"])
    want = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True, allow_nan=False) + "\n"
    assert export.export_text(store) == want
    store.close()
