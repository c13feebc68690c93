"""marshmallow schemas of the JSON API's requests: what a request body may hold.

Request schemas check shapes, types and sizes (every string and list has
a maximum length) and refuse unknown fields; the domain then checks the
meaning (which cards, which rule options) and names the field at fault.
Deal and match records are free-form JSON to this layer (the records
module checks them), so their size is bounded as JSON: strings of at most
:data:`MAX_TEXT` characters, lists of at most :data:`MAX_HANDS` items,
nesting at most :data:`MAX_DEPTH` deep. The OpenAPI document is as strict
as the validation all the same: it names a record's keys and their values
(:data:`DEAL_RECORD`, :data:`MATCH_RECORD`), every rule option and its
values (:data:`RULE_OPTIONS`), and shows a hand as one schema per kind
(:data:`COMPONENTS`), each with the fields its kind needs and may have.
The request body as a whole is limited too (``MAX_CONTENT_LENGTH``: 413).
The response schemas (for the OpenAPI document) are in :mod:`api.responses`,
the headers of writes in :mod:`api.headers`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any, ClassVar

import marshmallow as ma
from marshmallow import fields, validate

from scorekeeper.cards import CARD_NOTATION, CARD_SEPARATORS, SPACES
from scorekeeper.errors import RuleError
from scorekeeper.events import MAX_PLAYERS as MAX_EVENT_PLAYERS
from scorekeeper.events import Format
from scorekeeper.gamesheet import GameStatus
from scorekeeper.handinput import GAME_KINDS, MAX_DEADWOOD
from scorekeeper.names import MAX_NAME_LENGTH, REFUSED_IN_BMP, clean_name
from scorekeeper.records import DEAL_FORMAT, MATCH_FORMAT
from scorekeeper.rules import BOOLEANS, CHOICES, MAX_POINTS, POINTS, Rules
from scorekeeper.store.access import DEFAULT_PAGE, MAX_PAGE
from scorekeeper.store.exchange import EXPORT_FORMAT, EXPORT_VERSION

from .errors import domain_message

MAX_CARDS_TEXT = 400
"""Longest card text accepted ("As 2s 3s ..." with any separators and symbols)."""

MAX_LIST = 52
"""Most items in any list of cards, melds or layoffs."""

MAX_HANDS = 1000
"""Most hands (or deals) in an imported game."""

MAX_TEXT = 1000
"""Longest string anywhere in a record (a comment, a seed, a name, an action)."""

MAX_DEPTH = 8
"""Deepest nesting of lists and objects in a record (a match record needs 5)."""

MAX_IMPORT = 1_000_000
"""The longest text ``POST /imports/{source}`` takes (the body is bounded too: 413)."""

CARD_PATTERN = rf"^[{SPACES}]*{CARD_NOTATION}[{SPACES}]*$"
"""One card code: :data:`~scorekeeper.cards.CARD_NOTATION`, white space around it allowed.

The documented patterns are the domain's own grammar, so a request
outside them is always refused; the domain, not the pattern, checks the
cards, to name the card and its position in its message.
"""
_SEPARATORS = CARD_SEPARATORS.removesuffix("+")
CARDS_PATTERN = (
    rf"^{_SEPARATORS}*(?:{CARD_NOTATION}(?:{CARD_SEPARATORS}{CARD_NOTATION})*)?{_SEPARATORS}*$"
)
"""Cards as text: cards separated by white space, commas or semicolons
(:data:`~scorekeeper.cards.CARD_SEPARATORS`)."""

CARD_CODE = {"type": "string", "minLength": 1, "maxLength": 8, "pattern": CARD_PATTERN}

CARDS = {
    "oneOf": [
        {"type": "string", "maxLength": MAX_CARDS_TEXT, "pattern": CARDS_PATTERN},
        {"type": "array", "items": CARD_CODE, "maxItems": MAX_LIST},
    ],
    "description": 'Cards as text ("As 2s 3s", "10♥ J♥") or a list of codes.',
}
"""The document of cards (:class:`Cards`)."""

RECORD_LIMITS = (
    f"Strings of at most {MAX_TEXT} characters, lists of at most {MAX_HANDS}"
    f" items, nesting at most {MAX_DEPTH} deep."
)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


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
    """A record object, bounded by :func:`check_json_size`; the domain checks the rest.

    The document shows it as the component named ``document`` (see
    :data:`DEAL_RECORD`): the keys a record may have and their values.
    """

    def __init__(self, document: str, description: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.openapi = {"allOf": [_ref(document)], "description": description}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        result = super()._deserialize(value, attr, data, **kwargs)  # type: ignore[no-untyped-call]
        check_json_size(result)
        return result


class Cards(fields.Field[str | list[str]]):
    """Cards as text (``"As 2s 3s"``, ``"10♥ J♥"``) or a list of card codes."""

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("metadata", {})
        kwargs["metadata"] = {**CARDS, **kwargs["metadata"]}
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


def _whole(low: int, high: int, **more: Any) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high, **more}


def _rule_option(name: str) -> dict[str, Any]:
    """The document of rule option ``name``: what :class:`~scorekeeper.rules.Rules` takes."""
    if name == "preset":
        return {"type": "string", "enum": list(Rules.preset_names())}
    if name in CHOICES:
        return {"type": "string", "enum": list(CHOICES[name])}
    if name in BOOLEANS:
        return {"type": "boolean"}
    if name in POINTS:
        return _whole(0, MAX_POINTS)
    return {
        "knock_limit": _whole(0, 10),
        "target": _whole(1, MAX_POINTS),
        "big_gin_bonus": _whole(0, MAX_POINTS, nullable=True, description="null: not allowed."),
        "max_discard_draws": _whole(1, MAX_POINTS, nullable=True, description="null: no cap."),
    }[name]


RULE_OPTIONS = {
    "type": "object",
    "description": "Rule options on top of a preset (RULES.md section 9): each left out keeps"
    " the preset's value.",
    "properties": {name: _rule_option(name) for name in Rules().to_dict()},
    "additionalProperties": False,
}
"""The document of a rules object: every option with the values it takes, nothing else."""

RULES = {"oneOf": [_rule_option("preset"), _ref("RuleOptions")]}
"""The document of rules: a preset's name or a rules object (:class:`RulesOption`)."""


class RulesOption(fields.Field[Any]):
    """Rules: a preset name, or an object ``{"preset"?: name, option: value, ...}``."""

    def __init__(self, **kwargs: Any):
        kwargs["metadata"] = {
            **RULES,
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


_NOTE = {"description": "A note (any JSON). " + RECORD_LIMITS}
_CARDS_AT_MOST = {"type": "array", "maxItems": MAX_LIST, "items": CARDS}
SHOWDOWN = {
    "type": "object",
    "description": "The showdown as played (each part left out: chosen optimally).",
    "properties": {
        "knocker_melds": _CARDS_AT_MOST,
        "defender_melds": _CARDS_AT_MOST,
        "layoffs": {"type": "array", "maxItems": MAX_LIST, "items": _ref("Layoff")},
    },
    "additionalProperties": False,
}
"""The document of a deal record's ``showdown``."""

_DEAL_PROPERTIES: dict[str, Any] = {
    "format": {"type": "string", "enum": [DEAL_FORMAT]},
    "rules": {**RULES, "nullable": True},
    "players": {
        "type": "array",
        "minItems": 2,
        "maxItems": 2,
        "uniqueItems": True,
        "items": {"type": "string", "maxLength": MAX_TEXT, "pattern": f"[^{SPACES}]"},
        "nullable": True,
        "description": "Two different names (left out: player 0 and player 1).",
    },
    "dealer": {"type": "integer", "minimum": 0, "maximum": 1},
    "hands": {"type": "array", "minItems": 2, "maxItems": 2, "items": CARDS},
    "upcard": CARD_CODE,
    "stock": CARDS,
    "stock_complete": {"type": "boolean"},
    "deck": CARDS,
    "actions": {
        "type": "array",
        "maxItems": MAX_HANDS,
        "items": {"type": "string", "maxLength": MAX_TEXT},
    },
    "showdown": {"allOf": [_ref("Showdown")], "nullable": True},
    "seed": _NOTE,
    "comment": _NOTE,
}
DEAL_RECORD = {
    "type": "object",
    "description": f"A deal record ({DEAL_FORMAT}): hands, upcard and stock, or deck. "
    + RECORD_LIMITS,
    "properties": _DEAL_PROPERTIES,
    "required": ["format", "dealer", "actions"],
    "additionalProperties": False,
}
"""The document of a deal record: its keys (:mod:`scorekeeper.records`) and their values."""

MATCH_DEAL = {
    **DEAL_RECORD,
    "description": "A deal of a match record: a deal record without rules and players"
    " (the match's), its format optional.",
    "properties": {
        key: value for key, value in _DEAL_PROPERTIES.items() if key not in ("rules", "players")
    },
    "required": ["dealer", "actions"],
}
"""The document of a match record's deal."""

MATCH_RECORD = {
    "type": "object",
    "description": f"A match record ({MATCH_FORMAT}). " + RECORD_LIMITS,
    "properties": {
        "format": {"type": "string", "enum": [MATCH_FORMAT]},
        "rules": _DEAL_PROPERTIES["rules"],
        "players": _DEAL_PROPERTIES["players"],
        "deals": {"type": "array", "maxItems": MAX_HANDS, "items": _ref("MatchDeal")},
        "seed": _NOTE,
        "comment": _NOTE,
    },
    "required": ["format", "deals"],
    "additionalProperties": False,
}
"""The document of a match record."""


NAME_PATTERN = f"^[^{REFUSED_IN_BMP}]*[^{REFUSED_IN_BMP}{SPACES}][^{REFUSED_IN_BMP}]*$"
"""What a player name may hold, for the OpenAPI document (:func:`~scorekeeper.names.clean_name`:
no refused character, and not only spaces, which trim to nothing; the refused characters
beyond U+FFFF are said in :data:`NAME_DESCRIPTION`)."""

NAME_DESCRIPTION = (
    "A player's name. Refused besides what the pattern refuses: the default-ignorable"
    " characters beyond U+FFFF (U+1BCA0-1BCA3, U+1D173-1D17A, U+E0000-E0FFF: tag characters"
    " among them)."
)


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
            "description": NAME_DESCRIPTION,
            **kwargs.get("metadata", {}),
        }
        super().__init__(validate=validate.Length(1, MAX_NAME_LENGTH), **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        name = super()._deserialize(value, attr, data, **kwargs)
        try:
            clean_name(name)
        except RuleError as error:
            raise ma.ValidationError(domain_message(error, named=False)) from None
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


def _melds(description: str) -> fields.List[Any]:
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


def one_of(key: str, components: dict[str, str]) -> dict[str, Any]:
    """The document of an object that is one of ``components`` by the value of its ``key``."""
    refs = {value: _ref(name)["$ref"] for value, name in components.items()}
    return {
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": key, "mapping": refs},
    }


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
        _card(),
        allow_none=True,
        validate=validate.Length(2, MAX_PLAYERS),
        metadata={
            "description": "The card each player cut for the deal, in player order"
            " (first_dealer low or high, when no dealer is named): recorded and shown"
            " as the game's cut. Left out with the dealer too: the service cuts."
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


class NamePart(fields.String):
    """Part of a player's name: a player is found when each of its words begins a word of the
    name (letter case and accents aside: :func:`~scorekeeper.names.search_words`)."""

    def __init__(self, **kwargs: Any):
        kwargs["metadata"] = {
            "minLength": 1,
            "maxLength": MAX_NAME_LENGTH,
            **kwargs.get("metadata", {}),
        }
        kwargs["metadata"]["description"] += (
            " Each of its words begins a word of the name, in any order; letter case and"
            ' accents do not count ("zo", "NOV" and "novák" find "Zora Novak").'
        )
        super().__init__(validate=validate.Length(1, MAX_NAME_LENGTH), **kwargs)


class Day(fields.Date):
    """A day, ISO 8601 (``2025-05-03``), in UTC."""

    def __init__(self, **kwargs: Any):
        kwargs["metadata"] = {"maxLength": 10, **kwargs.get("metadata", {})}
        kwargs["metadata"]["description"] += " this day (ISO 8601, 2025-05-03; UTC)."
        super().__init__(format="iso", **kwargs)


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
    stake = fields.Float(
        load_default=None,
        allow_none=True,
        allow_nan=False,
        validate=validate.Range(0, 1_000_000),
        metadata={"description": "Money per point of each match (null: no settlement)."},
    )


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
