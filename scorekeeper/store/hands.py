"""One hand as a table enters it, turned into a score sheet entry (RULES.md 5-6).

A table usually knows only who knocked and the two deadwood counts;
:func:`score_deadwood` scores such a hand. :func:`evaluate_hand` takes any
of the hand inputs a stored game accepts and returns the sheet entry
(:mod:`scorekeeper.sheet`) with the scoring detail behind it:

* ``{"kind": "quick", "knocker": 0|1, "knocker_deadwood": K,
  "defender_deadwood": D, "big_gin"?: false, "upcard"?: card}``
* ``{"kind": "cards", "knocker": 0|1, "knocker_cards", "defender_cards",
  "upcard"?, "knocker_melds"?, "defender_melds"?, "layoffs"?}``: scored by
  :func:`~scorekeeper.knock.verify_knock`.
* ``{"kind": "record", "record": {deal record}}``: scored by replaying the
  deal (:func:`scorekeeper.replay`).
* ``{"kind": "void"}``: the stock ran out; nobody scores.

Choices: ``D`` is the defender's deadwood after layoffs, from 0 to
:data:`MAX_DEADWOOD`; ``K`` from 0 to the deal's knock limit. Under Oklahoma
rules the upcard is required (it sets the knock limit and a spade doubles
the score), as in :func:`~scorekeeper.knock.verify_knock`. ``big_gin``
needs ``K`` = 0 and rules that allow big gin.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, parse_cards
from ..errors import (
    IllegalRecordError,
    InvalidRecordError,
    InvalidValueError,
    RecordError,
    RuleError,
    RuleViolation,
)
from ..knock import Breakdown, KnockResult, score_hand, verify_knock
from ..records import DEAL_FORMAT, DEFAULT_PLAYERS, ReplayedDeal, deal_entry, replay_deal
from ..results import Outcome, Result, Side
from ..rules import Rules, is_whole_number
from ..sheet import Entry

MAX_DEADWOOD = 98
"""The most deadwood 10 cards can hold (e.g. 9 T Q K of clubs and diamonds, two jacks)."""

KINDS = ("quick", "cards", "record", "void")
"""The hand input kinds :func:`evaluate_hand` accepts."""


@dataclass(frozen=True, slots=True)
class Deadwood(Result):
    """One side of a hand scored from counts: its deadwood."""

    deadwood: int


@dataclass(frozen=True, slots=True)
class DeadwoodResult(Result):
    """A knock scored from the two deadwood counts (:func:`score_deadwood`)."""

    outcome: Outcome
    winner: Side | None
    points: int
    knocker: Deadwood
    defender: Deadwood
    breakdown: Breakdown


@dataclass(frozen=True, slots=True)
class HandEvaluation(Result):
    """A hand input scored: the sheet ``entry`` and the ``detail`` behind it."""

    entry: Entry
    detail: DeadwoodResult | KnockResult | ReplayedDeal | None


def score_deadwood(
    knocker_deadwood: object,
    defender_deadwood: object,
    *,
    rules: Rules | Mapping | str | None = None,
    upcard: str | Card | None = None,
    big_gin: bool = False,
) -> DeadwoodResult:
    """Score a knock from the two deadwood counts (RULES.md section 6).

    Gin when the knocker has 0 (never undercut), big gin when flagged, a
    knock when K < D, else an undercut. Returns a :class:`DeadwoodResult`:
    ``outcome``, ``winner`` (knocker or defender), ``points``, ``knocker``
    and ``defender`` (each with its ``deadwood``) and ``breakdown``
    (``difference``, ``bonus``, ``multiplier``), as in a ``verify_knock``
    result. Raises :class:`RuleError` naming the field for counts out of range;
    the counts are typed ``object`` because they are untrusted input (a count
    that is no whole number is refused the same way).

    >>> score_deadwood(9, 2).points, score_deadwood(3, 12).outcome
    (32, <Outcome.KNOCK: 'knock'>)
    """
    rules = Rules.from_dict(rules)
    up = parse_cards([upcard], field="upcard")[0] if upcard is not None else None
    limit = rules.knock_limit_for(up)
    if not is_whole_number(knocker_deadwood) or knocker_deadwood < 0:
        raise InvalidValueError(f"knocker_deadwood must be a whole number >= 0, not"
                                f" {knocker_deadwood!r}",
                                code="bad_value", params={"value": knocker_deadwood},
                                option="knocker_deadwood")
    if knocker_deadwood > limit:
        reason = f" (set by the upcard {up})" if rules.oklahoma else ""
        params: dict[str, Any] = {"deadwood": knocker_deadwood, "limit": limit}
        if rules.oklahoma and up is not None:
            params["upcard"] = up.code
        raise RuleViolation(f"knocker_deadwood {knocker_deadwood} exceeds the knock limit"
                            f" {limit}{reason}", code="knock_over_limit", params=params,
                            option="knocker_deadwood")
    if not is_whole_number(defender_deadwood) or not 0 <= defender_deadwood <= MAX_DEADWOOD:
        raise InvalidValueError(f"defender_deadwood must be a whole number from 0 to"
                                f" {MAX_DEADWOOD}, not {defender_deadwood!r}", code="bad_value",
                                params={"value": defender_deadwood, "low": 0,
                                        "high": MAX_DEADWOOD}, option="defender_deadwood")
    if not isinstance(big_gin, bool):
        raise InvalidValueError("big_gin must be true or false",
                                code="bad_value", params={"value": big_gin}, option="big_gin")
    if big_gin and rules.big_gin_bonus is None:
        raise RuleViolation("big gin is not allowed under these rules (big_gin_bonus is null)",
                            code="big_gin_not_allowed", option="big_gin")
    if big_gin and knocker_deadwood:
        raise RuleViolation("big gin means all 11 cards melded: knocker_deadwood must be 0",
                            code="big_gin_deadwood", params={"deadwood": knocker_deadwood},
                            option="knocker_deadwood")
    score = score_hand(knocker_deadwood, defender_deadwood, rules, big_gin=big_gin,
                       multiplier=rules.multiplier_for(up))
    return DeadwoodResult(outcome=score.outcome, winner=score.winner, points=score.points,
                          knocker=Deadwood(knocker_deadwood), defender=Deadwood(defender_deadwood),
                          breakdown=score.breakdown)


def sheet_entry(knocker: int, result: DeadwoodResult | KnockResult) -> Entry:
    """The two-player sheet entry of a scored knock by seat ``knocker`` (0 or 1).

    A tied knock that scores nothing (``tie: no_score``) is a void entry.
    """
    if result.winner is None:
        return Entry(void=True)
    winner = knocker if result.winner == Side.KNOCKER else 1 - knocker
    return Entry(winner=winner, loser=1 - winner, points=result.points,
                 outcome=result.outcome)


def evaluate_hand(hand: Mapping, rules: Rules | Mapping | str | None = None, *,
                  players: Sequence[str] = DEFAULT_PLAYERS,
                  dealer: int | None = None) -> HandEvaluation:
    """Score one hand input of a two-player game: a :class:`HandEvaluation`.

    ``entry`` is the :func:`~scorekeeper.sheet.score_sheet` entry, ``detail``
    the scoring behind it (the ``score_deadwood``, ``verify_knock`` or
    replay result; ``None`` for a void hand). ``players`` and ``dealer``
    (who deals this hand, when known) are checked against a deal record.
    Raises the domain's errors naming the field at fault.
    """
    rules = Rules.from_dict(rules)
    if not isinstance(hand, Mapping):
        raise InvalidValueError("a hand must be an object with a kind",
                                code="bad_value", option="kind")
    kind = hand.get("kind")
    if kind == "void":
        return HandEvaluation(entry=Entry(void=True), detail=None)
    if kind == "record":
        return _evaluate_record(hand.get("record"), rules, players, dealer)
    if kind not in KINDS:
        raise InvalidValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}",
                                code="bad_value", params={"value": kind}, option="kind")
    knocker = hand.get("knocker")
    if not is_whole_number(knocker) or knocker not in (0, 1):
        raise InvalidValueError(f"knocker must be the seat of the knocker, 0 or 1, not {knocker!r}",
                                code="bad_value", params={"value": knocker}, option="knocker")
    detail: DeadwoodResult | KnockResult
    if kind == "quick":
        detail = score_deadwood(hand.get("knocker_deadwood"), hand.get("defender_deadwood"),
                                rules=rules, upcard=hand.get("upcard"),
                                big_gin=hand.get("big_gin", False))
    else:
        detail = verify_knock(hand.get("knocker_cards"), hand.get("defender_cards"),
                              rules=rules, upcard=hand.get("upcard"),
                              knocker_melds=hand.get("knocker_melds"),
                              defender_melds=hand.get("defender_melds"),
                              layoffs=hand.get("layoffs"))
    return HandEvaluation(entry=sheet_entry(knocker, detail), detail=detail)


def _options(rules: Rules) -> dict:
    """The rule options without the informational preset name."""
    return {k: v for k, v in rules.to_dict().items() if k != "preset"}


def _evaluate_record(record: Any, rules: Rules, players: Sequence[str],
                     dealer: int | None) -> HandEvaluation:
    """A deal record replayed under the game's rules and players, and scored.

    The record may leave out ``rules`` and ``players`` (as in a match
    record); if it gives them they must be the game's. Its dealer must be
    the one the game's rotation calls for.
    """
    if not isinstance(record, Mapping):
        raise InvalidRecordError("record must be a deal record (an object)", field="record")
    if "rules" in record:
        try:
            own = Rules.from_dict(record["rules"])
        except RuleError as error:
            raise RecordError.restating(error, f"record.rules: {error}",
                                        field="record.rules") from error
        if _options(own) != _options(rules):
            raise InvalidRecordError("record.rules differ from the game's rules; leave them out",
                                     code="rules_differ", field="record.rules")
    if "players" in record and record["players"] != list(players):
        raise InvalidRecordError(f"record.players must be the game's players {list(players)}"
                                 " (or left out)",
                                 code="players_differ", params={"players": list(players)},
                                 field="record.players")
    full = {**record, "format": record.get("format", DEAL_FORMAT), "rules": rules.to_dict(),
            "players": list(players)}
    try:
        result = replay_deal(full)
    except RecordError as error:
        raise error.restate(f"record: {error}", field=f"record.{error.field}"
                            if error.field else "record") from error
    if dealer is not None and result.dealer != dealer:
        raise IllegalRecordError(f"record: {players[dealer]} ({dealer}) deals this hand, not"
                                 f" {players[result.dealer]} ({result.dealer})",
                                 code="dealer_rotation",
                                 params={"expected": players[dealer], "expected_seat": dealer,
                                         "dealer": players[result.dealer],
                                         "dealer_seat": result.dealer},
                                 field="record.dealer")
    return HandEvaluation(entry=deal_entry(result), detail=result)
