"""A club's season: the club nights (and casual games) of its dates as one league table.

A :class:`Season` is a name, a first and a last day (both counted), the table
rule the club picks (:class:`TableRule`) and whether the casual games of
those dates count. :func:`season_table` ranks the players of the season's
nights (:class:`Night`: an event and its rounds as played so far, each night
ranked by :func:`scorekeeper.event_standings.standings`) and casual games
(:class:`CasualGames`: the finished two-player games of no event on the season's
days, counted by winner and loser):

* ``wins``: by match wins (``points`` is the match wins: the nights' wins,
  byes included, and each casual game won), then net points (own final total
  minus the opponent's, casual games included), then head to head;
* ``placement``: each night gives placement points by the place in its
  standings (by default 10-8-6-5-4-3-2-1, then 0; players sharing a place
  each get that place's points), then the nights' match wins, net points and
  head to head break ties. Casual games give no placement points: they are
  counted beside (``casual_played``, ``casual_won``) and rank nobody.

Head to head counts, among the players level on every earlier measure, the
matches each won against the others of that group (in the matches the table
counts). Players level on everything share a rank. Each line says which
measure put the line above it ahead (``tie_break``) when both have the same
``points``.

Two names are one player when they :func:`~scorekeeper.names.fold` alike;
the line keeps the name as first met (nights in date order, then casual games).

>>> from scorekeeper.events import Format, MatchResult
>>> season = Season("Spring", "2026-03-01", "2026-05-31", TableRule.WINS, False)
>>> event = Event(("Ana", "Bor"), Format.ROUND_ROBIN)
>>> night = Night("e1", "Night 1", "2026-03-04", event,
...     (PlayedRound((MatchResult(("Ana", "Bor"), (130, 20), "Ana"),)),))
>>> [(line.rank, line.player, line.points) for line in season_table(season, [night], [])]
[(1, 'Ana', 1), (2, 'Bor', 0)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from functools import lru_cache
from itertools import groupby, pairwise
from typing import NamedTuple

from .errors import InvalidValueError
from .event_standings import Standing, standings
from .events import Event, PlayedRound
from .names import MAX_NAME_LENGTH, fold
from .results import Result

DEFAULT_PLACEMENT = (10, 8, 6, 5, 4, 3, 2, 1)
"""Placement points per night by place (first to eighth); every later place scores 0."""

MAX_PLACES = 128
"""The longest list of placement points (an event takes at most 128 players)."""

MAX_PLACE_POINTS = 1000
"""The most placement points one place may give."""


class TableRule(StrEnum):
    """How a season's table ranks its players."""

    WINS = "wins"
    PLACEMENT = "placement"


class Measure(StrEnum):
    """A measure a season's table ranks by (in the rule's order, :data:`MEASURES`)."""

    POINTS = "points"
    NET_POINTS = "net_points"
    WON = "won"
    HEAD_TO_HEAD = "head_to_head"


MEASURES = {
    TableRule.WINS: (Measure.POINTS, Measure.NET_POINTS, Measure.HEAD_TO_HEAD),
    TableRule.PLACEMENT: (Measure.POINTS, Measure.WON, Measure.NET_POINTS, Measure.HEAD_TO_HEAD),
}
"""Each rule's measures, in order: the first ranks, the others break ties."""


def _day(value: object, option: str) -> date:
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise InvalidValueError(
        f"{option}: a date as YYYY-MM-DD, not {value!r}",
        code="bad_date",
        params={"value": str(value)},
        option=option,
    )


@dataclass(frozen=True, slots=True)
class Season(Result):
    """A season's settings: the days are ISO dates (``2026-03-01``), both counted.

    >>> Season("Spring", "2026-05-31", "2026-03-01", TableRule.WINS, False)
    Traceback (most recent call last):
    ...
    scorekeeper.errors.InvalidValueError: last_day: 2026-03-01 is before the first day, 2026-05-31
    """

    name: str
    first_day: str
    last_day: str
    table: TableRule
    casual_games: bool
    """Whether the casual games of the season's dates count (see the module docs)."""
    placement: tuple[int, ...] = DEFAULT_PLACEMENT
    """Placement points per night by place, first place first (``placement`` rule);
    every later place scores 0."""

    def __post_init__(self) -> None:
        if not self.name.strip() or len(self.name) > MAX_NAME_LENGTH:
            raise InvalidValueError(
                f"name: a season's name is 1 to {MAX_NAME_LENGTH} characters",
                code="season_name",
                params={"max": MAX_NAME_LENGTH},
                option="name",
            )
        first, last = _day(self.first_day, "first_day"), _day(self.last_day, "last_day")
        if last < first:
            raise InvalidValueError(
                f"last_day: {last} is before the first day, {first}",
                code="last_before_first",
                option="last_day",
                params={"first_day": str(first), "last_day": str(last)},
            )
        if not isinstance(self.table, TableRule):
            raise InvalidValueError(
                f"table: wins or placement, not {self.table!r}",
                code="unknown_table_rule",
                params={"table": str(self.table)},
                option="table",
            )
        _check_placement(self.placement)

    def covers(self, day: str) -> bool:
        """Whether the ISO date ``day`` is one of the season's days."""
        return self.first_day <= day <= self.last_day


def _check_placement(points: Sequence[int]) -> None:
    if (
        not 1 <= len(points) <= MAX_PLACES
        or not all(type(p) is int and 0 <= p <= MAX_PLACE_POINTS for p in points)
        or any(a < b for a, b in pairwise(points))
    ):
        raise InvalidValueError(
            f"placement: 1 to {MAX_PLACES} whole numbers from {MAX_PLACE_POINTS} down to 0,"
            " none above the one before (first place first)",
            code="bad_placement",
            option="placement",
            params={"max": MAX_PLACE_POINTS, "places": MAX_PLACES},
        )


@dataclass(frozen=True, slots=True)
class Night:
    """A club night of a season: its event's id, name and day, and its rounds so far."""

    id: str
    name: str
    day: str
    event: Event
    played: tuple[PlayedRound, ...]


class CasualGames(NamedTuple):
    """The casual games (finished two-player games of no event) one player won against
    another on the season's days: how many, and the winner's net points over them (own
    final totals minus the loser's; a box bonus may make it negative). A plain tuple: the
    store counts them by pair, so a season of thousands of games reads a few hundred."""

    winner: str
    loser: str
    games: int
    net_points: int


@dataclass(frozen=True, slots=True)
class SeasonLine(Result):
    """One line of a season's table."""

    rank: int
    player: str
    events: int
    """The club nights the player was on the roster of."""
    won: int
    """Matches won, byes included (casual games too under the wins rule)."""
    net_points: int
    """Own final total minus the opponent's, summed over the matches counted."""
    points: int
    """What the table ranks by first: match wins (wins rule) or placement points."""
    played: int
    lost: int
    casual_played: int
    """Casual games of the season's dates played (0 when the season leaves them out)."""
    casual_won: int
    head_to_head: int
    """Matches won against the players level on every earlier measure."""
    tie_break: Measure | None
    """The measure that put the line above ahead when both have the same points (null:
    the points did, or the two share a rank)."""


@dataclass(slots=True)
class _Tally:
    """One player's running counts while the table is built."""

    name: str
    key: str
    events: int = 0
    won: int = 0
    lost: int = 0
    played: int = 0
    net_points: int = 0
    points: int = 0
    casual_played: int = 0
    casual_won: int = 0
    head_to_head: int = 0

    def value(self, measure: Measure) -> int:
        return int(getattr(self, measure.value))


@dataclass(slots=True)
class _Table:
    """The tallies by folded name and who beat whom, as the nights and games are added."""

    season: Season
    tallies: dict[str, _Tally] = field(default_factory=dict)
    named: dict[str, _Tally] = field(default_factory=dict)
    """The tallies by name as written (each spelling folded once)."""
    beat: Counter[tuple[str, str]] = field(default_factory=Counter)

    def tally(self, name: str) -> _Tally:
        found = self.named.get(name)
        if found is None:
            key = fold(name)
            found = self.tallies.get(key)
            if found is None:
                found = self.tallies[key] = _Tally(name, key)
            self.named[name] = found
        return found

    def add_night(self, night: Night) -> None:
        placement = self.season.table is TableRule.PLACEMENT
        places = self.season.placement
        for line in _night_standings(night.event, night.played):
            tally = self.tally(line.player)
            tally.events += 1
            tally.won += line.won
            tally.lost += line.lost
            tally.played += line.played
            tally.net_points += line.net_points
            if placement and line.rank <= len(places):
                tally.points += places[line.rank - 1]
        for round_ in night.played:
            for match in round_.matches:
                if match.winner is not None and match.loser is not None:
                    self.beat[self.tally(match.winner).key, self.tally(match.loser).key] += 1

    def add_casual(self, games: CasualGames) -> None:
        winner, loser, count = self.tally(games.winner), self.tally(games.loser), games.games
        winner.casual_played += count
        winner.casual_won += count
        loser.casual_played += count
        if self.season.table is not TableRule.WINS:
            return
        winner.played += count
        winner.won += count
        winner.net_points += games.net_points
        loser.played += count
        loser.lost += count
        loser.net_points -= games.net_points
        self.beat[winner.key, loser.key] += count


@lru_cache(maxsize=256)
def _night_standings(event: Event, played: tuple[PlayedRound, ...]) -> tuple[Standing, ...]:
    """A night's standings, computed once per process for each state of its results (the
    events and their results are frozen, so equal ones give equal standings): a season
    of 40 nights read again costs a comparison per night, not 40 rankings."""
    return tuple(standings(event, played))


def season_table(
    season: Season, nights: Sequence[Night], casual: Sequence[CasualGames]
) -> list[SeasonLine]:
    """The season's table (see the module docs): only the nights of the season's days
    count, and the ``casual`` games (the caller's, of those days) only when the season
    takes them."""
    table = _Table(season)
    for night in sorted(nights, key=lambda n: n.day):
        if season.covers(night.day):
            table.add_night(night)
    if season.casual_games:
        for games in casual:
            table.add_casual(games)
    if season.table is TableRule.WINS:
        for tally in table.tallies.values():
            tally.points = tally.won
    ordered = _ranked(table, MEASURES[season.table])
    return _lines(ordered, MEASURES[season.table])


def _ranked(table: _Table, measures: Sequence[Measure]) -> list[_Tally]:
    """The tallies best first: by the measures before head to head, then head to head
    within each group level on all of them; equal players keep the order first met."""
    before = [m for m in measures if m is not Measure.HEAD_TO_HEAD]

    def level(tally: _Tally) -> tuple[int, ...]:
        return tuple(tally.value(m) for m in before)

    ordered = sorted(table.tallies.values(), key=level, reverse=True)
    for _, group in groupby(ordered, key=level):
        members = list(group)
        for tally in members:
            tally.head_to_head = sum(table.beat[tally.key, other.key] for other in members)
    return sorted(ordered, key=lambda t: (*level(t), t.head_to_head), reverse=True)


def _lines(ordered: Sequence[_Tally], measures: Sequence[Measure]) -> list[SeasonLine]:
    lines: list[SeasonLine] = []
    for place, tally in enumerate(ordered, 1):
        above = ordered[place - 2] if place > 1 else None
        rank, tie_break = place, None
        if above is not None:
            differ = [m for m in measures if above.value(m) != tally.value(m)]
            if not differ:
                rank = lines[-1].rank
            elif differ[0] is not Measure.POINTS:
                tie_break = differ[0]
        lines.append(
            SeasonLine(
                rank=rank,
                player=tally.name,
                events=tally.events,
                won=tally.won,
                net_points=tally.net_points,
                points=tally.points,
                played=tally.played,
                lost=tally.lost,
                casual_played=tally.casual_played,
                casual_won=tally.casual_won,
                head_to_head=tally.head_to_head,
                tie_break=tie_break,
            )
        )
    return lines
