"""The results of knock verification (:mod:`scorekeeper.knock`): what ``POST /api/v1/verify``
and ``scorekeeper verify`` answer, and their parts.

They live apart from the verifier so that the compiled build (docs/contributors/compiled.md),
which compiles :mod:`scorekeeper.knock` with mypyc, leaves them ordinary Python classes:
mypyc declares a compiled class's fields as their runtime types (``Side | None`` as
``type``), which :meth:`~scorekeeper.results.Result.from_dict` and the API's schemas read.
"""

from __future__ import annotations

from dataclasses import dataclass

from .results import Outcome, Result, Side


@dataclass(frozen=True, slots=True)
class Breakdown(Result):
    """How a hand's points were made: ``(difference + bonus) x multiplier``."""

    difference: int
    bonus: int
    multiplier: int


@dataclass(frozen=True, slots=True)
class Score(Result):
    """The score of a showdown (:func:`score_hand`); ``winner`` is ``None`` for a tie."""

    outcome: Outcome
    winner: Side | None
    points: int
    breakdown: Breakdown


@dataclass(frozen=True, slots=True)
class KnockerHand(Result):
    """The knocker's cards as laid out: melds, deadwood cards and deadwood count."""

    cards: tuple[str, ...]
    melds: tuple[tuple[str, ...], ...]
    deadwood_cards: tuple[str, ...]
    deadwood: int


@dataclass(frozen=True, slots=True)
class Layoff(Result):
    """A defender's card laid off on one of the knocker's melds."""

    card: str
    meld: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DefenderHand(Result):
    """The defender's cards: own melds, layoffs, what is left, and the optimal deadwood."""

    cards: tuple[str, ...]
    melds: tuple[tuple[str, ...], ...]
    layoffs: tuple[Layoff, ...]
    deadwood_cards: tuple[str, ...]
    deadwood: int
    best_deadwood: int
    """What an optimal defender would have had."""


@dataclass(frozen=True, slots=True)
class KnockResult(Result):
    """A verified and scored knock (:func:`verify_knock`); ``winner`` ``None`` for a tie."""

    outcome: Outcome
    winner: Side | None
    """The winning side; null for a tie that scores nothing."""
    points: int
    knocker: KnockerHand
    defender: DefenderHand
    breakdown: Breakdown


@dataclass(frozen=True, slots=True)
class KnockArrangement(Result):
    """One legal way for the knocker to lay the hand down (:func:`knock_arrangements`).

    ``outcome`` and ``points`` (the knocker's: + won, - lost, 0 for a tie)
    are what it scores against the defender's best reply: own melds and
    ``layoffs`` chosen to leave ``defender_deadwood``, the least possible.
    """

    melds: tuple[tuple[str, ...], ...]
    deadwood_cards: tuple[str, ...]
    deadwood: int
    outcome: Outcome
    points: int
    defender_deadwood: int
    layoffs: tuple[Layoff, ...]
