"""The refusals every store backend raises: :class:`StorageError` and its kinds."""

from __future__ import annotations


class StorageError(Exception):
    """Base class of the storage layer's refusals (the game's own conflicts, such as
    a hand after the end or a stale version, are the domain's
    :class:`~scorekeeper.errors.Conflict`).

    ``field`` names the input at fault, when there is one, and ``code`` is a
    short machine-readable reason (the class's ``default_code`` unless given).
    """

    default_code = "storage"

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None):
        super().__init__(message)
        self.field = field
        self.code = code or self.default_code


class NotFound(StorageError):
    """No game (or player, or hand) with that id (or name, or number)."""

    default_code = "not_found"


class KeyReused(StorageError):
    """An idempotency key was sent again with a different request."""

    default_code = "idempotency_key_reused"


class NameTaken(StorageError):
    """A name that must be unique (an API key's) is already in use."""

    default_code = "name_taken"


class StorageFull(StorageError):
    """The disk (or the database's size limit) is full; the write was rolled back."""

    default_code = "storage_full"


class StorageBusy(StorageError):
    """Another writer held the database for too long (or too many writers were waiting);
    nothing was written."""

    default_code = "busy"


class StorageUnavailable(StorageError):
    """The database cannot be written (or opened) just now, e.g. its file is read-only;
    nothing was written. A fault that heals: the next request tries afresh."""

    default_code = "unavailable"
