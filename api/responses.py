"""Response schemas of the JSON API, for the OpenAPI document only (answers are written by
``to_dict()``, never by these).

The shapes of typed results (a verified knock, a replayed deal or match, a
stored sheet and its hands) are derived from their result types by
:mod:`api.shapes`; the names here are the document's component names. The
envelopes the views build around them (a new game, a hand change) and the
answers still given as plain dicts (melds, analyses, stats, exports,
imports) are written here.
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from scorekeeper.knock import DefenderHand, KnockerHand, KnockResult, Layoff
from scorekeeper.records import ReplayedDeal, ReplayedMatch
from scorekeeper.results import Outcome
from scorekeeper.sheet import (
    OUTCOMES,
    AnyHandRecord,
    AnySheet,
    GameRecord,
    GameResult,
    HandBase,
    HollywoodResult,
    PartnershipHandRecord,
    Payment,
)
from scorekeeper.store.sheets import GameSheet, StoredHand

from .shapes import Shapes

HAND_RECORDS = (HandBase, GameRecord, PartnershipHandRecord)
"""The results whose ``outcome`` is a score sheet entry's (never ``tie``: :data:`OUTCOMES`)."""

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
    },
    flat={GameSheet: ("scored", {"minimal"}), StoredHand: ("record", ())},
    extra={
        GameResult: {"settlement": {"minItems": 2, "maxItems": 2}},
        **{kind: {"outcome": {"enum": [*OUTCOMES, None]}} for kind in HAND_RECORDS},
    },
    added={GameSheet: {"url": fields.String(required=True)}},
)
"""The shapes of the typed results the API answers with (see :mod:`api.shapes`)."""

VerifyResponse = SHAPES.schema(KnockResult)
DealResult = SHAPES.schema(ReplayedDeal)
MatchResult = SHAPES.schema(ReplayedMatch)
HandRecord = SHAPES.schema(StoredHand)
Sheet = SHAPES.schema(GameSheet)

SHOWDOWN_OUTCOMES = [outcome.value for outcome in Outcome]
"""A showdown's outcomes: also ``tie`` (a tied knock under ``tie: no_score``)."""


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


class PassedUp(ma.Schema):
    """A card on the discard pile that would have made a meld, not taken."""

    card = fields.String(required=True)
    meld = fields.List(fields.String(), required=True)
    deadwood_with_it = fields.Integer(
        required=True,
        metadata={
            "description": "The least deadwood taking it (and discarding the best card) leaves."
        },
    )


class Decision(ma.Schema):
    """One decision of a deal, measured from what the player held and had seen."""

    step = fields.Integer(required=True, metadata={"description": "Index into actions."})
    player = fields.Integer(required=True)
    action = fields.String(required=True)
    kind = fields.String(
        required=True, validate=validate.OneOf(["draw", "discard", "knock", "big_gin"])
    )
    deadwood = fields.Integer(metadata={"description": "Deadwood of the 10 cards kept."})
    best_deadwood = fields.Integer(
        metadata={"description": "The least any allowed discard would have kept."}
    )
    best_discards = fields.List(fields.String())
    cost = fields.Integer(metadata={"description": "deadwood - best_deadwood."})
    knock_available = fields.Integer(
        metadata={
            "description": "A plain discard when a knock was possible: the least deadwood a knock"
            " would have kept."
        }
    )
    gin_available = fields.Boolean(metadata={"description": "Gin was possible and not taken."})
    passed_up = fields.Nested(PassedUp)


class KnockerReview(ma.Schema):
    """The knocker's arrangement against the best legal one (against the best reply)."""

    player = fields.Integer(required=True)
    deadwood = fields.Integer(required=True)
    best_deadwood = fields.Integer(required=True)
    points = fields.Integer(required=True, metadata={"description": "+ won, - lost."})
    best_points = fields.Integer(required=True)
    cost = fields.Integer(required=True)


class DefenderReview(ma.Schema):
    """The defender's melds and layoffs against the best reply to the cards laid down."""

    player = fields.Integer(required=True)
    deadwood = fields.Integer(required=True)
    best_deadwood = fields.Integer(required=True)
    missed_layoffs = fields.List(fields.String(), required=True)
    points = fields.Integer(required=True)
    best_points = fields.Integer(required=True)
    cost = fields.Integer(required=True)


class ShowdownReview(ma.Schema):
    """Both sides of a showdown reviewed."""

    knocker = fields.Nested(KnockerReview, required=True)
    defender = fields.Nested(DefenderReview, required=True)


class PlayerSummary(ma.Schema):
    """What a player's decisions cost over a deal (or a match)."""

    player = fields.String(required=True)
    deadwood_given_away = fields.Integer(required=True)
    discards_off_best = fields.Integer(required=True)
    missed_melds = fields.Integer(required=True)
    missed_knocks = fields.Integer(required=True)
    missed_gins = fields.Integer(required=True)
    showdown_cost = fields.Integer(required=True)


class DealAnalysis(ma.Schema):
    """Where a deal was won or lost (scorekeeper.analyse)."""

    players = fields.List(fields.String(), required=True)
    dealer = fields.Integer(required=True)
    void = fields.Boolean(required=True)
    outcome = fields.String(
        required=True, allow_none=True, validate=validate.OneOf(SHOWDOWN_OUTCOMES)
    )
    points = fields.Integer(required=True)
    decisions = fields.List(fields.Nested(Decision), required=True)
    showdown = fields.Nested(ShowdownReview, required=True, allow_none=True)
    summary = fields.List(fields.Nested(PlayerSummary), required=True)


class MatchAnalysis(ma.Schema):
    """Each deal of a match analysed, and each player's summary over the match."""

    players = fields.List(fields.String(), required=True)
    deals = fields.List(fields.Nested(DealAnalysis), required=True)
    summary = fields.List(fields.Nested(PlayerSummary), required=True)


ANALYSE_RESPONSE = {
    "oneOf": [
        {"$ref": "#/components/schemas/DealAnalysis"},
        {"$ref": "#/components/schemas/MatchAnalysis"},
    ]
}
"""The analyse response: a deal's analysis or a match's."""

COMPONENTS = {
    **SHAPES.components(),
    "DealAnalysis": DealAnalysis,
    "MatchAnalysis": MatchAnalysis,
}
"""Schemas the OpenAPI document names without a view naming them directly."""
