"""Storage: players, games and each game's append-only hand log in one SQLite file.

The database (default ``./scorekeeper.db``; the store reads no environment:
the app's ``DB`` setting or the command line's ``--db`` names it) runs in
WAL mode with foreign keys on. Its schema version is SQLite's
``user_version``; :data:`MIGRATIONS` bring an older file up to date when a
:class:`Storage` opens it. sqlite-utils creates the tables; reads and the
write transactions are plain SQL, the statements and their logic shared with
the PostgreSQL backend (:class:`~scorekeeper.store.sql.SqlStore`): this
module keeps the connections, the transactions, the migrations and the
mapping of SQLite's errors.

Tables:

* ``players``: one row per player: the name as first written and its
  ``name_key`` (:func:`~scorekeeper.names.name_key`, unique: lookups go by it).
* ``games``: id (random, not guessable), players (JSON list), the full rules
  snapshot (JSON), first dealer, stake, created, status (``active`` or
  ``over``, kept in step with the log), the SHA-256 hash of the edit token
  and ``imported`` (true for a game made by ``games.import_game``), and,
  for a game created with an ``Idempotency-Key`` (schema 3), the key
  (unique) and the SHA-256 of the creating request, and ``follows`` (schema
  6): the id of the game this one is a rematch of, NULL for a game started afresh.
* ``game_players``: which player sits in which seat of a game (for stats).
* ``hands``: the log. One row per submitted entry: game, sequence number
  (1, 2, ...), kind, the submitted payload (JSON), the computed result
  (JSON), an optional idempotency key (unique per game) and the time.
  Triggers refuse UPDATE and DELETE: corrections and undos are new rows.
* ``edit_rights``: which devices (browsers) may change a game on the
  scorepad: id, game, the SHA-256 hash of the device id (never the id
  itself), label, created, and ``revoked`` (the time, or NULL while the
  right holds); one row per game and device.
* ``handovers``: the game's current hand-over link, as the SHA-256 hash of
  its secret and the time it was made (at most one per game).
* the scored state (schema 5, see :mod:`scorekeeper.store.base`):
  ``games.version`` (log entries), ``games.scored`` (the sheet's summary,
  JSON, NULL until the first write after the migration) and
  ``sheet_hands``: per game, one row per hand on the sheet (``n``, entry,
  record, summary after it), rewritten from the changed hand on.
* API keys (schema 7): ``api_keys`` (name, the SHA-256 hash of the key,
  never the key; created, revoked), ``key_games`` (the key a game was
  created with) and ``retired_tokens`` (edit tokens a rotation replaced, so
  an old token is told it was replaced).
* events (schema 8): ``events`` (name, players, format, rounds, rules and
  stake as JSON or plain values, the SHA-256 hash of the director token,
  an optional Idempotency-Key and request hash), ``event_rounds`` (each
  paired round's byes, JSON) and ``event_matches`` (round, table and the
  stored game each match is); ``event_match_ends`` (schema 9): the matches
  the director ended (the winner, the totals as they stood, JSON, and the
  time).
* the rights around an event (schema 10, :mod:`scorekeeper.store.sql_rights`):
  ``director_rights`` (the phones that may direct it), ``director_links``
  (its hand-over and recovery links, hashed) and ``card_generations`` (how
  often a game's edit right was revoked: its table card's generation).
* ``games.cut`` (schema 11): the cards cut for the first deal (JSON, one
  code per player), NULL when the dealer was named or drawn by lot.
* ``player_words`` (schema 12): each player's search words, primary key
  (word, player) (see :mod:`scorekeeper.store.finding`), and the index
  ``games_created`` on ``games (created, id)``.
* ``api_keys.bot`` (schema 13) and the ratings (schema 14): ``games.finished``
  and the fold's cache (:mod:`~scorekeeper.store.sql_ratings`).
* the round clock (schema 15, :mod:`scorekeeper.store.sql_clock`):
  ``event_rounds.clock_started`` and ``clock_minutes``, NULL while none is set.
* ``event_roster`` and ``event_rounds.walkovers`` (schema 16):
  an event's late entries and withdrawals, each round's walkovers
  (:mod:`scorekeeper.store.sql_roster`).
* ``seasons`` (schema 17, :mod:`scorekeeper.store.sql_seasons`): a club's
  seasons, and the index ``events_created`` on ``events (created)``.
* ``game_results`` (schema 18): each finished game's winner seat and final
  totals, kept by the triggers ``games_result_new`` and ``games_result_change``.
* ``player_games``, ``hand_pairs``, ``key_games.created``, ``games.won_by`` and
  the index ``games_updated`` (schema 19, :mod:`scorekeeper.store.tallies`): each
  player's games by time, each hand's two seats and result, kept by every write,
  so that lists and records read an index at any size; then ``ANALYZE``.
* ``player_totals`` and ``rival_totals`` (the migration after them,
  :mod:`scorekeeper.store.totals`): each player's record and head-to-head lines as
  running totals, changed by every write in its transaction.
* ``rating_changes`` and ``rating_state.changes`` (the migration after them,
  :mod:`scorekeeper.store.sql_rating_changes`): the count of changes to the rated
  games, kept by triggers, so that a ratings read checks one row.

Every write is one ``BEGIN IMMEDIATE`` transaction, so concurrent writers
(several gunicorn workers) are serialised by SQLite and a refused write
leaves nothing behind. Connections are per thread and per process.

Forks (gunicorn's workers, issue 26): no connection crosses one. SQLite's
state is the process's (its locks, its WAL index): carried into a child, it
loses acknowledged transactions without a trace or corrupts the file
(measured: up to 336 acknowledged hands gone after killed workers and master,
a "malformed" file when the children kept the inherited connections open).
So :meth:`Storage.close` closes every connection the process opened through
the store (``serve``'s master calls it before forking); before any
``os.fork`` every store closes its idle connections by itself (a hook of
``os.register_at_fork``: gunicorn's ``--preload`` too); and a child that
still finds one of its parent's open (one in a transaction at the fork)
refuses to touch the file (:class:`StorageError`) rather than corrupt it.

A write SQLite cannot finish because the disk (or the file's page limit)
is full raises :class:`StorageFull`, one that waited too long for another
writer raises :class:`StorageBusy`; either way SQLite has rolled the
transaction back and nothing is half-written.
Faults that heal: SQLite opens a file it may not write (permissions, a
read-only mount) read-only without a word; that connection stays
read-only after the file is writable again, and while one is open every
connection the process opens to the file is read-only too (they share
its lock and WAL-index state). So a connection opened while the file was
not writable (``os.access``) is closed after each use, and "read-only",
"cannot open", "I/O error" and "permission" errors, on a write or a read,
raise :class:`StorageUnavailable` and close this thread's connection: the
next request opens it afresh and works as soon as the fault is gone. (A
``-wal`` or ``-shm`` file SQLite had to create during the fault gets the
database file's read-only mode: restore those files' mode as well.)

Waiting for the write lock (the web server's threads must not all wait
behind one stuck writer, e.g. another process holding ``BEGIN
EXCLUSIVE``): a writer waits as long as other writers keep committing
(a busy lock), and gives up with :class:`StorageBusy` once nobody has
committed for ``busy_timeout`` s (a stuck lock). Once nobody has
committed for :data:`QUICK_WAIT` s it needs one of the store's
``waiting_writers`` places (per process) to go on waiting; while a writer
in a place has seen no commit for that long, the others are refused at
once. So a thread of each process stays free for reads, which never take
the write lock (WAL mode: readers see the last commit while a writer
works). The threads of one process take turns (a lock of the process) before
they try SQLite's lock, so only one of them polls the file and the next
starts the moment the one before commits; a writer waiting for another
process polls after :data:`FIRST_POLL` s, then twice as long each time, up
to :data:`POLL` s (with a fixed 5 ms, a writer that found the lock taken
slept 5 ms behind a transaction of about 1 ms: py-spy showed two workers'
writers sleeping about as long as they spent committing).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import sqlite_utils

from ..names import fold
from . import tallies, totals_schema
from .base import StorageBusy, StorageError, StorageFull, StorageUnavailable
from .finding import BACKFILL_WORD, GAMES_CREATED_INDEX, SELECT_ALL_PLAYERS, word_rows
from .sql import ADD_CUT, EVENT_TABLES, MATCH_END_TABLE, SqlStore, pending_steps
from .sql_clock import ADD_CLOCK
from .sql_rating_changes import COUNTER, SQLITE_TRIGGERS
from .sql_ratings import ADD_BOT, RATING_TABLES
from .sql_rights import rights_tables
from .sql_roster import ADD_WALKOVERS, ROSTER_TABLE
from .sql_seasons import SEASON_TABLES, sqlite_result_triggers

DEFAULT_PATH = "scorekeeper.db"
"""The database file used when no setting or option names one (relative to the working folder)."""

BUSY_TIMEOUT = 30.0
"""Seconds a writer waits for another writer's transaction before giving up (the default;
the web app passes a shorter one)."""

QUICK_WAIT = 1.0
"""Seconds without any commit a writer may wait for the lock without a waiting place."""

POLL = 0.005
"""The longest wait between a waiting writer's tries for the lock, in seconds."""

FIRST_POLL = 0.0002
"""Seconds between a waiting writer's first and second tries for the lock (then doubled)."""

ANALYSIS_LIMIT = 1000
"""Rows of each index ``ANALYZE`` (after a migration, and ``PRAGMA optimize`` as a
connection closes) reads at most: statistics close enough for the planner, gathered in
milliseconds whatever the file's size (SQLite's ``PRAGMA analysis_limit``)."""

_BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
_UNAVAILABLE = (
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_PERM,
)


_STORES: weakref.WeakSet[Storage] = weakref.WeakSet()
"""The open stores of this process, whose idle connections close before a fork."""


def _before_fork() -> None:
    for store in list(_STORES):
        store.close(idle_only=True)


os.register_at_fork(before=_before_fork)


def _still_open(opened: weakref.WeakSet[sqlite_utils.Database]) -> list[sqlite_utils.Database]:
    """The connections of ``opened`` not yet closed."""
    found = []
    for db in list(opened):
        try:
            db.conn.in_transaction  # noqa: B018  (fails on a closed connection)
        except sqlite3.ProgrammingError:
            continue
        found.append(db)
    return found


def _check_patience(timeout: float, waited: float, quiet: float) -> None:
    """Raise :class:`StorageBusy` for a writer that has waited ``waited`` s for its turn,
    nobody having committed for the last ``quiet`` s, when that is longer than the
    connection's busy ``timeout`` (in s), or ``waited`` longer than it and than
    :data:`BUSY_TIMEOUT`."""
    if quiet > timeout or waited > max(timeout, BUSY_TIMEOUT):
        raise StorageBusy(
            f"the database stayed locked for {timeout:g} s: nothing was written; try again"
        )


def _code(error: sqlite3.Error) -> int:
    """SQLite's primary result code of ``error``."""
    return getattr(error, "sqlite_errorcode", 0) & 0xFF


def _refusal(error: sqlite3.OperationalError, waited: float) -> StorageError | None:
    """The refusal for SQLite's "disk full", "busy" and "cannot write" errors (or ``None``)."""
    code = _code(error)
    if code == sqlite3.SQLITE_FULL:
        return StorageFull("the server's disk is full: nothing was written")
    if code in _BUSY:
        return StorageBusy(
            f"the database stayed busy for {waited:g} s: nothing was written; try again"
        )
    if code in _UNAVAILABLE:
        return StorageUnavailable(
            f"the database cannot be used just now ({error}): nothing was written; try again"
        )
    return None


def _optimize(conn: sqlite3.Connection) -> None:
    """``PRAGMA optimize`` before a connection closes (as SQLite's documentation advises):
    it refreshes the statistics of the tables this connection's queries found stale, within
    :data:`ANALYSIS_LIMIT`. Statistics only help: a file that cannot take them now
    (read-only, busy, a connection in a transaction) closes without."""
    try:
        if not conn.in_transaction:
            conn.execute("PRAGMA optimize")
    except sqlite3.Error:
        return


@contextmanager
def _committed(conn: sqlite3.Connection) -> Iterator[None]:
    """``COMMIT`` the transaction begun, or ``ROLLBACK`` when the body or the commit fails.

    SQLite rolls back by itself after some errors (a full disk); then there
    is nothing left to roll back.
    """
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK``)."""
    conn.execute("BEGIN IMMEDIATE")
    with _committed(conn):
        yield


def _migrate_1(db: sqlite_utils.Database) -> None:
    """The first schema: players, games, game_players and the hand log."""
    db.table("players").create(
        {"id": int, "name": str, "created": str}, pk="id", not_null={"name", "created"}
    )
    db.execute("CREATE UNIQUE INDEX players_name ON players (name COLLATE NOCASE)")
    db.table("games").create(
        {
            "id": str,
            "players": str,
            "rules": str,
            "dealer": int,
            "stake": float,
            "created": str,
            "updated": str,
            "status": str,
            "token_hash": str,
        },
        pk="id",
        not_null={"players", "rules", "dealer", "created", "updated", "status", "token_hash"},
    )
    db.table("game_players").create(
        {"game_id": str, "seat": int, "player_id": int},
        pk=("game_id", "seat"),
        not_null={"player_id"},
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
    )
    db.table("game_players").create_index(["player_id"])
    db.table("hands").create(
        {
            "game_id": str,
            "seq": int,
            "kind": str,
            "payload": str,
            "result": str,
            "idempotency_key": str,
            "created": str,
        },
        pk=("game_id", "seq"),
        not_null={"kind", "payload", "result", "created"},
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("hands").create_index(["game_id", "idempotency_key"], unique=True)
    for action in ("UPDATE", "DELETE"):
        db.execute(
            f"CREATE TRIGGER hands_no_{action.lower()} BEFORE {action} ON hands"
            " BEGIN SELECT RAISE(ABORT, 'the hand log is append-only'); END"
        )


def _migrate_2(db: sqlite_utils.Database) -> None:
    """Players by ``name_key``, and ``games.imported``.

    ``players`` is rebuilt with a ``name_key`` column (NOT NULL UNIQUE) in
    place of the case-insensitive index on ``name``. Rows whose names now
    fold together (:func:`~scorekeeper.names.fold`: "Émile" stored
    decomposed and precomposed, "Straße" and "STRASSE") are merged into the
    oldest (first created, then lowest id), which keeps its id and its name
    as stored; the others' ``game_players`` rows are pointed at it and they
    are deleted. Games keep their ``players`` text as entered. Stored names
    are folded as they are (:func:`~scorekeeper.names.fold` refuses
    nothing): a name the code of its day let through still gets a key.

    ``games.imported`` is added; a game stored before it is marked imported
    when one of its hands was written in the same instant as the game
    (``games.import_game`` writes them in one transaction with one time
    stamp; a hand entered at the table comes in a later request).
    """
    conn = db.conn
    conn.execute(
        "CREATE TABLE players_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        " name_key TEXT NOT NULL UNIQUE, created TEXT NOT NULL)"
    )
    kept: dict[str, int] = {}
    for player_id, name, created in conn.execute(
        "SELECT id, name, created FROM players ORDER BY created, id"
    ).fetchall():
        key = fold(name)
        if key in kept:
            conn.execute(
                "UPDATE game_players SET player_id = ? WHERE player_id = ?", (kept[key], player_id)
            )
            continue
        kept[key] = player_id
        conn.execute(
            "INSERT INTO players_new (id, name, name_key, created) VALUES (?, ?, ?, ?)",
            (player_id, name, key, created),
        )
    conn.execute("DROP TABLE players")
    conn.execute("ALTER TABLE players_new RENAME TO players")
    conn.execute("ALTER TABLE games ADD COLUMN imported INTEGER NOT NULL DEFAULT 0")
    conn.execute(
        "UPDATE games SET imported = 1 WHERE EXISTS (SELECT 1 FROM hands h"
        " WHERE h.game_id = games.id AND h.created = games.created)"
    )


def _migrate_3(db: sqlite_utils.Database) -> None:
    """Games created with an ``Idempotency-Key``: the key (unique) and its request's hash.

    Both columns are NULL for a game created without a key (SQLite's unique
    index allows many NULLs).
    """
    db.execute("ALTER TABLE games ADD COLUMN idempotency_key TEXT")
    db.execute("ALTER TABLE games ADD COLUMN request_hash TEXT")
    db.execute("CREATE UNIQUE INDEX games_idempotency_key ON games (idempotency_key)")


def _migrate_4(db: sqlite_utils.Database) -> None:
    """Scorepad edit rights kept server-side: ``edit_rights`` and ``handovers``."""
    conn = db.conn
    conn.execute(
        "CREATE TABLE edit_rights (id INTEGER PRIMARY KEY,"
        " game_id TEXT NOT NULL REFERENCES games (id), device_hash TEXT NOT NULL,"
        " label TEXT NOT NULL, created TEXT NOT NULL, revoked TEXT,"
        " UNIQUE (game_id, device_hash))"
    )
    conn.execute("CREATE INDEX edit_rights_device ON edit_rights (device_hash)")
    conn.execute(
        "CREATE TABLE handovers (game_id TEXT PRIMARY KEY REFERENCES games (id),"
        " secret_hash TEXT NOT NULL, created TEXT NOT NULL)"
    )


def _migrate_5(db: sqlite_utils.Database) -> None:
    """The scored state: ``games.version`` (counted from the log), ``games.scored`` (NULL:
    the next write to a game scores its log once and fills it) and ``sheet_hands``."""
    db.execute("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
    db.execute(
        "UPDATE games SET version = (SELECT count(*) FROM hands h WHERE h.game_id = games.id)"
    )
    db.execute("ALTER TABLE games ADD COLUMN scored TEXT")
    db.execute(
        "CREATE TABLE sheet_hands (game_id TEXT NOT NULL REFERENCES games (id),"
        " n INTEGER NOT NULL, entry TEXT NOT NULL, record TEXT NOT NULL,"
        " summary TEXT NOT NULL, PRIMARY KEY (game_id, n)) WITHOUT ROWID"
    )


def _migrate_6(db: sqlite_utils.Database) -> None:
    """Rematches: ``games.follows``, the game a game is a rematch of (NULL for the games
    stored before: each starts its own chain)."""
    db.execute("ALTER TABLE games ADD COLUMN follows TEXT REFERENCES games (id)")


def _migrate_7(db: sqlite_utils.Database) -> None:
    """API keys: ``api_keys`` (each key's SHA-256 hash, a name unique among unrevoked keys),
    ``key_games`` (which key created a game) and ``retired_tokens`` (edit tokens replaced by
    a rotation)."""
    for statement in (
        "CREATE TABLE api_keys (id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        " key_hash TEXT NOT NULL UNIQUE, created TEXT NOT NULL, revoked TEXT)",
        "CREATE UNIQUE INDEX api_keys_name ON api_keys (name) WHERE revoked IS NULL",
        "CREATE TABLE key_games (game_id TEXT PRIMARY KEY REFERENCES games (id),"
        " key_id INTEGER NOT NULL REFERENCES api_keys (id)) WITHOUT ROWID",
        "CREATE INDEX key_games_key ON key_games (key_id)",
        "CREATE TABLE retired_tokens (game_id TEXT NOT NULL REFERENCES games (id),"
        " token_hash TEXT NOT NULL, retired TEXT NOT NULL,"
        " PRIMARY KEY (game_id, token_hash)) WITHOUT ROWID",
    ):
        db.execute(statement)


def _migrate_8(db: sqlite_utils.Database) -> None:
    """Events (club nights, tournaments): ``events`` (settings, the director token's SHA-256
    hash, an optional Idempotency-Key), ``event_rounds`` (each paired round's byes) and
    ``event_matches`` (each match of a round: its table and its stored game)."""
    for statement in EVENT_TABLES:
        db.execute(statement)


def _migrate_9(db: sqlite_utils.Database) -> None:
    """Matches ended by the event's director: ``event_match_ends`` (winner, totals, time)."""
    db.execute(MATCH_END_TABLE)


def _migrate_10(db: sqlite_utils.Database) -> None:
    """The rights around an event: ``director_rights``, ``director_links`` and
    ``card_generations`` (:mod:`scorekeeper.store.sql_rights`)."""
    for statement in rights_tables("INTEGER PRIMARY KEY"):
        db.execute(statement)


def _migrate_11(db: sqlite_utils.Database) -> None:
    """The cut for the first deal: ``games.cut`` (JSON, one card code per player; NULL for a
    dealer named or drawn by lot, and for the games stored before)."""
    db.execute(ADD_CUT)


def _migrate_12(db: sqlite_utils.Database) -> None:
    """Players found by any part of their names: ``player_words`` (see
    :mod:`~scorekeeper.store.finding`), filled from the names stored; games by date."""
    db.execute(
        "CREATE TABLE player_words (word TEXT NOT NULL,"
        " player_id INTEGER NOT NULL REFERENCES players (id), PRIMARY KEY (word, player_id))"
    )
    rows = word_rows(db.execute(SELECT_ALL_PLAYERS).fetchall())
    db.conn.executemany(BACKFILL_WORD, rows)
    db.execute(GAMES_CREATED_INDEX)


def _migrate_13(db: sqlite_utils.Database) -> None:
    """Keys made for bots and simulations: ``api_keys.bot`` (see
    :mod:`~scorekeeper.store.sql_ratings`)."""
    db.execute(ADD_BOT)


def _migrate_14(db: sqlite_utils.Database) -> None:
    """Ratings: ``games.finished`` (filled for the games ended before) and the fold's cache
    (:mod:`~scorekeeper.store.sql_ratings`)."""
    for statement in RATING_TABLES:
        db.execute(statement)


def _migrate_15(db: sqlite_utils.Database) -> None:
    """The round clock: ``event_rounds.clock_started`` and ``clock_minutes``
    (:mod:`~scorekeeper.store.sql_clock`)."""
    for statement in ADD_CLOCK:
        db.execute(statement)


def _migrate_roster(db: sqlite_utils.Database) -> None:
    """The director's roster changes: ``event_roster`` (late entries, withdrawals) and each
    round's walkovers, ``event_rounds.walkovers`` (:mod:`scorekeeper.store.sql_roster`)."""
    db.execute(ROSTER_TABLE)
    db.execute(ADD_WALKOVERS)


def _migrate_seasons(db: sqlite_utils.Database) -> None:
    """Seasons: ``seasons`` and the events by creation time
    (:mod:`~scorekeeper.store.sql_seasons`)."""
    for statement in SEASON_TABLES:
        db.execute(statement)


def _migrate_game_results(db: sqlite_utils.Database) -> None:
    """Each finished game's result, kept by triggers: ``game_results``
    (:func:`~scorekeeper.store.sql_seasons.sqlite_result_triggers`)."""
    for statement in sqlite_result_triggers():
        db.execute(statement)


def _migrate_tallies(db: sqlite_utils.Database) -> None:
    """Games and records at any size: ``player_games``, ``key_games.created``,
    ``hand_pairs``, ``games.won_by`` and ``games_updated`` (see
    :mod:`~scorekeeper.store.tallies`), filled from what is stored."""
    for statement in tallies.tables("INTEGER", " WITHOUT ROWID"):
        db.execute(statement)
    tallies.fill(db.conn, str)


def _migrate_totals(db: sqlite_utils.Database) -> None:
    """Each player's record as running totals: ``player_totals`` and ``rival_totals`` (see
    :mod:`~scorekeeper.store.totals`), filled from the games stored."""
    for statement in totals_schema.tables("INTEGER", " WITHOUT ROWID"):
        db.execute(statement)
    totals_schema.fill(db.conn, str)


def _migrate_rating_changes(db: sqlite_utils.Database) -> None:
    """The count of changes to the rated games, kept by triggers, and the ratings cache's
    copy of it: a read checks in one row that nothing changed
    (:mod:`~scorekeeper.store.sql_rating_changes`)."""
    for statement in (*COUNTER, *SQLITE_TRIGGERS):
        db.execute(statement)


MIGRATIONS: tuple[Callable[[sqlite_utils.Database], None], ...] = (
    _migrate_1,
    _migrate_2,
    _migrate_3,
    _migrate_4,
    _migrate_5,
    _migrate_6,
    _migrate_7,
    _migrate_8,
    _migrate_9,
    _migrate_10,
    _migrate_11,
    _migrate_12,
    _migrate_13,
    _migrate_14,
    _migrate_15,
    _migrate_roster,
    _migrate_seasons,
    _migrate_game_results,
    _migrate_tallies,
    _migrate_totals,
    _migrate_rating_changes,
)
"""Schema migrations in order; migration ``i`` takes the file to version ``i + 1``."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema version this code writes."""


class Storage(SqlStore):
    """The game store in one SQLite file; see the module docs for the tables.

    Opening a store runs any pending migrations. Games are returned as
    :class:`~scorekeeper.store.base.StoredGame`\\ s and log entries as
    :class:`~scorekeeper.store.base.LogEntry`\\ s. ``durable=False`` (unit tests
    only) writes with ``synchronous = OFF``: fast, but not safe against a crash of the machine.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        durable: bool = True,
        busy_timeout: float = BUSY_TIMEOUT,
        waiting_writers: int = 1,
    ):
        """Open (and migrate) the file; ``busy_timeout`` and ``waiting_writers`` bound the
        wait for the write lock (see the module docs)."""
        self.path = os.fspath(path) if path is not None else DEFAULT_PATH
        self.durable = durable
        self.busy_timeout = busy_timeout
        self._local = threading.local()
        self._waiting = threading.BoundedSemaphore(waiting_writers)
        self._stalled: dict[int, float] = {}  # writer in a place -> the last commit it saw
        self._turn = threading.Lock()  # held by this process's writer from BEGIN to the end
        self._opened: weakref.WeakSet[sqlite_utils.Database] = weakref.WeakSet()
        self._opened_pid = os.getpid()
        self._opening = threading.Lock()
        self._generation = 0  # moved on by close(): every thread's connection is closed
        self.migrate()
        _STORES.add(self)

    # ------------------------------------------------------------------ connections

    def _connect(self) -> sqlite_utils.Database:
        conn = sqlite3.connect(
            self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False
        )
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA analysis_limit = {ANALYSIS_LIMIT}")
        conn.execute(f"PRAGMA synchronous = {'FULL' if self.durable else 'OFF'}")
        return sqlite_utils.Database(conn)

    @property
    def db(self) -> sqlite_utils.Database:
        """This thread's connection (its own in each process: see the module docs)."""
        local = self._local
        pid = os.getpid()
        if getattr(local, "pid", None) != pid or local.generation != self._generation:
            with self._opening:
                if self._opened_pid != pid:  # the first connection of a forked child
                    if _still_open(self._opened):
                        raise StorageError(
                            f"{self.path}: a connection of the parent process crossed a fork"
                            " (in a transaction as it forked): this process may not use it"
                        )
                    self._opened = weakref.WeakSet()
                    self._opened_pid = pid
                local.db = self._connect()
                self._opened.add(local.db)
                local.generation = self._generation
            local.readonly = not os.access(self.path, os.W_OK)
            local.pid = pid
        db: sqlite_utils.Database = local.db
        return db

    def close(self, *, idle_only: bool = False) -> None:
        """Close every connection this process opened through the store (each thread's
        reopens on next use): before a fork, and when the store is done with. With
        ``idle_only`` (before a fork) a connection in a transaction is left open."""
        with self._opening:
            if self._opened_pid == os.getpid():
                for db in list(self._opened):
                    if not idle_only:
                        _optimize(db.conn)
                    if not (idle_only and db.conn.in_transaction):
                        db.conn.close()
                        self._opened.discard(db)
            self._generation += 1

    def _close_mine(self) -> None:
        """Close this thread's connection (it reopens on next use)."""
        local = self._local
        if getattr(local, "pid", None) == os.getpid():
            local.db.conn.close()
            self._opened.discard(local.db)
        local.pid = None

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection for one read or write, SQLite's errors made refusals.

        "Disk full", "busy" and "cannot write" become :class:`StorageFull`,
        :class:`StorageBusy` and :class:`StorageUnavailable`; after the last
        the connection is closed, to be opened afresh by the next request.
        """
        try:
            yield self.db.conn
        except sqlite3.OperationalError as error:
            refusal = _refusal(error, self.busy_timeout)
            if refusal is None:
                raise
            if isinstance(refusal, StorageUnavailable):
                self._close_mine()
            raise refusal from error
        finally:
            if getattr(self._local, "readonly", False):
                self._close_mine()  # opened while the file was read-only: see the module docs

    def _begin(self, conn: sqlite3.Connection) -> None:
        """Take this process's turn and ``BEGIN IMMEDIATE``, waiting while other writers commit.

        SQLite's busy handler is off meanwhile: this loop polls (after
        :data:`FIRST_POLL` s, doubling up to :data:`POLL` s) instead, so it
        can tell a busy lock (commits keep coming: ``PRAGMA data_version``
        moves) from a stuck one. A writer gives up (:class:`StorageBusy`)
        when nobody has committed for the connection's busy timeout (or after
        :data:`BUSY_TIMEOUT` in all); it needs a waiting place once nobody
        has committed for :data:`QUICK_WAIT` s or a writer in a place has seen
        no commit for that long, and is refused at once when there is none
        free. On return the caller holds the turn (:meth:`_write` gives it
        back); on a refusal it is given back here.
        """
        timeout = int(self.busy_timeout * 1000)  # milliseconds, as sqlite3.connect set it
        conn.execute("PRAGMA busy_timeout = 0")
        me, placed, turn = threading.get_ident(), False, False
        try:
            start = progress = time.monotonic()
            version = None
            delay = FIRST_POLL
            while True:
                turn = turn or self._turn.acquire(timeout=delay)
                if turn:
                    try:
                        conn.execute("BEGIN IMMEDIATE")
                        return
                    except sqlite3.OperationalError as error:
                        if _code(error) not in _BUSY:
                            raise
                now = time.monotonic()
                seen = conn.execute("PRAGMA data_version").fetchone()[0]
                if seen != version:
                    version, progress = seen, now
                _check_patience(timeout / 1000, now - start, now - progress)
                if not placed and (now - progress > QUICK_WAIT or self._stuck(now)):
                    placed = self._waiting.acquire(blocking=False)
                    if not placed:
                        raise StorageBusy(
                            "the database is locked and other requests already"
                            " wait to write: nothing was written; try again"
                        )
                if placed:
                    self._stalled[me] = progress
                if turn:
                    time.sleep(delay)
                delay = min(2 * delay, POLL)
        except BaseException:
            if turn:
                self._turn.release()
            raise
        finally:
            if placed:
                del self._stalled[me]
                self._waiting.release()
            conn.execute(f"PRAGMA busy_timeout = {timeout}")

    def _stuck(self, now: float) -> bool:
        """Whether a writer of this process in a waiting place has seen no commit for
        :data:`QUICK_WAIT` s."""
        return any(now - since > QUICK_WAIT for since in list(self._stalled.values()))

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction on this thread's connection (see :meth:`_read`)."""
        with self._read() as conn:
            self._begin(conn)
            try:
                with _committed(conn):
                    yield conn
            finally:
                self._turn.release()

    def migrate(self) -> int:
        """Bring the file to :data:`SCHEMA_VERSION` (WAL mode on); returns the version.

        Refuses a file written by a newer version of this code. Migrations run
        in one transaction with foreign keys off (so a table can be rebuilt,
        as SQLite's ALTER TABLE documentation does it); the foreign keys are
        checked before it commits.
        """
        db = self._connect()
        try:
            db.enable_wal()
            db.conn.execute("PRAGMA foreign_keys = OFF")
            with _transaction(db.conn):
                version = db.conn.execute("PRAGMA user_version").fetchone()[0]
                steps = pending_steps(version, SCHEMA_VERSION, self.path)
                for step in steps:
                    MIGRATIONS[step](db)
                    db.conn.execute(f"PRAGMA user_version = {step + 1}")
                if steps:  # new tables and indexes: the planner's statistics at once
                    db.conn.execute("ANALYZE")
                broken = db.conn.execute("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise StorageError(
                        f"{self.path}: migrating left rows without their parent row: {broken[:5]}"
                    )
            return SCHEMA_VERSION
        finally:
            db.conn.close()

    # ------------------------------------------------------------------ reads

    def schema_version(self) -> int:
        """The file's schema version (``PRAGMA user_version``)."""
        with self._read() as conn:
            version: int = conn.execute("PRAGMA user_version").fetchone()[0]
            return version

    @contextmanager
    def _snapshot(self) -> Iterator[sqlite3.Connection]:
        """One read transaction on this thread's connection: its reads see one moment."""
        with self._read() as conn:
            conn.execute("BEGIN")
            try:
                yield conn
            finally:
                conn.execute("COMMIT")
