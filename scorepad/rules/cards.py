"""Card notation shared by every ruleset: parsing what players type, decks, and card values.

A card is written as a rank with an optional suit: `Q`, `QS`, `Q♠`, `10h`, `ÄH` (Estonian),
`ДП`, `10Ч`, `ТБ`, `КТ` (Russian and Ukrainian: ranks В Д К Т, suits П Ч Б Т), or in words:
`дама пик`, `туз хреста`, `äss risti`, `queen of spades`. A rank without a suit is an ordinary
card of that rank, so in Skid `Q` is a plain queen and `QS` the queen of spades. Cards are kept as
canonical text: the rank (`2`..`10`, `J`, `Q`, `K`, `A`, `JOKER`) followed by the suit letter `S`,
`H`, `D` or `C` if given.

One letter means different cards in two alphabets: Latin `T` is a ten, Cyrillic `Т` an ace (and,
after a rank, clubs). A token that mixes the two alphabets around that letter (`TБ`, `ТS`) is
refused, and the program always shows how it read the cards typed (`read_cards`).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Mapping

from scorepad.errors import UserError
from scorepad.locale import _, ngettext
from scorepad.record import record

RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["S", "H", "D", "C"]
SUIT_SYMBOLS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C",
                "S": "S", "H": "H", "D": "D", "C": "C"}
SUIT_LETTERS = {"S": "S", "H": "H", "D": "D", "C": "C",
                # Russian / Ukrainian: пики, черви, бубны, трефы (хрести)
                "П": "S", "Ч": "H", "Б": "D", "Т": "C", "Х": "C"}
SUIT_SYMBOLS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C",
                **SUIT_LETTERS}
SUIT_WORDS = {
    # Russian: пики черви бубны трефы, and the forms after a rank (дама пик, туз червей, валет бубен)
    "ПИКИ": "S", "ПИК": "S", "ПИКА": "S", "ЧЕРВИ": "H", "ЧЕРВЫ": "H", "ЧЕРВЕЙ": "H", "ЧЕРВА": "H",
    "БУБНЫ": "D", "БУБЕН": "D", "БУБНА": "D", "ТРЕФЫ": "C", "ТРЕФ": "C", "ТРЕФА": "C",
    # Ukrainian: піки (вини) чирви бубни хрести (трефи), and the forms after a rank (дама пік, туз чирв,
    # валет бубон, король хрестів, король треф, дама вин)
    "ПІКИ": "S", "ПІКА": "S", "ПІК": "S", "ПІКОВА": "S",
    "ВИНИ": "S", "ВИНА": "S", "ВИНЬ": "S", "ВИН": "S", "ЧИРВА": "H", "ЧИРВИ": "H", "ЧИРВ": "H", "ЧИРВОВА": "H",
    "БУБНИ": "D", "БУБОН": "D", "БУБНОВА": "D", "ХРЕСТА": "C", "ХРЕСТИ": "C", "ХРЕСТ": "C", "ХРЕСТІВ": "C",
    "ХРЕСТОВА": "C", "ТРЕФИ": "C", "ТРЕФОВА": "C",
    # Estonian: pada / poti, ärtu, ruutu, risti
    "PADA": "S", "POTI": "S", "ÄRTU": "H", "RUUTU": "D", "RISTI": "C",
    # English
    "SPADES": "S", "SPADE": "S", "HEARTS": "H", "HEART": "H", "DIAMONDS": "D", "DIAMOND": "D",
    "CLUBS": "C", "CLUB": "C",
}
RANK_WORDS = {
    **{r: r for r in RANK_ORDER},
    "T": "10",  # the common one-letter ten
    # Estonian: soldat, emand, kuningas, äss
    "S": "J", "E": "Q", "Ä": "A",
    "ÄSS": "A", "KUNINGAS": "K", "EMAND": "Q", "SOLDAT": "J", "SÕDUR": "J", "POISS": "J",
    # Russian / Ukrainian (Cyrillic): валет, дама, король, туз
    "В": "J", "Д": "Q", "К": "K", "Т": "A",
    "ТУЗ": "A", "КОРОЛЬ": "K", "ДАМА": "Q", "ВАЛЕТ": "J",
    # English words
    "ACE": "A", "KING": "K", "QUEEN": "Q", "JACK": "J", "TEN": "10",
    "JOKER": "JOKER", "JK": "JOKER", "*": "JOKER", "JOKKER": "JOKER", "ДЖОКЕР": "JOKER",
}
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
SPLIT = re.compile(r"[\s,;]+")


@record
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
    """One typed card to canonical text; raises UserError with a sentence if it is not a card."""
    raw = token.strip()
    text = raw.upper()
    if text in RANK_WORDS:
        return RANK_WORDS[text]
    if text and text[0] in "♠♤♥♡♦♢♣♧" and text[1:] in RANK_WORDS:
        text = text[1:] + text[0]
    for cut in range(len(text) - 1, 0, -1):
        rank_text, suit_text = text[:cut], text[cut:]
        suit = SUIT_SYMBOLS.get(suit_text) if len(suit_text) == 1 else SUIT_WORDS.get(suit_text)
        if suit is None or rank_text not in RANK_WORDS or RANK_WORDS[rank_text] == "JOKER":
            continue
        _refuse_mixed(raw, rank_text, suit_text)
        return RANK_WORDS[rank_text] + suit
    raise UserError(_("{raw} is not a card (write a rank 2-10, J, Q, K, A with an optional suit S, H, "
                       "D, C or ♠♥♦♣, e.g. QS or 10♥; Russian/Ukrainian В Д К Т with П Ч Б Т, e.g. ДП "
                       "or 10Ч)").format(raw=repr(raw)))


def _refuse_mixed(raw: str, rank_text: str, suit_text: str) -> None:
    """Latin T is a ten, Cyrillic Т an ace: a T next to a suit of the other alphabet is a guess."""
    if rank_text not in ("T", "Т"):
        return
    rank_cyr = rank_text == "Т"
    if (rank_cyr and LATIN.search(suit_text)) or (not rank_cyr and CYRILLIC.search(suit_text)):
        which = "Cyrillic Т (an ace)" if rank_cyr else "Latin T (a ten)"
        raise UserError(_("{raw} mixes alphabets: its {which} is followed by the suit {suit_text}; write "
                           "the ace as ТП ТЧ ТБ ТТ or AS AH AD AC, the ten as 10S or 10П").format(
                            raw=repr(raw), which=which, suit_text=repr(suit_text)))


def read_cards(text: str, deck: Deck | None = None) -> list[tuple[str, str]]:
    """A typed list of cards as (what was typed, canonical card) pairs, checked against the deck.

    A rank followed by a suit word (`дама пик`, `äss risti`, `queen of spades`) is one card."""
    stripped = text.strip()
    if stripped in ("", "-", "—", "none", "NONE"):
        return []
    tokens = [tok for tok in SPLIT.split(stripped) if tok]
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        card = parse_card(tok)
        step = 1
        nxt = [t.upper() for t in tokens[i + 1:i + 3]]
        if card in RANK_ORDER and nxt:
            if nxt[0] in SUIT_WORDS:
                card, step = card + SUIT_WORDS[nxt[0]], 2
            elif nxt[0] in SUIT_GLUE and len(nxt) > 1 and nxt[1] in SUIT_WORDS:
                card, step = card + SUIT_WORDS[nxt[1]], 3
        out.append((" ".join(tokens[i:i + step]), card))
        i += step
    if deck is not None:
        for _typed, card in out:
            if card not in deck:
                raise UserError(_("{value} is not in this game's deck ({value2})").format(
                                    value=card_label(card), value2=deck.describe()))
    return out


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
                                value=card_label(card), n=n, limit=limit))
    return problems


def card_label(card: str) -> str:
    rank, suit = split_card(card)
    return rank if suit is None else rank + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit]


def card_value(card: str, values: Mapping[str, int | float]) -> int | float:
    """The value of one card: its exact entry (QS) first, then its rank (Q), else 0."""
    if card in values:
        return values[card]
    rank, _ = split_card(card)
    return values.get(rank, 0)
