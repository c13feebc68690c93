"""The store interface: what the services (games, stats) need of a database.

:class:`Store` is a :class:`typing.Protocol`; :class:`~scorekeeper.store.sqlite.Storage`
(one SQLite file, the embedded default) and
:class:`~scorekeeper.store.postgres.PostgresStore` (a PostgreSQL database
several servers can share) implement it, and any other backend that does
is a drop-in: the services and the web layer only call these methods.
Games are returned as dicts ``{"id", "players", "rules", "dealer",
"stake", "created", "updated", "status", "token_hash", "imported",
"version", "scored", "follows"}`` and log entries as ``{"seq", "kind", "payload",
"result", "idempotency_key", "created"}`` with JSON decoded. ``follows`` is the id
of the game this one is a rematch of ("new game with the same players"), ``None``
for a game started afresh: the games chained by it are one evening's match, whose
running tally :func:`~scorekeeper.store.stats.rematch_tally` counts. The refusals
every backend raises are defined here.

Each game also keeps its scored state, written in the same transaction as
its log (so a write costs the same at hand 1,000 as at hand 10): the
game's ``version`` (the number of log entries: the ETag), ``scored`` (the
sheet's summary, :func:`~scorekeeper.sheet.summary`; ``None`` for a game
stored before it was kept: the next write scores its log once) and one
*sheet row* per hand on the sheet, ``{"n", "entry", "record", "summary"}``:
the hand's score-sheet entry, its record as the sheet shows it and the
sheet's summary after it (the checkpoint an undo or a correction goes back to).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from ..errors import Stale

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""The address prefixes that name a PostgreSQL database (libpq's two URL schemes)."""


def is_postgres(address: str | os.PathLike[str]) -> bool:
    """Whether ``address`` is a PostgreSQL URL (otherwise it is a SQLite file path).

    Here, not in :mod:`~scorekeeper.store.postgres`: telling the backends
    apart must not load psycopg, which a SQLite server never needs (it
    costs every process half a second to start).
    """
    return isinstance(address, str) and address.startswith(POSTGRES_SCHEMES)


def now() -> str:
    """The current UTC time as ISO 8601 text (what the tables store)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def dumps(value: Any) -> str:
    """``value`` as the JSON text the tables store: compact, keys sorted, so one request is
    always the same text (idempotency keys compare requests by it)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def dumps_in_order(value: Any) -> str:
    """``value`` as compact JSON text keeping its keys' order: the scored state, from which
    answers are built key for key as the sheet orders them."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def game_from_row(row: Sequence[Any]) -> dict:
    """A game dict from its table's columns, in :data:`GAME_COLUMNS` order (JSON decoded)."""
    return {
        "id": row[0],
        "players": json.loads(row[1]),
        "rules": json.loads(row[2]),
        "dealer": row[3],
        "stake": row[4],
        "created": row[5],
        "updated": row[6],
        "status": row[7],
        "token_hash": row[8],
        "imported": bool(row[9]),
        "version": row[10],
        "scored": None if row[11] is None else json.loads(row[11]),
        "follows": row[12],
    }


GAME_COLUMNS = (
    "id, players, rules, dealer, stake, created, updated, status, token_hash,"
    " imported, version, scored, follows"
)
"""The columns of ``games`` as :func:`game_from_row` reads them."""

LOG_COLUMNS = "seq, kind, payload, result, idempotency_key, created"
"""The columns of ``hands`` as :func:`log_entries` reads them."""


def log_entries(found: Any) -> list[dict]:
    """Log entries from rows of :data:`LOG_COLUMNS` (JSON decoded)."""
    return [
        {
            "seq": seq,
            "kind": kind,
            "payload": json.loads(payload),
            "result": json.loads(result),
            "idempotency_key": key,
            "created": created,
        }
        for seq, kind, payload, result, key, created in found
    ]


def sheet_rows(found: Sequence[tuple[int, str, str, str]]) -> list[dict]:
    """Sheet rows from their table's ``(n, entry, record, summary)`` columns.

    Each column is decoded as one JSON array (a long game's rows are read
    by three calls of the JSON decoder, not three per row).
    """

    def column(texts: list[str]) -> list[Any]:
        return json.loads("[" + ",".join(texts) + "]")

    return [
        {"n": row[0], "entry": entry, "record": record, "summary": summary}
        for row, entry, record, summary in zip(
            found,
            column([row[1] for row in found]),
            column([row[2] for row in found]),
            column([row[3] for row in found]),
            strict=True,
        )
    ]


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


def replayed_seq(
    stored: tuple[int, str, str] | None, kind: str, payload: Any, idempotency_key: str
) -> int | None:
    """The sequence number of the entry a repeated ``idempotency_key`` was stored with.

    ``stored`` is that entry's ``(seq, kind, payload JSON)``, ``None`` when the
    key is new (then ``None`` is returned). The same key with another
    request raises :class:`KeyReused`.
    """
    if stored is None:
        return None
    seq, stored_kind, stored_payload = stored
    if stored_kind != kind or stored_payload != dumps(payload):
        raise KeyReused(
            f"Idempotency-Key {idempotency_key!r} was already used for a"
            f" different request (entry {seq})",
            field="Idempotency-Key",
        )
    return seq


def check_version(expected: int | None, version: int) -> None:
    """Raise :class:`Stale` when a write based on version ``expected`` meets ``version``."""
    if expected is not None and expected != version:
        raise Stale(expected, version)


@dataclass(frozen=True)
class GameView:
    """What a write's ``decide`` may read of its game, inside the write's transaction.

    ``rows(start)``: the sheet rows of hands ``start``, ``start + 1``, ...;
    ``log()``: the whole log (only a game without ``scored`` needs it).
    """

    rows: Callable[[int], list[dict]]
    log: Callable[[], list[dict]]


Decide = Callable[[dict, GameView], tuple[Any, str, dict]]
"""``decide(game, view) -> (result, status, change)``: a write's scoring, run inside its
transaction. ``change`` is ``{"scored", "start", "rows"}``: the game's new summary, and
the sheet rows from hand ``start`` on are replaced by ``rows``."""


class Store(Protocol):
    """A game store: games, their players, each game's append-only log and the
    scorepad's edit rights (which devices may change a game, its hand-over link)."""

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
        """The player called ``name`` as ``{"id", "name", "created"}``; raises :class:`NotFound`.

        Names are matched by :func:`~scorekeeper.names.name_key`.
        """

    def games_of(self, name: str) -> list[tuple[dict, list[dict]]]:
        """Every game the player ``name`` sits in, oldest first, each with its log."""

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
        owner: int | None = None,
    ) -> dict:
        """Store a new game, its players and ``entries`` (log rows) in one transaction.

        ``scored`` and ``rows`` are its summary and sheet rows (see the module docs);
        ``follows`` the id of the game it is a rematch of; ``owner`` the id of the API
        key it belongs to (:meth:`key_games`).

        ``imported`` marks a game made by an import (left out of stats). A
        game already created with this ``idempotency_key`` by the same
        request (``request_hash``) is returned instead (another id than
        ``game_id``), nothing written; by another request: :class:`KeyReused`.
        """

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
        """Append one entry in one transaction that locks the game: ``(entry, created, game, log)``.

        ``decide(game, view)`` computes the entry's result, the game's new
        status and its scored state's change (see :data:`Decide`), or
        raises (nothing is written); the game returned is as the write left
        it. A repeated ``idempotency_key`` with the same request returns the
        stored entry (``created`` False) and the whole ``log`` (its first
        answer is rebuilt from it), with another request raises
        :class:`KeyReused`; a new entry comes with ``log`` empty (the log is
        not read). An ``expected_version`` other than the game's
        ``version`` raises :class:`~scorekeeper.errors.Stale`.
        """

    def grant_edit(self, game_id: str, device_hash: str, label: str) -> None:
        """Let a scorepad device (by the SHA-256 hash of its id) change the game.

        Granting a right the device holds changes nothing; granting a revoked
        right again restores it, with the new label and time.
        """

    def has_edit(self, game_id: str, device_hash: str) -> bool:
        """True while that device holds an unrevoked right to change the game."""

    def edit_rights(self, game_id: str) -> list[dict]:
        """The game's unrevoked rights, oldest first: ``{"id", "device_hash", "label",
        "created"}``."""

    def revoke_edit(self, game_id: str, right_id: int) -> bool:
        """Revoke right ``right_id`` of the game; False when there is no such unrevoked right."""

    def device_games(self, device_hash: str, limit: int) -> list[dict]:
        """The games (as :meth:`game`) the device may change, last changed first."""

    def set_handover(self, game_id: str, secret_hash: str | None) -> None:
        """Replace the game's hand-over secret hash (``None``: no hand-over link)."""

    def handover(self, game_id: str) -> dict | None:
        """The game's hand-over link ``{"secret_hash", "created"}``, or ``None``."""

    def add_api_key(self, name: str, key_hash: str) -> dict:
        """Store an API key by the SHA-256 hash of its text: ``{"id", "name", "created"}``;
        raises :class:`NameTaken` when an unrevoked key has this ``name``."""

    def api_key(self, key_hash: str) -> dict | None:
        """The unrevoked key whose text hashes to ``key_hash``, or ``None``."""

    def api_keys(self) -> list[dict]:
        """Every key, oldest first: ``{"id", "name", "created", "revoked", "games"}``."""

    def revoke_api_key(self, name: str) -> bool:
        """Revoke the unrevoked key called ``name``; False when there is none."""

    def key_games(
        self,
        key_id: int,
        *,
        limit: int,
        after: tuple[str, str] | None = None,
        player_key: str | None = None,
        status: str | None = None,
        since: str | None = None,
    ) -> list[dict]:
        """The games created with API key ``key_id``, newest first (``created``, then id
        descending), at most ``limit``, after ``(created, id)`` and filtered (see
        :meth:`~scorekeeper.store.sql.SqlStore.key_games`)."""

    def rotate_token(self, game_id: str, old_hash: str, new_hash: str) -> bool:
        """Replace the game's edit token hash ``old_hash`` by ``new_hash`` (the old one kept as
        retired); False when ``old_hash`` is no longer the game's."""

    def token_retired(self, game_id: str, token_hash: str) -> bool:
        """True when ``token_hash`` was the game's edit token before a rotation."""
