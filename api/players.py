"""``GET /api/v1/players?q=``: the players found by part of a name, or names near it.

A player is found when each word of ``q`` begins a word of the name, letter case and
accents aside (:mod:`scorekeeper.store.finding`); when nobody is, ``suggestions`` holds
the names known here closest to ``q`` ("did you mean"). Each player comes with the URL
of their record. The route joins the ``/api/v1`` blueprint (:data:`api.v1.blp`).
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import Response, jsonify, url_for
from flask.views import MethodView
from marshmallow import fields, validate

from scorekeeper.store import finding
from scorekeeper.store.stats import player_stats

from . import get_storage
from . import responses as r
from . import schemas as s
from .request_fields import NamePart
from .v1 import blp, refusals

MAX_FOUND = 100
"""Players at most on one answer."""


class PlayerSearch(s.Strict):
    """The query of ``GET /api/v1/players``."""

    q = NamePart(required=True, metadata={"description": "Part of the name."})
    limit = fields.Integer(
        load_default=20,
        validate=validate.Range(1, MAX_FOUND),
        metadata={"description": "Players at most (default 20), by name."},
    )


class FoundPlayer(ma.Schema):
    """A player and where their record is."""

    name = fields.String(required=True, metadata={"description": "As first written here."})
    stats = fields.String(required=True, metadata={"description": "The URL of their record."})


class FoundPlayers(ma.Schema):
    """The players found, or, when none is, the names closest to the search."""

    players = fields.List(
        fields.Nested(FoundPlayer),
        required=True,
        metadata={"description": "The players found, by name (letter case aside)."},
    )
    suggestions = fields.List(
        fields.Nested(FoundPlayer),
        required=True,
        metadata={
            "description": "When no player is found: up to 3 names close to q, closest"
            ' first ("Zora Novak" for "Zorra" or "Nowak"); else empty.'
        },
    )


def _player(name: str) -> dict[str, str]:
    return {"name": name, "stats": url_for("api_v1.PlayerStats", name=name)}


@blp.route("/players")
class Players(MethodView):
    """Players found by part of a name."""

    @blp.arguments(PlayerSearch(), location="query")
    @blp.response(200, FoundPlayers)
    @refusals(422)
    @blp.doc(operationId="findPlayers")
    def get(self, query: dict[str, Any]) -> Response:
        """The players with a word of the name beginning with each word of ``q`` (``zo``
        finds Zora Novak, so do ``NOV`` and ``novák zo``); when there is none,
        ``suggestions`` names the players known here whose names are closest."""
        store = get_storage()
        found = finding.find_players(store, query["q"], query["limit"])
        near = [] if found else finding.near_names(store, query["q"])
        return jsonify(
            {"players": [_player(n) for n in found], "suggestions": [_player(n) for n in near]}
        )


@blp.route("/players/<player:name>/stats")
class PlayerStats(MethodView):
    """A player's record."""

    @blp.response(200, r.Stats)
    @refusals(404, 422)
    @blp.doc(operationId="getPlayerStats")
    def get(self, name: str) -> Response:
        """Games, wins, hands won, gins, undercuts, average hand and head-to-head.

        Only games whose hands were entered under an edit token count;
        ``imported_games`` says how many imported games were left out. A
        name that no player could have (a control character, only spaces)
        is refused with 422 naming ``name``.
        """
        return jsonify(player_stats(get_storage(), name).to_dict())
