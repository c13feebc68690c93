"""How the scorepad (and the API, in the request's language) words a season's refusals:
the part of :data:`api.pad.wordings.WORDINGS` for the codes of :mod:`scorekeeper.seasons`."""

from __future__ import annotations

from ..i18n import LazyString, lazy_gettext

SEASON_WORDINGS: dict[str, LazyString] = {
    "season_name": lazy_gettext("Type a name for the season: at most %(max)s characters"),
    "bad_date": lazy_gettext("Give the day as year-month-day, like 2026-03-01, not %(value)s"),
    "last_before_first": lazy_gettext(
        "The last day (%(last_day)s) is before the first day (%(first_day)s)"
    ),
    "unknown_table_rule": lazy_gettext(
        "Choose how the table ranks: by match wins or by placement points, not %(table)s"
    ),
    "bad_placement": lazy_gettext(
        "Placement points: 1 to %(places)s whole numbers from %(max)s down to 0, first place"
        " first, none above the one before (like 10 8 6 5 4 3 2 1)"
    ),
}
"""Each season refusal's words, formatted with the error's params by name."""
