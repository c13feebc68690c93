"""A showdown measured against optimal play: :func:`review_knock`.

Each player is measured against the other's best play: the knocker's
arrangement against the best legal one, each against the defender's best
reply (a defender's mistake never hides a knocker's); the defender's reply
against the best reply to the arrangement laid down, and each layoff it
missed with what laying off that card alone changes, everything else as
laid down, or, when it needs the defender's own melds rearranged, so marked
with what the best reply is worth (:class:`MissedLayoff`). A showdown
entered card by card is reviewed so too, so the scorepad and the deal
analysis (:mod:`scorekeeper.analysis`) say the same of a hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from .cards import DECK, Card
from .knock import KnockResult, Layoff, verify_knock
from .layoffs import layoff_options
from .melds import hand_mask, mask_points
from .results import Result
from .rules import Rules
from .showdown_scoring import knocker_points, score_hand


@dataclass(frozen=True, slots=True)
class KnockerReview(Result):
    """The knocker's arrangement against the best one (:func:`review_knock`).

    ``points`` is what the arrangement laid down scores for the knocker (+
    won, - lost, 0 for a tie), ``best_points`` what the best legal
    arrangement scores, both against the defender's best reply; ``cost``
    the difference. When it costs something, ``best_melds`` are the best
    arrangement's melds and ``missed_melds`` those of them not laid down
    (both empty otherwise).
    """

    deadwood: int
    best_deadwood: int
    points: int
    best_points: int
    cost: int
    best_melds: tuple[tuple[str, ...], ...]
    missed_melds: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class MissedLayoff(Layoff):
    """A layoff the best reply makes and the reply laid down did not, and what it is worth.

    ``card`` goes on the knocker's ``meld`` (as the best reply lays it).
    Unless ``rearranged``: ``cards`` are the cards of that one change, in
    laying order, ``card`` last (the cards a run needs laid off before it
    first), all deadwood as laid down, and ``points`` what that change alone
    is worth to the defender, everything else as laid down. ``rearranged``:
    no such change lays ``card`` off (it, or a card it needs, is in one of
    the defender's own melds, or laid off elsewhere): only a reply with the
    defender's own melds (or layoffs) rearranged does; then ``cards`` are
    every card the best reply lays off and the reply laid down did not, and
    ``points`` what the best reply is worth against the reply laid down.
    """

    cards: tuple[str, ...]
    """Unless rearranged: the cards of that one change, in laying order, card last (those
    a run needs first). Rearranged: every card the best reply lays off that the reply
    did not."""
    points: int
    """Unless rearranged: what laying off cards alone is worth to the defender, everything
    else as laid down. Rearranged: what the best reply is worth against the reply laid
    down."""
    rearranged: bool
    """The card (or one it needs) is in one of the defender's own melds as laid down, or
    laid off elsewhere: only a rearranged reply lays it off."""


@dataclass(frozen=True, slots=True)
class DefenderReview(Result):
    """The defender's reply against the best one to the same arrangement (:func:`review_knock`).

    ``points`` is what the defender scored (+ won, - lost), ``best_points``
    what the best reply (own melds and layoffs chosen together) would have
    scored; ``cost`` the difference. When it costs something,
    ``missed_layoffs`` are the best reply's layoffs not made, each with
    what it is worth (:class:`MissedLayoff`), and ``needless_layoffs`` the
    cards laid off that the best reply keeps in the defender's own melds
    (both empty otherwise).
    """

    deadwood: int
    best_deadwood: int
    points: int
    best_points: int
    cost: int
    missed_layoffs: tuple[MissedLayoff, ...]
    needless_layoffs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class KnockReview(Result):
    """What optimal play would have changed in a showdown (:func:`review_knock`)."""

    knocker: KnockerReview
    defender: DefenderReview


def review_knock(
    result: KnockResult,
    *,
    rules: Rules | Mapping[str, Any] | str | None = None,
    upcard: str | Card | None = None,
) -> KnockReview:
    """A scored showdown (the melds and layoffs as laid down) against optimal play.

    Each player is measured on their own choice, the other's play being
    optimal: the knocker's arrangement and the best legal one, each against
    the defender's best reply (the knocker lays down first and cannot know
    what the defender will get wrong); the defender's reply and the best
    reply to the arrangement actually laid down. So a knocker's cost is
    never hidden by a defender's mistake, nor the other way round. ``rules``
    and ``upcard`` are the hand's, as for
    :func:`~scorekeeper.knock.verify_knock`.

    >>> laid = verify_knock("Ah 2h 3h 3c 3d 9s 9d 9c As 2c", "4h 5h Kc Kd Ks Js Qs 8d 6s Tc",
    ...                     knocker_melds=["Ah 2h 3h", "9s 9d 9c"], layoffs=[])
    >>> review = review_knock(laid)
    >>> review.knocker.cost, review.knocker.missed_melds, review.defender.cost
    (12, (('3c', '3d', '3h'),), 9)
    >>> [x.card for x in review.defender.missed_layoffs]
    ['4h', '5h']
    """
    knocker, defender = result.knocker.cards, result.defender.cards
    best = verify_knock(knocker, defender, rules=rules, upcard=upcard)
    reply = verify_knock(
        knocker, defender, rules=rules, upcard=upcard, knocker_melds=result.knocker.melds
    )
    points, best_points = knocker_points(reply), knocker_points(best)
    knocker_cost = best_points - points
    missed_melds = tuple(m for m in best.knocker.melds if m not in result.knocker.melds)
    return KnockReview(
        knocker=KnockerReview(
            deadwood=result.knocker.deadwood,
            best_deadwood=best.knocker.deadwood,
            points=points,
            best_points=best_points,
            cost=knocker_cost,
            best_melds=best.knocker.melds if knocker_cost else (),
            missed_melds=missed_melds if knocker_cost else (),
        ),
        defender=_defender_review(result, reply, points, Rules.from_dict(rules)),
    )


def _defender_review(
    result: KnockResult, reply: KnockResult, points: int, rules: Rules
) -> DefenderReview:
    """The defender's reply in ``result`` against ``reply``, the best reply to the
    arrangement laid down, after which the knocker scores ``points``."""
    scored = knocker_points(result)
    cost = scored - points  # the defender's points are the knocker's, negated
    laid = {x.card for x in result.defender.layoffs}
    # needless: laid off, where the best reply melds it (one it leaves as deadwood, the run
    # it was laid on needing a card the best reply melds, was not needless)
    kept = {card for meld in reply.defender.melds for card in meld}
    missed = [x for x in reply.defender.layoffs if x.card not in laid] if cost else []
    return DefenderReview(
        deadwood=result.defender.deadwood,
        best_deadwood=reply.defender.deadwood,
        points=-scored,
        best_points=-points,
        cost=cost,
        missed_layoffs=_worth(result, missed, cost, rules),
        needless_layoffs=tuple(sorted(laid & kept, key=list(result.defender.cards).index))
        if cost
        else (),
    )


def _worth(
    result: KnockResult,
    missed: Sequence[Layoff],
    cost: int,
    rules: Rules,
) -> tuple[MissedLayoff, ...]:
    """Each missed layoff with what laying it off changes, everything else as laid down.

    A card is laid off alone (with the cards of its run it needs first) when
    it and they are deadwood as laid down: the defender's points with that
    change against the points scored. Otherwise it needs the reply
    rearranged, and is worth what the best reply is (``cost``).
    """
    if not missed:
        return ()
    shown = result.defender
    extended = {hand_mask(meld): hand_mask(meld) for meld in result.knocker.melds}
    for x in shown.layoffs:
        extended[hand_mask(x.meld)] |= hand_mask([x.card])
    chains = [
        [prefix ^ before for before, prefix in pairwise(prefixes)]
        for _, prefixes in layoff_options(extended.values(), hand_mask(shown.deadwood_cards))
    ]
    scored = knocker_points(result)
    every = tuple(x.card for x in missed)
    found = []
    for x in missed:
        bit = hand_mask([x.card])
        # the cards laid off one after another up to the card, on the shortest way
        ways = [chain[: chain.index(bit) + 1] for chain in chains if bit in chain]
        if not ways:
            found.append(MissedLayoff(x.card, x.meld, every, cost, True))
            continue
        way = min(ways, key=len)
        change = score_hand(
            result.knocker.deadwood,
            shown.deadwood - mask_points(sum(way)),
            rules,
            multiplier=result.breakdown.multiplier,
        )
        cards = tuple(DECK[b.bit_length() - 1].code for b in way)
        found.append(MissedLayoff(x.card, x.meld, cards, scored - knocker_points(change), False))
    return tuple(found)
