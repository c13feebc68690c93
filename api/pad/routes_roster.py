"""The director's roster forms on the scorepad (``templates/pad/event_roster.html`` on the
director's page): withdraw a player, add a late entry, swap two players of the round.

Each posts here and comes back to the director's page (303) with a notice
(``?roster=withdrawn|entered|swapped&player=...``); a refusal shows the page
again with the reason in the director's language (:func:`api.pad.labels.worded`).
A swap that makes a pair meet again asks first: a page names the pairs and
offers "Swap anyway" (the same form with ``confirm``). A swap gives the two
tables new games: this phone gets their edit rights, as when it pairs a round,
and the page asks for their cards to be printed again.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import current_app, redirect, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.errors import Conflict, ScorekeeperError
from scorekeeper.store import event_roster
from scorekeeper.store.refusals import NotFound

from .. import get_storage, limits
from . import rights
from .blueprint import bp, render
from .labels import worded
from .routes_events import _directed, _director_page


def _back(event_id: str, done: str, player: str) -> Response:
    """The director's page again, with the notice of what was ``done`` to ``player``."""
    return redirect(url_for("pad.director", event_id=event_id, roster=done, player=player), 303)


def _roster_change(event_id: str, done: str, change: Callable[[], str]) -> Response:
    """Make a roster ``change`` (it returns the player's name) and come back with the notice
    of what was ``done``, or show the page again with the refusal."""
    stored = _directed(event_id)
    try:
        player = change()
    except Conflict as error:
        return _director_page(stored, worded(error), 409)
    except ScorekeeperError as error:
        return _director_page(stored, worded(error), 422)
    return _back(event_id, done, player)


@bp.post("/events/<event_id>/withdrawals")
@limits.wrong_token_limit
def withdraw_player(event_id: str) -> Response:
    """Withdraw the chosen player from the next round on."""
    player = request.form.get("player", "")

    def change() -> str:
        event_roster.withdraw_player(get_storage(), event_id, player)
        return player

    return _roster_change(event_id, "withdrawn", change)


@bp.post("/events/<event_id>/entries")
@limits.wrong_token_limit
def enter_player(event_id: str) -> Response:
    """Add the late entry typed."""
    return _roster_change(
        event_id,
        "entered",
        lambda: event_roster.enter_player(get_storage(), event_id, request.form.get("player")),
    )


@bp.post("/events/<event_id>/rounds/<int:number>/swaps")
@limits.wrong_token_limit
def swap_players(event_id: str, number: int) -> Response:
    """Swap the two chosen players of round ``number``; a rematch asks first."""
    stored = _directed(event_id)
    players = [request.form.get("first", ""), request.form.get("second", "")]
    try:
        swapped = event_roster.swap_players(
            get_storage(),
            event_id,
            number,
            players,
            confirm=request.form.get("confirm") == "yes",
            secret=current_app.config["SECRET_KEY"],
        )
    except NotFound:  # the round was withdrawn meanwhile
        return redirect(url_for("pad.director", event_id=event_id), 303)
    except Conflict as error:
        if error.code == "rematch":
            return render(
                "pad/event_swap.html",
                409,
                event_id=event_id,
                name=stored.name,
                number=number,
                players=players,
                pairs=error.params["pairs"],
            )
        return _director_page(stored, worded(error), 409)
    except ScorekeeperError as error:
        return _director_page(stored, worded(error), 422)
    for match in swapped.matches:
        rights.grant(match.game_id, rights.STARTER_LABEL)
    tables = ", ".join(str(match.table) for match in swapped.matches)
    return _back(event_id, "swapped", tables)
