"""The schemas of the games' requests: a new game, an imported one, and the list's query.

Shapes, types and sizes only (:mod:`api.request_fields`); the domain checks
the meaning (names, rules, the cut) and names the field at fault.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from scorekeeper.gamesheet import GameStatus
from scorekeeper.records import MATCH_FORMAT
from scorekeeper.store.access import DEFAULT_PAGE, MAX_PAGE
from scorekeeper.store.exchange import EXPORT_FORMAT, EXPORT_VERSION

from .request_docs import MAX_HANDS, MAX_TEXT, RECORD_LIMITS
from .request_fields import (
    Day,
    NamePart,
    PlayerName,
    Record,
    RulesOption,
    card_field,
    check_json_size,
    stake_field,
)
from .schemas import MAX_PLAYERS, HandRequest, Strict


class GameRequest(Strict):
    """``POST /games``: who plays, under which rules, who deals first, the stake."""

    players = fields.List(
        PlayerName(),
        required=True,
        validate=validate.Length(2, MAX_PLAYERS),
        metadata={
            "description": "The players' names: 2, 3 or 4 (four:"
            " partnerships, players 0 and 2 against 1 and 3)."
        },
    )
    rules = RulesOption(load_default=None, allow_none=True)
    dealer = fields.Integer(
        strict=True,
        allow_none=True,
        validate=validate.Range(0, MAX_PLAYERS - 1),
        metadata={
            "description": "The first dealer's player index (four players: any player"
            " of the first dealing team). Left out: the cut decides; without a cut,"
            " under first_dealer random a draw by lot, and under low or high the"
            " service cuts for the players (one card each at random, ties cut again)"
            " and the game shows that cut as its cut."
        },
    )
    cut = fields.List(
        card_field(),
        allow_none=True,
        validate=validate.Length(2, MAX_PLAYERS),
        metadata={
            "description": "The card each player cut for the deal, in player order"
            " (first_dealer low or high, when no dealer is named): recorded and shown"
            " as the game's cut. Left out with the dealer too: the service cuts."
        },
    )
    stake = stake_field("Money per point (null: no settlement).")


class ImportRequest(GameRequest):
    """``POST /games/import``: an exported game, or an engine match record.

    An exported game (``GET /games/{id}/export``, format ``scorekeeper.game``)
    has players, rules, dealer, stake and hands; a match record (format
    ``gin-rummy-match/1``) has players, rules and deals. One with a key of the
    other kind is refused (422, reason ``not_in_match_record`` or
    ``not_in_export``, the key as the field).
    """

    class Meta(Strict.Meta):
        exclude = ("cut",)

    players = fields.List(PlayerName(), validate=validate.Length(2, MAX_PLAYERS))
    format = fields.String(validate=validate.OneOf([EXPORT_FORMAT, MATCH_FORMAT]))
    version = fields.Integer(strict=True, validate=validate.OneOf([EXPORT_VERSION]))
    created = fields.String(
        validate=validate.Length(max=40),
        metadata={"description": "Ignored: the import is a new game."},
    )
    hands = fields.List(fields.Nested(HandRequest), validate=validate.Length(max=MAX_HANDS))
    deals = fields.List(
        Record("MatchDeal", "A deal of a match record."),
        validate=validate.Length(max=MAX_HANDS),
        metadata={"description": "A match record's deal records."},
    )
    seed = fields.Raw(
        allow_none=True, metadata={"description": "A match record's note. " + RECORD_LIMITS}
    )
    comment = fields.String(
        validate=validate.Length(max=MAX_TEXT), metadata={"description": "A match record's note."}
    )

    @ma.validates("seed")
    def _seed_size(self, value: Any, **kwargs: Any) -> None:
        check_json_size(value)


MAX_CURSOR = 200
"""The longest cursor read (one this server gives is about 60 characters)."""


class GameListQuery(Strict):
    """The query of ``GET /api/v1/games``: the page wanted and the filters."""

    limit = fields.Integer(
        load_default=DEFAULT_PAGE,
        validate=validate.Range(1, MAX_PAGE),
        metadata={"description": f"Games on the page (default {DEFAULT_PAGE})."},
    )
    cursor = fields.String(
        validate=validate.Length(1, MAX_CURSOR),
        metadata={"description": "The previous page's next: the page after it."},
    )
    player = PlayerName(
        metadata={
            "description": "Only games with this player (letter case, spaces around the name"
            " and how accents are encoded do not count)."
        }
    )
    status = fields.String(
        validate=validate.OneOf([status.value for status in GameStatus]),
        metadata={"description": "Only games going on (active) or ended (over)."},
    )
    since = fields.DateTime(
        format="iso",
        metadata={
            "description": "Only games changed at or after this time (ISO 8601; without an"
            " offset, UTC).",
            "maxLength": 40,  # longer is no ISO 8601 time: refused as one (422)
        },
    )
    q = NamePart(metadata={"description": "Only games with a player found by this part of a name."})
    created_from = Day(data_key="from", metadata={"description": "Only games made on or after"})
    created_to = Day(data_key="to", metadata={"description": "Only games made on or before"})
