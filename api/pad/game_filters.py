"""The games page's filters as typed: part of a name, the exact player, status and days.

Days come from the page's date fields (ISO 8601, ``2025-05-03``) or typed as the page's
language writes a short date (``3. 5. 2025``); they are the phone's days (``tz``: its
offset from UTC in minutes east, set by the page's script; UTC without it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from babel.dates import parse_date
from werkzeug.datastructures import MultiDict

from scorekeeper.gamesheet import GameStatus
from scorekeeper.store.access import Found

from ..i18n import _, format_date, get_locale
from . import labels as pad_labels

ASKED = ("q", "player", "status", "from", "to", "tz")
"""The filters' names in the page's address, as the form sends them."""

MAX_OFFSET = 14 * 60
"""The farthest time zone from UTC, in minutes."""

_ISO_DAY = re.compile(r"\d{4}-\d\d-\d\d")

EXAMPLE = date(2025, 5, 3)
"""The day an error shows as an example of how to write one."""


@dataclass
class GameFilters:
    """What the page asked for (``asked``: the non-empty filters as typed, for the links),
    the store's filters when all are good (``search``), and what is wrong, by field."""

    asked: dict[str, str]
    search: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)

    @property
    def narrowed(self) -> bool:
        """Whether more than a player was asked for (part of a name, a status or days)."""
        return any(name in self.asked for name in ("q", "status", "from", "to"))

    @property
    def rest(self) -> dict[str, str]:
        """The filters asked for but the name's: a found player's link keeps them."""
        return {k: v for k, v in self.asked.items() if k not in ("q", "player")}

    @property
    def span(self) -> str | None:
        """The days asked for in the page's language, or ``None``."""
        first = self.search.get("created_from")
        last = self.search.get("created_to")
        if first and last:
            return _(
                "Games made from %(first)s to %(last)s", first=_shown(first), last=_shown(last)
            )
        if first:
            return _("Games made on or after %(first)s", first=_shown(first))
        if last:
            return _("Games made on or before %(last)s", last=_shown(last))
        return None


def read(args: MultiDict[str, str]) -> GameFilters:
    """The filters of a request's query (see :data:`ASKED`)."""
    asked = {name: args.get(name, "").strip() for name in ASKED}
    filters = GameFilters({name: value for name, value in asked.items() if value})
    status = asked["status"]
    if status and status not in {s.value for s in GameStatus}:
        filters.errors["status"] = _("Choose all games, the games being played or finished games.")
    found: Found = {"q": asked["q"] or None, "utc_offset": _offset(asked["tz"])}
    for name, key in (("from", "created_from"), ("to", "created_to")):
        if asked[name]:
            try:
                found[key] = _day(asked[name])  # type: ignore[literal-required]
            except ValueError:
                filters.errors[name] = _(
                    "“%(value)s” is not a date: write it as %(example)s.",
                    value=pad_labels.isolated(asked[name]),
                    example=format_date(EXAMPLE, "short"),
                )
    filters.search = {"player": asked["player"] or None, "status": status or None, **found}
    return filters


def _day(text: str) -> date:
    """A day typed as ISO 8601 or as the page's language writes a short date."""
    if _ISO_DAY.fullmatch(text):
        return date.fromisoformat(text)
    try:
        day = parse_date(text, locale=get_locale(), format="short")
    except (IndexError, TypeError) as error:
        raise ValueError(text) from error
    if not isinstance(day, date) or day.year < 1000:
        raise ValueError(text)
    return day


def _offset(text: str) -> int:
    """The phone's offset from UTC in minutes (0 when missing or not one)."""
    try:
        minutes = int(text)
    except ValueError:
        return 0
    return minutes if -MAX_OFFSET <= minutes <= MAX_OFFSET else 0


def _shown(day: date) -> str:
    return format_date(day, "medium")
