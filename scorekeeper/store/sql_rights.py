"""The rights around an event, as both SQL stores keep them: the director's phones, the
director's links and the table cards' generation (SQLite's schema 10, PostgreSQL's 9).

* ``director_rights``: which devices (browsers) may direct an event on the
  scorepad, as ``edit_rights`` are for a game: id, event, the SHA-256 hash of
  the device id, label, created, ``revoked`` (the time, or NULL while the
  right holds); one row per event and device.
* ``director_links``: the event's director links by ``kind``
  (:data:`HANDOVER`, :data:`RECOVERY`): the SHA-256 hash of the link's secret
  and when it was made, at most one of each kind per event.
* ``card_generations``: per game, how many times a phone's right to change
  it was revoked (no row: never). A table card's secret is derived from it
  (:func:`api.pad.rights.card_handover`), so a card printed before a revoke
  never works again.

:class:`DirectorRights` is the part of :class:`~scorekeeper.store.sql.SqlStore`
that reads and writes them, and finds the events a device directs or plays in.
"""

from __future__ import annotations

from typing import Any

from .access_types import DeviceEvent, EditRight, Handover
from .base import now
from .sql_part import SqlPart

HANDOVER = "handover"
"""The kind of the director's hand-over link: one the director makes, ended by a revoke."""
RECOVERY = "recovery"
"""The kind of the recovery link made with the event: it stays whatever is revoked."""


def rights_tables(identity: str) -> tuple[str, ...]:
    """The statements creating the tables, ``identity`` the backend's id column type."""
    return (
        f"CREATE TABLE director_rights (id {identity},"
        " event_id TEXT NOT NULL REFERENCES events (id), device_hash TEXT NOT NULL,"
        " label TEXT NOT NULL, created TEXT NOT NULL, revoked TEXT,"
        " UNIQUE (event_id, device_hash))",
        "CREATE TABLE director_links (event_id TEXT NOT NULL REFERENCES events (id),"
        " kind TEXT NOT NULL, secret_hash TEXT NOT NULL, created TEXT NOT NULL,"
        " PRIMARY KEY (event_id, kind))",
        "CREATE TABLE card_generations (game_id TEXT PRIMARY KEY REFERENCES games (id),"
        " generation INTEGER NOT NULL)",
    )


_GRANT = (
    "INSERT INTO director_rights (event_id, device_hash, label, created) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (event_id, device_hash) DO "
)
GRANT_DIRECTOR = (
    _GRANT + "UPDATE SET label = excluded.label, created = excluded.created, revoked = NULL"
    " WHERE director_rights.revoked IS NOT NULL"
)
ADD_DIRECTOR = _GRANT + "NOTHING"
HAS_DIRECTOR = (
    "SELECT 1 FROM director_rights WHERE event_id = ? AND device_hash = ? AND revoked IS NULL"
)
SELECT_DIRECTORS = (
    "SELECT id, device_hash, label, created FROM director_rights"
    " WHERE event_id = ? AND revoked IS NULL ORDER BY created, id"
)
REVOKE_DIRECTOR = (
    "UPDATE director_rights SET revoked = ? WHERE event_id = ? AND id = ? AND revoked IS NULL"
)
DELETE_LINK = "DELETE FROM director_links WHERE event_id = ? AND kind = ?"
DELETE_HANDOVER_OF_RIGHT = (
    DELETE_LINK + " AND EXISTS (SELECT 1 FROM director_rights"
    " WHERE event_id = ? AND id = ? AND revoked IS NULL)"
)
INSERT_LINK = (
    "INSERT INTO director_links (event_id, kind, secret_hash, created) VALUES (?, ?, ?, ?)"
)
SELECT_LINK = "SELECT secret_hash, created FROM director_links WHERE event_id = ? AND kind = ?"
MATCH_LINK = "SELECT 1 FROM director_links WHERE event_id = ? AND kind = ? AND secret_hash = ?"
BUMP_CARD = (
    "INSERT INTO card_generations (game_id, generation) VALUES (?, 1)"
    " ON CONFLICT (game_id) DO UPDATE SET generation = card_generations.generation + 1"
)
SELECT_CARD = "SELECT generation FROM card_generations WHERE game_id = ?"
SELECT_GAME_EVENT = "SELECT event_id FROM event_matches WHERE game_id = ?"
SELECT_DEVICE_EVENTS = (
    "SELECT e.id, e.name, EXISTS (SELECT 1 FROM director_rights d WHERE d.event_id = e.id"
    " AND d.device_hash = ? AND d.revoked IS NULL) FROM events e WHERE e.id IN"
    " (SELECT event_id FROM director_rights WHERE device_hash = ? AND revoked IS NULL"
    " UNION SELECT m.event_id FROM event_matches m JOIN edit_rights r ON r.game_id = m.game_id"
    " WHERE r.device_hash = ? AND r.revoked IS NULL)"
    " ORDER BY e.created DESC, e.id LIMIT ?"
)


class DirectorRights(SqlPart):
    """The store methods of the event rights (see the module docs)."""

    def grant_director(
        self,
        event_id: str,
        device_hash: str,
        label: str,
        *,
        link: tuple[str, str] | None = None,
        revive: bool = True,
    ) -> bool:
        """Let the device whose id hashes to ``device_hash`` direct the event; True when it
        may, once written.

        A device holding the right keeps it as it is. With ``revive`` a revoked
        right is given back (new label and time); without, it stays revoked. With
        ``link`` (``(kind, secret hash)``) the right is granted only while that is
        the event's link of that kind, checked in the same transaction (its row
        locked, as :meth:`revoke_director` deletes it first).
        """
        with self._write() as conn:
            if link is not None:
                found = self._run(conn, MATCH_LINK + self.LOCK_GAME, (event_id, *link))
                if found.fetchone() is None:
                    return False
            grant = GRANT_DIRECTOR if revive else ADD_DIRECTOR
            self._run(conn, grant, (event_id, device_hash, label, now()))
            return self._run(conn, HAS_DIRECTOR, (event_id, device_hash)).fetchone() is not None

    def has_director(self, event_id: str, device_hash: str) -> bool:
        """True while that device holds an unrevoked right to direct the event."""
        with self._read() as conn:
            return self._run(conn, HAS_DIRECTOR, (event_id, device_hash)).fetchone() is not None

    def director_rights(self, event_id: str) -> list[EditRight]:
        """The event's unrevoked director rights, oldest first."""
        with self._read() as conn:
            return [
                EditRight(id=i, device_hash=h, label=label, created=created)
                for i, h, label, created in self._run(conn, SELECT_DIRECTORS, (event_id,))
            ]

    def revoke_director(self, event_id: str, right_id: int) -> bool:
        """Revoke director right ``right_id`` of the event and end its hand-over link (the
        revoked phone could join again by it); False (nothing changed) when there is no
        such unrevoked right. The recovery link stays."""
        with self._write() as conn:  # the link first: a join holding it finishes first
            self._run(conn, DELETE_HANDOVER_OF_RIGHT, (event_id, HANDOVER, event_id, right_id))
            revoked = self._run(conn, REVOKE_DIRECTOR, (now(), event_id, right_id)).rowcount
            return bool(revoked == 1)

    def set_director_link(self, event_id: str, kind: str, secret_hash: str | None) -> None:
        """Make ``secret_hash`` the event's link of ``kind`` (replacing any); ``None`` ends it."""
        with self._write() as conn:
            self._run(conn, DELETE_LINK, (event_id, kind))
            if secret_hash is not None:
                self._run(conn, INSERT_LINK, (event_id, kind, secret_hash, now()))

    def director_link(self, event_id: str, kind: str) -> Handover | None:
        """The event's link of ``kind``, or ``None``."""
        with self._read() as conn:
            row = self._run(conn, SELECT_LINK, (event_id, kind)).fetchone()
        return None if row is None else Handover(secret_hash=row[0], created=row[1])

    def card_generation(self, game_id: str) -> int:
        """How many times a right to change the game was revoked (its table card's generation)."""
        with self._read() as conn:
            row = self._run(conn, SELECT_CARD, (game_id,)).fetchone()
        return 0 if row is None else int(row[0])

    def game_event(self, game_id: str) -> str | None:
        """The id of the event the game is a match of (``None``: no event)."""
        with self._read() as conn:
            row = self._run(conn, SELECT_GAME_EVENT, (game_id,)).fetchone()
        return None if row is None else str(row[0])

    def device_events(self, device_hash: str, limit: int) -> list[DeviceEvent]:
        """The events the device directs or keeps a match's score in (an unrevoked right
        to direct it, or to change one of its games), newest first (at most ``limit``)."""
        with self._read() as conn:
            found = self._run(
                conn, SELECT_DEVICE_EVENTS, (device_hash, device_hash, device_hash, limit)
            )
            return [DeviceEvent(i, name, bool(directs)) for i, name, directs in found]

    def _next_card(self, conn: Any, game_id: str) -> None:
        """A right to change the game was revoked: its table card's next generation."""
        self._run(conn, BUMP_CARD, (game_id,))
