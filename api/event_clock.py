"""``PUT /api/v1/events/{id}/clock``: the director sets the round clock (director token).

The clock belongs to the last paired round (:mod:`scorekeeper.store.event_clock`):
``minutes`` long, from ``started`` (ISO 8601 with its offset; now when left out).
The answer is the event as ``GET /api/v1/events/{id}`` shows it, its ``clock``
``{"round", "started", "minutes", "ends"}``; setting it again replaces it.
"""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView
from marshmallow import fields, validate

from scorekeeper.store import event_clock

from . import get_storage, limits
from . import responses as r
from .events import DIRECTOR, blp, director, event_answer, route
from .schemas import Strict
from .v1 import refusals


class ClockRequest(Strict):
    """``PUT /events/{event_id}/clock``: the round clock's length and start."""

    minutes = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(1, event_clock.MAX_MINUTES),
        metadata={"description": "How long the current round lasts, in whole minutes."},
    )
    started = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(1, 40),
        metadata={
            "description": "When the round started: an ISO 8601 time with its offset"
            " (2026-05-01T19:30:00Z), not in the future. Left out: now."
        },
    )


@route("/events/<event:event_id>/clock")
class EventClock(MethodView):
    """The round clock of an event."""

    @limits.wrong_token_limit
    @director
    @blp.arguments(ClockRequest())
    @blp.response(200, r.EventView)
    @refusals(400, 401, 403, 404, 409, 413, 422, 429, 503, 507)
    @blp.doc(**DIRECTOR)
    @blp.doc(operationId="setRoundClock")
    def put(self, body: dict[str, Any], event_id: str) -> Response:
        """Set the current round's clock: 200 with the event, its ``clock`` set.

        ``minutes`` (1 to 600) from ``started`` (now when left out; a time past
        lets the director start the clock late). Setting it again replaces it. The
        clock decides nothing: at zero the director calls time at each unfinished
        table (``POST /events/{id}/matches/{game_id}/end``). 409 ``no_round`` while no
        round is paired; 422 naming ``minutes`` or ``started`` when one is wrong.
        """
        stored = event_clock.set_clock(get_storage(), event_id, body["minutes"], body["started"])
        return event_answer(stored)
