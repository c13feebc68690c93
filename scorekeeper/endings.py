"""How a deal ends (RULES.md 4-6): void, or out and scored at the showdown.

:class:`Endings` adds to the :class:`~scorekeeper.dealing.Table` the end of
the hand: a player going out opens the showdown, which
:meth:`~Endings.showdown` scores with :func:`~scorekeeper.knock.verify_knock`;
a void hand ends the deal at once. Either way :attr:`~Endings.result` is
the :class:`~scorekeeper.deal_result.DealResult`.

Choices made where RULES.md is silent:

* **Gin laid out as a knock**: a gin hand laid out with deadwood (declared
  knocker melds that leave some) is scored as the knock it is (RULES.md 5).
* A void hand scores nothing and the same dealer deals again; a tied knock
  under ``tie: no_score`` scores nothing and is a hand played; who deals
  next follows :func:`scorekeeper.sheet.next_dealer`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .actions import Phase
from .cards import Card, mask_cards
from .deal_result import DealResult
from .dealing import WALL, Table
from .errors import RuleViolation
from .knock import verify_knock
from .melds import mask_codes
from .results import Outcome, Side
from .sheet import next_dealer


class Endings(Table):
    """A :class:`~scorekeeper.dealing.Table` that ends: void, or at a scored showdown."""

    __slots__ = ()

    @property
    def over(self) -> bool:
        """True once the hand is void or the showdown has been scored."""
        return self.phase == Phase.OVER

    @property
    def knocker(self) -> int | None:
        """The player who knocked (or went gin), once somebody has."""
        return self._knocker

    @property
    def void(self) -> bool:
        """True when the hand ended void at the wall."""
        return self._ending == "void"

    @property
    def void_kind(self) -> str:
        """Why the hand ended void, as a code (``""`` unless :attr:`void`): ``wall`` (the
        stock is down to :data:`WALL` cards), ``discard_draws`` (the rules'
        ``max_discard_draws``) or ``repeated_discard`` (the top discard thrown straight
        back by both players in turn)."""
        return self._void_kind

    @property
    def void_reason(self) -> str:
        """Why the hand ended void (``""`` unless :attr:`void`): the wall or the draw cap."""
        return self._void_reason

    @property
    def result(self) -> DealResult | None:
        """The scored deal once :attr:`over` (see :meth:`showdown`), else ``None``."""
        return self._result

    def _ended(self) -> str:
        if self._ending == "void":
            return f"it is void ({self._void_reason})"
        # only asked once somebody has ended the hand, so both are set
        assert self._ending is not None and self._knocker is not None
        what = {"knock": "knocked", "gin": "went gin", "big_gin": "went big gin"}[self._ending]
        tail = "" if self.phase == Phase.OVER else "; only the showdown is left"
        return f"{self._name(self._knocker)} {what}{tail}"

    def _go_out(self, player: int, ending: str, card: Card | None) -> None:
        if card is not None:
            self.hands[player] ^= card.bit
        self._ending = ending
        self._knocker = player
        self._knock_discard = card
        self._taken = None
        self._wall = False
        self.phase = Phase.SHOWDOWN

    def _end_void(
        self, kind: str = "wall", reason: str = f"the stock is down to {WALL} cards"
    ) -> None:
        """End the hand void; called while applying the action that voids it.

        The wall or a pass at the wall (``kind`` ``wall``), the capped discard
        draw (``discard_draws``) or a repeated discard (``repeated_discard``),
        in words ``reason``.
        """
        self._ending = "void"
        self._void_kind = kind
        self._void_reason = reason
        self._wall = False
        self._taken = None
        self.phase = Phase.OVER
        self._result = DealResult(
            outcome=None,
            winner=None,
            points=0,
            knocker=None,
            defender=None,
            breakdown=None,
            **self._summary(None, True),
        )

    def _summary(self, winner: int | None, void: bool) -> dict[str, Any]:
        """The :class:`DealResult` fields that tell how the deal went."""
        return {
            "void": void,
            "knocker_player": self._knocker,
            "winner_player": winner,
            "next_dealer": next_dealer(self.rules, self.dealer, winner, void),
            "stock_left": self._stock_size,
            "dealer": self.dealer,
            "upcard": self.upcard.code,
            "knock_limit": self.knock_limit,
            "discard": self._knock_discard.code if self._knock_discard else None,
            "dealt": tuple(tuple(c.code for c in hand) for hand in self.dealt),
            "hands": tuple(tuple(mask_codes(hand)) for hand in self.hands),
            "actions": len(self._history) + (1 if void else 0),
        }

    # ----------------------------------------------------------------- showdown

    def showdown(
        self,
        *,
        knocker_melds: Iterable[Any] | None = None,
        defender_melds: Iterable[Any] | None = None,
        layoffs: Iterable[Any] | None = None,
    ) -> DealResult:
        """Score the showdown after a knock, gin or big gin and end the deal.

        Declared melds and layoffs (as in :func:`verify_knock`) are
        validated; missing ones are chosen optimally. Returns the
        :class:`DealResult`: the ``verify_knock`` result plus ``void``,
        ``knocker_player``, ``winner_player``, ``next_dealer``,
        ``stock_left``, ``dealer``, ``upcard``, ``knock_limit``, ``discard``
        (the knock discard), ``dealt`` and ``hands`` (by player, at the end)
        and ``actions`` (how many were played). Raises :class:`RuleError` or
        :class:`CardError` for bad declarations (the deal stays in the
        showdown phase).
        """
        if self.phase != Phase.SHOWDOWN:
            raise RuleViolation(
                "there is no showdown: nobody has knocked"
                if self.phase != Phase.OVER
                else f"the hand is over: {self._ended()}",
                code="no_showdown" if self.phase != Phase.OVER else "hand_over",
                option="showdown",
            )
        knocker = self._knocker
        assert knocker is not None  # the knock that opened the showdown set it
        defender = 1 - knocker
        result = verify_knock(
            mask_cards(self.hands[knocker]),
            mask_cards(self.hands[defender]),
            rules=self.rules,
            upcard=self.upcard,
            knocker_melds=knocker_melds,
            defender_melds=defender_melds,
            layoffs=layoffs,
        )
        if self._ending == "gin" and result.outcome != Outcome.GIN:
            self._ending = "knock"  # gin laid out as a knock is scored as one (RULES.md 5)
        winner = (
            None
            if result.winner is None
            else {Side.KNOCKER: knocker, Side.DEFENDER: defender}[result.winner]
        )
        self.phase = Phase.OVER
        self._result = DealResult(
            outcome=result.outcome,
            winner=result.winner,
            points=result.points,
            knocker=result.knocker,
            defender=result.defender,
            breakdown=result.breakdown,
            **self._summary(winner, False),
        )
        return self._result
