"""The API keys, as both SQL stores keep them: each key's name and hash, its revocation and
the games it created (``key_games``).

:class:`ApiKeys` is the part of :class:`~scorekeeper.store.sql.SqlStore` that reads and
writes them.
"""

from __future__ import annotations

from .access_types import ApiKey, ListedKey
from .base import now
from .refusals import NameTaken
from .sql_part import SqlPart

INSERT_API_KEY = (
    "INSERT INTO api_keys (name, key_hash, created, bot) VALUES (?, ?, ?, ?)"
    " ON CONFLICT DO NOTHING RETURNING id"
)
SELECT_API_KEY = "SELECT id, name, created FROM api_keys WHERE key_hash = ? AND revoked IS NULL"
SELECT_API_KEYS = (
    "SELECT k.id, k.name, k.created, k.revoked,"
    " (SELECT count(*) FROM key_games o WHERE o.key_id = k.id), k.bot"
    " FROM api_keys k ORDER BY k.created, k.id"
)
REVOKE_API_KEY = "UPDATE api_keys SET revoked = ? WHERE name = ? AND revoked IS NULL"
INSERT_KEY_GAME = "INSERT INTO key_games (game_id, key_id, created) VALUES (?, ?, ?)"


class ApiKeys(SqlPart):
    """The store methods of the API keys (see the module docs)."""

    def add_api_key(self, name: str, key_hash: str, *, bot: bool = False) -> ApiKey:
        """Store a new API key by the SHA-256 hash of its text (``bot``: a key for bots and
        simulations, whose games are not rated).

        Raises :class:`NameTaken` when an unrevoked key has this ``name``.
        """
        stamp = now()
        with self._write() as conn:
            row = self._run(conn, INSERT_API_KEY, (name, key_hash, stamp, bot)).fetchone()
        if row is None:
            raise NameTaken(f"there is already a key called {name!r}", field="name")
        return ApiKey(id=row[0], name=name, created=stamp)

    def api_key(self, key_hash: str) -> ApiKey | None:
        """The unrevoked key whose text hashes to ``key_hash``, or ``None``."""
        with self._read() as conn:
            row = self._run(conn, SELECT_API_KEY, (key_hash,)).fetchone()
        return None if row is None else ApiKey(id=row[0], name=row[1], created=row[2])

    def api_keys(self) -> list[ListedKey]:
        """Every key, revoked ones too, oldest first."""
        with self._read() as conn:
            return [
                ListedKey(i, name, created, revoked, count, bool(bot))
                for i, name, created, revoked, count, bot in self._run(conn, SELECT_API_KEYS)
            ]

    def revoke_api_key(self, name: str) -> bool:
        """Revoke the unrevoked key called ``name``; False when there is none."""
        with self._write() as conn:
            revoked: bool = self._run(conn, REVOKE_API_KEY, (now(), name)).rowcount == 1
        return revoked
