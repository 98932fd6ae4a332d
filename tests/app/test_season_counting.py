"""What a season counts, with numbers worked out by hand: a rate of no finished game, a game with no
hand under --include-unfinished, a --since after --until, and side counters of several rulesets."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

from tests.conftest import Run


def players(cli: Callable[..., Run], *args: str) -> dict[str, dict[str, Any]]:
    run = cli("season", "--format", "json", *args)
    assert run.code == 0, run.err
    return {r["player"]: r for r in json.loads(run.out)["players"]}


def test_an_unfinished_game_is_listed_apart(cli: Callable[..., Run]) -> None:
    """One Hearts hand, not finished: no game counted for anyone (no line, no points, no rate of nothing);
    the game is named apart, in no column."""
    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "hearts=13,0,0,0", "queen=ann").code == 0
    data = json.loads(cli("season", "--format", "json").out)
    assert (data["games"], data["unfinished"], data["players"], data["rulesets"]) == (0, [1], [], [])
    assert cli("season").out == "Season 2026: 0 games\nNot finished, so not counted: game 1.\n"
    assert list(csv.DictReader(io.StringIO(cli("season", "--format", "csv").out))) == []
    # with the game counted by its standings (ann shot the moon: 0 against 26 each, lowest wins)
    counted = players(cli, "--include-unfinished")
    assert {p: r["win_rate"] for p, r in counted.items()} == {"ann": 1.0, "bob": 0.0, "cat": 0.0, "dan": 0.0}


def test_a_game_with_no_hand_counts_for_no_result(cli: Callable[..., Run]) -> None:
    """With --include-unfinished a game is counted by its standings; a game with no hand has none:
    it is no four-way draw, moves no rating, and is no game played (with the flag or without)."""
    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "hearts=13,0,0,0", "queen=ann").code == 0       # ann 0, the others 26: ann wins
    before = players(cli, "--include-unfinished")
    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0     # no hand typed yet
    after = players(cli, "--include-unfinished")
    # the title counts the games the columns count; the game with no hand is not even unfinished
    assert json.loads(cli("season", "--format", "json", "--include-unfinished").out)["games"] == 1
    assert cli("season", "--include-unfinished").out.startswith("Season 2026: 1 game (Hearts)\n")
    assert json.loads(cli("season", "--format", "json").out)["unfinished"] == [1]
    assert {p: (r["games"], r["wins"], r["draws"], r["losses"], r["last5"]) for p, r in after.items()} == {
        "ann": (1, 1, 0, 0, "W"), "bob": (1, 0, 0, 1, "L"), "cat": (1, 0, 0, 1, "L"), "dan": (1, 0, 0, 1, "L")}
    assert after == before   # ratings, places, points and their averages are those of the one game played
    without = json.loads(cli("season", "--format", "json").out)   # the one game played, unfinished: apart
    assert (without["players"], without["unfinished"]) == ([], [1])
    # a hand in it makes it a game played: by its standings with the flag, unfinished without
    assert cli("hand", "hearts=0,13,0,0", "queen=bob").code == 0        # bob 0, the others 26: bob leads
    assert {p: r["games"] for p, r in players(cli, "--include-unfinished").items()} == dict.fromkeys(before, 2)
    assert players(cli) == {}
    assert json.loads(cli("season", "--format", "json").out)["unfinished"] == [1, 2]

    # a season of only a game with no hand: no game played, no line for anyone
    assert cli("season", "use", "empty").code == 0
    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0
    assert players(cli, "empty", "--include-unfinished") == {} == players(cli, "empty")


def test_since_after_until_is_refused(cli: Callable[..., Run]) -> None:
    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0
    run = cli("season", "--since", "2026-12-03", "--until", "2026-12-01")
    assert run.code == 2 and run.out == ""
    assert "--since 2026-12-03 is after --until 2026-12-01" in run.err
    # the same days written without dashes (ISO 8601's basic form, which the check of a date takes)
    basic = cli("season", "--since", "20261203", "--until", "20261201", "--format", "json")
    assert basic.code == 2 and "--since 2026-12-03 is after --until 2026-12-01" in basic.err
    assert cli("season", "--since", "2026-12-01", "--until", "2026-12-01").code == 0   # one day


def test_side_counters_are_kept_per_ruleset(cli: Callable[..., Run]) -> None:
    """Old Maid and Ace Clears both count `wins` and `losses` per side; a season of both adds them up
    in no column (the text shows no `total` column then), and keeps each ruleset's own.

    Old Maid: a wins, c loses; b wins, c loses   -> a 1 win 0 losses, b 1/0, c 0/2.
    Ace Clears: c wins, a loses                  -> a 0/1, b 0/0, c 1/0.
    Summed across them a would have 1 win and 1 loss, c 1 win and 2 losses: neither is anything.
    """
    assert cli("new", "old-maid", "a", "b", "c").code == 0
    assert cli("hand", "winner=a", "loser=c").code == 0
    assert cli("hand", "winner=b", "loser=c").code == 0
    assert cli("finish").code == 0
    assert cli("new", "ace-clears", "a", "b", "c").code == 0
    assert cli("hand", "winner=c", "loser=a").code == 0
    assert cli("finish").code == 0

    both = players(cli)
    assert all("counters" not in r for r in both.values())   # everyone over all games: no counter
    assert {p: {rs: v["counters"] for rs, v in r["points_by_ruleset"].items()} for p, r in both.items()} == {
        "a": {"old-maid": {"wins": 1, "losses": 0}, "ace-clears": {"wins": 0, "losses": 1}},
        "b": {"old-maid": {"wins": 1, "losses": 0}, "ace-clears": {"wins": 0, "losses": 0}},
        "c": {"old-maid": {"wins": 0, "losses": 2}, "ace-clears": {"wins": 1, "losses": 0}}}
    boards = {b["ruleset"]: {r["player"]: r["counters"] for r in b["players"]}
              for b in json.loads(cli("season", "--format", "json").out)["rulesets"]}
    assert boards["ace-clears"] == {"a": {"wins": 0, "losses": 1}, "b": {"wins": 0, "losses": 0},
                                    "c": {"wins": 1, "losses": 0}}
    overall = cli("season").out.split("\n\n")[0]
    assert "total" not in overall     # as the text shows them: no column adds them up

    old_maid = json.loads(cli("season", "--format", "json", "--ruleset", "old-maid").out)["rulesets"]
    assert {r["player"]: r["counters"] for r in old_maid[0]["players"]} == {
        "a": {"wins": 1, "losses": 0}, "b": {"wins": 1, "losses": 0}, "c": {"wins": 0, "losses": 2}}
    text = cli("season", "--ruleset", "old-maid").out.split("\n\n")[0].splitlines()
    assert text[1].split()[-4:] == ["total", "losses", "total", "wins"]
    assert {line.split()[1]: line.split()[-2:] for line in text[3:]} == {"a": ["0", "1"], "b": ["0", "1"],
                                                                          "c": ["2", "0"]}
