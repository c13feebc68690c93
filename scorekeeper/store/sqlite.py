"""Storage: players, games and each game's append-only hand log in one SQLite file.

The database (default ``./scorekeeper.db``; the store reads no environment:
the app's ``DB`` setting or the command line's ``--db`` names it) runs in
WAL mode with foreign keys on. Its schema version is SQLite's
``user_version``; :data:`~.sqlite_migrations.MIGRATIONS` (the tables:
:mod:`scorekeeper.store.sqlite_migrations`) bring an older file up to date when a
:class:`Storage` opens it. sqlite-utils creates the tables; reads and the
write transactions are plain SQL, the statements and their logic shared with
the PostgreSQL backend (:class:`~scorekeeper.store.sql.SqlStore`): this
module keeps the connections, the transactions, the run of the migrations and the
mapping of SQLite's errors.

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

SQLite's errors become the store's refusals as :mod:`scorekeeper.store.sqlite_faults`
says (a full disk, a busy lock, a file that cannot be written just now).

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
from collections.abc import Iterator
from contextlib import contextmanager

import sqlite_utils

from .refusals import StorageBusy, StorageError, StorageUnavailable
from .sql import SqlStore, pending_steps
from .sqlite_faults import BUSY, error_code, refusal_of
from .sqlite_migrations import MIGRATIONS, SCHEMA_VERSION

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
            refusal = refusal_of(error, self.busy_timeout)
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
                        if error_code(error) not in BUSY:
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
