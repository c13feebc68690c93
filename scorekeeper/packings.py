"""The knocker's legal packings, found from the hand's structure (issue 30).

A packing (a legal knocker arrangement: disjoint melds, runs of one suit not
touching) is a choice of sets, one per rank at most, and in each suit a
choice of runs among the cards the sets leave, none touching another. So the
packings leaving at most some deadwood are found without listing the hand's
melds: for each choice of sets (the solver's, see :mod:`scorekeeper.melds`),
the run choices of each suit's 13-bit pattern come from a table made once per
pattern, most cover first, and a suit's choices stop as soon as even the best
of the suits after it could not bring the deadwood within the limit.

:data:`MELD_ORDER` numbers the deck's melds in the order
:func:`~scorekeeper.melds.mask_all_melds` lists a hand's, so the sorted numbers
of two packings' melds compare as the depth-first search over a hand's melds
(``knock._packings``) finds them: the verifier breaks its ties by this order.
"""

from __future__ import annotations

from functools import cache

from .cards import FULL_DECK_MASK, SUIT_MASK
from .melds import (
    _POINTS,
    _mask_set_ranks,
    _set_choices,
    _sets,
    _sub_runs,
    mask_all_melds,
    mask_points,
)

Packing = tuple[int, list[int]]
"""A packing: (the deadwood it leaves, its melds as 52-bit masks)."""

SuitRuns = tuple[tuple[int, list[int]], ...]
"""The run choices of one suit's cards: (points covered, runs as 52-bit masks); never
changed (they are shared)."""

MELD_ORDER = {meld: index for index, meld in enumerate(mask_all_melds(FULL_DECK_MASK))}
"""Each of the deck's 329 melds numbered in the order mask_all_melds() lists them (runs by
suit, low card, high card; then sets by rank, the threes before the four)."""


def packing_order(melds: list[int]) -> list[int]:
    """A packing's place in depth-first order: its melds' :data:`MELD_ORDER`, sorted."""
    return sorted(map(MELD_ORDER.__getitem__, melds))


def packings_within(mask: int, limit: int) -> list[Packing]:
    """Every packing of the cards of ``mask`` leaving at most ``limit`` deadwood (in no
    particular order; :func:`packing_order` orders them)."""
    total = mask_points(mask)
    ranks = _mask_set_ranks(mask)
    found: list[Packing] = []
    for taken in _set_choices(mask, ranks) if ranks else [0]:
        left = total - mask_points(taken)
        rest = mask & ~taken
        suits = []
        most = 0
        for shift in (0, 13, 26, 39):
            pattern = rest >> shift & SUIT_MASK
            if pattern & pattern >> 1 & pattern >> 2:  # some run
                choices = _suit_runs(shift, pattern)
                suits.append(choices)
                most += choices[0][0]
        if left - most <= limit:
            _add_runs(found, suits, 0, left - limit, left, _sets(taken), most)
    return found


def packings_in_order(mask: int, limit: int) -> list[Packing]:
    """:func:`packings_within` in depth-first order over the hand's melds, each packing's
    melds in the order :func:`~scorekeeper.melds.mask_all_melds` lists them."""
    return sorted(
        [
            (dead, sorted(melds, key=MELD_ORDER.__getitem__))
            for dead, melds in packings_within(mask, limit)
        ],
        key=lambda packing: packing_order(packing[1]),
    )


def _add_runs(
    found: list[Packing],
    suits: list[SuitRuns],
    suit: int,
    need: int,
    left: int,
    melds: list[int],
    most: int,
) -> None:
    """Add to ``found`` each packing of ``melds`` with run choices of ``suits[suit:]`` that
    cover at least ``need`` points (``left``: the deadwood without them; ``most``: the
    most they can cover)."""
    if suit == len(suits):
        found.append((left, melds))
        return
    choices = suits[suit]
    later = most - choices[0][0]
    for cover, runs in choices:
        if cover + later < need:
            break  # the choices come most cover first
        _add_runs(found, suits, suit + 1, need - cover, left - cover, melds + runs, later)


@cache
def _suit_runs(shift: int, pattern: int) -> SuitRuns:
    """Every choice of runs in one suit's 13-bit pattern (that suit's cards shifted down
    by ``shift``), none touching another, as (points covered, runs as 52-bit masks), most
    points first (made once per suit and pattern)."""
    runs = _sub_runs(pattern)
    found: list[tuple[int, list[int]]] = []

    def extend(start: int, cover: int, chosen: list[int]) -> None:
        found.append((cover, chosen))
        for run in runs:
            if run & -run >= 1 << start:  # its low card at rank ``start`` or above
                extend(run.bit_length() + 1, cover + _POINTS[run], [*chosen, run << shift])

    extend(0, 0, [])
    found.sort(key=lambda choice: -choice[0])
    return tuple(found)
