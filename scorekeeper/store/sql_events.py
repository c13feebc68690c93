"""Events, as both SQL stores keep them: their tables, their rows, rounds and matches (each
match an ordinary stored game) and the matches their director ended.

:class:`EventRows` is the part of :class:`~scorekeeper.store.sql.SqlStore` that reads and
writes them: a round's new matches are new games (:class:`~.sql_creating.GameCreation`),
an event's roster is :class:`~.sql_roster.EventRoster`'s.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from ..events import Format
from ..names import name_key
from ..rules import Rules
from .base import GAME_COLUMNS, StoredGame, dumps, dumps_in_order, game_from_row, now
from .event_types import (
    Adjudicate,
    CheckWithdrawal,
    MatchEnd,
    MatchEvent,
    NewMatch,
    StoredEvent,
    StoredRound,
)
from .refusals import NotFound
from .sql_clock import clock_of
from .sql_creating import GameCreation
from .sql_rights import SELECT_GAME_EVENT
from .sql_roster import SELECT_ROSTER, EventRoster, roster_of, walkovers_of

EVENT_TABLES = (
    "CREATE TABLE events (id TEXT PRIMARY KEY, name TEXT NOT NULL, players TEXT NOT NULL,"
    " format TEXT NOT NULL, rounds INTEGER, rules TEXT NOT NULL, stake DOUBLE PRECISION,"
    " token_hash TEXT NOT NULL, created TEXT NOT NULL, idempotency_key TEXT UNIQUE,"
    " request_hash TEXT)",
    "CREATE TABLE event_rounds (event_id TEXT NOT NULL REFERENCES events (id),"
    " number INTEGER NOT NULL, byes TEXT NOT NULL, created TEXT NOT NULL,"
    " PRIMARY KEY (event_id, number))",
    "CREATE TABLE event_matches (event_id TEXT NOT NULL, round INTEGER NOT NULL,"
    " table_no INTEGER NOT NULL, game_id TEXT NOT NULL UNIQUE REFERENCES games (id),"
    " PRIMARY KEY (event_id, round, table_no),"
    " FOREIGN KEY (event_id, round) REFERENCES event_rounds (event_id, number))",
)
"""The event tables: the same statements in both backends (PostgreSQL's schema 7)."""
INSERT_EVENT = (
    "INSERT INTO events (id, name, players, format, rounds, rules, stake, token_hash, created,"
    " idempotency_key, request_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (idempotency_key) DO NOTHING RETURNING id"
)
SELECT_KEYED_EVENT = "SELECT id, request_hash FROM events WHERE idempotency_key = ?"
SELECT_EVENT = (
    "SELECT id, name, players, format, rounds, rules, stake, token_hash, created"
    " FROM events WHERE id = ?"
)
SELECT_EVENT_GAMES = (
    f"SELECT {GAME_COLUMNS} FROM event_matches JOIN games ON games.id = event_matches.game_id"
    " WHERE event_matches.event_id = ?"
)
"""The games of an event's matches, in one query (``games``' columns need no prefix:
``event_matches`` has none of their names)."""
SELECT_EVENT_ROUNDS = (
    "SELECT number, byes, clock_started, clock_minutes, walkovers FROM event_rounds"
    " WHERE event_id = ? ORDER BY number"
)
SELECT_EVENT_MATCHES = (
    "SELECT round, table_no, game_id FROM event_matches WHERE event_id = ? ORDER BY round, table_no"
)
INSERT_EVENT_ROUND = (
    "INSERT INTO event_rounds (event_id, number, byes, walkovers, created) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT DO NOTHING RETURNING number"
)
INSERT_EVENT_MATCH = (
    "INSERT INTO event_matches (event_id, round, table_no, game_id) VALUES (?, ?, ?, ?)"
)
MATCH_END_TABLE = (
    "CREATE TABLE event_match_ends (game_id TEXT PRIMARY KEY"
    " REFERENCES event_matches (game_id), winner TEXT NOT NULL, totals TEXT NOT NULL,"
    " ended TEXT NOT NULL)"
)
"""The matches ended by their event's director (their winner, totals as JSON and time):
the same statement in both backends (SQLite's schema 9, PostgreSQL's 8)."""
SELECT_MATCH_ENDS = (
    "SELECT e.game_id, e.winner, e.totals, e.ended FROM event_match_ends e"
    " JOIN event_matches m ON m.game_id = e.game_id WHERE m.event_id = ?"
)
SELECT_EVENT_GAME = "SELECT 1 FROM event_matches WHERE event_id = ? AND game_id = ?"
DELETE_ROUND_MATCHES = "DELETE FROM event_matches WHERE event_id = ? AND round = ?"
DELETE_ROUND = "DELETE FROM event_rounds WHERE event_id = ? AND number = ?"
SELECT_MATCH_END = "SELECT winner, totals, ended FROM event_match_ends WHERE game_id = ?"
INSERT_MATCH_END = (
    "INSERT INTO event_match_ends (game_id, winner, totals, ended) VALUES (?, ?, ?, ?)"
)


def _match_end(row: Sequence[Any]) -> MatchEnd:
    """A match's end from its row's ``winner, totals, ended``."""
    winner, totals, ended = row
    first, second = json.loads(totals)
    return MatchEnd(winner, (first, second), ended)


class EventRows(GameCreation, EventRoster):
    """The store methods of events (see the module docs)."""

    def create_event(
        self,
        *,
        event_id: str,
        name: str,
        players: Sequence[str],
        format: Format,
        rounds: int | None,
        rules: Rules,
        stake: float | None,
        token_hash: str,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
    ) -> StoredEvent:
        """Store a new event; returns it as :meth:`event` would.

        With an ``idempotency_key`` already used by the same request
        (``request_hash``), nothing is written and that event is returned;
        used by another request, it raises :class:`KeyReused`.
        """
        row = (
            event_id,
            name,
            dumps(list(players)),
            format.value,
            rounds,
            dumps_in_order(rules.to_dict()),
            stake,
            token_hash,
            now(),
            idempotency_key,
            request_hash,
        )
        with self._write() as conn:
            if not self._run(conn, INSERT_EVENT, row).fetchall():
                event_id = self._keyed(conn, SELECT_KEYED_EVENT, idempotency_key, request_hash)
            return self._event(conn, event_id)

    def event(self, event_id: str) -> StoredEvent:
        """The event ``event_id`` with its paired rounds; raises :class:`NotFound`."""
        with self._snapshot() as conn:
            return self._event(conn, event_id)

    def _event(self, conn: Any, event_id: str) -> StoredEvent:
        row = self._run(conn, SELECT_EVENT, (event_id,)).fetchone()
        if row is None:
            raise NotFound(f"no event {event_id!r}", field="event_id")
        matches: dict[int, list[tuple[int, str]]] = {}
        for number, table, game_id in self._run(conn, SELECT_EVENT_MATCHES, (event_id,)):
            matches.setdefault(number, []).append((table, game_id))
        paired = tuple(
            StoredRound(
                number,
                tuple(json.loads(byes)),
                tuple(matches.get(number, ())),
                clock_of(started, minutes),
                walkovers_of(walkovers),
            )
            for number, byes, started, minutes, walkovers in self._run(
                conn, SELECT_EVENT_ROUNDS, (event_id,)
            )
        )
        late, entered, withdrawn = roster_of(self._run(conn, SELECT_ROSTER, (event_id,)).fetchall())
        ended = {
            row[0]: _match_end(row[1:]) for row in self._run(conn, SELECT_MATCH_ENDS, (event_id,))
        }
        return StoredEvent(
            id=row[0],
            name=row[1],
            players=(*json.loads(row[2]), *late),
            format=Format(row[3]),
            rounds=row[4],
            rules=Rules.from_dict(json.loads(row[5])),
            stake=row[6],
            token_hash=row[7],
            created=row[8],
            paired=paired,
            ended=ended,
            entered=entered,
            withdrawn=withdrawn,
        )

    def event_games(self, event_id: str) -> list[StoredGame]:
        """The games of the event's paired matches, in one query (:data:`SELECT_EVENT_GAMES`)."""
        with self._snapshot() as conn:
            return [game_from_row(row) for row in self._run(conn, SELECT_EVENT_GAMES, (event_id,))]

    def _match_event(self, conn: Any, game_id: str) -> MatchEvent | None:
        """The event the game is a match of, read on ``conn`` (``None``: no event)."""
        row = self._run(conn, SELECT_GAME_EVENT, (game_id,)).fetchone()
        if row is None:
            return None
        return MatchEvent(self._event(conn, row[0]), lambda other: self._game(conn, other))

    def add_round(
        self,
        event_id: str,
        number: int,
        byes: Sequence[str],
        matches: Sequence[NewMatch],
        *,
        rules: Rules,
        stake: float | None,
        walkovers: Sequence[tuple[str, str]] = (),
        check: Callable[[StoredEvent], None] | None = None,
    ) -> bool:
        """Store round ``number`` of the event: its byes, its walkovers, each match's new
        game (its players seated, first dealer seat 0) and the links, in one transaction
        that locks the event's row first (as a roster change does) and lets ``check`` see
        the event then (it may raise: nothing is written); False (nothing written) when
        that round is already paired.

        The round's row is written first: a concurrent pairing of the same round waits
        for it (PostgreSQL) or for the whole write (SQLite), then finds it and writes
        nothing, so no game is ever left without its round.
        """
        with self._write() as conn:
            stored = self._locked_event(conn, event_id)
            if check is not None:
                check(stored)
            row = (event_id, number, dumps(list(byes)), dumps([list(w) for w in walkovers]), now())
            if not self._run(conn, INSERT_EVENT_ROUND, row).fetchall():
                return False
            self._add_matches(conn, event_id, number, matches, (rules, stake))
            return True

    def _add_matches(
        self,
        conn: Any,
        event_id: str,
        number: int,
        matches: Sequence[NewMatch],
        settings: tuple[Rules, float | None],
    ) -> None:
        """Insert each match's new game (its players seated, first dealer seat 0, under the
        ``settings``' rules and stake) and its link to round ``number`` of the event."""
        stamp = now()
        rules, stake = settings
        for m in matches:
            self._insert_game(
                conn, stamp, (m.game_id, m.players, rules, 0, stake, m.token_hash), scored=m.scored
            )
        self._seat(
            conn,
            stamp,
            {m.game_id: [(name_key(name), name) for name in m.players] for m in matches},
        )
        self._run_many(
            conn,
            INSERT_EVENT_MATCH,
            [(event_id, number, m.table, m.game_id) for m in matches],
        )
        self._count(conn, [m.game_id for m in matches])

    def end_match(self, event_id: str, game_id: str, decide: Adjudicate) -> MatchEnd:
        """End the event's match ``game_id``: inside one write transaction the link is
        checked (:class:`NotFound` when the game is no match of the event), the game's
        row read and locked (:data:`LOCK_GAME`: a hand entered meanwhile waits, or is
        seen), then ``decide(game, earlier end or None)`` gives the winner and the totals
        (or raises, and nothing is written) and the end is stored."""
        with self._write() as conn:
            if self._run(conn, SELECT_EVENT_GAME, (event_id, game_id)).fetchone() is None:
                raise NotFound(
                    f"game {game_id!r} is not a match of event {event_id!r}", field="game_id"
                )
            game = self._game(conn, game_id, lock=True)
            row = self._run(conn, SELECT_MATCH_END, (game_id,)).fetchone()
            earlier = None if row is None else _match_end(row)
            winner, totals = decide(game, earlier)
            end = MatchEnd(winner, totals, now())
            self._run(conn, INSERT_MATCH_END, (game_id, winner, dumps(list(totals)), end.ended))
            return end

    def withdraw_round(self, event_id: str, number: int, check: CheckWithdrawal) -> None:
        """Withdraw round ``number`` of the event: inside one write transaction the event
        and the round's games are read (the games locked, :data:`LOCK_GAME`: a hand
        entered meanwhile waits, or is seen), ``check`` may refuse, then the round's
        links and its row are deleted; its games stay, as ordinary games."""
        with self._write() as conn:
            stored = self._event(conn, event_id)
            check(stored, self._round_games(conn, stored, number))
            self._run(conn, DELETE_ROUND_MATCHES, (event_id, number))
            self._run(conn, DELETE_ROUND, (event_id, number))
