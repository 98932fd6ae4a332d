"""The statistics Spades declares (nils made, nils failed, bags taken, bids made, bags per hand), added
up over the stored hands:
on the season page per game and player, and on `scorepad player` in the language shown. The numbers
are worked out by hand from the hands typed here (NS = ann + cat, EW = bob + dan; target 100)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Run
from tests.rules.test_statistics_section import BASE  # a two-player game of points, without statistics


def spades_season(cli: Callable[..., Run]) -> None:
    # Game 1. ann bids nil, takes 0: made. NS bid 4 (cat), take 6: 2 bags. EW bid 6, take 7: 1 bag.
    # Both contracts made (1 of 1 each).
    # NS 100 + 40 + 2 = 142: over 100, the game ends.
    assert cli("new", "spades", "ann", "bob", "cat", "dan", "--opt", "target=100").code == 0
    assert cli("hand", "bid=nil,3,4,3", "tricks=0,4,6,3").code == 0
    # Game 2. bob and dan both bid nil and fail (1 and 4 tricks); EW's contract is 0, their 5 tricks
    # are 5 bags. NS bid 5, take 8: 3 bags, 53. Then NS bid 8, take 8 (no bags): 133, over 100.
    # Contracts: NS 2 of 2 made; EW none to make in hand 1 (both nil), then bid 6, take 5: 0 of 1.
    assert cli("new", "spades", "ann", "bob", "cat", "dan", "--opt", "target=100").code == 0
    assert cli("hand", "bid=2,nil,3,nil", "tricks=3,1,5,4").code == 0
    assert cli("hand", "bid=4,3,4,3", "tricks=5,3,3,2").code == 0
    # Game 3, not finished: ann's nil fails (1 trick); NS bid 3, take 8: 5 bags. EW bid 5, take 5.
    # Both contracts made.
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=nil,2,3,3", "tricks=1,2,7,3").code == 0


def test_the_season_adds_up_each_players_statistics_over_the_counted_games(cli: Callable[..., Run]) -> None:
    spades_season(cli)
    run = cli("season", "--format", "json")
    assert run.code == 0, run.err
    board = json.loads(run.out)["rulesets"][0]
    assert board["statistics"] == [{"id": "nils_made", "kind": "count"}, {"id": "nils_failed", "kind": "count"},
                                   {"id": "bags_taken", "kind": "sum"}, {"id": "bids_made", "kind": "rate"},
                                   {"id": "bags_per_hand", "kind": "mean"}]
    assert "statistic_names" not in board   # the JSON is the same in every language
    got = {r["player"]: r["statistics"] for r in board["players"]}
    # the counted games 1 and 2: NS made 3 contracts of 3, 5 bags over 3 hands; EW 1 of 2, 6 bags over 3
    ns = {"bids_made": {"made": 3, "of": 3}, "bags_per_hand": {"sum": 5, "hands": 3}}
    ew = {"bids_made": {"made": 1, "of": 2}, "bags_per_hand": {"sum": 6, "hands": 3}}
    assert got == {"ann": {"nils_made": 1, "nils_failed": 0, "bags_taken": 5, **ns},
                   "cat": {"nils_made": 0, "nils_failed": 0, "bags_taken": 5, **ns},
                   "bob": {"nils_made": 0, "nils_failed": 1, "bags_taken": 6, **ew},
                   "dan": {"nils_made": 0, "nils_failed": 1, "bags_taken": 6, **ew}}
    text = cli("season").out
    table = text[text.index("Statistics:"):]
    assert "nils made" in table and "bags taken" in table
    assert [line.split() for line in table.splitlines() if line.startswith(("ann", "bob"))] == [
        ["ann", "1", "0", "5", "100%", "1.67"], ["bob", "0", "1", "6", "50%", "2"]]
    text = cli("--lang", "et", "season").out
    assert [line.split()[-2:] for line in text[text.index("Statistika:"):].splitlines()
            if line.startswith("ann")] == [["100%", "1,67"]]
    page = cli("season", "--format", "html").out
    assert 'id="game-1-statistics"' in page and ">nils failed</button>" in page


def test_player_totals_every_hand_he_played_in_his_language(cli: Callable[..., Run], tmp_path: Path) -> None:
    spades_season(cli)
    rows = json.loads(cli("player", "ann", "--json").out)
    assert [r["statistics"] for r in rows] == [
        {"nils_made": 1, "nils_failed": 0, "bags_taken": 2, "bids_made": {"made": 1, "of": 1},
         "bags_per_hand": {"sum": 2, "hands": 1}},
        {"nils_made": 0, "nils_failed": 0, "bags_taken": 3, "bids_made": {"made": 2, "of": 2},
         "bags_per_hand": {"sum": 3, "hands": 2}},
        {"nils_made": 0, "nils_failed": 1, "bags_taken": 5, "bids_made": {"made": 1, "of": 1},
         "bags_per_hand": {"sum": 5, "hands": 1}}]
    run = cli("--lang", "ru", "player", "ann")
    assert run.code == 0, run.err
    out = run.out
    assert "Статистика:" in out and "Пики (3 игры):" in out
    lines = {" ".join(line.split()[:-1]): line.split()[-1] for line in out[out.index("Статистика:"):].splitlines()
             if line.strip() and line.split()[-1].isdigit()}
    assert lines == {"нолей выполнено": "1", "нолей не выполнено": "1", "мешков взято": "10"}
    # all three games: 4 contracts of 4 made, 10 bags over 4 hands
    shown = {" ".join(line.split()[:-1]): line.split()[-1] for line in out[out.index("Статистика:"):].splitlines()}
    assert (shown["заказов выполнено"], shown["мешков за раздачу"]) == ("100%", "2,5")
    assert "statistic" not in out and "nils" not in out
    # a game whose ruleset declares none adds no table, and its rows no values
    plain = tmp_path / "plain.toml"
    plain.write_text(DUEL[:DUEL.index("[stats.avg]")].replace('"duel"', '"plain"').replace('"Duel"', '"Plain"'))
    assert cli("new", str(plain), "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "pts=1,2,3,4").code == 0
    out = cli("player", "ann").out
    assert "Plain (" not in out[out.index("Statistics:"):]
    assert "statistics" not in json.loads(cli("player", "ann", "--json").out)[-1]



DUEL = BASE + '''
[stats.avg]
label = "points per hand"
mean = "pts"

[stats.high]
label = "high hands"
made = "pts >= 50"
of = "pts > 0"
'''


def test_a_mean_and_a_rate_add_up_their_parts_over_games_not_their_averages(
        cli: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    path.write_text(DUEL)
    # Game 1: ann 10, 20, 40 (mean 70/3; none of 3 high), bob 0, 0, 0 (mean 0; no hand counts for the rate).
    assert cli("new", str(path), "ann", "bob").code == 0
    for ann in (10, 20, 40):
        assert cli("hand", f"pts={ann},0").code == 0
    # Game 2: ann 100 (1 of 1 high). Over both: mean 170/4 = 42.5 (not (23.33 + 100) / 2), high 1 of 4 = 25 %.
    assert cli("new", str(path), "ann", "bob").code == 0
    assert cli("hand", "pts=100,0").code == 0
    rows = json.loads(cli("player", "ann", "--json").out)
    assert [r["statistics"] for r in rows] == [{"avg": {"sum": 70, "hands": 3}, "high": {"made": 0, "of": 3}},
                                               {"avg": {"sum": 100, "hands": 1}, "high": {"made": 1, "of": 1}}]
    out = cli("player", "ann").out
    table = out[out.index("Statistics:"):]
    assert [line.split()[-1] for line in table.splitlines() if line.startswith(("points per", "high"))] == [
        "42.5", "25%"]
    out = cli("--lang", "et", "player", "ann").out
    assert "42,5" in out and "25%" in out
    out = cli("player", "bob").out
    assert [line.split()[-1] for line in out.splitlines() if line.startswith(("points per", "high"))] == ["0", "–"]
    assert cli("new", str(path), "ann", "bob").code == 0
    assert cli("hand", "pts=1,2").code == 0
    out = cli("--lang", "et", "player", "ann").out
    assert "34,2%" not in out and "34,2" in out   # 171 / 5 hands
    assert "20%" in out                          # 1 of 5


def test_hearts_counts_moons_queens_and_points_per_deal_from_the_stored_deals(cli: Callable[..., Run]) -> None:
    # Deal 1: bob shoots the moon (13 hearts and the queen): ann, cat, dan 26 each, bob 0.
    # Deal 2: ann 4 hearts and the queen = 17, bob 5, cat 4, dan 0.
    # ann: no moon, one queen, 26 + 17 = 43 over 2 deals (21.5); bob: one moon, one queen, 0 + 5 = 5 over 2.
    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "hearts=0,13,0,0", "queen=bob").code == 0
    assert cli("hand", "hearts=4,5,4,0", "queen=ann").code == 0
    rows = json.loads(cli("player", "ann", "--json").out)
    assert rows[-1]["statistics"] == {"moons_shot": 0, "queens_taken": 1, "points_per_hand": {"sum": 43, "hands": 2}}
    rows = json.loads(cli("player", "bob", "--json").out)
    assert rows[-1]["statistics"] == {"moons_shot": 1, "queens_taken": 1, "points_per_hand": {"sum": 5, "hands": 2}}
    out = cli("--lang", "ru", "player", "ann").out
    table = out[out.index("Статистика:"):]
    assert [line.split()[-1] for line in table.splitlines() if line.strip().startswith("очков за раздачу")] == ["21,5"]
