"""The ``/api/v1/events`` endpoints: club nights and tournaments (issue 22).

An event is created with its roster and format and answers a director token
(shown once, stored hashed, repeated for a repeated ``Idempotency-Key`` as a
game's edit token is). The director pairs each round with that token; each
match is an ordinary stored game, answered with its edit token for the
table. The standings are computed from the stored games on every request. The
director may end an unfinished match (time called: the leader, or the winner
named, wins on the totals as they stand; the game stays an ordinary game), and
withdraw the last paired round while none of its games has a hand (to pair it
again: a knockout's result that decided a later pairing changes only so).
The exports (standings and results as CSV, results as JSON, the event as a
record ``scorekeeper replay`` scores again) are public, as the event is.

The routes are a blueprint of their own (:data:`blp`, endpoints ``api_events.*``)
under ``/api/v1``; its operations keep the ``api_v1`` tag, so the document and the
clients generated from it group them as before. Their answers are the typed results
of :mod:`scorekeeper.store.event_results`, whose schemas :mod:`api.shapes` derives.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Flask, Response, current_app, jsonify, url_for
from flask.views import MethodView
from flask_smorest import Api, Blueprint

from scorekeeper import event_tables
from scorekeeper.store import event_ends, event_exports, event_rounds, events
from scorekeeper.store.event_results import NewEvent
from scorekeeper.store.event_types import StoredEvent

from . import credentials, get_storage, lifecycle, limits
from . import event_schemas as s
from . import headers as h
from . import responses as r
from .credentials import unauthorized
from .errors import error_response
from .paths import GameIdConverter, random_id_schema
from .v1 import CREATE_REFUSALS, refusals

TAG = "api_v1"
"""The tag of the event operations in the document (the ``/api/v1`` blueprint's)."""

blp = Blueprint("api_events", __name__, url_prefix="/api/v1")
"""The event endpoints (documented under :data:`TAG`: see :func:`register`, :func:`route`)."""
blp.before_request(lifecycle.refuse_unless_json)


def register(api: Api, app: Flask) -> None:
    """Serve the event endpoints and document them under :data:`TAG`, adding no tag of
    their own to the document's list (flask-smorest's ``register_blueprint`` would)."""
    app.register_blueprint(blp)
    app.extensions["flask-smorest"]["blp_name_to_api"][blp.name] = api
    blp.register_views_in_doc(api, app, api.spec, name=blp.name, parameters=None)


def route(rule: str) -> Callable[[type[MethodView]], type[MethodView]]:
    """:data:`blp`'s route, its operations tagged :data:`TAG`."""
    routed: Callable[[type[MethodView]], type[MethodView]] = blp.route(rule, tags=[TAG])
    return routed


class EventIdConverter(GameIdConverter):
    """The ``<event:...>`` path converter: only strings shaped like an event id (made as a
    game id is)."""


def event_id_schema(converter: EventIdConverter) -> dict[str, Any]:
    """The OpenAPI schema of an event id path parameter."""
    return random_id_schema("event")


DIRECTOR: dict[str, list[dict[str, list[str]]]] = {"security": [{"directorAuth": []}]}
"""An operation that needs the event's director token."""


def director(view: Callable[..., Response]) -> Callable[..., Response]:
    """Let the request through only with the event's director token.

    Unknown event: 404; no ``Authorization: Bearer <token>``: 401; a wrong token: 403.
    """

    @wraps(view)
    def check(*args: Any, event_id: str, **kwargs: Any) -> Response:
        stored = get_storage().event(event_id)
        token = credentials.bearer()
        if token is None:
            return unauthorized(
                "this needs the event's director token: Authorization: Bearer <token>"
            )
        if not events.token_matches(stored, token):
            return error_response(
                403, "the director token does not match this event", field="Authorization"
            )
        return view(*args, event_id=event_id, **kwargs)

    return check


@route("/events")
class Events(MethodView):
    """Events: club nights and tournaments."""

    @limits.create_limit
    @blp.arguments(h.KeyHeader(), location="headers")
    @blp.arguments(s.EventRequest())
    @blp.response(201, r.NewEvent)
    @refusals(*CREATE_REFUSALS)
    @blp.doc(operationId="createEvent")
    def post(self, headers: dict[str, Any], body: dict[str, Any]) -> Response:
        """Create an event: 201 with its id, URL and director token (shown only now).

        With an Idempotency-Key, a repeat answers the same (the same event and token).
        """
        stored, token = events.create_event(
            get_storage(),
            **body,
            idempotency_key=headers.get("key"),
            secret=current_app.config["SECRET_KEY"],
        )
        url = url_for("api_events.Event", event_id=stored.id)
        response = jsonify(NewEvent(stored.id, url, token).to_dict())
        response.status_code = 201
        response.headers["Location"] = url
        return response


@route("/events/<event:event_id>")
class Event(MethodView):
    """One event."""

    @blp.response(200, r.EventView)
    @refusals(404)
    @blp.doc(operationId="getEvent")
    def get(self, event_id: str) -> Response:
        """The whole event: settings, rounds, matches, tables, results and standings."""
        return event_answer(get_storage().event(event_id))


def event_answer(stored: StoredEvent) -> Response:
    """The event as ``GET /events/{id}`` answers it: its URL and its whole body."""
    body = events.event_body(get_storage(), stored).to_dict()
    return jsonify({"url": url_for("api_events.Event", event_id=stored.id), **body})


@route("/events/<event:event_id>/rounds")
class EventRounds(MethodView):
    """An event's rounds."""

    @limits.wrong_token_limit
    @director
    @blp.response(201, r.PairedRound)
    @refusals(401, 403, 404, 409, 429, 503, 507)
    @blp.doc(**DIRECTOR)
    @blp.doc(operationId="pairRound")
    def post(self, event_id: str) -> Response:
        """Pair the next round: 201 with its matches, each a new game and its edit token.

        409 while a game of the current round is unfinished, and once the event is over.
        """
        paired = events.pair_round(get_storage(), event_id)
        response = jsonify(paired.to_dict())
        response.status_code = 201
        return response


@route("/events/<event:event_id>/rounds/<int:number>")
class EventRound(MethodView):
    """One paired round of an event."""

    @limits.wrong_token_limit
    @director
    @blp.response(204)
    @refusals(401, 403, 404, 409, 429, 503, 507)
    @blp.doc(**DIRECTOR)
    @blp.doc(operationId="withdrawRound")
    def delete(self, event_id: str, number: int) -> Response:
        """Withdraw the last paired round, to pair it again: 204.

        Its games are no longer the event's (they stay as ordinary games). A knockout's
        result that decided a later round's pairing can change only once that round is
        withdrawn. 409 ``round_started`` while one of its games has a hand (or the
        director ended one of its matches), ``round_not_last`` for a round before the
        last; 404 when the event has no such round.
        """
        event_rounds.withdraw_round(get_storage(), event_id, number)
        return Response(status=204)


@route("/events/<event:event_id>/matches/<game:game_id>/end")
class EndMatch(MethodView):
    """The director ends a match."""

    @limits.wrong_token_limit
    @director
    @blp.arguments(s.EndMatchRequest(), required=False)
    @blp.response(200, r.EventMatch)
    @refusals(400, 401, 403, 404, 409, 413, 422, 429, 503, 507)
    @blp.doc(**DIRECTOR)
    @blp.doc(operationId="endMatch")
    def post(self, body: dict[str, Any], event_id: str, game_id: str) -> Response:
        """End an unfinished match: time called, the leader wins, points as they stand.

        The winner named wins, or else the player ahead on the sheet's current totals;
        the totals as they stand count, with no game bonus. The game stays an ordinary
        game, but the event keeps this result. 422 when the
        totals are level and no winner is named, or the winner does not play the match;
        404 when the game is no match of this event; 409 when the match is already
        finished (its game over, or ended before).
        """
        match = event_ends.end_match(get_storage(), event_id, game_id, body.get("winner"))
        return jsonify(match.to_dict())


@route("/events/<event:event_id>/standings")
class EventStandings(MethodView):
    """An event's standings."""

    @blp.response(200, r.EventStandings)
    @refusals(404)
    @blp.doc(operationId="getStandings")
    def get(self, event_id: str) -> Response:
        """The standings: by matches won, net points, (Swiss) opponents' wins, head to head."""
        store = get_storage()
        return jsonify(events.event_standings(store, store.event(event_id)).to_dict())


CSV_TYPE = "text/csv; charset=utf-8; header=present"
"""The Content-Type of a CSV export (RFC 4180, RFC 7111's header parameter)."""


CSV_RESPONSE: dict[str, Any] = {
    "content_type": "text/csv",
    "schema": {"type": "string", "description": "RFC 4180 CSV with a header row, UTF-8."},
    "headers": {
        "Content-Disposition": {
            "description": 'attachment; filename="<event name as a slug>-<what>.csv"',
            "schema": {"type": "string"},
            "required": True,
        }
    },
}
"""The documented answer of a CSV export."""


def _csv(event_id: str, what: str) -> Response:
    """The event's ``standings`` or ``results`` as a CSV download named after the event."""
    store = get_storage()
    stored = store.event(event_id)
    response = Response(event_exports.event_csv(store, stored, what), content_type=CSV_TYPE)
    filename = event_tables.file_name(stored.name, what)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@route("/events/<event:event_id>/export/standings.csv")
class EventStandingsCsv(MethodView):
    """An event's standings as CSV."""

    @blp.response(200, **CSV_RESPONSE)
    @refusals(404)
    @blp.doc(operationId="exportStandingsCsv")
    def get(self, event_id: str) -> Response:
        """The standings as a CSV file (the lines of GET /events/{id}/standings).

        Columns: rank, player, played, won, lost, net_points, byes, opponents_won.
        """
        return _csv(event_id, "standings")


@route("/events/<event:event_id>/export/results.csv")
class EventResultsCsv(MethodView):
    """Every match of an event as CSV."""

    @blp.response(200, **CSV_RESPONSE)
    @refusals(404)
    @blp.doc(operationId="exportResultsCsv")
    def get(self, event_id: str) -> Response:
        """Every match as a line of a CSV file.

        Columns: round, table, player_a, player_b, finished, winner, total_a,
        total_b (the final totals, empty until the end), game_id and ended
        (time_called for a match the director ended, else empty).
        """
        return _csv(event_id, "results")


@route("/events/<event:event_id>/export/results.json")
class EventResults(MethodView):
    """An event's standings and results as JSON."""

    @blp.response(200, r.EventExport)
    @refusals(404)
    @blp.doc(operationId="exportResults")
    def get(self, event_id: str) -> Response:
        """The event's settings, its standings and one result per match (as results.csv)."""
        store = get_storage()
        return jsonify(event_exports.event_export(store, store.event(event_id)).to_dict())


@route("/events/<event:event_id>/export/record.json")
class EventRecord(MethodView):
    """An event as a record to score again."""

    @blp.response(200, r.EventRecord)
    @refusals(404)
    @blp.doc(operationId="exportEventRecord")
    def get(self, event_id: str) -> Response:
        """The event as a record (format scorekeeper.event) to score again.

        Its settings, each round's byes and every match's exported game (as
        GET /games/{id}/export), labelled with its round and table.
        ``scorekeeper replay`` scores each game again and gives the standings.
        """
        store = get_storage()
        return jsonify(event_exports.event_record(store, store.event(event_id)).to_dict())
