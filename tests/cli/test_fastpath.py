"""The quick route for hand, standings and sheet against Typer: one definition, equal results.

The quick route's option table is generated from the Typer app (scorepad/cli/quickgen.py); these tests
fail when it is stale, and run a corpus of command lines (valid, edge and invalid) through both
routes, comparing stdout, stderr, exit status and every stored row.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scorepad.cli import app as cli
from scorepad.cli import quick as fastpath
from scorepad.cli import quickgen as fastgen
from tests.conftest import Run, dump

HAND = ["bid=3,3,3,3", "tricks=4,3,3,3"]

CORPUS: list[list[str]] = [
    # the commands as typed at the table
    ["standings"], ["standings", "--json"], ["sheet"], ["sheet", "--chart"], ["sheet", "--json"],
    ["hand", *HAND], ["hand", "--json", *HAND], ["hand", HAND[0], "--quiet", HAND[1]], ["hand", "-q", *HAND],
    # options before and after, --opt=value, repeated options, --
    ["standings", "--game", "first"], ["standings", "--game=first"], ["sheet", "--game", "1", "--chart"],
    ["sheet", "--chart", "--game=first", "--chart"], ["standings", "--json", "--json"],
    ["hand", "--game", "first", *HAND], ["hand", *HAND, "--game=first"], ["hand", "--game", "1", "--game", "2", *HAND],
    ["hand", "--key", "k-1", *HAND], ["hand", "--key=k-1", *HAND], ["hand", "--key", "", *HAND],
    ["hand", "--expect", "3", *HAND], ["hand", "--expect=0003", *HAND], ["hand", "--expect", "99", *HAND],
    ["hand", "--", *HAND], ["hand", HAND[0], "--", HAND[1]], ["hand", "--", "--json"], ["hand", "-", *HAND],
    ["hand", "--json", "--quiet", "--", *HAND],
    # global options
    ["--db", "{db}", "standings"], ["--db={db}", "sheet"], ["--db", "{other}", "--db", "{db}", "standings"],
    ["--rules-dir", "{tmp}", "standings"], ["--rules-dir", "{tmp}", "--rules-dir={tmp}", "sheet", "--json"],
    ["--lang", "ru", "standings"], ["--lang=uk", "sheet"], ["--lang", "et", "hand", *HAND], ["--lang", "RU", "sheet"],
    ["--lang", "xx", "standings"], ["--lang", "ru", "hand", "--json", *HAND], ["--lang", "", "standings"],
    ["--db", "{other}", "standings"],
    # bad input the commands refuse
    ["hand"], ["hand", "bid=9,9,9,9", "tricks=1,1,1,1"], ["hand", "nonsense"], ["hand", "bid=3,3,3,3"],
    ["hand", *HAND, "zed.bid=1"], ["hand", *HAND, "ünïcødé=1"], ["standings", "--game", "ünï"],
    ["standings", "--game", "999"], ["standings", "--game", ""], ["sheet", "--game", "\udcff"],
    ["hand", "--key", "x" * 201, *HAND], ["hand", "--expect=-1", *HAND],
    # usage errors, help, version: Typer answers
    ["standings", "--game"], ["standings", "extra"], ["standings", "-h"], ["standings", "--help"], ["hand", "-h"],
    ["-h"], [], ["--version"], ["standings", "--lang", "ru"], ["standings", "--jsonx"], ["standings", "--js"],
    ["hand", "-qq", *HAND], ["hand", "-q=1", *HAND], ["hand", "--quiet=yes", *HAND], ["standings", "--json=1"],
    ["-q", "standings"], ["--db"], ["--db", "{db}"], ["stand"], ["Standings"], ["--", "standings"],
    ["hand", "--expect", "x", *HAND], ["hand", "--expect", "-1", *HAND], ["hand", "--expect", " 3", *HAND],
    ["hand", "--expect", "1_0", *HAND], ["hand", "--expect", "٣", *HAND], ["hand", "--game", "--json", *HAND],
    ["sheet", "--chart", "-h"], ["--lang", "ru", "hand", "-h"], ["hand", "--", "-h"],
    # the sheet's forms and a file to write it to
    ["sheet", "--format", "csv"], ["sheet", "--format=md"], ["--lang", "et", "sheet", "--format", "html"],
    ["sheet", "--format", "xx"], ["sheet", "--json", "--format", "csv"], ["sheet", "--chart", "--format", "md"],
    ["sheet", "--format", "html", "--output", "{tmp}/sheet.html"], ["sheet", "--output", "{tmp}"],
]

MUST_TAKE = [["standings"], ["sheet", "--chart"], ["hand", *HAND], ["--db={db}", "sheet"], ["hand", "-q", *HAND],
             ["hand", "--", *HAND], ["hand", "--expect=0003", *HAND], ["--lang", "ru", "standings"]]
MUST_LEAVE = [["standings", "-h"], ["hand", "-h"], [], ["--version"], ["standings", "--jsonx"], ["hand", "-qq", *HAND],
              ["standings", "--game"], ["standings", "extra"], ["hand", "--expect", "x", *HAND], ["stand"]]


def test_generated_table_is_current() -> None:
    assert fastgen.TARGET.read_text(encoding="utf-8") == fastgen.text(), \
        "scorepad/cli/quickspec.py is stale: run python -m scorepad.cli.quickgen"


def _fill(args: list[str], tmp: Path) -> list[str]:
    return [a.replace("{db}", str(tmp / "route.db")).replace("{other}", str(tmp / "other.db"))
            .replace("{tmp}", str(tmp)) for a in args]


def test_parser_takes_and_leaves(tmp_path: Path) -> None:
    for args in MUST_TAKE:
        assert fastpath.parse(_fill(args, tmp_path), {}) is not None, args
    for args in MUST_LEAVE:
        assert fastpath.parse(_fill(args, tmp_path), {}) is None, args
    assert fastpath.parse(["standings"], {"_SCOREPAD_COMPLETE": "complete_bash"}) is None


def test_parser_reads_like_click() -> None:
    assert fastpath.parse(["--db", "a", "--rules-dir", "x", "--rules-dir=y", "--lang=ru", "hand", "-q", "a=1",
                           "--game", "g", "--game=h", "--expect", "0012", "--", "--json"], {}) == (
        "hand", {"db": "a", "rules_dir": ["x", "y"], "lang": "ru"},
        {"assignments": ["a=1", "--json"], "game": "h", "expect": 12, "key": None, "as_json": False, "quiet": True})
    assert fastpath.parse(["sheet"], {}) == ("sheet", {"db": None, "rules_dir": [], "lang": None},
                                             {"game": None, "as_json": False, "chart": False, "fmt": None,
                                              "output": None})


_STAMP = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?")
_KEY = re.compile(r"\b[0-9a-f]{32}\b")


def _rows(path: Path) -> list[str]:
    """Every stored row, with the moment of writing and the random keys left out."""
    if not path.exists():
        return []
    return [_KEY.sub("KEY", _STAMP.sub("TIME", line)) for line in dump(path)]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with two spades games ("first" with 3 hands, then the current one with 2)."""
    from scorepad.app import games as play
    from scorepad.store import Store

    path = tmp_path_factory.mktemp("template") / "template.db"
    store = Store(path)
    first = play.new_game(store, "spades", ["ann", "bob", "cat", "dan"], name="first")
    for _ in range(3):
        play.record_hand(store, first.id, HAND)
    second = play.new_game(store, "spades", ["eve", "fay", "gus", "hal"], name="second")
    for _ in range(2):
        play.record_hand(store, second.id, ["bid=4,3,3,3", "tricks=5,3,3,2"])
    store.close()
    return path


def _route(run: Callable[[], None], args: list[str], capsys: pytest.CaptureFixture[str]) -> Run:
    sys.argv = ["scorepad", *args]
    code = 0
    try:
        run()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)


@pytest.mark.parametrize("args", CORPUS, ids=[" ".join(a) or "(none)" for a in CORPUS])
def test_both_routes_agree(args: list[str], template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    _compare(args, template, tmp_path, capsys, monkeypatch)


CONFIGS = {
    "language": 'language = "uk"\n',
    "unknown language": 'language = "xx"\n',
    "database": 'db = "{db}"\n',
    "broken": "language = \n",
    "unknown key": 'colour = "red"\n',
}


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("args", [["standings"], ["sheet", "--json"], ["hand", *HAND], ["--lang", "et", "standings"]])
def test_both_routes_agree_with_a_config_file(config: str, args: list[str], template: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                              own_home: Path) -> None:
    path = tmp_path / "config.toml"
    monkeypatch.setenv("SCOREPAD_CONFIG", str(path))
    _compare(args, template, tmp_path, capsys, monkeypatch, config=CONFIGS[config], config_path=path)


def _compare(args: list[str], template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
             monkeypatch: pytest.MonkeyPatch, config: str | None = None, config_path: Path | None = None) -> None:
    results = []
    for route in ("quick", "typer"):
        where = tmp_path / route
        where.mkdir()
        shutil.copy(template, where / "route.db")
        monkeypatch.setenv("SCOREPAD_DB", str(where / "route.db"))
        if config is not None and config_path is not None:
            config_path.write_text(config.replace("{db}", str(where / "route.db")), encoding="utf-8")
            if "db =" in config:
                monkeypatch.delenv("SCOREPAD_DB")
        argv = _fill(args, where)
        call = fastpath.parse(argv)
        if route == "quick" and call is None:  # left to Typer: the console script runs cli.main as it is
            result = _route(cli.main, argv, capsys)
            assert "Traceback" not in result.err, result.err
            return
        result = _route((lambda call=call: fastpath.run(call)) if route == "quick" else cli.main, argv, capsys)
        results.append((result.code, result.out.replace(str(where), "<dir>"), result.err.replace(str(where), "<dir>"),
                        _rows(where / "route.db"), _rows(where / "other.db")))
    assert results[0] == results[1], f"the routes differ on {args}"


def test_console_script_imports_no_typer(tmp_path: Path) -> None:
    """The reason for the route: a hand and the standings without Typer, click, pydantic or uuid (which
    imports platform), and on SQLite without the PostgreSQL driver; a hand prints no table, so it never
    imports tabulate either. (platformdirs is imported: it says where the config file is.)"""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREPAD_")}
    env["SCOREPAD_DB"] = str(tmp_path / "t.db")
    code = ("import sys; sys.argv = ['scorepad'] + sys.argv[1:]; from scorepad.cli.quick import main\n"
            "try:\n    main()\nfinally:\n"
            "    print(sorted(m for m in sys.modules if m.split('.')[0] in\n"
            "                 ('typer', 'click', 'pydantic', 'tabulate', 'uuid', 'psycopg')), file=sys.stderr)")
    tables = "['tabulate']"   # standings and sheet print tabulate's table
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-m", "scorepad", "new", "spades", "a", "b", "c", "d"], env=env, cwd=root,
                   check=True, capture_output=True)
    for args in (["hand", *HAND], ["standings"], ["sheet"], ["--lang", "ru", "standings"]):
        done = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=root, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stderr.strip().splitlines()[-1] in ("[]" if args[0] == "hand" else ("[]", tables)), \
            (args, done.stderr)


def test_plain_coercion_gives_what_typer_gives() -> None:
    """scorepad.cli.coerce converts str, flag, digit and path values without pydantic: the same values
    typer's own (pydantic) conversion gives, for random values of every parameter of the app."""
    import typer.main
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from typer import _coercion

    from scorepad.cli.coerce import _Plain

    assert getattr(typer.core.build_runtime_param, "scorepad_plain", False)  # type: ignore[attr-defined]
    root: Any = typer.main.get_command(cli.app)

    def commands(group: Any) -> list[Any]:
        subs = getattr(group, "commands", None)
        return [group] if subs is None else [group, *(c for sub in subs.values() for c in commands(sub))]

    params = [p for command in commands(root) for p in command.params]
    assert len(params) > 50
    text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
    paths = st.sampled_from([__file__, str(Path(__file__).parents[1]), "/", ".", "", "no/such/file.json", "a\x00b",
                             "~/x.toml", "-"])
    value = st.one_of(st.none(), text, st.booleans(), st.from_regex(r"[0-9]{1,25}", fullmatch=True), paths,
                      st.lists(st.one_of(text, paths), max_size=3), st.lists(text, max_size=3).map(tuple))
    ctx = root.make_context("scorepad", ["games"], resilient_parsing=True)

    def outcome(fn: Callable[[], object]) -> tuple[str, object]:
        try:
            return "value", fn()
        except Exception as exc:  # noqa: BLE001 - the kind of refusal is what is compared
            return "refused", type(exc).__name__

    def same(param: Any, raw: object) -> None:
        original = _coercion.build_runtime_param(param.type_descriptor)
        ours = _Plain(param.type_descriptor, _coercion.build_runtime_param)
        a = outcome(lambda: ours.coerce(raw, param=param, ctx=ctx))
        b = outcome(lambda: original.coerce(raw, param=param, ctx=ctx))
        assert a == b and type(a[1]) is type(b[1]), (param, raw, a, b)

    fixed: list[object] = [None, True, False, "", "abc", "7", "0007", " 5", "-3", "+3", "1_0", "٣", "5.0", "x" * 300,
                           "9" * 30, __file__, "/", "no/such", "a\x00b", [], ["a", "b"], ("a",), [__file__, "/"], [1]]
    for param in params:
        for raw in fixed:
            same(param, raw)

    @settings(max_examples=400, deadline=None)
    @given(st.sampled_from(params), value)
    def check(param: Any, raw: object) -> None:
        same(param, raw)

    check()


def test_other_commands_build_no_pydantic_and_no_rich(tmp_path: Path) -> None:
    """Commands start without pydantic (typer 0.29 would build an adapter per value) and without rich
    (help and usage errors are click's plain text, which costs half of what rich's boxes do)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREPAD_")}
    env["SCOREPAD_DB"] = str(tmp_path / "t.db")
    code = ("import sys; sys.argv = ['scorepad'] + sys.argv[1:]; from scorepad.cli.quick import main\n"
            "try:\n    main()\nfinally:\n"
            "    print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'rich')), file=sys.stderr)")
    root = Path(__file__).resolve().parents[2]
    for args in (["new", "spades", "a", "b", "c", "d", "--opt", "target=500"], ["games", "--json"],
                 ["edit", "1", "--game", "1"], ["hand", "--game=1", "-h"],
                 ["undo"], ["--help"], ["rules", "--help"], ["nosuch"], ["new", "--nosuch"],
                 ["rules", "show", "spades"], ["season"], ["config", "list"],
                 ["season", "--output", str(tmp_path / "season.txt")], ["export", "--output", str(tmp_path / "all.json")],
                 ["import", str(tmp_path / "all.json")], ["rules", "check", str(Path(__file__).parents[2] / "rulesets" /
                                                                                  "spades.toml")]):
        done = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=root, capture_output=True, text=True)
        assert done.returncode in (0, 2), (args, done.stderr)
        assert done.stderr.strip().splitlines()[-1] == "[]", (args, done.stderr)


def test_windows_expansion_left_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    """On Windows typer expands ~, variables and wildcards in arguments: such a command line goes to Typer."""
    monkeypatch.setattr(fastpath.os, "name", "nt")
    assert fastpath.parse(["hand", "bid=3,3,3,3", "tricks=*"], {}) is None
    assert fastpath.parse(["--db", "~/x.db", "standings"], {}) is None
    assert fastpath.parse(["standings", "--game", "%G%"], {}) is None
    assert fastpath.parse(["standings", "--game", "first"], {}) is not None


def test_console_script_leaves_a_whole_database_and_all_its_output(tmp_path: Path) -> None:
    """The console script leaves the quick route without the interpreter's teardown: the database is
    still closed first (its log written back, so the file alone holds every hand), and every line is out."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREPAD_")}
    db = tmp_path / "t.db"
    env["SCOREPAD_DB"] = str(db)
    root = Path(__file__).resolve().parents[2]

    def scorepad(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "scorepad", *args], env=env, cwd=root, capture_output=True,
                              text=True)

    assert scorepad("new", "spades", "ann", "bob", "cat", "dan").returncode == 0
    for _ in range(3):
        done = scorepad("hand", *HAND)
        assert done.returncode == 0, done.stderr
        assert done.stdout.endswith("deals\n") or "Next" in done.stdout, done.stdout
    wal = db.with_name(db.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    alone = tmp_path / "alone.db"
    shutil.copy(db, alone)  # the file alone, as a person copying it would
    assert _rows(alone) == _rows(db) and sum(" INTO \"hands\" " in r for r in _rows(alone)) == 3
    sheet = scorepad("sheet", "--json")
    assert sheet.returncode == 0 and sheet.stdout.rstrip().endswith("}")
    refused = scorepad("hand", "nonsense")
    assert refused.returncode == 2 and "not an assignment" in refused.stderr and refused.stdout == ""


def test_in_process_runs_leave_the_garbage_collector_on(cli: Callable[..., Run]) -> None:
    """Only the console script turns the collector off (its process ends with the command); running
    the route in-process, as the tests and any embedding program do, must leave it on."""
    import gc

    assert gc.isenabled()
    cli("new", "spades", "a", "b", "c", "d")
    assert cli("standings").code == 0 and cli("hand", "bid=3,3,3,3", "tricks=4,3,3,3").code == 0
    assert gc.isenabled()
