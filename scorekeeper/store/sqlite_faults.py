"""SQLite's errors as the store's refusals.

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
"""

from __future__ import annotations

import sqlite3

from .refusals import StorageBusy, StorageError, StorageFull, StorageUnavailable

BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
"""SQLite's result codes of a lock another connection holds."""
UNAVAILABLE = (
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_PERM,
)
"""SQLite's result codes of a file that cannot be used just now (see the module docs)."""


def error_code(error: sqlite3.Error) -> int:
    """SQLite's primary result code of ``error``."""
    return getattr(error, "sqlite_errorcode", 0) & 0xFF


def refusal_of(error: sqlite3.OperationalError, waited: float) -> StorageError | None:
    """The refusal for SQLite's "disk full", "busy" and "cannot write" errors (or ``None``)."""
    code = error_code(error)
    if code == sqlite3.SQLITE_FULL:
        return StorageFull("the server's disk is full: nothing was written")
    if code in BUSY:
        return StorageBusy(
            f"the database stayed busy for {waited:g} s: nothing was written; try again"
        )
    if code in UNAVAILABLE:
        return StorageUnavailable(
            f"the database cannot be used just now ({error}): nothing was written; try again"
        )
    return None
