"""Persistence and the services over it: stored games, hands as entered, stats, backups.

Every service is written against :class:`~scorekeeper.store.base.Store`
(a protocol); :func:`open_store` opens the backend a database address names.
The pure rules core (``scorekeeper.*``) never imports this package.
"""

from __future__ import annotations

import os

from .base import Store
from .postgres import PostgresStore, is_postgres
from .sqlite import Storage


def open_store(address: str | os.PathLike[str]) -> Store:
    """The store at ``address``: a PostgreSQL database for a ``postgresql://`` (or
    ``postgres://``) URL, else the SQLite file at that path."""
    if is_postgres(address):
        return PostgresStore(os.fspath(address))
    return Storage(address)


__all__ = ["Store", "open_store"]
