"""What `scorepad finish` adds to a game (the ruleset's rules for an unfinished game) is a row of the
sheet after the hands, so the rows add up to the totals line; a game that ended with a hand has no
such row."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from tests.conftest import Run


def _rows(out: str) -> dict[str, list[str]]:
    """The hand table of `sheet` text: the first cell of each row (hand number or `finish`) to its cells."""
    table = out.split("\n\n")[-1].splitlines()
    return {cells[0]: cells for line in table[2:] if (cells := re.split(r"\s{2,}", line.strip()))
            and not line.startswith(("Totals", "Winner", "A draw"))}


def test_the_unfinished_rubber_bonus_is_a_row_of_the_bridge_sheet(cli: Callable[..., Run]) -> None:
    cli("new", "bridge", "n", "e", "s", "w")
    # 4S made exactly: 4 x 30 = 120 below the line, a game for NS; 2D made by E: 2 x 20 = 40, a part-score
    assert cli("hand", "contract=4S", "by=N", "result==").code == 0
    assert cli("hand", "contract=2D", "by=E", "result=made").code == 0
    assert cli("finish").code == 0
    # unfinished rubber: 300 for the only completed game (NS), 100 for the only part-score (EW)
    out = cli("sheet").out
    rows = _rows(out)
    assert rows["1"][1:5] == ["+120", "0", "120", "0"]
    assert rows["2"][1:5] == ["0", "+40", "120", "40"]
    assert rows["finish"][1:5] == ["+300", "+100", "420", "140"]
    assert "300 to NS for the only completed game" in rows["finish"][5]
    assert "100 to EW for the only part-score" in rows["finish"][5]
    assert "Totals: NS 420, EW 140" in out

    data = json.loads(cli("sheet", "--json").out)
    assert len(data["hands"]) == 2
    assert data["finish"]["points"] == [300, 100] and data["finish"]["totals"] == [420, 140]
    assert [line[:2] for line in data["finish"]["breakdown"][0]] == [["unfinished rubber: the only game", 300]]
    assert [line[:2] for line in data["finish"]["breakdown"][1]] == [["unfinished rubber: part-score", 100]]
    # the WE/THEY pad writes them above the line under the ruleset's labels
    assert [(e["label"], e["points"]) for e in data["pad"]["above"][0]] == [("unfinished rubber: the only game", 300)]
    assert [(e["label"], e["points"]) for e in data["pad"]["above"][1]] == [("unfinished rubber: part-score", 100)]


def test_the_finish_row_follows_the_options_and_the_language(cli: Callable[..., Run]) -> None:
    """unfinished_game = 250, unfinished_partscore = 0 (none, as in the text): NS +250, EW nothing."""
    cli("new", "bridge", "n", "e", "s", "w", "--opt", "unfinished_game=250", "--opt", "unfinished_partscore=0")
    cli("hand", "contract=4S", "by=N", "result==")
    cli("hand", "contract=2D", "by=E", "result=made")
    cli("finish")
    rows = _rows(cli("sheet").out)
    assert rows["finish"][1:5] == ["+250", "0", "370", "40"]
    estonian = cli("--lang", "et", "sheet").out
    assert "250 paarile NS ainsa lõpetatud geimi eest" in estonian


def test_a_game_finished_without_points_shows_the_finish_with_its_winner(cli: Callable[..., Run]) -> None:
    """Spades has no rule for an unfinished game: the row says who won at the totals as they stood."""
    cli("new", "spades", "n", "e", "s", "w")
    # n+s bid 4+3 = 7 and take 7: 70; e+w bid 3+3 = 6 and take 6: 60
    cli("hand", "bid=4,3,3,3", "tricks=4,3,3,3")
    cli("finish")
    out = cli("sheet").out
    finish = _rows(out)["finish"]
    assert finish[-5:-1] == ["0", "0", "70", "60"] and "n+s wins" in finish[-1]
    assert json.loads(cli("sheet", "--json").out)["finish"]["points"] == [0, 0]


def test_a_rubber_won_with_a_hand_has_no_finish_row(cli: Callable[..., Run]) -> None:
    cli("new", "bridge", "n", "e", "s", "w")
    cli("hand", "contract=4S", "by=N", "result==")
    r = cli("hand", "contract=4S", "by=N", "result==")
    assert "rubber bonus 700" in r.out     # two games to none: 700
    out = cli("sheet").out
    assert "finish" not in _rows(out)
    assert "Totals: NS 940, EW 0" in out   # 120 + 120 + 700
    assert "finish" not in json.loads(cli("sheet", "--json").out)
