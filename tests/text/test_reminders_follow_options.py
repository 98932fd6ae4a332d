"""The reminder lines under the standings say the rule in force with the game's options: a 1000 game
with another barrel total does not say "From 800", and one with the standard marriage values leads
with them."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.conftest import Run


def test_thousand_with_another_barrel_does_not_say_800(cli: Callable[..., Run]) -> None:
    cli("new", "1000", "ann", "bob", "cat", "--opt", "barrel=300")
    out = cli("standings").out
    assert "800" not in out
    assert "From the total chosen with option barrel: in the barrel, only bids score." in out
    # the rule itself: ann makes 300 (120 card points + clubs 100 + spades 80) and shows four nines
    # (+100, not toward the bid): 400, past 300, in the barrel
    r = cli("hand", "bidder=ann", "bid=300", "points=120,0,0", "marriages=CS,-,-", "nines=yes,no,no")
    assert "ann reaches 400 and is in the barrel" in r.out       # 300 bid + 100 four nines
    shown = json.loads(cli("standings", "--json").out)
    assert [s["shown"]["barrel"] for s in shown["sides"]] == [True, False, False]


def test_thousand_at_the_default_barrel_says_800(cli: Callable[..., Run]) -> None:
    cli("new", "1000", "ann", "bob", "cat")
    out = cli("standings").out
    assert "From 800: in the barrel, only bids score." in out
    assert "option barrel" not in out


@pytest.mark.parametrize(("order", "shown", "not_shown"), [
    ("source", "Marriages: clubs 100, spades 80, hearts 60, diamonds 40", "Marriages (option marriage_order"),
    ("standard", "Marriages (option marriage_order = standard): hearts 100, diamonds 80, clubs 60, spades 40.",
     "Marriages: clubs 100"),
])
def test_thousand_names_the_marriage_values_in_force(cli: Callable[..., Run], order: str, shown: str,
                                                     not_shown: str) -> None:
    cli("new", "1000", "ann", "bob", "cat", "--opt", f"marriage_order={order}")
    out = cli("standings").out
    assert shown in out and not_shown not in out


@pytest.mark.parametrize(("lang", "line"), [
    ("et", "Valikuga „kott“ valitud summast: kotis, loevad ainult pakkumised."),
    ("ru", "С суммы, выбранной опцией «бочка»: на бочке, идут только заказы."),
    ("uk", "Від суми, вибраної опцією «бочка»: на бочці, записуються лише заявки."),
])
def test_thousand_barrel_line_in_other_languages(cli: Callable[..., Run], lang: str, line: str) -> None:
    cli("new", "1000", "ann", "bob", "cat", "--opt", "barrel=500")
    out = cli("--lang", lang, "standings").out
    assert line in out and "800" not in out
