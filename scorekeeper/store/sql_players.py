"""A player's reads, as both SQL stores run them: the player by name, their games with
their logs and what their record is added up from.

:class:`PlayerReads` is the part of :class:`~scorekeeper.store.sql.SqlStore` that reads
them.
"""

from __future__ import annotations

import json
from typing import Any

from ..names import name_key
from . import tallies
from .base import (
    GAME_COLUMNS,
    LOG_COLUMNS,
    LogEntry,
    Player,
    StoredGame,
    game_from_row,
    log_entries,
)
from .refusals import NotFound
from .sql_part import SqlPart

SELECT_PLAYER = "SELECT id, name, created FROM players WHERE name_key = ?"
_PREFIXED = ", ".join("g." + c.strip() for c in GAME_COLUMNS.split(","))
SELECT_GAMES_OF = (
    f"SELECT {_PREFIXED} FROM games g JOIN game_players p ON p.game_id = g.id"
    " WHERE p.player_id = ? ORDER BY g.created, g.id"
)
SELECT_LOGS_OF = (
    f"SELECT h.game_id, {LOG_COLUMNS} FROM hands h WHERE h.game_id IN"
    " (SELECT game_id FROM game_players WHERE player_id = ?) ORDER BY h.game_id, h.seq"
)


class PlayerReads(SqlPart):
    """The store methods reading a player (see the module docs)."""

    def player(self, name: str) -> Player:
        """The player whose :func:`~scorekeeper.names.name_key` is ``name``'s.

        Its ``name`` is the name as first written. A name
        that is no valid name raises :class:`~scorekeeper.errors.RuleError`.
        """
        with self._read() as conn:
            row = self._run(conn, SELECT_PLAYER, (name_key(name),)).fetchone()
        if row is None:
            raise NotFound(f"no player called {name!r}", field="name")
        return Player(id=row[0], name=row[1], created=row[2])

    def games_of(self, name: str) -> list[tuple[StoredGame, list[LogEntry]]]:
        """Every game the player ``name`` sits in, oldest first, each with its log."""
        player = self.player(name)
        with self._snapshot() as conn:
            found = [game_from_row(row) for row in self._run(conn, SELECT_GAMES_OF, (player.id,))]
            logs: dict[str, list[Any]] = {game.id: [] for game in found}
            for row in self._run(conn, SELECT_LOGS_OF, (player.id,)):
                logs[row[0]].append(row[1:])
        return [(game, log_entries(logs[game.id])) for game in found]

    def player_record(self, name: str) -> tallies.PlayerRecord:
        """What the record of player ``name`` is added up from (read in one transaction):
        their games oldest first and the two-player hands of each (:mod:`.tallies`)."""
        player = self.player(name)
        with self._snapshot() as conn:
            games = [
                tallies.record_game(row, tuple(json.loads(row[1])))
                for row in self._run(conn, tallies.SELECT_RECORD_GAMES, (player.id,))
            ]
            pairs = tallies.pairs_by_game(
                self._run(conn, tallies.SELECT_RECORD_PAIRS, (player.id,)).fetchall()
            )
        return tallies.PlayerRecord(player, games, pairs)
