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
        ("bags_taken", "bags taken", "side", "sum"), ("bids_made", "bids made", "side", "rate"),
        ("bags_per_hand", "bags per hand", "side", "mean")]
    assert [s.name for s in translate(rs, "ru").statistics] == ["нолей выполнено", "нолей не выполнено",
                                                               "мешков взято", "заказов выполнено",
                                                               "мешков за раздачу"]
    assert translate(rs, "et").statistics[0].name == "nulle täidetud"
    assert [s.name for s in translate(rs, "uk").statistics][2] == "мішків узято"
    skid = load_bundled("skid")
    assert [(s.id, s.kind) for s in skid.statistics] == [("went_out", "count"), ("jack_finishes", "count"),
                                                         ("busts", "count"), ("burns", "count"),
                                                         ("hands_to_limit", "first")]


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


def test_a_mean_and_a_rate_read_their_formulas_and_the_hands_they_are_over() -> None:
    text = BASE + ('[stats.avg]\nlabel = "avg"\nmean = "pts"\n'
                   '[stats.avg_big]\nlabel = "avg of big"\nmean = "pts"\nof = "pts >= 50"\n'
                   '[stats.won]\nlabel = "won %"\nper = "side"\nmade = "pts == 100"\nof = "pts > 0"\n')
    rs = load_text(text, "duel.toml")
    assert [(s.id, s.kind, s.per, s.formula.source, s.of.source if s.of else None) for s in rs.statistics] == [
        ("avg", "mean", "player", "pts", None), ("avg_big", "mean", "player", "pts", "pts >= 50"),
        ("won", "rate", "side", "pts == 100", "pts > 0")]


@pytest.mark.parametrize(("extra", "words"), [
    ('[stats.x]\nlabel = "x"\nmade = "pts > 1"\n', "a rate needs of"),
    ('[stats.x]\nlabel = "x"\ncount = "pts > 1"\nof = "pts > 0"\n', "stats.x.of: of belongs to a rate"),
    ('[stats.x]\nlabel = "x"\nmean = "pts"\nmade = "pts > 1"\nof = "true"\n', "mean (its average over the hands)"),
    ('[stats.x]\nlabel = "x"\nmade = "pts > 1"\nof = "nonesuch"\n', "stats.x.of: unknown name 'nonesuch'"),
    ('[stats.x]\nlabel = "x"\nmean = "nonesuch"\n', "stats.x.mean: unknown name 'nonesuch'"),
])
def test_a_wrong_mean_or_rate_is_refused_at_load(extra: str, words: str) -> None:
    with pytest.raises(RulesetError) as err:
        load_text(BASE + extra, "duel.toml")
    assert words in str(err.value.problems)


def test_rules_check_names_a_rates_of_by_file_line_and_column(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    path.write_text(BASE + '\n[stats.x]\nlabel = "x"\nmade = "pts > 1"\nof = "pts > nonesuch"\n')
    r = cli("rules", "check", str(path))
    assert r.code == 2
    assert f"duel.toml:{BASE.count(chr(10)) + 5}:1: stats.x.of: unknown name 'nonesuch'" in r.out + r.err


def test_a_costly_of_counts_on_the_hands_budget(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    table = "[tables]\nt = [" + ", ".join(map(str, range(1999))) + "]\n"
    path.write_text(BASE + table + '[stats.slow]\nlabel = "slow"\nmean = "pts"\n'
                    'of = "sum([count(t, x) for x in t]) > 0"\n')
    r = cli("rules", "check", str(path))
    assert r.code == 2
    said = r.out + r.err
    assert f"duel.toml:{(BASE + table).count(chr(10)) + 4}:1: stats.slow.of:" in said
    assert "more than the 50,000 allowed" in said


def test_the_json_schema_knows_mean_and_rate() -> None:
    import jsonschema

    from scorepad.rules.format import json_schema

    schema = json_schema()
    base = {"game": {"id": "duel", "name": "Duel"}}
    for good in ({"label": "x", "mean": "pts"}, {"label": "x", "mean": "pts", "of": "pts > 0"},
                 {"label": "x", "made": "pts > 1", "of": "pts > 0"}):
        jsonschema.validate({**base, "stats": {"x": good}}, schema)
    for bad in ({"label": "x", "made": "pts > 1"}, {"label": "x", "mean": "pts", "made": "a", "of": "b"},
                {"label": "x", "mean": "pts", "sum": "pts"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**base, "stats": {"x": bad}}, schema)


def test_a_max_a_min_and_a_first_read_their_formulas() -> None:
    text = BASE + ('[stats.top]\nlabel = "top"\nmax = "pts"\n'
                   '[stats.low]\nlabel = "low"\nper = "side"\nmin = "pts"\nof = "pts > 0"\n'
                   '[stats.to_50]\nlabel = "to 50"\nfirst = "score + pts >= 50"\n')
    rs = load_text(text, "duel.toml")
    assert [(s.id, s.kind, s.per, s.formula.source, s.of.source if s.of else None) for s in rs.statistics] == [
        ("top", "max", "player", "pts", None), ("low", "min", "side", "pts", "pts > 0"),
        ("to_50", "first", "player", "score + pts >= 50", None)]


@pytest.mark.parametrize(("extra", "words"), [
    ('[stats.x]\nlabel = "x"\nfirst = "pts > 1"\nof = "pts > 0"\n', "stats.x.of: of belongs to a rate (made), a mean, a max"),
    ('[stats.x]\nlabel = "x"\nmax = "pts"\nmin = "pts"\n', "max or min (its largest or smallest value"),
    ('[stats.x]\nlabel = "x"\nmin = "nonesuch"\n', "stats.x.min: unknown name 'nonesuch'"),
    ('[stats.x]\nlabel = "x"\nmax = "line(\'nill\')"\n', "stats.x.max: there is no [[score]] line with the id 'nill'"),
])
def test_a_wrong_max_min_or_first_is_refused_at_load(extra: str, words: str) -> None:
    with pytest.raises(RulesetError) as err:
        load_text(BASE + extra, "duel.toml")
    assert words in str(err.value.problems)


def test_rules_check_names_a_first_by_file_line_and_column(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    path.write_text(BASE + '\n[stats.x]\nlabel = "x"\nfirst = "pts > nonesuch"\n')
    r = cli("rules", "check", str(path))
    assert r.code == 2
    assert f"duel.toml:{BASE.count(chr(10)) + 4}:1: stats.x.first: unknown name 'nonesuch'" in r.out + r.err


@pytest.mark.parametrize("kind", ["max", "first"])
def test_a_costly_max_or_first_counts_on_the_hands_budget(cli: Callable[..., Run], tmp_path: Path, kind: str) -> None:
    path = tmp_path / "duel.toml"
    table = "[tables]\nt = [" + ", ".join(map(str, range(1999))) + "]\n"
    path.write_text(BASE + table + f'[stats.slow]\nlabel = "slow"\n{kind} = "sum([count(t, x) for x in t]) > 0"\n')
    r = cli("rules", "check", str(path))
    assert r.code == 2
    said = r.out + r.err
    assert f"duel.toml:{(BASE + table).count(chr(10)) + 3}:1: stats.slow.{kind}:" in said
    assert "more than the 50,000 allowed" in said and "Traceback" not in said


def test_the_json_schema_knows_max_min_and_first() -> None:
    import jsonschema

    from scorepad.rules.format import json_schema

    schema = json_schema()
    base = {"game": {"id": "duel", "name": "Duel"}}
    for good in ({"label": "x", "max": "pts"}, {"label": "x", "min": "pts", "of": "pts > 0"},
                 {"label": "x", "first": "pts > 1"}):
        jsonschema.validate({**base, "stats": {"x": good}}, schema)
    for bad in ({"label": "x", "max": "pts", "min": "pts"}, {"label": "x", "first": "a", "count": "b"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**base, "stats": {"x": bad}}, schema)


def test_skid_counts_the_deals_to_the_limit_and_cribbage_the_best_hand() -> None:
    skid = translate(load_bundled("skid"), "uk")
    assert [(s.id, s.kind, s.name) for s in skid.statistics][-1] == ("hands_to_limit", "first", "роздачі до порога")
    cribbage = load_bundled("cribbage")
    best = next(s for s in cribbage.statistics if s.id == "best_hand")
    mean = next(s for s in cribbage.statistics if s.id == "hand_points")
    assert (best.kind, best.formula.source) == ("max", "hand_points")
    assert best.of is not None and mean.of is not None and best.of.source == mean.of.source


def test_a_variant_removes_a_statistic_its_game_has_no_use_for() -> None:
    """Chicago has no rubbers: `remove` drops bridge's rubbers_won there, and only there."""
    from scorepad.rules.registry import load

    assert "rubbers_won" in [s.id for s in load("bridge", ()).statistics]
    chicago = [s.id for s in load("bridge", (), "chicago").statistics]
    assert "rubbers_won" not in chicago and "contracts_made" in chicago
    assert "rubbers_won" in [s.id for s in load("bridge", ()).statistics]   # the base is untouched
