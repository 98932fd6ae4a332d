"""Card notation shared by every ruleset: parsing what players type, decks, and card values.

A card is written as a rank with an optional suit: `Q`, `QS`, `Q♠`, `10h`, `ÄH` (Estonian),
`ДП`, `10Ч`, `ТБ`, `КТ` (Russian and Ukrainian: ranks В Д К Т, suits П Ч Б Т), or in words:
`дама пик`, `туз хреста`, `äss risti`, `queen of spades`, `десятка`, `сімка`, and with the suit first
as Estonian and the Russian and Ukrainian adjectives say it: `poti äss`, `пиковая дама`, `червовий туз`.
A rank without a suit is an ordinary card of that rank, so in Skid `Q` is a plain queen and `QS` the
queen of spades. Cards are kept as canonical text: the rank (`2`..`10`, `J`, `Q`, `K`, `A`, `JOKER`)
followed by the suit letter `S`, `H`, `D` or `C` if given.

One letter means different cards in two alphabets: Latin `T` is a ten, Cyrillic `Т` an ace (and,
after a rank, clubs). A token that mixes the two alphabets around that letter (`TБ`, `ТS`) is
refused, and the program always shows how it read the cards typed (`read_cards`). Likewise words
that read as two different sets of cards (`K poti äss`) are refused with both readings. So are
letters that are suits as well as ranks, written apart after a rank: `Q S` is Q♠ or a queen and the
Estonian jack, `К Т` K♣ or a king and the Russian ace. A suit letter never takes the last letter of a
rank word: `kings` is a plural, not K♠.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scorepad.errors import UserError
from scorepad.locale import _, current, ngettext

RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["S", "H", "D", "C"]
SUIT_SYMBOLS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C",
                "S": "S", "H": "H", "D": "D", "C": "C"}
SUIT_LETTERS = {"S": "S", "H": "H", "D": "D", "C": "C",
                # Russian / Ukrainian: пики, черви, бубны, трефы (хрести)
                "П": "S", "Ч": "H", "Б": "D", "Т": "C", "Х": "C",
                # Estonian, as its bridge contracts write them: P pada (poti), Ä ärtu
                "P": "S", "Ä": "H"}
SUIT_SYMBOLS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C",
                **SUIT_LETTERS}
# Estonian R is ruutu (diamonds) or risti (clubs): a card written with it is refused with both readings
TWO_SUIT_LETTERS = {"R": ("D", "C")}
SUIT_SIGNS = "♠♤♥♡♦♢♣♧"
# A rank letter, a space and a suit letter are one card only when both letters are of one notation
# (`Q S`, `10 H`, `Д П`): English S H D C after J Q K A T, Russian/Ukrainian П Ч Б Т Х after В Д К Т.
# K (Latin or Cyrillic, they look alike) and the numbers are in every notation, and a sign fits any rank.
# Estonian writes a suit apart from its rank before it (poti äss), so its letters P Ä are read only
# against their rank (`EP`, `KÄ`): `E S Ä` is a queen, a jack and an ace.
SPACED_SUITS = {"S": "en", "H": "en", "D": "en", "C": "en", "П": "ru", "Ч": "ru", "Б": "ru", "Т": "ru", "Х": "ru"}
RANK_NOTATIONS = {"J": {"en"}, "Q": {"en"}, "A": {"en"}, "T": {"en"}, "K": {"en", "et", "ru"},
                  "К": {"en", "et", "ru"}, "S": {"et"}, "E": {"et"}, "Ä": {"et"}, "В": {"ru"}, "Д": {"ru"},
                  "Т": {"ru"}}
SUIT_WORDS = {
    # Russian: пики черви бубны трефы (крести), and the forms after a rank (дама пик, туз червей, валет
    # бубен, дама крестей)
    "ПИКИ": "S", "ПИК": "S", "ПИКА": "S", "ЧЕРВИ": "H", "ЧЕРВЫ": "H", "ЧЕРВЕЙ": "H", "ЧЕРВА": "H",
    "БУБНЫ": "D", "БУБЕН": "D", "БУБНА": "D", "ТРЕФЫ": "C", "ТРЕФ": "C", "ТРЕФА": "C",
    "КРЕСТИ": "C", "КРЕСТЕЙ": "C",
    # Russian adjectives, before or after the rank (пиковая дама, трефовый туз, червонный валет)
    "ПИКОВАЯ": "S", "ПИКОВЫЙ": "S", "ЧЕРВОВАЯ": "H", "ЧЕРВОВЫЙ": "H", "ЧЕРВОННАЯ": "H", "ЧЕРВОННЫЙ": "H",
    "БУБНОВАЯ": "D", "БУБНОВЫЙ": "D", "ТРЕФОВАЯ": "C", "ТРЕФОВЫЙ": "C", "КРЕСТОВАЯ": "C", "КРЕСТОВЫЙ": "C",
    # Ukrainian: піки (вини) чирви (черви) бубни хрести (трефи), and the forms after a rank (дама пік,
    # туз чирв, туз червів, валет бубон, король хрестів, король треф, дама вин)
    "ПІКИ": "S", "ПІКА": "S", "ПІК": "S",
    "ВИНИ": "S", "ВИНА": "S", "ВИНЬ": "S", "ВИН": "S", "ЧИРВА": "H", "ЧИРВИ": "H", "ЧИРВ": "H", "ЧЕРВІВ": "H",
    "БУБНИ": "D", "БУБОН": "D", "БУБНІВ": "D", "ХРЕСТА": "C", "ХРЕСТИ": "C", "ХРЕСТ": "C", "ХРЕСТІВ": "C",
    "ТРЕФИ": "C",
    # Ukrainian adjectives, before or after the rank (пікова дама, червовий туз, хрестовий валет)
    "ПІКОВА": "S", "ПІКОВИЙ": "S", "ВИНОВА": "S", "ВИНОВИЙ": "S", "ЧИРВОВА": "H", "ЧИРВОВИЙ": "H",
    "ЧЕРВОВА": "H", "ЧЕРВОВИЙ": "H", "БУБНОВА": "D", "БУБНОВИЙ": "D", "ХРЕСТОВА": "C", "ХРЕСТОВИЙ": "C",
    "ТРЕФОВА": "C", "ТРЕФОВИЙ": "C",
    # Estonian: pada / poti, ärtu, ruutu, risti, before the rank (poti äss, risti kümme) or after it
    "PADA": "S", "POTI": "S", "ÄRTU": "H", "RUUTU": "D", "RISTI": "C",
    # English
    "SPADES": "S", "SPADE": "S", "HEARTS": "H", "HEART": "H", "DIAMONDS": "D", "DIAMOND": "D",
    "CLUBS": "C", "CLUB": "C",
}
# The suit words that also stand before a rank: Estonian says the suit first (poti äss), Russian and
# Ukrainian an adjective (пиковая дама). The others (дама пик, queen of spades) follow their rank.
SUIT_FIRST = {w for w in SUIT_WORDS if w.endswith(("АЯ", "ЫЙ", "ИЙ", "ОВА"))} | {
    "PADA", "POTI", "ÄRTU", "RUUTU", "RISTI"}
RANK_WORDS = {
    **{r: r for r in RANK_ORDER},
    "T": "10",  # the common one-letter ten
    # Estonian: soldat, emand, kuningas, äss, and the numbers kaks .. kümme
    "S": "J", "E": "Q", "Ä": "A",
    "ÄSS": "A", "KUNINGAS": "K", "EMAND": "Q", "SOLDAT": "J", "SÕDUR": "J", "SÖDUR": "J", "POISS": "J",
    "KAKS": "2", "KOLM": "3", "NELI": "4", "VIIS": "5", "KUUS": "6", "SEITSE": "7", "KAHEKSA": "8",
    "ÜHEKSA": "9", "KÜMME": "10",
    # Russian / Ukrainian (Cyrillic): валет, дама, король, туз
    "В": "J", "Д": "Q", "К": "K", "Т": "A",
    "ТУЗ": "A", "КОРОЛЬ": "K", "ДАМА": "Q", "ВАЛЕТ": "J",
    # the cards by number, Russian (двойка .. десятка; шестёрка read as шестерка) and Ukrainian (двійка ..
    # десятка; пʼятірка with any apostrophe)
    "ДВОЙКА": "2", "ТРОЙКА": "3", "ЧЕТВЕРКА": "4", "ПЯТЕРКА": "5", "ШЕСТЕРКА": "6", "СЕМЕРКА": "7",
    "ВОСЬМЕРКА": "8", "ДЕВЯТКА": "9", "ДЕСЯТКА": "10",
    "ДВІЙКА": "2", "ТРІЙКА": "3", "ЧЕТВІРКА": "4", "П\u02bcЯТІРКА": "5", "ШІСТКА": "6", "СІМКА": "7",
    "ВІСІМКА": "8", "ДЕВ\u02bcЯТКА": "9",
    # English words
    "ACE": "A", "KING": "K", "QUEEN": "Q", "JACK": "J", "TEN": "10", "TWO": "2", "THREE": "3", "FOUR": "4",
    "FIVE": "5", "SIX": "6", "SEVEN": "7", "EIGHT": "8", "NINE": "9",
    "JOKER": "JOKER", "JK": "JOKER", "*": "JOKER", "JOKKER": "JOKER", "ДЖОКЕР": "JOKER",
}
# Russian and Ukrainian adjectives agree with their rank: пиковая дама, пиковый туз (never пиковый дама)
_FEMININE_RANKS = ("ДАМА", "КА")
_MASCULINE_RANKS = {"ТУЗ", "КОРОЛЬ", "ВАЛЕТ", "ДЖОКЕР"}
_FOLD = str.maketrans({"Ё": "Е", "'": "\u02bc", "\u2019": "\u02bc"})
SUIT_GLUE = {"OF", "DE"}   # "queen of spades"
CYRILLIC = re.compile(r"[\u0400-\u04FF]")
LATIN = re.compile(r"[A-Z]")
DECKS: dict[str, tuple[list[str], int, int]] = {
    # name: (ranks, copies of each card, jokers)
    "52": (RANK_ORDER, 1, 0),
    "36": (RANK_ORDER[4:], 1, 0),
    "32": (RANK_ORDER[5:], 1, 0),
    "24": (RANK_ORDER[7:], 1, 0),
    "pinochle": (RANK_ORDER[7:], 2, 0),
    "canasta": (RANK_ORDER, 2, 4),
    "52+joker": (RANK_ORDER, 1, 1),
}
GROUPS = re.compile(r"[,;]")   # a comma or semicolon ends a card


@dataclass(frozen=True)
class Deck:
    """Which cards exist in a game, and how many copies of each."""

    ranks: tuple[str, ...]
    copies: int = 1
    jokers: int = 0

    def __contains__(self, card: str) -> bool:
        rank, _suit = split_card(card)
        if rank == "JOKER":
            return self.jokers > 0
        return rank in self.ranks

    def describe(self) -> str:
        low, high = self.ranks[0], self.ranks[-1]
        n = len(self.ranks) * 4 * self.copies
        text = ngettext("{n} card", "{n} cards", n).format(n=n) + f" ({low}..{high}"
        text += ", " + _("{copies} of each").format(copies=self.copies) + ")" if self.copies > 1 else ")"
        if self.jokers:
            text += " + " + ngettext("{n} joker", "{n} jokers", self.jokers).format(n=self.jokers)
        return text


def deck_named(name: str) -> Deck:
    ranks, copies, jokers = DECKS[name]
    return Deck(tuple(ranks), copies, jokers)


def split_card(card: str) -> tuple[str, str | None]:
    """Split a canonical card into rank and suit (None for a plain rank)."""
    if card == "JOKER":
        return card, None
    if card[-1] in SUITS and card[:-1] in RANK_ORDER:
        return card[:-1], card[-1]
    return card, None


@functools.lru_cache(maxsize=4096)  # the card functions of formulas parse the same few words every hand
def parse_card(token: str) -> str:
    """One typed card to canonical text; raises UserError with a sentence if it is not a card.

    A suit letter joins only a rank letter or number (`KS`, `10Ч`, `EP`): a rank word never loses a
    letter to a suit, so `kings` is not K♠ but a plural, refused."""
    raw = token.strip()
    text = raw.upper().translate(_FOLD)
    if text in RANK_WORDS:
        return RANK_WORDS[text]
    if text and text[0] in SUIT_SIGNS and text[1:] in RANK_WORDS:
        text = text[1:] + text[0]
    for cut in range(len(text) - 1, 0, -1):
        rank_text, suit_text = text[:cut], text[cut:]
        if rank_text not in RANK_WORDS or RANK_WORDS[rank_text] == "JOKER":
            continue
        if len(suit_text) > 1:
            suit = SUIT_WORDS.get(suit_text)
        elif suit_text not in SUIT_SIGNS and not _rank_sign(rank_text):
            continue
        elif suit_text in TWO_SUIT_LETTERS:
            _refuse_two_suits(raw, RANK_WORDS[rank_text], suit_text)
        else:
            suit = SUIT_SYMBOLS.get(suit_text)
        if suit is None:
            continue
        _refuse_mixed(raw, rank_text, suit_text)
        return RANK_WORDS[rank_text] + suit
    _refuse_plural(raw, text)
    raise UserError(_("{raw} is not a card (write a rank 2-10, J, Q, K, A with an optional suit S, H, "
                       "D, C or ♠♥♦♣, e.g. QS or 10♥; Russian/Ukrainian В Д К Т with П Ч Б Т, e.g. ДП "
                       "or 10Ч)").format(raw=repr(raw)))


def _rank_sign(rank_text: str) -> bool:
    """A rank written as a letter or a number (`K`, `Д`, `10`), not as a word (`king`)."""
    return len(rank_text) == 1 or rank_text.isdigit()


def _refuse_two_suits(raw: str, rank: str, letter: str) -> None:
    """Estonian R is ruutu or risti: which one is never guessed."""
    first, second = (card_label(rank + suit) for suit in TWO_SUIT_LETTERS[letter])
    raise UserError(_("{raw} reads two ways, as {first} or as {second}: an Estonian R is ruutu (diamonds) or risti "
                      "(clubs); write the suit as D or C, ♦ or ♣, or as a word (ruutu, risti)").format(
                        raw=repr(raw), first=first, second=second))


def _refuse_plural(raw: str, text: str) -> None:
    """`kings`, `tens`, `sixes`: a rank word in the plural says neither how many cards nor which."""
    stems = [text[:-1]] + ([text[:-2]] if text.endswith("ES") else [])
    for stem in stems:
        if text.endswith("S") and stem in RANK_WORDS and not _rank_sign(stem):
            rank = RANK_WORDS[stem]
            raise UserError(_("{raw} is a rank in the plural, not a card: write each card on its own, e.g. "
                              "{example} for two").format(raw=repr(raw), example=f"{rank} {rank}"))


def _refuse_mixed(raw: str, rank_text: str, suit_text: str) -> None:
    """Latin T is a ten, Cyrillic Т an ace: a T next to a suit of the other alphabet is a guess."""
    if rank_text not in ("T", "Т"):
        return
    rank_cyr = rank_text == "Т"
    if (rank_cyr and LATIN.search(suit_text)) or (not rank_cyr and CYRILLIC.search(suit_text)):
        which = _("Cyrillic Т (an ace)") if rank_cyr else _("Latin T (a ten)")
        raise UserError(_("{raw} mixes alphabets: its {which} is followed by the suit {suit_text}; write "
                           "the ace as ТП ТЧ ТБ ТТ or AS AH AD AC, the ten as 10S or 10П").format(
                            raw=repr(raw), which=which, suit_text=repr(suit_text)))


def read_cards(text: str, deck: Deck | None = None) -> list[tuple[str, str]]:
    """A typed list of cards as (what was typed, canonical card) pairs, checked against the deck.

    A rank with a suit word is one card: the word after the rank (`дама пик`, `äss risti`, `queen of
    spades`) or, for an Estonian suit or a Russian or Ukrainian adjective, before it (`poti äss`,
    `пиковая дама`); so is a rank letter with a suit letter of its notation after a space (`Q H`).
    A comma or semicolon always ends a card. Words that read as different cards two ways (`K poti
    äss`: K♠ and an ace, or a king and A♠; `Q S`: Q♠, or a queen and the Estonian jack) are refused
    with both readings, unless the deck holds the cards of only one of them."""
    stripped = text.strip()
    if stripped in ("", "-", "—", "none", "NONE"):
        return []
    out: list[tuple[str, str]] = []
    for group in GROUPS.split(stripped):
        tokens = group.split()
        if tokens:
            out += _read_group(tokens, deck)
    if deck is not None:
        for _typed, card in out:
            if card not in deck:
                raise UserError(_("{value} is not in this game's deck ({value2})").format(
                                    value=card_label(card), value2=deck.describe()))
    return out


Way = tuple[tuple[str, str], ...]   # one way to read some words: (what was typed, card) per card


def _read_group(tokens: list[str], deck: Deck | None) -> list[tuple[str, str]]:
    """The cards of words between two commas: every way to read them is found (at most two that
    differ are kept from each word on), and two that give different cards are refused, unless only
    one of them is all cards of the deck."""
    words = [t.upper().translate(_FOLD) for t in tokens]
    for tok, word in zip(tokens, words, strict=True):
        if not _suit_only(word):
            parse_card(tok)               # not a card at all: its own sentence
    ways = _ways(tokens, words, None)
    if not ways:
        raise UserError(_("{word} is a suit without its rank: write the rank beside it (дама пик, пиковая дама, "
                          "poti äss) and a comma between two cards").format(word=repr(_stray(tokens, words))))
    if len(ways) > 1 and deck is not None:
        possible = _ways(tokens, words, deck)
        if len(possible) == 1:
            return list(possible[0])
    if len(ways) > 1:
        first, second = (" ".join(card_label(c) for _t, c in r) for r in sorted(ways, key=len))
        _refuse_spaced_letter(tokens, words, ways, first, second)
        raise UserError(_("{text} reads two ways, as {first} or as {second}; put a comma between the cards").format(
                            text=repr(" ".join(tokens)), first=first, second=second))
    return list(ways[0])


def _ways(tokens: list[str], words: list[str], deck: Deck | None) -> list[Way]:
    """Up to two ways to read all the words that give different cards (of the deck, if given)."""
    n = len(tokens)
    ways: list[list[Way]] = [[] for _ in range(n)] + [[()]]
    for i in range(n - 1, -1, -1):
        for size, card in _cards_at(tokens, words, i):
            if deck is not None and card not in deck:
                continue
            for rest in ways[i + size]:
                reading = ((" ".join(tokens[i:i + size]), card), *rest)
                if len(ways[i]) < 2 and all(_cards(reading) != _cards(r) for r in ways[i]):
                    ways[i].append(reading)
    return ways[0]


def _suit_only(word: str) -> bool:
    """A word that is a suit and never a card by itself: it needs a rank beside it."""
    return (word in SUIT_WORDS or word in SUIT_GLUE or word in SUIT_SIGNS
            or ((word in SUIT_LETTERS or word in TWO_SUIT_LETTERS) and word not in RANK_WORDS))


def _spaced_suit(rank_word: str, letter: str) -> str | None:
    """The suit a lone letter or sign after a rank gives it, if they are of one notation (`Q H`, `Д П`)."""
    if letter in SUIT_SIGNS:
        return SUIT_SYMBOLS[letter]
    notation = SPACED_SUITS.get(letter)
    if notation is None or not (rank_word.isdigit() or notation in RANK_NOTATIONS.get(rank_word, ())):
        return None
    return SUIT_LETTERS[letter]


def _refuse_spaced_letter(tokens: list[str], words: list[str], ways: list[Way], first: str, second: str) -> None:
    """`Q S`, `К Т`: a letter that is a suit after its rank and a card alone; when a reading takes the
    two as one card, the sentence says which letter and how to write each reading."""
    together = {typed for way in ways for typed, _card in way}
    why = {"S": _("a lone S is spades after a rank and the Estonian jack (soldat) by itself"),
           "Т": _("a lone Т is clubs after a rank and the Russian and Ukrainian ace (туз) by itself")}
    for i in range(len(words) - 1):
        letter = words[i + 1]
        if letter in why and f"{tokens[i]} {tokens[i + 1]}" in together:
            raise UserError(_("{text} reads two ways, as {first} or as {second}: {why}; write {one} for one card or "
                              "{two} for two").format(text=repr(" ".join(tokens)), first=first, second=second,
                                                       why=why[letter], one=tokens[i] + tokens[i + 1],
                                                       two=f"{tokens[i]}, {tokens[i + 1]}"))


def _cards(reading: Way) -> list[str]:
    return sorted(card for _typed, card in reading)


def _cards_at(tokens: list[str], words: list[str], i: int) -> list[tuple[int, str]]:
    """Each card that can begin at word i, with the number of words it takes."""
    word, nxt = words[i], words[i + 1] if i + 1 < len(words) else None
    if word in SUIT_WORDS or word in SUIT_GLUE:
        if word in SUIT_FIRST and nxt is not None and not _suit_only(nxt):
            rank = parse_card(tokens[i + 1])
            if rank in RANK_ORDER and _agree(word, nxt):
                return [(2, rank + SUIT_WORDS[word])]
        return []
    if _suit_only(word):
        return []
    card = parse_card(tokens[i])
    out = [(1, card)]
    if card in RANK_ORDER and nxt is not None:
        if nxt in SUIT_WORDS and _agree(nxt, word):
            out.append((2, card + SUIT_WORDS[nxt]))
        elif nxt in SUIT_GLUE and i + 2 < len(words) and words[i + 2] in SUIT_WORDS:
            out.append((3, card + SUIT_WORDS[words[i + 2]]))
        elif (suit := _spaced_suit(word, nxt)) is not None:
            out.append((2, card + suit))
    return out


def _agree(suit: str, rank: str) -> bool:
    """A Russian or Ukrainian adjective and its rank agree in gender (пиковая дама, пиковый туз);
    a letter, a digit or a word of another language agrees with any."""
    adjective = "f" if suit.endswith(("АЯ", "ОВА")) else "m" if suit.endswith(("ЫЙ", "ИЙ")) else None
    noun = "m" if rank in _MASCULINE_RANKS else "f" if len(rank) > 2 and rank.endswith(_FEMININE_RANKS) else None
    return adjective is None or noun is None or adjective == noun


def _stray(tokens: list[str], words: list[str]) -> str:
    """The suit word where reading stops: the first one no reading from the start gets past."""
    reach = {0}
    for i in range(len(tokens)):
        if i in reach:
            reach |= {i + size for size, _card in _cards_at(tokens, words, i)}
    stuck = max(i for i in reach if i < len(tokens))
    return tokens[stuck]


def parse_cards(text: str, deck: Deck | None = None) -> tuple[str, ...]:
    """A typed list of cards (`-` or empty for none) to canonical cards, checked against the deck."""
    return tuple(card for _typed, card in read_cards(text, deck))


def check_copies(hands: Iterable[tuple[str, ...]], deck: Deck) -> list[str]:
    """Problems when the same exact card (or jokers) appears more often than the deck holds."""
    seen = Counter(card for hand in hands for card in hand)
    problems = []
    for card, n in seen.items():
        rank, suit = split_card(card)
        limit = deck.jokers if rank == "JOKER" else (deck.copies if suit else deck.copies * 4)
        if n > limit:
            problems.append(_("{value} appears {n} times but the deck has {limit}").format(
                                value=card_label(card) if current() == "en" else card_shown(card), n=n, limit=limit))
    return problems


def card_label(card: str) -> str:
    """A card with its suit's sign, in the canonical ranks (what the engine writes into events)."""
    rank, suit = split_card(card)
    return rank if suit is None else rank + SUIT_MARKS[suit]


SUIT_MARKS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# The ranks each language writes with letters of its own (read back by this module); the suits are
# the signs every language reads.
RANK_LETTERS: dict[str, dict[str, str]] = {
    "et": {"J": "S", "Q": "E", "A": "Ä", "JOKER": "jokker"},
    "ru": {"J": "В", "Q": "Д", "K": "К", "A": "Т", "JOKER": "джокер"},
    "uk": {"J": "В", "Q": "Д", "K": "К", "A": "Т", "JOKER": "джокер"},
}


def card_shown(card: str) -> str:
    """A card as a player of the language shown writes it: `QS` is Д♠ in Ukrainian, E♠ in Estonian;
    English keeps the canonical text (QS), which is also what is typed."""
    letters = RANK_LETTERS.get(current())
    if letters is None:
        return card
    rank, suit = split_card(card)
    if rank not in RANK_ORDER and rank != "JOKER":
        return card
    return letters.get(rank, rank) + (SUIT_MARKS[suit] if suit in SUITS else "")


def card_value(card: str, values: Mapping[str, int | float]) -> int | float:
    """The value of one card: its exact entry (QS) first, then its rank (Q), else 0."""
    if card in values:
        return values[card]
    rank, _ = split_card(card)
    return values.get(rank, 0)
