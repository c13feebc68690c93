"""Cards' names as people say them (a screen reader's ``ten of spades``, the upcard list).

A card's name is the catalog's ``%(rank)s of %(suit)s`` with the rank's and the suit's
names in it. Where a language names the suit with an adjective that agrees with the
rank's noun, :data:`SUIT_ADJECTIVES` gives the suit's form for each gender and
:data:`RANK_GENDERS` each rank noun's gender (by default the first gender listed):
Slovenian says *srčev as*, *srčeva dama*, *pikov kralj*, *karo as*, *križev fant* (the
rank nouns as, fant and kralj are masculine; dama and dvojka ... desetka feminine; karo
does not decline).
"""

from __future__ import annotations

from functools import cache

from ..i18n import pgettext
from .card_letters import shown_rank

SUIT_ADJECTIVES: dict[str, dict[str, dict[str, str]]] = {
    "sl": {
        "f": {"c": "križeva", "d": "karo", "h": "srčeva", "s": "pikova"},
        "m": {"c": "križev", "d": "karo", "h": "srčev", "s": "pikov"},
    },
}
"""Per language whose suit names agree with the rank, the suit's adjective for each
gender of the rank's noun."""

RANK_GENDERS: dict[str, dict[str, str]] = {"sl": {"A": "m", "J": "m", "K": "m"}}
"""Per language of :data:`SUIT_ADJECTIVES`, the ranks whose noun is not of its first gender."""


def _rank_names() -> dict[str, str]:
    # Translators: a rank as it is named in a card's name ("ten" of "ten of spades").
    return {
        "A": pgettext("rank", "ace"),
        "2": pgettext("rank", "two"),
        "3": pgettext("rank", "three"),
        "4": pgettext("rank", "four"),
        "5": pgettext("rank", "five"),
        "6": pgettext("rank", "six"),
        "7": pgettext("rank", "seven"),
        "8": pgettext("rank", "eight"),
        "9": pgettext("rank", "nine"),
        "T": pgettext("rank", "ten"),
        "J": pgettext("rank", "jack"),
        "Q": pgettext("rank", "queen"),
        "K": pgettext("rank", "king"),
    }


def _suit_names() -> dict[str, str]:
    # Translators: a suit as it is named in a card's name ("spades" of "ten of spades").
    return {
        "c": pgettext("suit in a card's name", "clubs"),
        "d": pgettext("suit in a card's name", "diamonds"),
        "h": pgettext("suit in a card's name", "hearts"),
        "s": pgettext("suit in a card's name", "spades"),
    }


def _suit_in_name(rank: str, suit: str, lang: str) -> str:
    adjectives = SUIT_ADJECTIVES.get(lang)
    if adjectives is None:
        return _suit_names()[suit]
    return adjectives[RANK_GENDERS[lang].get(rank, next(iter(adjectives)))][suit]


def suit_name(suit: str) -> str:
    """A suit's name as a heading of its cards (the grid's rows): ``spades``."""
    # Translators: the name of a suit heading its cards (a row of the card grid).
    names = {
        "c": pgettext("suit", "clubs"),
        "d": pgettext("suit", "diamonds"),
        "h": pgettext("suit", "hearts"),
        "s": pgettext("suit", "spades"),
    }
    return names[suit]


@cache
def card_words(code: str, lang: str) -> tuple[str, str, str]:
    """The rank shown, the name and the suit's name of the card ``code`` in ``lang`` (the
    request's): worded once per process, the catalogs do not change while it runs."""
    rank, suit = code[0], code[1]
    # Translators: a card's name, read out by screen readers: "ten of spades".
    name = pgettext(
        "card",
        "%(rank)s of %(suit)s",
        rank=_rank_names()[rank],
        suit=_suit_in_name(rank, suit, lang),
    )
    return shown_rank(rank, lang), name, suit_name(suit)
