"""The `[stats]` section: read with the ruleset (ids, names, per, count or sum), its formulas
checked at load and by `rules check` (names, shape, cost, with file:line:col), and its names translated."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.errors import RulesetError
from scorepad.rules.bundled import bundled_dir
from scorepad.rules.loader import load_text
from scorepad.rules.translations import translate
from tests.conftest import Run


def load_bundled(rid: str):  # type: ignore[no-untyped-def]
    path = bundled_dir() / f"{rid}.toml"
    return load_text(path.read_text(encoding="utf-8"), str(path))

BASE = '''[game]
id = "duel"
name = "Duel"

[players]
min = 2
max = 4

[fields.pts]
scope = "player"
type = "int"
min = 0
max = 100

[[score]]
per = "player"
points = "pts"
'''


def test_spades_declares_its_statistics_in_four_languages() -> None:
    rs = load_bundled("spades")
    assert [(s.id, s.name, s.per, s.kind) for s in rs.statistics] == [
        ("nils_made", "nils made", "player", "count"), ("nils_failed", "nils failed", "player", "count"),
        ("bags_taken", "bags taken", "side", "sum")]
    assert [s.name for s in translate(rs, "ru").statistics] == ["нолей выполнено", "нолей не выполнено",
                                                               "мешков взято"]
    assert translate(rs, "et").statistics[0].name == "nulle täidetud"
    assert [s.name for s in translate(rs, "uk").statistics][2] == "мішків узято"
    skid = load_bundled("skid")
    assert [(s.id, s.kind) for s in skid.statistics] == [("went_out", "count"), ("jack_finishes", "count")]


def test_a_statistic_reads_the_names_of_its_per() -> None:
    text = BASE + '[stats.big]\nlabel = "big hands"\ncount = "pts >= 50"\n[stats.points]\nlabel = "p"\nsum = "pts"\n'
    rs = load_text(text, "duel.toml")
    assert [(s.id, s.kind, s.formula.source) for s in rs.statistics] == [("big", "count", "pts >= 50"),
                                                                         ("points", "sum", "pts")]


@pytest.mark.parametrize(("extra", "words"), [
    ('[stats.x]\nlabel = "x"\ncount = "nonesuch > 1"\n', "stats.x.count"),
    ('[stats.x]\nlabel = "x"\ncount = "pts > 1"\nsum = "pts"\n', "one of count"),
    ('[stats.x]\ncount = "pts > 1"\n', "needs a label"),
    ('[stats.x]\nlabel = "x"\nper = "hand"\nsum = "pts"\n', "must be player or side"),
    ('[stats.x]\nlabel = "x"\nsum = "pts"\nwhen = "true"\n', "stats.x.when"),
    ('[stats.all_x]\nlabel = "x"\nsum = "pts"\n', "stats.all_x"),
    ('[stats.x]\nlabel = "x"\nsum = "pts"\n[translations.ru.stats]\ny = "игрек"\n', "no statistic 'y'"),
])
def test_a_wrong_statistic_is_refused_at_load(extra: str, words: str) -> None:
    with pytest.raises(RulesetError) as err:
        load_text(BASE + extra, "duel.toml")
    assert words in str(err.value.problems)


def test_rules_check_names_the_statistic_by_file_line_and_column(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    path.write_text(BASE + '\n[stats.x]\nlabel = "x"\ncount = "pts > nonesuch"\n')
    r = cli("rules", "check", str(path))
    assert r.code == 2
    line = BASE.count("\n") + 4
    assert f"duel.toml:{line}:1: stats.x.count:" in r.out + r.err
    assert "nonesuch" in r.out + r.err


def test_a_costly_statistic_is_refused_with_its_cost(cli: Callable[..., Run], tmp_path: Path) -> None:
    """A count that goes through a 1,999-long table for each of its items, for each of 4 players."""
    path = tmp_path / "duel.toml"
    table = "[tables]\nt = [" + ", ".join(map(str, range(1999))) + "]\n"
    path.write_text(BASE + table + '[stats.slow]\nlabel = "slow"\ncount = "sum([count(t, x) for x in t]) > 0"\n')
    r = cli("rules", "check", str(path))
    assert r.code == 2
    line = (BASE + table).count("\n") + 3
    said = r.out + r.err
    assert f"duel.toml:{line}:1: stats.slow.count:" in said
    assert "(run up to 4 times) in one hand, more than the 50,000 allowed" in said
    assert "Traceback" not in said


def test_the_json_schema_knows_the_section() -> None:
    import jsonschema

    from scorepad.rules.format import json_schema

    schema = json_schema()
    ok = {"game": {"id": "duel", "name": "Duel"},
          "stats": {"x": {"label": "x", "per": "side", "sum": "pts"}}}
    jsonschema.validate(ok, schema)
    for bad in ({"x": {"name": "x"}}, {"x": {"name": "x", "count": "a", "sum": "b"}},
                {"x": {"name": "x", "count": "a", "per": "hand"}}, {"x": {"name": "x", "count": "a", "when": "b"}}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**ok, "stats": bad}, schema)
    shipped = json.loads((Path(__file__).resolve().parents[2] / "rulesets" / "ruleset.schema.json").read_text())
    assert shipped == schema
