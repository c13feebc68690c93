"""Drawing (RULES.md 4): the upcard offer, then a card from the stock or the discard pile.

:class:`Drawing` plays the actions of the ``upcard_offer`` and ``draw``
phases on an :class:`~scorekeeper.endings.Endings` deal.

Choices made where RULES.md is silent (what a careful tournament director
expects):

* **Upcard offer.** The non-dealer may ``draw discard`` (take the upcard) or
  ``pass``; then the dealer likewise; after two passes the non-dealer must
  ``draw stock``. Drawing from the stock is not allowed while the upcard is
  on offer. Whoever takes the upcard may not discard it in that turn, and
  may knock or go gin in that very turn (RULES.md 5: "any turn, the first
  included").
* **A cap on discard draws** (``max_discard_draws`` = n): the n-th
  ``draw discard`` of the deal is not made and the deal ends void there.
  Counted as OpenSpiel counts them: draws from the discard pile in the draw
  phase, not the taking of the first upcard during the upcard offer, nor a
  take at the wall (``knock_only_at_two``), which can only end the deal.
"""

from __future__ import annotations

from .actions import Phase, Verb
from .cards import Card
from .dealing import WALL
from .endings import Endings
from .errors import RuleViolation


class Drawing(Endings):
    """A deal whose players draw: the upcard offer and the draw phase."""

    __slots__ = ()

    @property
    def taken(self) -> Card | None:
        """The card taken from the discard pile this turn, which may not be discarded."""
        return self._taken

    @property
    def must_draw_stock(self) -> bool:
        """True when both players passed the upcard and the non-dealer must draw from stock."""
        return self._passes == 2 and self.phase == Phase.DRAW

    @property
    def wall(self) -> bool:
        """True under ``knock_only_at_two`` once the stock is down to 2 cards."""
        return self._wall

    def _offer_phase(self, player: int, verb: str) -> None:
        if verb == Verb.DRAW_DISCARD:
            self._take(player)
        elif verb == Verb.PASS:
            self._passes += 1
            if self._passes == 1:
                self.turn = self.dealer
            else:
                self.turn = 1 - self.dealer
                self.phase = Phase.DRAW
        elif verb == Verb.DRAW_STOCK:
            raise RuleViolation(
                f"cannot draw from the stock during the upcard offer: "
                f"{self._name(player)} may take the upcard (draw discard) or"
                " pass",
                code="upcard_offer",
                params={"player": self._name(player), "action": verb},
                option="actions",
            )
        else:
            raise RuleViolation(
                f"cannot {verb} now: {self._name(player)} must first take the"
                " upcard (draw discard) or pass",
                code="upcard_offer",
                params={"player": self._name(player), "action": verb},
                option="actions",
            )

    def _draw_phase(self, player: int, verb: str) -> None:
        name = self._name(player)
        if verb == Verb.DRAW_STOCK:
            self._draw_stock(player, name)
        elif verb == Verb.DRAW_DISCARD:
            self._draw_discard(player, name)
        elif verb == Verb.PASS:
            if not self._wall:
                raise RuleViolation(
                    f"cannot pass: the upcard offer is over; {name} must draw"
                    " from the stock or the discard pile",
                    code="cannot_pass",
                    params={"player": name},
                    option="actions",
                )
            self._end_void()
        else:
            raise RuleViolation(
                f"cannot {verb} now: {name} must draw first",
                code="must_draw",
                params={"player": name, "action": verb},
                option="actions",
            )

    def _draw_stock(self, player: int, name: str) -> None:
        """``player`` (``name``) draws the stock's next card."""
        if self._wall:
            raise RuleViolation(
                f"cannot draw from the stock: it is down to {WALL} cards;"
                f" {name} may only take the discard to knock, or pass"
                " (the hand is void)",
                code="stock_exhausted",
                params={"player": name, "left": WALL},
                option="actions",
            )
        if not self._stock:
            raise RuleViolation(
                f"cannot draw from the stock: the record lists only"
                f" {len(self.initial_stock)} stock cards and this draw"
                " needs the next one",
                code="stock_not_listed",
                params={"listed": len(self.initial_stock)},
                option="stock",
            )
        card = self._stock.pop()
        self._stock_size -= 1
        self.hands[player] |= card.bit
        self._taken = None
        self._passes = 0
        self.phase = Phase.DISCARD

    def _draw_discard(self, player: int, name: str) -> None:
        """``player`` (``name``) takes the discard pile's top card (or voids the hand: the
        draw ``max_discard_draws`` forbids)."""
        if self._passes == 2:
            raise RuleViolation(
                "cannot draw from the discard pile: both players passed"
                f" the upcard, so {name} must draw from the stock",
                code="must_draw_stock",
                params={"player": name},
                option="actions",
            )
        if not self._pile:
            raise RuleViolation(
                "cannot draw from the discard pile: it is empty",
                code="discard_pile_empty",
                option="actions",
            )
        cap = self.rules.max_discard_draws
        if not self._wall and cap is not None:
            self._discard_draws += 1
            if self._discard_draws == cap:
                self._end_void(
                    "discard_draws",
                    f"this would be draw {cap} from the discard pile (max_discard_draws)",
                )
                return
        self._take(player)

    def _take(self, player: int) -> None:
        card = self._pile.pop()
        self.hands[player] |= card.bit
        self._taken = card
        self.phase = Phase.DISCARD
