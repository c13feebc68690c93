"""A game's edit rights, as both SQL stores keep them: which devices may change it on the
scorepad, its hand-over link and its edit token's rotations.

:class:`GameRights` is the part of :class:`~scorekeeper.store.sql.SqlStore` that reads
and writes them.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from .access_types import EditRight, Handover
from .base import StoredGame, now
from .sql_part import SqlPart

GRANT_EDIT = (
    "INSERT INTO edit_rights (game_id, device_hash, label, created)"
    " VALUES (?, ?, ?, ?) ON CONFLICT (game_id, device_hash) DO UPDATE"
    " SET label = excluded.label, created = excluded.created, revoked = NULL"
    " WHERE edit_rights.revoked IS NOT NULL"
)
HAS_EDIT = "SELECT 1 FROM edit_rights WHERE game_id = ? AND device_hash = ? AND revoked IS NULL"
WAS_REVOKED = (
    "SELECT 1 FROM edit_rights WHERE game_id = ? AND device_hash = ? AND revoked IS NOT NULL"
)
SELECT_RIGHTS = (
    "SELECT id, device_hash, label, created FROM edit_rights"
    " WHERE game_id = ? AND revoked IS NULL ORDER BY created, id"
)
REVOKE_EDIT = "UPDATE edit_rights SET revoked = ? WHERE game_id = ? AND id = ? AND revoked IS NULL"
DELETE_HANDOVER_OF_RIGHT = (
    "DELETE FROM handovers WHERE game_id = ? AND EXISTS (SELECT 1 FROM edit_rights"
    " WHERE game_id = ? AND id = ? AND revoked IS NULL)"
)
SELECT_DEVICE_GAMES = (
    "SELECT g.id FROM games g JOIN edit_rights r ON r.game_id = g.id"
    " WHERE r.device_hash = ? AND r.revoked IS NULL"
    " ORDER BY g.updated DESC, g.id LIMIT ?"
)
DELETE_HANDOVER = "DELETE FROM handovers WHERE game_id = ?"
INSERT_HANDOVER = "INSERT INTO handovers (game_id, secret_hash, created) VALUES (?, ?, ?)"
SELECT_HANDOVER = "SELECT secret_hash, created FROM handovers WHERE game_id = ?"
MATCH_HANDOVER = "SELECT 1 FROM handovers WHERE game_id = ? AND secret_hash = ?"
ROTATE_TOKEN = "UPDATE games SET token_hash = ? WHERE id = ? AND token_hash = ?"
INSERT_RETIRED_TOKEN = (
    "INSERT INTO retired_tokens (game_id, token_hash, retired) VALUES (?, ?, ?)"
    " ON CONFLICT DO NOTHING"
)
SELECT_RETIRED_TOKEN = "SELECT 1 FROM retired_tokens WHERE game_id = ? AND token_hash = ?"


class GameRights(SqlPart):
    """The store methods of a game's edit rights (see the module docs)."""

    @abstractmethod
    def _next_card(self, conn: Any, game_id: str) -> None:
        """Count the game's table card a generation on (:mod:`.sql_rights`)."""

    def grant_edit(
        self, game_id: str, device_hash: str, label: str, *, handover: str | None = None
    ) -> bool:
        """Let the device whose id hashes to ``device_hash`` change game ``game_id``.

        A device holding the right keeps it as it is (label and time); one
        whose right was revoked gets it back with the new label and time.
        With ``handover`` (a secret's hash) the right is granted only while
        that is the game's hand-over secret, checked in the same transaction
        (its row locked, as :meth:`revoke_edit` deletes it first); False when
        it is not.
        """
        with self._write() as conn:
            if handover is not None:
                match = MATCH_HANDOVER + self.LOCK_GAME
                if self._run(conn, match, (game_id, handover)).fetchone() is None:
                    return False
            self._run(conn, GRANT_EDIT, (game_id, device_hash, label, now()))
            return True

    def has_edit(self, game_id: str, device_hash: str) -> bool:
        """True while that device holds an unrevoked right to change the game."""
        with self._read() as conn:
            return self._run(conn, HAS_EDIT, (game_id, device_hash)).fetchone() is not None

    def edit_revoked(self, game_id: str, device_hash: str) -> bool:
        """True when that device's right to change the game was revoked (and not given
        back since: one row per game and device)."""
        with self._read() as conn:
            return self._run(conn, WAS_REVOKED, (game_id, device_hash)).fetchone() is not None

    def edit_rights(self, game_id: str) -> list[EditRight]:
        """The unrevoked rights of a game, oldest first."""
        with self._read() as conn:
            return [
                EditRight(id=i, device_hash=h, label=label, created=created)
                for i, h, label, created in self._run(conn, SELECT_RIGHTS, (game_id,))
            ]

    def revoke_edit(self, game_id: str, right_id: int) -> bool:
        """Revoke right ``right_id`` of the game, end its hand-over link (which the revoked
        device could otherwise use to join again) and count the game's table card a
        generation on (:meth:`card_generation`); False when it held no such right."""
        with self._write() as conn:
            self._run(conn, DELETE_HANDOVER_OF_RIGHT, (game_id, game_id, right_id))
            revoked: bool = self._run(conn, REVOKE_EDIT, (now(), game_id, right_id)).rowcount == 1
            if revoked:  # a table card printed before no longer works
                self._next_card(conn, game_id)
            return revoked

    def device_games(self, device_hash: str, limit: int) -> list[StoredGame]:
        """The games the device may change, last changed first (at most ``limit``)."""
        with self._snapshot() as conn:
            ids = [row[0] for row in self._run(conn, SELECT_DEVICE_GAMES, (device_hash, limit))]
            return [self._game(conn, i) for i in ids]

    def set_handover(self, game_id: str, secret_hash: str | None) -> None:
        """Make ``secret_hash`` the game's hand-over secret (replacing any); ``None`` removes it."""
        with self._write() as conn:
            self._run(conn, DELETE_HANDOVER, (game_id,))
            if secret_hash is not None:
                self._run(conn, INSERT_HANDOVER, (game_id, secret_hash, now()))

    def handover(self, game_id: str) -> Handover | None:
        """The game's hand-over link, or ``None``."""
        with self._read() as conn:
            row = self._run(conn, SELECT_HANDOVER, (game_id,)).fetchone()
        return None if row is None else Handover(secret_hash=row[0], created=row[1])

    def rotate_token(self, game_id: str, old_hash: str, new_hash: str) -> bool:
        """Replace the game's edit token hash ``old_hash`` by ``new_hash``, keeping the old one
        as retired (:meth:`token_retired`); False (nothing changed) when ``old_hash`` is no
        longer the game's (another rotation came first)."""
        with self._write() as conn:
            if self._run(conn, ROTATE_TOKEN, (new_hash, game_id, old_hash)).rowcount != 1:
                return False
            self._run(conn, INSERT_RETIRED_TOKEN, (game_id, old_hash, now()))
            return True

    def token_retired(self, game_id: str, token_hash: str) -> bool:
        """True when ``token_hash`` was the game's edit token before a rotation."""
        with self._read() as conn:
            return (
                self._run(conn, SELECT_RETIRED_TOKEN, (game_id, token_hash)).fetchone() is not None
            )
