"""`[cards]`: the pack and the cards' values."""

from __future__ import annotations

from typing import Any

import scorepad.rules.cards as cardlib
from scorepad.errors import UserError
from scorepad.locale import N_, Said
from scorepad.rules.format import CARDS
from scorepad.rules.problems import Problems
from scorepad.rules.sections import section


def read_cards(data: dict[str, Any], p: Problems) -> tuple[cardlib.Deck, dict[str, Any]]:
    """The deck (52 cards unless said otherwise) and card values keyed by canonical card or rank."""
    cards = section(data, "cards", CARDS, p)
    deck = cardlib.deck_named("52")
    if "ranks" in cards:
        ranks = cards["ranks"]
        bad = [r for r in ranks if r not in cardlib.RANK_ORDER]
        if bad:
            p.add("cards.ranks", Said(N_("unknown ranks {ranks} (ranks are {known})"), ranks=str(bad),
                                       known=", ".join(cardlib.RANK_ORDER)))
        deck = cardlib.Deck(tuple(r for r in cardlib.RANK_ORDER if r in ranks), cards.get("copies", 1),
                            cards.get("jokers", 0))
    elif "deck" in cards:
        deck = cardlib.deck_named(cards["deck"])
        if "jokers" in cards or "copies" in cards:
            deck = cardlib.Deck(deck.ranks, cards.get("copies", deck.copies), cards.get("jokers", deck.jokers))
    values: dict[str, Any] = {}
    for key, value in cards.get("values", {}).items():
        try:
            canon = cardlib.parse_card(key)
        except UserError:
            p.add(f"cards.values.{key}", Said(N_("is not a card or rank")))
            continue
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            p.add(f"cards.values.{key}", Said(N_("must be a number")))
            continue
        values[canon] = value
    return deck, values
