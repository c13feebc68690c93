"""The results of the meld solver (:mod:`scorekeeper.melds`): what ``POST /api/v1/melds``
and ``scorekeeper melds`` answer.

They live apart from the solver so that the compiled build (docs/contributors/compiled.md),
which compiles :mod:`scorekeeper.melds` with mypyc, leaves them ordinary Python classes:
mypyc declares a compiled class's fields as their runtime types (``tuple[str, ...]`` as
``tuple``), which :meth:`~scorekeeper.results.Result.from_dict` and the API's schemas read.
"""

from __future__ import annotations

from dataclasses import dataclass

from .results import Result


@dataclass(frozen=True, slots=True)
class Arrangement(Result):
    """One optimal arrangement: the melds (sets before runs, cards in index order, runs
    whole), the deadwood cards and their count."""

    melds: tuple[tuple[str, ...], ...]
    deadwood_cards: tuple[str, ...]
    deadwood: int


@dataclass(frozen=True, slots=True)
class DiscardOption(Result):
    """The deadwood the 10 cards kept leave when ``discard`` is discarded from 11."""

    discard: str
    deadwood: int


@dataclass(frozen=True, slots=True)
class MeldReport(Result):
    """What to tell someone who shows some cards: every optimal arrangement."""

    arrangements: tuple[Arrangement, ...]


@dataclass(frozen=True, slots=True)
class DiscardReport(MeldReport):
    """The report on 11 cards: the arrangements, and the deadwood left by each discard."""

    discards: tuple[DiscardOption, ...]
