"""Storage in PostgreSQL: the same tables and guarantees as the SQLite file, for several servers.

A :class:`PostgresStore` is opened with a ``postgresql://`` address (a
libpq URL: ``postgresql://user:password@host:port/database``); every
scorekeeper server given that address shares the one database, so two
machines behind a load balancer keep one set of games.

The statements and the logic around them are the SQLite backend's
(:class:`~scorekeeper.store.sql.SqlStore`, ``%s`` placeholders): this module
keeps the pool, the transactions, the row lock, the run of the migrations
(:data:`~.postgres_migrations.MIGRATIONS`; the tables:
:mod:`scorekeeper.store.postgres_migrations`) and the mapping of PostgreSQL's errors.

JSON columns hold the same text the SQLite backend writes
(:func:`~scorekeeper.store.base.dumps`), and times the same ISO 8601 text,
so both backends return identical games and compare a repeated request
with its idempotency key the same way.

Every write is one transaction. :meth:`PostgresStore.append` first locks
the game's row (``SELECT ... FOR UPDATE``): writers to one game queue
there, and the log read after the lock, the ``If-Match`` version check,
the idempotency-key lookup and the insert all see every write committed
before. Writers to different games do not wait for each other. A write
kept waiting for a lock longer than the store's ``busy_timeout``
(``lock_timeout``), a request kept waiting that long for a pooled
connection, or a write chosen as a deadlock victim raises
:class:`StorageBusy`; a full disk raises :class:`StorageFull`; a database
that cannot be written just now (a read-only standby) raises
:class:`StorageUnavailable`: the codes SQLite's refusals carry, and either
way PostgreSQL rolled the write back.
Commits are durable with PostgreSQL's defaults (``fsync`` and
``synchronous_commit`` on): an acknowledged hand survives a crash of the
scorekeeper server and of the database server alike.

Connections come from a :class:`psycopg_pool.ConnectionPool` opened on
first use in each process (a pool's sockets and threads do not survive a
fork: gunicorn's workers each open their own; a pool inherited from the
parent is left alone, never closed, as its sockets are the parent's).
Migrations use a connection of their own, so the gunicorn master that
runs them before forking holds no pool. A pooled connection is checked
before each use, so a restarted database server costs no failed request;
while the server is away, requests wait at most :data:`CONNECT_TIMEOUT` for
a connection before :class:`StorageUnavailable` (503 with ``Retry-After``),
and for :data:`AWAY_FOR` after that others are refused at once (a request
that reads twice waits once); the pool reconnects in the background once it
is back.
Each connection's ``application_name`` is ``scorekeeper-<pid>``: in
``pg_stat_activity`` an operator sees which worker holds which session.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

import psycopg
import psycopg_pool
from psycopg import errors as pg_errors

from .postgres_migrations import MIGRATIONS, SCHEMA_VERSION, analyze_own_tables
from .refusals import StorageBusy, StorageError, StorageFull, StorageUnavailable
from .sql import SqlStore, pending_steps, pyformat

BUSY_TIMEOUT = 30.0
"""Seconds a write waits for another writer's lock."""

CONNECT_TIMEOUT = 1.5
"""Seconds a request waits for a pooled connection (a new one is given libpq's 2 s to
connect): with the database server away, requests answer 503 within 2 s, not after
:data:`BUSY_TIMEOUT`."""

AWAY_FOR = 1.0
"""Seconds after a request found the database unreachable during which others are refused
at once (a request that reads twice, a token check then its write, must not wait twice);
the next request after that tries again, so the server heals as soon as the database is
back."""

POOL_SIZE = 4
"""Connections at most in one process's pool (a gunicorn worker runs 2 threads by default)."""

MIGRATION_LOCK = 0x5C0E  # any constant: the advisory lock servers starting together take
"""Advisory lock held while migrating, so servers started at once migrate one at a time."""


_INHERITED: list[psycopg_pool.ConnectionPool] = []
"""Pools a forked child inherited: kept, never used nor closed (closing one would end the
parent's sessions on the sockets they share)."""


SESSION = ("SET jit = off", "SET max_parallel_workers_per_gather = 0")
"""Each pooled connection's settings: the store's statements read a page or a few rows by
index, where compiling a plan (JIT, when the planner overestimates a statement's rows) or
starting parallel workers costs the server more CPU than the statement itself (a search
by a surname at 100,000 games: 55 ms of JIT for a 12 ms count)."""


def _session(conn: psycopg.Connection) -> None:
    """Give a new pooled connection the store's :data:`SESSION` settings."""
    for statement in SESSION:
        conn.execute(statement)
    conn.commit()


def _unreachable(error: psycopg.Error | psycopg_pool.PoolTimeout) -> bool:
    """Whether ``error`` says the database cannot be reached (no pooled connection in time, a
    connection lost or refused, the server shutting down), not that it refused a statement
    (a full disk, a lock wait: those are subclasses of psycopg's OperationalError too)."""
    return (
        isinstance(error, psycopg_pool.PoolTimeout)
        or type(error) is psycopg.OperationalError
        or isinstance(
            error, pg_errors.AdminShutdown | pg_errors.CrashShutdown | pg_errors.CannotConnectNow
        )
    )


def _refusal(error: psycopg.Error | psycopg_pool.PoolTimeout, waited: float) -> StorageError | None:
    """The refusal for PostgreSQL's "disk full", lock-wait and "cannot write" errors, and for a
    database that cannot be reached (no pooled connection in time, a connection lost): the
    classes, codes and words of SQLite's (:mod:`~scorekeeper.store.sqlite`); ``None`` for
    others."""
    if isinstance(error, pg_errors.DiskFull):
        return StorageFull("the server's disk is full: nothing was written")
    if isinstance(error, pg_errors.LockNotAvailable | pg_errors.DeadlockDetected):
        return StorageBusy(
            f"the database stayed busy for {waited:g} s: nothing was written; try again"
        )
    if isinstance(error, pg_errors.ReadOnlySqlTransaction):
        return StorageUnavailable(
            f"the database cannot be used just now ({error}): nothing was written; try again"
        )
    if isinstance(error, psycopg_pool.PoolTimeout | psycopg.OperationalError):
        return StorageUnavailable(
            "the database cannot be reached just now: nothing was written; try again"
        )
    return None


class PostgresStore(SqlStore):
    """The game store in a PostgreSQL database; see the module docs.

    Opening one runs any pending migrations. ``busy_timeout`` is how long a
    write waits for a lock, and any request for a pooled connection (default
    :data:`BUSY_TIMEOUT`). The statements
    and their logic are :class:`~scorekeeper.store.sql.SqlStore`'s, with
    ``%s`` placeholders; a write locks its game's row with ``FOR UPDATE``.
    """

    LOCK_GAME = " FOR UPDATE"
    NOTIFY = "SELECT pg_notify(?, ?)"
    PLAYERS_BY_KEY = True
    sql = staticmethod(pyformat)

    def __init__(self, url: str, *, busy_timeout: float = BUSY_TIMEOUT):
        self.url = url
        self.busy_timeout = busy_timeout
        self._pool: psycopg_pool.ConnectionPool | None = None
        self._pid: int | None = None
        self._lock = threading.Lock()
        self._away_until = 0.0  # time.monotonic() before which the database counts as away
        self.migrate()

    # ------------------------------------------------------------------ connections

    def _this_process_pool(self) -> psycopg_pool.ConnectionPool:
        """This process's pool, opened on first use (a new one after a fork)."""
        with self._lock:
            if self._pid != os.getpid():
                if self._pool is not None:  # a forked child's: its sockets are the parent's
                    _INHERITED.append(self._pool)  # kept, never closed (it would end theirs)
                self._pool = psycopg_pool.ConnectionPool(
                    self.url,
                    min_size=1,
                    max_size=POOL_SIZE,
                    timeout=min(self.busy_timeout, CONNECT_TIMEOUT),
                    check=psycopg_pool.ConnectionPool.check_connection,
                    configure=_session,
                    name="scorekeeper",
                    kwargs={
                        "application_name": f"scorekeeper-{os.getpid()}",
                        "connect_timeout": 2,  # libpq's: whole seconds, 2 at least
                    },
                    open=True,
                )
                self._pid = os.getpid()
            assert self._pool is not None
            return self._pool

    def close(self) -> None:
        """Close this process's pool (a new one opens on next use)."""
        with self._lock:
            if self._pid == os.getpid() and self._pool is not None:
                self._pool.close()
            self._pool, self._pid = None, None
            self._away_until = 0.0  # a new pool tries the database afresh

    @contextmanager
    def _transaction(self, *, write: bool) -> Iterator[psycopg.Connection]:
        """One transaction on a pooled connection: committed if the body returns.

        It waits at most ``busy_timeout`` for a connection, a write as long
        for a lock; PostgreSQL's errors become refusals (:func:`_refusal`).
        """
        if time.monotonic() < self._away_until:
            raise StorageUnavailable(
                "the database cannot be reached just now: nothing was written; try again"
            )
        try:
            with self._this_process_pool().connection() as conn, conn.transaction():
                if write:
                    conn.execute(
                        "SELECT set_config('lock_timeout', %s, true)",
                        (f"{round(self.busy_timeout * 1000)}ms",),
                    )
                yield conn
        except (psycopg.Error, psycopg_pool.PoolTimeout) as error:
            refusal = _refusal(error, self.busy_timeout)
            if refusal is None:
                raise
            if _unreachable(error):
                self._away_until = time.monotonic() + AWAY_FOR
            raise refusal from error

    def migrate(self) -> int:
        """Bring the database to :data:`SCHEMA_VERSION`; returns the version.

        One transaction under an advisory lock (servers starting at once
        take turns; DDL is transactional, so a failed migration leaves
        nothing). Refuses a database written by a newer version of this code.
        """
        with psycopg.connect(self.url) as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)")
            row = conn.execute("SELECT version FROM schema_version").fetchone()
            version = 0 if row is None else row[0]
            steps = pending_steps(version, SCHEMA_VERSION, "the database")
            for step in steps:
                MIGRATIONS[step](conn)
            if steps:  # new tables and indexes: the planner's statistics at once
                analyze_own_tables(conn)
            if row is None:
                conn.execute("INSERT INTO schema_version VALUES (%s)", (SCHEMA_VERSION,))
            else:
                conn.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION,))
        return SCHEMA_VERSION

    # ------------------------------------------------------------------ reads

    def schema_version(self) -> int:
        """The database's schema version (the ``schema_version`` table)."""
        with self._read() as conn:
            row = conn.execute("SELECT version FROM schema_version").fetchone()
        assert row is not None  # migrate() wrote the table's one row
        version: int = row[0]
        return version

    def _read(self) -> AbstractContextManager[psycopg.Connection]:
        """A read transaction (READ COMMITTED) on a pooled connection."""
        return self._transaction(write=False)

    def _write(self) -> AbstractContextManager[psycopg.Connection]:
        """A write transaction on a pooled connection (see :meth:`_transaction`)."""
        return self._transaction(write=True)

    @contextmanager
    def _snapshot(self) -> Iterator[psycopg.Connection]:
        """A REPEATABLE READ transaction: all its reads see one moment."""
        with self._transaction(write=False) as conn:
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            yield conn
