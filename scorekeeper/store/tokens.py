"""Edit tokens, game ids and request hashes of stored games.

A game created (or imported) with an ``idempotency_key`` is found again by
it; its edit token, of which only the hash is stored, is derived
(:func:`derive_token`: an HMAC of the game id and the key under the
caller's secret) so that the repeat can give the same token again.
Anyone holding the key and the request can therefore get the token:
a key must be as secret as the token (a random UUID, never reused).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
import secrets
from typing import Any

from .base import StoredGame


def new_token() -> str:
    """A fresh random edit token (shown to the game's creator once)."""
    return secrets.token_urlsafe(24)


def new_game_id() -> str:
    """A fresh random game or event id (16 URL-safe characters, not guessable), never
    beginning with ``-``: a command line would read such an id as an option
    (``scorekeeper event export -Yx...``)."""
    while (made := secrets.token_urlsafe(12)).startswith("-"):
        pass
    return made


def hash_token(token: str) -> str:
    """The SHA-256 hex digest stored in place of an edit token."""
    return hashlib.sha256(token.encode()).hexdigest()


def derive_token(secret: str, game_id: str, idempotency_key: str) -> str:
    """The edit token of a game created with an ``Idempotency-Key`` (as long as a random one).

    HMAC-SHA256 under ``secret`` (the app's ``SECRET_KEY``) of the game id
    and the key: unguessable without the secret, and the same each time.
    """
    digest = hmac.new(
        secret.encode(), f"edit-token\0{game_id}\0{idempotency_key}".encode(), hashlib.sha256
    ).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def lot(secret: str, idempotency_key: str | None) -> random.Random:
    """Where a new game's first dealer drawn by lot, or the cut made for its players, comes
    from: the system's random source, or with an ``idempotency_key`` one seeded by it and
    ``secret`` (HMAC-SHA256), so that a repeated request draws the same (and is the same
    request: it finds its game)."""
    if idempotency_key is None:
        return random.SystemRandom()
    seed = hmac.new(secret.encode(), idempotency_key.encode(), hashlib.sha256)
    return random.Random(seed.digest())


def hash_request(request: Any) -> str:
    """The SHA-256 of a request (canonical JSON): the same request, the same hash."""
    text = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(game: StoredGame, token: str | None) -> bool:
    """True when ``token`` is the game's edit token (constant-time comparison)."""
    return token is not None and hmac.compare_digest(hash_token(token), game.token_hash)
