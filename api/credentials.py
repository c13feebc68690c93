"""What a request's ``Authorization: Bearer`` header carries: a game's edit token or an API key.

An API key (:mod:`scorekeeper.store.access`) creates games that belong to
it and lists them; a game's edit token changes that game. The rate limits
(:mod:`api.limits`) count a request with a valid API key against that key,
and let a request with a game's valid edit token through its game's
wrong-token limit.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Response, abort, g, request

from scorekeeper.store import access, games
from scorekeeper.store.access_types import ApiKey
from scorekeeper.store.base import StoredGame
from scorekeeper.store.refusals import NotFound

from . import errors, get_storage


def bearer() -> str | None:
    """The credential of ``Authorization: Bearer <credential>``, or ``None`` (no such header)."""
    scheme, _, credential = request.headers.get("Authorization", "").partition(" ")
    credential = credential.strip()
    return credential if scheme.lower() == "bearer" and credential else None


def api_key() -> ApiKey | None:
    """The API key this request sends, if it sends a valid one (looked up once per request)."""
    if "api_key" not in g:
        credential = bearer()
        g.api_key = None if credential is None else access.find_key(get_storage(), credential)
    key: ApiKey | None = g.api_key
    return key


def holds_edit_token() -> bool:
    """Whether this request sends the edit token of the game in its path (or a valid API
    key, to a path without a game)."""
    game_id = (request.view_args or {}).get("game_id")
    if game_id is None:
        return api_key() is not None
    credential = bearer()
    if credential is None:
        return False
    try:
        return token_matches(game(game_id), credential)
    except NotFound:
        return False


def token_matches(stored: StoredGame, token: str) -> bool:
    """Whether ``token`` is ``stored``'s edit token, checked once per request (the
    wrong-token limit's holder check, then the view's own check)."""
    checked: dict[tuple[str, str], bool] = g.setdefault("tokens_checked", {})
    if (stored.id, token) not in checked:
        checked[stored.id, token] = games.token_matches(stored, token)
    return checked[stored.id, token]


def game(game_id: str) -> StoredGame:
    """Game ``game_id`` as this request's token checks see it, read once per request (the
    wrong-token limit's holder check, then the view's own check); raises
    :class:`~scorekeeper.store.refusals.NotFound`. A write reads the game again in its transaction.
    """
    read: dict[str, StoredGame] = g.setdefault("games_read", {})
    if game_id not in read:
        read[game_id] = get_storage().game(game_id)
    return read[game_id]


def unauthorized(message: str, challenge: str = "Bearer") -> Response:
    """401 naming the Authorization header, with its ``WWW-Authenticate`` challenge."""
    return errors.error_response(
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
        stored = game(game_id)
        token = bearer()
        if token is None:
            return unauthorized("this needs the game's edit token: Authorization: Bearer <token>")
        if not token_matches(stored, token):
            if get_storage().token_retired(game_id, games.hash_token(token)):
                return unauthorized(
                    "this edit token was replaced by a new one (POST /games/{id}/token):"
                    " send the new one",
                    INVALID_TOKEN,
                )
            return errors.error_response(
                403, "the edit token does not match this game", field="Authorization"
            )
        return view(*args, game_id=game_id, **kwargs)

    return check


def key_holder(view: Callable[..., Response]) -> Callable[..., Response]:
    """Let the request through only with a valid API key (401 otherwise)."""

    @wraps(view)
    def check(*args: Any, **kwargs: Any) -> Response:
        if api_key() is None:
            return unauthorized(
                "this needs an API key (scorekeeper keys create): Authorization: Bearer <key>"
                if bearer() is None
                else "this API key is unknown or revoked",
                "Bearer" if bearer() is None else INVALID_TOKEN,
            )
        return view(*args, **kwargs)

    return check


def owner() -> int | None:
    """The API key a create belongs to: the valid key sent, or ``None`` without a key.

    A credential sent that is no valid key is refused (401): a game meant for a key must
    not be made without it.
    """
    if bearer() is None:
        return None
    key = api_key()
    if key is None:
        abort(
            unauthorized(
                "this API key is unknown or revoked (send no Authorization header to"
                " create a game that belongs to no key)",
                INVALID_TOKEN,
            )
        )
    return key.id
