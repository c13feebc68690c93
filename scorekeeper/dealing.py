"""The deal (RULES.md 3): the cards dealt and the state of the table as it is dealt.

:func:`deal_cards` deals a deck; a :class:`Table` holds what is on the
table from then on (both hands, the upcard, the stock, the discard pile,
whose turn it is and the phase), the base of
:class:`~scorekeeper.engine.Deal`. Players are indexes 0 and 1; ``dealer``
is one of them.

A choice made where RULES.md is silent:

* **A partial stock**: a deal may know only the stock cards that were
  drawn (``stock_complete=False``: fewer than 31 listed, top first, e.g. a
  record from another system). The stock still holds 31 cards for the wall;
  drawing past the listed cards raises :class:`RuleError` naming the stock.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Self

from .actions import Phase
from .cards import DECK, FULL_DECK_MASK, Card, cards_mask, mask_cards, parse_card, parse_cards
from .deal_result import DealResult
from .errors import CardError, InvalidValueError
from .rules import Rules

WALL = 2
"""Cards left in the stock when the hand ends void (RULES.md 4)."""

STOCK = 31
"""Cards in the stock after the deal (52 - 2 x 10 - the upcard)."""


def deal_cards(
    deck: Sequence[Card], dealer: int
) -> tuple[list[tuple[Card, ...]], Card, list[Card]]:
    """Deal a 52-card deck (RULES.md 3): ``(hands by player, upcard, stock top first)``.

    One card at a time, alternately, non-dealer first; the 21st card is the
    upcard and the rest the stock.
    """
    hands: list[tuple[Card, ...]] = [(), ()]
    hands[1 - dealer] = tuple(deck[0:20:2])
    hands[dealer] = tuple(deck[1:20:2])
    return hands, deck[20], list(deck[21:])


def _check_dealer(dealer: Any) -> None:
    if dealer not in (0, 1) or isinstance(dealer, bool):
        raise InvalidValueError(
            f"dealer must be 0 or 1, not {dealer!r}",
            params={"value": repr(dealer)},
            option="dealer",
        )


class Table:
    """The cards of one deal and the state of play, from the deal on.

    ``hands`` are the two players' 10 cards (by player index), ``upcard``
    the card turned up, ``stock`` the other 31 cards, top first; cards may
    be codes or :class:`Card`. ``names`` only label messages. ``hands`` holds
    the two current hands as 52-bit masks (:meth:`hand` gives the cards);
    ``dealt`` and ``initial_stock`` keep the cards as dealt. Raises
    :class:`CardError` unless the 52 cards are the deck; with
    ``stock_complete=False`` the stock may list only its first cards (the
    ones drawn), which must then be distinct cards of the deck.
    """

    __slots__ = (
        "_discard_draws",
        "_ending",
        "_history",
        "_knock_discard",
        "_knocker",
        "_passes",
        "_pile",
        "_repeated",
        "_result",
        "_stock",
        "_stock_size",
        "_taken",
        "_void_kind",
        "_void_reason",
        "_wall",
        "big_gin_allowed",
        "dealer",
        "dealt",
        "hands",
        "initial_stock",
        "knock_limit",
        "names",
        "phase",
        "rules",
        "stock_complete",
        "turn",
        "upcard",
    )

    def __init__(
        self,
        hands: Sequence[str | Iterable[str | Card]],
        upcard: str | Card,
        stock: str | Iterable[str | Card],
        *,
        dealer: int = 0,
        rules: Rules | Mapping[str, Any] | str | None = None,
        names: Sequence[str] = ("player 0", "player 1"),
        stock_complete: bool = True,
    ):
        self.rules = Rules.from_dict(rules)
        _check_dealer(dealer)
        if isinstance(hands, str) or not isinstance(hands, Sequence) or len(hands) != 2:
            raise CardError("hands must be two hands of 10 cards", code="bad_cards", field="hands")
        held = [parse_cards(hand, count=10, field=f"hands[{p}]") for p, hand in enumerate(hands)]
        up = parse_card(upcard)
        rest = parse_cards(stock, count=31 if stock_complete else range(32), field="stock")
        masks = [cards_mask(held[0]), cards_mask(held[1])]
        known = masks[0] | masks[1] | up.bit | cards_mask(rest)
        if known != FULL_DECK_MASK and (stock_complete or known.bit_count() != 21 + len(rest)):
            raise CardError(
                "the hands, the upcard and the stock must be the 52 cards of one deck"
                if stock_complete
                else "the hands, the upcard and the stock must be distinct cards of one deck",
                code="not_a_deck",
                field="hands",
            )
        self.stock_complete = stock_complete
        self.dealer = dealer
        self.names = tuple(names)
        self.upcard = up
        self.dealt = (held[0], held[1])
        self.hands = masks
        self.initial_stock = rest
        self._stock = list(reversed(rest))
        self._stock_size = STOCK
        self._void_kind = ""
        self._void_reason = ""
        self._discard_draws = 0
        self._pile = [up]
        self.knock_limit = self.rules.knock_limit_for(up)
        self.big_gin_allowed = self.rules.big_gin_bonus is not None
        self.turn = 1 - dealer
        self.phase = Phase.UPCARD_OFFER
        self._passes = 0
        self._taken: Card | None = None
        self._repeated = False
        self._wall = False
        self._history: list[str] = []
        self._ending: str | None = None
        self._knocker: int | None = None
        self._knock_discard: Card | None = None
        self._result: DealResult | None = None

    # ----------------------------------------------------------------- constructors

    @classmethod
    def from_deck(
        cls,
        deck: str | Iterable[str | Card],
        *,
        dealer: int = 0,
        rules: Rules | Mapping[str, Any] | str | None = None,
        names: Sequence[str] = ("player 0", "player 1"),
    ) -> Self:
        """A deal from 52 cards in dealing order (see :func:`deal_cards`)."""
        cards = parse_cards(deck, count=52, field="deck")
        _check_dealer(dealer)
        hands, upcard, stock = deal_cards(cards, dealer)
        return cls(hands, upcard, stock, dealer=dealer, rules=rules, names=names)

    @classmethod
    def shuffled(
        cls,
        seed: Any,
        *,
        dealer: int | None = None,
        rules: Rules | Mapping[str, Any] | str | None = None,
        names: Sequence[str] = ("player 0", "player 1"),
    ) -> Self:
        """A deal of a deck shuffled by ``random.Random(seed)``.

        ``seed`` may also be a ``random.Random``, which is then used (and
        advanced) as it is, so a caller can go on drawing from it. Without
        ``dealer`` the same generator then cuts for the dealer.
        """
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deck = list(DECK)
        rng.shuffle(deck)
        if dealer is None:
            dealer = rng.randrange(2)
        return cls.from_deck(deck, dealer=dealer, rules=rules, names=names)

    # ----------------------------------------------------------------- state

    @property
    def stock_left(self) -> int:
        """Cards left in the stock."""
        return self._stock_size

    @property
    def stock(self) -> list[str]:
        """The stock's known cards, top first, as codes (all of them unless a partial stock)."""
        return [card.code for card in reversed(self._stock)]

    @property
    def discard_pile(self) -> list[str]:
        """The discard pile, bottom first (the last code is the top card)."""
        return [card.code for card in self._pile]

    @property
    def top(self) -> Card | None:
        """The top card of the discard pile (``None`` if empty)."""
        return self._pile[-1] if self._pile else None

    @property
    def actions(self) -> list[str]:
        """The actions played so far, in canonical text."""
        return list(self._history)

    def hand(self, player: int) -> tuple[Card, ...]:
        """A player's cards, in index order."""
        return mask_cards(self.hands[player])

    def hand_mask(self, player: int) -> int:
        """A player's cards as a 52-bit mask."""
        return self.hands[player]

    def _name(self, player: int) -> str:
        return self.names[player] if player < len(self.names) else f"player {player}"
