"""JSON errors: every refusal is ``{"error": {"code", "message", "field"}}``.

Domain errors (bad cards, rules, records) are 422 and the game's conflicts
(:class:`~scorekeeper.errors.Conflict`: game over, nothing to undo, dealer
rotation, stale version) 409; storage refusals map to 404 / 422, a full disk
to 507, a database that stayed busy (``busy``) or cannot be written just now
(``unavailable``, e.g. a read-only file) to 503
(with ``Retry-After``; nothing was written either way), HTTP errors (bad
JSON 400, missing token 401, wrong token 403, unknown route 404, too large
413, over a rate limit 429 with ``Retry-After``, ...) keep their status,
and marshmallow validation errors become 422 naming the first field at
fault. Anything unexpected is a 500 with a generic message (and is logged).

Choice for domain errors: ``code`` keeps its historical, generic values for
a 422 (``bad_card``, ``rule``, ``bad_record``, ``invalid``) so that clients
matching on them keep working, and is the precise code for a 409
(``game_over``, ...). Two keys are added to every domain error's body:
``reason``, the error's precise machine-readable code (``duplicate_card``,
``knock_over_limit``, ``game_over``, ...: :mod:`scorekeeper.errors`), and
``params``, the values the message is made of (the card, the limit, ...).
Other errors have neither key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import flask_smorest
import marshmallow as ma
from flask import Flask, Response, current_app, has_request_context, jsonify
from werkzeug.exceptions import HTTPException

from scorekeeper.errors import CardError, Conflict, RecordError, RuleError, ScorekeeperError
from scorekeeper.store.refusals import (
    KeyReused,
    NotFound,
    StorageBusy,
    StorageError,
    StorageFull,
    StorageUnavailable,
)

from . import limits
from .api_words import in_language
from .i18n import _, current_language, force_locale, get_locale

CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid",
    428: "precondition_required",
    429: "too_many_requests",
    500: "internal",
    503: "busy",
    507: "storage_full",
}
"""The ``code`` of an error response by HTTP status, unless a more precise one applies."""


class ErrorBody(ma.Schema):
    """The inside of an error response."""

    code = ma.fields.String(
        required=True,
        metadata={
            "description": "A stable machine-readable code: invalid, bad_card, rule, bad_record,"
            " not_found, unauthorized, forbidden, conflict, game_over, stale,"
            " too_large, idempotency_key_reused, busy, unavailable, storage_full, ..."
        },
    )
    message = ma.fields.String(
        required=True, metadata={"description": "What is wrong, for people."}
    )
    field = ma.fields.String(
        allow_none=True,
        metadata={
            "description": "The input at fault (a body field such as knocker_cards or"
            " hands.2.points, a header, or a path parameter), when there is one."
        },
    )
    reason = ma.fields.String(
        metadata={
            "description": "Domain errors only: the precise machine-readable reason, e.g."
            " duplicate_card, wrong_card_count, knock_over_limit,"
            " layoff_does_not_fit, not_a_meld, unknown_option, bad_option_value,"
            " card_just_taken, game_over, stale, nothing_to_undo."
        }
    )
    params = ma.fields.Dict(
        keys=ma.fields.String(),
        metadata={
            "description": "Domain errors only: the values behind the message (the card,"
            " the limit, the count, ...), cards as codes."
        },
    )


class ErrorSchema(ma.Schema):
    """Every error response: ``{"error": {"code", "message", "field"}}``."""

    error = ma.fields.Nested(ErrorBody, required=True)


def error_response(
    status: int,
    message: str,
    *,
    code: str | None = None,
    field: str | None = None,
    headers: Mapping[str, str] | None = None,
    domain: ScorekeeperError | None = None,
) -> Response:
    """A JSON error response with this status, message, code and field.

    With ``domain`` (the domain error answered) the body also has its
    ``reason`` and ``params``. The message is in the request's language
    (:func:`~api.api_words.in_language`), which ``Content-Language`` names;
    ``Vary`` says what chose it.
    """
    body: dict[str, Any] = {
        "code": code or CODES.get(status, "error"),
        "message": in_language(message),
        "field": field,
    }
    if domain is not None:
        body.update(reason=domain.code, params=domain.params)
    response = jsonify({"error": body})
    response.status_code = status
    response.headers.update(headers or {})
    if has_request_context():
        response.headers["Content-Language"] = current_language()
        response.vary.update(("Accept-Language", "Cookie"))
    return response


def _first_problem(messages: Any, path: tuple[str, ...] = ()) -> tuple[str | None, str]:
    """The first (field path, message) of marshmallow's nested error messages."""
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            if key in ("json", "headers", "query", "view_args") and not path:
                return _first_problem(value, path)
            if key == "_schema":
                return _first_problem(value, path)
            return _first_problem(value, (*path, str(key)))
    if isinstance(messages, list | tuple) and messages:
        return _first_problem(messages[0], path)
    field = ".".join(path) or None
    text = in_language(str(messages))
    return field, _("%(field)s: %(problem)s", field=field, problem=text) if field else text


class Api(flask_smorest.Api):
    """flask-smorest's Api with this project's error format (and its documentation).

    No catch-all ``default`` response is documented: each operation lists
    the statuses it can answer, so a status it does not list is a bug.
    """

    ERROR_SCHEMA = ErrorSchema
    DEFAULT_ERROR_RESPONSE_NAME = None

    def handle_http_exception(self, error: HTTPException) -> Response:
        """Render an HTTP error (including webargs validation errors) as our JSON."""
        data = getattr(error, "data", None) or {}
        status = error.code or 500
        headers = {
            key: value for key, value in error.get_headers() if key.lower() != "content-type"
        }  # e.g. Allow on a 405
        headers.update(data.get("headers") or {})
        if status == 400 and "messages" in data:  # webargs: the body is not JSON
            return error_response(
                400,
                _("the request body is not valid JSON"),
                code="invalid_json",
                field="body",
                headers=headers,
            )
        if "messages" in data:
            field, message = _first_problem(data["messages"])
            return error_response(status, message, field=field, headers=headers)
        if status == 413:
            limit = current_app.config.get("MAX_CONTENT_LENGTH")
            return error_response(
                413,
                _("the request body is larger than %(limit)s bytes", limit=limit),
                field="body",
                headers=headers,
            )
        if status == 429:
            return error_response(
                429,
                limits.refusal_message(error.description or ""),
                headers={**headers, "Retry-After": str(limits.retry_after())},
            )
        if isinstance(error, limits.Busy):
            return error_response(
                503,
                error.description or "busy",
                code="busy",
                headers={**headers, "Retry-After": "1"},
            )
        if status >= 500:
            return error_response(status, _("internal error"), headers=headers)
        message = data.get("message") or _stock(error)
        return error_response(
            status, message, code=data.get("code"), field=data.get("field"), headers=headers
        )


def domain_message(error: ScorekeeperError, *, named: bool = True) -> str:
    """A domain error's ``message`` in the request's language.

    In English it is the error's own message, as it always was. In another
    language it is the scorepad's wording of the error's code and params
    (:func:`api.pad.labels.worded`) in the API's terms (:func:`~api.pad.terms.api_terms`:
    cards as codes, options by key, counts given rather than tapped), after the field at
    fault (``defender: ...``; not when ``named`` is false) where that language's catalog
    translates it; where it does not, the English message stays. An unknown card is
    worded with the API's notation (:func:`_not_in_notation`), never the scorepad's
    local letters.
    """
    from .pad.labels import worded  # the scorepad's wordings (imported when needed)
    from .pad.terms import api_terms

    locale = get_locale()
    if locale is None or locale.language == "en":
        return str(error)
    wording = _not_in_notation if error.code == "bad_card" else worded
    with api_terms():
        local = wording(error)
        with force_locale("en"):
            english = wording(error)
    if local == english:
        return str(error)
    if not (named and error.field):
        return local
    return _("%(field)s: %(problem)s", field=error.field, problem=local)


def _not_in_notation(error: BaseException) -> str:
    """An unknown card in the API's words: the notation is a data format, the same in every
    language (A 2-9 T J Q K, c d h s), so the message names it, not the scorepad's letters."""
    params = error.params if isinstance(error, ScorekeeperError) else {}
    # Translators: the API's card notation is a data format: keep the letters
    # A 2-9 T (or 10) J Q K and c d h s exactly as they are (not your language's).
    notation = _("a rank A 2-9 T (or 10) J Q K and a suit c d h s (or ♣ ♦ ♥ ♠)")
    if params.get("position") is not None:
        return _(
            "%(token)s (position %(position)s) is not a card: use %(notation)s.",
            token=repr(params["token"]),
            position=params["position"],
            notation=notation,
        )
    return _(
        "%(token)s is not a card: use %(notation)s.",
        token=repr(params.get("token")),
        notation=notation,
    )


def _stock(error: HTTPException) -> str:
    """An HTTP error's message: werkzeug's own description, in the request's language for
    the refusals a client meets by mistake (a wrong address, method or body type)."""
    if error.description != type(error).description:
        return str(error.description or error.name)
    if error.code == 404:
        return _("There is nothing at this address: check the link.")
    if error.code == 405:
        return _("This address does not take that method (see the Allow header).")
    if error.code == 415:
        return _("This address takes a JSON body (Content-Type: application/json).")
    if error.code == 400:
        return _("The request could not be read.")
    return str(error.description or error.name)


def _domain_error(error: ScorekeeperError) -> Response:
    message = domain_message(error)
    if isinstance(error, Conflict):
        return error_response(409, message, code=error.code, field=error.field, domain=error)
    code = (
        "bad_card"
        if isinstance(error, CardError)
        else "rule"
        if isinstance(error, RuleError)
        else "bad_record"
        if isinstance(error, RecordError)
        else "invalid"
    )
    return error_response(422, message, code=code, field=error.field, domain=error)


def _storage_error(error: StorageError) -> Response:
    if isinstance(error, NotFound):
        return error_response(404, str(error), field=error.field)
    if isinstance(error, KeyReused):
        return error_response(422, str(error), code="idempotency_key_reused", field=error.field)
    if isinstance(error, StorageFull):
        current_app.logger.error("storage full: %s", error.__cause__)
        return error_response(507, str(error))
    if isinstance(error, StorageUnavailable):
        current_app.logger.warning("storage unavailable: %s", error.__cause__)
    if isinstance(error, StorageBusy | StorageUnavailable):
        return error_response(503, str(error), code=error.code, headers={"Retry-After": "1"})
    current_app.logger.error("storage error: %s", error)
    return error_response(500, _("internal error"))


def _unexpected(error: Exception) -> Response:
    current_app.logger.exception("unexpected error", exc_info=error)
    return error_response(500, _("internal error"))


def register(app: Flask) -> None:
    """Install the JSON error handlers for domain, storage and unexpected errors."""
    app.register_error_handler(ScorekeeperError, _domain_error)
    app.register_error_handler(StorageError, _storage_error)
    app.register_error_handler(Exception, _unexpected)
