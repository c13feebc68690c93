"""Cards and domain errors as the scorepad writes them for people.

A card has a label (``10♠``), a name for screen readers (``ten of spades``)
and a place in the 4 x 13 tap grid; an error from the domain is reworded
for the player who caused it (:func:`friendly`). The other ``pad_`` modules
and ``api/pad.py`` write cards and errors only through these.
"""

from __future__ import annotations

import re
from typing import Any

from scorekeeper.cards import DECK, RANKS, SUIT_NAMES, SUIT_SYMBOLS, parse_card, parse_cards

GRID_SUITS = "shdc"
"""Row order of the card grid: spades, hearts, diamonds, clubs (colours alternate)."""


def card_info(card: Any) -> dict[str, str]:
    """A card as the pages show it.

    >>> card_info("Ts")["label"], card_info("Ts")["name"]
    ('10♠', 'ten of spades')
    """
    card = parse_card(card)
    rank = RANKS[card.rank]
    return {
        "code": card.code,
        "rank": "10" if rank == "T" else rank,
        "suit": card.suit,
        "symbol": SUIT_SYMBOLS[card.suit],
        "label": ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card.suit],
        "name": card.name,
        "suit_name": SUIT_NAMES[card.suit],
    }


def cards_info(cards: Any) -> list[dict[str, str]]:
    """:func:`card_info` of each card, in the given order."""
    return [card_info(card) for card in parse_cards(cards)] if cards else []


def card_grid() -> list[dict[str, Any]]:
    """The 4 x 13 tap grid: one row per suit (``GRID_SUITS`` order), ace to king."""
    return [{"suit": suit, "suit_name": SUIT_NAMES[suit], "symbol": SUIT_SYMBOLS[suit],
             "cards": [card_info(card) for card in DECK if card.suit == suit]}
            for suit in GRID_SUITS]


_CODE = re.compile(r"\b([A2-9TJQK])([cdhs])\b")


def friendly(error: BaseException) -> str:
    """A domain error message in words a player understands.

    Strips the field prefix (the message is shown next to the field), and
    writes card codes with suit symbols (``T♠`` becomes ``10♠``).
    """
    message = str(error.args[0]) if error.args else str(error)
    message = re.sub(r"^(knocker|defender|upcard|record)(\[\d+\])?: ", "", message)
    message = re.sub(r"^expected 10 or 11 cards, got (\d+)$",
                     r"Tap 10 cards (11 for big gin); \1 tapped so far.", message)
    message = re.sub(r"^expected 10 cards, got (\d+)$", r"Tap 10 cards; \1 tapped so far.",
                     message)
    message = re.sub(r"^deadwood (\d+) exceeds the knock limit 0 set by the upcard (\S+): ",
                     r"These cards leave \1 deadwood; under the upcard \2 ", message)
    message = re.sub(r"^deadwood (\d+) exceeds the knock limit 0: ",
                     r"These cards leave \1 deadwood: ", message)
    message = re.sub(r"^deadwood (\d+) exceeds the knock limit (\d+) (set by the upcard \S+)$",
                     r"These cards leave \1 deadwood; a knock needs \2 or less (\3)", message)
    message = re.sub(r"^deadwood (\d+) exceeds the knock limit (\d+)",
                     r"These cards leave \1 deadwood; a knock needs \2 or less", message)
    message = _CODE.sub(lambda m: card_info(m.group(0))["label"], message)
    message = message[:1].upper() + message[1:]
    return message if message.endswith((".", "!", "?")) else message + "."
