"""The primitives every part of :class:`~scorekeeper.store.sql.SqlStore` calls, declared
once: the connections and transactions (a backend's), the run of a statement, a game's
row and its sheet rows (:mod:`scorekeeper.store.sql`'s core)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

from .base import SheetRow, StoredGame


class SqlPart(ABC):
    """What a family of the store's methods (a mixin of
    :class:`~scorekeeper.store.sql.SqlStore`) may call of the store it is part of."""

    LOCK_GAME: str
    """Appended to a write's ``SELECT`` of a game's row, to lock it until the commit."""

    PLAYERS_BY_KEY: bool
    """Whether a new game inserts its new players in ``name_key`` order."""

    @abstractmethod
    def _read(self) -> AbstractContextManager[Any]:
        """A connection for one read."""

    @abstractmethod
    def _snapshot(self) -> AbstractContextManager[Any]:
        """A connection in a read transaction: all its reads see one moment."""

    @abstractmethod
    def _write(self) -> AbstractContextManager[Any]:
        """A connection in one write transaction, committed if the body returns."""

    @abstractmethod
    def _run(self, conn: Any, statement: str, params: Sequence[Any] = ()) -> Any:
        """Execute ``statement`` (``?`` placeholders) on ``conn``; returns its cursor."""

    @abstractmethod
    def _run_many(self, conn: Any, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        """Execute ``statement`` once per row of ``rows`` (one call of ``executemany``)."""

    @abstractmethod
    def _game(self, conn: Any, game_id: str, *, lock: bool = False) -> StoredGame:
        """The game's row (locked when ``lock``); raises :class:`NotFound`."""

    @abstractmethod
    def _put_rows(
        self, conn: Any, game_id: str, start: int, rows: Sequence[SheetRow], kept: int | None
    ) -> list[tuple[Any, ...]]:
        """Replace the game's sheet rows from hand ``start`` on by ``rows``; returns the hand
        pairs put."""
