"""Backups of the game store: SQLite's online backup out, and a checked restore in.

:func:`backup` copies the database with SQLite's backup API in one step:
one read transaction, so the copy is a consistent snapshot of some moment
while the server goes on writing (WAL readers do not block writers). The
copy is written to a temporary file beside the target, checked, switched
to a single self-contained file (rollback journal, no ``-wal``), synced
and then renamed over the target, so a backup file is either the old one
or a complete new one. The temporary file is ``.backup-<random>.db`` and
is locked (``flock``) by the run writing it; a run killed outright (``kill
-9``, power cut) cannot remove it, so every backup first removes the
``.backup-*.db`` files in the target's folder that no live run holds
locked (with their ``-journal``, ``-wal`` and ``-shm`` companions). A
backup running at the same moment into the same folder keeps its file.
A target whose folder does not exist is refused (:class:`MissingFolder`).

:func:`check` tells whether a file is a scorekeeper database: SQLite's own
format, ``PRAGMA integrity_check`` ok, a schema version this code knows
and the four tables (opened read-only: the file is not changed).

:func:`restore` checks the source, refuses to replace a database that
holds games unless forced, then copies the source into the database with
the same backup API the other way round. That is one write transaction on
the database: a running server (its connections stay open) sees either
the old games or the restored ones, never a mix, and its writes wait for
the restore and then go to the restored database. Nothing is renamed over
the live file, whose ``-wal`` would otherwise be applied to the wrong
database. Afterwards pending migrations run.

Both are SQLite's: given a ``postgresql://`` address they refuse, pointing
to ``pg_dump`` and ``pg_restore`` (PostgreSQL's own online backup tools).
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import os
import sqlite3
import tempfile
from pathlib import Path

from .base import is_postgres
from .sqlite import BUSY_TIMEOUT, Storage
from .sqlite_migrations import SCHEMA_VERSION

TABLES = ("players", "games", "game_players", "hands")
"""The tables every scorekeeper database has."""


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why, and nothing changed."""


def _refuse_postgres(address: str | os.PathLike[str]) -> None:
    """Raise :class:`BackupError` for a PostgreSQL address: its backups are PostgreSQL's job."""
    if is_postgres(address):
        raise BackupError(
            "the database is PostgreSQL: back it up with pg_dump and restore"
            " it with pg_restore (see README, Backups); scorekeeper backup and"
            " restore work on SQLite files"
        )


class MissingFolder(BackupError):
    """The backup's target is in a folder that does not exist (a mistyped path)."""


TEMP_PREFIX, TEMP_SUFFIX = ".backup-", ".db"
"""How a backup's temporary file is named (beside the target)."""

_COMPANIONS = ("", "-journal", "-wal", "-shm")
"""The files SQLite may keep beside a database file."""


def _open_read_only(path: str) -> sqlite3.Connection:
    """A read-only connection to the database file ``path`` (it is never changed)."""
    return sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)


def check(path: str | os.PathLike[str]) -> dict[str, int]:
    """Check that ``path`` is a sound scorekeeper database; returns its summary.

    ``{"version", "games", "entries"}`` (schema version, games, log
    entries). Raises :class:`BackupError` naming what is wrong.
    """
    name = os.fspath(path)
    if not os.path.isfile(name):
        raise BackupError(f"{name} is not a file")
    try:
        conn = _open_read_only(name)
    except sqlite3.Error as error:
        raise BackupError(f"{name} cannot be opened: {error}") from None
    try:
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{name} is not a SQLite database ({error})") from None
        tables = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        missing = [t for t in TABLES if t not in tables]
        if missing:
            raise BackupError(
                f"{name} is not a scorekeeper database: it has no table {', '.join(missing)}"
            )
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if not 1 <= version <= SCHEMA_VERSION:
            raise BackupError(
                f"{name} has schema version {version}; this scorekeeper reads"
                f" versions 1 to {SCHEMA_VERSION}"
            )
        try:
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{name} is damaged: {error}") from None
        if problems != ["ok"]:
            raise BackupError(f"{name} is damaged: {'; '.join(problems[:3])}")
        return {
            "version": version,
            "games": conn.execute("SELECT count(*) FROM games").fetchone()[0],
            "entries": conn.execute("SELECT count(*) FROM hands").fetchone()[0],
        }
    finally:
        conn.close()


def _same_file(a: str, b: str) -> bool:
    return os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b)


def _sync_dir(path: str) -> None:
    fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(path: str) -> None:
    for companion in _COMPANIONS:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path + companion)


def remove_stale_temporaries(folder: str) -> list[str]:
    """Remove the temporary files of killed backups in ``folder``; returns their paths.

    A file is stale when no process holds its lock: a running backup holds
    its own until it is renamed into place or removed.
    """
    removed = []
    for path in glob.glob(os.path.join(glob.escape(folder), f"{TEMP_PREFIX}*{TEMP_SUFFIX}")):
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue  # a live backup is writing it
        else:
            _remove(path)
            removed.append(path)
        finally:
            os.close(fd)
    return removed


def _locked_temporary(folder: str) -> tuple[int, str]:
    """A new temporary file in ``folder``, locked by this process: ``(fd, path)``.

    Created and then locked; if a concurrent cleaner removed it in between
    (the path no longer leads to this file), another one is made.
    """
    while True:
        fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=folder)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            if os.stat(temp).st_ino == os.fstat(fd).st_ino:
                return fd, temp
        except FileNotFoundError:
            pass
        os.close(fd)


def backup(db: str | os.PathLike[str], target: str | os.PathLike[str]) -> dict[str, int]:
    """Copy the database ``db`` to the file ``target`` (replaced if it exists), online.

    Returns the copy's :func:`check` summary. Raises :class:`BackupError`
    when ``db`` is not a scorekeeper database or ``target`` is ``db`` itself,
    and :class:`MissingFolder` when the target's folder does not exist.
    """
    _refuse_postgres(db)
    db, target = os.fspath(db), os.fspath(target)
    check(db)
    if _same_file(db, target):
        raise BackupError(f"{target} is the database itself; back it up to another file")
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        raise MissingFolder(f"cannot write {target}: the folder {folder} does not exist")
    remove_stale_temporaries(folder)
    fd, temp = _locked_temporary(folder)
    try:
        source = sqlite3.connect(db, timeout=BUSY_TIMEOUT)
        copy = sqlite3.connect(temp, isolation_level=None)
        try:
            source.backup(copy)  # pages=-1: all in one step, one consistent snapshot
            copy.execute("PRAGMA journal_mode = DELETE")
        finally:
            copy.close()
            source.close()
        summary = check(temp)
        os.fsync(fd)
        os.replace(temp, target)
        _sync_dir(target)
        return summary
    except BaseException:
        _remove(temp)
        raise
    finally:
        os.close(fd)


def restore(
    source: str | os.PathLike[str], db: str | os.PathLike[str], *, force: bool = False
) -> dict[str, int]:
    """Replace the contents of database ``db`` with the backup ``source``; returns its summary.

    Refuses (:class:`BackupError`, nothing changed) a source that is not a
    sound scorekeeper database, and a ``db`` that holds games unless
    ``force``. ``db`` may be in use by a running server (see the module docs).
    """
    _refuse_postgres(db)
    source, db = os.fspath(source), os.fspath(db)
    summary = check(source)
    if _same_file(source, db):
        raise BackupError(f"{source} is the database itself")
    if not force and os.path.exists(db) and os.path.getsize(db) > 0:
        current = check(db)
        if current["games"]:
            raise BackupError(
                f"{db} holds {current['games']} games"
                f" ({current['entries']} log entries); restoring would replace"
                " them: use --force to do it anyway"
            )
    try:
        reader = _open_read_only(source)
        try:
            target = sqlite3.connect(db, timeout=BUSY_TIMEOUT, isolation_level=None)
            try:
                target.execute("PRAGMA synchronous = FULL")
                reader.backup(target)  # one write transaction on db
            finally:
                target.close()
        finally:
            reader.close()
    except sqlite3.Error as error:
        raise BackupError(f"restoring into {db} failed, nothing changed: {error}") from None
    Storage(db)  # runs pending migrations (and keeps WAL mode)
    return summary
