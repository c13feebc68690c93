"""Discarding and going out (RULES.md 4-5): a discard, a knock, gin, big gin; the wall.

:class:`Discarding` plays the actions of the ``discard`` phase on a
:class:`~scorekeeper.drawing.Drawing` deal: a plain discard passes the
turn (or ends the hand void), a knock, gin or big gin opens the showdown.

Choices made where RULES.md is silent (what a careful tournament director
expects):

* **The card just taken** from the discard pile may not be put back in the
  same turn, neither as a plain discard nor as the face-down knock discard
  (``discard_taken: forbidden``, the default; ``allowed`` lifts both, as
  OpenSpiel plays).
* **A repeated discard** (``repeated_discard: void``, possible only with
  ``discard_taken: allowed``): a player takes the top discard (the upcard
  on offer included) and discards it straight back, and the other player
  does the same with it on the very next turn: the deal ends void at that
  second discard, as OpenSpiel ends it.
* **Knock legality** uses the best arrangement of the 10 cards kept; the
  knocker may still lay out another legal arrangement at the showdown. A
  knock with deadwood 0 is gin. Under a knock limit of 0 (straight gin,
  Oklahoma ace) only gin and big gin end the hand. Big gin needs
  ``big_gin_bonus`` set and all 11 cards melded; the 11th card may come
  from the discard pile.
* **Wall, ``void_at_two``** (the default): a plain discard that leaves 2
  cards in the stock ends the hand void. A knock on that turn is allowed.
* **Wall, ``knock_only_at_two``**: after such a discard the next player may
  take the discard only to knock (knock, gin or big gin with it; the card
  taken cannot be the knock discard). If that player cannot knock with it
  the hand is void at once; if they can, the legal actions are
  ``draw discard`` and ``pass``, and ``pass`` voids the hand. The last two
  stock cards are never drawn.
"""

from __future__ import annotations

from .actions import Phase, Verb
from .cards import Card
from .dealing import WALL
from .drawing import Drawing
from .errors import RuleViolation
from .knock import over_limit
from .melds import mask_deadwood, mask_discards


class Discarding(Drawing):
    """A deal whose players discard, knock, go gin or big gin."""

    __slots__ = ()

    def _discard_phase(self, player: int, verb: str, card: Card | None) -> None:
        if verb == Verb.BIG_GIN:
            self._big_gin(player)
            return
        name = self._name(player)
        if card is None:
            what = "draw" if verb in (Verb.DRAW_STOCK, Verb.DRAW_DISCARD) else verb
            raise RuleViolation(
                f"cannot {what} now: {name} has drawn and must discard, knock or go gin",
                code="must_discard",
                params={"player": name, "action": what},
                option="actions",
            )
        if not self.hands[player] & card.bit:
            raise RuleViolation(
                f"cannot {verb} {card}: {name} does not hold it",
                code="card_not_held",
                params={"player": name, "action": verb, "card": card.code},
                option="actions",
            )
        if card.bit & self._taken_bit():
            raise RuleViolation(
                f"cannot {verb} {card}: it was just taken from the discard pile",
                code="card_just_taken",
                params={"player": name, "action": verb, "card": card.code},
                option="actions",
            )
        if verb == Verb.DISCARD:
            self._discard(player, name, card)
        else:
            self._knock(player, verb, card)

    def _big_gin(self, player: int) -> None:
        """``player`` goes big gin: all 11 cards melded, where the rules allow it."""
        if not self.big_gin_allowed:
            raise RuleViolation(
                "cannot go big gin: big gin is not allowed under these"
                " rules (big_gin_bonus is null)",
                code="big_gin_not_allowed",
                option="actions",
            )
        left = mask_deadwood(self.hands[player])
        if left:
            raise RuleViolation(
                f"cannot go big gin: the 11 cards leave deadwood {left}"
                " (big gin needs all 11 cards melded)",
                code="big_gin_deadwood",
                params={"deadwood": left},
                option="actions",
            )
        self._go_out(player, "big_gin", None)

    def _discard(self, player: int, name: str, card: Card) -> None:
        """``player`` (``name``) discards ``card``, a card they hold and may let go; the turn
        passes, or the hand ends void (a repeated discard, the wall)."""
        if self._wall:
            raise RuleViolation(
                f"cannot discard {card}: with {WALL} cards left in the"
                f" stock, {name} took the discard and may only knock with"
                " it",
                code="must_knock",
                params={"player": name, "card": card.code, "left": WALL},
                option="actions",
            )
        self.hands[player] ^= card.bit
        self._pile.append(card)
        straight_back, self._taken = card == self._taken, None
        other = 1 - player
        self.turn = other
        self.phase = Phase.DRAW
        if straight_back and self._repeated and self.rules.repeated_discard == "void":
            self._end_void(
                "repeated_discard",
                f"{card} was taken and discarded straight back twice in a row (repeated_discard)",
            )
            return
        self._repeated = straight_back
        if self._stock_size <= WALL:
            if self.rules.wall == "knock_only_at_two" and self._can_knock_with(other, card):
                self._wall = True
            else:
                self._end_void()

    def _knock(self, player: int, verb: str, card: Card) -> None:
        """``player`` knocks (or goes gin: ``verb``) discarding ``card``, a card they hold and
        may let go, if what is left is within the knock limit (gin: no deadwood)."""
        left = mask_deadwood(self.hands[player] ^ card.bit)
        if verb == Verb.GIN and left:
            raise RuleViolation(
                f"cannot go gin discarding {card}: deadwood {left} (gin needs all 10 cards melded)",
                code="gin_deadwood",
                params={"card": card.code, "deadwood": left},
                option="actions",
            )
        if left > self.knock_limit:
            message, params = over_limit(left, self.knock_limit, self.rules, self.upcard)
            raise RuleViolation(
                f"cannot knock discarding {card}: {message}",
                code="knock_over_limit",
                params={**params, "card": card.code},
                option="actions",
            )
        self._go_out(player, "gin" if left == 0 else "knock", card)

    def _taken_bit(self) -> int:
        """The bit of the card just taken that may not be discarded (0: none, or allowed)."""
        if self._taken is None or self.rules.discard_taken == "allowed":
            return 0
        return self._taken.bit

    def _can_knock_with(self, player: int, card: Card) -> bool:
        """Could ``player`` take ``card`` from the pile and knock (or go gin) with it?"""
        hand = self.hands[player] | card.bit
        if self.big_gin_allowed and mask_deadwood(hand) == 0:
            return True
        limit = self.knock_limit
        kept = 0 if self.rules.discard_taken == "allowed" else card.bit
        return any(left <= limit for _, left in mask_discards(hand, kept))
