"""Oh Hell (Sitaratas): `rules show` says in the players' words what bid and tricks are: the bid goes up
to the cards dealt to each player in this deal, the dealer bids last, and everyone's tricks add up to
those cards (the number `cards` on the Next line of the standings)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import Run

HELP = {
    "en": (("tricks bid, 0 up to the cards dealt to each player in this deal (\"cards\" on the Next line); "
            "the player after the dealer bids first, the dealer last"),
           ("tricks taken; everyone's tricks add up to the cards dealt to each player in this deal "
            "(\"cards\" on the Next line)")),
    "et": ("segajast järgmine pakub esimesena, segaja viimasena",
           "kõigi tihid annavad kokku selles jaotuses igale mängijale jagatud kaartide arvu"),
    "ru": ("первым заказывает игрок после сдающего, сдающий — последним",
           "взятки всех игроков в сумме дают число карт, сданных каждому в этой раздаче"),
    "uk": ("першим заявляє гравець після того, хто здає, той, хто здає, — останнім",
           "взятки всіх гравців разом дають кількість карт, зданих кожному в цій роздачі"),
}


@pytest.mark.parametrize("lang", sorted(HELP))
def test_bid_and_tricks_say_the_cards_dealt_and_the_dealer_last(cli: Callable[..., Run], lang: str) -> None:
    out = cli("--lang", lang, "rules", "show", "sitaratas").out
    bid, tricks = HELP[lang]
    assert bid in out and tricks in out


def test_the_cards_of_the_help_are_on_the_next_line(cli: Callable[..., Run]) -> None:
    """4 players: the schedule deals 1 card in each of the first four deals, then 2 in the fifth."""
    cli("new", "sitaratas", "ann", "bob", "cat", "dan")
    assert "Next: hand 1; ann deals; cards: 1;" in cli("standings").out
    for _ in range(4):
        # the bids add up to 0, not 1 (the dealer's restriction); bob takes the one trick
        assert cli("hand", "bid=0,0,0,0", "tricks=0,1,0,0").code == 0
    assert "Next: hand 5; ann deals; cards: 2;" in cli("standings").out
