"""The round clock, as both SQL stores keep it: two columns of ``event_rounds``
(a migration appended to each backend's list), ``clock_started`` (ISO 8601 UTC) and
``clock_minutes``, NULL while the director set no clock. A withdrawn round takes its
clock with its row.

:class:`RoundClocks` is the part of :class:`~scorekeeper.store.sql.SqlStore` that
writes them; :meth:`~scorekeeper.store.sql.SqlStore.event` reads them with the rounds
(:func:`clock_of`).
"""

from __future__ import annotations

from .event_types import StoredClock
from .sql_part import SqlPart

ADD_CLOCK = (
    "ALTER TABLE event_rounds ADD COLUMN clock_started TEXT",
    "ALTER TABLE event_rounds ADD COLUMN clock_minutes INTEGER",
)
"""The migration's statements (the same in both backends)."""

SET_CLOCK = (
    "UPDATE event_rounds SET clock_started = ?, clock_minutes = ?"
    " WHERE event_id = ? AND number = ? RETURNING number"
)


def clock_of(started: str | None, minutes: int | None) -> StoredClock | None:
    """A round's clock from its row's two columns (``None`` while none is set)."""
    return None if started is None or minutes is None else StoredClock(started, minutes)


class RoundClocks(SqlPart):
    """The store method setting a round's clock (see the module docs)."""

    def set_round_clock(self, event_id: str, number: int, clock: StoredClock) -> bool:
        """Set the clock of the event's round ``number`` (replacing any); False (nothing
        written) when the event has no such round."""
        with self._write() as conn:
            row = (clock.started, clock.minutes, event_id, number)
            return bool(self._run(conn, SET_CLOCK, row).fetchall())
