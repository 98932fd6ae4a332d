"""One suite, both stores: every test here runs against SQLite and against PostgreSQL.

The PostgreSQL server is the one SCOREPAD_TEST_PG_URL names (.ci/run starts it), else one the tests
start themselves; without either these tests skip, or fail with SCOREPAD_REQUIRE_POSTGRES=1.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scorepad.app import games as play
from scorepad.app import verify as verification
from scorepad.errors import ScorepadError, StoreConflict, StoreError, UserError
from scorepad.locale import set_language
from scorepad.store import SCHEMA_VERSION, Store, _v1
from scorepad.store.choice import open_store
from scorepad.store.protocol import is_server, mask
from tests.conftest import STORE_KINDS, Run, dump_any, store_spec

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").rglob("*.toml"))


# ------------------------------------------------------------------ choosing a store, masking passwords

@pytest.mark.parametrize("spec, server", [
    ("postgresql://u:pw@db.example/club", True), ("postgres://db/club", True), ("service=club", True),
    ("host=db dbname=club", True), ("club.db", False), ("/home/ann/scorepad.db", False), ("C:\\x\\a.db", False),
    ("my=file.db", False),
])
def test_a_url_or_service_selects_postgresql(spec: str, server: bool) -> None:
    assert is_server(spec) is server


@pytest.mark.parametrize("text, shown", [
    ("postgresql://ann:s3cr%40t@db.example:5433/club", "postgresql://ann:***@db.example:5433/club"),
    ("postgres://ann@db/club", "postgres://ann@db/club"),
    ("postgresql://ann:s3cr@t@db.example/club", "postgresql://ann:***@db.example/club"),
    ("postgresql://ann:s3/cr t@db.example/club", "postgresql://ann:***@db.example/club"),
    ("host=db password=s3cret dbname=club", "host=db password=*** dbname=club"),
    ("host=db password='a b' dbname=club", "host=db password=*** dbname=club"),
    ("postgresql://db/club?password=s3cret&sslmode=require", "postgresql://db/club?password=***&sslmode=require"),
])
def test_passwords_are_masked(text: str, shown: str) -> None:
    assert mask(text) == shown


def test_config_list_and_errors_never_show_the_password(cli: Callable[..., Run], tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREPAD_CONFIG", str(tmp_path / "config.toml"))
    url = "postgresql://ann:hunter2@127.0.0.1:1/club?connect_timeout=2"
    r = cli("config", "set", "db", url)
    assert r.code == 0 and "hunter2" not in r.out + r.err
    r = cli("config", "list")
    assert r.code == 0 and "hunter2" not in r.out and "ann:***@127.0.0.1:1/club" in r.out
    monkeypatch.delenv("SCOREPAD_DB")
    pytest.importorskip("psycopg")
    r = cli("standings")  # nothing listens on port 1
    assert r.code == 1 and "cannot reach the club database 127.0.0.1:1/club" in r.err
    assert "hunter2" not in r.out + r.err and "Traceback" not in r.err


@pytest.mark.skipif(os.name == "nt", reason="POSIX permission bits")
def test_the_config_file_is_readable_by_its_owner_alone(cli: Callable[..., Run], tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A config holding a URL with a password is written 0600, even over one that was 0644, whatever the umask."""
    path = tmp_path / "config.toml"
    monkeypatch.setenv("SCOREPAD_CONFIG", str(path))
    old = os.umask(0o022)
    try:
        assert cli("config", "set", "db", "postgresql://ann:hunter2@db.example/club").code == 0
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        path.chmod(0o644)
        assert cli("config", "set", "language", "et").code == 0
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        os.umask(old)
    assert "hunter2" in path.read_text(encoding="utf-8") and not list(tmp_path.glob(".scorepad-*"))


@pytest.mark.parametrize("url", [
    "postgresql://ann:hun@ter2@db.example/club",    # a raw @: libpq takes `ter2@db.example` for the host
    "postgresql://ann:hun/ter2@db.example/club",    # a raw /: libpq takes `ann` for the host, `hun` for the port
    "postgresql://ann:42/hunter2@db.example/club",
    "postgresql://ann:hun ter2@db.example/club",    # a space: libpq refuses the URL
])
def test_a_password_written_raw_is_never_shown(cli: Callable[..., Run], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    """Neither `config set/get/list` nor the refusal of the URL shows any part of the password."""
    monkeypatch.setenv("SCOREPAD_CONFIG", str(tmp_path / "config.toml"))
    secret = url.split("ann:")[1].rsplit("@", 1)[0]
    parts = [secret, *secret.replace("@", " ").replace("/", " ").split()]
    outputs = [cli("config", "set", "db", url), cli("config", "get", "db"), cli("config", "list")]
    assert all(r.code == 0 for r in outputs)
    assert "postgresql://ann:***@db.example/club" in outputs[1].out
    pytest.importorskip("psycopg")
    refused = cli("--db", url, "standings")
    assert refused.code == 2 and "postgresql://ann:***@db.example/club" in refused.err, refused.err
    for r in [*outputs, refused]:
        said = re.sub(r"(?<![\w:])/\S*", "", r.out + r.err)   # file paths (the config's, the home) aside
        assert not any(part in said for part in parts), (r.out, r.err)


@pytest.mark.parametrize("command", [("standings",), ("club", "init"), ("db", "migrate"), ("backup", "x.json")])
def test_a_url_without_the_driver_says_what_to_install(cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch,
                                                       command: tuple[str, ...]) -> None:
    import sys

    for name in [m for m in sys.modules if m == "psycopg" or m.startswith(("psycopg.", "scorepad.store.postgres"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if the extra (which brings psycopg) were not installed
    r = cli("--db", "postgresql://ann:hunter2@db.example/club", *command)
    assert r.code == 2, r.err
    assert "pip install 'scorepad[postgres]'" in r.err and "hunter2" not in r.err


# ------------------------------------------------------------------ CLI transcripts on both stores

def scores(r: Run) -> list[Any]:
    return [s["score"] for s in json.loads(r.out)["sides"]]


def test_new_hand_undo_edit_finish_log(acli: Callable[..., Run]) -> None:
    r = acli("new", "spades", "ann", "bob", "cat", "dan", "--name", "Friday")
    assert r.code == 0, r.err
    assert r.out.splitlines() == ["1"]   # not a terminal: the id alone
    r = acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    assert r.code == 0, r.err
    assert "ann+cat: +71  (contract +70, bags +1)" in r.out and "bob+dan: -60  (contract -60)" in r.out
    assert acli("hand", "bid=3,3,3,3", "tricks=4,3,3,3").code == 0    # 61, 60: totals 132, 0
    assert scores(acli("standings", "--json")) == [132, 0]
    r = acli("undo")
    assert r.code == 0 and r.out.startswith("Hand 2 removed (bid=3,3,3,3 tricks=4,3,3,3); `scorepad redo` puts it back.")
    assert scores(acli("standings", "--json")) == [71, -60]
    r = acli("edit", "1", "tricks=4,4,3,2")                              # 70, 60
    assert r.code == 0 and r.out.startswith("Hand 1 changed; 0 later hands re-scored.")
    assert scores(acli("standings", "--json")) == [70, 60]
    r = acli("finish")
    assert r.code == 0 and "game over: ann+cat wins" in r.out
    data = json.loads(acli("standings", "--json").out)
    assert data["finished"] and data["winner"] == ["ann+cat"] and data["name"] == "Friday"
    assert acli("hand", "bid=3,3,3,3", "tricks=4,3,3,3").code == 2   # an ended game takes no more hands
    log = json.loads(acli("log", "--json").out)
    assert [e["action"] for e in log] == ["new", "undo", "edit", "finish"]
    assert log[1]["detail"]["removed"]["typed"] == ["bid=3,3,3,3", "tricks=4,3,3,3"]
    text = acli("log").out
    assert "removed hand 2: bid=3,3,3,3 tricks=4,3,3,3" in text
    r = acli("verify")
    assert r.code == 0 and "All 1 games replay" in r.out


def test_bad_hand_refused_and_nothing_stored(acli: Callable[..., Run], anydb: str) -> None:
    acli("new", "spades", "ann", "bob", "cat", "dan")
    acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    before = dump_any(anydb)
    for args in (["bid=4,3,3,3", "tricks=5,3,3,3"], ["bid=14,3,3,3", "tricks=5,3,3,2"], ["nonsense"]):
        r = acli("hand", *args)
        assert r.code == 2 and "Traceback" not in r.err
    assert acli("edit", "7", "tricks=1").code == 2
    assert acli("standings", "--game", "42").code == 2
    assert dump_any(anydb) == before


def test_games_use_and_season(acli: Callable[..., Run]) -> None:
    acli("new", "hearts", "ann", "bob", "cat", "dan", "--season", "club 2027")
    acli("hand", "hearts=5,4,3,1", "queen=ann")        # ann 18, bob 4, cat 3, dan 1
    acli("new", "hearts", "ann", "bob", "cat", "eve", "--season", "club 2027")
    acli("hand", "hearts=0,4,3,6", "queen=bob")        # ann 0, bob 17, cat 3, eve 6
    games = json.loads(acli("games", "--json").out)
    assert [g["id"] for g in games] == [1, 2] and "*2" in acli("games").out
    assert acli("use", "1").code == 0 and "*1" in acli("games").out
    r = acli("season", "club 2027", "--format", "json", "--include-unfinished")
    assert r.code == 0, r.err
    rows = {p["player"]: p for p in json.loads(r.out)["rulesets"][0]["players"]}   # the Hearts leaderboard
    assert rows["ann"]["games"] == 2 and rows["ann"]["points"] == 18 and rows["eve"]["points"] == 6
    r = acli("season", "use", "club 2028")
    assert r.code == 0
    acli("new", "hearts", "a", "b", "c", "d")
    assert json.loads(acli("standings", "--json").out)["season"] == "club 2028"


def test_export_import_round_trip(acli: Callable[..., Run], anydb: str, tmp_path: Path) -> None:
    acli("new", "spades", "ann", "bob", "cat", "dan")
    acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    acli("hand", "bid=3,3,3,3", "tricks=4,3,3,3")
    acli("undo")
    assert acli("new", "hearts", "ann", "bob", "cat", "eve").code == 0
    first = tmp_path / "a.json"
    assert acli("export", "--output", str(first)).code == 0
    other = tmp_path / "other.db"
    r = acli("--db", str(other), "import", str(first))
    assert r.code == 0 and "Imported 2 games; 0 already present." in r.out
    r = acli("import", str(first))  # into the database it came from: nothing is duplicated
    assert r.code == 0 and "Imported 0 games; 2 already present." in r.out
    second = tmp_path / "b.json"
    assert acli("--db", str(other), "export", "--output", str(second)).code == 0
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8")


def test_backup_reads_back(acli: Callable[..., Run], anydb: str, tmp_path: Path) -> None:
    acli("new", "spades", "ann", "bob", "cat", "dan")
    acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    target = tmp_path / ("backup.json" if is_server(anydb) else "backup.db")
    assert acli("backup", str(target)).code == 0
    assert acli("backup", str(target)).code == 2
    if is_server(anydb):
        fresh = tmp_path / "fresh.db"
        r = acli("--db", str(fresh), "import", str(target))
        assert r.code == 0 and "Imported 1 game;" in r.out
        assert scores(acli("--db", str(fresh), "standings", "--game", "1", "--json")) == [71, -60]
    else:
        assert scores(acli("--db", str(target), "standings", "--json")) == [71, -60]


def test_backup_writes_what_its_file_name_says(acli: Callable[..., Run], anydb: str, tmp_path: Path) -> None:
    acli("new", "spades", "ann", "bob", "cat", "dan")
    acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    # a .json file is an export wherever the command line reads one (import, db copy): from either store
    target = tmp_path / "backup.json"
    assert acli("backup", str(target)).code == 0
    assert json.loads(target.read_text(encoding="utf-8"))["format"] == "scorepad-export"
    copied = tmp_path / "copied.db"
    assert acli("db", "copy", str(target), str(copied)).code == 0
    assert scores(acli("--db", str(copied), "standings", "--game", "1", "--json")) == [71, -60]
    copy = tmp_path / "copy.db"
    r = acli("backup", str(copy))
    if is_server(anydb):   # a server's copy is an export, never under an SQLite file's name
        assert r.code == 2 and "name it .json" in r.err and "Traceback" not in r.err
        assert not copy.exists()
    else:
        assert r.code == 0
        assert scores(acli("--db", str(copy), "standings", "--json")) == [71, -60]


def test_a_rematch_deals_on_in_either_store(acli: Callable[..., Run], anydb: str, tmp_path: Path) -> None:
    acli("new", "spades", "ann", "bob", "cat", "dan")
    acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    assert acli("rematch").code == 0
    assert json.loads(acli("standings", "--json").out)["next"]["dealer"] == "bob"
    assert acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert acli("verify").code == 0
    copied = tmp_path / "copied.db"
    assert acli("db", "copy", anydb, str(copied)).code == 0
    assert json.loads(acli("--db", str(copied), "standings", "--json").out)["next"]["dealer"] == "cat"
    assert acli("--db", str(copied), "verify").code == 0


def test_db_migrate(acli: Callable[..., Run]) -> None:
    r = acli("db", "migrate")
    assert r.code == 0 and f"schema version {SCHEMA_VERSION}" in r.out


# ------------------------------------------------------------------ store level, both stores

@pytest.fixture(params=STORE_KINDS)
def spec(request: pytest.FixtureRequest, tmp_path: Path, pg_admin: str | None) -> Iterator[str]:
    with contextlib.ExitStack() as stack:
        yield store_spec(request.param, tmp_path, pg_admin, stack)


def old_database(spec: str) -> None:
    """A database as the first version of scorepad left it (schema 1)."""
    if is_server(spec):
        from scorepad.store.postgres import VERSION_TABLE, PgConnection, connect

        con = PgConnection(connect(spec), "test")
        con.begin()
        _v1(con)  # type: ignore[arg-type]
        con.execute(f"CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL)")
        con.execute(f"INSERT INTO {VERSION_TABLE} VALUES(1)")
        con.commit()
        con.raw.close()
    else:
        import sqlite3

        con3 = sqlite3.connect(spec, isolation_level=None)
        con3.execute("BEGIN")
        _v1(con3)
        con3.execute("PRAGMA user_version = 1")
        con3.execute("COMMIT")
        con3.close()


def test_migrates_a_version_1_database(spec: str) -> None:
    old_database(spec)
    store = open_store(spec)
    row = play.new_game(store, "spades", ["a", "b", "c", "d"])
    assert row.version == 0  # the column schema 3 added
    play.record_hand(store, row.id, ["bid=4,3,3,3", "tricks=5,3,3,2"])
    assert store.game(row.id).version == 1
    if is_server(spec):
        from scorepad.store.postgres import PgStore

        assert isinstance(store, PgStore) and store.schema_version() == SCHEMA_VERSION
    else:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    store.close()


def test_refuses_a_newer_database(spec: str) -> None:
    store = open_store(spec)
    if is_server(spec):
        store.db.execute("UPDATE scorepad_schema SET version = version + 1")
    else:
        store.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    store.close()
    with pytest.raises(StoreError, match="newer scorepad"):
        open_store(spec)


def test_names_with_quotes_percent_and_question_marks_are_stored_intact(spec: str) -> None:
    store = open_store(spec)
    names = ["O'Brien; DROP TABLE games;--", "100% ?", "🂡 Joker", "שרה"]
    row = play.new_game(store, "hearts", names, name="Robert'); -- %s ?")
    play.record_hand(store, row.id, ["hearts=5,4,3,1", f"queen={names[2]}"])
    again = open_store(spec).game(row.id)
    assert again.players == names and again.name == "Robert'); -- %s ?"
    assert [s["score"] for s in again.state["sides"]] == [5, 4, 16, 1]


def test_a_change_made_meanwhile_is_never_overwritten(spec: str) -> None:
    store = open_store(spec)
    row = play.new_game(store, "spades", ["a", "b", "c", "d"])
    play.record_hand(store, row.id, ["bid=4,3,3,3", "tricks=5,3,3,2"])
    stale = store.game(row.id)
    play.undo(store, row.id)
    play.record_hand(store, row.id, ["bid=3,3,3,3", "tricks=4,3,3,3"])
    with pytest.raises(StoreError, match="at the same moment"):
        store.replace_from(stale.id, stale.version, 1, [], "undo", {}, stale.state)
    assert [s["score"] for s in store.game(row.id).state["sides"]] == [61, 60]


def test_undo_after_finish_takes_back_only_the_finish_in_every_store(spec: str) -> None:
    store = open_store(spec)
    row = play.new_game(store, "spades", ["a", "b", "c", "d"])
    play.record_hand(store, row.id, ["bid=4,3,3,3", "tricks=5,3,3,2"])
    finished, _result = play.finish(store, row.id)
    undone = play.undo(store, row.id, finished.version)
    assert undone.finish and undone.n == 1
    fresh = store.game(row.id)
    assert fresh.hands == 1 and not fresh.state["finished"] and fresh.version == finished.version + 1
    assert [s["score"] for s in fresh.state["sides"]] == [71, -60]
    assert [e["action"] for e in store.audit(row.id)][-2:] == ["finish", "undo finish"]
    assert verification.verify(store) == []
    with pytest.raises(StoreConflict):          # a repeat of the same undo is refused, not a second undo
        play.undo(store, row.id, finished.version)
    assert store.game(row.id).hands == 1


def test_the_current_game_and_unknown_games(spec: str) -> None:
    store = open_store(spec)
    with pytest.raises(UserError, match="no current game"):
        store.game(None)
    a = play.new_game(store, "spades", ["a", "b", "c", "d"])
    b = play.new_game(store, "spades", ["e", "f", "g", "h"])
    assert store.game(None).id == b.id
    store.set_current(a.id)
    assert open_store(spec).game(None).id == a.id
    with pytest.raises(UserError, match="no game 99"):
        store.game(99)
    assert [g.id for g in store.games()] == [a.id, b.id]


def test_the_bulk_reads_give_what_the_single_reads_give(spec: str) -> None:
    """`games` reads each pinned ruleset text once, `replay_hands` two columns of each hand: the same
    rows and values as reading each game and all its hands (undone hands left out), both stores."""
    store = open_store(spec)
    a = play.new_game(store, "spades", ["a", "b", "c", "d"], season="s1")
    b = play.new_game(store, "hearts", ["e", "f", "g", "h"], season="s2")
    c = play.new_game(store, "spades", ["i", "j", "k", "l"], opts=["target=300"], season="s1")
    for typed in (["bid=4,3,3,3", "tricks=5,3,3,2"], ["bid=3,3,3,3", "tricks=4,3,3,3"], ["bid=2,2,2,2", "tricks=4,3,3,3"]):
        play.record_hand(store, a.id, typed)
        play.record_hand(store, c.id, typed)
    play.undo(store, a.id)
    play.record_hand(store, b.id, ["hearts=5,4,3,1", "queen=g"])
    play.abandon(store, b.id)
    fresh = open_store(spec)
    assert fresh.games() == [fresh.game(g) for g in (a.id, b.id, c.id)]
    assert fresh.games("s1") == [fresh.game(a.id), fresh.game(c.id)]
    assert fresh.games("none") == []
    assert fresh.games()[1].abandoned and fresh.games()[1].ruleset_text == b.ruleset_text
    for g in (a, b, c):
        assert fresh.replay_hands(g.id) == [(h.n, h.hand, h.state) for h in fresh.hands(g.id)]
    assert [n for n, _, _ in fresh.replay_hands(a.id)] == [1, 2]


# ------------------------------------------------------------------ every scenario, through each store

# every scenario on PostgreSQL too is a slow suite (`python -m pytest -m slow`; CI runs it): the store's
# other tests run on both in every run
@pytest.fixture(scope="module", params=[k if k == "sqlite" else pytest.param(k, marks=pytest.mark.slow)
                                        for k in STORE_KINDS])
def scenario_store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                   pg_admin: str | None) -> Iterator[Store]:
    """One database per store for all the scenarios (each scenario is a game of its own)."""
    with contextlib.ExitStack() as stack:
        if request.param == "postgres" and pg_admin is None:
            yield None  # type: ignore[misc]  # the test skips (or fails) with the reason
            return
        spec = store_spec(request.param, tmp_path_factory.mktemp("scenarios"), pg_admin, stack)
        store = open_store(spec)
        yield store
        store.close()


def play_through_store(store: Store, path: Path) -> list[str]:
    """Play a scenario with the commands' library calls into the store; every difference from it."""
    from scorepad.app.scenario import load_scenario
    from scorepad.engine.game import initial_state

    data, game = load_scenario(path)
    rs = game.ruleset
    gid = store.create_game(ruleset_id=rs.id, ruleset_hash=rs.hash, ruleset_text=rs.text, ruleset_source=rs.source,
                            variant=rs.variant, name=path.stem, season="scenarios", players=game.players,
                            sides=[{"name": s.name, "members": list(s.members)} for s in game.sides],
                            options=dict(game.options), state=initial_state(game))
    out = []
    for n, spec in enumerate(data.get("hand", []), start=1):
        before = store.game(gid)
        try:
            if spec.get("finish"):
                play.finish(store, gid)
            else:
                play.record_hand(store, gid, [str(a) for a in spec.get("input", [])])
        except ScorepadError as exc:
            if "error" not in spec:
                return [*out, f"hand {n}: refused: {exc.message}"]
            after = store.game(gid)
            if (after.hands, after.state, after.version) != (before.hands, before.state, before.version):
                out.append(f"hand {n}: refused, but the game changed")
            continue
        if "error" in spec:
            out.append(f"hand {n}: accepted, but the scenario expects a refusal")
            continue
        totals = [s["score"] for s in store.game(gid).state["sides"]]
        if "totals" in spec and totals != spec["totals"]:
            out.append(f"hand {n}: stored totals {totals}, expected {spec['totals']}")
    final = store.game(gid).state
    expect = data.get("result", {})
    for key, got in (("finished", final["finished"]), ("winner", final["winners"]),
                     ("totals", [s["score"] for s in final["sides"]])):
        if key in expect and expect[key] != got:
            out.append(f"result {key}: stored {got}, expected {expect[key]}")
    return out


@pytest.mark.parametrize("path", SCENARIOS, ids=[f"{p.parent.name}/{p.stem}" for p in SCENARIOS])
def test_scenario_through_the_store(scenario_store: Store | None, path: Path) -> None:
    if scenario_store is None:
        from tests.conftest import PG_REASON, _pg_missing

        _pg_missing(PG_REASON[0])
    assert scenario_store is not None
    problems = play_through_store(scenario_store, path)
    assert not problems, "\n".join(problems)


def test_every_scenario_game_verifies(scenario_store: Store | None) -> None:
    """Runs after the scenarios (same module, same store): every stored game replays to its totals."""
    if scenario_store is None:
        from tests.conftest import PG_REASON, _pg_missing

        _pg_missing(PG_REASON[0])   # skips, or fails where PostgreSQL is required (CI)
    assert scenario_store.games(), "the scenario games were not stored"
    assert verification.verify(scenario_store) == []


# ------------------------------------------------------------------ concurrency, both stores

def tags_in(spec: str, game: int) -> list[int]:
    from tests.store.test_reliability import tag_of

    store = open_store(spec)
    try:
        hands = store.hands(game)
        assert [h.n for h in hands] == list(range(1, len(hands) + 1))
        row = store.game(game)
        tags = [tag_of(h.typed) for h in hands]
        assert row.hands == len(tags)
        assert [s["score"] for s in row.state["sides"]] == [sum(t % 7 - 3 for t in tags), sum(t % 5 for t in tags)]
        return tags
    finally:
        store.close()


def test_four_processes_append_to_one_game_without_refusals(acli: Callable[..., Run], anydb: str,
                                                            tmp_path: Path) -> None:
    """4 processes x 25 hands into one shared game, no retries: every hand applied once, in each
    process's order, each to the state the previous one left."""
    from tests.store.test_reliability import TALLY, hand_cmd, results, start_worker, tag_of

    r = acli("new", TALLY, "ann", "bob")
    assert r.code == 0, r.err
    game = int(r.out.split()[-1])
    start = __import__("time").time() + 1.5
    workers = [start_worker(tmp_path, f"s{w}", anydb,  # type: ignore[arg-type]
                            [hand_cmd(game, 1000 * (w + 1) + k) for k in range(25)], start_at=start)
               for w in range(4)]
    lines: list[dict[str, Any]] = []
    for proc in workers:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        lines += results(out)
    assert len(lines) == 100
    refused = [line["err"] for line in lines if line["code"] != 0]
    assert refused == []
    assert all(line["tries"] == 1 for line in lines)
    tags = tags_in(anydb, game)
    assert sorted(tags) == sorted(tag_of(line["args"]) for line in lines)
    for w in range(4):
        mine = [t for t in tags if t // 1000 == w + 1]
        assert mine == sorted(mine) and len(mine) == 25
    assert acli("verify").code == 0


def test_hand_expect_refuses_when_the_game_moved(acli: Callable[..., Run], anydb: str) -> None:
    acli("new", "spades", "ann", "bob", "cat", "dan")
    version = json.loads(acli("standings", "--json").out)["version"]
    assert acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2", "--expect", str(version)).code == 0
    before = dump_any(anydb)
    r = acli("hand", "bid=3,3,3,3", "tricks=4,3,3,3", "--expect", str(version))
    assert r.code == 1
    assert (f"game 1 changed since version {version}: it is at version {version + 1} with 1 hand "
            "(latest: hand 1 recorded (bid=4,3,3,3 tricks=5,3,3,2)); nothing was stored") in r.err
    assert dump_any(anydb) == before
    acli("undo")
    r = acli("hand", "bid=3,3,3,3", "tricks=4,3,3,3", "--expect", str(version + 1))
    assert r.code == 1 and "(latest: undo of hand 1)" in r.err
    assert acli("hand", "bid=3,3,3,3", "tricks=4,3,3,3", "--expect", str(version + 2)).code == 0


def test_a_repeated_key_is_answered_not_stored_twice(acli: Callable[..., Run], anydb: str) -> None:
    acli("new", "spades", "ann", "bob", "cat", "dan")
    first = acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2", "--key", "table7-0001", "--json")
    assert first.code == 0
    again = acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2", "--key", "table7-0001", "--json")
    assert again.code == 0 and json.loads(again.out)["hand"] == 1
    assert json.loads(again.out)["sides"] == json.loads(first.out)["sides"]
    standings = json.loads(acli("standings", "--json").out)
    assert standings["hands"] == 1 and [s["score"] for s in standings["sides"]] == [71, -60]
    other = acli("hand", "bid=4,3,3,3", "tricks=3,5,3,2", "--key", "table7-0001")   # the key of another hand
    assert other.code == 2 and "was already used for hand 1 of game 1, typed as bid=4,3,3,3 tricks=5,3,3,2" in other.err
    assert json.loads(acli("standings", "--json").out) == standings
    acli("new", "spades", "e", "f", "g", "h")
    r = acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2", "--key", "table7-0001")
    assert r.code == 2 and "already used for hand 1 of game 1" in r.err
    acli("use", "1")
    acli("undo")
    r = acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2", "--key", "table7-0001")
    assert r.code == 2 and "has since been undone" in r.err


# ------------------------------------------------------------------ db copy, backup read back

def pg_spec(tmp_path: Path, pg_admin: str | None, stack: contextlib.ExitStack) -> str:
    return store_spec("postgres", tmp_path, pg_admin, stack)


def sample_games(run: Callable[..., Run], db: str) -> None:
    assert run("--db", db, "new", "spades", "ann", "bob", "cat", "dan").code == 0
    run("--db", db, "hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    run("--db", db, "hand", "bid=3,3,3,3", "tricks=4,3,3,3")
    run("--db", db, "undo")
    run("--db", db, "edit", "1", "tricks=4,4,3,2")
    assert run("--db", db, "new", "hearts", "ann", "bob", "cat", "eve", "--season", "club").code == 0
    run("--db", db, "hand", "hearts=5,4,3,1", "queen=ann")
    run("--db", db, "finish")
    run("--db", db, "use", "1")


def test_db_copy_sqlite_to_postgres_and_back(cli: Callable[..., Run], tmp_path: Path, pg_admin: str | None) -> None:
    with contextlib.ExitStack() as stack:
        pg = pg_spec(tmp_path, pg_admin, stack)
        first = str(tmp_path / "first.db")
        sample_games(cli, first)
        r = cli("db", "copy", first, pg)
        assert r.code == 0, r.err
        assert r.out.startswith("Copied 2 games, 4 hands, 5 audit entries, 2 pinned rulesets from ")
        assert "both sides are equal" in r.out and "scorepad_admin:***@" in r.out
        assert cli("--db", pg, "verify").code == 0
        assert json.loads(cli("--db", pg, "standings", "--json").out)["game"] == "1"  # the current game came along
        r = cli("db", "copy", first, pg)
        assert r.code == 2 and "already holds 2 games" in r.err
        back = str(tmp_path / "back.db")
        assert cli("db", "copy", pg, back).code == 0
        a, b = tmp_path / "a.json", tmp_path / "b.json"
        cli("--db", first, "export", "--output", str(a))
        cli("--db", back, "export", "--output", str(b))
        assert a.read_text(encoding="utf-8") == b.read_text(encoding="utf-8")
        assert cli("--db", pg, "new", "spades", "a", "b", "c", "d").out.split()[-1] == "3"  # ids go on after the copy


def test_postgres_backup_is_read_back_by_db_copy(cli: Callable[..., Run], tmp_path: Path,
                                                 pg_admin: str | None) -> None:
    with contextlib.ExitStack() as stack:
        pg = pg_spec(tmp_path, pg_admin, stack)
        sample_games(cli, pg)
        backup = tmp_path / "club.json"
        assert cli("--db", pg, "backup", str(backup)).code == 0
        restored = str(tmp_path / "restored.db")
        r = cli("db", "copy", str(backup), restored)
        assert r.code == 0 and "both sides are equal" in r.out, r.err
        other = pg_spec(tmp_path, pg_admin, stack)
        assert cli("db", "copy", str(backup), other).code == 0
        outs = []
        for db in (pg, restored, other):
            target = tmp_path / f"e{len(outs)}.json"
            cli("--db", db, "export", "--output", str(target))
            outs.append(target.read_text(encoding="utf-8"))
        assert outs[0] == outs[1] == outs[2]


def test_db_copy_refuses_what_is_not_a_database(cli: Callable[..., Run], tmp_path: Path) -> None:
    r = cli("db", "copy", str(tmp_path / "none.db"), str(tmp_path / "t.db"))
    assert r.code == 2 and "no database" in r.err
    r = cli("db", "copy", str(tmp_path / "t.db"), str(tmp_path / "t.db"))
    assert r.code == 2 and "the same database" in r.err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "x"}', encoding="utf-8")
    r = cli("db", "copy", str(bad), str(tmp_path / "new.db"))
    assert r.code == 2 and "not a scorepad export" in r.err
    assert not list(tmp_path.glob("new.db*"))   # the file the copy made is gone with it


@pytest.mark.parametrize(("lang", "says"), [
    (None, ("another scorepad command changed this game at the same moment: game 1 changed since version 1: it is at "
           "version 2 with 2 hands (latest: hand 2 recorded (bid=3,3,3,3 tricks=4,3,3,3)); nothing was stored, "
           "look again and repeat")),
    ("ru", ("другая команда scorepad одновременно изменила эту игру: игра 1 изменилась после версии 1: теперь "
           "версия 2, 2 раздачи (последнее изменение: записана раздача 2 (bid=3,3,3,3 tricks=4,3,3,3)); ничего не сохранено, "
           "посмотрите ещё раз и повторите")),
])
def test_undo_decided_on_an_old_view_says_what_changed(spec: str, monkeypatch: pytest.MonkeyPatch, lang: str | None,
                                                        says: str) -> None:
    """`undo` read the game, then another table recorded a hand before the undo was written: a conflict,
    known by its type (never by its words), said in the chosen language."""
    set_language(lang)
    store = open_store(spec)
    row = play.new_game(store, "spades", ["a", "b", "c", "d"])
    play.record_hand(store, row.id, ["bid=4,3,3,3", "tricks=5,3,3,2"])
    real_hands = store.hands
    interfered = []

    def hands_then_another_table_writes(game_id: int) -> Any:
        got = real_hands(game_id)
        if not interfered:
            interfered.append(1)
            other = open_store(spec)
            play.record_hand(other, row.id, ["bid=3,3,3,3", "tricks=4,3,3,3"])
            other.close()
        return got

    monkeypatch.setattr(store, "hands", hands_then_another_table_writes)
    with pytest.raises(StoreConflict) as caught:
        play.undo(store, row.id)
    assert caught.value.message == says
    monkeypatch.undo()
    assert store.game(row.id).hands == 2


def test_rename_abandon_rematch_delete(acli: Callable[..., Run]) -> None:
    assert acli("new", "spades", "ann", "bob", "cat", "dan", "--name", "friday").code == 0
    acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    r = acli("rename", "ann", "anna")
    assert r.code == 0 and "Renamed ann to anna in game 1." in r.out
    assert acli("abandon").code == 0
    assert acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 2
    assert acli("rematch").code == 0
    assert acli("use", "friday").out.strip() == "Game 1 is now the current game."
    r = acli("delete", "2", "--yes")
    assert r.code == 0 and r.out.startswith("Deleted game 2")
    log = acli("log", "--game", "2").out
    assert "Game 2 was deleted" in log and "delete" in log
    games = json.loads(acli("games", "--json").out)
    assert [(g["id"], g["players"]) for g in games] == [(1, ["anna", "bob", "cat", "dan"])]
    assert acli("verify").code == 0


def test_a_hand_decided_on_a_view_of_the_game_is_refused_if_the_game_moved(spec: str) -> None:
    """The person at the table decided on what the game showed (version 0); another table's hand
    meanwhile refuses it."""
    store = open_store(spec)
    row = play.new_game(store, "spades", ["a", "b", "c", "d"])
    other = open_store(spec)
    play.record_hand(other, row.id, ["bid=3,3,3,3", "tricks=4,3,3,3"])
    other.close()
    with pytest.raises(StoreError, match=r"game 1 changed since version 0: it is at version 1 with 1 hand"):
        play.record_hand(store, row.id, ["bid=4,3,3,3", "tricks=5,3,3,2"], expect=row.version)
    assert store.game(row.id).hands == 1
    rec = play.record_hand(store, row.id, ["bid=4,3,3,3", "tricks=5,3,3,2"])  # typed whole: applied after it
    assert rec.n == 2 and [s["score"] for s in rec.row.state["sides"]] == [132, 0]


def test_a_libpq_service_and_password_file(cli: Callable[..., Run], tmp_path: Path, pg_admin: str | None,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """`service=club`: host, port and database from a service file, the password from a password file."""
    with contextlib.ExitStack() as stack:
        url = store_spec("postgres", tmp_path, pg_admin, stack)
        from psycopg.conninfo import conninfo_to_dict

        parts = conninfo_to_dict(url)
        service = tmp_path / "pg_service.conf"
        service.write_text(f"[club]\nhost={parts['host']}\nport={parts['port']}\ndbname={parts['dbname']}\n"
                           f"user={parts['user']}\noptions={parts['options']}\n", encoding="utf-8")
        passfile = tmp_path / "pgpass"
        passfile.write_text(f"{parts['host']}:{parts['port']}:*:{parts['user']}:{parts['password']}\n", encoding="utf-8")
        passfile.chmod(0o600)
        monkeypatch.setenv("PGSERVICEFILE", str(service))
        monkeypatch.setenv("PGPASSFILE", str(passfile))
        r = cli("--db", "service=club", "new", "spades", "ann", "bob", "cat", "dan")
        assert r.code == 0, r.err
        assert json.loads(cli("--db", url, "standings", "--json").out)["ruleset"] == "spades"  # the same database
        monkeypatch.setenv("PGPASSFILE", str(tmp_path / "none"))
        r = cli("--db", "service=club", "standings")
        assert r.code == 1 and r.err.startswith("error: cannot reach the club database service=club:")
        assert str(parts["password"]) not in r.err


def test_sqlite_sql_as_postgresql_reads_it() -> None:
    from scorepad.store.postgres import translate

    assert translate("CREATE TABLE t (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL)") == (
        "CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, game_id INTEGER NOT NULL)", False)
    assert translate("CREATE TABLE p (game_id INTEGER PRIMARY KEY REFERENCES games(id))")[0] == (
        "CREATE TABLE p (game_id INTEGER PRIMARY KEY REFERENCES games(id))")
    assert translate("INSERT INTO hands(game_id, n) VALUES(?, ?)") == (
        "INSERT INTO hands(game_id, n) VALUES($1, $2) RETURNING id", True)
    assert translate("INSERT INTO hands(game_id, n) VALUES(?, ?)", want_id=False)[1] is False
    assert translate("INSERT INTO meta(key, value) VALUES('x', ?)") == ("INSERT INTO meta(key, value) VALUES('x', $1)", False)
    assert translate("INSERT OR IGNORE INTO meta(key, value) VALUES('current_season', ?)")[0] == (
        "INSERT INTO meta(key, value) VALUES('current_season', $1) ON CONFLICT DO NOTHING")
    assert translate("DELETE FROM meta WHERE key LIKE 'current_game@%' AND value = ?")[0] == (
        "DELETE FROM meta WHERE key LIKE 'current_game@%' AND value = $1")
    # a ? in a string, a quoted name, a dollar-quoted body or a comment is no placeholder
    sql = "SELECT 'why?', \"a?\", $$ ? $$, $f$ ?' $f$ -- what?\n FROM t WHERE a = ? AND b = 'it''s?' AND c = ?"
    assert translate(sql)[0] == (
        "SELECT 'why?', \"a?\", $$ ? $$, $f$ ?' $f$ -- what?\n FROM t WHERE a = $1 AND b = 'it''s?' AND c = $2")

def test_first_use_by_four_processes_at_once(anydb: str, tmp_path: Path) -> None:
    """A new database is migrated once, and the same new ruleset pinned once, when four clients start together."""
    from tests.store.test_reliability import TALLY, results, start_worker

    start = __import__("time").time() + 1.5
    workers = [start_worker(tmp_path, f"n{w}", anydb, [["new", TALLY, f"a{w}{k}", f"b{w}{k}"] for k in range(3)],  # type: ignore[arg-type]
                            start_at=start) for w in range(4)]
    lines: list[dict[str, Any]] = []
    for proc in workers:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        lines += results(out)
    assert [line["err"] for line in lines if line["code"]] == []
    store = open_store(anydb)
    assert len(store.games()) == 12
    assert len({g.ruleset_hash for g in store.games()}) == 1
    assert store.db.execute("SELECT count(*) FROM audit WHERE action = 'new'").fetchone()[0] == 12
    assert verification.verify(store) == []


def test_a_bid_written_down_then_the_hand(acli: Callable[..., Run]) -> None:
    acli("new", "spades", "ann", "bob", "cat", "dan")
    r = acli("bid", "bid=4,3,3,3")
    assert r.code == 0, r.err
    r = acli("hand", "tricks=5,3,3,2", "--json")
    assert r.code == 0, r.err
    assert [s["score"] for s in json.loads(r.out)["standings"]["sides"]] == [71, -60]
    r = acli("hand", "bid=3,3,3,3", "tricks=4,3,3,3", "--json")  # the bid was used up by hand 1
    assert r.code == 0 and json.loads(r.out)["hand"] == 2
    assert [e["action"] for e in json.loads(acli("log", "--json").out)] == ["new", "bid"]
