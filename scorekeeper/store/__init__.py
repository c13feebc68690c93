"""Persistence and the services over it: stored games, hands as entered, stats, backups.

Every service is written against :class:`~scorekeeper.store.protocol.Store`
(a protocol); :func:`open_store` opens the backend a database address names.
The pure rules core (``scorekeeper.*``) never imports this package.
"""

from __future__ import annotations

import os

from .base import is_postgres
from .protocol import Store
from .sqlite import BUSY_TIMEOUT, Storage


def open_store(
    address: str | os.PathLike[str],
    *,
    busy_timeout: float | None = None,
    waiting_writers: int | None = None,
) -> Store:
    """The store at ``address``: a PostgreSQL database for a ``postgresql://`` (or
    ``postgres://``) URL, else the SQLite file at that path.

    ``busy_timeout`` (seconds a write waits on another's lock) applies to
    both; ``waiting_writers`` (threads of a process that may wait) to SQLite;
    ``None`` keeps each backend's default.
    """
    if is_postgres(address):
        from .postgres import PostgresStore  # psycopg loads only for PostgreSQL

        if busy_timeout is None:
            return PostgresStore(os.fspath(address))
        return PostgresStore(os.fspath(address), busy_timeout=float(busy_timeout))
    return Storage(
        address,
        busy_timeout=BUSY_TIMEOUT if busy_timeout is None else float(busy_timeout),
        waiting_writers=1 if waiting_writers is None else int(waiting_writers),
    )


__all__ = ["Store", "open_store"]
