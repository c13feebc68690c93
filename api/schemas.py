"""marshmallow schemas of the JSON API's requests: their base, and a hand as the table enters it.

Request schemas check shapes, types and sizes (every string and list has
a maximum length, :mod:`api.request_fields`) and refuse unknown fields
(:class:`Strict`, the base of every request schema); the domain then checks
the meaning (which cards, which rule options) and names the field at fault.
A hand is one schema per kind in the OpenAPI document (:data:`COMPONENTS`),
each with the fields its kind needs and may have. The request body as a
whole is limited too (``MAX_CONTENT_LENGTH``: 413).

The other requests' schemas: games (:mod:`api.game_schemas`), events
(:mod:`api.event_schemas`), the tools (:mod:`api.tool_schemas`), seasons
(:mod:`api.season_schemas`); the documents of rules and records are in
:mod:`api.request_docs`, the response schemas (for the OpenAPI document) in
:mod:`api.responses`, the headers of writes in :mod:`api.headers`.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterable
from typing import Any, ClassVar

import marshmallow as ma
from marshmallow import fields, validate

from scorekeeper.handinput import GAME_KINDS, MAX_DEADWOOD

from .request_docs import (
    DEAL_RECORD,
    MATCH_DEAL,
    MATCH_RECORD,
    MAX_LIST,
    RULE_OPTIONS,
    SHOWDOWN,
    one_of,
)
from .request_fields import Cards, Flag, Record, card_field, melds_field, upcard_field


class Strict(ma.Schema):
    """Base of request schemas: unknown fields are refused; null means absent.

    A field that allows null (``nullable`` in the document) sent as null is
    read as if it were left out: its default applies, and a hand kind that
    has no such field does not refuse it (generated clients send the
    optional fields they were given as null).
    """

    class Meta:
        unknown = ma.RAISE

    @ma.pre_load
    def _null_is_absent(self, data: Any, **kwargs: Any) -> Any:
        if not isinstance(data, dict) or None not in data.values():
            return data
        nullable = self._nullable
        return {
            key: value for key, value in data.items() if not (value is None and key in nullable)
        }

    @functools.cached_property
    def _nullable(self) -> frozenset[str]:
        """The keys of the fields that allow null (worked out once per schema instance:
        flask-smorest loads every request with the same one)."""
        return frozenset(
            field.data_key or name for name, field in self.load_fields.items() if field.allow_none
        )


class Layoff(Strict):
    """One defender card laid off on a knocker meld."""

    card = card_field(required=True)
    meld = Cards(required=True)


HAND_FIELDS = {
    "quick": ({"knocker", "knocker_deadwood", "defender_deadwood"}, {"big_gin", "upcard"}),
    "cards": (
        {"knocker", "knocker_cards", "defender_cards"},
        {"upcard", "knocker_melds", "defender_melds", "layoffs"},
    ),
    "record": ({"record"}, set()),
    "void": (set(), set()),
    "deal": ({"games"}, set()),
}
"""Per hand kind: the fields it needs and the ones it may have besides ``kind``."""


def _hand_kinds(kinds: Iterable[str]) -> dict[str, Any]:
    """The document of a hand of one of ``kinds``: each kind's own schema (:func:`_kind`)."""
    return one_of("kind", {kind: f"{kind.capitalize()}Hand" for kind in kinds})


MAX_PLAYERS = 4
"""The most players at a table (RULES.md section 8: two, three, or two partnerships)."""


class GameHand(Strict):
    """The hand of one game of a four-player deal: kind quick, cards or void.

    The fields are those of a hand of the same kind (see ``HandRequest``);
    ``knocker`` is one of that game's two players (the deal's ``next_games``).
    """

    openapi: ClassVar[dict[str, Any]] = _hand_kinds(GAME_KINDS)
    """The document: the fields of each kind (:data:`HAND_FIELDS`), one schema per kind."""

    kind = fields.String(required=True, validate=validate.OneOf(list(GAME_KINDS)))
    knocker = fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_PLAYERS - 1),
        metadata={
            "description": "The knocker: a player index. Two"
            " players: 0 or 1; three: one of the two who play the"
            " hand (the dealer sits out); four: one of the game's"
            " two players."
        },
    )
    knocker_deadwood = fields.Integer(strict=True, validate=validate.Range(0, MAX_DEADWOOD))
    defender_deadwood = fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_DEADWOOD),
        metadata={"description": "After layoffs."},
    )
    big_gin = Flag()
    upcard = upcard_field()
    knocker_cards = Cards(metadata={"description": "10 cards (11 for big gin)."})
    defender_cards = Cards(metadata={"description": "10 cards."})
    knocker_melds = melds_field("The knocker's declared melds (default: the best legal ones).")
    defender_melds = melds_field("The defender's declared melds (default: optimal).")
    layoffs = fields.List(
        fields.Nested(Layoff), validate=validate.Length(max=MAX_LIST), allow_none=True
    )

    @ma.validates_schema
    def _fields_of_kind(self, data: dict[str, Any], **kwargs: Any) -> None:
        kind = data.get("kind")
        if kind not in HAND_FIELDS:
            return
        needed, optional = HAND_FIELDS[kind]
        for name in sorted(needed - data.keys()):
            raise ma.ValidationError(f"a {kind} hand needs {name}", name)
        for name in sorted(data.keys() - needed - optional - {"kind"}):
            raise ma.ValidationError(f"a {kind} hand has no {name}", name)


class HandRequest(GameHand):
    """One hand as the table enters it; ``kind`` says which other fields apply.

    quick: knocker, knocker_deadwood, defender_deadwood (+ big_gin, upcard);
    cards: knocker, knocker_cards, defender_cards (+ upcard, knocker_melds,
    defender_melds, layoffs); record (two players only): record; void:
    nothing else (four players: both games void); deal (four players only):
    games, the hands of the deal's two games in the order of the sheet's
    ``next_games``.
    """

    openapi: ClassVar[dict[str, Any]] = _hand_kinds(HAND_FIELDS)
    """The document: the fields of each kind (:data:`HAND_FIELDS`), one schema per kind."""

    kind = fields.String(required=True, validate=validate.OneOf(list(HAND_FIELDS)))
    record = Record("DealRecord", "A deal record (see the replay endpoint); two players only.")
    games = fields.List(
        fields.Nested(GameHand),
        validate=validate.Length(2, 2),
        metadata={
            "description": "Four players, kind deal: the hand of each game of the deal (kind"
            " quick, cards or void), in the order of the sheet's next_games."
        },
    )


def _kind(kind: str) -> type[Strict]:
    """The schema of a hand of ``kind`` for the document: ``kind`` and the fields it needs
    (required) and may have (:data:`HAND_FIELDS`), as :class:`HandRequest` reads them."""
    needed, optional = HAND_FIELDS[kind]
    attributes: dict[str, Any] = {
        "kind": fields.String(required=True, validate=validate.OneOf([kind]))
    }
    for name, field in HandRequest._declared_fields.items():
        if name in needed | optional:
            attributes[name] = copy.copy(field)
            attributes[name].required = name in needed
    return type(f"{kind.capitalize()}Hand", (Strict,), attributes)


COMPONENTS: dict[str, dict[str, Any] | type[ma.Schema]] = {
    "RuleOptions": RULE_OPTIONS,
    "DealRecord": DEAL_RECORD,
    "MatchRecord": MATCH_RECORD,
    "MatchDeal": MATCH_DEAL,
    "Showdown": SHOWDOWN,
    **{f"{kind.capitalize()}Hand": _kind(kind) for kind in HAND_FIELDS},
}
"""What the document names besides the request schemas: the rules object, the records and
each kind of hand (a dict: the component itself; a schema: made from it)."""
