"""Games as records: ``POST /games/import`` stores one as a new game, ``GET
/games/<id>/export`` gives one back. The routes join the ``/api/v1`` blueprint
(:data:`api.v1.blp`).
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from flask.views import MethodView

from scorekeeper.store import games

from . import game_schemas as s
from . import get_storage, limits
from . import headers as h
from . import responses as r
from .headers import MAY_BE_KEYED, NEW_GAME_HEADERS
from .v1 import CREATE_REFUSALS, _create_options, _new_game, blp, refusals


@blp.route("/games/import")
class Import(MethodView):
    """Games from elsewhere."""

    @limits.create_limit
    @blp.arguments(h.KeyHeader(), location="headers")
    @blp.arguments(s.ImportRequest())
    @blp.response(201, r.NewGame, headers=NEW_GAME_HEADERS)
    @refusals(*CREATE_REFUSALS)
    @blp.doc(**MAY_BE_KEYED)
    @blp.doc(operationId="importGame")
    def post(self, headers: dict[str, Any], body: dict[str, Any]) -> Response:
        """Store an exported game, or a match record, as a new game (every hand is scored
        again).

        An exported game (format scorekeeper.game) has players, rules, dealer, stake and
        hands; a match record (format gin-rummy-match/1) players, rules and deals. A key of
        the other kind is refused (422, reason not_in_match_record or not_in_export, the key
        as the field), not ignored.
        With an Idempotency-Key, a repeat answers the same (the same game and edit token).
        With an API key (Authorization: Bearer <key>), the game belongs to the key.
        """
        with limits.one_heavy_at_a_time("import"):
            sheet, token = games.import_game(get_storage(), body, **_create_options(headers))
        return _new_game(sheet, token)


@blp.route("/games/<game:game_id>/export")
class ExportGame(MethodView):
    """A game as a match record."""

    @blp.response(200, r.Export)
    @refusals(404)
    @blp.doc(operationId="exportGame")
    def get(self, game_id: str) -> Response:
        """The settings and every hand as entered; POST it to /games/import to copy the game."""
        return jsonify(games.export_game(get_storage(), game_id).to_dict())
