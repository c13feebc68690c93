"""Scoring a showdown: the points of a hand from the two deadwood counts (RULES.md 6)."""

from __future__ import annotations

from functools import cache

from .knock_results import Breakdown, KnockResult, Score
from .results import Outcome, Side
from .rules import Rules


def _net(knocker_deadwood: int, defender_deadwood: int, rules: Rules) -> int:
    """The knocker's result of a knock: positive when won, negative when undercut.

    A tie is 0 under ``tie: no_score``.
    """
    if knocker_deadwood < defender_deadwood:
        return defender_deadwood - knocker_deadwood
    if knocker_deadwood == defender_deadwood and rules.tie == "no_score":
        return 0
    return -(knocker_deadwood - defender_deadwood + rules.undercut_bonus)


@cache
def _breakdown(difference: int, bonus: int, multiplier: int) -> Breakdown:
    """The :class:`Breakdown` of these figures, remembered (immutable, and a few hundred)."""
    return Breakdown(difference, bonus, multiplier)


def score_hand(
    knocker_deadwood: int,
    defender_deadwood: int,
    rules: Rules,
    *,
    big_gin: bool = False,
    multiplier: int = 1,
) -> Score:
    """The score of a showdown from the two deadwood counts (RULES.md section 6).

    Big gin when ``big_gin``, gin when the knocker has 0 (never undercut), a
    knock when K < D, else an undercut (a tie included, unless ``tie`` is
    ``no_score``: then a tie is outcome ``tie``, winner ``None``, 0 points);
    ``multiplier`` is 2 for an Oklahoma spade upcard. Returns a :class:`Score`;
    the counts are taken as given (callers check them).

    >>> score_hand(3, 12, Rules.preset("standard")).to_dict()
    {'outcome': 'knock', 'winner': 'knocker', 'points': 9, 'breakdown': {'difference': 9, \
'bonus': 0, 'multiplier': 1}}
    >>> score_hand(6, 6, Rules.preset("openspiel")).winner is None
    True
    """
    outcome, winner, difference, bonus = _scored(
        knocker_deadwood, defender_deadwood, rules, big_gin
    )
    return Score(
        outcome=outcome,
        winner=winner,
        points=(difference + bonus) * multiplier,
        breakdown=Breakdown(difference=difference, bonus=bonus, multiplier=multiplier),
    )


def _scored(k: int, d: int, rules: Rules, big_gin: bool) -> tuple[Outcome, Side | None, int, int]:
    """What :func:`score_hand` scores, as (outcome, winner, difference, bonus)."""
    if big_gin:  # callers refuse big gin when big_gin_bonus is null
        return Outcome.BIG_GIN, Side.KNOCKER, d, rules.big_gin_bonus or 0
    if k == 0:
        return Outcome.GIN, Side.KNOCKER, d, rules.gin_bonus
    if k < d:
        return Outcome.KNOCK, Side.KNOCKER, d - k, 0
    if k == d and rules.tie == "no_score":
        return Outcome.TIE, None, 0, 0
    return Outcome.UNDERCUT, Side.DEFENDER, k - d, rules.undercut_bonus


def knocker_points(result: Score | KnockResult) -> int:
    """What a scored showdown gives the knocker: + points won, - points lost, 0 for a tie.

    >>> knocker_points(score_hand(9, 2, Rules.preset("standard")))
    -32
    """
    if result.winner == Side.KNOCKER:
        return result.points
    return -result.points if result.winner == Side.DEFENDER else 0
