"""A recorded deal's decisions, measured from what the player to act held and had seen.

* **Discards** (a plain discard, or the discard of a knock or gin): the
  deadwood the 10 cards kept leave, against the least any allowed discard
  would have left (``best_deadwood``, ``best_discards``, as
  :func:`~scorekeeper.melds.discard_options` reckons it, the card just
  taken barred unless ``discard_taken`` allows it); ``cost`` is the
  difference.
* **Draws**: taking the stock (or passing the upcard) when the card on the
  discard pile would have made a meld with the hand: ``passed_up`` names
  the card, the meld and the least deadwood taking it would have left.
* **Missed knocks and gins**: a plain discard when a knock was possible
  (``knock_available``: the least deadwood a knock would have left), and a
  plain discard or a knock when gin (or big gin) was possible
  (``gin_available``). Not knocking can be good play; these are facts, not
  verdicts.

:func:`seen_state` is what the player to act holds and sees before acting,
:func:`measured` the decision that action made (never from hidden cards).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .actions import Phase, parse_action
from .cards import DECK, Card
from .engine import Deal
from .melds import codes_of, mask_all_melds, mask_deadwood, mask_discards
from .results import Result


class DecisionKind(StrEnum):
    """What a measured decision was: a draw that passed a meld up, or a discard."""

    DRAW = "draw"
    DISCARD = "discard"
    KNOCK = "knock"
    BIG_GIN = "big_gin"


@dataclass(frozen=True, slots=True)
class Decision(Result):
    """A measured decision: its ``step`` (counted from 0), who made it and the action."""

    step: int
    """Index into actions."""
    player: int
    action: str
    kind: DecisionKind


@dataclass(frozen=True, slots=True)
class PassedUp(Result):
    """The upcard or discard a draw passed up, a meld it makes with the hand, and the
    least deadwood taking it would have left."""

    card: str
    meld: tuple[str, ...]
    deadwood_with_it: int
    """The least deadwood taking it (and discarding the best card) leaves."""


@dataclass(frozen=True, slots=True)
class DrawDecision(Decision):
    """Taking the stock (or passing the upcard) when the card offered made a meld."""

    passed_up: PassedUp


@dataclass(frozen=True, slots=True)
class BigGinDecision(Decision):
    """Going big gin: nothing kept, nothing to lose."""

    deadwood: int
    best_deadwood: int
    cost: int


@dataclass(frozen=True, slots=True)
class DiscardDecision(Decision):
    """A discard (plain, or of a knock or gin) against the best discards.

    ``knock_available`` (the least deadwood a knock would have left) and
    ``gin_available`` are only in :meth:`to_dict` when a knock or gin was
    missed.
    """

    deadwood: int
    """Deadwood of the 10 cards kept."""
    best_deadwood: int
    """The least any allowed discard would have kept."""
    best_discards: tuple[str, ...]
    cost: int
    """deadwood - best_deadwood."""
    knock_available: int | None = None
    """A plain discard when a knock was possible: the least deadwood a knock
    would have kept."""
    gin_available: bool = False
    """Gin was possible and not taken."""

    def to_dict(self) -> dict[str, Any]:
        """The decision's JSON, without the knock or gin it did not miss."""
        data = Result.to_dict(self)
        if self.knock_available is None:
            del data["knock_available"]
        if not self.gin_available:
            del data["gin_available"]
        return data


AnyDecision = DrawDecision | BigGinDecision | DiscardDecision
"""A measured decision of any kind."""


State = tuple[Phase, int, int, Card | None, Card | None, bool]
"""What the player to act holds and sees: phase, seat, hand mask, top discard, the card
just taken, whether the discard pile is closed."""


def seen_state(deal: Deal) -> State:
    """What the player to act holds and sees before acting."""
    top = deal.top
    # the discard pile cannot be taken at the wall (but to knock) nor after two passes
    closed = deal.wall or deal.must_draw_stock
    return (deal.phase, deal.turn, deal.hand_mask(deal.turn), top, deal.taken, closed)


def measured(deal: Deal, before: State, step: int, action: str, player: int) -> AnyDecision | None:
    phase, _, hand, top, taken, closed = before
    verb, card = parse_action(action)
    if phase in (Phase.UPCARD_OFFER, Phase.DRAW):
        if verb == "draw discard" or top is None or closed:
            return None
        made = _meld_with(hand, top)
        if made is None:
            return None
        barred = 0 if deal.rules.discard_taken == "allowed" else top.bit
        least = min(left for _, left in mask_discards(hand | top.bit, barred))
        return DrawDecision(
            step, player, action, DecisionKind.DRAW, PassedUp(top.code, codes_of(made), least)
        )
    if phase != Phase.DISCARD:
        return None
    barred = 0 if taken is None or deal.rules.discard_taken == "allowed" else taken.bit
    options = list(mask_discards(hand, barred))
    best = min(left for _, left in options)
    gin = best == 0 or (deal.big_gin_allowed and mask_deadwood(hand) == 0)
    if verb == "big gin":
        return BigGinDecision(step, player, action, DecisionKind.BIG_GIN, 0, 0, 0)
    assert card is not None  # every other discard-phase action names its card
    kept = mask_deadwood(hand & ~card.bit)
    return DiscardDecision(
        step,
        player,
        action,
        DecisionKind.DISCARD if verb == "discard" else DecisionKind.KNOCK,
        deadwood=kept,
        best_deadwood=best,
        best_discards=tuple(
            DECK[bit.bit_length() - 1].code for bit, left in options if left == best
        ),
        cost=kept - best,
        knock_available=best if verb == "discard" and best <= deal.knock_limit else None,
        gin_available=gin and (verb == "discard" or kept > 0),
    )


def _meld_with(hand: int, card: Card) -> int | None:
    """A meld ``card`` would make with the hand (the longest), or ``None``."""
    melds = [meld for meld in mask_all_melds(hand | card.bit) if meld & card.bit]
    return max(melds, key=lambda meld: meld.bit_count()) if melds else None
