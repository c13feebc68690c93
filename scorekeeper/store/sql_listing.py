"""The lists of games and players, as both SQL stores read them: a page of games (every
game, or an API key's), the players matching search words, the players' names.

:class:`GameListing` is the part of :class:`~scorekeeper.store.sql.SqlStore` that reads
them (the pages' statements: :mod:`~scorekeeper.store.listing`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Unpack

from . import listing
from .base import GameFilter, StoredGame, game_from_row
from .finding import SELECT_MATCHING, matching
from .sql_part import SqlPart

SELECT_PLAYER_NAMES = "SELECT name FROM players ORDER BY name_key LIMIT ?"


class GameListing(SqlPart):
    """The store methods listing games and players (see the module docs)."""

    def key_games(
        self,
        key_id: int,
        *,
        limit: int,
        after: tuple[str, str] | None = None,
        **filters: Unpack[GameFilter],
    ) -> list[StoredGame]:
        """The games of API key ``key_id`` (as :meth:`game`), newest first, at most ``limit``.

        ``after`` is the ``(created, id)`` of the last game of the previous page.
        Filters (:class:`~scorekeeper.store.base.GameFilter`): ``player_key`` keeps the
        games with a player of that :func:`~scorekeeper.names.name_key`, ``words``
        those with a player with a word beginning with each of them
        (:mod:`~scorekeeper.store.finding`), ``status`` those with that status,
        ``since`` (stored time text) those changed at or after it, ``created_from``
        and ``created_to`` those made at or after the one and before the other.
        """
        return self._games_page(key_id, limit, after, filters)

    def all_games(
        self, *, limit: int, after: tuple[str, str] | None = None, **filters: Unpack[GameFilter]
    ) -> list[StoredGame]:
        """Every game on this server (as :meth:`game`), newest first, at most ``limit``; ``after``
        and the filters as for :meth:`key_games`."""
        return self._games_page(None, limit, after, filters)

    def _games_page(
        self,
        key_id: int | None,
        limit: int,
        after: tuple[str, str] | None,
        filters: GameFilter,
    ) -> list[StoredGame]:
        """Games of API key ``key_id`` (``None``: every game) with the given filters (see
        :meth:`key_games`), newest first (:func:`.listing.page`)."""
        with self._snapshot() as conn:
            rows = listing.page(partial(self._run, conn), key_id, filters, after, limit)
        return [game_from_row(row) for row in rows]

    def players_matching(self, words: Sequence[str], limit: int) -> list[str]:
        """The names of the players with a word beginning with each of ``words`` (search
        words, at least one), by name key, at most ``limit``."""
        found, params = matching(words)
        with self._read() as conn:
            rows = self._run(conn, SELECT_MATCHING.format(found), [*params, limit])
            return [row[0] for row in rows]

    def player_names(self, limit: int) -> list[str]:
        """The names of the players known here (as first written), by name, at most ``limit``."""
        with self._read() as conn:
            return [row[0] for row in self._run(conn, SELECT_PLAYER_NAMES, (limit,))]
