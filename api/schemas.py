"""marshmallow schemas of the JSON API: what requests may hold and what responses hold.

Request schemas check shapes, types and sizes (every string and list has
a maximum length) and refuse unknown fields; the domain then checks the
meaning (which cards, which rule options) and names the field at fault.
Deal and match records are free-form JSON to this layer (the records
module checks them), so their size is bounded as JSON: strings of at most
:data:`MAX_TEXT` characters, lists of at most :data:`MAX_HANDS` items,
nesting at most :data:`MAX_DEPTH` deep. The request body as a whole is
limited too (``MAX_CONTENT_LENGTH``: 413).
Response schemas document what the domain returns; the OpenAPI document
is built from them.
"""

from __future__ import annotations

import re
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from scorekeeper.errors import RuleError
from scorekeeper.names import MAX_NAME_LENGTH, REFUSED_CHARACTERS, clean_name
from scorekeeper.records import DEAL_FORMAT, MATCH_FORMAT
from scorekeeper.results import Side
from scorekeeper.rules import Rules
from scorekeeper.sheet import OUTCOMES
from scorekeeper.store.access import DEFAULT_PAGE, MAX_PAGE
from scorekeeper.store.games import EXPORT_FORMAT, EXPORT_VERSION
from scorekeeper.store.hands import GAME_KINDS, MAX_DEADWOOD
from scorekeeper.store.sheets import GameStatus

MAX_CARDS_TEXT = 400
"""Longest card text accepted ("As 2s 3s ..." with any separators and symbols)."""

MAX_LIST = 52
"""Most items in any list of cards, melds or layoffs."""

MAX_KEY = 200
"""Longest ``Idempotency-Key`` header."""

MAX_HANDS = 1000
"""Most hands (or deals) in an imported game."""

MAX_TEXT = 1000
"""Longest string anywhere in a record (a comment, a seed, a name, an action)."""

MAX_DEPTH = 8
"""Deepest nesting of lists and objects in a record (a match record needs 5)."""

MAX_IMPORT = 1_000_000
"""The longest text ``POST /imports/{source}`` takes (the body is bounded too: 413)."""

_SPACE = r"\s\x1c-\x1f\x85"  # what Python counts as white space, in a JSON Schema class
_CARD = r"(?:10|[2-9aAtTjJqQkK])[cdhsCDHS♣♦♥♠]\ufe0f?"
CARD_PATTERN = rf"^[{_SPACE}]*{_CARD}[{_SPACE}]*$"
"""The card notation (a rank A 2-9 T or 10 J Q K and a suit c d h s or ♣ ♦ ♥ ♠, any case).

The documented patterns admit everything the domain parses, so a request
outside them is always refused; the domain, not the pattern, checks the
cards, to name the card and its position in its message.
"""
CARDS_PATTERN = rf"^[{_SPACE},;]*(?:{_CARD}(?:[{_SPACE},;]+{_CARD})*)?[{_SPACE},;]*$"
"""Cards as text: card codes separated by white space, commas or semicolons."""

CARD_CODE = {"type": "string", "minLength": 1, "maxLength": 8, "pattern": CARD_PATTERN}

RECORD_LIMITS = (
    f"Strings of at most {MAX_TEXT} characters, lists of at most {MAX_HANDS}"
    f" items, nesting at most {MAX_DEPTH} deep."
)


def check_json_size(value: Any, path: str = "", depth: int = 0) -> None:
    """Refuse free-form JSON with a string, a list or a nesting deeper than the limits.

    The message names where, as a dotted path inside ``value``.
    """
    where = f" at {path}" if path else ""
    if depth > MAX_DEPTH:
        raise ma.ValidationError(f"nested more than {MAX_DEPTH} deep{where}")
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise ma.ValidationError(f"text longer than {MAX_TEXT} characters{where}")
    if isinstance(value, list):
        if len(value) > MAX_HANDS:
            raise ma.ValidationError(f"a list of more than {MAX_HANDS} items{where}")
        for i, item in enumerate(value):
            check_json_size(item, f"{path}.{i}" if path else str(i), depth + 1)
    if isinstance(value, dict):
        for key, item in value.items():
            check_json_size(key, path, depth + 1)
            check_json_size(item, f"{path}.{key}" if path else str(key), depth + 1)


class Record(fields.Dict):
    """A deal record (or any record object), bounded by :func:`check_json_size`."""

    def __init__(self, **kwargs: Any):
        kwargs["metadata"] = {"maxProperties": 20, **kwargs.get("metadata", {})}
        kwargs["metadata"]["description"] = (
            kwargs["metadata"].get("description", "A record.") + " " + RECORD_LIMITS
        )
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        result = super()._deserialize(value, attr, data, **kwargs)
        check_json_size(result)
        return result


class Cards(fields.Field):
    """Cards as text (``"As 2s 3s"``, ``"10♥ J♥"``) or a list of card codes."""

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("metadata", {})
        kwargs["metadata"] = {
            "oneOf": [
                {"type": "string", "maxLength": MAX_CARDS_TEXT, "pattern": CARDS_PATTERN},
                {"type": "array", "items": CARD_CODE, "maxItems": MAX_LIST},
            ],
            "description": 'Cards as text ("As 2s 3s", "10♥ J♥") or a list of codes.',
            **kwargs["metadata"],
        }
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str):
            if len(value) > MAX_CARDS_TEXT:
                raise ma.ValidationError(f"card text is longer than {MAX_CARDS_TEXT} characters")
            return value
        if isinstance(value, list):
            if len(value) > MAX_LIST:
                raise ma.ValidationError(f"more than {MAX_LIST} cards")
            for position, item in enumerate(value, 1):
                if not isinstance(item, str) or not 1 <= len(item) <= 8:
                    raise ma.ValidationError(
                        f'card at position {position} must be a card code like "Ts", not {item!r}'
                    )
            return value
        raise ma.ValidationError('cards must be text like "As 2s 3s" or a list of card codes')


RULE_KEYS = len(Rules().to_dict())
"""The most keys a rules object may have: ``preset`` and every option."""

RULE_VALUE = (
    "A rule option's value: text of at most 20 characters, a whole number,"
    " true/false or null (any JSON in the document: generated clients cannot"
    " read a oneOf of plain types as a map's values)."
)


class RulesOption(fields.Field):
    """Rules: a preset name, or an object ``{"preset"?: name, option: value, ...}``."""

    def __init__(self, **kwargs: Any):
        kwargs["metadata"] = {
            "oneOf": [
                {"type": "string", "enum": list(Rules.preset_names())},
                {
                    "type": "object",
                    "nullable": True,
                    "maxProperties": RULE_KEYS,
                    "additionalProperties": {"description": RULE_VALUE},
                },
            ],
            "description": "A rule preset name, or an object of rule options on top of"
            " a preset (RULES.md section 9); null (as if left out): the"
            " standard rules.",
            **kwargs.get("metadata", {}),
        }
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and len(value) <= 20:
            return value
        if (
            isinstance(value, dict)
            and len(value) <= RULE_KEYS
            and all(
                isinstance(v, str | int | bool | None) and not (isinstance(v, str) and len(v) > 20)
                for v in value.values()
            )
        ):
            return value
        raise ma.ValidationError(
            "rules must be a preset name or an object of rule options"
            " (strings, whole numbers, true/false or null)"
        )


NAME_PATTERN = f"^[^{REFUSED_CHARACTERS}]*$"
"""What a player name may hold, for the OpenAPI document (:func:`~scorekeeper.names.clean_name`)."""


class PlayerName(fields.String):
    """A player name, refused as :func:`~scorekeeper.names.clean_name` refuses it.

    The name is passed on as sent (the domain cleans it); the message is
    the domain's, the field the name's place in the request (``players.1``).
    """

    def __init__(self, **kwargs: Any):
        kwargs["metadata"] = {
            "minLength": 1,
            "maxLength": MAX_NAME_LENGTH,
            "pattern": NAME_PATTERN,
            **kwargs.get("metadata", {}),
        }
        super().__init__(validate=validate.Length(1, MAX_NAME_LENGTH), **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        name = super()._deserialize(value, attr, data, **kwargs)
        try:
            clean_name(name)
        except RuleError as error:
            raise ma.ValidationError(str(error)) from None
        return name


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
        if not isinstance(data, dict):
            return data
        nullable = {
            field.data_key or name for name, field in self.load_fields.items() if field.allow_none
        }
        return {
            key: value for key, value in data.items() if not (value is None and key in nullable)
        }


def _card(**kwargs: Any) -> fields.String:
    """One card code (checked by the domain; see :data:`CARD_PATTERN`)."""
    kwargs["metadata"] = {"pattern": CARD_PATTERN, **kwargs.get("metadata", {})}
    return fields.String(validate=validate.Length(1, 8), **kwargs)


def _upcard() -> fields.String:
    return _card(allow_none=True, metadata={"description": "The deal's first upcard (Oklahoma)."})


def _melds(description: str) -> fields.List:
    return fields.List(
        Cards(),
        validate=validate.Length(max=MAX_LIST),
        allow_none=True,
        metadata={"description": description},
    )


class Layoff(Strict):
    """One defender card laid off on a knocker meld."""

    card = _card(required=True)
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
    layoffs = fields.List(
        fields.Nested(Layoff),
        validate=validate.Length(max=MAX_LIST),
        allow_none=True,
        metadata={"description": "Declared layoffs (default: optimal)."},
    )


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
    best_deadwood = fields.Integer(
        required=True, metadata={"description": "What an optimal defender would have had."}
    )


class Breakdown(ma.Schema):
    """Points = (difference + bonus) x multiplier."""

    difference = fields.Integer(required=True)
    bonus = fields.Integer(required=True)
    multiplier = fields.Integer(required=True)


def _outcome(**kwargs: Any) -> fields.String:
    return fields.String(validate=validate.OneOf(OUTCOMES), **kwargs)


def _showdown_outcome(**kwargs: Any) -> fields.String:
    """A scored showdown's outcome: also ``tie`` (a tied knock under ``tie: no_score``)."""
    return fields.String(validate=validate.OneOf([*OUTCOMES, "tie"]), **kwargs)


class VerifyResponse(ma.Schema):
    """A checked and scored knock."""

    outcome = _showdown_outcome(required=True)
    winner = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(list(Side)),
        metadata={"description": "null for a tie that scores nothing"},
    )
    points = fields.Integer(required=True)
    knocker = fields.Nested(KnockerSide, required=True)
    defender = fields.Nested(DefenderSide, required=True)
    breakdown = fields.Nested(Breakdown, required=True)


# --------------------------------------------------------------------------- games

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

MAX_PLAYERS = 4
"""The most players at a table (RULES.md section 8: two, three, or two partnerships)."""


class GameHand(Strict):
    """The hand of one game of a four-player deal: kind quick, cards or void.

    The fields are those of a hand of the same kind (see ``HandRequest``);
    ``knocker`` is one of that game's two players (the deal's ``next_games``).
    """

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
    big_gin = fields.Boolean()
    upcard = _upcard()
    knocker_cards = Cards(metadata={"description": "10 cards (11 for big gin)."})
    defender_cards = Cards(metadata={"description": "10 cards."})
    knocker_melds = _melds("The knocker's declared melds (default: the best legal ones).")
    defender_melds = _melds("The defender's declared melds (default: optimal).")
    layoffs = fields.List(
        fields.Nested(Layoff), validate=validate.Length(max=MAX_LIST), allow_none=True
    )

    @ma.validates_schema
    def _fields_of_kind(self, data: dict, **kwargs: Any) -> None:
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

    kind = fields.String(required=True, validate=validate.OneOf(list(HAND_FIELDS)))
    record = Record(
        metadata={"description": "A deal record (see the replay endpoint); two players only."}
    )
    games = fields.List(
        fields.Nested(GameHand),
        validate=validate.Length(2, 2),
        metadata={
            "description": "Four players, kind deal: the hand of each game of the deal (kind"
            " quick, cards or void), in the order of the sheet's next_games."
        },
    )


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
        load_default=0,
        validate=validate.Range(0, MAX_PLAYERS - 1),
        metadata={
            "description": "The first dealer's player index (four"
            " players: any player of the first dealing team)."
        },
    )
    stake = fields.Float(
        load_default=None,
        allow_none=True,
        allow_nan=False,
        validate=validate.Range(0, 1_000_000),
        metadata={"description": "Money per point (null: no settlement)."},
    )


class ImportRequest(GameRequest):
    """``POST /games/import``: an exported game, or an engine match record.

    An exported game (``GET /games/{id}/export``, format ``scorekeeper.game``)
    has players, rules, dealer, stake and hands; a match record (format
    ``gin-rummy-match/1``) has players, rules and deals.
    """

    players = fields.List(PlayerName(), validate=validate.Length(2, MAX_PLAYERS))
    format = fields.String(validate=validate.OneOf([EXPORT_FORMAT, MATCH_FORMAT]))
    version = fields.Integer(strict=True, validate=validate.OneOf([EXPORT_VERSION]))
    created = fields.String(
        validate=validate.Length(max=40),
        metadata={"description": "Ignored: the import is a new game."},
    )
    hands = fields.List(fields.Nested(HandRequest), validate=validate.Length(max=MAX_HANDS))
    deals = fields.List(
        Record(),
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


class RecordRequest(ma.Schema):
    """``POST /replay``: a deal record (``gin-rummy-deal/1``) or a match record.

    The engine checks every other key (see the records module); the sizes
    are bounded as for every record (:func:`check_json_size`).
    """

    class Meta:
        unknown = ma.INCLUDE

    format = fields.String(required=True, validate=validate.OneOf([DEAL_FORMAT, MATCH_FORMAT]))

    @ma.validates_schema(pass_original=True)
    def _size(self, data: dict, original: Any, **kwargs: Any) -> None:
        check_json_size(original)


IF_MATCH = r'^(\*|"[0-9]{1,9}"|[0-9]{1,9})$'
"""What ``If-Match`` may hold: ``*``, the sheet's ETag (``"7"``) or its version (``7``)."""


class IfMatch(fields.Field):
    """The ``If-Match`` header: the version the change is based on (``None`` for ``*``)."""

    def __init__(self, **kwargs: Any):
        kwargs["metadata"] = {
            "type": "string",
            "pattern": IF_MATCH,
            "maxLength": 11,
            "description": "The ETag of the sheet the change is based on (GET /games/{id}"
            ' gives it; "7" or 7 for version 7): when the game has changed'
            " since, the change is refused with 409 (code stale) and nothing"
            " is written. * (or no header) writes whatever the version.",
            **kwargs.get("metadata", {}),
        }
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, str) or not re.fullmatch(IF_MATCH, value.strip()):
            raise ma.ValidationError(
                'If-Match must be the sheet\'s ETag (like "7", from GET'
                " /games/{id}), its version number, or *"
            )
        text = value.strip()
        return None if text == "*" else int(text.strip('"'))


class PreferMinimal(fields.Field):
    """The ``Prefer`` header (RFC 7240): true when it holds ``return=minimal``."""

    def __init__(self, **kwargs: Any):
        kwargs["metadata"] = {
            "type": "string",
            "maxLength": 200,
            "description": "return=minimal: answer with the hand only (sheet null), for"
            " long games on slow links; the ETag still gives the version.",
            **kwargs.get("metadata", {}),
        }
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, str) or len(value) > 200:
            raise ma.ValidationError("Prefer must be at most 200 characters")
        return any(
            part.split(";")[0].replace(" ", "").lower() == "return=minimal"
            for part in value.split(",")
        )


class KeyHeader(ma.Schema):
    """The optional ``Idempotency-Key`` header of a write (a create, too)."""

    class Meta:
        unknown = ma.EXCLUDE

    key = fields.String(
        data_key="Idempotency-Key",
        validate=validate.Length(1, MAX_KEY),
        metadata={
            "description": "Repeating a request with the same key"
            " writes nothing and returns the first answer again (the"
            " same status and body; header Idempotent-Replayed: true on"
            " a repeated hand). Another request with a used key is a 422"
            " (idempotency_key_reused). Use a random UUID per request:"
            " a repeated create gives the game's edit token again."
        },
    )


class WriteHeaders(KeyHeader):
    """The optional ``Idempotency-Key``, ``If-Match`` and ``Prefer`` headers of a write."""

    version = IfMatch(data_key="If-Match")
    minimal = PreferMinimal(data_key="Prefer")


class Settlement(ma.Schema):
    """Who pays whom, at the stake."""

    payer = fields.Integer(required=True)
    payee = fields.Integer(required=True)
    amount = fields.Float(required=True)


SETTLEMENT = "#/components/schemas/Settlement"


class Settlements(fields.Field):
    """``result.settlement``: null (no stake), a payment, or with three players a list of two."""

    def __init__(self, **kwargs: Any):
        kwargs["metadata"] = {
            "oneOf": [
                {"allOf": [{"$ref": SETTLEMENT}], "nullable": True},
                {"type": "array", "items": {"$ref": SETTLEMENT}, "minItems": 2, "maxItems": 2},
            ],
            "description": "null without a stake; else who pays whom: one payment, or with"
            " three players a list of two (each loser pays the winner).",
            **kwargs.get("metadata", {}),
        }
        super().__init__(**kwargs)


class GameResult(ma.Schema):
    """The end of a game (or of a Hollywood match): bonuses, finals, net, settlement.

    Sides are players, or teams with four players. Three players: ``loser``
    is null and ``losers`` lists both.
    """

    winner = fields.Integer(required=True, allow_none=True)
    loser = fields.Integer(required=True, allow_none=True)
    losers = fields.List(fields.Integer(), required=True)
    totals = fields.List(fields.Integer(), required=True)
    game_bonus = fields.Integer()
    game_bonuses = fields.List(fields.Integer())
    box_bonus = fields.List(fields.Integer(), required=True)
    shutout = fields.Boolean()
    shut_out = fields.List(
        fields.Integer(),
        metadata={
            "description": "The losers who won no hand: the shutout doubling applies against each"
            " on its own (three players: see the sheet's rules)."
        },
    )
    shutouts = fields.List(fields.Boolean())
    column_winners = fields.List(fields.Integer())
    final = fields.List(fields.Integer(), required=True)
    net = fields.Integer(required=True)
    nets = fields.List(fields.Integer(), required=True)
    stake = fields.Float(required=True, allow_none=True)
    settlement = Settlements(required=True)


class Column(ma.Schema):
    """One of the three Hollywood games."""

    game = fields.Integer(required=True)
    totals = fields.List(fields.Integer(), required=True)
    boxes = fields.List(fields.Integer(), required=True)
    needed = fields.List(fields.Integer(), required=True)
    opened = fields.List(fields.Boolean(), required=True)
    over = fields.Boolean(required=True)
    result = fields.Nested(GameResult, required=True, allow_none=True)


class GameSeat(ma.Schema):
    """One game of a four-player deal: its two players and its dealer."""

    game = fields.Integer(required=True, metadata={"description": "1 or 2."})
    players = fields.List(fields.Integer(), required=True)
    dealer = fields.Integer(required=True)


class GameRecord(GameSeat):
    """One game of a four-player deal, scored (players, not teams)."""

    void = fields.Boolean(required=True)
    winner = fields.Integer(required=True, allow_none=True)
    loser = fields.Integer(required=True, allow_none=True)
    outcome = _outcome(required=True, allow_none=True)
    points = fields.Integer(required=True)


class HandRecord(ma.Schema):
    """One hand on the sheet: who won what, the running totals, and where it came from.

    Four players: a deal, whose ``winner``/``loser`` are teams (the team with
    more ``team_points`` and the other), ``points`` the margin and ``outcome``
    null; its ``games`` say who won what.
    """

    n = fields.Integer(required=True)
    seq = fields.Integer(
        required=True,
        metadata={"description": "The log entry that gave this hand its current content."},
    )
    kind = fields.String(required=True, validate=validate.OneOf(list(HAND_FIELDS)))
    dealer = fields.Integer(required=True)
    void = fields.Boolean(required=True)
    winner = fields.Integer(required=True, allow_none=True)
    loser = fields.Integer(required=True, allow_none=True)
    outcome = _outcome(required=True, allow_none=True)
    points = fields.Integer(required=True)
    totals = fields.List(fields.Integer(), required=True)
    game_over_after = fields.Boolean(required=True)
    corrected = fields.Boolean(required=True)
    input = fields.Dict(required=True, metadata={"description": "The hand as submitted."})
    detail = fields.Dict(
        required=True,
        allow_none=True,
        metadata={"description": "The scoring behind it (verify or replay result); null if void."},
    )
    columns = fields.List(fields.Integer(), metadata={"description": "Hollywood only."})
    opened = fields.Integer(allow_none=True, metadata={"description": "Hollywood only."})
    closed = fields.List(fields.Integer(), metadata={"description": "Hollywood only."})
    column_totals = fields.List(
        fields.List(fields.Integer()), metadata={"description": "Hollywood only."}
    )
    sits_out = fields.Integer(
        metadata={"description": "Three players only: the dealer, who sat out."}
    )
    dealer_team = fields.Integer(metadata={"description": "Four players only."})
    team_points = fields.List(
        fields.Integer(),
        metadata={"description": "Four players only: the points of the games each team won."},
    )
    games = fields.List(
        fields.Nested(GameRecord),
        metadata={"description": "Four players only: the deal's two games."},
    )


class Sheet(ma.Schema):
    """A stored game's score sheet, always derived from its hand log."""

    id = fields.String(required=True)
    url = fields.String(required=True)
    created = fields.String(required=True)
    updated = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "over"]))
    version = fields.Integer(required=True, metadata={"description": "Log entries so far."})
    players = fields.List(fields.String(), required=True)
    rules = fields.Dict(required=True, metadata={"description": "Every rule option."})
    scoring = fields.String(required=True)
    stake = fields.Float(required=True, allow_none=True)
    dealer = fields.Integer(required=True, metadata={"description": "The first dealer."})
    hands = fields.List(fields.Nested(HandRecord), required=True)
    totals = fields.List(fields.Integer(), required=True)
    boxes = fields.List(fields.Integer(), required=True)
    needed = fields.List(fields.Integer(), required=True)
    next_dealer = fields.Integer(required=True)
    over = fields.Boolean(required=True)
    result = fields.Nested(GameResult, required=True, allow_none=True)
    columns = fields.List(fields.Nested(Column), metadata={"description": "Hollywood only."})
    opened = fields.List(fields.List(fields.Integer()), metadata={"description": "Hollywood only."})
    teams = fields.List(
        fields.List(fields.Integer()),
        metadata={
            "description": "Four players only: the partnerships, [[0, 2], [1, 3]]; totals,"
            " boxes, needed and the result are per team."
        },
    )
    next_games = fields.List(
        fields.Nested(GameSeat),
        metadata={
            "description": "Four players only: the next deal's two games, in the order a deal's"
            " games are entered."
        },
    )


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


class DealResult(ma.Schema):
    """A replayed deal: the showdown (as verify gives it) and how the deal went."""

    outcome = _showdown_outcome(required=True, allow_none=True)
    winner = fields.String(
        required=True, allow_none=True, validate=validate.OneOf(["knocker", "defender"])
    )
    points = fields.Integer(required=True)
    knocker = fields.Nested(KnockerSide, required=True, allow_none=True)
    defender = fields.Nested(DefenderSide, required=True, allow_none=True)
    breakdown = fields.Nested(Breakdown, required=True, allow_none=True)
    void = fields.Boolean(required=True)
    knocker_player = fields.Integer(required=True, allow_none=True)
    winner_player = fields.Integer(required=True, allow_none=True)
    next_dealer = fields.Integer(required=True)
    stock_left = fields.Integer(required=True)
    players = fields.List(fields.String(), required=True)
    dealer = fields.Integer(required=True)
    upcard = fields.String(required=True)
    knock_limit = fields.Integer(required=True)
    discard = fields.String(required=True, allow_none=True)
    actions = fields.Integer(required=True, metadata={"description": "Actions played."})
    dealt = fields.List(
        fields.List(fields.String()), metadata={"description": "Each player's 10 cards as dealt."}
    )
    hands = fields.List(
        fields.List(fields.String()), metadata={"description": "Each player's cards at the end."}
    )


class MatchResult(ma.Schema):
    """A replayed match: each deal's result and the match's score sheet."""

    deals = fields.List(fields.Nested(DealResult), required=True)
    sheet = fields.Dict(required=True, metadata={"description": "The score sheet."})


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
    outcome = _showdown_outcome(required=True, allow_none=True)
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
    "Settlement": Settlement,
    "DealResult": DealResult,
    "MatchResult": MatchResult,
    "DealAnalysis": DealAnalysis,
    "MatchAnalysis": MatchAnalysis,
}
"""Schemas the OpenAPI document names without a view naming them directly."""


class GameListQuery(Strict):
    """The query of ``GET /api/v1/games``: the page wanted and the filters."""

    limit = fields.Integer(
        load_default=DEFAULT_PAGE,
        validate=validate.Range(1, MAX_PAGE),
        metadata={"description": f"Games on the page (default {DEFAULT_PAGE})."},
    )
    cursor = fields.String(
        validate=validate.Length(1, MAX_KEY),
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
            " offset, UTC)."
        },
    )


class GameSummary(ma.Schema):
    """A game as a listing shows it."""

    id = fields.String(required=True)
    url = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "over"]))
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


class NewToken(ma.Schema):
    """A game's new edit token (shown only now; the one sent no longer works)."""

    id = fields.String(required=True)
    edit_token = fields.String(
        required=True,
        metadata={
            "description": "Send as Authorization: Bearer <token> to write; it is not stored."
        },
    )
