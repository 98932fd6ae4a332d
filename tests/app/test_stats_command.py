"""`scorepad stats [PLAYER] [--ruleset GAME] [--season S] [--json]`: the statistics each ruleset declares,
per kind of game and player, over the season's finished games, in the language shown. The numbers are
the hand-derived ones of tests/app/test_declared_statistics.py (game 3 there is unfinished: left out)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.app.test_declared_statistics import spades_season
from tests.conftest import Run


def test_stats_adds_up_the_finished_games_per_player(cli: Callable[..., Run]) -> None:
    spades_season(cli)
    run = cli("stats", "--json")
    assert run.code == 0, run.err
    report = json.loads(run.out)
    assert report["player"] is None and len(report["games"]) == 1
    spades = report["games"][0]
    assert spades["ruleset"] == "spades" and spades["games"] == 2 and "name" not in spades
    got = {r["player"]: (r["games"], r["statistics"]) for r in spades["players"]}
    assert {p: (g, s["nils_made"], s["nils_failed"], s["bags_taken"]) for p, (g, s) in got.items()} == {
        "ann": (2, 1, 0, 5), "cat": (2, 0, 0, 5), "bob": (2, 0, 1, 6), "dan": (2, 0, 1, 6)}
    text = cli("stats").out
    assert text.startswith("Spades (2 games):")
    assert [line.split() for line in text.splitlines() if line.startswith("bob")] == [
        ["bob", "2", "0", "1", "6", "50%", "2"]]
    # ann: 3 contracts of 3 made, 5 bags over 3 hands, as Estonian writes them
    text = cli("--lang", "et", "stats").out
    assert [line.split() for line in text.splitlines() if line.startswith("ann")] == [
        ["ann", "2", "1", "0", "5", "100%", "1,67"]]


def test_stats_of_one_player_by_the_start_of_his_name_in_his_language(cli: Callable[..., Run]) -> None:
    spades_season(cli)
    run = cli("stats", "B", "--json", "--ruleset", "spades")
    assert run.code == 0, run.err
    players = json.loads(run.out)["games"][0]["players"]
    assert [(r["player"], r["statistics"]["bags_taken"]) for r in players] == [("bob", 6)]
    out = cli("--lang", "et", "stats", "bob").out
    assert "mängija" in out and "nulle kaotatud" in out and "ann" not in out


@pytest.mark.parametrize(("args", "said"), [
    (["zed"], "no player called 'zed'"),
    (["--season", "1999"], "there are no games in season '1999'"),
    (["--ruleset", "nonesuch"], "unknown game 'nonesuch'"),
    (["eve"], "eve played no counted game in season"),
    (["a"], "'a' could be ann, anton: give more of the name"),
])
def test_a_name_that_means_nothing_is_a_sentence(cli: Callable[..., Run], args: list[str], said: str) -> None:
    spades_season(cli)
    assert cli("new", "spades", "anton", "bob", "cat", "dan", "--opt", "target=100").code == 0
    assert cli("hand", "bid=4,3,4,3", "tricks=6,4,0,3").code == 0
    assert cli("hand", "bid=4,3,4,3", "tricks=6,4,0,3").code == 0
    assert cli("new", "spades", "eve", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,3,4,3", "tricks=6,4,0,3").code == 0
    run = cli("stats", *args)
    assert run.code == 2
    assert said in run.err and "Traceback" not in run.err + run.out


def test_no_statistics_is_said_in_a_sentence(cli: Callable[..., Run]) -> None:
    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0
    run = cli("stats")
    assert run.code == 0 and "declares statistics" in run.out
    assert json.loads(cli("stats", "--json").out)["games"] == []
