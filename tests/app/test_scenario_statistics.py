"""A scenario states the statistics its hands must add up to (`[result.stats]`: player = {id = value}),
and `rules test` reports a difference like any other expectation: this is how a ruleset tests its
statistics against numbers worked out by hand."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run

SCENARIO = '''ruleset = "spades"
players = ["n", "e", "s", "w"]

# n's nil made; NS bid 4, take 6: 2 bags. EW bid 6, take 7: 1 bag.
[[hand]]
input = ["bid=nil,3,4,3", "tricks=0,4,6,3"]

# refused: nothing counted
[[hand]]
input = ["bid=nil,3,4,3", "tricks=0,4,6,4"]
error = "add up to 13"

# e's nil fails (1 trick); EW's contract 3, taken 5 with e's trick: 2 bags. NS bid 5, take 8: 3 bags.
[[hand]]
input = ["bid=2,nil,3,3", "tricks=3,1,5,4"]

[result.stats]
'''


@pytest.mark.parametrize(("stats", "said"), [
    ('n = { nils_made = 1, nils_failed = 0, bags_taken = 5 }\ne = { nils_failed = 1, bags_taken = 3 }\n', ""),
    ('n = { bags_taken = 6 }\n', "result: stats.n.bags_taken: expected 6, got 5"),
    ('e = { nils_failed = 0 }\n', "result: stats.e.nils_failed: expected 0, got 1"),
    ('x = { nils_made = 1 }\n', "[result.stats]: no player 'x'"),
    ('n = { nils = 1 }\n', "[result.stats]: the ruleset has no statistic 'nils'"),
])
def test_rules_test_compares_the_stated_statistics(cli: Callable[..., Run], tmp_path: Path,
                                                   stats: str, said: str) -> None:
    path = tmp_path / "stats.toml"
    path.write_text(SCENARIO + stats)
    run = cli("rules", "test", "spades", str(path))
    if not said:
        assert run.code == 0, run.out
        return
    assert run.code == 1
    assert said in run.out


def test_a_mean_and_a_rate_are_stated_by_their_parts(cli: Callable[..., Run], tmp_path: Path) -> None:
    rules = tmp_path / "duel.toml"
    rules.write_text('[game]\nid = "duel"\nname = "Duel"\n[players]\nmin = 2\nmax = 2\n'
                     '[fields.pts]\nscope = "player"\ntype = "int"\nmin = 0\nmax = 100\n'
                     '[[score]]\nper = "player"\npoints = "pts"\n'
                     '[stats.avg]\nlabel = "avg"\nmean = "pts"\n'
                     '[stats.high]\nlabel = "high"\nmade = "pts >= 50"\nof = "pts > 0"\n')
    path = tmp_path / "duel_stats.toml"
    path.write_text(f'ruleset = "{rules}"\nplayers = ["a", "b"]\n'
                    '[[hand]]\ninput = ["pts=60,0"]\n[[hand]]\ninput = ["pts=10,0"]\n'
                    '[result.stats]\na = { avg = { sum = 70, hands = 2 }, high = { made = 1, of = 2 } }\n'
                    'b = { avg = { sum = 0, hands = 2 }, high = { made = 0, of = 1 } }\n')
    run = cli("rules", "test", str(rules), str(path))
    assert run.code == 1
    assert "stats.b.high: expected {'made': 0, 'of': 1}, got {'made': 0, 'of': 0}" in run.out
    assert "stats.a" not in run.out


SKID = '''ruleset = "skid"
players = ["a", "b"]

# a goes out in every deal. b: deal 1 Q♠ A♥ = 65; deal 2 Q♠ K♥ = 60: 125, exactly the limit, burnt to 0;
# deal 3 Q♠ A♥ 10♦ = 75; deal 4 Q♠ = 50: 125, burnt; deal 5 65; deal 6 60: 125, burnt; deal 7 Q♠ J♥ A♥ =
# 85; deal 8 Q♠ = 50: 135, past the limit for the first time (landing on it is not passing it): 8.
[[hand]]
input = ["out=a", "b.cards=QS AH"]
[[hand]]
input = ["out=a", "b.cards=QS KH"]
[[hand]]
input = ["out=a", "b.cards=QS AH 10D"]
[[hand]]
input = ["out=a", "b.cards=QS"]
[[hand]]
input = ["out=a", "b.cards=QS AH"]
[[hand]]
input = ["out=a", "b.cards=QS KH"]
[[hand]]
input = ["out=a", "b.cards=QS JH AH"]
[[hand]]
input = ["out=a", "b.cards=QS"]

[result.stats]
'''


@pytest.mark.parametrize(("stats", "said"), [
    ('b = { hands_to_limit = { sum = 8, games = 1 } }\na = { hands_to_limit = { sum = 0, games = 0 } }\n', ""),
    ('b = { hands_to_limit = { sum = 7, games = 1 } }\n',
     "result: stats.b.hands_to_limit: expected {'sum': 7, 'games': 1}, got {'sum': 8, 'games': 1}"),
    ('b = { hands_to_limit = 8 }\n', "result: stats.b.hands_to_limit: expected 8, got {'sum': 8, 'games': 1}"),
])
def test_rules_test_compares_a_first_as_its_parts(cli: Callable[..., Run], tmp_path: Path,
                                                  stats: str, said: str) -> None:
    path = tmp_path / "skid.toml"
    path.write_text(SKID + stats)
    run = cli("rules", "test", "skid", str(path))
    if not said:
        assert run.code == 0, run.out
        return
    assert run.code == 1
    assert said in run.out
