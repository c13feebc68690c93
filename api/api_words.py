"""The JSON API's own error messages in the caller's language (issue 27).

The API writes its refusals in English where they arise: marshmallow's and
webargs' validation messages (``Unknown field.``, ``Length must be between 2
and 4.``), the request schemas' and the JSON decoder's own checks, the
credentials' and the store's refusals. :func:`in_language` finds which of
:data:`MESSAGES` an English message is (each message read as a pattern, its
``%(name)s`` placeholders standing for the values) and gives the request
language's wording of it with the same values; a message not among them is
left as it is. English is never rewritten: its catalog is the code's own text.

The values stay as the API takes them (field names, card codes, limits), so a
client's programmer recognises what was sent.
"""

from __future__ import annotations

import re
from functools import cache

from .i18n import N_, _

MESSAGES = (
    # marshmallow's fields and schemas
    N_("Missing data for required field."),
    N_("Field may not be null."),
    N_("Invalid value."),
    N_("Not a valid string."),
    N_("Not a valid utf-8 string."),
    N_("Not a valid integer."),
    N_("Not a valid number."),
    N_("Number too large."),
    N_("Not a valid boolean."),
    N_("Not a valid list."),
    N_("Invalid type."),
    N_("Not a valid mapping type."),
    N_("Special numeric values (nan or infinity) are not permitted."),
    N_("Not a valid datetime."),
    N_("Invalid input type."),
    N_("Unknown field."),
    # marshmallow's validators
    N_("Shorter than minimum length %(min)s."),
    N_("Longer than maximum length %(max)s."),
    N_("Length must be between %(min)s and %(max)s."),
    N_("Length must be %(equal)s."),
    N_("Must be greater than or equal to %(min)s and less than or equal to %(max)s."),
    N_("Must be greater than or equal to %(min)s."),
    N_("Must be less than or equal to %(max)s."),
    N_("Must be one of: %(choices)s."),
    # the request fields and schemas (api.request_fields, api.schemas, api.headers), the JSON
    # decoder (api.bodies)
    N_("nested more than %(limit)s deep at %(path)s"),
    N_("nested more than %(limit)s deep"),
    N_("text longer than %(limit)s characters at %(path)s"),
    N_("text longer than %(limit)s characters"),
    N_("a list of more than %(limit)s items at %(path)s"),
    N_("a list of more than %(limit)s items"),
    N_("card text is longer than %(limit)s characters"),
    N_("more than %(limit)s cards"),
    N_('card at position %(position)s must be a card code like "Ts", not %(value)s'),
    N_('cards must be text like "As 2s 3s" or a list of card codes'),
    N_(
        "rules must be a preset name or an object of rule options"
        " (strings, whole numbers, true/false or null)"
    ),
    N_("a %(kind)s hand needs %(name)s"),
    N_("a %(kind)s hand has no %(name)s"),
    N_(
        'If-Match must be the sheet\'s ETag (like "7", from GET /games/{id}),'
        " its version number, or *"
    ),
    N_("Prefer must be at most %(limit)s characters"),
    N_("a whole number of %(digits)s digits; at most %(limit)s are accepted"),
    N_("text with a lone UTF-16 surrogate (like \\ud800), which is not a character"),
    N_("nesting deeper than %(limit)s levels"),
    # credentials (api.v1, api.events) and the store
    N_("send the request body as JSON, with the header Content-Type: application/json"),
    N_("this needs an API key (scorekeeper keys create): Authorization: Bearer <key>"),
    N_(
        "this API key is unknown or revoked (send no Authorization header to create"
        " a game that belongs to no key)"
    ),
    N_("this API key is unknown or revoked"),
    N_("the edit token does not match this game"),
    N_("the director token does not match this event"),
    N_("no game with id %(id)s"),
    N_("no player called %(name)s"),
    N_("no event %(id)s"),
    N_("game %(game)s is not a match of event %(event)s"),
    N_("there is no hand %(n)s on the sheet (it has %(count)s)"),
    N_("this needs the game's edit token: Authorization: Bearer <token>"),
    N_("this needs the event's director token: Authorization: Bearer <token>"),
    N_("this edit token was replaced by a new one (POST /games/{id}/token): send the new one"),
    N_("this edit token was replaced by a new one just now: send the new one"),
    N_("Idempotency-Key %(key)s was already used for a different request (entry %(entry)s)"),
    N_("Idempotency-Key %(key)s was already used for a different request"),
    # the store's refusals (scorekeeper.store.sqlite, .postgres) and the rate limits (api.limits)
    N_("the server's disk is full: nothing was written"),
    N_("the database stayed busy for %(seconds)s s: nothing was written; try again"),
    N_("the database stayed locked for %(seconds)s s: nothing was written; try again"),
    N_(
        "the database is locked and other requests already wait to write:"
        " nothing was written; try again"
    ),
    N_("the database cannot be used just now (%(error)s): nothing was written; try again"),
    N_("the database cannot be reached just now: nothing was written; try again"),
    N_("too many requests from this API key (at most %(limit)s); try again in %(seconds)s s"),
    N_("too many requests from this address (at most %(limit)s); try again in %(seconds)s s"),
)
"""The API's English messages that the catalogs translate, as msgids (a value's place
written ``%(name)s``)."""

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


@cache
def _patterns() -> list[tuple[re.Pattern[str], str]]:
    """Each message of :data:`MESSAGES` as a pattern of its English text, the longest
    literal text first (``Must be ... %(min)s and ... %(max)s.`` before ``Must be ...
    %(min)s.``, which would take the rest as its value)."""
    found = []
    for message in MESSAGES:
        pieces = _PLACEHOLDER.split(message)
        pattern = "".join(
            f"(?P<{piece}>.+?)" if odd else re.escape(piece)
            for odd, piece in ((i % 2 == 1, piece) for i, piece in enumerate(pieces))
        )
        found.append((re.compile(pattern, re.DOTALL), message))
    return sorted(found, key=lambda item: -len(_PLACEHOLDER.sub("", item[1])))


def in_language(message: str) -> str:
    """``message`` (an English message of the API's) in the request's language, its values
    kept; any other text unchanged."""
    for pattern, msgid in _patterns():
        match = pattern.fullmatch(message)
        if match:
            return _(msgid, **match.groupdict())
    return message
