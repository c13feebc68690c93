"""The SQL both backends run, and the decisions around it, written once.

:class:`SqlStore` implements every :class:`~scorekeeper.store.base.Store`
method the SQLite file (:mod:`scorekeeper.store.sqlite`) and the
PostgreSQL database (:mod:`scorekeeper.store.postgres`) share: the same
tables, the same statements, the same idempotency and version checks. The
statements are plain SQL in one placeholder style (``?``, SQLite's);
:meth:`SqlStore.sql` gives a statement in the backend's own style (``%s``
for psycopg). Every statement is also valid in both dialects (SQLite 3.35 or
later: ``ON CONFLICT ... DO NOTHING``, ``RETURNING``).

A backend supplies only what really differs:

* its connections and transactions: :meth:`~SqlStore._read` (one read),
  :meth:`~SqlStore._snapshot` (several reads that see one moment) and
  :meth:`~SqlStore._write` (one write transaction, which waits for and
  holds what serialises writers: SQLite's ``BEGIN IMMEDIATE``);
* :data:`~SqlStore.LOCK_GAME`: what locks a game's row as a write reads it
  (PostgreSQL's ``FOR UPDATE``; nothing in SQLite, whose writer already
  holds the whole database), and :data:`~SqlStore.PLAYERS_BY_KEY` (new
  players inserted in one order, against deadlocks: PostgreSQL; SQLite
  numbers them by seat);
* where it keeps its schema version, its migrations (their DDL types
  differ; :func:`pending_steps` is the one check of which to run) and the
  mapping of its errors to the storage refusals.

A connection here is anything with the DB-API's ``execute`` (returning a
cursor) and ``cursor`` (whose ``executemany`` runs one statement per row):
a :class:`sqlite3.Connection` and a :class:`psycopg.Connection` both are.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from functools import cache, partial
from typing import Any, Unpack

from ..events import Format
from ..gamesheet import GameStatus
from ..names import name_key, search_words
from ..rules import Rules
from . import listing, tallies
from .base import (
    GAME_COLUMNS,
    LOG_COLUMNS,
    Adjudicate,
    ApiKey,
    Appended,
    CheckWithdrawal,
    Decide,
    Decision,
    EditRight,
    GameFilter,
    GameView,
    Handover,
    KeyReused,
    ListedKey,
    LogEntry,
    MatchEnd,
    MatchEvent,
    NameTaken,
    NewMatch,
    NotFound,
    Player,
    SheetRow,
    StorageError,
    StoredEvent,
    StoredGame,
    StoredRound,
    Summary,
    check_version,
    column,
    dumps,
    dumps_in_order,
    game_from_row,
    log_entries,
    now,
    replayed_seq,
    sheet_rows,
)
from .finding import INSERT_WORDS, SELECT_MATCHING, matching
from .sql_clock import RoundClocks, clock_of
from .sql_ratings import FINISHED, SET_FINISHED, RatingRows
from .sql_rights import SELECT_GAME_EVENT, DirectorRights
from .sql_roster import SELECT_ROSTER, EventRoster, roster_of, walkovers_of
from .sql_seasons import SeasonRecords
from .sql_totals import PlayerTotals

ADD_CUT = "ALTER TABLE games ADD COLUMN cut TEXT"
"""The cards cut for the first deal (SQLite's schema 10, PostgreSQL's 9): the same statement."""
SELECT_GAME = f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?"
SELECT_VERSION = "SELECT version, token_hash FROM games WHERE id = ?"
SELECT_LOG = f"SELECT {LOG_COLUMNS} FROM hands WHERE game_id = ? ORDER BY seq"
SELECT_PLAYER = "SELECT id, name, created FROM players WHERE name_key = ?"
_PREFIXED = ", ".join("g." + c.strip() for c in GAME_COLUMNS.split(","))
SELECT_GAMES_OF = (
    f"SELECT {_PREFIXED} FROM games g JOIN game_players p ON p.game_id = g.id"
    " WHERE p.player_id = ? ORDER BY g.created, g.id"
)
SELECT_LOGS_OF = (
    f"SELECT h.game_id, {LOG_COLUMNS} FROM hands h WHERE h.game_id IN"
    " (SELECT game_id FROM game_players WHERE player_id = ?) ORDER BY h.game_id, h.seq"
)
SELECT_ROWS = (
    "SELECT n, entry, record, summary FROM sheet_hands WHERE game_id = ? AND n >= ? ORDER BY n"
)
SELECT_RECORDS = "SELECT record FROM sheet_hands WHERE game_id = ? AND n >= ? ORDER BY n"
DELETE_ROWS = "DELETE FROM sheet_hands WHERE game_id = ? AND n >= ?"
INSERT_ROW = "INSERT INTO sheet_hands (game_id, n, entry, record, summary) VALUES (?, ?, ?, ?, ?)"

INSERT_GAME = (
    f"INSERT INTO games ({GAME_COLUMNS}, idempotency_key, request_hash, won_by)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (idempotency_key) DO NOTHING RETURNING id"
)
SELECT_KEYED_GAME = "SELECT id, request_hash FROM games WHERE idempotency_key = ?"
INSERT_PLAYER = (
    "INSERT INTO players (name, name_key, created) VALUES (?, ?, ?)"
    " ON CONFLICT (name_key) DO NOTHING"
)
INSERT_SEAT = (
    "INSERT INTO game_players (game_id, seat, player_id) SELECT ?, ?, id"
    " FROM players WHERE name_key = ?"
)
INSERT_IMPORTED_HAND = (
    "INSERT INTO hands (game_id, seq, kind, payload, result, created) VALUES (?, ?, ?, ?, ?, ?)"
)

SELECT_KEYED_HAND = "SELECT seq, kind, payload FROM hands WHERE game_id = ? AND idempotency_key = ?"
INSERT_HAND = (
    "INSERT INTO hands (game_id, seq, kind, payload, result, idempotency_key, created)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)
UPDATE_GAME = (
    "UPDATE games SET status = ?, updated = ?, version = ?, scored = ?,"
    f" finished = {FINISHED}, won_by = ? WHERE id = ?"
)

GRANT_EDIT = (
    "INSERT INTO edit_rights (game_id, device_hash, label, created)"
    " VALUES (?, ?, ?, ?) ON CONFLICT (game_id, device_hash) DO UPDATE"
    " SET label = excluded.label, created = excluded.created, revoked = NULL"
    " WHERE edit_rights.revoked IS NOT NULL"
)
HAS_EDIT = "SELECT 1 FROM edit_rights WHERE game_id = ? AND device_hash = ? AND revoked IS NULL"
WAS_REVOKED = (
    "SELECT 1 FROM edit_rights WHERE game_id = ? AND device_hash = ? AND revoked IS NOT NULL"
)
SELECT_RIGHTS = (
    "SELECT id, device_hash, label, created FROM edit_rights"
    " WHERE game_id = ? AND revoked IS NULL ORDER BY created, id"
)
REVOKE_EDIT = "UPDATE edit_rights SET revoked = ? WHERE game_id = ? AND id = ? AND revoked IS NULL"
DELETE_HANDOVER_OF_RIGHT = (
    "DELETE FROM handovers WHERE game_id = ? AND EXISTS (SELECT 1 FROM edit_rights"
    " WHERE game_id = ? AND id = ? AND revoked IS NULL)"
)
SELECT_DEVICE_GAMES = (
    "SELECT g.id FROM games g JOIN edit_rights r ON r.game_id = g.id"
    " WHERE r.device_hash = ? AND r.revoked IS NULL"
    " ORDER BY g.updated DESC, g.id LIMIT ?"
)
DELETE_HANDOVER = "DELETE FROM handovers WHERE game_id = ?"
INSERT_HANDOVER = "INSERT INTO handovers (game_id, secret_hash, created) VALUES (?, ?, ?)"
SELECT_HANDOVER = "SELECT secret_hash, created FROM handovers WHERE game_id = ?"
MATCH_HANDOVER = "SELECT 1 FROM handovers WHERE game_id = ? AND secret_hash = ?"

INSERT_API_KEY = (
    "INSERT INTO api_keys (name, key_hash, created, bot) VALUES (?, ?, ?, ?)"
    " ON CONFLICT DO NOTHING RETURNING id"
)
SELECT_API_KEY = "SELECT id, name, created FROM api_keys WHERE key_hash = ? AND revoked IS NULL"
SELECT_API_KEYS = (
    "SELECT k.id, k.name, k.created, k.revoked,"
    " (SELECT count(*) FROM key_games o WHERE o.key_id = k.id), k.bot"
    " FROM api_keys k ORDER BY k.created, k.id"
)
REVOKE_API_KEY = "UPDATE api_keys SET revoked = ? WHERE name = ? AND revoked IS NULL"
INSERT_KEY_GAME = "INSERT INTO key_games (game_id, key_id, created) VALUES (?, ?, ?)"
SELECT_PLAYER_NAMES = "SELECT name FROM players ORDER BY name_key LIMIT ?"
ROTATE_TOKEN = "UPDATE games SET token_hash = ? WHERE id = ? AND token_hash = ?"
INSERT_RETIRED_TOKEN = (
    "INSERT INTO retired_tokens (game_id, token_hash, retired) VALUES (?, ?, ?)"
    " ON CONFLICT DO NOTHING"
)
SELECT_RETIRED_TOKEN = "SELECT 1 FROM retired_tokens WHERE game_id = ? AND token_hash = ?"

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


def pending_steps(version: int, latest: int, where: str) -> range:
    """The migration steps taking ``where`` (a database at schema ``version``) to ``latest``.

    A database written by a newer version of this code is refused.

    >>> pending_steps(3, 5, "games.db")
    range(3, 5)
    """
    if version > latest:
        raise StorageError(
            f"{where} has schema version {version}; this scorekeeper knows up to {latest}"
        )
    return range(version, latest)


@cache
def pyformat(statement: str) -> str:
    """``statement`` with its ``?`` placeholders as ``%s`` (psycopg's style).

    The statements here hold no ``?`` or ``%`` other than their placeholders.

    >>> pyformat("SELECT 1 FROM games WHERE id = ?")
    'SELECT 1 FROM games WHERE id = %s'
    """
    return statement.replace("?", "%s")


def _match_end(row: Sequence[Any]) -> MatchEnd:
    """A match's end from its row's ``winner, totals, ended``."""
    winner, totals, ended = row
    first, second = json.loads(totals)
    return MatchEnd(winner, (first, second), ended)


class SqlStore(
    DirectorRights, RatingRows, RoundClocks, EventRoster, SeasonRecords, PlayerTotals, ABC
):
    """The store methods both SQL backends share; a backend subclasses it (see the module
    docs for what it supplies)."""

    LOCK_GAME = ""
    """Appended to a write's ``SELECT`` of a game's row (or its hand-over link's), to lock
    it until the commit."""

    PLAYERS_BY_KEY = False
    """Whether a new game inserts its new players in ``name_key`` order (not seat order):
    where writers run side by side, two games creating the same two players at once
    then take their locks in one order and cannot deadlock."""

    NOTIFY = ""
    """The statement (``channel, payload``) that tells other servers of an append inside its
    transaction, so they hear it exactly when it commits (PostgreSQL's ``pg_notify``);
    empty where the backend has none (SQLite: one machine, see :attr:`on_append`)."""

    notify_channel: str | None = None
    """Where :data:`NOTIFY` announces each append as ``"<game id> <version>"``; ``None``:
    nowhere (live sheets, :mod:`api.live`, set it)."""

    on_append: Callable[[StoredGame], None] | None = None
    """Called with the game as an append left it, once the append has committed; ``None``:
    nobody is told (live sheets, :mod:`api.live`, set it). It must neither raise nor wait."""

    @staticmethod
    def sql(statement: str) -> str:
        """``statement`` (``?`` placeholders) in this backend's placeholder style."""
        return statement

    @abstractmethod
    def _read(self) -> AbstractContextManager[Any]:
        """A connection for one read."""

    @abstractmethod
    def _snapshot(self) -> AbstractContextManager[Any]:
        """A connection in a read transaction: all its reads see one moment."""

    @abstractmethod
    def _write(self) -> AbstractContextManager[Any]:
        """A connection in one write transaction, committed if the body returns."""

    def _run(self, conn: Any, statement: str, params: Sequence[Any] = ()) -> Any:
        """Execute ``statement`` (``?`` placeholders) on ``conn``; returns its cursor."""
        return conn.execute(self.sql(statement), params)

    def _run_many(self, conn: Any, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        """Execute ``statement`` once per row of ``rows`` (one call of ``executemany``)."""
        cursor = conn.cursor()
        try:
            cursor.executemany(self.sql(statement), rows)
        finally:
            cursor.close()

    # ------------------------------------------------------------------ reads

    def game(self, game_id: str) -> StoredGame:
        """The game ``game_id``; raises :class:`NotFound`."""
        with self._read() as conn:
            return self._game(conn, game_id)

    def log(self, game_id: str) -> list[LogEntry]:
        """The game's log entries in sequence order (``[]`` for an unknown game)."""
        with self._read() as conn:
            return self._log(conn, game_id)

    def game_and_log(self, game_id: str) -> tuple[StoredGame, list[LogEntry]]:
        """The game and its log read in one transaction (a consistent snapshot)."""
        with self._snapshot() as conn:
            return self._game(conn, game_id), self._log(conn, game_id)

    def player(self, name: str) -> Player:
        """The player whose :func:`~scorekeeper.names.name_key` is ``name``'s.

        Its ``name`` is the name as first written. A name
        that is no valid name raises :class:`~scorekeeper.errors.RuleError`.
        """
        with self._read() as conn:
            row = self._run(conn, SELECT_PLAYER, (name_key(name),)).fetchone()
        if row is None:
            raise NotFound(f"no player called {name!r}", field="name")
        return Player(id=row[0], name=row[1], created=row[2])

    def games_of(self, name: str) -> list[tuple[StoredGame, list[LogEntry]]]:
        """Every game the player ``name`` sits in, oldest first, each with its log."""
        player = self.player(name)
        with self._snapshot() as conn:
            found = [game_from_row(row) for row in self._run(conn, SELECT_GAMES_OF, (player.id,))]
            logs: dict[str, list[Any]] = {game.id: [] for game in found}
            for row in self._run(conn, SELECT_LOGS_OF, (player.id,)):
                logs[row[0]].append(row[1:])
        return [(game, log_entries(logs[game.id])) for game in found]

    def player_record(self, name: str) -> tallies.PlayerRecord:
        """What the record of player ``name`` is added up from (read in one transaction):
        their games oldest first and the two-player hands of each (:mod:`.tallies`)."""
        player = self.player(name)
        with self._snapshot() as conn:
            games = [
                tallies.record_game(row, tuple(json.loads(row[1])))
                for row in self._run(conn, tallies.SELECT_RECORD_GAMES, (player.id,))
            ]
            pairs = tallies.pairs_by_game(
                self._run(conn, tallies.SELECT_RECORD_PAIRS, (player.id,)).fetchall()
            )
        return tallies.PlayerRecord(player, games, pairs)

    def _game(self, conn: Any, game_id: str, *, lock: bool = False) -> StoredGame:
        """The game's row (locked with :data:`LOCK_GAME` when ``lock``); raises NotFound."""
        row = self._run(conn, SELECT_GAME + (self.LOCK_GAME if lock else ""), (game_id,)).fetchone()
        if row is None:
            raise NotFound(f"no game with id {game_id!r}", field="id")
        return game_from_row(row)

    def _locked(self, conn: Any, game_id: str, known: StoredGame | None) -> StoredGame:
        """The game's row read and locked in a write's ``conn``, or ``known`` (read before the
        transaction) while the row still holds it: every change of a game but its token's
        moves its version on, so the locked row's version and token say it is the same."""
        if known is not None:
            row = self._run(conn, SELECT_VERSION + self.LOCK_GAME, (game_id,)).fetchone()
            if row is not None and tuple(row) == (known.version, known.token_hash):
                return known
        return self._game(conn, game_id, lock=True)

    def _log(self, conn: Any, game_id: str) -> list[LogEntry]:
        return log_entries(self._run(conn, SELECT_LOG, (game_id,)))

    def _rows(self, conn: Any, game_id: str, start: int) -> list[SheetRow]:
        return sheet_rows(self._run(conn, SELECT_ROWS, (game_id, start)).fetchall())

    def _put_rows(
        self, conn: Any, game_id: str, start: int, rows: Sequence[SheetRow], kept: int | None
    ) -> None:
        """Replace the game's sheet rows from hand ``start`` on by ``rows`` (and their
        :data:`~.tallies.INSERT_PAIR` rows). ``kept`` is the number of rows the game has
        (hands 1 to ``kept``), if known: an append past them has none to delete."""
        if kept is None or start <= kept:
            self._run(conn, DELETE_ROWS, (game_id, start))
            self._run(conn, tallies.DELETE_PAIRS, (game_id, start))
        self._run_many(
            conn,
            tallies.INSERT_PAIR,
            [pair for row in rows for pair in tallies.pair_rows(game_id, row.n, row.record)],
        )
        self._run_many(
            conn,
            INSERT_ROW,
            [
                (
                    game_id,
                    row.n,
                    dumps_in_order(row.entry),
                    dumps_in_order(row.record),
                    dumps_in_order(row.summary.data),
                )
                for row in rows
            ],
        )

    # ------------------------------------------------------------------ writes

    def create_game(
        self,
        *,
        game_id: str,
        players: Sequence[str],
        rules: Rules,
        dealer: int,
        stake: float | None,
        token_hash: str,
        status: GameStatus = GameStatus.ACTIVE,
        entries: Sequence[tuple[str, Any, Any]] = (),
        imported: bool = False,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
        scored: Summary | None = None,
        rows: Sequence[SheetRow] = (),
        follows: str | None = None,
        owner: int | None = None,
        cut: Sequence[str] | None = None,
    ) -> StoredGame:
        """Store a new game (and its players); returns it as :meth:`game` would.

        ``entries`` are ``(kind, payload, result)`` log rows written with it in the
        same transaction, ``scored`` and ``rows`` its summary and sheet rows,
        ``imported`` marks a game made by an import, ``follows`` the game it is a
        rematch of, ``owner`` the id of the API key it belongs to (:meth:`key_games`).

        With an ``idempotency_key`` already used by a game created by the
        same request (``request_hash``), nothing is written and that game is
        returned (its id is not ``game_id``); used by another request, it
        raises :class:`KeyReused`. The game's insert is what finds the key
        (``ON CONFLICT DO NOTHING``): on PostgreSQL it waits for a
        concurrent create with the same key, so the key makes one game
        however many servers are asked at once.

        A player is found, or added, by the :func:`~scorekeeper.names.name_key`
        of the name (a name that is none raises, naming its seat).
        """
        stamp = now()
        seated = [(name_key(p, field=f"players.{seat}"), p) for seat, p in enumerate(players)]
        with self._write() as conn:
            created = self._insert_game(
                conn,
                stamp,
                (game_id, players, rules, dealer, stake, token_hash),
                status=status,
                imported=imported,
                version=len(entries),
                scored=scored,
                follows=follows,
                cut=cut,
                idempotency_key=idempotency_key,
                request_hash=request_hash,
            )
            if not created:  # the key's game exists
                keyed = self._keyed(conn, SELECT_KEYED_GAME, idempotency_key, request_hash)
                return self._game(conn, keyed)
            self._add_game_parts(conn, stamp, game_id, seated, owner, entries, rows)
            self._count(conn, [game_id])
            return self._game(conn, game_id)

    def _keyed(
        self, conn: Any, select: str, idempotency_key: str | None, request_hash: str | None
    ) -> str:
        """The id of the row (a game, an event: ``select`` reads its id and request hash)
        that ``idempotency_key`` already created, whose insert this one's conflict skipped;
        raises :class:`KeyReused` when another request (not ``request_hash``) created it."""
        found = self._run(conn, select, (idempotency_key,)).fetchone()
        assert found is not None  # the conflict that skipped the insert is this row
        if found[1] != request_hash:
            raise KeyReused(
                f"Idempotency-Key {idempotency_key!r} was already used for a different request",
                field="Idempotency-Key",
            )
        return str(found[0])

    def _add_game_parts(
        self,
        conn: Any,
        stamp: str,
        game_id: str,
        seated: Sequence[tuple[str, str]],
        owner: int | None,
        entries: Sequence[tuple[str, Any, Any]],
        rows: Sequence[SheetRow],
    ) -> None:
        """What a new game's insert writes with it: its players in their seats (``seated``:
        name key and name; new players are inserted in seat order, or in ``name_key`` order
        with :data:`PLAYERS_BY_KEY`), the API key that ``owner``s it, its log ``entries``
        and its sheet ``rows``."""
        self._seat(conn, stamp, {game_id: seated})
        if owner is not None:
            self._run(conn, INSERT_KEY_GAME, (game_id, owner, stamp))
        self._run_many(
            conn,
            INSERT_IMPORTED_HAND,
            [
                (game_id, seq, kind, dumps_in_order(payload), dumps_in_order(result), stamp)
                for seq, (kind, payload, result) in enumerate(entries, 1)
            ],
        )
        self._put_rows(conn, game_id, 1, rows, kept=0)

    def _insert_game(
        self,
        conn: Any,
        stamp: str,
        settings: tuple[str, Sequence[str], Rules, int, float | None, str],
        *,
        status: GameStatus = GameStatus.ACTIVE,
        imported: bool = False,
        version: int = 0,
        scored: Summary | None = None,
        follows: str | None = None,
        cut: Sequence[str] | None = None,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
    ) -> bool:
        """Insert a game's row, created at ``stamp``: ``settings`` are its id, players,
        rules, first dealer, stake and edit token hash. False (nothing written) when a
        game already has its ``idempotency_key``."""
        game_id, players, rules, dealer, stake, token_hash = settings
        row = (
            game_id,
            dumps(list(players)),
            dumps(rules.to_dict()),
            dealer,
            stake,
            stamp,
            stamp,
            status.value,
            token_hash,
            imported,
            version,
            None if scored is None else dumps_in_order(scored.data),
            follows,
            None if cut is None else dumps(list(cut)),
            idempotency_key,
            request_hash,
            tallies.won_by(None if scored is None else scored.data),
        )
        created = bool(self._run(conn, INSERT_GAME, row).fetchall())  # all: SQLite finishes it
        if created and status is GameStatus.OVER:  # an import of a finished game: it ends now
            self._run(conn, SET_FINISHED, (stamp, game_id))
        return created

    def _seat(self, conn: Any, stamp: str, games: Mapping[str, Sequence[tuple[str, str]]]) -> None:
        """Seat each new game's players, ``(name_key, name)`` in seat order, adding first
        the players not known yet (all of them in ``name_key`` order with
        :data:`PLAYERS_BY_KEY`, else in seat order)."""
        named = [player for seated in games.values() for player in seated]
        for key, name in sorted(named) if self.PLAYERS_BY_KEY else named:
            if self._run(conn, INSERT_PLAYER, (name, key, stamp)).rowcount == 1:
                self._run_many(conn, INSERT_WORDS, [(word, key) for word in search_words(name)])
        for game_id, seated in games.items():
            for seat, (key, _) in enumerate(seated):
                self._run(conn, INSERT_SEAT, (game_id, seat, key))
                self._run(conn, tallies.INSERT_PLAYER_GAME, (stamp, game_id, seat, key))

    def append(
        self,
        game_id: str,
        kind: str,
        payload: Any,
        decide: Decide,
        *,
        idempotency_key: str | None = None,
        expected_version: int | None = None,
        known: StoredGame | None = None,
    ) -> Appended:
        """Append one entry to a game's log; returns ``(entry, created, game, log)``.

        Inside one write transaction: the game's row is read (and locked,
        :data:`LOCK_GAME`), ``decide(game, view)`` computes the entry's
        result and the game's new scored state (reading the sheet rows it
        needs through ``view``), or raises and nothing is written;
        then the entry is inserted with the next sequence number and the
        game's row and sheet rows updated. ``game`` is the game as the write
        left it; ``log`` is empty (the log is not read).

        With an ``idempotency_key`` already used in this game for the same
        ``kind`` and ``payload``, nothing is written and the stored entry is
        returned with ``created`` False and the whole ``log``; used for a
        different request, it raises :class:`KeyReused`. Otherwise, with an
        ``expected_version`` (the number of log entries the change was based
        on) that is not the game's ``version``, it raises
        :class:`~scorekeeper.errors.Stale`. Raises :class:`NotFound` for an
        unknown game. A write (not a repeat) is announced: :data:`NOTIFY` in its
        transaction, :attr:`on_append` after its commit. ``known``: as
        :meth:`~.base.Store.append` says (:meth:`_locked`).
        """
        with self._write() as conn:
            game = self._locked(conn, game_id, known)
            if idempotency_key is not None:
                seq = replayed_seq(
                    self._run(conn, SELECT_KEYED_HAND, (game_id, idempotency_key)).fetchone(),
                    kind,
                    payload,
                    idempotency_key,
                )
                if seq is not None:
                    log = self._log(conn, game_id)
                    return log[seq - 1], False, game, log
            check_version(expected_version, game.version)
            decision = decide(game, self._view(conn, game_id))
            entry = LogEntry(
                seq=game.version + 1,
                kind=kind,
                payload=payload,
                result=decision.result,
                idempotency_key=idempotency_key,
                created=now(),
            )
            changed = self._logged(conn, game, entry, decision)
        if self.on_append is not None:
            self.on_append(changed)
        return entry, True, changed, []

    def _view(self, conn: Any, game_id: str) -> GameView:
        """What a write's ``decide`` may read of game ``game_id`` in transaction ``conn``."""
        return GameView(
            rows=lambda start: self._rows(conn, game_id, start),
            records=lambda start: column(
                [row[0] for row in self._run(conn, SELECT_RECORDS, (game_id, start))]
            ),
            log=lambda: self._log(conn, game_id),
            event=lambda: self._match_event(conn, game_id),
        )

    def _logged(
        self, conn: Any, game: StoredGame, entry: LogEntry, decision: Decision
    ) -> StoredGame:
        """Write log ``entry`` and ``decision``'s scored state of ``game`` (its row, its sheet
        rows) in transaction ``conn``, announced (:data:`NOTIFY`); the game as left. The
        players' totals change by what it changed (:mod:`.totals`)."""
        # the rows kept (hands 1 to count): Summary.count's key, read here (no call in the walk)
        kept = None if game.scored is None else game.scored.data["hands"]
        before = self._before(conn, game, decision.start, kept)
        self._run(
            conn,
            INSERT_HAND,
            (
                game.id,
                entry.seq,
                entry.kind,
                dumps_in_order(entry.payload),
                dumps_in_order(decision.result),
                entry.idempotency_key,
                entry.created,
            ),
        )
        status = decision.scored.status
        over, won_by = status is GameStatus.OVER, tallies.won_by(decision.scored.data)
        self._run(
            conn,
            UPDATE_GAME,
            (
                status.value,
                entry.created,
                entry.seq,
                dumps_in_order(decision.scored.data),
                over,
                entry.created,
                won_by,
                game.id,
            ),
        )
        self._put_rows(conn, game.id, decision.start, decision.rows, kept)
        self._count_write(conn, before, over, won_by)
        if self.NOTIFY and self.notify_channel:
            self._run(conn, self.NOTIFY, (self.notify_channel, f"{game.id} {entry.seq}"))
        return replace(
            game,
            status=status,
            updated=entry.created,
            version=entry.seq,
            scored=decision.scored,
        )

    # ------------------------------------------------------------------ scorepad edit rights

    def grant_edit(
        self, game_id: str, device_hash: str, label: str, *, handover: str | None = None
    ) -> bool:
        """Let the device whose id hashes to ``device_hash`` change game ``game_id``.

        A device holding the right keeps it as it is (label and time); one
        whose right was revoked gets it back with the new label and time.
        With ``handover`` (a secret's hash) the right is granted only while
        that is the game's hand-over secret, checked in the same transaction
        (its row locked, as :meth:`revoke_edit` deletes it first); False when
        it is not.
        """
        with self._write() as conn:
            if handover is not None:
                match = MATCH_HANDOVER + self.LOCK_GAME
                if self._run(conn, match, (game_id, handover)).fetchone() is None:
                    return False
            self._run(conn, GRANT_EDIT, (game_id, device_hash, label, now()))
            return True

    def has_edit(self, game_id: str, device_hash: str) -> bool:
        """True while that device holds an unrevoked right to change the game."""
        with self._read() as conn:
            return self._run(conn, HAS_EDIT, (game_id, device_hash)).fetchone() is not None

    def edit_revoked(self, game_id: str, device_hash: str) -> bool:
        """True when that device's right to change the game was revoked (and not given
        back since: one row per game and device)."""
        with self._read() as conn:
            return self._run(conn, WAS_REVOKED, (game_id, device_hash)).fetchone() is not None

    def edit_rights(self, game_id: str) -> list[EditRight]:
        """The unrevoked rights of a game, oldest first."""
        with self._read() as conn:
            return [
                EditRight(id=i, device_hash=h, label=label, created=created)
                for i, h, label, created in self._run(conn, SELECT_RIGHTS, (game_id,))
            ]

    def revoke_edit(self, game_id: str, right_id: int) -> bool:
        """Revoke right ``right_id`` of the game, end its hand-over link (which the revoked
        device could otherwise use to join again) and count the game's table card a
        generation on (:meth:`card_generation`); False when it held no such right."""
        with self._write() as conn:
            self._run(conn, DELETE_HANDOVER_OF_RIGHT, (game_id, game_id, right_id))
            revoked: bool = self._run(conn, REVOKE_EDIT, (now(), game_id, right_id)).rowcount == 1
            if revoked:  # a table card printed before no longer works
                self._next_card(conn, game_id)
            return revoked

    def device_games(self, device_hash: str, limit: int) -> list[StoredGame]:
        """The games the device may change, last changed first (at most ``limit``)."""
        with self._snapshot() as conn:
            ids = [row[0] for row in self._run(conn, SELECT_DEVICE_GAMES, (device_hash, limit))]
            return [self._game(conn, i) for i in ids]

    def set_handover(self, game_id: str, secret_hash: str | None) -> None:
        """Make ``secret_hash`` the game's hand-over secret (replacing any); ``None`` removes it."""
        with self._write() as conn:
            self._run(conn, DELETE_HANDOVER, (game_id,))
            if secret_hash is not None:
                self._run(conn, INSERT_HANDOVER, (game_id, secret_hash, now()))

    def handover(self, game_id: str) -> Handover | None:
        """The game's hand-over link, or ``None``."""
        with self._read() as conn:
            row = self._run(conn, SELECT_HANDOVER, (game_id,)).fetchone()
        return None if row is None else Handover(secret_hash=row[0], created=row[1])

    # ------------------------------------------------------------------ API keys

    def add_api_key(self, name: str, key_hash: str, *, bot: bool = False) -> ApiKey:
        """Store a new API key by the SHA-256 hash of its text (``bot``: a key for bots and
        simulations, whose games are not rated).

        Raises :class:`NameTaken` when an unrevoked key has this ``name``.
        """
        stamp = now()
        with self._write() as conn:
            row = self._run(conn, INSERT_API_KEY, (name, key_hash, stamp, bot)).fetchone()
        if row is None:
            raise NameTaken(f"there is already a key called {name!r}", field="name")
        return ApiKey(id=row[0], name=name, created=stamp)

    def api_key(self, key_hash: str) -> ApiKey | None:
        """The unrevoked key whose text hashes to ``key_hash``, or ``None``."""
        with self._read() as conn:
            row = self._run(conn, SELECT_API_KEY, (key_hash,)).fetchone()
        return None if row is None else ApiKey(id=row[0], name=row[1], created=row[2])

    def api_keys(self) -> list[ListedKey]:
        """Every key, revoked ones too, oldest first."""
        with self._read() as conn:
            return [
                ListedKey(i, name, created, revoked, count, bool(bot))
                for i, name, created, revoked, count, bot in self._run(conn, SELECT_API_KEYS)
            ]

    def revoke_api_key(self, name: str) -> bool:
        """Revoke the unrevoked key called ``name``; False when there is none."""
        with self._write() as conn:
            revoked: bool = self._run(conn, REVOKE_API_KEY, (now(), name)).rowcount == 1
        return revoked

    def key_games(
        self,
        key_id: int,
        *,
        limit: int,
        after: tuple[str, str] | None = None,
        **filters: Unpack[GameFilter],
    ) -> list[StoredGame]:
        """The games of API key ``key_id`` (as :meth:`game`), newest first, at most ``limit``.

        ``after`` is the ``(created, id)`` of the last game of the previous page.
        Filters (:class:`~scorekeeper.store.base.GameFilter`): ``player_key`` keeps the
        games with a player of that :func:`~scorekeeper.names.name_key`, ``words``
        those with a player with a word beginning with each of them
        (:mod:`~scorekeeper.store.finding`), ``status`` those with that status,
        ``since`` (stored time text) those changed at or after it, ``created_from``
        and ``created_to`` those made at or after the one and before the other.
        """
        return self._games_page(key_id, limit, after, filters)

    def all_games(
        self, *, limit: int, after: tuple[str, str] | None = None, **filters: Unpack[GameFilter]
    ) -> list[StoredGame]:
        """Every game on this server (as :meth:`game`), newest first, at most ``limit``; ``after``
        and the filters as for :meth:`key_games`."""
        return self._games_page(None, limit, after, filters)

    def _games_page(
        self,
        key_id: int | None,
        limit: int,
        after: tuple[str, str] | None,
        filters: GameFilter,
    ) -> list[StoredGame]:
        """Games of API key ``key_id`` (``None``: every game) with the given filters (see
        :meth:`key_games`), newest first (:func:`.listing.page`)."""
        with self._snapshot() as conn:
            rows = listing.page(partial(self._run, conn), key_id, filters, after, limit)
        return [game_from_row(row) for row in rows]

    def players_matching(self, words: Sequence[str], limit: int) -> list[str]:
        """The names of the players with a word beginning with each of ``words`` (search
        words, at least one), by name key, at most ``limit``."""
        found, params = matching(words)
        with self._read() as conn:
            rows = self._run(conn, SELECT_MATCHING.format(found), [*params, limit])
            return [row[0] for row in rows]

    def player_names(self, limit: int) -> list[str]:
        """The names of the players known here (as first written), by name, at most ``limit``."""
        with self._read() as conn:
            return [row[0] for row in self._run(conn, SELECT_PLAYER_NAMES, (limit,))]

    def rotate_token(self, game_id: str, old_hash: str, new_hash: str) -> bool:
        """Replace the game's edit token hash ``old_hash`` by ``new_hash``, keeping the old one
        as retired (:meth:`token_retired`); False (nothing changed) when ``old_hash`` is no
        longer the game's (another rotation came first)."""
        with self._write() as conn:
            if self._run(conn, ROTATE_TOKEN, (new_hash, game_id, old_hash)).rowcount != 1:
                return False
            self._run(conn, INSERT_RETIRED_TOKEN, (game_id, old_hash, now()))
            return True

    def token_retired(self, game_id: str, token_hash: str) -> bool:
        """True when ``token_hash`` was the game's edit token before a rotation."""
        with self._read() as conn:
            return (
                self._run(conn, SELECT_RETIRED_TOKEN, (game_id, token_hash)).fetchone() is not None
            )

    # ------------------------------------------------------------------ events

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
