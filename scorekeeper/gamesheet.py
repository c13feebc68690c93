"""A stored game's sheet as typed results: :class:`GameSheet` and :class:`StoredHand`.

Pure shapes (no database): the services of :mod:`scorekeeper.store.games`
hand out a game's sheet as a :class:`GameSheet`: the game's ``id``, times,
:class:`GameStatus`, ``version`` (log entries), first ``dealer`` and
:class:`~scorekeeper.rules.Rules` around the core score sheet (``scored``:
a :class:`~scorekeeper.sheet.Sheet`, :class:`~scorekeeper.sheet.HollywoodSheet` or
:class:`~scorekeeper.sheet.PartnershipSheet`), each hand a
:class:`StoredHand`: the core hand record (``record``) and where it came
from (``seq``, ``kind``, ``input``, ``detail``, ``corrected``). Both are
frozen :class:`~scorekeeper.results.Result`\\ s whose ``to_dict()`` is the
JSON the API serves::

    {"id", "created", "updated", "status", "version", "dealer", ["cut",]
     ...the core sheet's keys, each hand {...the core record's keys,
        "seq", "kind", "input", "detail", "corrected"}}

and whose ``from_dict()`` reads that back (``X.from_dict(x.to_dict()) == x``).

Choices:

* A stored sheet declares what every table format's sheet has (``players``,
  ``totals``, ``boxes``, ``needed``, ``next_dealer``, ``over``, ``result``
  ...), a stored hand what every hand record has (``n``, ``dealer``,
  ``winner``, ``points``, ``totals`` ...); what only one format has (a
  Hollywood sheet's ``columns``, a partnership sheet's ``next_games``, a
  three-player hand's ``sits_out``, a deal's ``games``) is read from
  ``sheet.scored`` or ``hand.record`` narrowed by ``isinstance``. Nothing
  is forwarded: mypy checks every attribute a reader reads.
  ``sheet.hands`` are the stored hands; ``sheet.rules`` the game's
  :class:`~scorekeeper.rules.Rules`, read once.
* ``input`` and ``detail`` stay the JSON kept in the game's log: the input
  is what was submitted (inputs are not typed), the detail the scoring as
  it was done then, so an answer once given never changes.
* A write's minimal answer (``Prefer: return=minimal``) is ``minimal``: it
  carries no hands (``hands`` and ``scored.hands`` are empty) and its
  ``to_dict()`` has no ``hands`` key; ``minimal`` itself is no key of the
  JSON. Otherwise ``scored.hands`` are the stored hands' records.
* ``cut`` (the cards cut for the first deal, one code per player, RULES.md
  3) is there only for a game whose first dealer was cut for: the sheet of a
  game whose dealer was named or drawn by lot keeps the shape it had.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any, Self

from .handinput import HandKind
from .results import Outcome, Result, from_plain, plain
from .rules import Rules
from .sheet import AnyHandRecord, AnySheet, GameResult, HollywoodResult

HAND_KEYS = ("seq", "kind", "input", "detail", "corrected")
"""What a stored hand adds to its core record, in JSON order."""

_HAND_KEYS = frozenset(HAND_KEYS)

GAME_KEYS = ("id", "created", "updated", "status", "version", "dealer")
"""What a stored sheet puts before its core sheet, in JSON order."""

CUT_KEY = "cut"
"""The key after ``dealer`` of a game whose first dealer was cut for: the cards cut, one code
per player (left out when the dealer was named or drawn by lot)."""


class GameStatus(StrEnum):
    """Whether a stored game goes on (``active``) or has ended (``over``)."""

    ACTIVE = "active"
    OVER = "over"

    @classmethod
    def of(cls, over: bool) -> GameStatus:
        """The status of a game whose sheet is ``over`` or not."""
        return cls.OVER if over else cls.ACTIVE


@dataclass(frozen=True, slots=True)
class StoredHand(Result):
    """A hand on a stored game's sheet: the core ``record`` and where it came from.

    ``seq`` is the log entry that gave the hand its current content,
    ``input`` the hand as submitted (of ``kind``), ``detail`` the scoring
    behind it (a verify or replay result as JSON; ``None`` if void),
    ``corrected`` whether a correction replaced the original.
    """

    record: AnyHandRecord
    seq: int
    """The log entry that gave this hand its current content."""
    kind: HandKind
    input: Mapping[str, Any]
    """The hand as submitted."""
    detail: Mapping[str, Any] | None
    """The scoring behind it (verify or replay result); null if void."""
    corrected: bool

    @property
    def n(self) -> int:
        """The hand's number on the sheet (from 1)."""
        return self.record.n

    @property
    def dealer(self) -> int:
        """Who dealt (four players: the dealing player)."""
        return self.record.dealer

    @property
    def void(self) -> bool:
        """Whether nobody scored."""
        return self.record.void

    @property
    def winner(self) -> int | None:
        """Who won the hand (four players: the team)."""
        return self.record.winner

    @property
    def loser(self) -> int | None:
        """Who lost the hand (four players: the team)."""
        return self.record.loser

    @property
    def outcome(self) -> Outcome | None:
        """How the hand was won (``None`` when void, and for a four-player deal)."""
        return self.record.outcome

    @property
    def points(self) -> int:
        """What the hand scored."""
        return self.record.points

    @property
    def totals(self) -> tuple[int, ...]:
        """The running totals after the hand (per player, four players per team)."""
        return self.record.totals

    @property
    def game_over_after(self) -> bool:
        """Whether the game (or match) ended with this hand."""
        return self.record.game_over_after

    def to_dict(self) -> dict[str, Any]:
        """The core record's dict, then ``seq``, ``kind``, ``input``, ``detail``, ``corrected``."""
        return {
            **self.record.to_dict(),
            "seq": self.seq,
            "kind": self.kind.value,
            "input": plain(self.input),
            "detail": plain(self.detail),
            "corrected": self.corrected,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The stored hand a :meth:`to_dict` dict stands for (``ValueError`` if it is none)."""
        if not isinstance(data, Mapping) or not data.keys() >= _HAND_KEYS:
            raise ValueError(f"not a {cls.__name__}: it needs the keys {list(HAND_KEYS)}")
        record = dict(data)
        for key in HAND_KEYS:
            del record[key]
        return cls(
            record=from_plain(AnyHandRecord, record),
            seq=data["seq"],
            kind=HandKind(data["kind"]),
            input=data["input"],
            detail=data["detail"],
            corrected=data["corrected"],
        )


@dataclass(frozen=True, slots=True)
class GameSheet(Result):
    """A stored game's sheet: the game around its core sheet ``scored``; see the module docs."""

    id: str
    created: str
    updated: str
    status: GameStatus
    version: int
    """Log entries so far."""
    dealer: int
    """The first dealer."""
    rules: Rules
    """The rules the game is scored with (parsed once, when the game is read)."""
    scored: AnySheet
    hands: tuple[StoredHand, ...]
    minimal: bool = False
    cut: tuple[str, ...] | None = None
    """The cards cut for the first deal, one code per player (``None``: not cut)."""

    @classmethod
    def of(
        cls,
        *,
        id: str,
        created: str,
        updated: str,
        dealer: int,
        rules: Rules,
        version: int,
        scored: AnySheet,
        hands: tuple[StoredHand, ...] | None,
        cut: Sequence[str] | None = None,
    ) -> Self:
        """The sheet of stored game ``id`` (its times, first ``dealer``, ``rules``, the ``cut``
        that chose the dealer, if any) at ``version``.

        ``scored`` is the core sheet (its ``hands`` are replaced by the
        records of ``hands``); ``hands`` None makes the minimal answer. The
        status follows ``scored``.
        """
        records = () if hands is None else tuple(hand.record for hand in hands)
        if scored.hands != records:  # records of the sheet's own kind (mypy cannot tell)
            scored = replace(scored, hands=records)  # type: ignore[arg-type]
        return cls(
            id=id,
            created=created,
            updated=updated,
            status=GameStatus.of(scored.over),
            version=version,
            dealer=dealer,
            rules=rules,
            scored=scored,
            hands=hands or (),
            minimal=hands is None,
            cut=None if cut is None else tuple(cut),
        )

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, in seat order."""
        return self.scored.players

    @property
    def scoring(self) -> str:
        """``single`` or ``hollywood`` (the rules' scoring)."""
        return self.scored.scoring

    @property
    def stake(self) -> float | None:
        """The per-point stake, if any."""
        return self.scored.stake

    @property
    def totals(self) -> tuple[int, ...]:
        """The running totals (per player, four players per team; Hollywood: summed)."""
        return self.scored.totals

    @property
    def boxes(self) -> tuple[int, ...]:
        """Hands won (per player, four players per team)."""
        return self.scored.boxes

    @property
    def needed(self) -> tuple[int, ...]:
        """The points each side still needs."""
        return self.scored.needed

    @property
    def next_dealer(self) -> int:
        """Who deals the next hand (four players: the dealing team)."""
        return self.scored.next_dealer

    @property
    def over(self) -> bool:
        """Whether the game (or match) has ended."""
        return self.scored.over

    @property
    def result(self) -> GameResult | HollywoodResult | None:
        """The result once the game has ended."""
        return self.scored.result

    def to_dict(self) -> dict[str, Any]:
        """``id`` ... ``dealer``, then the core sheet's keys with the stored hands (none if
        ``minimal``)."""
        body: dict[str, Any] = {
            "id": self.id,
            "created": self.created,
            "updated": self.updated,
            "status": self.status.value,
            "version": self.version,
            "dealer": self.dealer,
        }
        if self.cut is not None:
            body[CUT_KEY] = list(self.cut)
        for field in fields(self.scored):
            if field.name != "hands":
                body[field.name] = plain(getattr(self.scored, field.name))
            elif not self.minimal:
                body["hands"] = [hand.to_dict() for hand in self.hands]
        return body

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The stored sheet a :meth:`to_dict` dict stands for (``ValueError`` if it is none)."""
        if not isinstance(data, Mapping) or not set(GAME_KEYS) <= set(data):
            raise ValueError(f"not a {cls.__name__}: it needs the keys {list(GAME_KEYS)}")
        given = data.get("hands")
        hands = None if given is None else tuple(StoredHand.from_dict(hand) for hand in given)
        body = {key: value for key, value in data.items() if key not in (*GAME_KEYS, CUT_KEY)}
        scored = from_plain(AnySheet, {**body, "hands": []})
        sheet = cls.of(
            id=data["id"],
            created=data["created"],
            updated=data["updated"],
            dealer=data["dealer"],
            rules=Rules.from_dict(data["rules"]),
            version=data["version"],
            scored=scored,
            hands=hands,
            cut=data.get(CUT_KEY),
        )
        if sheet.status != data["status"]:
            raise ValueError(f"status {data['status']!r} does not match the sheet's over")
        return sheet
