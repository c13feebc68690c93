"""Storage in PostgreSQL: the same tables and guarantees as the SQLite file, for several servers.

A :class:`PostgresStore` is opened with a ``postgresql://`` address (a
libpq URL: ``postgresql://user:password@host:port/database``); every
scorekeeper server given that address shares the one database, so two
machines behind a load balancer keep one set of games.

Tables (created by :data:`MIGRATIONS`; ``schema_version`` holds the one
row saying which of them ran):

* ``players``: id, name as first entered, ``name_key`` (NOT NULL UNIQUE:
  lookups go by it) and created.
* ``games``: id, players (JSON), rules snapshot (JSON), first dealer,
  stake, created, updated, status, the edit token's SHA-256 hash and
  ``imported`` (true for a game brought in by ``games.import_game``), and
  ``follows`` (migration 5): the game this one is a rematch of, or NULL.
* ``game_players``: which player sits in which seat of a game.
* ``hands``: the append-only log, primary key (game, seq), the idempotency
  key unique per game. A trigger refuses UPDATE, DELETE and TRUNCATE.
* the scored state (migration 3, see :mod:`scorekeeper.store.base`):
  ``games.version``, ``games.scored`` and ``sheet_hands``, as in SQLite's
  schema 4.

JSON columns hold the same text the SQLite backend writes
(:func:`~scorekeeper.store.base.dumps`), and times the same ISO 8601 text,
so both backends return identical dicts and compare a repeated request
with its idempotency key the same way.

Every write is one transaction. :meth:`PostgresStore.append` first locks
the game's row (``SELECT ... FOR UPDATE``): writers to one game queue
there, and the log read after the lock, the ``If-Match`` version check,
the idempotency-key lookup and the insert all see every write committed
before. Writers to different games do not wait for each other. A write
kept waiting for a lock longer than :data:`BUSY_TIMEOUT` (``lock_timeout``)
or chosen as a deadlock victim raises :class:`StorageBusy`; a full disk
raises :class:`StorageFull`; either way PostgreSQL rolled it back.
Commits are durable with PostgreSQL's defaults (``fsync`` and
``synchronous_commit`` on): an acknowledged hand survives a crash of the
scorekeeper server and of the database server alike.

Connections come from a :class:`psycopg_pool.ConnectionPool` opened on
first use in each process (a pool's sockets and threads do not survive a
fork: gunicorn's workers each open their own; a pool inherited from the
parent is left alone, never closed, as its sockets are the parent's).
Migrations use a connection of their own, so the gunicorn master that
runs them before forking holds no pool. A pooled connection is checked
before each use, so a restarted database server costs no failed request.
Each connection's ``application_name`` is ``scorekeeper-<pid>``: in
``pg_stat_activity`` an operator sees which worker holds which session.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
import psycopg_pool
from psycopg import errors as pg_errors

from ..names import name_key
from .base import (
    GAME_COLUMNS,
    LOG_COLUMNS,
    Decide,
    GameView,
    KeyReused,
    NotFound,
    StorageBusy,
    StorageError,
    StorageFull,
    check_version,
    dumps,
    dumps_in_order,
    game_from_row,
    log_entries,
    now,
    replayed_seq,
    sheet_rows,
)

SCHEMES = ("postgresql://", "postgres://")
"""The address prefixes that name a PostgreSQL database (libpq's two URL schemes)."""

BUSY_TIMEOUT = 30.0
"""Seconds a write waits for another writer's lock (or a free pooled connection)."""

POOL_SIZE = 4
"""Connections at most in one process's pool (a gunicorn worker runs 2 threads by default)."""

MIGRATION_LOCK = 0x5C0E  # any constant: the advisory lock servers starting together take
"""Advisory lock held while migrating, so servers started at once migrate one at a time."""


def is_postgres(address: str | os.PathLike[str]) -> bool:
    """Whether ``address`` is a PostgreSQL URL (otherwise it is a SQLite file path)."""
    return isinstance(address, str) and address.startswith(SCHEMES)


def _migrate_1(conn: psycopg.Connection) -> None:
    """The first schema: players, games, game_players and the append-only hand log."""
    conn.execute("""
        CREATE TABLE players (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            name text NOT NULL,
            name_key text NOT NULL UNIQUE,
            created text NOT NULL);
        CREATE TABLE games (
            id text PRIMARY KEY,
            players text NOT NULL,
            rules text NOT NULL,
            dealer integer NOT NULL,
            stake double precision,
            created text NOT NULL,
            updated text NOT NULL,
            status text NOT NULL,
            token_hash text NOT NULL,
            imported boolean NOT NULL DEFAULT false);
        CREATE TABLE game_players (
            game_id text NOT NULL REFERENCES games (id),
            seat integer NOT NULL,
            player_id bigint NOT NULL REFERENCES players (id),
            PRIMARY KEY (game_id, seat));
        CREATE INDEX game_players_player ON game_players (player_id);
        CREATE TABLE hands (
            game_id text NOT NULL REFERENCES games (id),
            seq integer NOT NULL,
            kind text NOT NULL,
            payload text NOT NULL,
            result text NOT NULL,
            idempotency_key text,
            created text NOT NULL,
            PRIMARY KEY (game_id, seq),
            UNIQUE (game_id, idempotency_key));
        CREATE FUNCTION hands_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'the hand log is append-only'; END $$;
        CREATE TRIGGER hands_no_change BEFORE UPDATE OR DELETE ON hands
            FOR EACH ROW EXECUTE FUNCTION hands_append_only();
        CREATE TRIGGER hands_no_truncate BEFORE TRUNCATE ON hands
            FOR EACH STATEMENT EXECUTE FUNCTION hands_append_only();
    """)


def _migrate_2(conn: psycopg.Connection) -> None:
    """Games created with an ``Idempotency-Key``: the key (unique) and its request's hash.

    Both NULL for a game created without a key (a unique index allows many
    NULLs), as in SQLite's schema 3.
    """
    conn.execute("ALTER TABLE games ADD COLUMN idempotency_key text UNIQUE,"
                 " ADD COLUMN request_hash text")


def _migrate_3(conn: psycopg.Connection) -> None:
    """Scorepad edit rights kept server-side: ``edit_rights`` and ``handovers``."""
    conn.execute("""
        CREATE TABLE edit_rights (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            game_id text NOT NULL REFERENCES games (id),
            device_hash text NOT NULL,
            label text NOT NULL,
            created text NOT NULL,
            revoked text,
            UNIQUE (game_id, device_hash));
        CREATE INDEX edit_rights_device ON edit_rights (device_hash);
        CREATE TABLE handovers (
            game_id text PRIMARY KEY REFERENCES games (id),
            secret_hash text NOT NULL,
            created text NOT NULL);
    """)


def _migrate_4(conn: psycopg.Connection) -> None:
    """The scored state: ``games.version`` (counted from the log), ``games.scored`` (NULL:
    the next write to a game scores its log once and fills it) and ``sheet_hands``."""
    conn.execute("""
        ALTER TABLE games ADD COLUMN version integer NOT NULL DEFAULT 0,
            ADD COLUMN scored text;
        UPDATE games SET version = (SELECT count(*) FROM hands h WHERE h.game_id = games.id);
        CREATE TABLE sheet_hands (
            game_id text NOT NULL REFERENCES games (id),
            n integer NOT NULL,
            entry text NOT NULL,
            record text NOT NULL,
            summary text NOT NULL,
            PRIMARY KEY (game_id, n));
    """)


def _migrate_5(conn: psycopg.Connection) -> None:
    """Rematches: ``games.follows``, the game a game is a rematch of (NULL for the games
    stored before: each starts its own chain), as in SQLite's schema 6."""
    conn.execute("ALTER TABLE games ADD COLUMN follows text REFERENCES games (id)")


MIGRATIONS: tuple[Callable[[psycopg.Connection], None], ...] = (
    _migrate_1, _migrate_2, _migrate_3, _migrate_4, _migrate_5)
"""Schema migrations in order; migration ``i`` takes the database to version ``i + 1``."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema version this code writes."""


def _unavailable(error: psycopg.Error) -> StorageError | None:
    """The refusal for PostgreSQL's "disk full" and lock-wait errors (``None`` for others)."""
    if isinstance(error, pg_errors.DiskFull):
        return StorageFull("the server's disk is full: nothing was written",
                           code="storage_full")
    if isinstance(error, pg_errors.LockNotAvailable | pg_errors.DeadlockDetected
                  | psycopg_pool.PoolTimeout):
        return StorageBusy(f"the database stayed busy for {BUSY_TIMEOUT:g} s: nothing was"
                           " written; try again", code="busy")
    return None


class PostgresStore:
    """The game store in a PostgreSQL database; see the module docs.

    Opening one runs any pending migrations. ``busy_timeout`` is how long a
    write waits for a lock (default :data:`BUSY_TIMEOUT`).
    """

    def __init__(self, url: str, *, busy_timeout: float = BUSY_TIMEOUT):
        self.url = url
        self.busy_timeout = busy_timeout
        self._pool: psycopg_pool.ConnectionPool | None = None
        self._pid: int | None = None
        self._lock = threading.Lock()
        self.migrate()

    # ------------------------------------------------------------------ connections

    def _this_process_pool(self) -> psycopg_pool.ConnectionPool:
        """This process's pool, opened on first use (a new one after a fork)."""
        with self._lock:
            if self._pid != os.getpid():
                self._pool = psycopg_pool.ConnectionPool(
                    self.url, min_size=1, max_size=POOL_SIZE, timeout=BUSY_TIMEOUT,
                    check=psycopg_pool.ConnectionPool.check_connection, name="scorekeeper",
                    kwargs={"application_name": f"scorekeeper-{os.getpid()}"}, open=True)
                self._pid = os.getpid()
            assert self._pool is not None
            return self._pool

    def close(self) -> None:
        """Close this process's pool (a new one opens on next use)."""
        with self._lock:
            if self._pid == os.getpid() and self._pool is not None:
                self._pool.close()
            self._pool, self._pid = None, None

    @contextmanager
    def _transaction(self, *, write: bool) -> Iterator[psycopg.Connection]:
        """One transaction on a pooled connection: committed if the body returns.

        A write transaction waits at most ``busy_timeout`` for a lock;
        PostgreSQL's "disk full" and lock-wait errors become
        :class:`StorageFull` and :class:`StorageBusy`.
        """
        try:
            with self._this_process_pool().connection() as conn, conn.transaction():
                if write:
                    conn.execute("SELECT set_config('lock_timeout', %s, true)",
                                 (f"{round(self.busy_timeout * 1000)}ms",))
                yield conn
        except (psycopg.Error, psycopg_pool.PoolTimeout) as error:
            refusal = _unavailable(error)
            if refusal is None:
                raise
            raise refusal from error

    def migrate(self) -> int:
        """Bring the database to :data:`SCHEMA_VERSION`; returns the version.

        One transaction under an advisory lock (servers starting at once
        take turns; DDL is transactional, so a failed migration leaves
        nothing). Refuses a database written by a newer version of this code.
        """
        with psycopg.connect(self.url) as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version"
                         " (version integer NOT NULL)")
            row = conn.execute("SELECT version FROM schema_version").fetchone()
            version = 0 if row is None else row[0]
            if version > SCHEMA_VERSION:
                raise StorageError(f"the database has schema version {version}; this"
                                   f" scorekeeper knows up to {SCHEMA_VERSION}")
            for step in range(version, SCHEMA_VERSION):
                MIGRATIONS[step](conn)
            if row is None:
                conn.execute("INSERT INTO schema_version VALUES (%s)", (SCHEMA_VERSION,))
            else:
                conn.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION,))
        return SCHEMA_VERSION

    # ------------------------------------------------------------------ reads

    def schema_version(self) -> int:
        """The database's schema version (the ``schema_version`` table)."""
        with self._transaction(write=False) as conn:
            row = conn.execute("SELECT version FROM schema_version").fetchone()
        assert row is not None  # migrate() wrote the table's one row
        return row[0]

    def game(self, game_id: str) -> dict:
        """The game ``game_id``; raises :class:`NotFound`."""
        with self._transaction(write=False) as conn:
            return self._game(conn, game_id)

    def log(self, game_id: str) -> list[dict]:
        """The game's log entries in sequence order (``[]`` for an unknown game)."""
        with self._transaction(write=False) as conn:
            return self._log(conn, game_id)

    @contextmanager
    def _snapshot(self) -> Iterator[psycopg.Connection]:
        """A REPEATABLE READ transaction: all its reads see one moment."""
        with self._transaction(write=False) as conn:
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            yield conn

    def game_and_log(self, game_id: str) -> tuple[dict, list[dict]]:
        """The game and its log read in one transaction (a consistent snapshot)."""
        with self._snapshot() as conn:
            return self._game(conn, game_id), self._log(conn, game_id)

    def player(self, name: str) -> dict:
        """The player called ``name`` (by :func:`name_key`) as ``{"id", "name", "created"}``."""
        with self._transaction(write=False) as conn:
            row = conn.execute("SELECT id, name, created FROM players WHERE name_key = %s",
                               (name_key(name),)).fetchone()
        if row is None:
            raise NotFound(f"no player called {name!r}", field="name")
        return {"id": row[0], "name": row[1], "created": row[2]}

    def games_of(self, name: str) -> list[tuple[dict, list[dict]]]:
        """Every game the player ``name`` sits in, oldest first, each with its log."""
        player = self.player(name)
        with self._snapshot() as conn:
            ids = [row[0] for row in conn.execute(
                "SELECT g.id FROM games g JOIN game_players p ON p.game_id = g.id"
                " WHERE p.player_id = %s ORDER BY g.created, g.id", (player["id"],))]
            return [(self._game(conn, i), self._log(conn, i)) for i in ids]

    @staticmethod
    def _game(conn: psycopg.Connection, game_id: str, *, lock: bool = False) -> dict:
        row = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = %s"
                           + (" FOR UPDATE" if lock else ""), (game_id,)).fetchone()
        if row is None:
            raise NotFound(f"no game with id {game_id!r}", field="id")
        return game_from_row(row)

    @staticmethod
    def _rows(conn: psycopg.Connection, game_id: str, start: int) -> list[dict]:
        found = conn.execute("SELECT n, entry, record, summary FROM sheet_hands"
                             " WHERE game_id = %s AND n >= %s ORDER BY n",
                             (game_id, start)).fetchall()
        return sheet_rows(found)

    @staticmethod
    def _put_rows(conn: psycopg.Connection, game_id: str, start: int,
                  rows: Sequence[dict]) -> None:
        """Replace the game's sheet rows from hand ``start`` on by ``rows``."""
        conn.execute("DELETE FROM sheet_hands WHERE game_id = %s AND n >= %s", (game_id, start))
        with conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO sheet_hands (game_id, n, entry, record, summary)"
                " VALUES (%s, %s, %s, %s, %s)",
                [(game_id, row["n"], dumps_in_order(row["entry"]),
                  dumps_in_order(row["record"]), dumps_in_order(row["summary"])) for row in rows])

    @staticmethod
    def _log(conn: psycopg.Connection, game_id: str) -> list[dict]:
        return log_entries(conn.execute(
            f"SELECT {LOG_COLUMNS} FROM hands WHERE game_id = %s ORDER BY seq", (game_id,)))

    # ------------------------------------------------------------------ writes

    def create_game(
        self,
        *,
        game_id: str,
        players: Sequence[str],
        rules: dict,
        dealer: int,
        stake: float | None,
        token_hash: str,
        status: str = "active",
        entries: Sequence[tuple[str, Any, Any]] = (),
        imported: bool = False,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
        scored: dict | None = None,
        rows: Sequence[dict] = (),
        follows: str | None = None,
    ) -> dict:
        """Store a new game (and its players); returns it as :meth:`game` would.

        ``entries`` are ``(kind, payload, result)`` log rows written with it
        in the same transaction (an imported game, ``imported`` true),
        ``scored`` and ``rows`` its summary and sheet rows, ``follows`` the
        game it is a rematch of. New
        players are inserted in :func:`name_key` order, so two games
        creating the same two players at once cannot deadlock. With an
        ``idempotency_key`` already used by a game created by the same
        request (``request_hash``), nothing is written and that game is
        returned; used by another request, it raises :class:`KeyReused`.
        The insert waits for a concurrent create with the same key
        (``ON CONFLICT DO NOTHING``), so the key makes one game however
        many servers are asked at once.
        """
        stamp = now()
        with self._transaction(write=True) as conn:
            created = conn.execute(
                f"INSERT INTO games ({GAME_COLUMNS}, idempotency_key, request_hash) VALUES"
                " (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
                (game_id, dumps(list(players)), dumps(rules), dealer, stake, stamp, stamp,
                 status, token_hash, imported, len(entries),
                 None if scored is None else dumps_in_order(scored), follows,
                 idempotency_key, request_hash)).fetchone()
            if created is None:  # the key's game exists
                row = conn.execute("SELECT id, request_hash FROM games WHERE idempotency_key"
                                   " = %s", (idempotency_key,)).fetchone()
                assert row is not None  # the conflict that skipped the insert is this row
                if row[1] != request_hash:
                    raise KeyReused(f"Idempotency-Key {idempotency_key!r} was already used"
                                    " for a different request", field="Idempotency-Key")
                return self._game(conn, row[0])
            for name in sorted(players, key=name_key):
                conn.execute("INSERT INTO players (name, name_key, created) VALUES (%s, %s, %s)"
                             " ON CONFLICT (name_key) DO NOTHING", (name, name_key(name), stamp))
            for seat, name in enumerate(players):
                conn.execute(
                    "INSERT INTO game_players (game_id, seat, player_id) SELECT %s, %s, id"
                    " FROM players WHERE name_key = %s", (game_id, seat, name_key(name)))
            with conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO hands (game_id, seq, kind, payload, result, created)"
                    " VALUES (%s, %s, %s, %s, %s, %s)",
                    [(game_id, seq, kind, dumps(payload), dumps(result), stamp)
                     for seq, (kind, payload, result) in enumerate(entries, 1)])
            self._put_rows(conn, game_id, 1, rows)
            return self._game(conn, game_id)

    def append(
        self,
        game_id: str,
        kind: str,
        payload: Any,
        decide: Decide,
        *,
        idempotency_key: str | None = None,
        expected_version: int | None = None,
    ) -> tuple[dict, bool, dict, list[dict]]:
        """Append one entry to a game's log; returns ``(entry, created, game, log)``.

        As :meth:`scorekeeper.store.sqlite.Storage.append`, in one
        transaction that starts by locking the game's row: a repeated
        ``idempotency_key`` returns the stored entry (``created`` False) and
        the whole log, or raises :class:`KeyReused`; an
        ``expected_version`` other than the game's ``version`` raises
        :class:`Stale`; ``decide(game, view)`` computes the result, status
        and scored state (or raises: nothing is written).
        """
        with self._transaction(write=True) as conn:
            game = self._game(conn, game_id, lock=True)
            if idempotency_key is not None:
                seq = replayed_seq(conn.execute(
                    "SELECT seq, kind, payload FROM hands WHERE game_id = %s"
                    " AND idempotency_key = %s", (game_id, idempotency_key)).fetchone(),
                    kind, payload, idempotency_key)
                if seq is not None:
                    log = self._log(conn, game_id)
                    return log[seq - 1], False, game, log
            check_version(expected_version, game["version"])
            result, status, change = decide(game, GameView(
                rows=lambda start: self._rows(conn, game_id, start),
                log=lambda: self._log(conn, game_id)))
            entry = {"seq": game["version"] + 1, "kind": kind, "payload": payload,
                     "result": result, "idempotency_key": idempotency_key, "created": now()}
            conn.execute(
                "INSERT INTO hands (game_id, seq, kind, payload, result, idempotency_key,"
                " created) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                (game_id, entry["seq"], kind, dumps(payload), dumps(result),
                 idempotency_key, entry["created"]))
            conn.execute("UPDATE games SET status = %s, updated = %s, version = %s,"
                         " scored = %s WHERE id = %s",
                         (status, entry["created"], entry["seq"], dumps_in_order(change["scored"]),
                          game_id))
            self._put_rows(conn, game_id, change["start"], change["rows"])
            return entry, True, {**game, "status": status, "updated": entry["created"],
                                 "version": entry["seq"], "scored": change["scored"]}, []

    # ------------------------------------------------------------------ scorepad edit rights

    def grant_edit(self, game_id: str, device_hash: str, label: str) -> None:
        """Let the device whose id hashes to ``device_hash`` change game ``game_id``.

        As :meth:`scorekeeper.store.sqlite.Storage.grant_edit`: a held right is
        kept as it is, a revoked one comes back with the new label and time.
        """
        with self._transaction(write=True) as conn:
            conn.execute(
                "INSERT INTO edit_rights (game_id, device_hash, label, created)"
                " VALUES (%s, %s, %s, %s) ON CONFLICT (game_id, device_hash) DO UPDATE"
                " SET label = excluded.label, created = excluded.created, revoked = NULL"
                " WHERE edit_rights.revoked IS NOT NULL",
                (game_id, device_hash, label, now()))

    def has_edit(self, game_id: str, device_hash: str) -> bool:
        """True while that device holds an unrevoked right to change the game."""
        with self._transaction(write=False) as conn:
            return conn.execute(
                "SELECT 1 FROM edit_rights WHERE game_id = %s AND device_hash = %s"
                " AND revoked IS NULL", (game_id, device_hash)).fetchone() is not None

    def edit_rights(self, game_id: str) -> list[dict]:
        """The unrevoked rights of a game, oldest first: ``{"id", "device_hash", "label",
        "created"}``."""
        with self._transaction(write=False) as conn:
            return [{"id": i, "device_hash": h, "label": label, "created": created}
                    for i, h, label, created in conn.execute(
                        "SELECT id, device_hash, label, created FROM edit_rights"
                        " WHERE game_id = %s AND revoked IS NULL ORDER BY created, id",
                        (game_id,))]

    def revoke_edit(self, game_id: str, right_id: int) -> bool:
        """Revoke right ``right_id`` of the game; False when it held no such right."""
        with self._transaction(write=True) as conn:
            return conn.execute(
                "UPDATE edit_rights SET revoked = %s WHERE game_id = %s AND id = %s"
                " AND revoked IS NULL", (now(), game_id, right_id)).rowcount == 1

    def device_games(self, device_hash: str, limit: int) -> list[dict]:
        """The games the device may change, last changed first (at most ``limit``)."""
        with self._transaction(write=False) as conn:
            ids = [row[0] for row in conn.execute(
                "SELECT g.id FROM games g JOIN edit_rights r ON r.game_id = g.id"
                " WHERE r.device_hash = %s AND r.revoked IS NULL"
                " ORDER BY g.updated DESC, g.id LIMIT %s", (device_hash, limit))]
            return [self._game(conn, i) for i in ids]

    def set_handover(self, game_id: str, secret_hash: str | None) -> None:
        """Make ``secret_hash`` the game's hand-over secret (replacing any); ``None`` removes it."""
        with self._transaction(write=True) as conn:
            conn.execute("DELETE FROM handovers WHERE game_id = %s", (game_id,))
            if secret_hash is not None:
                conn.execute("INSERT INTO handovers (game_id, secret_hash, created)"
                             " VALUES (%s, %s, %s)", (game_id, secret_hash, now()))

    def handover(self, game_id: str) -> dict | None:
        """The game's hand-over link as ``{"secret_hash", "created"}``, or ``None``."""
        with self._transaction(write=False) as conn:
            row = conn.execute("SELECT secret_hash, created FROM handovers"
                               " WHERE game_id = %s", (game_id,)).fetchone()
        return None if row is None else {"secret_hash": row[0], "created": row[1]}
