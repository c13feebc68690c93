"""The fields of the API's request schemas: cards, records, rules, player names, days, flags.

Each field bounds what it reads (lengths, counts, nesting: the bounds of
:mod:`api.request_docs`, whose documents the fields show) and passes it on
as sent; the domain checks the meaning and names the field at fault.
Deal and match records are free-form JSON to this layer (the records
module checks them), so their size is bounded as JSON by
:func:`check_json_size`: strings of at most :data:`~api.request_docs.MAX_TEXT`
characters, lists of at most :data:`~api.request_docs.MAX_HANDS` items,
nesting at most :data:`~api.request_docs.MAX_DEPTH` deep.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from scorekeeper.cards import SPACES
from scorekeeper.errors import RuleError
from scorekeeper.names import MAX_NAME_LENGTH, REFUSED_IN_BMP, clean_name

from .errors import domain_message
from .request_docs import (
    CARD_PATTERN,
    CARDS,
    MAX_CARDS_TEXT,
    MAX_DEPTH,
    MAX_HANDS,
    MAX_LIST,
    MAX_TEXT,
    RULE_KEYS,
    RULES,
    ref,
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
    """A record object, bounded by :func:`check_json_size`; the domain checks the rest.

    The document shows it as the component named ``document`` (see
    :data:`DEAL_RECORD`): the keys a record may have and their values.
    """

    def __init__(self, document: str, description: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.openapi = {"allOf": [ref(document)], "description": description}

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


def card_field(**kwargs: Any) -> fields.String:
    """One card code (checked by the domain; see :data:`~api.request_docs.CARD_PATTERN`)."""
    kwargs["metadata"] = {"pattern": CARD_PATTERN, **kwargs.get("metadata", {})}
    return fields.String(validate=validate.Length(1, 8), **kwargs)


def upcard_field() -> fields.String:
    """The deal's first upcard, or null."""
    return card_field(
        allow_none=True, metadata={"description": "The deal's first upcard (Oklahoma)."}
    )


def melds_field(description: str) -> fields.List[Any]:
    return fields.List(
        Cards(),
        validate=validate.Length(max=MAX_LIST),
        allow_none=True,
        metadata={"description": description},
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


class Flag(fields.Boolean):
    """JSON's ``true`` or ``false``, nothing else (the document's ``boolean``).

    marshmallow's Boolean reads ``0``, ``1``, ``"yes"``, ``"on"`` and the like as one of
    the two, and a ``truthy``/``falsy`` of ``{True}``/``{False}`` does not stop it: ``0``
    and ``1`` equal ``False`` and ``True`` in a Python set.
    """

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class Number(fields.Float):
    """A JSON number, nothing else (the document's ``number``): marshmallow's Float reads
    the string ``"0.05"`` as 0.05."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid", input=value)
        return float(super()._deserialize(value, attr, data, **kwargs))  # its range, NaN


def stake_field(description: str) -> Number:
    """Money per point, or null (no settlement)."""
    return Number(
        load_default=None,
        allow_none=True,
        allow_nan=False,
        validate=validate.Range(0, 1_000_000),
        metadata={"description": description},
    )
