"""Card notation shared by every ruleset: parsing what players type, decks, and card values.

A card is written as a rank with an optional suit: `Q`, `QS`, `Q♠`, `10h`, `ÄH` (Estonian),
`ДП`-style Cyrillic ranks (В Д К Т). A rank without a suit is an ordinary card of that rank, so in
Skid `Q` is a plain queen and `QS` the queen of spades. Cards are kept as canonical text: the rank
(`2`..`10`, `J`, `Q`, `K`, `A`, `JOKER`) followed by the suit letter `S`, `H`, `D` or `C` if given.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scorepad.errors import UserError

RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["S", "H", "D", "C"]
SUIT_SYMBOLS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C",
                "S": "S", "H": "H", "D": "D", "C": "C"}
RANK_WORDS = {
    **{r: r for r in RANK_ORDER},
    "T": "10",  # the common one-letter ten
    # Estonian: soldat, emand, kuningas, äss
    "S": "J", "E": "Q", "Ä": "A",
    # Russian / Ukrainian (Cyrillic): валет, дама, король, туз
    "В": "J", "Д": "Q", "К": "K", "Т": "A",
    "JOKER": "JOKER", "JK": "JOKER", "*": "JOKER", "JOKKER": "JOKER", "ДЖОКЕР": "JOKER",
}
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
        text = f"{len(self.ranks) * 4 * self.copies} cards ({low}..{high}"
        text += f", {self.copies} of each)" if self.copies > 1 else ")"
        if self.jokers:
            text += f" + {self.jokers} joker{'s' if self.jokers > 1 else ''}"
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


def parse_card(token: str) -> str:
    """One typed card to canonical text; raises UserError with a sentence if it is not a card."""
    raw = token.strip()
    text = raw.upper()
    if text in RANK_WORDS:
        return RANK_WORDS[text]
    if text and text[0] in "♠♤♥♡♦♢♣♧" and text[1:] in RANK_WORDS:
        text = text[1:] + text[0]
    if len(text) >= 2 and text[-1] in SUIT_SYMBOLS and text[:-1] in RANK_WORDS:
        rank = RANK_WORDS[text[:-1]]
        if rank != "JOKER":
            return rank + SUIT_SYMBOLS[text[-1]]
    raise UserError(f"{raw!r} is not a card (write a rank 2-10, J, Q, K, A with an optional "
                    "suit S, H, D, C or ♠♥♦♣, e.g. QS or 10♥)")


def parse_cards(text: str, deck: Deck | None = None) -> tuple[str, ...]:
    """A typed list of cards (`-` or empty for none) to canonical cards, checked against the deck."""
    stripped = text.strip()
    if stripped in ("", "-", "—", "none", "NONE"):
        return ()
    cards = tuple(parse_card(tok) for tok in SPLIT.split(stripped) if tok)
    if deck is not None:
        for card in cards:
            if card not in deck:
                raise UserError(f"{card_label(card)} is not in this game's deck ({deck.describe()})")
    return cards


def check_copies(hands: Iterable[tuple[str, ...]], deck: Deck) -> list[str]:
    """Problems when the same exact card (or jokers) appears more often than the deck holds."""
    seen = Counter(card for hand in hands for card in hand)
    problems = []
    for card, n in seen.items():
        rank, suit = split_card(card)
        limit = deck.jokers if rank == "JOKER" else (deck.copies if suit else deck.copies * 4)
        if n > limit:
            problems.append(f"{card_label(card)} appears {n} times but the deck has {limit}")
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
