"""The checks of a record's parts (issue 3): its keys, format, rules, players and cards.

Each check takes a value of a deal or match record (see
:mod:`scorekeeper.records`) and returns it read, or raises
:class:`~scorekeeper.errors.RecordError` naming the key at fault: an
unknown key, a wrong ``format``, bad ``rules`` or ``players``, a ``dealer``
that is no index into the players, cards that are not a deck (given as
``hands``, ``upcard`` and ``stock``, or as a ``deck`` dealt), a
``showdown`` with keys it does not have.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .cards import Card, parse_card, parse_cards
from .dealing import deal_cards
from .errors import CardError, InvalidRecordError, RecordError, RuleError
from .rules import PRESETS, Rules

SHOWDOWN_KEYS = ("knocker_melds", "defender_melds", "layoffs")
"""The parts of a record's showdown."""

CARD_KEYS = ("hands", "upcard", "stock")
"""The keys of a record's cards, when they are not given as a ``deck``."""

NOTE_KEYS = ("seed", "comment")
"""The keys of a record's notes."""

DEAL_KEYS = (
    "format",
    "rules",
    "players",
    "dealer",
    *CARD_KEYS,
    "stock_complete",
    "deck",
    "actions",
    "showdown",
    *NOTE_KEYS,
)
"""The keys of a deal record."""

MATCH_DEAL_KEYS = tuple(k for k in DEAL_KEYS if k not in ("rules", "players"))
"""The keys of a deal of a match record (its rules and players are the match's)."""

MATCH_KEYS = ("format", "rules", "players", "deals", *NOTE_KEYS)
"""The keys of a match record."""


def check_format(record: Mapping[str, Any], kind: str) -> None:
    """Raise :class:`InvalidRecordError` (``bad_format``) unless the record's ``format`` is
    ``kind``."""
    if record.get("format") != kind:
        raise InvalidRecordError(
            f"format must be {kind!r}, not {record.get('format')!r}",
            code="bad_format",
            params={"format": record.get("format")},
            field="format",
        )


def check_keys(
    record: Mapping[str, Any], allowed: Sequence[str], what: str, prefix: str = ""
) -> None:
    """Raise :class:`InvalidRecordError` (``unknown_key``) for a key of ``record`` not in
    ``allowed`` (``what`` names the record in the message)."""
    for key in record:
        if key not in allowed:
            raise InvalidRecordError(
                f"{prefix}unknown key {key!r} in {what}; allowed: {', '.join(allowed)}",
                code="unknown_key",
                params={"key": str(key)},
                field=str(key),
            )


def record_rules(value: Any) -> Rules:
    """A record's ``rules``: a preset's name, or a preset and its changes (``None``: the
    standard preset)."""
    if value is None:
        return PRESETS["standard"]
    if isinstance(value, Mapping) and not all(isinstance(key, str) for key in value):
        raise InvalidRecordError(
            "rules: option names must be text", code="bad_rules", field="rules"
        )
    try:
        return Rules.from_dict(dict(value) if isinstance(value, Mapping) else value)
    except RuleError as error:
        raise RecordError.restating(error, f"rules: {error}", field="rules") from error


def record_players(value: Any) -> tuple[str, ...]:
    """A record's ``players``: two different names."""
    if isinstance(value, str) or not isinstance(value, Sequence) or len(value) != 2:
        raise InvalidRecordError(
            "players must be a list of two names", code="bad_players", field="players"
        )
    for i, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            raise InvalidRecordError(
                f"players[{i}] must be a non-empty name, not {name!r}",
                code="bad_players",
                field="players",
            )
    if value[0] == value[1]:
        raise InvalidRecordError(
            "the two players must have different names", code="bad_players", field="players"
        )
    return tuple(value)


def record_dealer(record: Mapping[str, Any]) -> int:
    """The dealer of a deal record: 0 or 1, an index into its players."""
    if "dealer" not in record:
        raise InvalidRecordError(
            "dealer is missing: the index of the dealer in players (0 or 1)",
            code="missing_value",
            params={"key": "dealer"},
            field="dealer",
        )
    dealer = record["dealer"]
    if type(dealer) is not int or dealer not in (0, 1):
        raise InvalidRecordError(
            f"dealer must be 0 or 1 (an index into players), not {dealer!r}",
            code="bad_value",
            params={"key": "dealer", "value": dealer},
            field="dealer",
        )
    return dealer


def dealt_cards(
    record: Mapping[str, Any], dealer: int, complete: bool
) -> tuple[Sequence[Sequence[Card]], Card, Sequence[Card]]:
    """The hands, upcard and stock of a deal record: dealt from its ``deck``, or as given
    (its ``hands``, ``upcard`` and ``stock``, all of it when ``complete``), each card once."""
    if "deck" in record:
        given = [key for key in (*CARD_KEYS, "stock_complete") if key in record]
        if given:
            raise InvalidRecordError(
                f"give either deck or hands, upcard and stock, not deck and {', '.join(given)}",
                code="deck_and_hands",
                params={"keys": given},
                field="deck",
            )
        return deal_cards(_cards(record["deck"], 52, "deck"), dealer)
    missing = [key for key in CARD_KEYS if key not in record]
    if missing:
        raise InvalidRecordError(
            f"{', '.join(missing)} missing: give hands, upcard and stock, or deck",
            code="missing_value",
            params={"keys": missing},
            field=missing[0],
        )
    raw = record["hands"]
    if isinstance(raw, str) or not isinstance(raw, Sequence) or len(raw) != 2:
        raise InvalidRecordError(
            "hands must be a list of two hands of 10 cards", code="bad_cards", field="hands"
        )
    hands = [_cards(raw[0], 10, "hands[0]"), _cards(raw[1], 10, "hands[1]")]
    upcard = _card(record["upcard"], "upcard")
    stock = _cards(record["stock"], 31 if complete else range(32), "stock")
    _check_deck(
        (
            ("hands[0]", hands[0]),
            ("hands[1]", hands[1]),
            ("upcard", (upcard,)),
            ("stock", stock),
        )
    )
    return hands, upcard, stock


def declared_showdown(record: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The showdown a deal record declares (its keys checked), or None."""
    showdown = record.get("showdown")
    if showdown is not None:
        if not isinstance(showdown, Mapping):
            raise InvalidRecordError(
                "showdown must be an object with knocker_melds, defender_melds"
                " and layoffs (each optional)",
                code="bad_showdown",
                field="showdown",
            )
        check_keys(showdown, SHOWDOWN_KEYS, "showdown", prefix="showdown: ")
    return showdown


def _cards(value: Any, count: int | range, field: str) -> tuple[Card, ...]:
    if isinstance(value, Mapping):
        size = count if isinstance(count, int) else f"up to {count[-1]}"
        raise InvalidRecordError(
            f"{field} must be a list of {size} card codes", code="bad_cards", field=field
        )
    try:
        return parse_cards(value, count=count, field=field)
    except CardError as error:
        raise RecordError.restating(error, str(error), field=field) from error


def _card(value: Any, field: str) -> Card:
    try:
        return parse_card(value)
    except CardError as error:
        raise RecordError.restating(error, f"{field}: {error}", field=field) from error


def _check_deck(parts: Iterable[tuple[str, Iterable[Card]]]) -> None:
    seen: dict[Card, str] = {}
    for field, cards in parts:
        for card in cards:
            if card in seen:
                raise InvalidRecordError(
                    f"{card} appears twice: in {seen[card]} and in"
                    f" {field} (a deck has 52 distinct cards)",
                    code="duplicate_card",
                    params={"card": card.code, "first": seen[card], "second": field},
                    field=field,
                )
            seen[card] = field
