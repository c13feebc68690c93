"""The ``/api/v1`` endpoints: thin views that parse, call the domain and render JSON.

Game ids in paths have the shape of the ids the store gives out (16
URL-safe characters, :data:`GAME_ID`), so ``/games/import`` is never
mistaken for a game; player names in paths are as long as names may be.
A game's sheet carries an ``ETag`` (its version, the number of log
entries, quoted); a write sent with ``If-Match: <that ETag>`` is refused
with 409 (code ``stale``, the current ETag in the response) when the game
has changed since, checked inside the write's transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import flask_smorest
from flask import Response, abort, current_app, jsonify, request, url_for
from flask.views import MethodView
from werkzeug.routing import BaseConverter

from scorekeeper import analyse, replay
from scorekeeper.cut import first_dealer
from scorekeeper.errors import Stale
from scorekeeper.gamesheet import GameSheet
from scorekeeper.handinput import parse_hand
from scorekeeper.imports import SOURCES, import_text
from scorekeeper.knock import verify_knock
from scorekeeper.melds import meld_report
from scorekeeper.names import MAX_NAME_LENGTH
from scorekeeper.store import access, games
from scorekeeper.store.stats import player_stats

from . import bodies, credentials, get_storage, limits
from . import headers as h
from . import responses as r
from . import schemas as s
from .errors import ErrorSchema, domain_message, error_response

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


@blp.before_request
def _bodies_are_json() -> Response | None:
    """A request body that is not declared JSON is refused by name (400 ``not_json``).

    Without this, a JSON text sent as ``text/plain`` (or with no Content-Type)
    would be read as no body at all and refused as "missing data".
    """
    has_body = request.content_length or request.headers.get("Transfer-Encoding")
    if request.method in ("POST", "PUT") and has_body and not request.is_json:
        return error_response(
            400,
            "send the request body as JSON, with the header Content-Type: application/json",
            code="not_json",
            field="Content-Type",
        )
    return None


GAME_ID = r"[A-Za-z0-9_-]{16}"
"""The shape of a game id (``secrets.token_urlsafe(12)``: 96 random bits)."""


class GameIdConverter(BaseConverter):
    """The ``<game:...>`` path converter: only strings shaped like a game id."""

    regex = GAME_ID


def random_id_schema(what: str) -> dict[str, Any]:
    """The OpenAPI schema of a path parameter holding ``what``'s random id (:data:`GAME_ID`)."""
    return {
        "type": "string",
        "pattern": f"^{GAME_ID}$",
        "minLength": 16,
        "maxLength": 16,
        "description": f"The {what}'s id (random, 16 URL-safe characters).",
    }


def game_id_schema(converter: GameIdConverter) -> dict[str, Any]:
    """The OpenAPI schema of a game id path parameter."""
    return random_id_schema("game")


class PlayerNameConverter(BaseConverter):
    """The ``<player:...>`` path converter: 1 to
    :data:`~scorekeeper.names.MAX_NAME_LENGTH` characters."""

    regex = f"[^/]{{1,{MAX_NAME_LENGTH}}}"


def player_name_schema(converter: PlayerNameConverter) -> dict[str, Any]:
    """The OpenAPI schema of a player name path parameter."""
    return {
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_NAME_LENGTH,
        "pattern": s.NAME_PATTERN,
        "description": "A player's name, matched as the store matches names: letter case,"
        " spaces around it and how accents are encoded do not count.",
    }


class SourceConverter(BaseConverter):
    """The ``<source:...>`` path converter: a system records are imported from."""

    regex = "|".join(SOURCES)


def source_schema(converter: SourceConverter) -> dict[str, Any]:
    """The OpenAPI schema of an import source path parameter."""
    return {
        "type": "string",
        "enum": list(SOURCES),
        "description": "openspiel (JSON lines of pyspiel histories) or neller (the verbose"
        " log of Neller's EAAI GinRummyGame).",
    }


def etag(version: int) -> str:
    """The ETag of a sheet at this version."""
    return f'"{version}"'


def _header(description: str, required: bool = False) -> dict[str, Any]:
    """A documented response header (a string)."""
    return {"description": description, "schema": {"type": "string"}, "required": required}


ETAG = {"ETag": _header("The sheet's version, quoted: send it back in If-Match.", required=True)}
"""The documented ETag header of responses that carry a sheet."""

NEW_GAME_HEADERS = {**ETAG, "Location": _header("The new game's URL.", required=True)}
"""The headers of a created (or imported) game."""

CHANGE_HEADERS = {
    **ETAG,
    "Idempotent-Replayed": _header(
        "true when this answers a repeated Idempotency-Key"
        " (nothing was written; the first answer again)."
    ),
    "Preference-Applied": _header("return=minimal when the sheet was left out (Prefer)."),
}
"""The headers of a hand change."""

ERROR_HEADERS = {
    401: {
        "WWW-Authenticate": _header(
            "Bearer: send the edit token (an API key, where the operation takes one).",
            required=True,
        )
    },
    409: {"ETag": _header("A stale If-Match: the sheet's current version.")},
    429: {"Retry-After": _header("Seconds until the limit lets a request through.", required=True)},
    503: {"Retry-After": _header("Seconds to wait before trying again.")},
}
"""The headers an error response may carry, by status."""


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


def _unauthorized(message: str, challenge: str = "Bearer") -> Response:
    """401 naming the Authorization header, with its ``WWW-Authenticate`` challenge."""
    return error_response(
        401, message, field="Authorization", headers={"WWW-Authenticate": challenge}
    )


INVALID_TOKEN = 'Bearer error="invalid_token"'
"""The challenge of a credential that was valid once (RFC 6750)."""


def editor(view: Callable[..., Response]) -> Callable[..., Response]:
    """Let the request through only with the game's edit token (checked before the body).

    Unknown game: 404; no ``Authorization: Bearer <token>``: 401; a token a
    rotation replaced: 401; a wrong token: 403.
    """

    @wraps(view)
    def check(*args: Any, game_id: str, **kwargs: Any) -> Response:
        game = credentials.game(game_id)
        token = credentials.bearer()
        if token is None:
            return _unauthorized("this needs the game's edit token: Authorization: Bearer <token>")
        if not games.token_matches(game, token):
            if get_storage().token_retired(game_id, games.hash_token(token)):
                return _unauthorized(
                    "this edit token was replaced by a new one (POST /games/{id}/token):"
                    " send the new one",
                    INVALID_TOKEN,
                )
            return error_response(
                403, "the edit token does not match this game", field="Authorization"
            )
        return view(*args, game_id=game_id, **kwargs)

    return check


def key_holder(view: Callable[..., Response]) -> Callable[..., Response]:
    """Let the request through only with a valid API key (401 otherwise)."""

    @wraps(view)
    def check(*args: Any, **kwargs: Any) -> Response:
        if credentials.api_key() is None:
            return _unauthorized(
                "this needs an API key (scorekeeper keys create): Authorization: Bearer <key>"
                if credentials.bearer() is None
                else "this API key is unknown or revoked",
                "Bearer" if credentials.bearer() is None else INVALID_TOKEN,
            )
        return view(*args, **kwargs)

    return check


def _owner() -> int | None:
    """The API key a create belongs to: the valid key sent, or ``None`` without a key.

    A credential sent that is no valid key is refused (401): a game meant for a key must
    not be made without it.
    """
    if credentials.bearer() is None:
        return None
    key = credentials.api_key()
    if key is None:
        abort(
            _unauthorized(
                "this API key is unknown or revoked (send no Authorization header to"
                " create a game that belongs to no key)",
                INVALID_TOKEN,
            )
        )
    return key.id


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


def _change(headers: dict[str, Any], change: games.Written, status: int = 200) -> Response:
    """A hand change (hand, sheet, created) as a response; a replayed request says so.

    A replay answers as the first request did (same status; the hand and
    sheet as they were then), plus ``Idempotent-Replayed: true``.

    With ``Prefer: return=minimal`` the sheet is left out (its ETag stays).
    """
    minimal = headers.get("minimal", False)
    sheet = None
    if not minimal:
        sheet = change.sheet_json()
        sheet = {"url": url_for("api_v1.Game", game_id=sheet["id"]), **sheet}
    response = jsonify({"hand": change.hand_json(), "sheet": sheet})
    response.status_code = status
    response.headers["ETag"] = etag(change.version)
    if minimal:
        response.headers["Preference-Applied"] = "return=minimal"
    if not change.created:
        response.headers["Idempotent-Replayed"] = "true"
    return response


def _write_options(headers: dict[str, Any]) -> dict[str, Any]:
    """The storage options of a write from its headers (Idempotency-Key, If-Match, Prefer).

    With ``Prefer: return=minimal`` the write builds no sheet of hands: it then
    costs the same at hand 1,000 as at hand 10.
    """
    return {
        "idempotency_key": headers.get("key"),
        "expected_version": headers.get("version"),
        "full": not headers.get("minimal", False),
    }


def _create_options(headers: dict[str, Any]) -> dict[str, Any]:
    """The options of a create from its headers: its key, the secret its token derives from,
    and the API key it belongs to."""
    return {
        "idempotency_key": headers.get("key"),
        "secret": current_app.config["SECRET_KEY"],
        "owner": _owner(),
    }


WRITE: dict[str, list[dict[str, list[str]]]] = {"security": [{"bearerAuth": []}]}

KEYED: dict[str, list[dict[str, list[str]]]] = {"security": [{"apiKeyAuth": []}]}
"""An operation that needs an API key."""

MAY_BE_KEYED: dict[str, list[dict[str, list[str]]]] = {"security": [{}, {"apiKeyAuth": []}]}
"""An operation open to all, whose result belongs to the API key sent, if any."""

WRITE_REFUSALS = (400, 401, 403, 404, 409, 429, 503, 507)
"""The error responses of every write (429: too many wrong tokens from this address, see
:mod:`api.limits`; 503: the database stayed busy; 507: the disk is full)."""

CREATE_REFUSALS = (400, 401, 413, 429, 503, 507)
"""The error responses of a create (401: an API key that is none; 429: too many creates
from this address, or with this API key)."""


@blp.route("/games")
class Games(MethodView):
    """Stored games."""

    @limits.wrong_token_limit
    @key_holder
    @blp.arguments(s.GameListQuery(), location="query")
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
    @blp.arguments(s.GameRequest())
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
        games.check_new_game(body["players"], body.get("rules"), 0, body.get("stake"))
        first = first_dealer(
            body.get("rules"),
            len(body["players"]),
            games.lot(options["secret"], options["idempotency_key"]),
            dealer=body.pop("dealer", None),
            cut=body.pop("cut", None),
        )
        sheet, token = games.create_game(
            get_storage(), **body, dealer=first.dealer, cut=first.cut_codes, **options
        )
        return _new_game(sheet, token)


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
            return _unauthorized(
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
            games.write_hand(get_storage(), game_id, parse_hand(hand), **_write_options(headers)),
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
        return _change(headers, games.write_undo(get_storage(), game_id, **_write_options(headers)))


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
                get_storage(), game_id, n, parse_hand(hand), **_write_options(headers)
            ),
        )


@blp.route("/games/<game:game_id>/export")
class ExportGame(MethodView):
    """A game as a match record."""

    @blp.response(200, r.Export)
    @refusals(404)
    @blp.doc(operationId="exportGame")
    def get(self, game_id: str) -> Response:
        """The settings and every hand as entered; POST it to /games/import to copy the game."""
        return jsonify(games.export_game(get_storage(), game_id).to_dict())


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
