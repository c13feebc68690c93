"""The store interface: what the services (games, stats) need of a database.

:class:`Store` is a :class:`typing.Protocol`; :class:`~scorekeeper.store.sqlite.Storage`
(one SQLite file, the embedded default) and
:class:`~scorekeeper.store.postgres.PostgresStore` (a PostgreSQL database
several servers can share) implement it, and any other backend that does
is a drop-in: the services and the web layer only call these methods. Its
methods of events, their directors, ratings and seasons are
:class:`~scorekeeper.store.club_protocol.ClubStore`'s; the types it takes and
returns are :mod:`scorekeeper.store.base`'s (games),
:mod:`scorekeeper.store.event_types`' and :mod:`scorekeeper.store.access_types`',
its refusals :mod:`scorekeeper.store.refusals`'.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, Unpack

from ..gamesheet import GameStatus
from ..rules import Rules
from .access_types import ApiKey, EditRight, Handover, ListedKey
from .base import Appended, Decide, GameFilter, LogEntry, Player, SheetRow, StoredGame, Summary
from .club_protocol import ClubStore

if TYPE_CHECKING:  # tallies reads Player from base
    from .tallies import PlayerRecord
    from .totals import KeptRecord


class Store(ClubStore, Protocol):
    """A game store: games, their players, each game's append-only log and the
    scorepad's edit rights (which devices may change a game, its hand-over link)."""

    def schema_version(self) -> int:
        """The schema version of the stored data."""

    def close(self) -> None:
        """Release every connection this process holds (each reopens on next use): done
        before a fork, so that no connection crosses one, and when the store is done with."""

    def game(self, game_id: str) -> StoredGame:
        """The game ``game_id``; raises :class:`NotFound`."""

    def log(self, game_id: str) -> list[LogEntry]:
        """The game's log entries in sequence order (``[]`` for an unknown game)."""

    def game_and_log(self, game_id: str) -> tuple[StoredGame, list[LogEntry]]:
        """The game and its log read in one transaction (a consistent snapshot)."""

    def player(self, name: str) -> Player:
        """The player called ``name``; raises :class:`NotFound`.

        Names are matched by :func:`~scorekeeper.names.name_key`.
        """

    def games_of(self, name: str) -> list[tuple[StoredGame, list[LogEntry]]]:
        """Every game the player ``name`` sits in, oldest first, each with its log."""

    def player_record(self, name: str) -> PlayerRecord:
        """What the record of player ``name`` is added up from (:mod:`.tallies`); raises
        :class:`NotFound`."""

    def kept_record(self, name: str, rival: str | None = None) -> KeptRecord | None:
        """The record of player ``name`` as its running totals keep it (:mod:`.totals`):
        every head-to-head line, or only ``rival``'s (a folded name); ``None`` when some of
        their games are left out of the totals (stored before the scored state was kept);
        raises :class:`NotFound`."""

    def create_game(
        self,
        *,
        game_id: str,
        players: Sequence[str],
        rules: Rules,
        dealer: int,
        stake: float | None,
        token_hash: str,
        status: GameStatus = GameStatus.ACTIVE,
        entries: Sequence[tuple[str, Any, Any]] = (),
        imported: bool = False,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
        scored: Summary | None = None,
        rows: Sequence[SheetRow] = (),
        follows: str | None = None,
        owner: int | None = None,
        cut: Sequence[str] | None = None,
    ) -> StoredGame:
        """Store a new game, its players and ``entries`` (log rows) in one transaction.

        ``scored`` and ``rows`` are its summary and sheet rows (see the module docs);
        ``follows`` the id of the game it is a rematch of; ``owner`` the id of the API
        key it belongs to (:meth:`key_games`); ``cut`` the cards cut for the first deal.

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
        known: StoredGame | None = None,
    ) -> Appended:
        """Append one entry in one transaction that locks the game: ``(entry, created, game, log)``.

        ``decide(game, view)`` computes the entry's result and the game's
        new scored state (a :class:`Decision`), or
        raises (nothing is written); the game returned is as the write left
        it. A repeated ``idempotency_key`` with the same request returns the
        stored entry (``created`` False) and the whole ``log`` (its first
        answer is rebuilt from it), with another request raises
        :class:`KeyReused`; a new entry comes with ``log`` empty (the log is
        not read). An ``expected_version`` other than the game's
        ``version`` raises :class:`~scorekeeper.errors.Stale`. ``known`` is the game as
        read before the transaction (the request's token check): the write takes it, not
        its row read again, while the locked row has its version and token.
        """

    def grant_edit(
        self, game_id: str, device_hash: str, label: str, *, handover: str | None = None
    ) -> bool:
        """Let a scorepad device (by the SHA-256 hash of its id) change the game.

        Granting a right the device holds changes nothing; granting a revoked
        right again restores it, with the new label and time. With
        ``handover`` (a hand-over secret's hash) only while that is the game's
        hand-over secret, in the same transaction: False (nothing granted) when not.
        """

    def has_edit(self, game_id: str, device_hash: str) -> bool:
        """True while that device holds an unrevoked right to change the game."""

    def edit_revoked(self, game_id: str, device_hash: str) -> bool:
        """True when that device's right to change the game was revoked."""

    def edit_rights(self, game_id: str) -> list[EditRight]:
        """The game's unrevoked rights, oldest first."""

    def revoke_edit(self, game_id: str, right_id: int) -> bool:
        """Revoke right ``right_id`` of the game, ending its hand-over link and counting its
        :meth:`card_generation` on in the same transaction; False when there is no such
        unrevoked right (the link then stays)."""

    def device_games(self, device_hash: str, limit: int) -> list[StoredGame]:
        """The games (as :meth:`game`) the device may change, last changed first."""

    def set_handover(self, game_id: str, secret_hash: str | None) -> None:
        """Replace the game's hand-over secret hash (``None``: no hand-over link)."""

    def handover(self, game_id: str) -> Handover | None:
        """The game's hand-over link, or ``None``."""

    def add_api_key(self, name: str, key_hash: str, *, bot: bool = False) -> ApiKey:
        """Store an API key by the SHA-256 hash of its text (``bot``: its games are not
        rated); raises :class:`NameTaken` when an unrevoked key has this ``name``."""

    def api_key(self, key_hash: str) -> ApiKey | None:
        """The unrevoked key whose text hashes to ``key_hash``, or ``None``."""

    def api_keys(self) -> list[ListedKey]:
        """Every key, revoked ones too, oldest first."""

    def revoke_api_key(self, name: str) -> bool:
        """Revoke the unrevoked key called ``name``; False when there is none."""

    def key_games(
        self,
        key_id: int,
        *,
        limit: int,
        after: tuple[str, str] | None = None,
        **filters: Unpack[GameFilter],
    ) -> list[StoredGame]:
        """The games created with API key ``key_id``, newest first (``created``, then id
        descending), at most ``limit``, after ``(created, id)`` and filtered (see
        :meth:`~scorekeeper.store.sql.SqlStore.key_games`)."""

    def all_games(
        self,
        *,
        limit: int,
        after: tuple[str, str] | None = None,
        **filters: Unpack[GameFilter],
    ) -> list[StoredGame]:
        """Every game on this server, newest first, at most ``limit``, after ``(created, id)``
        and filtered (as :meth:`key_games`)."""

    def players_matching(self, words: Sequence[str], limit: int) -> list[str]:
        """The names of the players with a word beginning with each of ``words``, by name
        key, at most ``limit`` (see :mod:`~scorekeeper.store.finding`)."""

    def player_names(self, limit: int) -> list[str]:
        """The names of the players known here (as first written), by name, at most ``limit``."""

    def rotate_token(self, game_id: str, old_hash: str, new_hash: str) -> bool:
        """Replace the game's edit token hash ``old_hash`` by ``new_hash`` (the old one kept as
        retired); False when ``old_hash`` is no longer the game's."""

    def token_retired(self, game_id: str, token_hash: str) -> bool:
        """True when ``token_hash`` was the game's edit token before a rotation."""
