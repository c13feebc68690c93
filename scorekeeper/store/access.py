"""API keys, the games each key created, and rotating a game's edit token.

An API key is a club site's or a bot league's credential, made by the
operator (``scorekeeper keys create NAME``) and sent as ``Authorization:
Bearer <key>``. It is shown once, when made: the store keeps only its
SHA-256 hash (:func:`~scorekeeper.store.games.hash_token`, as for edit
tokens), its name (unique among the keys not revoked) and when it was
made and revoked. A game created with a key belongs to it, and the key
lists its own games (:func:`list_games`; the scorepad lists every game the same
way, :func:`server_games`), newest first, a page at a time:
the cursor of the next page is the last game's ``(created, id)``, so pages
neither repeat nor skip a game when new games arrive meanwhile.

A game's edit token can be replaced (:func:`rotate_token`); the replaced
one is kept, hashed, as retired, so that it is told apart from a token that
never was the game's.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import secrets
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, TypedDict, Unpack

from ..errors import InvalidValueError
from ..gamesheet import GameStatus
from ..names import name_key
from .access_types import ApiKey
from .base import GameFilter, StoredGame
from .finding import terms
from .games import hash_token, new_token
from .protocol import Store

KEY_PREFIX = "sk_"
"""How every API key begins (an edit token never does), so that a log or a config file
shows which kind of secret it holds."""

KEY_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
"""What a key's name may be: 1 to 64 letters, digits, ``.``, ``_`` or ``-``, starting with
a letter or digit (it is typed on a command line)."""

DEFAULT_PAGE = 20
MAX_PAGE = 100
"""Games on one page of :func:`list_games`: by default, and at most."""


def check_key_name(name: str) -> str:
    """``name`` if it may name a key; else :class:`~scorekeeper.errors.InvalidValueError`."""
    if not KEY_NAME.fullmatch(name):
        raise InvalidValueError(
            f"a key's name is 1 to 64 letters, digits, '.', '_' or '-', starting with a"
            f" letter or digit; {name!r} is not",
            code="bad_value",
            params={"name": name},
            option="name",
        )
    return name


def create_key(store: Store, name: str, *, bot: bool = False) -> str:
    """A new API key called ``name``; returns its text (only its hash is stored). A ``bot``
    key's games are left out of the club's ratings (:mod:`~scorekeeper.store.ratings`).

    Raises :class:`~scorekeeper.store.refusals.NameTaken` when a key not revoked has the name.
    """
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    store.add_api_key(check_key_name(name), hash_token(key), bot=bot)
    return key


def find_key(store: Store, key: str) -> ApiKey | None:
    """The key whose text is ``key``, unless revoked or unknown (``None``)."""
    return store.api_key(hash_token(key)) if key.startswith(KEY_PREFIX) else None


def rotate_token(store: Store, game_id: str, token: str) -> str | None:
    """Replace the game's edit token ``token`` by a new one, returned (shown only now);
    ``None`` when ``token`` is no longer the game's (a rotation came first)."""
    fresh = new_token()
    return fresh if store.rotate_token(game_id, hash_token(token), hash_token(fresh)) else None


def check_limit(limit: int, most: int) -> None:
    """Refuse a page size ``limit`` outside 1 to ``most`` (naming ``limit``)."""
    if not 1 <= limit <= most:
        raise InvalidValueError(
            f"limit must be 1 to {most}",
            code="bad_value",
            params={"limit": limit},
            option="limit",
        )


def encode_cursor(game: StoredGame) -> str:
    """The cursor of the page after ``game`` (opaque to clients: URL-safe base64 of JSON)."""
    return encode_value([game.created, game.id])


def decode_cursor(cursor: str) -> tuple[str, str]:
    """The ``(created, id)`` a cursor of :func:`encode_cursor` stands for; a cursor that is
    not one raises :class:`~scorekeeper.errors.InvalidValueError` naming ``cursor``."""
    first, second = decode_value(cursor, str)
    return first, second


def encode_value(value: list[Any]) -> str:
    """``value`` as an opaque cursor: URL-safe base64 of its compact JSON."""
    text = json.dumps(value, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_value(cursor: str, kind: type) -> list[Any]:
    """The pair :func:`encode_value` made ``cursor`` of, both of type ``kind``; else
    :class:`~scorekeeper.errors.InvalidValueError` naming ``cursor``."""
    try:
        value = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if isinstance(value, list) and len(value) == 2 and all(type(v) is kind for v in value):
            return value
    except (binascii.Error, ValueError):
        pass
    raise InvalidValueError(
        "cursor is not a cursor this server gave: send the 'next' of the previous page",
        code="bad_value",
        params={"cursor": cursor},
        option="cursor",
    )


def stored_time(moment: datetime) -> str:
    """``moment`` as the store writes times (UTC, milliseconds, ``Z``); a time without
    an offset is taken as UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def list_games(
    store: Store,
    key_id: int,
    *,
    limit: int = DEFAULT_PAGE,
    cursor: str | None = None,
    player: str | None = None,
    status: GameStatus | str | None = None,
    **found: Unpack[Found],
) -> tuple[list[StoredGame], str | None]:
    """One page of the games key ``key_id`` created, newest first: ``(games, next cursor)``.

    Filters: ``player`` (a player's name, matched by
    :func:`~scorekeeper.names.name_key`), ``status`` (``active`` or ``over``),
    and those of :class:`Found`. The cursor is ``None`` on the last page.
    """
    check_limit(limit, MAX_PAGE)
    games = store.key_games(
        key_id,
        limit=limit + 1,
        after=None if cursor is None else decode_cursor(cursor),
        **_filter(player, status, found),
    )
    return _paged(games, limit)


def server_games(
    store: Store,
    *,
    limit: int = DEFAULT_PAGE,
    cursor: str | None = None,
    player: str | None = None,
    status: GameStatus | str | None = None,
    **found: Unpack[Found],
) -> tuple[list[StoredGame], str | None]:
    """One page of every game on this server, newest first: ``(games, next cursor)`` (the
    scorepad's games page); the cursor and the filters as for :func:`list_games`."""
    games = store.all_games(
        limit=limit + 1,
        after=None if cursor is None else decode_cursor(cursor),
        **_filter(player, status, found),
    )
    return _paged(games, limit)


class Found(TypedDict, total=False):
    """The filters a search adds to a list of games: ``since`` (games changed at or after
    that time), ``q`` (part of a player's name: a
    player with a word beginning with each of its words, case and accents aside, see
    :mod:`~scorekeeper.store.finding`), ``created_from`` and ``created_to`` (the first and
    last day the games were made on, in the time zone ``utc_offset`` minutes east of UTC,
    default UTC)."""

    q: str | None
    since: datetime | None
    created_from: date | None
    created_to: date | None
    utc_offset: int


def _filter(player: str | None, status: GameStatus | str | None, found: Found) -> GameFilter:
    """The store's filters of a list of games (see :func:`list_games`)."""
    offset = timedelta(minutes=found.get("utc_offset", 0))
    first, last = found.get("created_from"), found.get("created_to")
    if first is not None and last is not None and last < first:
        raise InvalidValueError(
            f"the last day ({last}) is before the first ({first})",
            code="bad_range",
            params={"from": first.isoformat(), "to": last.isoformat()},
            option="to",
        )
    q, since = found.get("q"), found.get("since")
    return {
        "since": None if since is None else stored_time(since),
        "player_key": None if player is None else name_key(player, field="player"),
        "words": terms(q) if q else (),
        "status": None if status is None else GameStatus(status).value,
        "created_from": None if first is None else _midnight(first, offset),
        "created_to": None if last is None else _midnight(last + timedelta(days=1), offset),
    }


def _midnight(day: date, offset: timedelta) -> str:
    """The stored time of the start of ``day`` in the time zone ``offset`` east of UTC."""
    return stored_time(datetime.combine(day, time(), tzinfo=UTC) - offset)


def _paged(found: list[StoredGame], limit: int) -> tuple[list[StoredGame], str | None]:
    """The page of ``found`` (``limit + 1`` games asked for) and the next page's cursor."""
    page = found[:limit]
    return page, encode_cursor(page[-1]) if len(found) > limit else None


def game_summary(game: StoredGame) -> dict[str, Any]:
    """What a listing says of a game: id, players, status, created, updated, hands, totals."""
    scored = game.scored
    assert scored is not None  # a key's games are all newer than the scored state
    return {
        "id": game.id,
        "players": list(game.players),
        "status": game.status.value,
        "created": game.created,
        "updated": game.updated,
        "hands": scored.count,
        "totals": scored.data["totals"],
    }
