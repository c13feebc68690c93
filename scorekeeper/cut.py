"""The cut for the first deal (RULES.md 3): who deals first, and the cards that decided it.

The ``first_dealer`` option decides: ``low`` (the lower card deals) or
``high`` (the higher), ranks running A low to K high, a tie for the deciding
rank cut again; ``random``, a draw by lot. A scorepad or an API call may name
the dealer, or give the cards the players cut; when it names neither, the
service cuts for the players with the random source it is given (the core
draws nothing of its own: the caller passes ``secrets.SystemRandom()``, or a
``random.Random`` seeded so that a repeated request draws the same).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import DECK, Card, parse_cards
from .errors import InvalidValueError, RuleViolation
from .rules import Rules

AnyRules = Rules | Mapping[str, Any] | str | None


@dataclass(frozen=True, slots=True)
class FirstDeal:
    """Who deals first (a player index; four players: that player's team) and the cut that
    decided it, one card per player in player order (``None``: named, or drawn by lot)."""

    dealer: int
    cut: tuple[Card, ...] | None = None

    @property
    def cut_codes(self) -> list[str] | None:
        """The cut as card codes (``["Kc", "3d"]``), as the game records it."""
        return None if self.cut is None else [card.code for card in self.cut]


def draw_cut(rules: AnyRules, rng: random.Random, players: int = 2) -> tuple[Card, ...]:
    """The service cutting for ``players``: one card each (player 0 first) from a shuffled
    deck, everybody cutting again while two or more share the deciding rank.

    >>> cut = draw_cut("standard", random.Random(1), 3)
    >>> len(set(cut)) == 3 and cut_winner("standard", cut) is not None
    True
    """
    while cut_winner(rules, cut := tuple(rng.sample(DECK, players))) is None:
        pass  # a tie: everybody cuts again
    return cut


def cut_winner(rules: AnyRules, cut: Sequence[Card]) -> int | None:
    """Who of the players deals by their cut cards: the lowest (``low``) or highest
    (``high``) rank, A low, K high; ``None`` when two or more share it."""
    ranks = [card.rank for card in cut]
    best = min(ranks) if Rules.from_dict(rules).first_dealer == "low" else max(ranks)
    return ranks.index(best) if ranks.count(best) == 1 else None


def cut_for_dealer(rules: AnyRules, rng: random.Random, players: int = 2) -> int:
    """Who deals first (a player index), by the ``first_dealer`` option, nobody named.

    ``low``/``high``: the service cuts (:func:`draw_cut`). ``random``: a
    fair draw among the ``players`` (a coin toss for two). With four players
    the dealer's team deals first (RULES.md 8).

    >>> cut_for_dealer("standard", random.Random(1)) in (0, 1)
    True
    """
    return first_dealer(rules, players, rng).dealer


def first_dealer(
    rules: AnyRules,
    players: int,
    rng: random.Random,
    *,
    dealer: int | None = None,
    cut: Any = None,
) -> FirstDeal:
    """Who deals first in a game of ``players``, and the cut that decided it (RULES.md 3).

    A named ``dealer`` deals. Otherwise ``cut``, the card each player cut
    (player 0 first), decides by ``first_dealer`` ``low`` or ``high``. With
    neither, under ``random`` the dealer is drawn by lot from ``rng``, and
    under ``low`` or ``high`` the service cuts for the players from ``rng``
    (:func:`draw_cut`). A cut that is not one card per player, under
    ``random``, or that ties for the deciding rank raises, naming ``cut``.

    >>> first_dealer("standard", 2, random.Random(1), cut=["9c", "4d"]).dealer
    1
    >>> first_dealer("standard", 2, random.Random(1), dealer=0)
    FirstDeal(dealer=0, cut=None)
    """
    how = Rules.from_dict(rules).first_dealer
    if dealer is not None:
        return FirstDeal(dealer)
    if how == "random":
        if cut is not None:
            raise InvalidValueError(
                "first_dealer is random: the first dealer is drawn by lot, not cut",
                code="no_cut",
                option="cut",
            )
        return FirstDeal(rng.randrange(players))
    cards = (
        draw_cut(rules, rng, players)
        if cut is None
        else parse_cards(cut, count=players, field="cut")
    )
    winner = cut_winner(rules, cards)
    if winner is None:
        raise RuleViolation(
            f"cut: two players cut the {'lowest' if how == 'low' else 'highest'} rank; cut again",
            code="cut_tie",
            option="cut",
        )
    return FirstDeal(winner, cards)
