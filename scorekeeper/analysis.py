"""Where a deal was won or lost: the decisions of a recorded deal, measured.

:func:`analyse` replays a deal record (or every deal of a match record) and
reports, for each decision, facts computed only from what the player to act
held and had seen, never from hidden cards (:mod:`.analysis_decisions`: the
discards against the best ones, the draws that passed a meld up, the knocks
and gins not taken), and the showdown: each player measured against the
other's best play (:func:`~scorekeeper.knock_review.review_knock`, which
also reviews a showdown entered card by card, so the scorepad and this
analysis say the same of a hand).

Each player's summary adds these up: deadwood given away by discards,
discards off the best, melds passed up, knocks and gins missed, points the
showdown choices cost. A void deal has no showdown. What the analysis says,
in words, is :mod:`.analysis_remarks`.

>>> import scorekeeper as sk
>>> report = analyse(sk.simulate(7, players=("random", "greedy")))
>>> [s.player for s in report.summary]
['random 1', 'greedy 2']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .analysis_decisions import AnyDecision, DiscardDecision, DrawDecision, measured, seen_state
from .deal_result import DealResult
from .engine import Deal
from .errors import InvalidRecordError
from .knock_review import MissedLayoff, review_knock
from .melds import codes_of, hand_mask
from .records import DEAL_FORMAT, MATCH_FORMAT, load_deal, match_deals, play_steps
from .results import Outcome, Result

SUMMARY_KEYS = (
    "deadwood_given_away",
    "discards_off_best",
    "missed_melds",
    "missed_knocks",
    "missed_gins",
    "showdown_cost",
)
"""What a player's summary counts (see the module docs)."""


@dataclass(frozen=True, slots=True)
class KnockerShowdown(Result):
    """The knocker's arrangement in a deal's showdown against the best legal one, both
    against the defender's best reply (:class:`~.knock_review.KnockerReview`: ``points`` is what the
    arrangement laid down scores against that reply, not what the defender's mistakes
    let it score; the deal's ``points`` are those)."""

    player: int
    deadwood: int
    best_deadwood: int
    points: int
    """+ won, - lost: what the arrangement laid down scores against the defender's best
    reply (the deal's points are what was scored)."""
    best_points: int
    cost: int


@dataclass(frozen=True, slots=True)
class DefenderShowdown(Result):
    """The defender's reply in a deal's showdown against the best reply to the same
    arrangement (:class:`~.knock_review.DefenderReview`): ``missed_layoffs`` are the codes of the
    missed layoffs' cards, ``missed_layoff_worth`` each with what it is worth."""

    player: int
    deadwood: int
    best_deadwood: int
    missed_layoffs: tuple[str, ...]
    points: int
    best_points: int
    cost: int
    missed_layoff_worth: tuple[MissedLayoff, ...]
    """The missed layoffs, each with what it is worth."""


@dataclass(frozen=True, slots=True)
class ShowdownAnalysis(Result):
    """A deal's showdown: the knocker's arrangement and the defender's reply, measured."""

    knocker: KnockerShowdown
    defender: DefenderShowdown


@dataclass(frozen=True, slots=True)
class PlayerSummary(Result):
    """What a player's decisions cost in a deal (or a match): see :data:`SUMMARY_KEYS`."""

    player: str
    deadwood_given_away: int = 0
    discards_off_best: int = 0
    missed_melds: int = 0
    missed_knocks: int = 0
    missed_gins: int = 0
    showdown_cost: int = 0


@dataclass(frozen=True, slots=True)
class DealAnalysis(Result):
    """The analysis of one deal: how it ended, each measured decision, the showdown
    (``None`` for a void deal) and each player's summary."""

    players: tuple[str, ...]
    dealer: int
    void: bool
    outcome: Outcome | None
    points: int
    decisions: tuple[AnyDecision, ...]
    showdown: ShowdownAnalysis | None
    summary: tuple[PlayerSummary, ...]


@dataclass(frozen=True, slots=True)
class MatchAnalysis(Result):
    """The analysis of each deal of a match, and each player's summary over all of them."""

    players: tuple[str, ...]
    deals: tuple[DealAnalysis, ...]
    summary: tuple[PlayerSummary, ...]


def analyse(record: Mapping[str, Any]) -> DealAnalysis | MatchAnalysis:
    """The analysis of a deal record (:class:`DealAnalysis`), or of each deal of a match
    record (:class:`MatchAnalysis`).

    Raises :class:`~scorekeeper.errors.RecordError` (with its step) for a
    record that does not replay.
    """
    if not isinstance(record, Mapping):
        raise InvalidRecordError("a record must be a JSON object", code="bad_record")
    if record.get("format") == MATCH_FORMAT:
        names, loaded = match_deals(record)
        deals = tuple(_analyse_deal(deal, actions, showdown) for deal, actions, showdown in loaded)
        return MatchAnalysis(tuple(names), deals, _total([d.summary for d in deals], names))
    if record.get("format") != DEAL_FORMAT:
        raise InvalidRecordError(
            f"format must be {DEAL_FORMAT!r} or {MATCH_FORMAT!r}", code="bad_format", field="format"
        )
    return _analyse_deal(*load_deal(record))


def _analyse_deal(
    deal: Deal, actions: Sequence[str], showdown: Mapping[str, Any] | None
) -> DealAnalysis:
    names = tuple(deal.names)
    decisions: list[AnyDecision] = []
    before = seen_state(deal)
    for step, action, player in play_steps(deal, actions, showdown):
        fact = measured(deal, before, step, action, player)
        if fact is not None:
            decisions.append(fact)
        before = seen_state(deal)
    result = deal.result
    assert result is not None  # play_steps ends the deal
    shown = None if result.void else _showdown(deal, result)
    counts = [dict.fromkeys(SUMMARY_KEYS, 0) for _ in names]
    for fact in decisions:
        mine = counts[fact.player]
        if isinstance(fact, DrawDecision):
            mine["missed_melds"] += 1
            continue
        mine["deadwood_given_away"] += fact.cost
        mine["discards_off_best"] += fact.cost > 0
        if isinstance(fact, DiscardDecision):
            mine["missed_knocks"] += fact.knock_available is not None
            mine["missed_gins"] += fact.gin_available
    if shown is not None:
        counts[shown.knocker.player]["showdown_cost"] += shown.knocker.cost
        counts[shown.defender.player]["showdown_cost"] += shown.defender.cost
    return DealAnalysis(
        players=names,
        dealer=deal.dealer,
        void=result.void,
        outcome=result.outcome,
        points=result.points,
        decisions=tuple(decisions),
        showdown=shown,
        summary=tuple(
            PlayerSummary(name, **mine) for name, mine in zip(names, counts, strict=True)
        ),
    )


def _showdown(deal: Deal, result: DealResult) -> ShowdownAnalysis:
    """The knocker's arrangement and the defender's reply against the best ones, as
    :func:`review_knock` measures them."""
    knocker = result.knocker_player
    showdown = result.showdown
    assert knocker is not None and showdown is not None
    review = review_knock(showdown, rules=deal.rules, upcard=deal.upcard)
    mine, theirs = review.knocker, review.defender
    return ShowdownAnalysis(
        KnockerShowdown(
            player=knocker,
            deadwood=mine.deadwood,
            best_deadwood=mine.best_deadwood,
            points=mine.points,
            best_points=mine.best_points,
            cost=mine.cost,
        ),
        DefenderShowdown(
            player=1 - knocker,
            deadwood=theirs.deadwood,
            best_deadwood=theirs.best_deadwood,
            missed_layoffs=codes_of(hand_mask([x.card for x in theirs.missed_layoffs])),
            points=theirs.points,
            best_points=theirs.best_points,
            cost=theirs.cost,
            missed_layoff_worth=theirs.missed_layoffs,
        ),
    )


def _total(
    summaries: Sequence[Sequence[PlayerSummary]], names: Sequence[str]
) -> tuple[PlayerSummary, ...]:
    """Each player's summaries over all deals, added up."""
    return tuple(
        PlayerSummary(
            name,
            **{key: sum(getattr(deal[seat], key) for deal in summaries) for key in SUMMARY_KEYS},
        )
        for seat, name in enumerate(names)
    )
