"""The round clock: the director sets the minutes of the current round (the last paired
one), from now or from a time already past, and the pages and the API show the time
left (:func:`round_clock`, :func:`seconds_left`).

The clock decides nothing by itself: at zero the round goes on, and the director ends
each unfinished match by "time called" (:func:`scorekeeper.store.event_ends.end_match`)
or lets it play out. Setting the clock again replaces it (a restart, or a correction
of its length); a withdrawn round takes its clock with it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ..errors import Conflict, InvalidValueError
from .base import now
from .event_results import RoundClock
from .event_types import StoredClock, StoredEvent
from .protocol import Store
from .refusals import NotFound

MAX_MINUTES = 600
"""The longest round a clock takes (ten hours)."""

SKEW = timedelta(minutes=1)
"""How far in the future a start may be (a phone's clock a little ahead)."""


def moment(text: str) -> datetime:
    """An ISO 8601 time with its offset (``Z`` or ``+02:00``) as an aware datetime."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def iso(when: datetime) -> str:
    """``when`` as the stores write times: UTC, milliseconds, ``Z``."""
    return when.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def round_clock(stored: StoredEvent) -> RoundClock | None:
    """The clock of the event's last paired round (``None``: no round, or no clock set)."""
    if not stored.paired or stored.paired[-1].clock is None:
        return None
    clock = stored.paired[-1].clock
    ends = moment(clock.started) + timedelta(minutes=clock.minutes)
    return RoundClock(stored.paired[-1].number, clock.started, clock.minutes, iso(ends))


def seconds_left(clock: RoundClock, at: datetime | None = None) -> int:
    """The whole seconds left on ``clock`` at ``at`` (now by default); 0 once time is up."""
    left = moment(clock.ends) - (at or datetime.now(UTC))
    return max(0, int(left.total_seconds() + 0.999))


def checked_minutes(minutes: object) -> int:
    """``minutes`` if it is a whole number from 1 to :data:`MAX_MINUTES`, else an
    :class:`~scorekeeper.errors.InvalidValueError` naming ``minutes``."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= MAX_MINUTES:
        raise InvalidValueError(
            f"minutes: a whole number of minutes from 1 to {MAX_MINUTES}",
            option="minutes",
            params={"most": MAX_MINUTES},
        )
    return minutes


def checked_start(started: str | None) -> str:
    """The round's start: now when ``started`` is ``None``, else that ISO 8601 time with
    its offset, no later than now (give or take :data:`SKEW`), in UTC."""
    if started is None:
        return now()
    try:
        when = moment(started)
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise InvalidValueError(
            "started: an ISO 8601 time with its offset, such as 2026-05-01T19:30:00Z",
            option="started",
        )
    if when > datetime.now(UTC) + SKEW:
        raise InvalidValueError("started: the round cannot start in the future", option="started")
    return iso(when)


def set_clock(
    store: Store, event_id: str, minutes: object, started: str | None = None
) -> StoredEvent:
    """Set the clock of the event's current round: ``minutes`` long (1 to
    :data:`MAX_MINUTES`), started at ``started`` (ISO 8601; now when ``None``); returns
    the event as stored after; a :class:`~scorekeeper.errors.Conflict` ``no_round``
    while no round is paired."""
    length = checked_minutes(minutes)
    start = checked_start(started)
    stored = store.event(event_id)
    if not stored.paired:
        raise Conflict("no round is paired yet: pair one, then set its clock", code="no_round")
    number = stored.paired[-1].number
    if not store.set_round_clock(event_id, number, StoredClock(start, length)):
        raise NotFound(f"event {event_id!r} has no round {number}", field="number")
    return store.event(event_id)
