"""marshmallow schemas of the JSON API: what requests may hold and what responses hold.

Request schemas check shapes, types and sizes (every string and list has
a maximum length) and refuse unknown fields; the domain then checks the
meaning (which cards, which rule options) and names the field at fault.
Response schemas document what the domain returns; the OpenAPI document
is built from them.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from scorekeeper.rules import Rules
from scorekeeper.sheet import OUTCOMES

MAX_CARDS_TEXT = 400
"""Longest card text accepted ("As 2s 3s ..." with any separators and symbols)."""

MAX_LIST = 52
"""Most items in any list of cards, melds or layoffs."""

MAX_NAME = 40
"""Longest player name."""

MAX_KEY = 200
"""Longest ``Idempotency-Key`` header."""

CARD_CODE = {"type": "string", "minLength": 1, "maxLength": 8}


class Cards(fields.Field):
    """Cards as text (``"As 2s 3s"``, ``"10♥ J♥"``) or a list of card codes."""

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("metadata", {})
        kwargs["metadata"] = {
            "oneOf": [{"type": "string", "maxLength": MAX_CARDS_TEXT},
                      {"type": "array", "items": CARD_CODE, "maxItems": MAX_LIST}],
            "description": 'Cards as text ("As 2s 3s", "10♥ J♥") or a list of codes.',
            **kwargs["metadata"]}
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str):
            if len(value) > MAX_CARDS_TEXT:
                raise ma.ValidationError(f"card text is longer than {MAX_CARDS_TEXT}"
                                         " characters")
            return value
        if isinstance(value, list):
            if len(value) > MAX_LIST:
                raise ma.ValidationError(f"more than {MAX_LIST} cards")
            for position, item in enumerate(value, 1):
                if not isinstance(item, str) or not 1 <= len(item) <= 8:
                    raise ma.ValidationError(
                        f"card at position {position} must be a card code like \"Ts\","
                        f" not {item!r}")
            return value
        raise ma.ValidationError('cards must be text like "As 2s 3s" or a list of card codes')


class RulesOption(fields.Field):
    """Rules: a preset name, or an object ``{"preset"?: name, option: value, ...}``."""

    def __init__(self, **kwargs: Any):
        kwargs["metadata"] = {
            "oneOf": [{"type": "string", "enum": list(Rules.preset_names())},
                      {"type": "object", "maxProperties": 20, "additionalProperties": {
                          "nullable": True,
                          "oneOf": [{"type": "string", "maxLength": 20},
                                    {"type": "integer"}, {"type": "boolean"}]}}],
            "description": "A rule preset name, or an object of rule options on top of"
                           " a preset (RULES.md section 9).",
            **kwargs.get("metadata", {})}
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and len(value) <= 20:
            return value
        if isinstance(value, dict) and len(value) <= 20 and all(
                isinstance(v, str | int | bool | None) and not (
                    isinstance(v, str) and len(v) > 20) for v in value.values()):
            return value
        raise ma.ValidationError("rules must be a preset name or an object of rule options"
                                 " (strings, whole numbers, true/false or null)")


class Strict(ma.Schema):
    """Base of request schemas: unknown fields are refused."""

    class Meta:
        unknown = ma.RAISE


def _upcard() -> fields.String:
    return fields.String(validate=validate.Length(1, 8), allow_none=True,
                         metadata={"description": "The deal's first upcard (Oklahoma)."})


def _melds(description: str) -> fields.List:
    return fields.List(Cards(), validate=validate.Length(max=MAX_LIST), allow_none=True,
                       metadata={"description": description})


class Layoff(Strict):
    """One defender card laid off on a knocker meld."""

    card = fields.String(required=True, validate=validate.Length(1, 8))
    meld = Cards(required=True)


# --------------------------------------------------------------------------- requests


class MeldsRequest(Strict):
    """``POST /melds``: the cards to arrange (11 cards also get discard options)."""

    cards = Cards(required=True)


class VerifyRequest(Strict):
    """``POST /verify``: a knock to check and score."""

    knocker = Cards(required=True, metadata={"description": "10 cards (11 for big gin)."})
    defender = Cards(required=True, metadata={"description": "10 cards."})
    rules = RulesOption(load_default=None, allow_none=True)
    upcard = _upcard()
    knocker_melds = _melds("The knocker's declared melds (default: the best legal ones).")
    defender_melds = _melds("The defender's declared melds (default: optimal).")
    layoffs = fields.List(fields.Nested(Layoff), validate=validate.Length(max=MAX_LIST),
                          allow_none=True,
                          metadata={"description": "Declared layoffs (default: optimal)."})


# --------------------------------------------------------------------------- responses


class Arrangement(ma.Schema):
    """Melds and deadwood of a hand."""

    melds = fields.List(fields.List(fields.String()), required=True)
    deadwood_cards = fields.List(fields.String(), required=True)
    deadwood = fields.Integer(required=True)


class Discard(ma.Schema):
    """The deadwood left after one discard."""

    discard = fields.String(required=True)
    deadwood = fields.Integer(required=True)


class MeldsResponse(ma.Schema):
    """Every optimal arrangement; with 11 cards also the discard options."""

    arrangements = fields.List(fields.Nested(Arrangement), required=True)
    discards = fields.List(fields.Nested(Discard))


class KnockerSide(Arrangement):
    """The knocker's cards as laid out."""

    cards = fields.List(fields.String(), required=True)


class LayoffOut(ma.Schema):
    """A layoff made: a card onto a knocker meld."""

    card = fields.String(required=True)
    meld = fields.List(fields.String(), required=True)


class DefenderSide(KnockerSide):
    """The defender's cards, melds, layoffs and deadwood after layoffs."""

    layoffs = fields.List(fields.Nested(LayoffOut), required=True)
    best_deadwood = fields.Integer(required=True, metadata={
        "description": "What an optimal defender would have had."})


class Breakdown(ma.Schema):
    """Points = (difference + bonus) x multiplier."""

    difference = fields.Integer(required=True)
    bonus = fields.Integer(required=True)
    multiplier = fields.Integer(required=True)


def _outcome(**kwargs: Any) -> fields.String:
    return fields.String(validate=validate.OneOf(OUTCOMES), **kwargs)


class VerifyResponse(ma.Schema):
    """A checked and scored knock."""

    outcome = _outcome(required=True)
    winner = fields.String(required=True, validate=validate.OneOf(["knocker", "defender"]))
    points = fields.Integer(required=True)
    knocker = fields.Nested(KnockerSide, required=True)
    defender = fields.Nested(DefenderSide, required=True)
    breakdown = fields.Nested(Breakdown, required=True)

