"""The headers of the JSON API: a write's ``Idempotency-Key``, ``If-Match`` and ``Prefer``,
a read's ``If-None-Match``.

Each is read (and refused with a message naming it) by a marshmallow field;
the OpenAPI document describes them from the same fields.
"""

from __future__ import annotations

import re
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

MAX_KEY = 200
"""Longest ``Idempotency-Key`` header."""

IF_MATCH = r'^(\*|"[0-9]{1,9}"|[0-9]{1,9})$'
"""What ``If-Match`` may hold: ``*``, the sheet's ETag (``"7"``) or its version (``7``)."""


class IfMatch(fields.Field[int | None]):
    """The ``If-Match`` header: the version the change is based on (``None`` for ``*``)."""

    def __init__(self, **kwargs: Any):
        kwargs["metadata"] = {
            "type": "string",
            "pattern": IF_MATCH,
            "maxLength": 11,
            "description": "The ETag of the sheet the change is based on (GET /games/{id}"
            ' gives it; "7" or 7 for version 7): when the game has changed'
            " since, the change is refused with 409 (code stale) and nothing"
            " is written. * (or no header) writes whatever the version.",
            **kwargs.get("metadata", {}),
        }
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, str) or not re.fullmatch(IF_MATCH, value.strip()):
            raise ma.ValidationError(
                'If-Match must be the sheet\'s ETag (like "7", from GET'
                " /games/{id}), its version number, or *"
            )
        text = value.strip()
        return None if text == "*" else int(text.strip('"'))


class PreferMinimal(fields.Field[bool]):
    """The ``Prefer`` header (RFC 7240): true when it holds ``return=minimal``."""

    def __init__(self, **kwargs: Any):
        kwargs["metadata"] = {
            "type": "string",
            "maxLength": 200,
            "description": "return=minimal: answer with the hand only (sheet null), for"
            " long games on slow links; the ETag still gives the version.",
            **kwargs.get("metadata", {}),
        }
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, str) or len(value) > 200:
            raise ma.ValidationError("Prefer must be at most 200 characters")
        return any(
            part.split(";")[0].replace(" ", "").lower() == "return=minimal"
            for part in value.split(",")
        )


class KeyHeader(ma.Schema):
    """The optional ``Idempotency-Key`` header of a write (a create, too)."""

    class Meta:
        unknown = ma.EXCLUDE

    key = fields.String(
        data_key="Idempotency-Key",
        validate=validate.Length(1, MAX_KEY),
        metadata={
            "description": "Repeating a request with the same key"
            " writes nothing and returns the first answer again (the"
            " same status and body; header Idempotent-Replayed: true on"
            " a repeated hand). Another request with a used key is a 422"
            " (idempotency_key_reused). Use a random UUID per request:"
            " a repeated create gives the game's edit token again."
        },
    )


class WriteHeaders(KeyHeader):
    """The optional ``Idempotency-Key``, ``If-Match`` and ``Prefer`` headers of a write."""

    version = IfMatch(data_key="If-Match")
    minimal = PreferMinimal(data_key="Prefer")


class ReadHeaders(ma.Schema):
    """The optional ``If-None-Match`` header of a sheet's read."""

    class Meta:
        unknown = ma.EXCLUDE

    none_match = fields.String(
        data_key="If-None-Match",
        validate=validate.Length(max=200),
        metadata={
            "description": "The sheet's ETag from an earlier read: 304 and no body while"
            " it is current."
        },
    )


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

WRITE: dict[str, list[dict[str, list[str]]]] = {"security": [{"bearerAuth": []}]}

KEYED: dict[str, list[dict[str, list[str]]]] = {"security": [{"apiKeyAuth": []}]}
"""An operation that needs an API key."""

MAY_BE_KEYED: dict[str, list[dict[str, list[str]]]] = {"security": [{}, {"apiKeyAuth": []}]}
"""An operation open to all, whose result belongs to the API key sent, if any."""
