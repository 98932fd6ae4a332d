"""Card notation: Latin, Estonian and Cyrillic ranks, suit letters and symbols, decks."""

from __future__ import annotations

import pytest

from scorepad.cards import card_value, check_copies, deck_named, parse_cards
from scorepad.errors import UserError


def test_notation() -> None:
    assert parse_cards("Q QS Q♠ qs 10h 10♥ ♥10") == ("Q", "QS", "QS", "QS", "10H", "10H", "10H")
    assert parse_cards("S E K Ä ÄH SS") == ("J", "Q", "K", "A", "AH", "JS")       # Estonian
    assert parse_cards("В Д К Т ТП".replace("П", "S")) == ("J", "Q", "K", "A", "AS")  # Cyrillic
    assert parse_cards("A,K, 10 ,J") == ("A", "K", "10", "J")
    assert parse_cards("-") == () and parse_cards("") == ()
    assert parse_cards("joker *") == ("JOKER", "JOKER")


def test_refusals() -> None:
    with pytest.raises(UserError, match="not a card"):
        parse_cards("Z")
    with pytest.raises(UserError, match="not in this game's deck"):
        parse_cards("5S", deck_named("36"))
    with pytest.raises(UserError, match="not in this game's deck"):
        parse_cards("JOKER", deck_named("52"))


def test_values_exact_card_before_rank() -> None:
    values = {"Q": 10, "QS": 50, "A": 15}
    assert card_value("QS", values) == 50
    assert card_value("QH", values) == 10
    assert card_value("Q", values) == 10
    assert card_value("7", values) == 0


def test_copies() -> None:
    assert check_copies([("QS",), ("QS",)], deck_named("36")) == ["Q♠ appears 2 times but the deck has 1"]
    assert check_copies([("QS",), ("QS",)], deck_named("pinochle")) == []
    assert check_copies([("Q", "Q"), ("Q", "Q", "Q")], deck_named("36")) == ["Q appears 5 times but the deck has 4"]
