"""A statistic's formula reads the hand's stored breakdown by id: `line(id)`, the points a [[score]] line
gave the player (or side) in the hand, and `rule(id)`, what a [[rule]] wrote into the side's score; an
id the ruleset lacks is named by `rules check` at file:line:col. The numbers are worked out by hand
from the hands typed here (NS = ann + cat, EW = bob + dan; Spades to 500, nil 100, 10 bags cost 100)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.rules.bundled import bundled_dir
from tests.conftest import Run

EXTRA = '''
[stats.nil_points]
label = "nil points"
sum = "line('nil')"

[stats.penalties]
label = "bag penalties"
per = "side"
count = "rule('bag_penalty') != 0"

[stats.contract_points]
label = "contract points"
per = "side"
sum = "line('contract')"
'''


def spades_with(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "spades.toml"
    path.write_text((bundled_dir() / "spades.toml").read_text(encoding="utf-8") + extra, encoding="utf-8")
    return path


def test_line_and_rule_read_the_stored_lines_by_id(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = spades_with(tmp_path, EXTRA)
    assert cli("new", str(path), "ann", "bob", "cat", "dan", "--opt", "target=500").code == 0
    # ann's nil made: her nil line +100 (cat's none). NS bid 4, take 6: contract +40, 2 bags. EW bid 6, take 7: +60.
    assert cli("hand", "bid=nil,3,4,3", "tricks=0,4,6,3").code == 0
    # NS bid 2, take 10: +20, 8 bags, 10 in all: the bag penalty (-100) on NS. EW bid 2, take 3: +20.
    assert cli("hand", "bid=1,1,1,1", "tricks=5,2,5,1").code == 0
    # bob's nil fails: his nil line -100 (dan's none). NS bid 6, take 6: +60. EW bid 4, take at least 6: +40.
    assert cli("hand", "bid=3,nil,3,4", "tricks=3,1,3,6").code == 0
    rows = json.loads(cli("player", "ann", "--json").out)
    # NS made all three contracts (4/6, 2/10, 6/6): 10 bags over 3 hands
    assert rows[0]["statistics"] == {"nils_made": 1, "nils_failed": 0, "bags_taken": 10,
                                     "bids_made": {"made": 3, "of": 3}, "bags_per_hand": {"sum": 10, "hands": 3},
                                     "nil_points": 100, "penalties": 1, "contract_points": 120}
    got = {p: json.loads(cli("player", p, "--json").out)[0]["statistics"] for p in ("bob", "cat", "dan")}
    assert {p: (v["nil_points"], v["penalties"], v["contract_points"]) for p, v in got.items()} == {
        "bob": (-100, 0, 120), "cat": (0, 1, 120), "dan": (0, 0, 120)}


@pytest.mark.parametrize(("formula", "words"), [
    ("line('nill')", "there is no [[score]] line with the id 'nill' (known: "),
    ("rule('penalty') != 0", "there is no [[rule]] with the id 'penalty' (known: "),
    ("line(me)", "line() takes one id in quotes"),
])
def test_rules_check_names_an_id_the_ruleset_lacks(cli: Callable[..., Run], tmp_path: Path,
                                                   formula: str, words: str) -> None:
    path = spades_with(tmp_path, f'\n[stats.x]\nlabel = "x"\nsum = "{formula}"\n')
    r = cli("rules", "check", str(path))
    assert r.code == 2
    line = path.read_text(encoding="utf-8").count("\n")
    assert f"spades.toml:{line}:1: stats.x.sum: {words}" in r.out + r.err
    assert "Traceback" not in r.out + r.err


def test_only_a_statistic_reads_the_breakdown(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = spades_with(tmp_path, '\n[[score]]\nid = "x"\npoints = "line(\'nil\')"\n')
    r = cli("rules", "check", str(path))
    assert r.code == 2 and "unknown function 'line'" in r.out + r.err
