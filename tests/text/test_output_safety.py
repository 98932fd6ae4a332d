"""Files and names from other people cannot hurt the reader: terminals, spreadsheets, Markdown, HTML, files.

The crafted files are in tests/hostile/output/; each starts with `# hostile:` (what it tries) and
`# expect:` (words of the refusal, or of what the output shows instead).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sqlite3
import stat
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.names import unsafe_char
from scorepad.text.output import candidates, markdown_cell, spreadsheet_safe, terminal_safe
from tests.conftest import Run, dump

HOSTILE = Path(__file__).resolve().parents[1] / "hostile" / "output"


JSON_EXPECT = {"name_escape.export.json": "control character"}   # JSON has no comments


def expect(path: Path) -> str:
    if path.name in JSON_EXPECT:
        return JSON_EXPECT[path.name]
    for line in path.read_text(encoding="utf-8").splitlines()[:3]:
        if line.startswith("# expect:"):
            return line.partition(":")[2].strip()
    raise AssertionError(f"{path.name} has no '# expect:' line")


def unsafe_in(text: str) -> list[str]:
    """The characters of `text` a terminal would act on (newline and tab are text)."""
    return [f"U+{ord(c):04X}" for c in text.replace("\r\n", "\n") if unsafe_char(c) and c not in "\n\t"]


# ------------------------------------------------------------------ names

BAD_NAMES = ["\x1b[2Jann", "ann\x1b]0;title\x07", "\u202eann", "a\nb", "an\x00n", "an\u2028n", "\u2066ann\u2069",
             "ann\x9b31m", "a" * 41]


@pytest.mark.parametrize("bad", BAD_NAMES)
def test_bad_player_names_are_refused_at_new(cli: Callable[..., Run], db: Path, bad: str) -> None:
    run = cli("new", "hearts", bad, "bob", "cat", "dan")
    assert run.code == 2, run
    assert ("control character" in run.err) or ("longer than 40" in run.err), run.err
    assert unsafe_in(run.err) == []
    assert cli("games", "--json").out.strip() == "[]"


@pytest.mark.parametrize(("args", "said"), [
    (["new", "spades", "ann", "bob", "cat", "dan", "--team", "\u202eus=ann,cat", "--team", "them=bob,dan"],
     "a team name '?us' contains the control character U+202E"),
    (["new", "hearts", "ann", "bob", "cat", "dan", "--name", "friday\x1b[8m"],
     "a game name 'friday?[8m' contains the control character U+001B"),
    (["new", "hearts", "ann", "bob", "cat", "dan", "--name", "x" * 81], "is longer than 80 characters"),
    (["new", "hearts", "ann", "bob", "cat", "dan", "--season", "2026\x1b[2J"],
     "a season name '2026?[2J' contains the control character U+001B"),
])
def test_bad_team_game_and_season_names_are_refused(cli: Callable[..., Run], args: list[str], said: str) -> None:
    """Each refused with a sentence naming the name and what is wrong in it, the name shown harmless."""
    run = cli(*args)
    assert run.code == 2 and run.err.startswith("error: ") and said in run.err, run
    assert unsafe_in(run.err) == []
    assert cli("games", "--json").out.strip() == "[]"


def test_season_use_refuses_a_bad_name(cli: Callable[..., Run]) -> None:
    assert cli("season", "use", "club\x1b]0;x\x07").code == 2
    assert cli("season", "use", "club").code == 0


def test_good_names_still_work(cli: Callable[..., Run]) -> None:
    """Any script, emoji with joiners, 40 characters: a name."""
    family = "👩\u200d👩\u200d👧"
    names = ["Богдан", "Ärni", family, "x" * 40]
    run = cli("new", "hearts", *names, "--name", "Friday at Ann's", "--json")
    assert run.code == 0, run.err
    assert json.loads(run.out)["sides"][2]["players"] == [family]


@pytest.mark.parametrize("path", sorted(HOSTILE.glob("*name*")), ids=lambda p: p.name)
def test_imports_with_bad_names_store_nothing(cli: Callable[..., Run], db: Path, path: Path) -> None:
    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0
    before = dump(db)
    run = cli("import", str(path))
    assert run.code == 2, run
    assert expect(path) in run.err and "nothing was imported" in run.err, run.err
    assert unsafe_in(run.err) == []
    assert dump(db) == before


# ------------------------------------------------------------------ terminals

def test_terminal_safe_escapes_controls_and_keeps_text() -> None:
    assert terminal_safe("a\x1b]0;t\x07b") == "a\\u001b]0;t\\u0007b"
    assert terminal_safe("\u202eabc\u2066") == "\\u202eabc\\u2066"
    assert terminal_safe("one\r\ntwo\rthree\n\tfour") == "one\r\ntwo\\u000dthree\n\tfour"
    assert terminal_safe("Богдан Q♠ 👩\u200d👧") == "Богдан Q♠ 👩\u200d👧"
    assert terminal_safe("\U000e0041") == "\\udb40\\udc41"   # a tag character, as JSON writes it
    # inside JSON output the escape is the same string
    text = json.dumps({"name": "x\u202e\x9b\x7f"}, ensure_ascii=False)
    assert json.loads(terminal_safe(text)) == {"name": "x\u202e\x9b\x7f"}


def test_the_fast_pattern_finds_every_unsafe_character() -> None:
    missed = [hex(c) for c in range(0x110000)
              if unsafe_char(chr(c)) and chr(c) not in "\n\t" and not candidates().match(chr(c))]
    assert missed == []


def test_what_is_printable_holds_no_unsafe_character() -> None:
    """terminal_safe passes text that str.isprintable accepts (but for newlines and tabs) unchanged:
    so no unsafe character may be printable."""
    printable = [hex(c) for c in range(0x110000) if unsafe_char(chr(c)) and chr(c).isprintable()]
    assert printable == []
    assert terminal_safe("Игра 1: ann+cat\n\tдалее") == "Игра 1: ann+cat\n\tдалее"
    assert terminal_safe("a\rb\n") == "a\\u000db\n" and terminal_safe("x\u00a0\u202e") == "x\u00a0\\u202e"


def test_a_ruleset_full_of_escapes_is_refused_where_each_text_is(cli: Callable[..., Run]) -> None:
    """`rules check` (and every command that reads the file) names each text holding a control character."""
    path = HOSTILE / "terminal_escapes.toml"
    check = cli("rules", "check", str(path))
    assert check.code == 2
    found = [line.split(": ", 2)[:2] for line in check.err.splitlines()]
    assert [(where.rsplit(":", 2)[1], key) for where, key in found] == [
        ("58", "check[0].message"), ("11", "game.description"), ("7", "game.name"), ("63", "score[0].label")]
    assert "the text holds the control character U+202E" in check.err
    for args in (["rules", "show", str(path)], ["new", str(path), "ann", "bob", "cat", "dan"]):
        r = cli(*args)
        assert r.code == 2 and "the text holds the control character U+001B" in r.err, r.err
    for run in [check, r]:
        assert unsafe_in(run.out + run.err) == [], run


def test_a_game_begun_with_escapes_in_its_ruleset_prints_safely(cli: Callable[..., Run],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose pinned ruleset holds escapes (begun before they were refused): every text of it, the
    score labels of `hand` too, is shown as text when the output is not a terminal, and with NO_COLOR."""
    from scorepad.rules import loader

    path = HOSTILE / "terminal_escapes.toml"
    with monkeypatch.context() as before:
        before.setattr(loader, "control_characters", lambda value, key: [])
        assert cli("new", str(path), "ann", "bob", "cat", "dan").code == 0
    monkeypatch.setenv("NO_COLOR", "1")
    runs = [cli("hand", "hearts=1,2,3,4", "queen=ann"), cli("hand", "hearts=1,2,3,7", "queen=ann"),
            cli("sheet"), cli("standings"), cli("log")]
    assert [r.code for r in runs] == [2, 0, 0, 0, 0]
    for run in runs:
        assert unsafe_in(run.out + run.err) == [], run
    assert "\\u009b31m" in runs[0].err
    assert "hearts\\u001b[8m" in runs[1].out          # the score label of the hand's breakdown: shown, not obeyed
    assert "Hearts\\u001b]0;pwned\\u0007" in runs[3].out


def test_names_in_an_old_or_tampered_database_print_safely(cli: Callable[..., Run], db: Path) -> None:
    """Names written before the check existed (or by another program) are escaped on the way out."""
    assert cli("new", "hearts", "ann", "bob", "cat", "dan", "--name", "friday").code == 0
    assert cli("hand", "hearts=13,0,0,0", "queen=bob").code == 0
    evil = ["\x1b]0;pwned\x07ann", "\u202ebob", "cat\x1b[2J\x1b[H", "dan\r"]
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE games SET players = ?, sides = ?, name = ?",
                    (json.dumps(evil), json.dumps([{"name": n, "members": [i]} for i, n in enumerate(evil)]),
                     "fri\x1b[8mday"))
    con.close()
    runs = [cli(*args) for args in (["standings"], ["games"], ["sheet"], ["sheet", "--chart"], ["log"],
                                     ["season"], ["season", "--format", "markdown"], ["season", "--format", "csv"],
                                     ["season", "--format", "html"], ["player", "\u202ebob"], ["hand", "queen=nobody"])]
    assert [r.code for r in runs] == [0] * 10 + [2]
    for run in runs:
        assert unsafe_in(run.out + run.err) == [], run
    assert "\\u202ebob" in runs[0].out
    data = json.loads(cli("standings", "--json").out)
    assert [s["name"] for s in data["sides"]] == evil        # JSON output is exact


# ------------------------------------------------------------------ spreadsheets, Markdown, HTML

def test_spreadsheet_safe_cells() -> None:
    for cell in ("=1+1", "+1+cmd", "@SUM(A1)", "-2+3+cmd", "-x", "\tx", "\rx", "=HYPERLINK(\"a\")"):
        assert spreadsheet_safe(cell) == "'" + cell
    for cell in ("-60", "+5", "-1.5e3", "ann", "", "a=b", 12, -3.5, None):
        assert spreadsheet_safe(cell) == cell


def test_csv_cells_that_look_like_formulas_are_neutralised(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = HOSTILE / "csv_formulas.game.toml"
    assert cli("import", str(path)).code == 0
    text = cli("season", "--format", "csv", "--include-unfinished").out
    rows = list(csv.DictReader(io.StringIO(text)))
    players = [r["player"] for r in rows]
    assert len(players) == 4
    assert all(p.startswith(expect(path).split()[-1]) for p in players), players
    assert {p[1:] for p in players} == {"=HYPERLINK(\"http://x.example/\",\"see\")", "+cmd|' /C calc'!A0",
                                        "@SUM(1+1)*cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0"}
    for r in rows:   # numbers stay numbers
        assert all(not v.startswith("'") for k, v in r.items() if k != "player")
    out = tmp_path / "season.csv"
    assert cli("season", "--format", "csv", "--include-unfinished", "--output", str(out)).code == 0
    with open(out, encoding="utf-8", newline="") as f:
        assert f.read() == text


def test_markdown_cells_stay_cells(cli: Callable[..., Run]) -> None:
    assert markdown_cell("a|b\nc\r\nd") == "a\\|b<br>c<br>d"
    assert cli("import", str(HOSTILE / "markdown_pipes.game.toml")).code == 0
    lines = cli("season", "--format", "markdown", "--include-unfinished").out.split("\n\n")[0].strip().splitlines()
    # pipes that separate cells: not preceded by an odd number of backslashes
    cells = [len(re.findall(r"(?<!\\)(?:\\\\)*\|", line)) for line in lines]
    assert len(lines) == 5 and len(set(cells)) == 1, lines
    names = [re.split(r"(?<!\\)(?:\\\\)*\|", line)[2].strip() for line in lines[2:]]   # after the rank
    assert sorted(names) == sorted(["a\\|b", "c\\|\\|d", "e\\\\\\|f"])


def test_embedded_json_cannot_end_its_script(cli: Callable[..., Run]) -> None:
    path = HOSTILE / "html_script.game.toml"
    assert cli("import", str(path)).code == 0
    page = cli("season", "--format", "html", "--include-unfinished").out
    body = page.split('<script type="application/json" id="season-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in body and ">" not in body
    assert {r["player"] for r in json.loads(body)} == {"<!--<script>", "</script><script>alert(1)</script>"}
    assert page.count("<script") == 2 and "&lt;!--&lt;script&gt;" in page


@pytest.mark.parametrize("fmt", ["unsafehtml", "latex_raw"])
def test_raw_markup_table_formats_are_not_offered(cli: Callable[..., Run], fmt: str) -> None:
    cli("new", "hearts", "<b>ann</b>", "bob", "cat", "dan")
    run = cli("season", "--format", fmt)
    assert run.code == 2 and "unknown format" in run.err
    offered = run.err.split("tabulate format:")[1]
    assert "unsafehtml" not in offered and "latex_raw" not in offered and "latex" in offered
    assert cli("season", "--format", "latex").code == 0


# ------------------------------------------------------------------ files

@pytest.fixture
def a_game(cli: Callable[..., Run]) -> None:
    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0


@pytest.mark.parametrize("mask,mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_new_files_follow_the_umask(cli: Callable[..., Run], a_game: None, tmp_path: Path, mask: int, mode: int) -> None:
    old = os.umask(mask)
    try:
        runs = [cli("season", "--format", "html", "--output", str(tmp_path / "s.html")),
                cli("export", "--output", str(tmp_path / "e.json")),
                cli("rules", "export", "hearts", "--output", str(tmp_path / "h.toml"))]
    finally:
        os.umask(old)
    assert [r.code for r in runs] == [0, 0, 0]
    for name in ("s.html", "e.json", "h.toml"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode, name


def test_replacing_a_file_keeps_its_mode(cli: Callable[..., Run], a_game: None, tmp_path: Path) -> None:
    for name, mode, args in (("s.html", 0o664, ["season", "--format", "html"]), ("e.json", 0o640, ["export", "--force"])):
        target = tmp_path / name
        target.write_text("old")
        target.chmod(mode)
        assert cli(*args, "--output", str(target)).code == 0
        assert stat.S_IMODE(target.stat().st_mode) == mode and target.read_text() != "old"


def test_export_without_force_keeps_an_existing_file(cli: Callable[..., Run], a_game: None, tmp_path: Path) -> None:
    target = tmp_path / "e.json"
    target.write_text("mine")
    run = cli("export", "--output", str(target))
    assert run.code == 2 and "--force" in run.err and target.read_text() == "mine"


def test_a_symlink_stays_a_symlink(cli: Callable[..., Run], a_game: None, tmp_path: Path) -> None:
    real = tmp_path / "real.html"
    real.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(real)
    assert cli("season", "--format", "html", "--output", str(link)).code == 0
    assert link.is_symlink() and real.read_text().startswith("<!DOCTYPE html>")


def test_dev_null_is_written_into_not_replaced(cli: Callable[..., Run], a_game: None) -> None:
    before = os.stat("/dev/null")
    for args in (["export", "--output", "/dev/null", "--force"], ["export", "--output", "/dev/null"],
                 ["season", "--output", "/dev/null"], ["rules", "export", "hearts", "--output", "/dev/null"]):
        run = cli(*args)
        assert run.code == 0, run
        after = os.stat("/dev/null")
        assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
        assert stat.S_IMODE(after.st_mode) == stat.S_IMODE(before.st_mode)


def test_a_fifo_is_written_into_not_replaced(cli: Callable[..., Run], a_game: None, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    run = cli("season", "--format", "csv", "--output", str(fifo))
    reader.join(timeout=10)
    if reader.is_alive() and stat.S_ISFIFO(fifo.stat().st_mode):   # nothing was written into it: let the reader go
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(timeout=10)
    assert run.code == 0, run
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert got and got[0].decode().startswith("game,rank,player,rating")
    assert not list(tmp_path.glob(".scorepad-*"))


@pytest.mark.parametrize("where", ["", ".", "DIR", "DIR/", "MISSING/out.txt"])
@pytest.mark.parametrize("command", [["season"], ["export"], ["export", "--force"], ["rules", "export", "hearts"],
                                     ["backup"]])
def test_output_places_that_are_not_files(cli: Callable[..., Run], a_game: None, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch, where: str, command: list[str]) -> None:
    work = tmp_path / "work"
    (work / "DIR").mkdir(parents=True)
    monkeypatch.chdir(work)
    args = [*command, where] if command == ["backup"] else [*command, "--output", where]
    run = cli(*args)
    assert run.code == 2, run
    assert run.err.startswith("error: ") and ("directory" in run.err or "does not exist" in run.err
                                              or "file name" in run.err), run.err
    assert sorted(p.name for p in work.iterdir()) == ["DIR"] and not any((work / "DIR").iterdir())


@pytest.mark.parametrize("suffix", ["", "-wal", "-journal", "-shm"])
def test_backup_and_export_never_write_over_the_database(cli: Callable[..., Run], a_game: None, db: Path,
                                                         suffix: str) -> None:
    before = dump(db)
    target = str(db) + suffix
    runs = [cli("backup", target), cli("export", "--output", target, "--force"),
            cli("season", "--output", target)]
    for run in runs:
        assert run.code == 2 and "database" in run.err, run
    assert dump(db) == before and cli("verify").code == 0


BIG = "99999999999999999999"


@pytest.mark.parametrize("args", [["standings", "--game", BIG], ["sheet", "--game", BIG], ["use", BIG],
                                  ["hand", "hearts=13,0,0,0", "queen=ann", "--game", BIG], ["undo", "--game", BIG],
                                  ["log", "--game", BIG], ["finish", "--game", BIG], ["edit", BIG, "queen=bob"],
                                  ["export", "--format", "toml", "--game", BIG, "--output", "x.toml"],
                                  ["standings", "--game", "-" + BIG], ["standings", "--game", "0"],
                                  ["delete", BIG, "--yes"], ["abandon", "--game", BIG], ["rematch", "--game", BIG],
                                  ["rename", "ann", "anna", "--game", BIG], ["log", "--game", "-" + BIG]])
def test_huge_ids_are_a_sentence(cli: Callable[..., Run], a_game: None, args: list[str], tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run = cli(*args)
    assert run.code == 2, run
    assert "internal error" not in run.err and run.err.startswith("error: "), run.err


@pytest.mark.parametrize("bad", ["\x1b[2Jx", "\u202eanna", "a" * 41])
def test_rename_checks_the_new_name_as_new_does(cli: Callable[..., Run], db: Path, a_game: None, bad: str) -> None:
    before = dump(db)
    for args in (["rename", "ann", bad], ["rename", "ann", bad, "--all"]):
        run = cli(*args)
        assert run.code == 2 and ("control character" in run.err or "longer than 40" in run.err), run
        assert unsafe_in(run.err) == []
    assert dump(db) == before
