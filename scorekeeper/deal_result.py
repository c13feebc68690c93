"""A deal once over: :class:`DealResult`, its showdown and how the deal went."""

from __future__ import annotations

from dataclasses import dataclass

from .knock import Breakdown, DefenderHand, KnockerHand, KnockResult
from .results import Outcome, Result, Side


@dataclass(frozen=True, slots=True)
class DealResult(Result):
    """A deal once over (:attr:`Deal.result`): the showdown and how the deal went.

    The showdown fields are those of a
    :class:`~scorekeeper.knock.KnockResult`; a void hand has ``outcome``,
    ``winner``, ``knocker``, ``defender`` and ``breakdown`` ``None`` and
    ``points`` 0. ``dealt`` and ``hands`` are by player (as dealt, at the
    end), ``actions`` how many were played.
    """

    outcome: Outcome | None
    winner: Side | None
    points: int
    knocker: KnockerHand | None
    defender: DefenderHand | None
    breakdown: Breakdown | None
    void: bool
    knocker_player: int | None
    winner_player: int | None
    next_dealer: int
    stock_left: int
    dealer: int
    upcard: str
    knock_limit: int
    discard: str | None
    dealt: tuple[tuple[str, ...], ...]
    """Each player's 10 cards as dealt."""
    hands: tuple[tuple[str, ...], ...]
    """Each player's cards at the end."""
    actions: int
    """Actions played."""

    @property
    def showdown(self) -> KnockResult | None:
        """The showdown part as a :class:`~scorekeeper.knock.KnockResult` (``None`` if void)."""
        if (
            self.outcome is None
            or self.knocker is None
            or self.defender is None
            or self.breakdown is None
        ):
            return None
        return KnockResult(
            outcome=self.outcome,
            winner=self.winner,
            points=self.points,
            knocker=self.knocker,
            defender=self.defender,
            breakdown=self.breakdown,
        )
