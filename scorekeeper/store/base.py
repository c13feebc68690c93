"""The store interface: what the services (games, stats) need of a database.

:class:`Store` is a :class:`typing.Protocol`; :class:`~scorekeeper.store.sqlite.Storage`
(one SQLite file, the embedded default) implements it, and any other
backend that does is a drop-in: the services and the web layer only call
these methods. Games are returned as dicts ``{"id", "players", "rules",
"dealer", "stake", "created", "updated", "status", "token_hash"}`` and log
entries as ``{"seq", "kind", "payload", "result", "idempotency_key",
"created"}`` with JSON decoded. The refusals every backend raises are
defined here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol


def now() -> str:
    """The current UTC time as ISO 8601 text (what the tables store)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class StorageError(Exception):
    """Base class of the storage layer's refusals.

    ``field`` names the input at fault and ``code`` is a short machine-readable
    reason (e.g. ``game_over``), when there are ones.
    """

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None):
        super().__init__(message)
        self.field = field
        self.code = code


class NotFound(StorageError):
    """No game (or player) with that id (or name)."""


class Conflict(StorageError):
    """The request does not fit the game's current state (e.g. the game is over)."""


class KeyReused(StorageError):
    """An idempotency key was sent again with a different request."""


class Stale(Conflict):
    """The write was based on an older version of the game's log than the stored one.

    ``expected`` is the version the request was based on, ``version`` the
    current one (the number of log entries).
    """

    def __init__(self, expected: int, version: int):
        super().__init__(f"the game has changed: it is at version {version}, this change was"
                         f" based on version {expected}; reload the sheet and try again",
                         code="stale")
        self.expected = expected
        self.version = version


class StorageFull(StorageError):
    """The disk (or the database's size limit) is full; the write was rolled back."""


class StorageBusy(StorageError):
    """Another writer held the database for too long (or too many writers were waiting);
    nothing was written."""


class StorageUnavailable(StorageError):
    """The database cannot be written (or opened) just now, e.g. its file is read-only;
    nothing was written. A fault that heals: the next request tries afresh."""


Decide = Callable[[dict, list[dict]], tuple[Any, str]]
"""``decide(game, log) -> (result, status)``: a write's scoring, run inside its transaction."""


class Store(Protocol):
    """A game store: games, their players and each game's append-only log."""

    def schema_version(self) -> int:
        """The schema version of the stored data."""

    def close(self) -> None:
        """Release this thread's connection (it reopens on next use)."""

    def game(self, game_id: str) -> dict:
        """The game ``game_id``; raises :class:`NotFound`."""

    def log(self, game_id: str) -> list[dict]:
        """The game's log entries in sequence order (``[]`` for an unknown game)."""

    def game_and_log(self, game_id: str) -> tuple[dict, list[dict]]:
        """The game and its log read in one transaction (a consistent snapshot)."""

    def player(self, name: str) -> dict:
        """The player called ``name`` as ``{"id", "name", "created"}``; raises :class:`NotFound`."""

    def games_of(self, name: str) -> list[tuple[dict, list[dict]]]:
        """Every game the player ``name`` sits in, oldest first, each with its log."""

    def create_game(self, *, game_id: str, players: Sequence[str], rules: dict, dealer: int,
                    stake: float | None, token_hash: str, status: str = "active",
                    entries: Sequence[tuple[str, Any, Any]] = ()) -> dict:
        """Store a new game, its players and ``entries`` (log rows) in one transaction."""

    def append(self, game_id: str, kind: str, payload: Any, decide: Decide, *,
               idempotency_key: str | None = None,
               expected_version: int | None = None) -> tuple[dict, bool, dict, list[dict]]:
        """Append one entry in one transaction that locks the game: ``(entry, created, game, log)``.

        ``decide(game, log)`` computes the entry's result and the game's
        new status, or raises (nothing is written). A repeated
        ``idempotency_key`` with the same request returns the stored entry
        (``created`` False), with another request raises :class:`KeyReused`;
        an ``expected_version`` other than the log's length raises :class:`Stale`.
        """
