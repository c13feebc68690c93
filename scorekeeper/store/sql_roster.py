"""An event's roster changes and swapped matches, as both SQL stores keep them.

* ``event_roster`` (one migration per backend): the late entries and the
  withdrawals, each a row: event, ``position`` (0, 1, ... in the order they
  were made), ``kind`` (``entry`` or ``withdrawal``), the player, the round it
  takes effect from, and when. A late entry's player is on the event's roster
  after the players it was created with, in that order.
* ``event_rounds.walkovers`` (JSON, NULL: none; added by the same migration):
  the round's walkovers, ``[[player, withdrawn opponent], ...]``.

:class:`EventRoster` is the part of :class:`~scorekeeper.store.sql.SqlStore`
that writes them, and swaps matches of a round (the old games are no longer the
event's and stay as ordinary games, as a withdrawn round's do). Both writes
lock the event's row first (:data:`LOCK_EVENT`), as pairing a round does, so a
roster change and a pairing never interleave.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

from ..rules import Rules
from .base import StoredGame, dumps, now
from .event_types import ENTRY, WITHDRAWAL, ChangeRoster, NewMatch, StoredEvent, SwapMatches
from .refusals import NotFound
from .sql_part import SqlPart

ROSTER_TABLE = (
    "CREATE TABLE event_roster (event_id TEXT NOT NULL REFERENCES events (id),"
    " position INTEGER NOT NULL, kind TEXT NOT NULL, player TEXT NOT NULL,"
    " round INTEGER NOT NULL, created TEXT NOT NULL, PRIMARY KEY (event_id, position))"
)
"""The roster changes: the same statement in both backends."""
ADD_WALKOVERS = "ALTER TABLE event_rounds ADD COLUMN walkovers TEXT"
"""Each round's walkovers (JSON): the same statement in both backends."""

LOCK_EVENT = "SELECT id FROM events WHERE id = ?"
SELECT_ROSTER = "SELECT kind, player, round FROM event_roster WHERE event_id = ? ORDER BY position"
INSERT_ROSTER = (
    "INSERT INTO event_roster (event_id, position, kind, player, round, created)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
DELETE_MATCH = "DELETE FROM event_matches WHERE event_id = ? AND round = ? AND table_no = ?"
UPDATE_BYES = "UPDATE event_rounds SET byes = ? WHERE event_id = ? AND number = ?"

Roster = tuple[tuple[str, ...], tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]
"""An event's late entries' players, its entries and its withdrawals, as
:func:`roster_of` reads them."""


def roster_of(rows: Sequence[tuple[str, str, int]]) -> Roster:
    """The late entries' players (in order), the entries and the withdrawals (player,
    round) from the event's ``event_roster`` rows."""
    entered = tuple((player, number) for kind, player, number in rows if kind == ENTRY)
    withdrawn = tuple((player, number) for kind, player, number in rows if kind == WITHDRAWAL)
    return tuple(player for player, _ in entered), entered, withdrawn


def walkovers_of(text: str | None) -> tuple[tuple[str, str], ...]:
    """A round's walkovers from their JSON column (NULL: none)."""
    return tuple((winner, gone) for winner, gone in json.loads(text or "[]"))


class EventRoster(SqlPart):
    """The store methods of roster changes and swaps (see the module docs)."""

    @abstractmethod
    def _event(self, conn: Any, event_id: str) -> StoredEvent:
        """The event as read on ``conn``; raises :class:`NotFound`."""

    @abstractmethod
    def _add_matches(
        self,
        conn: Any,
        event_id: str,
        number: int,
        matches: Sequence[NewMatch],
        settings: tuple[Rules, float | None],
    ) -> None:
        """Insert each match's new game (under the rules and stake) and its link."""

    def _locked_event(self, conn: Any, event_id: str) -> StoredEvent:
        """The event read on ``conn`` after locking its row (:data:`LOCK_EVENT`)."""
        if self._run(conn, LOCK_EVENT + self.LOCK_GAME, (event_id,)).fetchone() is None:
            raise NotFound(f"no event {event_id!r}", field="event_id")
        return self._event(conn, event_id)

    def _round_games(self, conn: Any, stored: StoredEvent, number: int) -> list[StoredGame]:
        """The games of the event's round ``number``, read on ``conn`` and locked (in table
        order); :class:`NotFound` when the event has no such round."""
        found = [paired for paired in stored.paired if paired.number == number]
        if not found:
            raise NotFound(f"event {stored.id!r} has no round {number}", field="number")
        return [self._game(conn, game_id, lock=True) for _, game_id in found[0].matches]

    def change_roster(self, event_id: str, change: ChangeRoster) -> None:
        """Add the late entry or withdrawal ``change(event)`` gives (it may raise: nothing
        is written) as the event's next roster change, the event locked."""
        with self._write() as conn:
            stored = self._locked_event(conn, event_id)
            made = change(stored)
            position = len(stored.entered) + len(stored.withdrawn)
            row = (event_id, position, made.kind, made.player, made.round, now())
            self._run(conn, INSERT_ROSTER, row)

    def swap_matches(self, event_id: str, number: int, swap: SwapMatches) -> None:
        """Replace matches of round ``number``: the event locked, the round's games read and
        locked, ``swap(event, games)`` gives the new matches and byes (or raises:
        nothing is written); each new match's table loses its old link (the old game
        stays, as an ordinary game) and gets the new game."""
        with self._write() as conn:
            stored = self._locked_event(conn, event_id)
            matches, byes = swap(stored, self._round_games(conn, stored, number))
            for match in matches:
                self._run(conn, DELETE_MATCH, (event_id, number, match.table))
            self._add_matches(conn, event_id, number, matches, (stored.rules, stored.stake))
            self._run(conn, UPDATE_BYES, (dumps(list(byes)), event_id, number))
