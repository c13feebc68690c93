"""The ``/api/v1`` tools that store nothing: melds arranged, a knock verified, a deal record
replayed or analysed, another system's logs imported as records.

The routes join the ``/api/v1`` blueprint (:data:`api.v1.blp`).
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from flask.views import MethodView

from scorekeeper import analyse, replay
from scorekeeper.arrangements import meld_report
from scorekeeper.imports import import_text
from scorekeeper.knock import verify_knock

from . import limits
from . import responses as r
from . import tool_schemas as s
from .v1 import blp, refusals


@blp.route("/melds")
class Melds(MethodView):
    """Optimal arrangements of some cards."""

    @blp.arguments(s.MeldsRequest())
    @blp.response(200, r.MeldsResponse)
    @refusals(400, 413)
    @blp.doc(operationId="arrangeMelds")
    def post(self, body: dict[str, Any]) -> Response:
        """Every optimal arrangement; with 11 cards, the deadwood left by each discard."""
        return jsonify(meld_report(body["cards"]).to_dict())


@blp.route("/verify")
class Verify(MethodView):
    """Check a knock and score the hand."""

    @blp.arguments(s.VerifyRequest())
    @blp.response(200, r.VerifyResponse)
    @refusals(400, 413)
    @blp.doc(operationId="verifyKnock")
    def post(self, body: dict[str, Any]) -> Response:
        """The verify_knock result: melds, layoffs, deadwood, outcome and points."""
        return jsonify(verify_knock(**body).to_dict())


@blp.route("/replay")
class Replay(MethodView):
    """Replay a deal or match record."""

    @blp.arguments(s.RecordRequest())
    @blp.response(200, r.REPLAY_RESPONSE)
    @refusals(400, 413, 503)
    @blp.doc(operationId="replayRecord")
    def post(self, record: dict[str, Any]) -> Response:
        """Check every action of a deal (or every deal of a match) and score it."""
        with limits.one_heavy_at_a_time("replay"):
            return jsonify(replay(record).to_dict())


@blp.route("/analyse")
class Analyse(MethodView):
    """Where a recorded deal was won or lost."""

    @blp.arguments(s.RecordRequest())
    @blp.response(200, r.ANALYSE_RESPONSE)
    @refusals(400, 413, 503)
    @blp.doc(operationId="analyseRecord")
    def post(self, record: dict[str, Any]) -> Response:
        """Each decision of a deal (or of every deal of a match) measured, with a summary."""
        with limits.one_heavy_at_a_time("analysis"):
            return jsonify(analyse(record).to_dict())


@blp.route("/imports/<source:source>")
class Imports(MethodView):
    """Import records from another system's logs."""

    @blp.arguments(s.SourceImportRequest())
    @blp.response(200, r.SourceImportResponse)
    @refusals(400, 404, 413, 503)
    @blp.doc(operationId="importRecords")
    def post(self, body: dict[str, Any], source: str) -> Response:
        """Deal records (openspiel, one per line) or match records (neller, one per game).

        The body is ``{"text": "..."}``: the whole input as text (bounded by
        the request size limit, 413 beyond). Parts that cannot be imported
        are listed in ``errors`` with their line (and history position); the
        others are still imported, in input order. An unknown source is 404.
        """
        with limits.one_heavy_at_a_time("import"):
            return jsonify(import_text(source, body["text"]).to_dict())
