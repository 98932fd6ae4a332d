"""The season as players read it: a leaderboard per game with a rank and the number it is sorted by,
provisional players apart, numbers as numbers, and `player` in the language shown, with partners and
a head-to-head. Numbers worked out by hand from the hands played here."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from typing import Any

from tests.conftest import Run


def skid(cli: Callable[..., Run], winner: str, loser: str) -> None:
    """A Skid game `winner` wins at once: `loser` holds QS JH JD JC JS (10 + 4 x 20 + ... past the limit)."""
    assert cli("new", "skid", winner, loser).code == 0
    assert cli("hand", f"out={winner}", f"{loser}.cards=QS JH JD JC JS").code == 0


def season(cli: Callable[..., Run], *args: str) -> dict[str, Any]:
    run = cli("season", "--format", "json", *args)
    assert run.code == 0, run.err
    return json.loads(run.out)  # type: ignore[no-any-return]


def test_each_game_has_its_own_leaderboard_rank_and_provisional_players(cli: Callable[..., Run]) -> None:
    """ann beats bob at Skid three times, cat beats ann once; one Spades game for ann+cat against bob+dan.
    Skid: ann 3 games (ranked), bob 3 (ranked), cat 1 (provisional); Spades: everyone 1 (provisional)."""
    for _ in range(3):
        skid(cli, "ann", "bob")
    skid(cli, "cat", "ann")
    assert cli("new", "spades", "ann", "bob", "cat", "dan", "--opt", "target=100").code == 0
    assert cli("hand", "bid=6,3,6,3", "tricks=7,0,6,0").code == 0
    data = season(cli)
    assert [(b["ruleset"], b["games"]) for b in data["rulesets"]] == [("skid", 4), ("spades", 1)]
    board = {r["player"]: r for r in data["rulesets"][0]["players"]}
    assert [r["player"] for r in data["rulesets"][0]["players"]] == ["ann", "bob", "cat"]
    assert {p: (r["rank"], r["provisional"], r["games"], r["wins"], r["losses"]) for p, r in board.items()} == {
        "ann": (1, False, 4, 3, 1), "bob": (2, False, 3, 0, 3), "cat": (None, True, 1, 1, 0)}
    assert board["ann"]["avg_place"] == 1.25 and board["bob"]["avg_place"] == 2   # 1 = first
    # the rating shown is the number the board is sorted by, though cat's is higher than ann's
    assert board["cat"]["rating"] > board["bob"]["rating"]
    assert all(isinstance(r["mu"], float) and r["sigma"] > 0 for r in board.values())
    spades = data["rulesets"][1]
    assert {r["player"] for r in spades["players"]} == {"ann", "bob", "cat", "dan"}   # not the Skid players' ratings
    assert all(r["rank"] is None and r["provisional"] for r in spades["players"])
    assert spades["pairs"] == [{"pair": ["ann", "cat"], "games": 1, "wins": 1, "draws": 0, "losses": 0, "win_rate": 1.0},
                               {"pair": ["bob", "dan"], "games": 1, "wins": 0, "draws": 0, "losses": 1, "win_rate": 0.0}]
    # everyone over all games: games, wins, evenings; no rating across games
    overall = {r["player"]: r for r in data["players"]}
    assert {p: (r["games"], r["wins"], r["evenings"]) for p, r in overall.items()} == {
        "ann": (5, 4, 1), "bob": (4, 0, 1), "cat": (2, 2, 1), "dan": (1, 0, 1)}
    assert all("rating" not in r and "mu" not in r for r in overall.values())
    # --min-games 1 ranks everyone; the text shows the rank and the rating, never mu or sigma
    ranks = {r["player"]: r["rank"] for r in season(cli, "--min-games", "1")["rulesets"][0]["players"]}
    assert ranks == {"ann": 1, "cat": 2, "bob": 3}
    text = cli("season").out
    assert "rank" in text and "rating" in text and "mu" not in text and "sigma" not in text
    assert "Players with fewer than 3 games are listed after the others" in text
    assert cli("season", "--min-games", "0").code == 2
    rows = list(csv.DictReader(io.StringIO(cli("season", "--format", "csv").out)))
    assert [(r["game"], r["rank"], r["player"]) for r in rows][:3] == [("skid", "1", "ann"), ("skid", "2", "bob"),
                                                                         ("skid", "", "cat")]
    assert all(r["mu"] and r["sigma"] for r in rows)


def test_numbers_read_as_numbers_in_the_language(cli: Callable[..., Run]) -> None:
    """Averages with a fraction in Estonian use a comma in the table and on the chart; whole numbers
    never show `.0`; game names are the language's."""
    skid(cli, "ann", "bob")
    skid(cli, "bob", "ann")
    page = cli("--lang", "et", "season", "--format", "html", "--min-games", "1").out
    import re

    assert ">1,5<" in page             # both average place 1.5
    words = " ".join(re.findall(r">([^<]+)<", page.split("</style>")[1].split("<script")[0]))   # what it shows
    assert not re.search(r"\d\.\d", words), words   # no 142.0, no 0.5: Estonian writes 0,5

    axis = re.findall(r'<text class="axis"[^>]*>([^<]*)</text>', page)
    assert axis and all("." not in a for a in axis), axis
    assert any("," in a for a in axis), axis   # the rating chart's scale: -1,x and 1,x
    ru = cli("--lang", "ru", "season").out
    assert "Скид" in ru and "skid" not in ru


def test_player_in_the_language_with_partners_and_head_to_head(cli: Callable[..., Run]) -> None:
    """Spades, seats 1+3 against 2+4: ann+cat win, ann+dan win (against bob+cat), ann+cat lose; then ann beats
    cat at Skid. ann's partners: cat 2 games (1 won, 1 lost), dan 1 (won): dan is the best. Against cat
    ann finished ahead twice (the Spades game against her and the Skid game); as partners 1 won, 1 lost."""
    for seats, bids, tricks in ((("ann", "bob", "cat", "dan"), "6,3,6,3", "7,0,6,0"),
                                (("ann", "bob", "dan", "cat"), "6,3,6,3", "7,0,6,0"),
                                (("ann", "bob", "cat", "dan"), "6,6,6,6", "0,7,0,6")):
        assert cli("new", "spades", *seats, "--opt", "target=100").code == 0
        assert cli("hand", f"bid={bids}", f"tricks={tricks}").code == 0
        assert json.loads(cli("standings", "--json").out)["finished"]
    skid(cli, "ann", "cat")
    text = cli("player", "ann").out
    partners = text.split("Partners:\n")[1].splitlines()
    assert [line.split() for line in partners[2:4]] == [["dan", "1", "1", "0", "0"], ["cat", "2", "1", "0", "1"]]
    assert partners[4] == "Best partner of ann: dan, 1 won of 1 game together."
    assert "Spades" in text and "won" in text and "lost" in text
    ru = cli("--lang", "ru", "player", "ann").out
    assert "Пики" in ru and "Скид" in ru and "Spades" not in ru and "won" not in ru and "date" not in ru
    vs = json.loads(cli("player", "ann", "--vs", "cat", "--json").out)
    assert (vs["ahead"], vs["behind"], vs["level"]) == (2, 0, 0)
    assert vs["together"] == {"games": 2, "wins": 1, "draws": 0, "losses": 1}
    assert [g["partners"] for g in vs["games"]] == [True, False, True, False]
    shown = cli("player", "ann", "--vs", "cat").out
    assert "As opponents (2): ann ahead 2, cat ahead 0, level 0." in shown
    assert "As partners (2): 1 won, 0 drawn, 1 lost." in shown
    assert cli("player", "ann", "--vs", "nobody").code == 2
    assert cli("player", "ann", "--vs", "ANN").code == 2


def test_each_game_card_draws_its_rulesets_thresholds_under_its_options(cli: Callable[..., Run]) -> None:
    # Spades to 100 (an option): a line at 100 on that game's card, not at the default 500.
    assert cli("new", "spades", "ann", "bob", "cat", "dan", "--opt", "target=100").code == 0
    assert cli("hand", "bid=4,3,4,3", "tricks=5,3,3,2").code == 0
    assert cli("hand", "bid=4,3,4,3", "tricks=5,3,3,2").code == 0
    page = cli("season", "--format", "html").out
    card = page[page.index('<figure class="game"'):]
    card = card[:card.index("</figure>")]
    lines = [float(v) for v in re.findall(r'class="threshold" data-value="([-\d.]+)"', card)]
    assert 100.0 in lines and 500.0 not in lines
    data = json.loads(cli("season", "--format", "json").out)
    assert "thresholds" not in json.dumps(data)   # the page draws them; the JSON report stays as it was


def test_each_player_has_a_sparkline_of_his_places_in_the_order_played(cli: Callable[..., Run]) -> None:
    # ann wins three Skid games against bob, then loses one to cat: ann 1, 1, 1, 2; bob 2, 2, 2; cat 1.
    for _ in range(3):
        skid(cli, "ann", "bob")
    skid(cli, "cat", "ann")
    page = cli("--lang", "et", "season", "--format", "html").out
    labels = re.findall(r'<svg class="spark"[^>]*aria-label="([^"]*)"', page)
    assert labels == ["ann: kohad 1, 1, 1, 2", "bob: kohad 2, 2, 2", "cat: kohad 1"]
    ann = page[page.index("ann: kohad"):]
    ann = ann[:ann.index("</svg>")]
    assert ann.count('r="3"') == 3 and ann.count('r="1.5"') == 1   # a dot on each game, larger when won
    assert "places" not in season(cli)["rulesets"][0]   # the JSON report keeps its shape
