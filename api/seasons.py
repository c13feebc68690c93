"""The ``/api/v1/seasons`` endpoints: a club's seasons and their tables (issue 29).

A season is created with its name, first and last day, table rule and whether
casual games count; like an event it needs no token to create (rate-limited
as every create is) and is public to read. It has no token: nothing changes
a season once made. Its nights are the events created on its days, its table
computed from their stored games (and the casual games of those days) on every
request (:mod:`scorekeeper.store.seasons`); the table also comes as CSV.

The routes are a blueprint of their own (:data:`blp`, endpoints ``api_seasons.*``)
under ``/api/v1``, documented under the ``api_v1`` tag as the events are.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, url_for
from flask.views import MethodView
from flask_smorest import Api, Blueprint

from scorekeeper import event_tables
from scorekeeper.store import seasons
from scorekeeper.store.season_results import StoredSeason

from . import get_storage, lifecycle, limits
from . import headers as h
from . import season_schemas as s
from .events import CSV_RESPONSE, CSV_TYPE, TAG, EventIdConverter
from .paths import random_id_schema
from .v1 import CREATE_REFUSALS, refusals

blp = Blueprint("api_seasons", __name__, url_prefix="/api/v1")
"""The season endpoints (documented under :data:`api.events.TAG`)."""
blp.before_request(lifecycle.refuse_unless_json)


class SeasonIdConverter(EventIdConverter):
    """The ``<season:...>`` path converter: strings shaped like a season id (made as a
    game id is)."""


def season_id_schema(converter: SeasonIdConverter) -> dict[str, Any]:
    """The OpenAPI schema of a season id path parameter."""
    return random_id_schema("season")


def register(api: Api, app: Flask) -> None:
    """Serve the season endpoints and document them under :data:`~api.events.TAG`."""
    for name, schema in s.COMPONENTS.items():
        api.spec.components.schema(name, schema=schema)
    app.register_blueprint(blp)
    app.extensions["flask-smorest"]["blp_name_to_api"][blp.name] = api
    blp.register_views_in_doc(api, app, api.spec, name=blp.name, parameters=None)


def _url(season_id: str) -> str:
    return url_for("api_seasons.Season", season_id=season_id)


def _with_url(season: StoredSeason) -> dict[str, Any]:
    return {"url": _url(season.id), **season.to_dict()}


@blp.route("/seasons", tags=[TAG])
class Seasons(MethodView):
    """A club's seasons."""

    @limits.create_limit
    @blp.arguments(h.KeyHeader(), location="headers")
    @blp.arguments(s.SeasonRequest())
    @blp.response(201, s.SeasonView)
    @refusals(*CREATE_REFUSALS, 422)
    @blp.doc(operationId="createSeason")
    def post(self, headers: dict[str, Any], body: dict[str, Any]) -> Response:
        """Create a season: 201 with its id, URL, settings and the club nights of its days.

        422 naming the field: last_day before first_day, an unknown table rule, placement
        points that are not whole numbers falling from first place. With an
        Idempotency-Key, a repeat answers the same season (another body with that key: 422).
        """
        store = get_storage()
        created = seasons.create_season(store, **body, idempotency_key=headers.get("key"))
        response = jsonify(_with_url(seasons.season_body(store, created)))
        response.status_code = 201
        response.headers["Location"] = _url(created.id)
        return response

    @blp.response(200, s.SeasonList)
    @blp.doc(operationId="listSeasons")
    def get(self) -> Response:
        """Every season, the latest first day first."""
        return jsonify({"seasons": [_with_url(found) for found in get_storage().seasons()]})


@blp.route("/seasons/<season:season_id>", tags=[TAG])
class Season(MethodView):
    """One season."""

    @blp.response(200, s.SeasonView)
    @refusals(404)
    @blp.doc(operationId="getSeason")
    def get(self, season_id: str) -> Response:
        """The season: its settings and the club nights of its days, in date order."""
        store = get_storage()
        return jsonify(_with_url(seasons.season_body(store, store.season(season_id))))


@blp.route("/seasons/<season:season_id>/table", tags=[TAG])
class SeasonTable(MethodView):
    """A season's table."""

    @blp.response(200, s.SeasonTable)
    @refusals(404)
    @blp.doc(operationId="getSeasonTable")
    def get(self, season_id: str) -> Response:
        """The table, best first: rank, player, events, won, net_points, points, ...

        ``measures`` lists what it ranks by in order; each line's ``tie_break`` names the
        measure that put the line above ahead when both have the same points. Players
        level on every measure share a rank.
        """
        store = get_storage()
        return jsonify(seasons.season_standings(store, store.season(season_id)).to_dict())


@blp.route("/seasons/<season:season_id>/table.csv", tags=[TAG])
class SeasonTableCsv(MethodView):
    """A season's table as CSV."""

    @blp.response(200, **CSV_RESPONSE)
    @refusals(404)
    @blp.doc(operationId="exportSeasonTableCsv")
    def get(self, season_id: str) -> Response:
        """The table as a CSV file (the lines of GET /seasons/{id}/table).

        Columns: rank, player, events, won, net_points, points, played, lost,
        casual_played, casual_won, head_to_head, tie_break.
        """
        store = get_storage()
        stored = store.season(season_id)
        table = seasons.season_standings(store, stored)
        response = Response(seasons.table_csv(table), content_type=CSV_TYPE)
        filename = event_tables.file_name(stored.name, "table")
        response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
