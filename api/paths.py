"""The ``/api/v1`` paths' parameters: game ids, player names, import sources.

Game ids in paths have the shape of the ids the store gives out (16 URL-safe characters,
:data:`GAME_ID`), so ``/games/import`` is never mistaken for a game; player names in
paths are as long as names may be. Each converter has its OpenAPI schema.
"""

from __future__ import annotations

from typing import Any

from werkzeug.routing import BaseConverter

from scorekeeper.imports import SOURCES
from scorekeeper.names import MAX_NAME_LENGTH

from .request_fields import NAME_PATTERN

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
        "pattern": NAME_PATTERN,
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
