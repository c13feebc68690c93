"""Finding games and players: the games page (every game on this server, newest first,
a page at a time, by player) and the roster of names known here."""

from __future__ import annotations

from flask import abort, request
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import access

from .. import get_storage
from . import labels as pad_labels
from .blueprint import bp, render
from .views_games import game_line

PAGE = 20
"""Games on one page of the games page."""

ROSTER = 500
"""Names at most in the roster (the start form's suggestions, the players page)."""


def roster() -> list[str]:
    """The names known on this server, by name (at most :data:`ROSTER`)."""
    return get_storage().player_names(ROSTER)


@bp.get("/games")
def games_page() -> Response:
    """Every game, newest first: ``?player=`` keeps one player's, ``?after=`` the next page."""
    player = request.args.get("player", "").strip()
    cursor = request.args.get("after") or None
    try:
        found, after = access.server_games(
            get_storage(), limit=PAGE, cursor=cursor, player=player or None
        )
    except ScorekeeperError as error:
        if error.field == "cursor":
            abort(400, _("This page of games does not exist: start again from the newest games."))
        return render(
            "pad/games.html",
            422,
            games=[],
            player=player,
            error=pad_labels.worded(error),
            after=None,
            paged=False,
            roster=roster(),
        )
    return render(
        "pad/games.html",
        games=[game_line(game) for game in found],
        player=player,
        error=None,
        after=after,
        paged=cursor is not None,
        roster=roster(),
    )
