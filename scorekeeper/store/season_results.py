"""A stored season and its answers as typed results (:class:`~scorekeeper.results.Result`).

:mod:`scorekeeper.store.seasons` answers with these frozen dataclasses; each
one's ``to_dict()`` is the JSON the API gives (the API derives their response
schemas from them, :mod:`api.season_schemas`). The field docstrings are the
schemas' descriptions.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..results import Result
from ..seasons import Measure, Season, SeasonLine, TableRule


@dataclass(frozen=True, slots=True)
class StoredSeason(Result):
    """A season as stored: its id, its settings and when it was made."""

    id: str
    name: str
    first_day: str
    """The first day counted (YYYY-MM-DD, UTC)."""
    last_day: str
    """The last day counted (YYYY-MM-DD, UTC)."""
    table: TableRule
    """wins: match wins, then net points, then head to head; placement: placement points
    per night, then match wins, net points, head to head."""
    casual_games: bool
    """Whether the finished two-player games of no event on the season's days count."""
    placement: tuple[int, ...]
    """Placement points per night by place, first place first; later places score 0."""
    created: str

    @property
    def season(self) -> Season:
        """The core season (its settings)."""
        return Season(
            self.name, self.first_day, self.last_day, self.table, self.casual_games, self.placement
        )


@dataclass(frozen=True, slots=True)
class SeasonNight(Result):
    """A club night of a season: its event's id, name and day."""

    id: str
    name: str
    day: str
    """The day the event was created (YYYY-MM-DD, UTC): the day that places it in a season."""


@dataclass(frozen=True, slots=True)
class SeasonView(StoredSeason):
    """A season and the club nights of its days, in date order."""

    nights: tuple[SeasonNight, ...]


@dataclass(frozen=True, slots=True)
class SeasonTable(Result):
    """A season's table: its rule, the measures it ranks by and its lines, best first."""

    id: str
    name: str
    rule: TableRule
    measures: tuple[Measure, ...]
    """The measures in ranking order: the first ranks, the others break ties (a line's
    tie_break names the one that separated it from the line above)."""
    nights: int
    """The club nights counted."""
    casual_games: int
    """The casual games counted (0 when the season leaves them out)."""
    table: tuple[SeasonLine, ...]


@dataclass(frozen=True, slots=True)
class SeasonList(Result):
    """The seasons, the latest first day first."""

    seasons: tuple[StoredSeason, ...]
