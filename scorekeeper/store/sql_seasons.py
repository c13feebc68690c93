"""Seasons, as both SQL stores keep them, and what a season's table reads.

* ``seasons``: id, name, first and last day (ISO dates), the table rule,
  ``placement`` (JSON list of points), ``casual_games`` (0 or 1, an INTEGER in
  both backends so one statement serves both), created, and the
  ``Idempotency-Key`` it was created with (unique) and its request's hash.
* ``events_created``: an index of the events by creation time, so a season's
  nights are found by range.
* ``game_results``: each finished game's creation time, players, whether it was
  imported, its winner (seat) and its first two final totals, kept by triggers on
  ``games`` (:func:`sqlite_result_triggers`,
  :data:`POSTGRES_RESULT_TRIGGER`) whatever writes the game (a hand, an undo, a
  correction, an import), and filled from the stored summaries when the table is
  made. A season reads these short rows, not the games': a game's row holds a
  kilobyte of JSON summary (rules included), and reading 9,000 of them cost more
  than the whole table may (measured: 20 ms of SQLite's CPU to read two short
  columns of 9,000 games' rows, 30 ms more to extract their results).

A season's table needs every result of its days: :meth:`SeasonRecords.season_nights`
reads them in three queries (the events of the days; their rounds' byes; every
match with its game's result and the director's end, joined), and
:meth:`SeasonRecords.casual_games` in one (the finished two-player games of no
event).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

from ..events import Event, Format, MatchResult, PlayedRound
from ..seasons import CasualGames, Night, Season, TableRule
from .base import dumps, now
from .refusals import KeyReused, NotFound
from .season_results import StoredSeason
from .sql_part import SqlPart

SEASON_TABLES = (
    "CREATE TABLE seasons (id TEXT PRIMARY KEY, name TEXT NOT NULL, first_day TEXT NOT NULL,"
    " last_day TEXT NOT NULL, table_rule TEXT NOT NULL, placement TEXT NOT NULL,"
    " casual_games INTEGER NOT NULL, created TEXT NOT NULL, idempotency_key TEXT UNIQUE,"
    " request_hash TEXT)",
    "CREATE INDEX events_created ON events (created)",
)
"""The season table and the events' index: the same statements in both backends."""

RESULTS_TABLE = (
    "CREATE TABLE game_results (game_id TEXT PRIMARY KEY REFERENCES games (id),"
    " created TEXT NOT NULL, imported BOOLEAN NOT NULL, seats INTEGER NOT NULL,"
    " first TEXT NOT NULL, second TEXT NOT NULL, winner INTEGER NOT NULL,"
    " final_a INTEGER NOT NULL, final_b INTEGER NOT NULL)",
    "CREATE INDEX game_results_created ON game_results (created)",
)
"""Each finished game's time, whether imported, its number of players and the names in
seats 0 and 1, its winner seat and the first two final totals (both backends)."""

_RESULT_COLUMNS = "game_id, created, imported, seats, first, second, winner, final_a, final_b"
_RESULT_OF = (
    "SELECT {row}.id, {row}.created, {row}.imported, json_array_length({row}.players),"
    " json_extract({row}.players, '$[0]'), json_extract({row}.players, '$[1]'),"
    " json_extract({row}.scored, '$.result.winner'),"
    " json_extract({row}.scored, '$.result.final[0]'),"
    " json_extract({row}.scored, '$.result.final[1]') {source} WHERE {row}.status = 'over'"
    " AND json_extract({row}.scored, '$.result.winner') IS NOT NULL"
)


def sqlite_result_triggers() -> tuple[str, ...]:
    """SQLite's statements filling ``game_results`` from the games stored, then keeping it
    as each game is inserted or changed (a game no longer over loses its row)."""
    insert = f"INSERT INTO game_results ({_RESULT_COLUMNS})"
    keep = f"{insert} {_RESULT_OF.format(row='NEW', source='')};"
    return (
        *RESULTS_TABLE,
        f"{insert} {_RESULT_OF.format(row='games', source='FROM games')}",
        f"CREATE TRIGGER games_result_new AFTER INSERT ON games BEGIN {keep} END",
        "CREATE TRIGGER games_result_change AFTER UPDATE ON games BEGIN"
        f" DELETE FROM game_results WHERE game_id = NEW.id; {keep} END",
    )


_PG_RESULT_OF = (
    "{row}.id, {row}.created, {row}.imported, json_array_length({row}.players::json),"
    " {row}.players::json ->> 0, {row}.players::json ->> 1,"
    " ({result} ->> 'winner')::int, ({result} -> 'final' ->> 0)::int,"
    " ({result} -> 'final' ->> 1)::int"
)
_PG_RESULT = "(games.scored::jsonb -> 'result')"
POSTGRES_RESULT_TRIGGER = (
    *RESULTS_TABLE,
    f"""CREATE FUNCTION keep_game_result() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE result jsonb := NEW.scored::jsonb -> 'result';
        BEGIN
            IF TG_OP = 'UPDATE' THEN
                DELETE FROM game_results WHERE game_id = NEW.id;
            END IF;
            IF NEW.status = 'over' AND result ->> 'winner' IS NOT NULL THEN
                INSERT INTO game_results ({_RESULT_COLUMNS})
                    VALUES ({_PG_RESULT_OF.format(row="NEW", result="result")});
            END IF;
            RETURN NULL;
        END $$""",
    "CREATE TRIGGER games_result AFTER INSERT OR UPDATE ON games"
    " FOR EACH ROW EXECUTE FUNCTION keep_game_result()",
    f"INSERT INTO game_results ({_RESULT_COLUMNS})"
    f" SELECT {_PG_RESULT_OF.format(row='games', result=_PG_RESULT)}"
    " FROM games WHERE status = 'over' AND scored::jsonb #>> '{result,winner}' IS NOT NULL",
)
"""PostgreSQL's statements making and filling ``game_results`` and its trigger."""

_SEASON_COLUMNS = "id, name, first_day, last_day, table_rule, casual_games, placement, created"
INSERT_SEASON = (
    f"INSERT INTO seasons ({_SEASON_COLUMNS}, idempotency_key, request_hash)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id"
)
SELECT_KEYED_SEASON = (
    f"SELECT {_SEASON_COLUMNS}, request_hash FROM seasons WHERE idempotency_key = ?"
)
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
    "SELECT m.event_id, m.round, r.first, r.second,"
    " CASE WHEN r.game_id IS NULL THEN (SELECT g.players FROM games g WHERE g.id = m.game_id)"
    " END, r.winner, r.final_a, r.final_b, x.winner, x.totals"
    " FROM event_matches m JOIN events e ON e.id = m.event_id"
    " LEFT JOIN game_results r ON r.game_id = m.game_id"
    " LEFT JOIN event_match_ends x ON x.game_id = m.game_id"
    f" WHERE {_IN_DAYS} ORDER BY m.event_id, m.round, m.table_no"
)
"""Every match of the nights: a finished game's players and result from ``game_results``
(an unfinished game's players, as JSON, from its row), and the director's end."""
_WON = "CASE r.winner WHEN 0 THEN {0} ELSE {1} END"
SELECT_CASUAL = (
    f"SELECT {_WON.format('r.first', 'r.second')}, {_WON.format('r.second', 'r.first')},"
    f" count(*), sum({_WON.format('r.final_a - r.final_b', 'r.final_b - r.final_a')})"
    " FROM game_results r WHERE r.created >= ? AND r.created < ? AND r.seats = 2"
    " AND NOT r.imported AND NOT EXISTS (SELECT 1 FROM event_matches m WHERE m.game_id = r.game_id)"
    " GROUP BY 1, 2 ORDER BY min(r.created), 1, 2"
)
"""The casual games of the days counted by winner and loser (the name as each game has
it), with the winner's net points; the pair met first comes first."""


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


def _result(players: tuple[str, str], fields: Sequence[Any]) -> MatchResult:
    """A game's result from its players and its ``game_results`` row (winner seat, final
    totals; all ``None``: not over)."""
    winner, first, second = fields
    if winner is None:
        return MatchResult(players)
    return MatchResult(players, (first, second), players[winner])


class SeasonRecords(SqlPart):
    """The store methods of seasons (see the module docs)."""

    def create_season(
        self,
        season_id: str,
        season: Season,
        *,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
    ) -> StoredSeason:
        """Store a new season; returns it as :meth:`season` would.

        With an ``idempotency_key`` already used by the same request (``request_hash``),
        nothing is written and that season is returned; used by another request, it
        raises :class:`~scorekeeper.store.refusals.KeyReused`.
        """
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
            if self._run(conn, INSERT_SEASON, (*row, idempotency_key, request_hash)).fetchall():
                return _season(row)
            found = self._run(conn, SELECT_KEYED_SEASON, (idempotency_key,)).fetchone()
        assert found is not None  # the conflict that skipped the insert
        if found[-1] != request_hash:
            raise KeyReused(
                f"Idempotency-Key {idempotency_key!r} was already used for a different request",
                field="Idempotency-Key",
            )
        return _season(found[:-1])

    def season(self, season_id: str) -> StoredSeason:
        """The season ``season_id``; raises :class:`~scorekeeper.store.refusals.NotFound`."""
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
            matches = self._run(conn, SELECT_NIGHT_MATCHES, days).fetchall()
        rounds_of: dict[str, list[tuple[Any, ...]]] = {}
        for row in rounds:
            rounds_of.setdefault(row[0], []).append(tuple(row))
        matches_of: dict[str, list[tuple[Any, ...]]] = {}
        for row in matches:
            matches_of.setdefault(row[0], []).append(tuple(row))
        return [
            _night(tuple(row), tuple(rounds_of.get(row[0], ())), tuple(matches_of.get(row[0], ())))
            for row in events
        ]

    def casual_games(self, first_day: str, last_day: str) -> list[CasualGames]:
        """The finished two-player games of no event (imported ones left out) created on
        the days from ``first_day`` to ``last_day``, counted by winner and loser, in one
        query."""
        with self._read() as conn:
            rows = self._run(conn, SELECT_CASUAL, day_range(first_day, last_day)).fetchall()
        return [CasualGames(*row) for row in rows]


@lru_cache(maxsize=512)
def _night(
    event: tuple[Any, ...],
    rounds: tuple[tuple[Any, ...], ...],
    matches: tuple[tuple[Any, ...], ...],
) -> Night:
    """A night from its rows: the event's, its rounds' ``(event, number, byes)`` and its
    matches' (:data:`SELECT_NIGHT_MATCHES`).

    Made once per process for each content of its rows (they are the cache's key: a
    result that changes changes them), so a season read again builds none of its
    4,000 matches anew, and the core's memo of each night's standings finds the very
    same night.
    """
    event_id, name, roster, kind, count, created = event
    results: dict[int, list[MatchResult]] = {number: [] for _, number, _ in rounds}
    for _, number, first, second, unfinished, *fields in matches:
        pair = (first, second) if unfinished is None else tuple(json.loads(unfinished)[:2])
        results[number].append(_match(pair, fields))
    played = tuple(
        PlayedRound(tuple(results[number]), tuple(json.loads(byes))) for _, number, byes in rounds
    )
    return Night(
        event_id, name, created[:10], Event(tuple(json.loads(roster)), Format(kind), count), played
    )


def _match(pair: tuple[str, ...], fields: Sequence[Any]) -> MatchResult:
    """A match of two players from its row's result fields and director's end (winner,
    totals)."""
    first, second = pair
    *result, ended_winner, ended_totals = fields
    if ended_winner is not None:
        a, b = json.loads(ended_totals)
        return MatchResult((first, second), (a, b), ended_winner, ended_by_director=True)
    return _result((first, second), result)
