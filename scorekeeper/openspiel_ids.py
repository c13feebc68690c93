"""OpenSpiel's gin_rummy in its own terms (issue 11): action ids, card ids, meld ids, parameters.

A history (pyspiel's ``state.history()``) is a list of action ids: a card
id (0-51: ``suit * 13 + rank``, suits ``s c d h``) is a chance outcome (a
card dealt or drawn), a discard or a layoff; :data:`DRAW_UPCARD`,
:data:`DRAW_STOCK`, :data:`PASS` and :data:`KNOCK` are the moves of those
names, and :data:`MELD_BASE` + n lays meld n (:data:`OPENSPIEL_MELDS`).
:func:`openspiel_rules` gives the rules a game's parameters score under.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import RANKS, Card, parse_card
from .errors import RuleError
from .import_faults import ImportFault
from .rules import Rules

DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56
OPENSPIEL_SUITS = "scdh"
OPENSPIEL_PARAMS: dict[str, Any] = {
    "oklahoma": False,
    "knock_card": 10,
    "gin_bonus": 25,
    "undercut_bonus": 25,
    "num_ranks": 13,
    "num_suits": 4,
    "hand_size": 10,
}
"""OpenSpiel's gin_rummy parameters and their defaults."""


def openspiel_card(action: int) -> Card:
    """The card of an OpenSpiel card id (``suit * 13 + rank``, suits ``s c d h``).

    >>> openspiel_card(13), openspiel_card(51)
    (Card('Ac'), Card('Kh'))
    """
    return parse_card(RANKS[action % 13] + OPENSPIEL_SUITS[action // 13])


def _openspiel_melds() -> list[tuple[Card, ...]]:
    """OpenSpiel's 185 meld ids in order: 65 sets, then runs of 3, 4 and 5 cards.

    Sets: ``rank * 5 + s`` is the 3-card set without suit ``s``, ``rank * 5 +
    4`` the 4-card set; runs of n cards: by suit, then by low rank.
    """
    melds: list[tuple[Card, ...]] = []
    for rank in range(13):
        for missing in range(5):
            melds.append(
                tuple(openspiel_card(suit * 13 + rank) for suit in range(4) if suit != missing)
            )
    for size in (3, 4, 5):
        for suit in range(4):
            for low in range(14 - size):
                melds.append(tuple(openspiel_card(suit * 13 + low + i) for i in range(size)))
    return melds


OPENSPIEL_MELDS = _openspiel_melds()


def openspiel_rules(params: Any, line: int = 1) -> Rules:
    """The rules an OpenSpiel game with these parameters is scored under (module docs)."""
    if params is None:
        params = {}
    if not isinstance(params, Mapping):
        raise ImportFault("params must be an object of OpenSpiel game parameters", line=line)
    for key, value in params.items():
        if key not in OPENSPIEL_PARAMS:
            raise ImportFault(
                f"unknown gin_rummy parameter {key!r}; known: {', '.join(OPENSPIEL_PARAMS)}",
                line=line,
            )
        want = type(OPENSPIEL_PARAMS[key])
        if type(value) is not want:
            what = "true or false" if want is bool else "a whole number"
            raise ImportFault(f"parameter {key} must be {what}, not {value!r}", line=line)
    options = {**OPENSPIEL_PARAMS, **params}
    for key in ("num_ranks", "num_suits", "hand_size"):
        if options[key] != OPENSPIEL_PARAMS[key]:
            raise ImportFault(
                f"parameter {key} is {options[key]}: only games of 13 ranks,"
                " 4 suits and hands of 10 cards can be imported",
                line=line,
            )
    try:
        return Rules.preset(
            "openspiel",
            oklahoma=options["oklahoma"],
            knock_limit=10 if options["oklahoma"] else options["knock_card"],
            gin_bonus=options["gin_bonus"],
            undercut_bonus=options["undercut_bonus"],
        )
    except RuleError as error:
        raise ImportFault(f"params: {error}", line=line) from None
