"""Response schemas of the JSON API, for the OpenAPI document only (answers are written by
``to_dict()``, never by these).

The shapes of typed results (melds, a verified knock, a replayed or
analysed deal or match, a stored sheet and its hands, an event's answers) are
derived from their result types by :mod:`api.shapes`; the names here are the
document's component names. The envelopes the views build around them (a
new game, a hand change) and the answers still given as plain dicts
(stats, exports, imports) are written here.
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from scorekeeper import analysis
from scorekeeper.analysis import DefenderShowdown, KnockerShowdown, ShowdownAnalysis
from scorekeeper.analysis_decisions import AnyDecision, DiscardDecision
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
from scorekeeper.store import event_results, event_roster
from scorekeeper.store.exchange import ExportedGame

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

EVENT_SHAPES = Shapes(
    given={ExportedGame: Export},
    added={event_results.EventView: {"url": fields.String(required=True)}},
)
"""The shapes of an event's answers (:mod:`scorekeeper.store.event_results`)."""

EventView = EVENT_SHAPES.schema(event_results.EventView)
PairedRound = EVENT_SHAPES.schema(event_results.PairedRound)
EventMatch = EVENT_SHAPES.schema(event_results.EventMatch)
EventStandings = EVENT_SHAPES.schema(event_results.EventStandings)
EventExport = EVENT_SHAPES.schema(event_results.EventExport)
EventRecord = EVENT_SHAPES.schema(event_results.EventRecord)
NewEvent = EVENT_SHAPES.schema(event_results.NewEvent)
SwappedRound = EVENT_SHAPES.schema(event_roster.SwappedRound)

COMPONENTS = {**SHAPES.components(), **EVENT_SHAPES.components()}
"""Schemas the OpenAPI document names without a view naming them directly."""

ALIASES = SHAPES.aliases()
"""Components that only name another schema (see :meth:`api.shapes.Shapes.aliases`)."""
