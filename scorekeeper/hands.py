"""One hand as a table enters it, turned into a score sheet entry (RULES.md 5-6, 8).

A table usually knows only who knocked and the two deadwood counts;
:func:`score_deadwood` scores such a hand. :func:`evaluate_hand` takes any
of the hand inputs a stored game accepts and returns the sheet entry
(:mod:`scorekeeper.sheet`) with the scoring detail behind it:

* ``{"kind": "quick", "knocker": i, "knocker_deadwood": K,
  "defender_deadwood": D, "big_gin"?: false, "upcard"?: card}``
* ``{"kind": "cards", "knocker": i, "knocker_cards", "defender_cards",
  "upcard"?, "knocker_melds"?, "defender_melds"?, "layoffs"?}``: scored by
  :func:`~scorekeeper.knock.verify_knock`.
* ``{"kind": "record", "record": {deal record}}``: scored by replaying the
  deal (:func:`scorekeeper.replay`). Two players only: a deal record is of
  a two-player deal (``record_two_players`` otherwise, field ``kind``).
* ``{"kind": "void"}``: the stock ran out; nobody scores (four players: both
  games of the deal are void).
* Four players: ``{"kind": "deal", "games": [hand, hand]}``, one hand of kind
  ``quick``, ``cards`` or ``void`` for each game of the deal, in the order of
  the sheet's ``next_games``. Its entry is ``{"games": [entry, entry]}`` and
  its detail ``{"games": [detail, detail]}`` (:class:`DealEntry`,
  :class:`DealDetail`); an error in a game names ``games.<i>.<field>``.

``knocker`` is a player index. Two players: 0 or 1, the defender is the
other. Three players: one of the two playing the hand (the dealer sits out:
``dealer_sits_out``), the defender the other non-dealer. Four players: one
of the two players of that game (``not_in_this_game``), the defender the
other. A four-player deal is kind ``deal`` or ``void`` and nothing else;
kind ``deal`` is for four players only.

Choices: ``D`` is the defender's deadwood after layoffs, from 0 to
:data:`MAX_DEADWOOD`; ``K`` from 0 to the deal's knock limit. Under Oklahoma
rules the upcard is required (it sets the knock limit and a spade doubles
the score), as in :func:`~scorekeeper.knock.verify_knock`; each game of a
four-player deal has its own upcard. ``big_gin`` needs ``K`` = 0 and rules
that allow big gin.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, parse_cards
from .entries import check_seat
from .errors import (
    IllegalRecordError,
    InvalidRecordError,
    InvalidValueError,
    RecordError,
    RuleError,
    RuleViolation,
    ScorekeeperError,
)
from .handinput import GAME_KINDS as GAME_KINDS
from .handinput import KINDS as KINDS
from .handinput import (
    CardsHand,
    DealHand,
    HandInput,
    QuickHand,
    RecordHand,
    VoidHand,
    check_counts,
    parse_hand,
)
from .handinput import HandKind as HandKind
from .knock import Breakdown, KnockResult, verify_knock
from .match_scoring import deal_entry
from .paper import DealEntry, Entry
from .records import DEAL_FORMAT, DEFAULT_PLAYERS, ReplayedDeal, replay_deal
from .results import Outcome, Result, Side
from .rules import Rules
from .showdown_scoring import score_hand


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
class DealDetail(Result):
    """The scoring behind a four-player deal: one detail per game (``None``: void)."""

    games: tuple[DeadwoodResult | KnockResult | None, ...]


@dataclass(frozen=True, slots=True)
class HandEvaluation(Result):
    """A hand input scored: the sheet ``entry`` and the ``detail`` behind it."""

    entry: Entry | DealEntry
    detail: DeadwoodResult | KnockResult | ReplayedDeal | DealDetail | None


def score_deadwood(
    knocker_deadwood: object,
    defender_deadwood: object,
    *,
    rules: Rules | Mapping[str, Any] | str | None = None,
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
    return _score_deadwood(
        knocker_deadwood, defender_deadwood, Rules.from_dict(rules), upcard, big_gin
    )


def _score_deadwood(
    knocker_deadwood: object,
    defender_deadwood: object,
    rules: Rules,
    upcard: str | Card | None,
    big_gin: object,
) -> DeadwoodResult:
    """:func:`score_deadwood` under rules already read."""
    up = upcard if upcard is None or isinstance(upcard, Card) else _upcard(upcard)
    counts = check_counts(knocker_deadwood, defender_deadwood, big_gin)
    return _score_quick(QuickHand(None, *counts, upcard=up), rules)


def _score_quick(hand: QuickHand, rules: Rules) -> DeadwoodResult:
    """A quick hand (its counts checked when it was read) scored under ``rules``."""
    knocker_deadwood, defender_deadwood = hand.knocker_deadwood, hand.defender_deadwood
    up, big_gin = hand.upcard, hand.big_gin
    limit = rules.knock_limit_for(up)
    if knocker_deadwood > limit:
        reason = f" (set by the upcard {up})" if rules.oklahoma else ""
        params: dict[str, Any] = {"deadwood": knocker_deadwood, "limit": limit}
        if rules.oklahoma and up is not None:
            params["upcard"] = up.code
        raise RuleViolation(
            f"knocker_deadwood {knocker_deadwood} exceeds the knock limit {limit}{reason}",
            code="knock_over_limit",
            params=params,
            option="knocker_deadwood",
        )
    if big_gin and rules.big_gin_bonus is None:
        raise RuleViolation(
            "big gin is not allowed under these rules (big_gin_bonus is null)",
            code="big_gin_not_allowed",
            option="big_gin",
        )
    if big_gin and knocker_deadwood:
        raise RuleViolation(
            "big gin means all 11 cards melded: knocker_deadwood must be 0",
            code="big_gin_deadwood",
            params={"deadwood": knocker_deadwood},
            option="knocker_deadwood",
        )
    score = score_hand(
        knocker_deadwood,
        defender_deadwood,
        rules,
        big_gin=big_gin,
        multiplier=rules.multiplier_for(up),
    )
    return DeadwoodResult(
        outcome=score.outcome,
        winner=score.winner,
        points=score.points,
        knocker=Deadwood(knocker_deadwood),
        defender=Deadwood(defender_deadwood),
        breakdown=score.breakdown,
    )


def sheet_entry(
    knocker: int, result: DeadwoodResult | KnockResult, defender: int | None = None
) -> Entry:
    """The sheet entry of a scored knock by player ``knocker`` against ``defender``.

    ``defender`` defaults to the other of two players (``1 - knocker``). A
    tied knock that scores nothing (``tie: no_score``) is a tie entry.
    """
    if result.winner is None:
        return Entry(outcome=Outcome.TIE)
    other = 1 - knocker if defender is None else defender
    winner, loser = (knocker, other) if result.winner == Side.KNOCKER else (other, knocker)
    return Entry(winner=winner, loser=loser, points=result.points, outcome=result.outcome)


def _upcard(code: str) -> Card:
    return parse_cards([code], field="upcard")[0]


def evaluate_hand(
    hand: Mapping[str, Any] | HandInput,
    rules: Rules | Mapping[str, Any] | str | None = None,
    *,
    players: Sequence[str] = DEFAULT_PLAYERS,
    dealer: int | None = None,
    games: Sequence[Mapping[str, Any]] | None = None,
) -> HandEvaluation:
    """Score one hand input (JSON, or typed) of a game of ``len(players)`` players: a
    :class:`HandEvaluation`.

    :func:`evaluate_input` of :func:`~scorekeeper.handinput.parse_hand`'s reading of ``hand``
    (a typed one as it is) under ``rules`` (a :class:`Rules` or anything
    :meth:`Rules.from_dict` reads).
    """
    typed = parse_hand(hand) if isinstance(hand, Mapping) else hand
    return evaluate_input(
        typed, Rules.from_dict(rules), players=players, dealer=dealer, games=games
    )


def evaluate_input(
    hand: HandInput,
    rules: Rules,
    *,
    players: Sequence[str] = DEFAULT_PLAYERS,
    dealer: int | None = None,
    games: Sequence[Mapping[str, Any]] | None = None,
) -> HandEvaluation:
    """Score one hand input of a game of ``len(players)`` players: a :class:`HandEvaluation`.

    ``entry`` is the :func:`~scorekeeper.sheet.score_sheet` entry, ``detail``
    the scoring behind it (the ``score_deadwood``, ``verify_knock`` or
    replay result; ``None`` for a void hand). ``dealer`` is who deals this
    hand: checked against a deal record when given; needed with three
    players (the dealer sits out). ``games`` are the pairings of a
    four-player deal (the sheet's ``next_games``, or a deal record's
    ``games``: each with ``players`` and ``dealer``), needed with four.
    Raises the domain's errors naming the field at fault.
    """
    count = len(players)
    if isinstance(hand, VoidHand):
        return HandEvaluation(entry=Entry(void=True), detail=None)
    if isinstance(hand, RecordHand):
        if count != 2:
            raise RuleViolation(
                f"kind record (a deal record) is for two players; with {count}"
                " players enter the hand as "
                + ("a deal of two games" if count == 4 else "quick, cards or void"),
                code="record_two_players",
                params={"players": count},
                option="kind",
            )
        return _evaluate_record(hand.record, rules, players, dealer)
    if isinstance(hand, DealHand) != (count == 4):
        raise InvalidValueError(
            f"a four-player deal is kind deal (or void), not {hand.kind}"
            if count == 4
            else "kind deal (the two games of a deal) is for four players",
            code="bad_kind",
            params={"value": hand.kind.value, "players": count},
            option="kind",
        )
    if isinstance(hand, DealHand):
        if games is None:
            raise ValueError("a four-player deal is scored with its games (the sheet's next_games)")
        return _evaluate_deal(hand, rules, players, games)
    if count == 3 and dealer is None:
        raise ValueError("a three-player hand is scored knowing its dealer (who sits out)")
    seats = (0, 1) if count == 2 else tuple(p for p in range(3) if p != dealer)
    entry, detail = _evaluate_knock(hand, rules, players, seats, dealer if count == 3 else None)
    return HandEvaluation(entry=entry, detail=detail)


Scored = tuple[Entry, DeadwoodResult | KnockResult | None]
"""A two-player hand scored: its sheet entry and the detail (``None`` when void)."""


def _evaluate_knock(
    hand: QuickHand | CardsHand,
    rules: Rules,
    players: Sequence[str],
    seats: Sequence[int],
    sitting_out: int | None,
) -> Scored:
    """A ``quick`` or ``cards`` hand between ``seats`` (``sitting_out`` the 3-player dealer)."""
    knocker = check_seat(hand.knocker, "knocker", players, seats, sitting_out)
    detail: DeadwoodResult | KnockResult
    if isinstance(hand, QuickHand):
        detail = _score_quick(hand, rules)
    else:
        detail = verify_knock(
            hand.knocker_cards,
            hand.defender_cards,
            rules=rules,
            upcard=hand.upcard,
            knocker_melds=hand.knocker_melds,  # type: ignore[arg-type]
            defender_melds=hand.defender_melds,  # type: ignore[arg-type]
            layoffs=hand.layoffs,  # type: ignore[arg-type]
        )
    defender = seats[1] if knocker == seats[0] else seats[0]
    return sheet_entry(knocker, detail, defender), detail


def _evaluate_deal(
    hand: DealHand, rules: Rules, players: Sequence[str], games: Sequence[Mapping[str, Any]]
) -> HandEvaluation:
    """The two games of a four-player deal, each scored between its own two players."""
    scored: list[Scored] = []
    for i, (game, one) in enumerate(zip(games, hand.games, strict=True)):
        try:
            if isinstance(one, VoidHand):
                scored.append((Entry(void=True), None))
            else:
                scored.append(_evaluate_knock(one, rules, players, tuple(game["players"]), None))
        except ScorekeeperError as error:
            raise error.within(f"game {i + 1}", f"games.{i}") from error
    return HandEvaluation(
        entry=DealEntry(games=tuple(entry for entry, _ in scored)),
        detail=DealDetail(games=tuple(detail for _, detail in scored)),
    )


def _options(rules: Rules) -> dict[str, Any]:
    """The rule options without the informational preset name."""
    return {k: v for k, v in rules.to_dict().items() if k != "preset"}


def _evaluate_record(
    record: Any, rules: Rules, players: Sequence[str], dealer: int | None
) -> HandEvaluation:
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
            raise RecordError.restating(
                error, f"record.rules: {error}", field="record.rules"
            ) from error
        if _options(own) != _options(rules):
            raise InvalidRecordError(
                "record.rules differ from the game's rules; leave them out",
                code="rules_differ",
                field="record.rules",
            )
    if "players" in record and record["players"] != list(players):
        raise InvalidRecordError(
            f"record.players must be the game's players {list(players)} (or left out)",
            code="players_differ",
            params={"players": list(players)},
            field="record.players",
        )
    full = {
        **record,
        "format": record.get("format", DEAL_FORMAT),
        "rules": rules.to_dict(),
        "players": list(players),
    }
    try:
        result = replay_deal(full)
    except RecordError as error:
        raise error.within("record", "record") from error
    if dealer is not None and result.dealer != dealer:
        raise IllegalRecordError(
            f"record: {players[dealer]} ({dealer}) deals this hand, not"
            f" {players[result.dealer]} ({result.dealer})",
            code="dealer_rotation",
            params={
                "expected": players[dealer],
                "expected_seat": dealer,
                "dealer": players[result.dealer],
                "dealer_seat": result.dealer,
            },
            field="record.dealer",
        )
    return HandEvaluation(entry=deal_entry(result), detail=result)
