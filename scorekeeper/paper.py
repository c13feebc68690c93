"""The score sheet's vocabulary: hand entries, hand records, results and sheets.

The types :func:`~scorekeeper.sheet.score_sheet` and :func:`~scorekeeper.game.apply`
give (each a frozen :class:`~scorekeeper.results.Result` whose ``to_dict()`` is
its JSON); the module docs of :mod:`scorekeeper.sheet` say what they mean.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .results import Outcome, Result

OUTCOMES = tuple(outcome for outcome in Outcome if outcome != Outcome.TIE)
"""The ``outcome`` values of a hand won (a hand entry may also be a ``tie``)."""

TEAMS = ((0, 2), (1, 3))
"""The four-player partnerships: team 0 and team 1, as player indexes."""

COLUMNS = 3
"""The number of games scored at once with Hollywood scoring."""


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Entry(Result):
    """A two-player hand entry: a win (``winner``, ``loser``, ``points``, ``outcome``),
    a tie (``outcome`` ``tie``, nobody wins: ``tie: no_score``) or void.

    ``to_dict()`` is the entry as :func:`score_sheet` takes it:
    ``{"void": true}`` for a void hand, else the four keys (a tie: no
    ``winner`` or ``loser``, 0 points).
    """

    winner: int | None = None
    loser: int | None = None
    points: int = 0
    outcome: Outcome | None = None
    void: bool = False

    def to_dict(self) -> dict[str, Any]:
        """``{"void": True}``, or ``{"winner", "loser", "points", "outcome"}``."""
        if self.void:
            return {"void": True}
        return {
            "winner": self.winner,
            "loser": self.loser,
            "points": self.points,
            "outcome": None if self.outcome is None else self.outcome.value,
        }


@dataclass(frozen=True, slots=True)
class DealEntry(Result):
    """The sheet entry of a four-player deal: one two-player entry per game (its
    ``to_dict()``: ``{"games": [entry, entry]}``)."""

    games: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class Payment(Result):
    """A settlement: ``payer`` pays ``payee`` ``amount`` (rounded half up to cents)."""

    payer: int
    payee: int
    amount: float


@dataclass(frozen=True, slots=True)
class GameResult(Result):
    """The end of one game (see :func:`score_sheet`); sides are players or teams."""

    winner: int
    loser: int | None
    losers: tuple[int, ...]
    totals: tuple[int, ...]
    game_bonus: int
    box_bonus: tuple[int, ...]
    shutout: bool
    final: tuple[int, ...]
    net: int
    nets: tuple[int, ...]
    stake: float | None
    settlement: Payment | tuple[Payment, ...] | None
    """null without a stake; else who pays whom: one payment, or with three players a list of two
    (each loser pays the winner)."""
    shut_out: tuple[int, ...] = ()
    """The losers who won no hand: the shutout doubling applies against each on its own (three
    players: see the sheet's rules).

    (Stored before this field existed, a result reads back with none.)"""


@dataclass(frozen=True, slots=True)
class HollywoodResult(Result):
    """The end of a Hollywood match (all three columns closed); a tie has no winner."""

    winner: int | None
    loser: int | None
    losers: tuple[int, ...]
    totals: tuple[int, ...]
    game_bonuses: tuple[int, ...]
    box_bonus: tuple[int, ...]
    shutouts: tuple[bool, ...]
    column_winners: tuple[int, ...]
    final: tuple[int, ...]
    net: int
    nets: tuple[int, ...]
    stake: float | None
    settlement: Payment | None


@dataclass(frozen=True, slots=True)
class HandBase(Result):
    """The start of every hand record: its number, its dealer and its score."""

    n: int
    dealer: int
    void: bool
    winner: int | None
    loser: int | None
    outcome: Outcome | None
    points: int


@dataclass(frozen=True, slots=True)
class HandRecord(HandBase):
    """A hand of a two-player game: the running totals after it."""

    totals: tuple[int, ...]
    game_over_after: bool


@dataclass(frozen=True, slots=True)
class ThreePlayerHandRecord(HandRecord):
    """A hand of a three-player game: also who sat out (the dealer)."""

    sits_out: int
    """Three players only: the dealer, who sat out."""


@dataclass(frozen=True, slots=True)
class HollywoodHandRecord(HandBase):
    """A Hollywood hand: the columns it went into, opened and closed."""

    columns: tuple[int, ...]
    """Hollywood only: the columns the points went into."""
    opened: int | None
    """Hollywood only: the column this win opened, if any."""
    closed: tuple[int, ...]
    """Hollywood only: the columns this hand closed."""
    totals: tuple[int, ...]
    column_totals: tuple[tuple[int, ...], ...]
    """Hollywood only: each column's totals after the hand."""
    game_over_after: bool


@dataclass(frozen=True, slots=True)
class GameSeat(Result):
    """One of the two games of a four-player deal: its players and its dealer."""

    game: int
    """1 or 2."""
    players: tuple[int, ...]
    dealer: int


@dataclass(frozen=True, slots=True)
class GameRecord(GameSeat):
    """One game of a four-player deal, scored."""

    void: bool
    winner: int | None
    loser: int | None
    outcome: Outcome | None
    points: int


@dataclass(frozen=True, slots=True)
class PartnershipHandRecord(Result):
    """A four-player deal: its two games and what the teams scored."""

    n: int
    dealer: int
    dealer_team: int
    """Four players only: the dealing team."""
    void: bool
    winner: int | None
    loser: int | None
    outcome: Outcome | None
    points: int
    team_points: tuple[int, ...]
    """Four players only: the points of the games each team won."""
    games: tuple[GameRecord, ...]
    """Four players only: the deal's two games."""
    totals: tuple[int, ...]
    game_over_after: bool


@dataclass(frozen=True, slots=True)
class Column(Result):
    """A Hollywood column: a game of its own."""

    game: int
    totals: tuple[int, ...]
    boxes: tuple[int, ...]
    opened: tuple[bool, ...]
    over: bool
    result: GameResult | None
    needed: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SheetHead(Result):
    """What every sheet starts with: players, every rule option, the scoring and the stake."""

    players: tuple[str, ...]
    rules: Mapping[str, Any]
    """Every rule option."""
    scoring: str
    stake: float | None


@dataclass(frozen=True, slots=True)
class Sheet(SheetHead):
    """A two- or three-player sheet (single scoring)."""

    hands: tuple[HandRecord | ThreePlayerHandRecord, ...]
    totals: tuple[int, ...]
    boxes: tuple[int, ...]
    needed: tuple[int, ...]
    next_dealer: int
    over: bool
    result: GameResult | None


@dataclass(frozen=True, slots=True)
class HollywoodSheet(SheetHead):
    """A Hollywood sheet: three columns scored at once."""

    hands: tuple[HollywoodHandRecord, ...]
    columns: tuple[Column, ...]
    """Hollywood only: the three columns, each a game of its own."""
    opened: tuple[tuple[int, ...], ...]
    """Hollywood only: per player, the columns opened."""
    totals: tuple[int, ...]
    boxes: tuple[int, ...]
    needed: tuple[int, ...]
    next_dealer: int
    over: bool
    result: HollywoodResult | None


@dataclass(frozen=True, slots=True)
class PartnershipSheet(SheetHead):
    """A four-player sheet: totals and the result per team."""

    teams: tuple[tuple[int, ...], ...]
    """Four players only: the partnerships, [[0, 2], [1, 3]]; totals, boxes, needed and the
    result are per team."""
    hands: tuple[PartnershipHandRecord, ...]
    totals: tuple[int, ...]
    boxes: tuple[int, ...]
    needed: tuple[int, ...]
    next_dealer: int
    next_games: tuple[GameSeat, ...]
    """Four players only: the next deal's two games, in the order a deal's games are
    entered."""
    over: bool
    result: GameResult | None


AnySheet = Sheet | HollywoodSheet | PartnershipSheet
"""What :func:`score_sheet` returns."""

AnyHandRecord = HandRecord | ThreePlayerHandRecord | HollywoodHandRecord | PartnershipHandRecord
"""A hand record of any sheet (each has ``n``, ``dealer``, ``points`` and ``totals``)."""
