"""What the director's roster forms show (``templates/pad/event_roster.html``): who may be
withdrawn, whether a late entry is taken (and why not), who may be swapped (and why not),
each in players' words. Worked out from the event's JSON as
:func:`api.pad.views_events.event_view` has it."""

from __future__ import annotations

from typing import Any

from scorekeeper.event_roster import entries_open, rounds_in_all
from scorekeeper.events import Event, Format
from scorekeeper.store.event_rounds import event_of
from scorekeeper.store.event_types import StoredEvent

from ..i18n import _
from .roster_words import ROSTER_WORDINGS


def roster_view(stored: StoredEvent, body: dict[str, Any]) -> dict[str, Any]:
    """``playing`` (the players not withdrawn, roster order), ``withdraw_closed`` and
    ``entries_closed`` (why that form is not shown, else ``None``), ``swap`` (the
    current round's players at a table with no hand, and its byes, as
    ``[(name, place)]``) and ``swap_closed`` (why no swap, else ``None``)."""
    event, paired = event_of(stored), len(stored.paired)
    total = rounds_in_all(event)
    left = not body["over"] if total is None else paired < total
    return {
        "playing": [name for name in event.players if event.withdrawn_from(name) is None],
        "withdraw_closed": None if left else _("The event is over: nobody can be withdrawn."),
        "entries_closed": None if entries_open(event, paired) else _entries_closed(event),
        "swap": _swappable(body),
        "swap_closed": _swap_closed(body),
    }


def _entries_closed(event: Event) -> str:
    """Why the event takes no late entry now."""
    if event.format is Format.ROUND_ROBIN:
        return _(
            "A round robin takes late entries before round 1 only: its schedule is made"
            " of the whole roster."
        )
    if event.format is not Format.SWISS:
        return _(
            "A knockout takes late entries before round 1 only: its bracket is made of"
            " the whole roster."
        )
    return _("Every round is paired: no round is left for a late entry.")


def _swappable(body: dict[str, Any]) -> list[tuple[str, str]]:
    """The current round's players who may be swapped: at a table with no hand (and not
    ended), or with a bye; each with where they are (a table, or the bye)."""
    current = body["rounds"][-1] if body["rounds"] else None
    if current is None or body["format"] != Format.SWISS.value:
        return []
    found = [
        (name, _("Table %(table)s", table=match["table"]))
        for match in current["matches"]
        if not match["finished"] and match.get("hands") == 0
        for name in match["players"]
    ]
    return found + [(name, _("bye")) for name in current["byes"]]


def _swap_closed(body: dict[str, Any]) -> str | None:
    if body["format"] != Format.SWISS.value:
        return f"{ROSTER_WORDINGS['swap_not_allowed']}."  # as the refusal says it
    return None
