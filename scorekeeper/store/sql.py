"""The SQL both backends run, and the decisions around it, written once.

:class:`SqlStore` implements every :class:`~scorekeeper.store.protocol.Store`
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

This module holds the core every write and read of a game passes through (the
connection's primitives, a game's row, log and sheet rows, the append); the
statements of games and hands are :mod:`~scorekeeper.store.sql_game_rows`', and
the other families of methods are mixins of their own: a player's reads
(:mod:`~scorekeeper.store.sql_players`), a new game (:mod:`~scorekeeper.store.sql_creating`),
a game's edit rights and tokens (:mod:`~scorekeeper.store.sql_edit_rights`), the API
keys (:mod:`~scorekeeper.store.sql_api_keys`), the lists of games and players
(:mod:`~scorekeeper.store.sql_listing`), events (:mod:`~scorekeeper.store.sql_events`),
and before them the rights of events, the ratings, the round clocks, the rosters, the
seasons and the running totals (the other ``sql_*`` modules; what the new ones call
of the core: :class:`~scorekeeper.store.sql_part.SqlPart`).

A connection here is anything with the DB-API's ``execute`` (returning a
cursor) and ``cursor`` (whose ``executemany`` runs one statement per row):
a :class:`sqlite3.Connection` and a :class:`psycopg.Connection` both are.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache
from typing import Any

from ..gamesheet import GameStatus
from . import tallies
from .base import (
    Appended,
    Decide,
    Decision,
    GameView,
    LogEntry,
    SheetRow,
    StoredGame,
    check_version,
    column,
    dumps_in_order,
    game_from_row,
    log_entries,
    now,
    replayed_seq,
    sheet_rows,
)
from .refusals import NotFound, StorageError
from .sql_api_keys import ApiKeys
from .sql_clock import RoundClocks
from .sql_creating import GameCreation
from .sql_edit_rights import GameRights
from .sql_events import EventRows
from .sql_game_rows import (
    DELETE_ROWS,
    INSERT_HAND,
    INSERT_ROW,
    SELECT_GAME,
    SELECT_KEYED_HAND,
    SELECT_LOG,
    SELECT_RECORDS,
    SELECT_ROWS,
    SELECT_VERSION,
    UPDATE_GAME,
)
from .sql_listing import GameListing
from .sql_players import PlayerReads
from .sql_ratings import RatingRows
from .sql_rights import DirectorRights
from .sql_roster import EventRoster
from .sql_seasons import SeasonRecords
from .sql_totals import PlayerTotals


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


class SqlStore(
    PlayerReads,
    EventRows,
    GameCreation,
    PlayerTotals,
    DirectorRights,
    GameRights,
    ApiKeys,
    GameListing,
    EventRoster,
    RatingRows,
    RoundClocks,
    SeasonRecords,
    ABC,
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
    ) -> list[tuple[Any, ...]]:
        """Replace the game's sheet rows from hand ``start`` on by ``rows`` (and their
        :data:`~.tallies.INSERT_PAIR` rows, returned). ``kept`` is the number of rows the game
        has (hands 1 to ``kept``), if known: an append past them has none to delete."""
        if kept is None or start <= kept:
            self._run(conn, DELETE_ROWS, (game_id, start))
            self._run(conn, tallies.DELETE_PAIRS, (game_id, start))
        pairs = [pair for row in rows for pair in tallies.pair_rows(game_id, row.n, row.record)]
        self._run_many(conn, tallies.INSERT_PAIR, pairs)
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
        return pairs

    # ------------------------------------------------------------------ writes

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
        :meth:`~.protocol.Store.append` says (:meth:`_locked`).
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
        pairs = self._put_rows(conn, game.id, decision.start, decision.rows, kept)
        self._count_write(conn, before, over, won_by, pairs)
        if self.NOTIFY and self.notify_channel:
            self._run(conn, self.NOTIFY, (self.notify_channel, f"{game.id} {entry.seq}"))
        return replace(
            game,
            status=status,
            updated=entry.created,
            version=entry.seq,
            scored=decision.scored,
        )
