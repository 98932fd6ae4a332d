"""`rules check` names each problem as file:line:column: key: message, and as JSON for editors."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run

# line numbers below are counted from this text (the first line is line 1)
RULESET = '''[game]
id = "bad"
name = "Bad"
colour = "red"

[fields.tricks]
scope = "player"
type = "int"
max = "tricks_max + 1"

[display.side]
"first meld" = "scor"

[[score]]
per = "player"
points = "tricks"

[[score]]
per = "player"
  points = "tricks +"
'''


def lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith(("/", "bad"))]


def test_every_problem_has_its_line_and_column(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(RULESET)
    r = cli("rules", "check", str(path))
    assert r.code == 2
    got = lines(r.err)
    expected = [
        f"{path}:4:1: game.colour: unknown key",
        f"{path}:9:1: fields.tricks.max: unknown name 'tricks_max'",
        f"{path}:12:1: display.side.first meld: unknown name 'scor'",
        f"{path}:20:3: score[1].points: not a valid formula",
    ]
    for want in expected:
        assert any(line.startswith(want) for line in got), f"{want!r} not in:\n{r.err}"
    assert len(got) == len(expected), r.err


def test_a_toml_syntax_error_points_where_the_reader_stopped(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('[game]\nid = "x"\nname = = "X"\n')
    r = cli("rules", "check", str(path))
    assert r.code == 2
    assert r.err.startswith(f"{path}:3:8: not valid TOML"), r.err


@pytest.mark.parametrize(("text", "where", "detail"), [
    ('[game]\nid = "x"\nname = = "X"\n', "3:8", "Invalid value"),
    ('[game]\nid = "x"\n[players\n', "3:9", "Expected ']' at the end of a table declaration"),
])
def test_a_ruleset_refused_for_bad_toml_says_where_as_rules_check_does(
        cli: Callable[..., Run], tmp_path: Path, text: str, where: str, detail: str) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(text)
    said = f"{path}:{where}: not valid TOML: {detail}"
    check = cli("rules", "check", str(path))
    assert check.code == 2 and lines(check.err) == [said], check.err
    refused = cli("new", str(path), "ann", "bob")
    assert refused.code == 2 and refused.err.strip() == f"error: {said}", refused.err
    located = json.loads(cli("rules", "check", "--format", "json", str(path)).out)[0]["problems"]
    assert located == [{"line": int(where.split(":")[0]), "column": int(where.split(":")[1]), "key": "",
                        "message": f"not valid TOML: {detail}"}]


def test_a_problem_without_a_key_is_at_the_start(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text('[game]\nid = "x"\nname = "X"\n[tables.a.b.c.d.e.f.g.h.i]\nx = 1\n')
    r = cli("rules", "check", str(path))
    assert r.code == 2 and r.err.startswith(f"{path}:1:1: the file nests tables deeper"), r.err


def test_json_for_editors(cli: Callable[..., Run], tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(RULESET)
    good = Path(__file__).resolve().parents[2] / "rulesets" / "hearts.toml"
    r = cli("rules", "check", "--format", "json", str(bad), str(good))
    assert r.code == 2
    report = json.loads(r.out)
    assert [entry["ok"] for entry in report] == [False, True]
    assert report[0]["file"] == str(bad) and report[1]["problems"] == []
    first = report[0]["problems"][0]
    assert first == {"line": 4, "column": 1, "key": "game.colour", "message": first["message"]}
    assert first["message"].startswith("unknown key")
    assert {p["key"] for p in report[0]["problems"]} == {"game.colour", "fields.tricks.max",
                                                          "display.side.first meld", "score[1].points"}
    assert cli("rules", "check", "--format", "json", str(good)).code == 0
    r = cli("rules", "check", "--format", "xml", str(good))
    assert r.code == 2 and "unknown format" in r.err


def test_a_key_from_elsewhere_is_placed_at_its_nearest_table(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "v.toml"
    path.write_text('[game]\nid = "v"\nname = "V"\n\n[[score]]\npoints = 1\n\n'
                    '[variants.odd]\nname = "Odd"\n[[variants.odd.score]]\npoints = "nothing"\n')
    r = cli("rules", "check", str(path))
    assert r.code == 2
    # the variant's entry is score[1] of the merged ruleset; the file has only score[0]
    assert f"{path}:5:1: score[1].points: unknown name 'nothing'" in r.err, r.err


def test_tomlkit_is_not_imported_by_other_commands() -> None:
    code = ("import sys; from scorepad.cli import app; from scorepad.engine import game; "
            "from scorepad.app import games, rulesets; print('tomlkit' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
