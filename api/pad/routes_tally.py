"""The running tally of games chained by rematch, and players' records (head to head too)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import abort, request
from werkzeug.wrappers import Response

from scorekeeper.errors import ScorekeeperError
from scorekeeper.gamesheet import GameSheet
from scorekeeper.store import stats
from scorekeeper.store.refusals import NotFound

from .. import get_storage
from ..i18n import _
from . import labels as pad_labels
from . import views_tally
from .blueprint import bp, game_row, render
from .routes_find import found_players, roster
from .routes_ratings import rating_panel


def sheet_tally(sheet: GameSheet) -> dict[str, Any] | None:
    """The rematch tally's view for a sheet's foot, when a game of two or three follows
    another (partnerships settle per team: no running tally for them)."""
    if len(sheet.players) == 4:
        return None
    tally = stats.rematch_tally(get_storage(), sheet.id)
    return views_tally.tally_view(tally) if len(tally.games) > 1 else None


@bp.get("/games/<game_id>/tally")
def tally(game_id: str) -> Response:
    """Every game of the chain of rematches up to this one: who won, who paid, the total."""
    if len(game_row(game_id).players) == 4:
        abort(404, _("The running tally is kept for games of two or three players."))
    found = stats.rematch_tally(get_storage(), game_id)
    return render("pad/tally.html", tally=views_tally.tally_view(found), game_id=game_id)


T = TypeVar("T")


def _record(name: str) -> tuple[stats.PlayerStats | None, str | None]:
    """A player's record by name, or ``None`` and what to tell the player instead."""
    return _found(name, lambda: stats.player_stats(get_storage(), name))


def _found(name: str, read: Callable[[], T]) -> tuple[T | None, str | None]:
    """What ``read`` reads of player ``name``, or ``None`` and what to tell the player
    instead."""
    if not name.strip():
        return None, _("Type a player's name.")
    try:
        return read(), None
    except NotFound:
        return None, _(
            "Nobody called “%(name)s” has played on this scorepad yet. Check the spelling"
            " (capitals and spaces around the name do not matter).",
            name=pad_labels.isolated(name.strip()),
        )
    except ScorekeeperError as error:
        return None, pad_labels.worded(error)


@bp.get("/players")
def players() -> Response:
    """A player's record (``?name=``: the whole name, else the one player found by part of
    it), the players found by part of a name, or the search form with what went wrong and
    the names near the one typed."""
    name = request.args.get("name")
    if name is None:
        return render("pad/players.html", record=None, error=None, name="", roster=roster())
    found, error = _record(name)
    matches, near = found_players(name) if found is None and name.strip() else ([], [])
    if len(matches) == 1:
        found, error = _record(matches[0])
    return render(
        "pad/players.html",
        200 if found or matches else (422 if not name.strip() else 404),
        record=views_tally.record_view(found) if found else None,
        rating=rating_panel(found.name) if found else None,
        error=None if matches else error,
        matches=matches,
        near=near,
        name=name,
        roster=roster(),
    )


@bp.get("/players/vs")
def head_to_head() -> Response:
    """Two players head to head (``?name=...&other=...``), from the first one's record."""
    name, other = request.args.get("name", ""), request.args.get("other", "")
    found, error = _found(name, lambda: stats.head_to_head(get_storage(), name, other))
    if found is None:
        abort(404, error)
    player, rival = found
    if rival is None:
        abort(
            404,
            _(
                "%(name)s and %(other)s have not played each other on this scorepad.",
                name=pad_labels.isolated(player),
                other=pad_labels.isolated(other.strip()),
            )
            if other.strip()
            else _(
                "%(name)s and that player have not played each other on this scorepad.",
                name=pad_labels.isolated(player),
            ),
        )
    return render("pad/head_to_head.html", name=player, rival=rival)
