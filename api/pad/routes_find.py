"""Finding games and players: the games page (every game on this server, newest first,
a page at a time, by part of a name, by player, status and day) and the roster of names
known here."""

from __future__ import annotations

from flask import abort, request
from werkzeug.wrappers import Response

from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import access, finding
from scorekeeper.store.base import StoredGame

from .. import get_storage
from ..i18n import _
from . import game_filters
from . import labels as pad_labels
from .blueprint import bp, render
from .views_games import game_line

PAGE = 20
"""Games on one page of the games page."""

ROSTER = 500
"""Names at most in the roster (the start form's suggestions, the players page)."""

FOUND = 12
"""Players at most named as found by a search."""


def roster() -> list[str]:
    """The names known on this server, by name (at most :data:`ROSTER`)."""
    return get_storage().player_names(ROSTER)


def found_players(part: str) -> tuple[list[str], list[str]]:
    """The players found by part of a name (at most :data:`FOUND`) and, when none is, the
    names near it."""
    found = finding.find_players(get_storage(), part, FOUND)
    return found, [] if found else finding.near_names(get_storage(), part)


@bp.get("/games")
def games_page() -> Response:
    """Every game, newest first: ``?q=`` keeps those of the players found by part of a name,
    ``?player=`` one player's (the whole name), ``?status=`` those being played (active) or
    over, ``?from=`` and ``?to=`` those made on those days and between (``?tz=``: the
    phone's offset from UTC, minutes east), ``?after=`` the next page."""
    filters = game_filters.read(request.args)
    cursor = request.args.get("after") or None
    page: list[StoredGame] = []
    after = None
    if not filters.errors:
        try:
            page, after = access.server_games(
                get_storage(), limit=PAGE, cursor=cursor, **filters.search
            )
        except ScorekeeperError as error:
            if error.field == "cursor":
                abort(
                    400, _("This page of games does not exist: start again from the newest games.")
                )
            filters.errors[error.field or "player"] = (
                _("The last day is before the first.")
                if error.field == "to"
                else pad_labels.worded(error)
            )
    part = filters.asked.get("q", "")
    found, near = found_players(part) if part and not filters.errors else ([], [])
    return render(
        "pad/games.html",
        422 if filters.errors else 200,
        games=[game_line(game) for game in page],
        filters=filters,
        found=found,
        near=near,
        after=after,
        paged=cursor is not None,
        roster=roster(),
    )
