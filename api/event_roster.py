"""The director's roster changes over the API: withdrawals, late entries and swaps.

Routes of :data:`api.events.blp` (the director's token needed, as for pairing):

* ``POST /api/v1/events/{id}/withdrawals`` ``{"player"}``: the player plays no
  round from the next one to be paired; 200 with the event as
  ``GET /api/v1/events/{id}`` shows it (the player in ``withdrawals`` and
  marked ``withdrawn`` in the standings).
* ``POST /api/v1/events/{id}/entries`` ``{"player"}``: a late entry; 201 with
  the event. 409 ``entries_closed`` where the format takes no entry now.
* ``POST /api/v1/events/{id}/rounds/{n}/swaps`` ``{"players": [a, b],
  "confirm"}``: two players of the last paired round change places; 200 with
  the two tables' new games and their edit tokens. A swap that makes a pair
  meet again is refused (409 ``rematch``, naming the pairs) unless
  ``confirm`` is true: a client cannot make a rematch without saying so.

The rules are :mod:`scorekeeper.event_roster`'s (see docs/directors/toolkit.md).
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, jsonify
from flask.views import MethodView
from marshmallow import fields, validate

from scorekeeper.names import MAX_NAME_LENGTH
from scorekeeper.store import event_roster

from . import get_storage, limits
from . import responses as r
from .events import DIRECTOR, blp, director, event_answer, route
from .request_fields import Flag, PlayerName
from .schemas import Strict
from .v1 import refusals

ROSTER_REFUSALS = (400, 401, 403, 404, 409, 413, 422, 429, 503, 507)
"""The error responses of a roster change."""


class PlayerRequest(Strict):
    """A withdrawal or a late entry: the player."""

    # a plain string, as EndMatchRequest's winner: the domain refuses a bad name (naming
    # the field); PlayerName's pattern on a lone property breaks openapi-generator's
    # Python client (it writes the pattern's control characters into its source)
    player = fields.String(
        required=True,
        validate=validate.Length(1, MAX_NAME_LENGTH),
        metadata={
            "description": "The player's name (a withdrawal: as on the roster; letter case"
            " and spaces around the name do not count)."
        },
    )


class SwapRequest(Strict):
    """``POST /events/{id}/rounds/{number}/swaps``: the two players who change places."""

    players = fields.List(
        PlayerName(),
        required=True,
        validate=validate.Length(2, 2),
        metadata={"description": "The two players (of the round) who change places."},
    )
    confirm = Flag(
        load_default=False,
        metadata={
            "description": "True to swap even when a pair would meet again (without it, such"
            " a swap is refused: 409 rematch)."
        },
    )


def _event(event_id: str, status: int) -> Response:
    """The event as ``GET /events/{id}`` shows it, with ``status``."""
    response = event_answer(get_storage().event(event_id))
    response.status_code = status
    return response


@route("/events/<event:event_id>/withdrawals")
class Withdrawals(MethodView):
    """An event's withdrawn players."""

    @limits.wrong_token_limit
    @director
    @blp.arguments(PlayerRequest())
    @blp.response(200, r.EventView)
    @refusals(*ROSTER_REFUSALS)
    @blp.doc(**DIRECTOR)
    @blp.doc(operationId="withdrawPlayer")
    def post(self, body: dict[str, Any], event_id: str) -> Response:
        """Withdraw a player from the next round to be paired on: 200 with the event.

        Played matches stay and count. Swiss pairs the others among themselves; a round
        robin's and a knockout's opponent goes through by walkover. 422 for a player not
        on the roster (field player); 409 ``already_withdrawn``, ``event_over`` (no round
        left to pair) or ``too_few_players``.
        """
        event_roster.withdraw_player(get_storage(), event_id, body["player"])
        return _event(event_id, 200)


@route("/events/<event:event_id>/entries")
class Entries(MethodView):
    """An event's late entries."""

    @limits.wrong_token_limit
    @director
    @blp.arguments(PlayerRequest())
    @blp.response(201, r.EventView)
    @refusals(*ROSTER_REFUSALS)
    @blp.doc(**DIRECTOR)
    @blp.doc(operationId="enterPlayer")
    def post(self, body: dict[str, Any], event_id: str) -> Response:
        """Add a late entry: 201 with the event.

        Swiss: the player plays from the next round to be paired, with a zero score.
        Round robin and knockouts take entries before round 1 only. 409
        ``entries_closed`` where the format takes none now, ``already_entered`` for a
        name on the roster, ``event_full``.
        """
        event_roster.enter_player(get_storage(), event_id, body["player"])
        return _event(event_id, 201)


@route("/events/<event:event_id>/rounds/<int:number>/swaps")
class Swaps(MethodView):
    """Swapping two players of a paired round."""

    @limits.wrong_token_limit
    @director
    @blp.arguments(SwapRequest())
    @blp.response(200, r.SwappedRound)
    @refusals(*ROSTER_REFUSALS)
    @blp.doc(**DIRECTOR)
    @blp.doc(operationId="swapPlayers")
    def post(self, body: dict[str, Any], event_id: str, number: int) -> Response:
        """Swap two players of the last paired round (Swiss): 200 with the new matches.

        Each player takes the other's place (table and seat, or bye). The two tables get
        new games (answered with their edit tokens); the old games are no longer the
        event's. Only while neither table has a hand: 409 ``swap_started``. 409
        ``rematch`` when a new pair met before, unless ``confirm``;
        ``swap_not_allowed`` in a round robin or a knockout; ``round_not_last``; 422
        for players not in the round (field players) or already at one table.
        """
        swapped = event_roster.swap_players(
            get_storage(),
            event_id,
            number,
            body["players"],
            confirm=body["confirm"],
            secret=current_app.config["SECRET_KEY"],
        )
        return jsonify(swapped.to_dict())
