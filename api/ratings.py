"""``GET /api/v1/ratings`` (the ladder) and ``GET /api/v1/players/{name}/rating``.

The club's ratings (:mod:`scorekeeper.store.ratings`): every finished game but
those of bot keys, folded in the order the games ended. The routes join the
``/api/v1`` blueprint (:data:`api.v1.blp`); the answers' schemas are derived from
the result types (:mod:`api.shapes`).
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import Response, jsonify
from flask.views import MethodView
from marshmallow import fields, validate

from scorekeeper.store import ratings

from . import get_storage
from . import schemas as s
from .game_schemas import MAX_CURSOR
from .shapes import Shapes
from .v1 import blp, refusals

SHAPES = Shapes(
    {ratings.Rated: "Rated", ratings.PlayerRating: "PlayerRating", ratings.Point: "RatingPoint"}
)
"""The shapes of the ratings' answers."""

Rated = SHAPES.schema(ratings.Rated)
PlayerRating = SHAPES.schema(ratings.PlayerRating)


class RatingsQuery(s.Strict):
    """The query of ``GET /api/v1/ratings``: the page wanted and the filters."""

    limit = fields.Integer(
        load_default=ratings.DEFAULT_PAGE,
        validate=validate.Range(1, ratings.MAX_PAGE),
        metadata={"description": f"Players on the page (default {ratings.DEFAULT_PAGE})."},
    )
    cursor = fields.String(
        validate=validate.Length(1, MAX_CURSOR),
        metadata={"description": "The previous page's next: the page after it."},
    )
    active_since = fields.DateTime(
        format="iso",
        metadata={
            "description": "Only players whose last rated game ended at or after this time"
            " (ISO 8601; without an offset, UTC).",
            "maxLength": 40,
        },
    )
    min_games = fields.Integer(
        load_default=1,
        validate=validate.Range(1, 100_000),
        metadata={"description": "Only players with at least this many rated games (default 1)."},
    )


class Ratings(ma.Schema):
    """One page of the ladder, highest rating first."""

    ratings = fields.List(fields.Nested(Rated), required=True)
    next = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The cursor of the next page; null on the last page."},
    )


@blp.route("/ratings")
class Ladder(MethodView):
    """The club's players by rating."""

    @blp.arguments(RatingsQuery(), location="query")
    @blp.response(200, Ratings)
    @refusals(422)
    @blp.doc(operationId="listRatings")
    def get(self, query: dict[str, Any]) -> Response:
        """The players by rating, highest first, a page at a time.

        A rating is ``1000 + 25 x (mu - 3 sigma)`` of a Plackett-Luce (Weng-Lin) model
        fed every finished game in the order the games ended, except the games of bot
        keys; ``games`` is how many games it rests on. ``next`` is the cursor of the
        next page (send it as ``cursor``), null on the last.
        """
        lines, cursor = ratings.ladder(get_storage(), **query)
        return jsonify({"ratings": [line.to_dict() for line in lines], "next": cursor})


@blp.route("/players/<player:name>/rating")
class PlayerRatingView(MethodView):
    """A player's rating."""

    @blp.response(200, PlayerRating)
    @refusals(404, 422)
    @blp.doc(operationId="getPlayerRating")
    def get(self, name: str) -> Response:
        """The player's rating, the rated games behind it and its history, oldest first:
        per game, its id, when it ended and the rating after it. A player who has not
        finished a rated game shows 1000 with no games; an unknown player: 404."""
        return jsonify(ratings.player_rating(get_storage(), name).to_dict())
