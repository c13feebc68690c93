"""The club's ladder (``/ladder``) and the rating panel of a player's record page.

The ladder lists the players by rating (:mod:`scorekeeper.store.ratings`), highest
first: ``?min=`` keeps those with at least that many rated games (default 1),
``?days=`` those who finished a rated game in the last so many days (one of
:data:`DAYS`; empty: any time), ``?after=`` is the next page.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from flask import abort, request
from werkzeug.wrappers import Response

from scorekeeper.errors import ScorekeeperError
from scorekeeper.ratings import NEW
from scorekeeper.store import ratings

from .. import get_storage
from ..i18n import _, format_number, ngettext
from .blueprint import bp, render
from .chart import COLUMNS, chart

DAYS = ("7", "30", "90", "365")
"""The spans of recent activity the ladder's form offers, in days."""
MAX_MIN = 1000
PAGE = 100


@bp.get("/ladder")
def ladder() -> Response:
    """The players by rating, with the form of its two filters (see the module docs)."""
    asked = {name: request.args.get(name, "").strip() for name in ("min", "days")}
    errors: dict[str, str] = {}
    least = _least(asked["min"], errors)
    if asked["days"] and asked["days"] not in DAYS:
        errors["days"] = _("Choose any time, or one of the spans offered.")
    lines: list[ratings.Rated] = []
    after = None
    if not errors:
        since = datetime.now(UTC) - timedelta(days=int(asked["days"])) if asked["days"] else None
        try:
            lines, after = ratings.ladder(
                get_storage(),
                limit=PAGE,
                cursor=request.args.get("after") or None,
                min_games=least,
                active_since=since,
            )
        except ScorekeeperError:
            abort(400, _("This page of the ladder does not exist: start again from the top."))
    first = int(request.args.get("from", "1")) if request.args.get("from", "").isdigit() else 1
    return render(
        "pad/ladder.html",
        422 if errors else 200,
        lines=[_line(first + n, line) for n, line in enumerate(lines)],
        asked=asked,
        days=[(d, _days(int(d))) for d in DAYS],
        errors=errors,
        after=after,
        next_from=first + len(lines),
    )


def _least(text: str, errors: dict[str, str]) -> int:
    """The fewest games asked for (1 when empty); a word of what is wrong in ``errors``."""
    if not text:
        return 1
    if not text.isdigit() or not 1 <= int(text) <= MAX_MIN:
        errors["min"] = _(
            "Write a whole number of games from 1 to %(most)s.", most=format_number(MAX_MIN)
        )
        return 1
    return int(text)


def _days(n: int) -> str:
    """``in the last 30 days``, in the page's language."""
    return ngettext("in the last %(num)d day", "in the last %(num)d days", n)


def _line(place: int, line: ratings.Rated) -> dict[str, Any]:
    """A row of the ladder: its place, the player, the rating and the games behind it."""
    return {
        "place": format_number(place),
        "player": line.player,
        "rating": str(line.rating),
        "games": format_number(line.games),
    }


def rating_panel(name: str) -> dict[str, Any]:
    """What a player's record page shows of the rating: the number, the games behind it
    and the chart of its history (``None`` before the first rated game)."""
    line = ratings.player_line(get_storage(), name, COLUMNS)
    rating, games = (line.rating, line.games) if line else (NEW.rating, 0)
    return {
        "rating": str(rating),
        "games": ngettext("from %(num)d game", "from %(num)d games", games),
        "chart": chart(line),
        "first": line.first.rating if line else None,
        "last": rating,
        "count": games,
    }
