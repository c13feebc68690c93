"""Seasons, as both SQL stores keep them, and what a season's table reads.

* ``seasons``: id, name, first and last day (ISO dates), the table rule,
  ``placement`` (JSON list of points), ``casual_games`` (0 or 1, an INTEGER in
  both backends so one statement serves both) and created.
* ``events_created``: an index of the events by creation time, so a season's
  nights are found by range.

A season's table needs every result of its days: :meth:`SeasonRecords.season_nights`
reads them in three queries (the events of the days; their rounds' byes; every
match with its game's result and the director's end, joined), and
:meth:`SeasonRecords.casual_games` in one (the finished two-player games of no
event). A game's result is read inside the database from its stored summary
(:data:`SeasonRecords.RESULT_FIELDS`: the winner's seat and the two final
totals), not as its whole JSON: 9,000 summaries decoded in Python would cost
more than the whole table.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import date, timedelta
from typing import Any

from ..events import Event, Format, MatchResult, PlayedRound
from ..gamesheet import GameStatus
from ..seasons import CasualGame, Night, Season, TableRule
from .base import NotFound, column, dumps, now
from .season_results import StoredSeason

SEASON_TABLES = (
    "CREATE TABLE seasons (id TEXT PRIMARY KEY, name TEXT NOT NULL, first_day TEXT NOT NULL,"
    " last_day TEXT NOT NULL, table_rule TEXT NOT NULL, placement TEXT NOT NULL,"
    " casual_games INTEGER NOT NULL, created TEXT NOT NULL)",
    "CREATE INDEX events_created ON events (created)",
)
"""The season table and the events' index: the same statements in both backends."""

_SEASON_COLUMNS = "id, name, first_day, last_day, table_rule, casual_games, placement, created"
INSERT_SEASON = f"INSERT INTO seasons ({_SEASON_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
SELECT_SEASON = f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE id = ?"
SELECT_SEASONS = f"SELECT {_SEASON_COLUMNS} FROM seasons ORDER BY first_day DESC, created DESC"
SELECT_SEASONS_OF_DAY = (
    f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE first_day <= ? AND last_day >= ?"
    " ORDER BY first_day DESC, created DESC"
)
_IN_DAYS = "e.created >= ? AND e.created < ?"
SELECT_NIGHTS = (
    "SELECT e.id, e.name, e.players, e.format, e.rounds, e.created FROM events e"
    f" WHERE {_IN_DAYS} ORDER BY e.created, e.id"
)
SELECT_NIGHT_ROUNDS = (
    "SELECT r.event_id, r.number, r.byes FROM event_rounds r JOIN events e ON e.id = r.event_id"
    f" WHERE {_IN_DAYS} ORDER BY r.event_id, r.number"
)
SELECT_NIGHT_MATCHES = (
    "SELECT m.event_id, m.round, g.players, g.status, {result}, x.winner, x.totals"
    " FROM event_matches m JOIN events e ON e.id = m.event_id"
    " JOIN games g ON g.id = m.game_id LEFT JOIN event_match_ends x ON x.game_id = m.game_id"
    f" WHERE {_IN_DAYS} ORDER BY m.event_id, m.round, m.table_no"
)
SELECT_CASUAL = (
    "SELECT g.players, g.created, {result} FROM games g"
    " WHERE g.created >= ? AND g.created < ? AND g.status = ? AND NOT g.imported"
    " AND NOT EXISTS (SELECT 1 FROM event_matches m WHERE m.game_id = g.id)"
    " ORDER BY g.created, g.id"
)


def day_range(first_day: str, last_day: str) -> tuple[str, str]:
    """The stored times (ISO text) from the start of ``first_day`` to before the day after
    ``last_day``: both days counted.

    >>> day_range("2026-03-01", "2026-03-31")
    ('2026-03-01', '2026-04-01')
    """
    after = date.fromisoformat(last_day) + timedelta(days=1)
    return first_day, after.isoformat()


def _season(row: Sequence[Any]) -> StoredSeason:
    sid, name, first, last, rule, casual, placement, created = row
    return StoredSeason(
        sid, name, first, last, TableRule(rule), bool(casual), tuple(json.loads(placement)), created
    )


def _result(players: tuple[str, str], over: bool, fields: Sequence[Any]) -> MatchResult:
    """A game's result from its players and its summary's winner seat and final totals."""
    winner, first, second = fields
    if not over or winner is None:
        return MatchResult(players)
    return MatchResult(players, (int(first), int(second)), players[int(winner)])


class SeasonRecords(ABC):
    """The store methods of seasons (see the module docs)."""

    RESULT_FIELDS = (
        "json_extract(g.scored, '$.result.winner'), json_extract(g.scored, '$.result.final[0]'),"
        " json_extract(g.scored, '$.result.final[1]')"
    )
    """The SQL of a game's winner seat and two final totals, read from its summary (``g``);
    SQLite's JSON functions here, PostgreSQL's operators in its store."""

    @abstractmethod
    def _read(self) -> AbstractContextManager[Any]:
        """A connection for one read."""

    @abstractmethod
    def _snapshot(self) -> AbstractContextManager[Any]:
        """A connection for several reads that see one moment."""

    @abstractmethod
    def _write(self) -> AbstractContextManager[Any]:
        """A connection in one write transaction, committed if the body returns."""

    @abstractmethod
    def _run(self, conn: Any, statement: str, params: Sequence[Any] = ()) -> Any:
        """Execute ``statement`` (``?`` placeholders) on ``conn``; returns its cursor."""

    def create_season(self, season_id: str, season: Season) -> StoredSeason:
        """Store a new season; returns it as :meth:`season` would."""
        row = (
            season_id,
            season.name,
            season.first_day,
            season.last_day,
            season.table.value,
            int(season.casual_games),
            dumps(list(season.placement)),
            now(),
        )
        with self._write() as conn:
            self._run(conn, INSERT_SEASON, row)
        return _season(row)

    def season(self, season_id: str) -> StoredSeason:
        """The season ``season_id``; raises :class:`~scorekeeper.store.base.NotFound`."""
        with self._read() as conn:
            row = self._run(conn, SELECT_SEASON, (season_id,)).fetchone()
        if row is None:
            raise NotFound(f"no season {season_id!r}", field="season_id")
        return _season(row)

    def seasons(self, day: str | None = None) -> list[StoredSeason]:
        """Every season (or those whose days hold the ISO date ``day``), the latest first
        day first."""
        with self._read() as conn:
            if day is None:
                rows = self._run(conn, SELECT_SEASONS).fetchall()
            else:
                rows = self._run(conn, SELECT_SEASONS_OF_DAY, (day, day)).fetchall()
        return [_season(row) for row in rows]

    def season_nights(self, first_day: str, last_day: str) -> list[Night]:
        """The events created on the days from ``first_day`` to ``last_day`` (both
        counted), each with its rounds as played so far, in three queries."""
        days = day_range(first_day, last_day)
        with self._snapshot() as conn:
            events = self._run(conn, SELECT_NIGHTS, days).fetchall()
            rounds = self._run(conn, SELECT_NIGHT_ROUNDS, days).fetchall()
            matches = self._run(
                conn, SELECT_NIGHT_MATCHES.format(result=self.RESULT_FIELDS), days
            ).fetchall()
        played: dict[str, list[tuple[list[MatchResult], tuple[str, ...]]]] = {}
        numbers: dict[tuple[str, int], list[MatchResult]] = {}
        for event_id, number, byes in rounds:
            results: list[MatchResult] = []
            numbers[event_id, number] = results
            played.setdefault(event_id, []).append((results, tuple(json.loads(byes))))
        for row, players in zip(matches, column([row[2] for row in matches]), strict=True):
            numbers[row[0], row[1]].append(_match(tuple(players), row[3:]))
        return [
            Night(
                event_id,
                name,
                created[:10],
                Event(tuple(json.loads(roster)), Format(kind), count),
                tuple(PlayedRound(tuple(r), byes) for r, byes in played.get(event_id, ())),
            )
            for event_id, name, roster, kind, count, created in events
        ]

    def casual_games(self, first_day: str, last_day: str) -> list[CasualGame]:
        """The finished two-player games of no event (imported ones left out) created on
        the days from ``first_day`` to ``last_day``, in one query."""
        days = day_range(first_day, last_day)
        statement = SELECT_CASUAL.format(result=self.RESULT_FIELDS)
        with self._read() as conn:
            rows = self._run(conn, statement, (*days, GameStatus.OVER.value)).fetchall()
        return list(_casual(rows))


def _match(players: tuple[str, ...], fields: Sequence[Any]) -> MatchResult:
    """A match from its row's status, result fields and director's end (winner, totals)."""
    pair = (players[0], players[1])
    status, *result, ended_winner, ended_totals = fields
    if ended_winner is not None:
        first, second = json.loads(ended_totals)
        return MatchResult(pair, (first, second), ended_winner, ended_by_director=True)
    return _result(pair, status == GameStatus.OVER.value, result)


def _casual(rows: Sequence[Sequence[Any]]) -> Iterator[CasualGame]:
    for row, players in zip(rows, column([row[0] for row in rows]), strict=True):
        if len(players) == 2:
            yield CasualGame(row[1][:10], _result((players[0], players[1]), True, row[2:]))
