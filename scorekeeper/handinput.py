"""A hand as the table enters it, typed: :data:`HandInput`, parsed once at the edge.

The JSON shapes are those of :mod:`scorekeeper.hands` (``{"kind": ...}``).
:func:`parse_hand` reads one into a frozen value whose cards are
:class:`~scorekeeper.cards.Card` objects, checking what needs neither the
game nor its rules (the kind, the types, the cards themselves); what needs
them (the knocker's seat, the knock limit) is checked when the hand is
scored (:func:`scorekeeper.game.apply`). Each value keeps the JSON it was
read from (``data``): the game's log and its answers show the hand as
it was sent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .cards import Card, parse_cards
from .errors import InvalidValueError, ScorekeeperError
from .rules import is_whole_number

MAX_DEADWOOD = 98
"""The most deadwood 10 cards can hold (e.g. 9 T Q K of clubs and diamonds, two jacks)."""


class HandKind(StrEnum):
    """The kind of a hand input (its ``kind``): how the table entered the hand."""

    QUICK = "quick"
    CARDS = "cards"
    RECORD = "record"
    VOID = "void"
    DEAL = "deal"


KINDS = tuple(HandKind)
"""The hand input kinds :func:`parse_hand` accepts."""

GAME_KINDS = ("quick", "cards", "void")
"""The kinds of the hand of one game of a four-player deal."""


@dataclass(frozen=True, slots=True)
class QuickHand:
    """Who knocked and the two deadwood counts (``big_gin``, the ``upcard`` if Oklahoma)."""

    knocker: int | None
    """A player index (``None`` when left out: refused when the hand is scored)."""
    knocker_deadwood: int
    defender_deadwood: int
    big_gin: bool = False
    upcard: Card | None = None
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    kind = HandKind.QUICK


@dataclass(frozen=True, slots=True)
class CardsHand:
    """Who knocked and both hands' cards; declared melds and layoffs (read with the hands)."""

    knocker: int | None
    knocker_cards: tuple[Card, ...]
    defender_cards: tuple[Card, ...]
    upcard: Card | None = None
    knocker_melds: object = None
    defender_melds: object = None
    layoffs: object = None
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    kind = HandKind.CARDS


@dataclass(frozen=True, slots=True)
class RecordHand:
    """A deal record, replayed under the game's rules and players when scored."""

    record: object
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    kind = HandKind.RECORD


@dataclass(frozen=True, slots=True)
class VoidHand:
    """The stock ran out: nobody scores (four players: both games of the deal)."""

    data: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    kind = HandKind.VOID


GameHand = QuickHand | CardsHand | VoidHand
"""The hand of one game of a four-player deal."""


@dataclass(frozen=True, slots=True)
class DealHand:
    """A four-player deal: one hand per game, in the order of the sheet's ``next_games``."""

    games: tuple[GameHand, ...]
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    kind = HandKind.DEAL


HandInput = QuickHand | CardsHand | RecordHand | VoidHand | DealHand
"""One hand as the table entered it."""


def parse_hand(data: object) -> HandInput:
    """A hand input's JSON (see :mod:`scorekeeper.hands`) as a :data:`HandInput`.

    Raises the domain's errors naming the field at fault (``games.<i>.<field>``
    in a deal).
    """
    if not isinstance(data, Mapping):
        raise InvalidValueError(
            "a hand must be an object with a kind", code="bad_value", option="kind"
        )
    kind = data.get("kind")
    if kind not in KINDS:
        raise InvalidValueError(
            f"kind must be one of {', '.join(KINDS)}, not {kind!r}",
            code="bad_value",
            params={"value": kind},
            option="kind",
        )
    if kind == "record":
        return RecordHand(data.get("record"), data)
    if kind == "deal":
        return _deal(data)
    return _game_hand(data)


def _game_hand(data: Mapping[str, Any]) -> GameHand:
    """A ``quick``, ``cards`` or ``void`` hand."""
    if data["kind"] == "void":
        return VoidHand(data)
    knocker = data.get("knocker")
    if knocker is not None and not is_whole_number(knocker):
        raise InvalidValueError(
            f"knocker must be a player index, not {knocker!r}",
            code="bad_value",
            params={"value": knocker},
            option="knocker",
        )
    upcard = data.get("upcard")
    up = None if upcard is None else parse_cards([upcard], field="upcard")[0]
    if data["kind"] == "quick":
        return _quick(data, knocker, up)
    return CardsHand(
        knocker=knocker,
        knocker_cards=parse_cards(data.get("knocker_cards"), count=(10, 11), field="knocker"),
        defender_cards=parse_cards(data.get("defender_cards"), count=10, field="defender"),
        upcard=up,
        knocker_melds=data.get("knocker_melds"),
        defender_melds=data.get("defender_melds"),
        layoffs=data.get("layoffs"),
        data=data,
    )


def _quick(data: Mapping[str, Any], knocker: int | None, upcard: Card | None) -> QuickHand:
    """A ``quick`` hand: the counts' types and ranges checked (the knock limit is the rules')."""
    counts = check_counts(
        data.get("knocker_deadwood"), data.get("defender_deadwood"), data.get("big_gin", False)
    )
    return QuickHand(knocker, counts[0], counts[1], counts[2], upcard, data)


def check_counts(knocker: object, defender: object, big_gin: object) -> tuple[int, int, bool]:
    """A quick hand's deadwood counts and big gin flag, their types and ranges checked (the
    knock limit is the rules'); typed ``object``: they are untrusted input."""
    counts = knocker, defender
    if not is_whole_number(counts[0]) or counts[0] < 0:
        raise InvalidValueError(
            f"knocker_deadwood must be a whole number >= 0, not {counts[0]!r}",
            code="bad_value",
            params={"value": counts[0]},
            option="knocker_deadwood",
        )
    if not is_whole_number(counts[1]) or not 0 <= counts[1] <= MAX_DEADWOOD:
        raise InvalidValueError(
            f"defender_deadwood must be a whole number from 0 to {MAX_DEADWOOD}, not {counts[1]!r}",
            code="bad_value",
            params={"value": counts[1], "low": 0, "high": MAX_DEADWOOD},
            option="defender_deadwood",
        )
    if not isinstance(big_gin, bool):
        raise InvalidValueError(
            "big_gin must be true or false",
            code="bad_value",
            params={"value": big_gin},
            option="big_gin",
        )
    return counts[0], counts[1], big_gin


def _deal(data: Mapping[str, Any]) -> DealHand:
    """A four-player deal: a list of two hands, each ``quick``, ``cards`` or ``void``."""
    hands = data.get("games")
    if (
        isinstance(hands, (str, bytes, Mapping))
        or not isinstance(hands, Sequence)
        or len(hands) != 2
    ):
        raise InvalidValueError(
            "games must be a list of 2 hands, one for each game of the deal in the order of"
            " next_games",
            code="bad_games",
            params={"games": 2},
            option="games",
        )
    games = []
    for i, hand in enumerate(hands):
        try:
            games.append(_one_game(hand))
        except ScorekeeperError as error:
            raise error.within(f"game {i + 1}", f"games.{i}") from error
    return DealHand(tuple(games), data)


def _one_game(hand: object) -> GameHand:
    kind = hand.get("kind") if isinstance(hand, Mapping) else None
    if not isinstance(hand, Mapping) or kind not in GAME_KINDS:
        raise InvalidValueError(
            f"kind must be one of {', '.join(GAME_KINDS)}, not {kind!r}"
            if isinstance(hand, Mapping)
            else "each game's hand must be an object with a kind",
            code="bad_value",
            params={"value": kind},
            option="kind",
        )
    return _game_hand(hand)
