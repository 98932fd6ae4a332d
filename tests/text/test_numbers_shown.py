"""Numbers as a person reads them: a fraction at most two decimals (a Preferans balance in thirds of a
whist reads 30.67, not 30.666666666666668), whole numbers whole; the exact values stay in JSON."""

from __future__ import annotations

import json
from collections.abc import Callable

from scorepad.rules.values import format_value
from scorepad.text.render import num
from tests.conftest import Run


def test_fractions_read_with_two_decimals_at_most() -> None:
    assert [format_value(v) for v in (30.666666666666668, 26.000000000000004, 12.5, -0.001, 7.0, 3)] == \
        ["30.67", "26", "12.5", "0", "7", "3"]
    assert [num(v) for v in (5.333333333333333, -50.66666666666667, 0.0, 12, -60)] == \
        ["+5.33", "-50.67", "0", "+12", "-60"]


def test_a_preferans_balance_in_the_terminal_and_in_json(cli: Callable[..., Run]) -> None:
    assert cli("new", "preferans", "a", "b", "c").code == 0
    r = cli("hand", "contract=6S", "declarer=a", "whist=pass,whist,pass", "tricks=6,3,1")
    assert r.code == 0 and "+5.33" in r.out and "5.333" not in r.out, r.out
    shown = cli("standings").out
    assert "5.33" in shown and "-6.67" in shown and "333" not in shown and "666" not in shown
    scores = [s["score"] for s in json.loads(cli("standings", "--json").out)["sides"]]
    assert abs(scores[0] - 16 / 3) < 1e-9   # the exact balance is kept


def test_a_mean_and_a_rate_are_shown_with_at_most_two_decimals_in_the_language() -> None:
    from scorepad.text.numbers import local_percent
    from scorepad.text.statistics import statistic_shown

    assert local_percent(2, 3, "et") == "66,67%"
    assert local_percent(2, 3, "en") == "66.67%"
    assert local_percent(1, 4, "ru") == "25%"
    assert local_percent(0, 0, "en") == "–"
    assert statistic_shown("rate", {"made": 1, "of": 8}, "uk") == "12,5%"
    assert statistic_shown("mean", {"sum": 70, "hands": 3}, "et") == "23,33"
    assert statistic_shown("mean", {"sum": 0, "hands": 0}, "en") == "–"
    assert statistic_shown("sum", 142.0, "et") == "142"
