"""The schemas of the ``/api/v1/seasons`` endpoints: the request body and the answers.

The answers' schemas are derived from the result types of
:mod:`scorekeeper.store.season_results` (:mod:`api.shapes`), for the OpenAPI
document only (answers are written by ``to_dict()``); the request body is
checked here for shape and size, the domain checks the meaning (the last day
not before the first, the placement points) and names the field at fault.
"""

from __future__ import annotations

from marshmallow import fields, validate

from scorekeeper.names import MAX_NAME_LENGTH
from scorekeeper.seasons import DEFAULT_PLACEMENT, MAX_PLACE_POINTS, MAX_PLACES, TableRule
from scorekeeper.store import season_results

from .request_fields import Flag
from .schemas import Strict
from .shapes import Shapes

DAY_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
"""A day as ``YYYY-MM-DD`` (the domain checks it is a real date)."""


def _day(description: str) -> fields.String:
    return fields.String(
        required=True,
        validate=validate.Length(10, 10),
        metadata={"description": description, "format": "date", "pattern": DAY_PATTERN},
    )


class SeasonRequest(Strict):
    """``POST /seasons``: a season: its name, days, table rule and whether casual games
    count."""

    name = fields.String(
        required=True,
        validate=validate.Length(1, MAX_NAME_LENGTH),
        metadata={"description": "The season's name."},
    )
    first_day = _day("The first day counted (YYYY-MM-DD, UTC).")
    last_day = _day("The last day counted (YYYY-MM-DD, UTC): not before the first day.")
    table = fields.String(
        required=True,
        validate=validate.OneOf([rule.value for rule in TableRule]),
        metadata={
            "description": "wins: match wins, then net points, then head to head;"
            " placement: placement points per night, then match wins, net points, head"
            " to head."
        },
    )
    casual_games = Flag(
        load_default=False,
        metadata={
            "description": "Whether the finished two-player games of no event on the"
            " season's days count (wins: as matches; placement: counted beside, ranking"
            " nobody)."
        },
    )
    placement = fields.List(
        fields.Integer(strict=True, validate=validate.Range(0, MAX_PLACE_POINTS)),
        load_default=None,
        allow_none=True,
        validate=validate.Length(1, MAX_PLACES),
        metadata={
            "description": "Placement points per night by place, first place first, none"
            " above the one before; later places score 0. Default"
            f" {list(DEFAULT_PLACEMENT)}."
        },
    )


SEASON_SHAPES = Shapes(
    added={
        season_results.StoredSeason: {"url": fields.String(required=True)},
        season_results.SeasonView: {"url": fields.String(required=True)},
    }
)
"""The shapes of a season's answers (:mod:`scorekeeper.store.season_results`)."""

SeasonView = SEASON_SHAPES.schema(season_results.SeasonView)
SeasonList = SEASON_SHAPES.schema(season_results.SeasonList)
SeasonTable = SEASON_SHAPES.schema(season_results.SeasonTable)

COMPONENTS = SEASON_SHAPES.components()
"""Schemas the OpenAPI document names without a view naming them directly."""
