"""The ``/api/v1`` endpoints: thin views that parse, call the domain and render JSON."""

from __future__ import annotations

from collections.abc import Callable

from flask import jsonify
from flask.views import MethodView
from flask_smorest import Blueprint

from scorekeeper.cards import parse_cards
from scorekeeper.knock import verify_knock
from scorekeeper.melds import arrangements, discard_options

from . import schemas as s
from .errors import ErrorSchema

blp = Blueprint("api_v1", __name__, url_prefix="/api/v1",
                description="Melds, knock verification, replays and stored score sheets.")


def refusals(*statuses: int) -> Callable:
    """Document the error responses (our error schema) an endpoint may give."""
    def decorate(view: Callable) -> Callable:
        for status in statuses:
            view = blp.alt_response(status, schema=ErrorSchema)(view)
        return view
    return decorate


@blp.route("/melds")
class Melds(MethodView):
    """Optimal arrangements of some cards."""

    @blp.arguments(s.MeldsRequest)
    @blp.response(200, s.MeldsResponse)
    @refusals(400, 413)
    def post(self, body):
        """Every optimal arrangement; with 11 cards, the deadwood left by each discard."""
        cards = parse_cards(body["cards"], field="cards")
        result = {"arrangements": arrangements(cards)}
        if len(cards) == 11:
            result["discards"] = discard_options(cards)
        return jsonify(result)


@blp.route("/verify")
class Verify(MethodView):
    """Check a knock and score the hand."""

    @blp.arguments(s.VerifyRequest)
    @blp.response(200, s.VerifyResponse)
    @refusals(400, 413)
    def post(self, body):
        """The verify_knock result: melds, layoffs, deadwood, outcome and points."""
        return jsonify(verify_knock(**body))
