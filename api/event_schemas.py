"""The schemas of the events' requests: a new club night or tournament, a match ended.

Shapes, types and sizes only; the domain checks the meaning (the format's
rounds, the winner) and names the field at fault.
"""

from __future__ import annotations

from marshmallow import fields, validate

from scorekeeper.events import MAX_PLAYERS as MAX_EVENT_PLAYERS
from scorekeeper.events import Format
from scorekeeper.names import MAX_NAME_LENGTH

from .request_fields import PlayerName, RulesOption, stake_field
from .schemas import Strict


class EventRequest(Strict):
    """``POST /events``: a club night or tournament: its name, roster, format and rules."""

    name = fields.String(
        required=True,
        validate=validate.Length(1, MAX_NAME_LENGTH),
        metadata={"description": "The event's name."},
    )
    players = fields.List(
        PlayerName(),
        required=True,
        validate=validate.Length(2, MAX_EVENT_PLAYERS),
        metadata={"description": "The roster, in seeding order (elimination: seed 1 first)."},
    )
    format = fields.String(
        required=True,
        validate=validate.OneOf([f.value for f in Format]),
        metadata={"description": "How the rounds are paired."},
    )
    rounds = fields.Integer(
        strict=True,
        allow_none=True,
        load_default=None,
        validate=validate.Range(1, MAX_EVENT_PLAYERS),
        metadata={"description": "The number of rounds: Swiss only (required there)."},
    )
    rules = RulesOption(load_default=None, allow_none=True)
    stake = stake_field("Money per point of each match (null: no settlement).")


class EndMatchRequest(Strict):
    """``POST /events/{event_id}/matches/{game_id}/end``: the director ends a match (time
    called): the winner named, or the player ahead on the sheet's totals."""

    winner = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(1, MAX_NAME_LENGTH),
        metadata={
            "description": "The player who wins the match, one of its two (letter case and"
            " spaces around the name do not count). Left out: the player ahead on the"
            " sheet's current totals (level totals need a winner named)."
        },
    )  # not a PlayerName: its pattern's control characters break generated clients' models
