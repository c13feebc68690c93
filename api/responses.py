"""Response schemas of the JSON API, for the OpenAPI document only (answers are written by
``to_dict()``, never by these).

The shapes of typed results (melds, a verified knock, a replayed or
analysed deal or match, a stored sheet and its hands) are derived from
their result types by :mod:`api.shapes`; the names here are the
document's component names. The envelopes the views build around them (a
new game, a hand change) and the answers still given as plain dicts
(stats, exports, imports) are written here.
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from scorekeeper import analysis
from scorekeeper.analysis import (
    AnyDecision,
    DefenderShowdown,
    DiscardDecision,
    KnockerShowdown,
    ShowdownAnalysis,
)
from scorekeeper.gamesheet import GameSheet, StoredHand
from scorekeeper.knock import DefenderHand, KnockerHand, KnockResult, Layoff
from scorekeeper.melds import DiscardOption, DiscardReport, MeldReport
from scorekeeper.records import ReplayedDeal, ReplayedMatch
from scorekeeper.sheet import (
    AnyHandRecord,
    AnySheet,
    GameResult,
    HollywoodResult,
    Payment,
)

from .shapes import Shapes

SHAPES = Shapes(
    {
        KnockResult: "VerifyResponse",
        KnockerHand: "KnockerSide",
        DefenderHand: "DefenderSide",
        Layoff: "LayoffOut",
        Payment: "Settlement",
        GameResult | HollywoodResult: "SheetResult",
        AnySheet: "ScoredSheet",
        AnyHandRecord: "ScoredHand",
        StoredHand: "HandRecord",
        GameSheet: "Sheet",
        ReplayedDeal: "DealResult",
        ReplayedMatch: "MatchResult",
        MeldReport | DiscardReport: "MeldsResponse",
        DiscardOption: "Discard",
        AnyDecision: "Decision",
        KnockerShowdown: "KnockerReview",
        DefenderShowdown: "DefenderReview",
        ShowdownAnalysis: "ShowdownReview",
    },
    flat={GameSheet: ("scored", {"minimal", "rules"}), StoredHand: ("record", ())},
    extra={
        DiscardDecision: {"knock_available": {"nullable": False}},  # left out, never null
        GameResult: {"settlement": {"minItems": 2, "maxItems": 2}},
    },
    added={
        GameSheet: {
            "url": fields.String(required=True),
            "cut": fields.List(  # left out, never null: a game not cut for keeps its shape
                fields.String(),
                metadata={
                    "description": "The cards cut for the first deal, one per player in"
                    " player order (RULES.md 3): the cut given when the game was created, or"
                    " the one the service made when neither a dealer nor a cut was given"
                    " (first_dealer low or high). Left out when the dealer was named or"
                    " drawn by lot."
                },
            ),
        }
    },
)
"""The shapes of the typed results the API answers with (see :mod:`api.shapes`)."""

VerifyResponse = SHAPES.schema(KnockResult)
DealResult = SHAPES.schema(ReplayedDeal)
MatchResult = SHAPES.schema(ReplayedMatch)
HandRecord = SHAPES.schema(StoredHand)
Sheet = SHAPES.schema(GameSheet)
MeldsResponse = SHAPES.schema(MeldReport | DiscardReport)
DealAnalysis = SHAPES.schema(analysis.DealAnalysis)
MatchAnalysis = SHAPES.schema(analysis.MatchAnalysis)


class NewGame(ma.Schema):
    """A created (or imported) game: its sheet, URL and edit token (shown only now)."""

    id = fields.String(required=True)
    url = fields.String(required=True)
    edit_token = fields.String(
        required=True,
        metadata={
            "description": "Send as Authorization: Bearer <token> to write; it is not stored."
        },
    )
    game = fields.Nested(Sheet, required=True)


class NewToken(ma.Schema):
    """A game's new edit token (shown only now; the one sent no longer works)."""

    id = fields.String(required=True)
    edit_token = fields.String(
        required=True,
        metadata={
            "description": "Send as Authorization: Bearer <token> to write; it is not stored."
        },
    )


class GameSummary(ma.Schema):
    """A game as a listing shows it."""

    id = fields.String(required=True)
    url = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    status = fields.String(required=True, metadata={"enum": ["active", "over"]})
    created = fields.String(required=True)
    updated = fields.String(required=True)
    hands = fields.Integer(required=True, metadata={"description": "Hands on the sheet."})
    totals = fields.List(
        fields.Integer(), required=True, metadata={"description": "As on the sheet."}
    )


class GameList(ma.Schema):
    """One page of an API key's games, newest first."""

    games = fields.List(fields.Nested(GameSummary), required=True)
    next = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The cursor of the next page; null on the last page."},
    )


class HandChange(ma.Schema):
    """The hand entered, corrected or undone, and the updated sheet."""

    hand = fields.Nested(HandRecord, required=True, allow_none=True)
    sheet = fields.Nested(
        Sheet,
        required=True,
        allow_none=True,
        metadata={"description": "null when the request said Prefer: return=minimal."},
    )


class Export(ma.Schema):
    """An exported game: settings and every hand on the sheet as entered."""

    format = fields.String(required=True)
    version = fields.Integer(required=True)
    players = fields.List(fields.String(), required=True)
    rules = fields.Dict(required=True)
    dealer = fields.Integer(required=True)
    stake = fields.Float(required=True, allow_none=True)
    created = fields.String(required=True)
    hands = fields.List(fields.Dict(), required=True)


class HeadToHead(ma.Schema):
    """A player's record against one opponent."""

    opponent = fields.String(required=True)
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    losses = fields.Integer(required=True)
    hands_won = fields.Integer(required=True)
    hands_lost = fields.Integer(required=True)


class Stats(ma.Schema):
    """A player's record over every stored game."""

    name = fields.String(required=True)
    games = fields.Integer(required=True)
    finished = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    losses = fields.Integer(required=True)
    hands = fields.Integer(required=True)
    hands_won = fields.Integer(required=True)
    gins = fields.Integer(required=True)
    undercuts = fields.Integer(required=True)
    points = fields.Integer(required=True)
    average_hand = fields.Float(required=True, allow_none=True)
    imported_games = fields.Integer(
        required=True,
        metadata={
            "description": "Imported games of the player's, left out of every count above"
            " (their hands were not entered under an edit token)."
        },
    )
    head_to_head = fields.List(fields.Nested(HeadToHead), required=True)


class ImportFaultOut(ma.Schema):
    """A part of the input that could not be imported."""

    line = fields.Integer(required=True, metadata={"description": "The input line (1-based)."})
    position = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The index into the OpenSpiel history of the action at fault."},
    )
    message = fields.String(required=True)


class SourceImportResponse(ma.Schema):
    """The records imported, in input order, and what could not be imported."""

    records = fields.List(
        fields.Dict(),
        required=True,
        metadata={"description": "Deal records (openspiel) or match records (neller)."},
    )
    errors = fields.List(fields.Nested(ImportFaultOut), required=True)


REPLAY_RESPONSE = {
    "oneOf": [
        {"$ref": "#/components/schemas/DealResult"},
        {"$ref": "#/components/schemas/MatchResult"},
    ]
}
"""The replay response: a deal result or a match result."""


ANALYSE_RESPONSE = {
    "oneOf": [
        {"$ref": "#/components/schemas/DealAnalysis"},
        {"$ref": "#/components/schemas/MatchAnalysis"},
    ]
}
"""The analyse response: a deal's analysis or a match's."""

COMPONENTS = SHAPES.components()
"""Schemas the OpenAPI document names without a view naming them directly."""

ALIASES = SHAPES.aliases()
"""Components that only name another schema (see :meth:`api.shapes.Shapes.aliases`)."""


class NewEvent(ma.Schema):
    """A created event: its id, URL and director token (shown only now)."""

    id = fields.String(required=True)
    url = fields.String(required=True)
    director_token = fields.String(
        required=True,
        metadata={
            "description": "Send as Authorization: Bearer <token> to pair rounds; it is not stored."
        },
    )


class PairedMatch(ma.Schema):
    """A match of a newly paired round: its table, players, game and the game's edit token."""

    table = fields.Integer(required=True)
    players = fields.List(fields.String(), required=True)
    game_id = fields.String(required=True)
    edit_token = fields.String(
        required=True, metadata={"description": "The game's edit token (shown only now)."}
    )


class PairedRound(ma.Schema):
    """A newly paired round."""

    number = fields.Integer(required=True)
    matches = fields.List(fields.Nested(PairedMatch), required=True)
    bye = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The one player sitting out, else null."},
    )
    byes = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Everyone sitting out (an elimination may have several)."},
    )


class Standing(ma.Schema):
    """A line of an event's standings."""

    rank = fields.Integer(required=True)
    player = fields.String(required=True)
    played = fields.Integer(required=True)
    won = fields.Integer(required=True, metadata={"description": "Matches won, byes included."})
    lost = fields.Integer(required=True)
    net_points = fields.Integer(
        required=True,
        metadata={"description": "Own final total minus the opponent's, over finished matches."},
    )
    byes = fields.Integer(required=True)
    opponents_won = fields.Integer(
        required=True, metadata={"description": "The opponents' wins (Swiss's tie-break)."}
    )


class EventStandings(ma.Schema):
    """An event's standings, computed from its stored games."""

    standings = fields.List(fields.Nested(Standing), required=True)


class EventMatch(ma.Schema):
    """A match of an event: its table, players, game and result (once the game is over, or
    the director ended the match)."""

    table = fields.Integer(required=True)
    players = fields.List(fields.String(), required=True)
    game_id = fields.String(required=True)
    finished = fields.Boolean(required=True)
    winner = fields.String(required=True, allow_none=True)
    totals = fields.List(
        fields.Integer(),
        required=True,
        allow_none=True,
        metadata={
            "description": "The final totals, bonuses included (null until the end); for a"
            " match the director ended, the totals as they stood then, with no game bonus."
        },
    )
    ended_by_director = fields.Boolean(
        required=True,
        metadata={
            "description": "Whether the director ended the match before its game was over"
            " (its result then stays, whatever the game does after)."
        },
    )


class EventRound(ma.Schema):
    """A paired round of an event."""

    number = fields.Integer(required=True)
    matches = fields.List(fields.Nested(EventMatch), required=True)
    bye = fields.String(required=True, allow_none=True)
    byes = fields.List(fields.String(), required=True)


class EventView(ma.Schema):
    """The whole event: settings, rounds, matches, tables, results and standings."""

    id = fields.String(required=True)
    url = fields.String(required=True)
    name = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    format = fields.String(required=True)
    round_count = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Swiss: the rounds to play."}
    )
    rules = fields.Dict(required=True)
    stake = fields.Float(required=True, allow_none=True)
    created = fields.String(required=True)
    over = fields.Boolean(required=True)
    rounds = fields.List(fields.Nested(EventRound), required=True)
    stale_round = fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "description": "A knockout's first round paired on a result that has changed"
            " since (it stays as paired, and counts, until the director withdraws it:"
            " DELETE /events/{id}/rounds/{number}); null when every round follows."
        },
    )
    standings = fields.List(fields.Nested(Standing), required=True)


class EventSettings(ma.Schema):
    """An event's settings, as its exports repeat them."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    format = fields.String(required=True)
    round_count = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Swiss: the rounds to play."}
    )
    rules = fields.Dict(required=True)
    stake = fields.Float(required=True, allow_none=True)
    created = fields.String(required=True)


class EventExportSettings(EventSettings):
    """An event's settings and whether it is over."""

    over = fields.Boolean(required=True)


class EventResult(ma.Schema):
    """A match of an event as a row of its results (a line of results.csv)."""

    round = fields.Integer(required=True)
    table = fields.Integer(required=True)
    player_a = fields.String(required=True)
    player_b = fields.String(required=True)
    finished = fields.Boolean(required=True)
    winner = fields.String(required=True, allow_none=True)
    total_a = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "player_a's final total, bonuses included (null until the end)."},
    )
    total_b = fields.Integer(required=True, allow_none=True)
    game_id = fields.String(required=True)
    ended = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "time_called when the director ended the match before its game"
            " was over (the totals as they stood then, with no game bonus); else null."
        },
    )


class EventExport(ma.Schema):
    """An event's settings, standings and every match's result."""

    event = fields.Nested(EventExportSettings, required=True)
    standings = fields.List(fields.Nested(Standing), required=True)
    results = fields.List(fields.Nested(EventResult), required=True)


class EventRecordRound(ma.Schema):
    """A round of an event record: its number and who sat out."""

    number = fields.Integer(required=True)
    byes = fields.List(fields.String(), required=True)


class DirectorEnd(ma.Schema):
    """How the director ended a match: its winner and the totals as they stood then."""

    winner = fields.String(required=True)
    totals = fields.List(fields.Integer(), required=True)


class EventRecordGame(ma.Schema):
    """A match of an event record: its round, table, game id, the game exported and the
    director's end of the match (null: none)."""

    round = fields.Integer(required=True)
    table = fields.Integer(required=True)
    game_id = fields.String(required=True)
    game = fields.Nested(Export, required=True)
    ended_by_director = fields.Nested(
        DirectorEnd,
        required=True,
        allow_none=True,
        metadata={"description": "The match's result as the director ended it (null: none)."},
    )


class EventRecord(ma.Schema):
    """An event as a record ``scorekeeper replay`` scores again (format scorekeeper.event)."""

    format = fields.String(required=True)
    version = fields.Integer(required=True)
    event = fields.Nested(EventSettings, required=True)
    rounds = fields.List(fields.Nested(EventRecordRound), required=True)
    games = fields.List(fields.Nested(EventRecordGame), required=True)
