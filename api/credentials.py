"""What a request's ``Authorization: Bearer`` header carries: a game's edit token or an API key.

An API key (:mod:`scorekeeper.store.access`) creates games that belong to
it and lists them; a game's edit token changes that game. The rate limits
(:mod:`api.limits`) count a request with a valid API key against that key,
and let a request with a game's valid edit token through its game's
wrong-token limit.
"""

from __future__ import annotations

from flask import g, request

from scorekeeper.store import access, games
from scorekeeper.store.base import ApiKey, NotFound, StoredGame

from . import get_storage


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
        return games.token_matches(game(game_id), credential)
    except NotFound:
        return False


def game(game_id: str) -> StoredGame:
    """Game ``game_id`` as this request's token checks see it, read once per request (the
    wrong-token limit's holder check, then the view's own check); raises
    :class:`~scorekeeper.store.base.NotFound`. A write reads the game again in its transaction.
    """
    read: dict[str, StoredGame] = g.setdefault("games_read", {})
    if game_id not in read:
        read[game_id] = get_storage().game(game_id)
    return read[game_id]
