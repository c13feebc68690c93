"""Cards and domain errors as the scorepad writes them for people.

A card has a label (``10♠``), a name for screen readers (``ten of spades``)
and a place in the 4 x 13 tap grid; an error from the domain is reworded
for the player who caused it (:func:`friendly`). The other ``pad_`` modules
and ``api/pad.py`` write cards and errors only through these.

Player names are written isolated, so that a name in a right-to-left
script (or any name) can never reorder the text around it: in HTML in a
``<bdi>`` element (:func:`bdi`, also the templates' ``bdi`` filter), in
displayed plain text (a page title, a tooltip) between U+2068 FIRST STRONG
ISOLATE and U+2069 POP DIRECTIONAL ISOLATE (:func:`isolated`, the
``isolated`` filter). Text that is read out but never laid out (an
``aria-label``, an SVG ``<desc>``) keeps the bare name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from scorekeeper.cards import DECK, RANKS, SUIT_NAMES, SUIT_SYMBOLS, parse_card, parse_cards

GRID_SUITS = "shdc"
"""Row order of the card grid: spades, hearts, diamonds, clubs (colours alternate)."""


def bdi(name: str) -> Markup:
    """A name for HTML: ``<bdi>name</bdi>``, the name escaped."""
    return Markup("<bdi>{}</bdi>").format(name)


def isolated(name: str) -> str:
    """A name for plain text: between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE."""
    return f"\u2068{name}\u2069"


def game_title(names: Sequence[str]) -> str:
    """A game's plain-text title (a page's ``<title>``): ``Ana vs Bor``, names isolated."""
    return " vs ".join(isolated(name) for name in names)


def capfirst(text: str) -> str:
    """The text with its first letter capitalised (a generic label that starts a sentence)."""
    return text[:1].upper() + text[1:]


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
