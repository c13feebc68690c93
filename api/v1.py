"""The ``/api/v1`` blueprint, what its views share, and a stored game's endpoints.

The blueprint reads JSON bodies (:mod:`api.bodies`) and documents each endpoint's
refusals (:func:`refusals`); its other routes join it from :mod:`api.tools`,
:mod:`api.records`, :mod:`api.players` and :mod:`api.events`, its path parameters are
:mod:`api.paths`', its credentials checks :mod:`api.credentials`'. A game's sheet
carries an ``ETag`` (its version, the number of log entries, quoted); a write sent with
``If-Match: <that ETag>`` is refused with 409 (code ``stale``, the current ETag in the
response) when the game has changed since, checked inside the write's transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import flask_smorest
from flask import Response, current_app, jsonify, request, url_for
from flask.views import MethodView

from scorekeeper.cut import first_dealer
from scorekeeper.errors import Stale
from scorekeeper.gamesheet import GameSheet
from scorekeeper.handinput import parse_hand
from scorekeeper.store import access, answers, games

from . import bodies, credentials, get_storage, lifecycle, limits
from . import game_schemas as g
from . import headers as h
from . import responses as r
from . import schemas as s
from .credentials import INVALID_TOKEN, editor, key_holder, unauthorized
from .errors import ErrorSchema, domain_message, error_response
from .headers import (
    CHANGE_HEADERS,
    ERROR_HEADERS,
    ETAG,
    KEYED,
    MAY_BE_KEYED,
    NEW_GAME_HEADERS,
    WRITE,
)

View = TypeVar("View", bound=Callable[..., Any])
"""A view function, as a decorator hands it back."""


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint reading JSON bodies with :class:`api.bodies.Parser`."""

    ARGUMENTS_PARSER = bodies.Parser()

    @staticmethod
    def doc(**kwargs: Any) -> Callable[[View], View]:
        """flask-smorest's ``doc``, documenting only: the view comes back itself with the
        document, not wrapped in a function that does nothing but call it (see
        :func:`refusals`)."""

        def decorate(view: View) -> View:
            view._apidoc = flask_smorest.Blueprint.doc(**kwargs)(view)._apidoc  # type: ignore[attr-defined]
            return view

        return decorate


blp = Blueprint(
    "api_v1",
    __name__,
    url_prefix="/api/v1",
    description="Melds, knock verification, replays and stored score sheets.",
)


blp.before_request(lifecycle.refuse_unless_json)


def etag(version: int) -> str:
    """The ETag of a sheet at this version."""
    return f'"{version}"'


@blp.errorhandler(Stale)
def _stale(error: Stale) -> Response:
    return error_response(
        409,
        domain_message(error),
        code="stale",
        field="If-Match",
        headers={"ETag": etag(error.version)},
        domain=error,
    )


def refusals(*statuses: int) -> Callable[[View], View]:
    """Document the error responses (our error schema) an endpoint may give.

    Only the document: flask-smorest's ``alt_response`` wraps the view in a
    function that does nothing but call it (a request went through seven such
    layers); the view keeps the document the wrapper carries instead.
    """

    def decorate(view: View) -> View:
        for status in statuses:
            documented = blp.alt_response(
                status, schema=ErrorSchema, headers=ERROR_HEADERS.get(status)
            )(view)
            view._apidoc = documented._apidoc  # type: ignore[attr-defined]
        return view

    return decorate


WRITE_REFUSALS = (400, 401, 403, 404, 409, 429, 503, 507)
"""The error responses of every write (429: too many wrong tokens from this address, see
:mod:`api.limits`; 503: the database stayed busy; 507: the disk is full)."""

CREATE_REFUSALS = (400, 401, 413, 429, 503, 507)
"""The error responses of a create (401: an API key that is none; 429: too many creates
from this address, or with this API key)."""


def _sheet(sheet: GameSheet) -> dict[str, Any]:
    """The sheet's JSON with its share URL."""
    return {"url": url_for("api_v1.Game", game_id=sheet.id), **sheet.to_dict()}


def _new_game(sheet: GameSheet, token: str) -> Response:
    """201 with the new game, its URL (also in Location) and its edit token."""
    body = _sheet(sheet)
    response = jsonify({"id": body["id"], "url": body["url"], "edit_token": token, "game": body})
    response.status_code = 201
    response.headers["Location"] = body["url"]
    response.headers["ETag"] = etag(sheet.version)
    return response


def _change(headers: dict[str, Any], change: answers.Written, status: int = 200) -> Response:
    """A hand change (hand, sheet, created) as a response; a replayed request says so.

    A replay answers as the first request did (same status; the hand and
    sheet as they were then), plus ``Idempotent-Replayed: true``.

    With ``Prefer: return=minimal`` the sheet is left out (its ETag stays).
    """
    minimal = headers.get("minimal", False)
    hand, sheet, version = change.as_json(full=not minimal)
    if sheet is not None:
        sheet = {"url": url_for("api_v1.Game", game_id=sheet["id"]), **sheet}
    response = jsonify({"hand": hand, "sheet": sheet})
    response.status_code = status
    response.headers["ETag"] = etag(version)
    if minimal:
        response.headers["Preference-Applied"] = "return=minimal"
    if not change.created:
        response.headers["Idempotent-Replayed"] = "true"
    return response


def _write_options(headers: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The storage options of a write from its headers (Idempotency-Key, If-Match, Prefer),
    and the game as its token check read it (the write takes it while its row holds it).

    With ``Prefer: return=minimal`` the write builds no sheet of hands: it then
    costs the same at hand 1,000 as at hand 10.
    """
    return {
        "idempotency_key": headers.get("key"),
        "expected_version": headers.get("version"),
        "full": not headers.get("minimal", False),
        "known": credentials.game(game_id),
    }


def _create_options(headers: dict[str, Any]) -> dict[str, Any]:
    """The options of a create from its headers: its key, the secret its token derives from,
    and the API key it belongs to."""
    return {
        "idempotency_key": headers.get("key"),
        "secret": current_app.config["SECRET_KEY"],
        "owner": credentials.owner(),
    }


@blp.route("/games")
class Games(MethodView):
    """Stored games."""

    @limits.wrong_token_limit
    @key_holder
    @blp.arguments(g.GameListQuery(), location="query")
    @blp.response(200, r.GameList)
    @refusals(401, 422, 429)
    @blp.doc(**KEYED)
    @blp.doc(operationId="listGames")
    def get(self, query: dict[str, Any]) -> Response:
        """The games created with the API key sent, newest first, a page at a time.

        ``next`` is the cursor of the next page (send it as ``cursor``), null on
        the last. Filters: ``player``, ``status`` and ``since`` (changed at or
        after). Without a valid API key: 401.
        """
        key = credentials.api_key()
        assert key is not None  # key_holder let it through
        page, after = access.list_games(get_storage(), key.id, **query)
        return jsonify(
            {
                "games": [
                    {"url": url_for("api_v1.Game", game_id=game.id), **access.game_summary(game)}
                    for game in page
                ],
                "next": after,
            }
        )

    @limits.create_limit
    @blp.arguments(h.KeyHeader(), location="headers")
    @blp.arguments(g.GameRequest())
    @blp.response(201, r.NewGame, headers=NEW_GAME_HEADERS)
    @refusals(*CREATE_REFUSALS)
    @blp.doc(**MAY_BE_KEYED)
    @blp.doc(operationId="createGame")
    def post(self, headers: dict[str, Any], body: dict[str, Any]) -> Response:
        """Start a game: 201 with its sheet, its URL and its edit token (shown only now).

        Naming neither the dealer nor the cut is enough: under first_dealer low or high
        the service cuts for the players (one card each, ties cut again) and the sheet
        shows the cut (cut); under random the dealer is drawn by lot.

        With an Idempotency-Key, a repeat answers the same (the same game and edit token).
        With an API key (Authorization: Bearer <key>), the game belongs to the key.
        """
        options = _create_options(headers)
        # the players, rules and stake are refused first, then a cut that is none
        # the rules are parsed here, once: the store takes the settings as checked
        checked = games.check_new_game(body["players"], body.get("rules"), 0, body.get("stake"))
        first = first_dealer(
            checked.rules,
            len(body["players"]),
            games.lot(options["secret"], options["idempotency_key"]),
            dealer=body.pop("dealer", None),
            cut=body.pop("cut", None),
        )
        sheet, token = games.create_game(
            get_storage(),
            **body,
            dealer=first.dealer,
            cut=first.cut_codes,
            checked=checked.dealt_by(first.dealer),
            **options,
        )
        return _new_game(sheet, token)


@blp.route("/games/<game:game_id>")
class Game(MethodView):
    """One game's sheet."""

    @blp.response(200, r.Sheet, headers=ETAG)
    @blp.alt_response(
        304,
        description="Not Modified: the sheet is still at the version sent"
        " in If-None-Match (no body).",
        headers=ETAG,
    )
    @blp.arguments(h.ReadHeaders(), location="headers")
    @refusals(404)
    @blp.doc(operationId="getGame")
    def get(self, headers: dict[str, Any], game_id: str) -> Response:
        """The sheet: hands, running totals, boxes, next dealer, status and the result.

        With ``If-None-Match: <ETag>`` of the current version, 304 and no body:
        only the game's row is read (the log is neither read nor scored).
        """
        version = get_storage().game(game_id).version
        if request.if_none_match.contains_weak(str(version)):
            response = Response(status=304)
            response.headers["ETag"] = etag(version)
            return response
        sheet = games.load_sheet(get_storage(), game_id)
        response = jsonify(_sheet(sheet))
        response.headers["ETag"] = etag(sheet.version)
        return response


@blp.route("/games/<game:game_id>/token")
class GameToken(MethodView):
    """A game's edit token."""

    @limits.wrong_token_limit
    @editor
    @blp.response(200, r.NewToken)
    @refusals(401, 403, 404, 429, 503, 507)
    @blp.doc(**WRITE)
    @blp.doc(operationId="rotateToken")
    def post(self, game_id: str) -> Response:
        """Replace the game's edit token: the new one is answered (shown only now) and the
        one sent is refused from now on (401)."""
        token = credentials.bearer()
        assert token is not None  # editor let it through
        fresh = access.rotate_token(get_storage(), game_id, token)
        if fresh is None:  # another rotation replaced it after editor checked it
            return unauthorized(
                "this edit token was replaced by a new one just now: send the new one",
                INVALID_TOKEN,
            )
        return jsonify({"id": game_id, "edit_token": fresh})


@blp.route("/games/<game:game_id>/hands")
class Hands(MethodView):
    """A game's hands."""

    @limits.wrong_token_limit
    @editor
    @blp.arguments(h.WriteHeaders(), location="headers")
    @blp.arguments(s.HandRequest())
    @blp.response(201, r.HandChange, headers=CHANGE_HEADERS)
    @refusals(*WRITE_REFUSALS, 413)
    @blp.doc(**WRITE)
    @blp.doc(operationId="addHand")
    def post(self, headers: dict[str, Any], hand: dict[str, Any], game_id: str) -> Response:
        """Enter a hand (quick, cards, record or void; four players: a deal or void).

        Answers the new hand and the updated sheet.
        """
        return _change(
            headers,
            games.write_hand(
                get_storage(), game_id, parse_hand(hand), **_write_options(headers, game_id)
            ),
            status=201,
        )


@blp.route("/games/<game:game_id>/hands/last")
class LastHand(MethodView):
    """The last hand on the sheet."""

    @limits.wrong_token_limit
    @editor
    @blp.arguments(h.WriteHeaders(), location="headers")
    @blp.response(200, r.HandChange, headers=CHANGE_HEADERS)
    @refusals(*WRITE_REFUSALS)
    @blp.doc(**WRITE)
    @blp.doc(operationId="undoLastHand")
    def delete(self, headers: dict[str, Any], game_id: str) -> Response:
        """Undo the last hand (a new log entry): the hand taken back and the updated sheet."""
        return _change(
            headers, games.write_undo(get_storage(), game_id, **_write_options(headers, game_id))
        )


@blp.route("/games/<game:game_id>/hands/<int:n>")
class HandN(MethodView):
    """Hand n of the sheet."""

    @limits.wrong_token_limit
    @editor
    @blp.arguments(h.WriteHeaders(), location="headers")
    @blp.arguments(s.HandRequest())
    @blp.response(200, r.HandChange, headers=CHANGE_HEADERS)
    @refusals(*WRITE_REFUSALS, 413)
    @blp.doc(**WRITE)
    @blp.doc(operationId="correctHand")
    def put(self, headers: dict[str, Any], hand: dict[str, Any], game_id: str, n: int) -> Response:
        """Correct hand n: it is scored anew and the totals and the end of the game recomputed."""
        return _change(
            headers,
            games.write_correction(
                get_storage(), game_id, n, parse_hand(hand), **_write_options(headers, game_id)
            ),
        )
