"""Card notation: Latin, Estonian and Cyrillic ranks, suit letters and symbols, decks."""

from __future__ import annotations

import pytest

from scorepad.errors import UserError
from scorepad.rules.cards import (
    RANK_WORDS,
    SUIT_WORDS,
    Deck,
    card_label,
    card_value,
    check_copies,
    deck_named,
    parse_card,
    parse_cards,
    read_cards,
)


def test_notation() -> None:
    assert parse_cards("Q QS Q♠ qs 10h 10♥ ♥10") == ("Q", "QS", "QS", "QS", "10H", "10H", "10H")
    assert parse_cards("S E K Ä ÄH SS") == ("J", "Q", "K", "A", "AH", "JS")       # Estonian
    assert parse_cards("Т В Д К ТП") == ("A", "J", "Q", "K", "AS")  # Cyrillic
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


def test_cyrillic_ranks_and_suits() -> None:
    # дама пик, десятка червей, туз бубен, король треф, туз треф; suits П Ч Б Т (and Х, хрести)
    assert parse_cards("ДП 10Ч ТБ КТ ТТ вх") == ("QS", "10H", "AD", "KC", "AC", "JC")
    assert parse_cards("дп, 10ч; тб") == ("QS", "10H", "AD")            # lower case, any separator
    assert parse_cards("ДП", deck_named("36")) == ("QS",)


def test_suit_and_rank_words() -> None:
    assert parse_cards("дама пик, туз червей, валет бубен, король треф") == ("QS", "AH", "JD", "KC")
    assert parse_cards("дама вини, туз чирва, валет бубна, король хреста") == ("QS", "AH", "JD", "KC")
    assert parse_cards("туз король дама валет") == ("A", "K", "Q", "J")
    # Ukrainian, the forms after a rank (genitive plural) and the nominatives
    assert parse_cards("дама пік, туз пік, туз чирв, валет бубон, король хрестів, король треф, дама вин") == (
        "QS", "AS", "AH", "JD", "KC", "KC", "QS")
    assert parse_cards("дама піки, туз трефи, 10 піка, ДПІК, 10ЧИРВ") == ("QS", "AC", "10S", "QS", "10H")


def test_suit_words_are_not_cards_themselves() -> None:
    """A suit word joins the rank before it; it must never read as a card of its own, or a rank
    followed by it would be ambiguous (two cards, or one)."""
    for word in SUIT_WORDS:
        with pytest.raises(UserError):
            parse_card(word)
        assert word not in RANK_WORDS
    assert parse_cards("10 черви 10черви") == ("10H", "10H")
    assert parse_cards("Q pada K poti Ä ärtu S ruutu 10 risti") == ("QS", "KS", "AH", "JD", "10C")
    assert parse_cards("äss risti emand pada") == ("AC", "QS")
    assert parse_cards("queen of spades, ten of hearts") == ("QS", "10H")


def test_latin_t_and_cyrillic_t_never_guessed() -> None:
    assert parse_cards("T TS") == ("10", "10S")          # Latin T: a ten
    assert parse_cards("Т ТП") == ("A", "AS")            # Cyrillic Т: an ace
    for mixed in ("TБ", "TП", "ТS", "ТH"):
        with pytest.raises(UserError, match="mixes alphabets"):
            parse_cards(mixed)


def test_read_cards_keeps_what_was_typed() -> None:
    assert read_cards("ДП 10Ч") == [("ДП", "QS"), ("10Ч", "10H")]
    assert read_cards("дама пик, T") == [("дама пик", "QS"), ("T", "10")]
    assert [card_label(c) for _, c in read_cards("ТБ КТ")] == ["A♦", "K♣"]
    assert read_cards("-") == []


def test_the_cards_by_number_in_every_language() -> None:
    assert parse_cards("десятка шестёрка шестерка девятка двойка") == ("10", "6", "6", "9", "2")      # Russian
    assert parse_cards("сімка шістка десятка двійка вісімка") == ("7", "6", "10", "2", "8")          # Ukrainian
    # пʼятірка, девʼятка with the letter ʼ, a typewriter ' or a typographic ’
    assert parse_cards("пʼятірка п'ятірка п’ятірка девʼятка дев'ятка") == ("5", "5", "5", "9", "9")
    assert parse_cards("kaks kuus seitse üheksa kümme") == ("2", "6", "7", "9", "10")                # Estonian
    assert parse_cards("seven of clubs, two") == ("7C", "2")
    assert parse_cards("десятка пик, сімка червів, шестёрка крести") == ("10S", "7H", "6C")


def test_russian_krest_and_the_ukrainian_forms_of_the_suits() -> None:
    assert parse_cards("дама крести, туз крестей") == ("QC", "AC")
    assert parse_cards("туз червів, валет бубнів") == ("AH", "JD")
    # Ukrainian adjectives, before their rank or after it
    assert parse_cards("червовий туз, хрестовий валет, трефовий король, пікова дама, бубнова десятка") == (
        "AH", "JC", "KC", "QS", "10D")
    assert parse_cards("туз червовий, дама трефова") == ("AH", "QC")


def test_a_suit_before_its_rank() -> None:
    assert parse_cards("пиковая дама, трефовый туз, червонный валет, бубновая десятка") == ("QS", "AC", "JH", "10D")
    assert parse_cards("poti äss, risti kümme, ärtu emand, ruutu S") == ("AS", "10C", "QH", "JD")
    # an adjective agrees with its rank: пиковая is the queen's, not the king's
    assert parse_cards("король пиковая дама") == ("K", "QS")
    assert parse_cards("пиковый король дама") == ("KS", "Q")
    assert read_cards("пиковая дама") == [("пиковая дама", "QS")]


def test_words_that_read_as_two_sets_of_cards_are_refused_with_both() -> None:
    with pytest.raises(UserError) as exc:
        parse_cards("K poti äss")
    assert "K A♠" in exc.value.message and "K♠ A" in exc.value.message
    assert parse_cards("K, poti äss") == ("K", "AS") and parse_cards("K poti, äss") == ("KS", "A")
    assert parse_cards("K poti K") == ("K", "KS")          # either way the same two cards
    with pytest.raises(UserError, match="'пик' is a suit without its rank"):
        parse_cards("пик туз")


def test_a_suit_letter_apart_from_its_rank_that_is_also_a_card_is_refused_with_both_readings() -> None:
    """A lone S is spades after a rank and the Estonian jack by itself; a lone Т clubs and the Russian
    ace: `Q S` is never taken as a queen and a jack (in 500 Rummy 23 points instead of 12)."""
    for typed, one, two in (("Q S", "Q♠", "Q J"), ("10 S", "10♠", "10 J"), ("K Т", "K♣", "K A"),
                            ("К Т", "K♣", "K A"), ("Т Т", "A♣", "A A")):
        with pytest.raises(UserError) as exc:
            parse_cards(typed)
        assert f"reads two ways, as {one} or as {two}" in exc.value.message, exc.value.message
    with pytest.raises(UserError) as exc:
        parse_cards("Q S")
    assert "the Estonian jack" in exc.value.message and "write QS for one card or Q, S for two" in exc.value.message
    with pytest.raises(UserError, match="as J Q K♣ A♠ or as J Q K A A♠"):
        parse_cards("В Д К Т ТП")
    # written against the rank, or with a comma, each reading is taken
    assert parse_cards("QS, Q, S, КТ, К, Т") == ("QS", "Q", "J", "KC", "K", "A")


def test_a_suit_letter_apart_from_its_rank_of_the_same_notation() -> None:
    assert parse_cards("Q H, 10 Ч, Д П, queen ♠, 7 ♦") == ("QH", "10H", "QS", "QS", "7D")
    # Estonian ranks with the English S: a queen and a jack (Estonian writes a suit apart before its rank)
    assert parse_cards("E S Ä") == ("Q", "J", "A")
    assert parse_cards("K Ä S S") == ("K", "A", "J", "J")
    with pytest.raises(UserError, match="'H' is a suit without its rank"):
        parse_cards("H Q")


def test_the_deck_decides_when_only_one_reading_is_in_it() -> None:
    no_jacks = Deck(("Q", "K", "A"))
    assert parse_cards("Q S", no_jacks) == ("QS",)
    with pytest.raises(UserError, match="reads two ways"):
        parse_cards("Q S", deck_named("52"))


def test_a_rank_word_never_loses_a_letter_to_a_suit() -> None:
    """English plurals are not the rank word with the suit S: `kings` is not K♠."""
    for typed, rank in (("kings", "K"), ("queens", "Q"), ("tens", "10"), ("aces", "A"), ("sixes", "6"),
                        ("two kings", "K")):
        with pytest.raises(UserError) as exc:
            parse_cards(typed)
        assert "is a rank in the plural, not a card" in exc.value.message
        assert f"e.g. {rank} {rank} for two" in exc.value.message
    with pytest.raises(UserError, match="not a card"):
        parse_card("ДАМАП")
    # a rank word takes a suit word or a sign, and a rank letter a suit letter
    assert parse_cards("KINGSPADES KING♠ ДП ДАМА king of spades") == ("KS", "KS", "QS", "Q", "KS")


def test_estonian_suit_letters_against_their_rank() -> None:
    """P pada (poti) and Ä ärtu, as Estonian bridge contracts write them; R is ruutu or risti."""
    assert parse_cards("EP ÄP KÄ SÄ 10P ÄÄ") == ("QS", "AS", "KH", "JH", "10S", "AH")
    for typed, rank in (("ÄR", "A"), ("ER", "Q"), ("10R", "10")):
        with pytest.raises(UserError) as exc:
            parse_cards(typed)
        assert f"reads two ways, as {rank}♦ or as {rank}♣" in exc.value.message
        assert "ruutu (diamonds) or risti (clubs)" in exc.value.message
    with pytest.raises(UserError, match="'P' is a suit without its rank"):
        parse_cards("E P")
