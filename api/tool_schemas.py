"""The schemas of the tools' requests: melds, a knock to verify, a record to replay, an import.

The tools (:mod:`api.tools`) take cards and records without a game; the
fields bound their sizes (:mod:`api.request_fields`) and the domain checks
the rest.
"""

from __future__ import annotations

from typing import Any, ClassVar

import marshmallow as ma
from marshmallow import fields, validate

from scorekeeper.records import DEAL_FORMAT, MATCH_FORMAT

from .request_docs import MAX_IMPORT, MAX_LIST, one_of
from .request_fields import Cards, RulesOption, check_json_size, melds_field, upcard_field
from .schemas import Layoff, Strict


class MeldsRequest(Strict):
    """``POST /melds``: the cards to arrange (11 cards also get discard options)."""

    cards = Cards(required=True)


class VerifyRequest(Strict):
    """``POST /verify``: a knock to check and score."""

    knocker = Cards(required=True, metadata={"description": "10 cards (11 for big gin)."})
    defender = Cards(required=True, metadata={"description": "10 cards."})
    rules = RulesOption(load_default=None, allow_none=True)
    upcard = upcard_field()
    knocker_melds = melds_field("The knocker's declared melds (default: the best legal ones).")
    defender_melds = melds_field("The defender's declared melds (default: optimal).")
    layoffs = fields.List(
        fields.Nested(Layoff),
        validate=validate.Length(max=MAX_LIST),
        allow_none=True,
        metadata={"description": "Declared layoffs (default: optimal)."},
    )


class RecordRequest(ma.Schema):
    """``POST /replay``: a deal record (``gin-rummy-deal/1``) or a match record.

    The engine checks every other key (see the records module); the sizes
    are bounded as for every record (:func:`check_json_size`).
    """

    class Meta:
        unknown = ma.INCLUDE

    openapi: ClassVar[dict[str, Any]] = one_of(
        "format", {DEAL_FORMAT: "DealRecord", MATCH_FORMAT: "MatchRecord"}
    )
    """The document: the record's keys and values (the engine checks them)."""

    format = fields.String(required=True, validate=validate.OneOf([DEAL_FORMAT, MATCH_FORMAT]))

    @ma.validates_schema(pass_original=True)
    def _size(self, data: dict[str, Any], original: Any, **kwargs: Any) -> None:
        check_json_size(original)


class SourceImportRequest(Strict):
    """``POST /imports/{source}``: the input to import, as text."""

    text = fields.String(
        required=True,
        validate=validate.Length(max=MAX_IMPORT),
        metadata={
            "description": 'The whole input: OpenSpiel JSON lines ({"history", "params"} per'
            " line) or a Neller verbose log (one or more whole games)."
        },
    )
