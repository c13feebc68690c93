"""Words other wordings build on: a card as the reader knows it, lists joined, a capital.

A card has a label (``10♠``), a name for screen readers (``ten of spades``) and a place
in the 4 x 13 tap grid (:func:`card_info`, :func:`card_grid`); in an error worded in the
JSON API's terms (:func:`api_terms`) a card is the code the API takes (``Ah``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from scorekeeper.cards import DECK, SUIT_SYMBOLS, parse_card, parse_cards

from ..i18n import _, current_language
from .card_names import card_words, suit_name

GRID_SUITS = "shdc"
"""Row order of the card grid: spades, hearts, diamonds, clubs (colours alternate)."""


def capfirst(text: str) -> str:
    """The text with its first letter capitalised (a generic label that starts a sentence)."""
    return text[:1].upper() + text[1:]


def card_info(card: Any) -> dict[str, str]:
    """A card as the pages show it, in the request's language: its rank with the letter
    the language's decks print (:mod:`api.pad.card_letters`: ``V♠`` in French), its name
    for screen readers (``ten of spades``).

    >>> card_info("Ts")["label"], card_info("Ts")["name"]
    ('10♠', 'ten of spades')
    """
    card = parse_card(card)
    rank, name, suit = card_words(card.code, current_language())
    return {
        "code": card.code,
        "rank": rank,
        "suit": card.suit,
        "symbol": SUIT_SYMBOLS[card.suit],
        "label": rank + SUIT_SYMBOLS[card.suit],
        "name": name,
        "suit_name": suit,
    }


def cards_info(cards: Any) -> list[dict[str, str]]:
    """:func:`card_info` of each card, in the given order."""
    return [card_info(card) for card in parse_cards(cards)] if cards else []


def card_grid() -> list[dict[str, Any]]:
    """The 4 x 13 tap grid: one row per suit (``GRID_SUITS`` order), ace to king."""
    return [
        {
            "suit": suit,
            "suit_name": suit_name(suit),
            "symbol": SUIT_SYMBOLS[suit],
            "cards": [card_info(card) for card in DECK if card.suit == suit],
        }
        for suit in GRID_SUITS
    ]


_API_TERMS: ContextVar[bool] = ContextVar("api_terms", default=False)


@contextmanager
def api_terms() -> Iterator[None]:
    """Within it, :func:`worded` words an error in the JSON API's terms: cards as the codes
    the API takes (``Ah``, not the scorepad's ``A♥`` or ``V♠``), options by their keys,
    counts given rather than tapped (:func:`api.errors.domain_message`)."""
    token = _API_TERMS.set(True)
    try:
        yield
    finally:
        _API_TERMS.reset(token)


def in_api_terms() -> bool:
    """Whether an error is being worded in the JSON API's terms (within :func:`api_terms`)."""
    return _API_TERMS.get()


def term_label(code: str) -> str:
    """A card as the reader knows it: its code in the API's terms, else its label."""
    return str(code) if in_api_terms() else card_info(code)["label"]


def term_labels(codes: Any) -> str:
    """Cards as the reader knows them (:func:`term_label`), one space apart."""
    return " ".join(term_label(code) for code in codes)


def chained(values: Sequence[Any], join: Callable[[str, str], str]) -> str:
    shown = [str(v) for v in values]
    text = shown[0] if shown else ""
    for value in shown[1:]:
        text = join(text, value)
    return text


def either(values: Sequence[Any]) -> str:
    """``10 or 11`` (``A or B or C``): the values as alternatives."""
    return chained(values, lambda a, b: _("%(first)s or %(second)s", first=a, second=b))


def both(values: Sequence[Any]) -> str:
    """``Ana and Bor`` (``A and B and C``): the values together."""
    return chained(values, lambda a, b: _("%(first)s and %(second)s", first=a, second=b))
