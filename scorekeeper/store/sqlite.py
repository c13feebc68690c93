"""Storage: players, games and each game's append-only hand log in one SQLite file.

The database (default ``./scorekeeper.db``; the store reads no environment:
the app's ``DB`` setting or the command line's ``--db`` names it) runs in
WAL mode with foreign keys on. Its schema version is SQLite's
``user_version``; :data:`MIGRATIONS` bring an older file up to date when a
:class:`Storage` opens it. sqlite-utils creates the tables; reads and the
write transactions are plain SQL.

Tables:

* ``players``: one row per player: the name as first written and its
  ``name_key`` (:func:`~scorekeeper.names.name_key`, unique: lookups go by it).
* ``games``: id (random, not guessable), players (JSON list), the full rules
  snapshot (JSON), first dealer, stake, created, status (``active`` or
  ``over``, kept in step with the log), the SHA-256 hash of the edit token
  and ``imported`` (true for a game made by ``games.import_game``), and,
  for a game created with an ``Idempotency-Key`` (schema 3), the key
  (unique) and the SHA-256 of the creating request.
* ``game_players``: which player sits in which seat of a game (for stats).
* ``hands``: the log. One row per submitted entry: game, sequence number
  (1, 2, ...), kind, the submitted payload (JSON), the computed result
  (JSON), an optional idempotency key (unique per game) and the time.
  Triggers refuse UPDATE and DELETE: corrections and undos are new rows.
* the scored state (schema 4, see :mod:`scorekeeper.store.base`):
  ``games.version`` (log entries), ``games.scored`` (the sheet's summary,
  JSON, NULL until the first write after the migration) and
  ``sheet_hands``: per game, one row per hand on the sheet (``n``, entry,
  record, summary after it), rewritten from the changed hand on.

Every write is one ``BEGIN IMMEDIATE`` transaction, so concurrent writers
(several gunicorn workers) are serialised by SQLite and a refused write
leaves nothing behind. Connections are per thread and per process.

Durability: ``synchronous = FULL``, so a write is on the disk (the WAL is
fsynced) before it is acknowledged and survives a power cut as well as a
killed process; NORMAL would be faster but may lose the last transactions
on power loss. ``Storage(path, durable=False)`` turns syncing off
(``synchronous = OFF``) for throwaway stores (unit tests): a crash of
the machine may then lose or corrupt the file.

A write SQLite cannot finish because the disk (or the file's page limit)
is full raises :class:`StorageFull`, one that waited :data:`BUSY_TIMEOUT`
for another writer raises :class:`StorageBusy`; either way SQLite has
rolled the transaction back and nothing is half-written.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import sqlite_utils

from ..names import fold, name_key
from .base import (
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
    now,
    replayed_seq,
    sheet_rows,
)

DEFAULT_PATH = "scorekeeper.db"
"""The database file used when no setting or option names one (relative to the working folder)."""

BUSY_TIMEOUT = 30.0
"""Seconds a writer waits for another writer's transaction before giving up."""


def _unavailable(error: sqlite3.OperationalError) -> StorageError | None:
    """The refusal for SQLite's "disk full" and "busy" errors (``None`` for others)."""
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF  # the primary result code
    if code == sqlite3.SQLITE_FULL:
        return StorageFull("the server's disk is full: nothing was written",
                           code="storage_full")
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return StorageBusy(f"the database stayed busy for {BUSY_TIMEOUT:g} s: nothing was"
                           " written; try again", code="busy")
    return None




@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` when the body or the commit fails.

    SQLite rolls back by itself after some errors (a full disk); then there
    is nothing left to roll back.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _migrate_1(db: sqlite_utils.Database) -> None:
    """The first schema: players, games, game_players and the hand log."""
    db["players"].create({"id": int, "name": str, "created": str}, pk="id",
                         not_null={"name", "created"})
    db.execute("CREATE UNIQUE INDEX players_name ON players (name COLLATE NOCASE)")
    db["games"].create(
        {"id": str, "players": str, "rules": str, "dealer": int, "stake": float,
         "created": str, "updated": str, "status": str, "token_hash": str},
        pk="id", not_null={"players", "rules", "dealer", "created", "updated", "status",
                           "token_hash"})
    db["game_players"].create(
        {"game_id": str, "seat": int, "player_id": int}, pk=("game_id", "seat"),
        not_null={"player_id"},
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")])
    db["game_players"].create_index(["player_id"])
    db["hands"].create(
        {"game_id": str, "seq": int, "kind": str, "payload": str, "result": str,
         "idempotency_key": str, "created": str},
        pk=("game_id", "seq"), not_null={"kind", "payload", "result", "created"},
        foreign_keys=[("game_id", "games", "id")])
    db["hands"].create_index(["game_id", "idempotency_key"], unique=True)
    for action in ("UPDATE", "DELETE"):
        db.execute(f"CREATE TRIGGER hands_no_{action.lower()} BEFORE {action} ON hands"
                   " BEGIN SELECT RAISE(ABORT, 'the hand log is append-only'); END")


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
    conn.execute("CREATE TABLE players_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                  " name_key TEXT NOT NULL UNIQUE, created TEXT NOT NULL)")
    kept: dict[str, int] = {}
    for player_id, name, created in conn.execute(
            "SELECT id, name, created FROM players ORDER BY created, id").fetchall():
        key = fold(name)
        if key in kept:
            conn.execute("UPDATE game_players SET player_id = ? WHERE player_id = ?",
                         (kept[key], player_id))
            continue
        kept[key] = player_id
        conn.execute("INSERT INTO players_new (id, name, name_key, created)"
                     " VALUES (?, ?, ?, ?)", (player_id, name, key, created))
    conn.execute("DROP TABLE players")
    conn.execute("ALTER TABLE players_new RENAME TO players")
    conn.execute("ALTER TABLE games ADD COLUMN imported INTEGER NOT NULL DEFAULT 0")
    conn.execute("UPDATE games SET imported = 1 WHERE EXISTS (SELECT 1 FROM hands h"
                  " WHERE h.game_id = games.id AND h.created = games.created)")


def _migrate_3(db: sqlite_utils.Database) -> None:
    """Games created with an ``Idempotency-Key``: the key (unique) and its request's hash.

    Both columns are NULL for a game created without a key (SQLite's unique
    index allows many NULLs).
    """
    db.execute("ALTER TABLE games ADD COLUMN idempotency_key TEXT")
    db.execute("ALTER TABLE games ADD COLUMN request_hash TEXT")
    db.execute("CREATE UNIQUE INDEX games_idempotency_key ON games (idempotency_key)")


def _migrate_4(db: sqlite_utils.Database) -> None:
    """The scored state: ``games.version`` (counted from the log), ``games.scored`` (NULL:
    the next write to a game scores its log once and fills it) and ``sheet_hands``."""
    db.execute("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
    db.execute("UPDATE games SET version = (SELECT count(*) FROM hands h"
               " WHERE h.game_id = games.id)")
    db.execute("ALTER TABLE games ADD COLUMN scored TEXT")
    db.execute("CREATE TABLE sheet_hands (game_id TEXT NOT NULL REFERENCES games (id),"
               " n INTEGER NOT NULL, entry TEXT NOT NULL, record TEXT NOT NULL,"
               " summary TEXT NOT NULL, PRIMARY KEY (game_id, n)) WITHOUT ROWID")


MIGRATIONS: tuple[Callable[[sqlite_utils.Database], None], ...] = (
    _migrate_1, _migrate_2, _migrate_3, _migrate_4)
"""Schema migrations in order; migration ``i`` takes the file to version ``i + 1``."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema version this code writes."""


class Storage:
    """The game store in one SQLite file; see the module docs for the tables.

    Opening a store runs any pending migrations. Games are returned as dicts
    ``{"id", "players", "rules", "dealer", "stake", "created", "updated",
    "status", "token_hash", "imported", "version", "scored"}`` and log entries as ``{"seq",
    "kind", "payload", "result", "idempotency_key", "created"}`` with JSON
    decoded. ``durable=False`` (unit tests only) writes with ``synchronous =
    OFF``: fast, but not safe against a crash of the machine.
    """

    def __init__(self, path: str | os.PathLike | None = None, *, durable: bool = True):
        self.path = os.fspath(path) if path is not None else DEFAULT_PATH
        self.durable = durable
        self._local = threading.local()
        self.migrate()

    # ------------------------------------------------------------------ connections

    def _connect(self) -> sqlite_utils.Database:
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None,
                               check_same_thread=False)
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA synchronous = {'FULL' if self.durable else 'OFF'}")
        return sqlite_utils.Database(conn)

    @property
    def db(self) -> sqlite_utils.Database:
        """This thread's connection (a new one after a fork)."""
        local = self._local
        if getattr(local, "pid", None) != os.getpid():
            local.db = self._connect()
            local.pid = os.getpid()
        return local.db

    def close(self) -> None:
        """Close this thread's connection (it reopens on next use)."""
        local = self._local
        if getattr(local, "pid", None) == os.getpid():
            local.db.conn.close()
        local.pid = None

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction on this thread's connection.

        SQLite's "disk full" and "busy" errors become :class:`StorageFull`
        and :class:`StorageBusy`.
        """
        conn = self.db.conn
        try:
            with _transaction(conn):
                yield conn
        except sqlite3.OperationalError as error:
            refusal = _unavailable(error)
            if refusal is None:
                raise
            raise refusal from error

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
                if version > SCHEMA_VERSION:
                    raise StorageError(f"{self.path} has schema version {version}; this"
                                       f" scorekeeper knows up to {SCHEMA_VERSION}")
                for step in range(version, SCHEMA_VERSION):
                    MIGRATIONS[step](db)
                    db.conn.execute(f"PRAGMA user_version = {step + 1}")
                broken = db.conn.execute("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise StorageError(f"{self.path}: migrating left rows without their"
                                       f" parent row: {broken[:5]}")
            return SCHEMA_VERSION
        finally:
            db.conn.close()

    # ------------------------------------------------------------------ reads

    def schema_version(self) -> int:
        """The file's schema version (``PRAGMA user_version``)."""
        return self.db.conn.execute("PRAGMA user_version").fetchone()[0]

    def game(self, game_id: str) -> dict:
        """The game ``game_id``; raises :class:`NotFound`."""
        return self._game(self.db.conn, game_id)

    def log(self, game_id: str) -> list[dict]:
        """The game's log entries in sequence order (``[]`` for an unknown game)."""
        return self._log(self.db.conn, game_id)

    @contextmanager
    def _snapshot(self) -> Iterator[sqlite3.Connection]:
        """One read transaction on this thread's connection: its reads see one moment."""
        conn = self.db.conn
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            conn.execute("COMMIT")

    def game_and_log(self, game_id: str) -> tuple[dict, list[dict]]:
        """The game and its log read in one transaction (a consistent snapshot)."""
        with self._snapshot() as conn:
            return self._game(conn, game_id), self._log(conn, game_id)

    def player(self, name: str) -> dict:
        """The player whose :func:`~scorekeeper.names.name_key` is ``name``'s.

        As ``{"id", "name", "created"}`` (the name as first written). A name
        that is no valid name raises :class:`~scorekeeper.errors.RuleError`.
        """
        row = self.db.conn.execute(
            "SELECT id, name, created FROM players WHERE name_key = ?",
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
                " WHERE p.player_id = ? ORDER BY g.created, g.id", (player["id"],))]
            return [(self._game(conn, i), self._log(conn, i)) for i in ids]

    @staticmethod
    def _game(conn: sqlite3.Connection, game_id: str) -> dict:
        row = conn.execute(
            "SELECT id, players, rules, dealer, stake, created, updated, status, token_hash,"
            " imported, version, scored FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NotFound(f"no game with id {game_id!r}", field="id")
        return {"id": row[0], "players": json.loads(row[1]), "rules": json.loads(row[2]),
                "dealer": row[3], "stake": row[4], "created": row[5], "updated": row[6],
                "status": row[7], "token_hash": row[8], "imported": bool(row[9]),
                "version": row[10], "scored": None if row[11] is None else json.loads(row[11])}

    @staticmethod
    def _rows(conn: sqlite3.Connection, game_id: str, start: int) -> list[dict]:
        found = conn.execute("SELECT n, entry, record, summary FROM sheet_hands"
                             " WHERE game_id = ? AND n >= ? ORDER BY n",
                             (game_id, start)).fetchall()
        return sheet_rows(found)

    @staticmethod
    def _put_rows(conn: sqlite3.Connection, game_id: str, start: int,
                  rows: Sequence[dict]) -> None:
        """Replace the game's sheet rows from hand ``start`` on by ``rows``."""
        conn.execute("DELETE FROM sheet_hands WHERE game_id = ? AND n >= ?", (game_id, start))
        conn.executemany(
            "INSERT INTO sheet_hands (game_id, n, entry, record, summary) VALUES (?, ?, ?, ?, ?)",
            [(game_id, row["n"], dumps_in_order(row["entry"]),
              dumps_in_order(row["record"]), dumps_in_order(row["summary"])) for row in rows])

    @staticmethod
    def _log(conn: sqlite3.Connection, game_id: str) -> list[dict]:
        return [
            {"seq": seq, "kind": kind, "payload": json.loads(payload),
             "result": json.loads(result), "idempotency_key": key, "created": created}
            for seq, kind, payload, result, key, created in conn.execute(
                "SELECT seq, kind, payload, result, idempotency_key, created FROM hands"
                " WHERE game_id = ? ORDER BY seq", (game_id,))
        ]

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
    ) -> dict:
        """Store a new game (and its players); returns it as :meth:`game` would.

        ``entries`` are ``(kind, payload, result)`` log rows written with it
        in the same transaction, ``scored`` and ``rows`` its summary and sheet
        rows, ``imported`` marks a game made by an import.
        A player is found, or added, by the :func:`~scorekeeper.names.name_key`
        of the name. With an ``idempotency_key`` already used by a game
        created by the same request (``request_hash``), nothing is written
        and that game is returned (its id is not ``game_id``); used by another
        request, it raises :class:`KeyReused`.
        """
        stamp = now()
        with self._write() as conn:
            if idempotency_key is not None:
                row = conn.execute("SELECT id, request_hash FROM games WHERE idempotency_key = ?",
                                   (idempotency_key,)).fetchone()
                if row is not None:
                    if row[1] != request_hash:
                        raise KeyReused(f"Idempotency-Key {idempotency_key!r} was already used"
                                        " for a different request", field="Idempotency-Key")
                    return self._game(conn, row[0])
            conn.execute(
                "INSERT INTO games (id, players, rules, dealer, stake, created, updated,"
                " status, token_hash, imported, idempotency_key, request_hash, version, scored)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, dumps(list(players)), dumps(rules), dealer, stake, stamp, stamp,
                 status, token_hash, imported, idempotency_key, request_hash, len(entries),
                 None if scored is None else dumps_in_order(scored)))
            for seat, name in enumerate(players):
                key = name_key(name, field=f"players.{seat}")
                conn.execute("INSERT OR IGNORE INTO players (name, name_key, created)"
                             " VALUES (?, ?, ?)", (name, key, stamp))
                conn.execute(
                    "INSERT INTO game_players (game_id, seat, player_id) SELECT ?, ?, id"
                    " FROM players WHERE name_key = ?", (game_id, seat, key))
            for seq, (kind, payload, result) in enumerate(entries, 1):
                conn.execute(
                    "INSERT INTO hands (game_id, seq, kind, payload, result, created)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, seq, kind, dumps(payload), dumps(result), stamp))
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

        Inside one ``BEGIN IMMEDIATE`` transaction: the game's row is read,
        ``decide(game, view)`` computes the entry's result, the game's new
        status and scored state (reading the sheet rows it needs through
        ``view``), or raises and nothing is written; then the entry is
        inserted with the next sequence number and the game's row and sheet
        rows updated. ``game`` is the game as the write left it; ``log`` is
        empty (the log is not read).

        With an ``idempotency_key`` already used in this game for the same
        ``kind`` and ``payload``, nothing is written and the stored entry is
        returned with ``created`` False and the whole ``log``; used for a
        different request, it raises :class:`KeyReused`. Otherwise, with an
        ``expected_version`` (the number of log entries the change was based
        on) that is not the game's ``version``, it raises
        :class:`~scorekeeper.errors.Stale`. Raises :class:`NotFound` for an
        unknown game.
        """
        with self._write() as conn:
            game = self._game(conn, game_id)
            if idempotency_key is not None:
                seq = replayed_seq(conn.execute(
                    "SELECT seq, kind, payload FROM hands WHERE game_id = ?"
                    " AND idempotency_key = ?", (game_id, idempotency_key)).fetchone(),
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
                " created) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, entry["seq"], kind, dumps(payload), dumps(result),
                 idempotency_key, entry["created"]))
            conn.execute("UPDATE games SET status = ?, updated = ?, version = ?, scored = ?"
                         " WHERE id = ?", (status, entry["created"], entry["seq"],
                                           dumps_in_order(change["scored"]), game_id))
            self._put_rows(conn, game_id, change["start"], change["rows"])
            return entry, True, {**game, "status": status, "updated": entry["created"],
                                 "version": entry["seq"], "scored": change["scored"]}, []
