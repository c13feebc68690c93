"""The OpenAPI documents of what a request may hold: the bounds, cards, rules and records.

Request schemas check shapes, types and sizes (every string and list has a
maximum length); the domain then checks the meaning (which cards, which rule
options) and names the field at fault. The document is as strict as the
validation all the same: it names a record's keys and their values
(:data:`DEAL_RECORD`, :data:`MATCH_RECORD`), every rule option and its values
(:data:`RULE_OPTIONS`), and the card grammar (:data:`CARDS`). The fields that
read these values are in :mod:`api.request_fields`.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.cards import CARD_NOTATION, CARD_SEPARATORS, SPACES
from scorekeeper.records import DEAL_FORMAT, MATCH_FORMAT
from scorekeeper.rules import BOOLEANS, CHOICES, MAX_POINTS, POINTS, Rules

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


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def one_of(key: str, components: dict[str, str]) -> dict[str, Any]:
    """The document of an object that is one of ``components`` by the value of its ``key``."""
    refs = {value: ref(name)["$ref"] for value, name in components.items()}
    return {
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": key, "mapping": refs},
    }


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

RULES = {"oneOf": [_rule_option("preset"), ref("RuleOptions")]}
"""The document of rules: a preset's name or a rules object (:class:`RulesOption`)."""


_NOTE = {"description": "A note (any JSON). " + RECORD_LIMITS}
_CARDS_AT_MOST = {"type": "array", "maxItems": MAX_LIST, "items": CARDS}
SHOWDOWN = {
    "type": "object",
    "description": "The showdown as played (each part left out: chosen optimally).",
    "properties": {
        "knocker_melds": _CARDS_AT_MOST,
        "defender_melds": _CARDS_AT_MOST,
        "layoffs": {"type": "array", "maxItems": MAX_LIST, "items": ref("Layoff")},
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
    "showdown": {"allOf": [ref("Showdown")], "nullable": True},
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
        "deals": {"type": "array", "maxItems": MAX_HANDS, "items": ref("MatchDeal")},
        "seed": _NOTE,
        "comment": _NOTE,
    },
    "required": ["format", "deals"],
    "additionalProperties": False,
}
"""The document of a match record."""
