"""Optimal arrangements: the melds a hand lays down for its least deadwood (RULES.md 2).

The deadwood itself is :mod:`scorekeeper.melds`; here are the arrangements
that leave it, found from the same tables: for each choice of sets, each
suit's maximal runs of the rest.

**Canonical arrangements.** Two runs of one suit that touch (3-4-5 and
6-7-8) are listed as one run (3-8): splitting a run changes neither the
deadwood nor what can be laid off on it, so arrangements that differ only in
where a run is cut are the same arrangement and are listed once.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import SUIT_MASK, Card, parse_cards
from .meld_results import Arrangement, DiscardReport, MeldReport
from .melds import (
    _RUN_COVER,
    _RUN_DEADWOOD,
    _RUNS,
    _VALUES,
    _mask_set_ranks,
    _set_choices,
    _sets,
    _sub_runs,
    codes_of,
    discard_options,
    hand_mask,
    mask_points,
    meld_codes,
    meld_sort_key,
)


def _split(mask: int, taken: int) -> tuple[list[int], int]:
    """Melds (as masks) and deadwood mask when ``taken`` holds the chosen sets: the sets
    by rank, then each suit's maximal runs of the rest (four table look-ups)."""
    melds = _sets(taken) if taken else []
    leftover = mask & ~taken
    a = leftover & SUIT_MASK
    b = leftover >> 13 & SUIT_MASK
    c = leftover >> 26 & SUIT_MASK
    d = leftover >> 39
    runs = _RUNS
    if runs[a]:
        melds += runs[a]
    if runs[b]:
        melds += [run << 13 for run in runs[b]]
    if runs[c]:
        melds += [run << 26 for run in runs[c]]
    if runs[d]:
        melds += [run << 39 for run in runs[d]]
    cover = _RUN_COVER
    return melds, leftover ^ (cover[a] | cover[b] << 13 | cover[c] << 26 | cover[d] << 39)


def mask_arrangements(mask: int) -> list[tuple[list[int], int]]:
    """Every optimal arrangement of a mask as (meld masks, deadwood mask).

    Fewest melds first, then by :func:`~scorekeeper.melds.meld_sort_key`; the first is the one
    shown when a single arrangement is wanted.
    """
    ranks = _mask_set_ranks(mask)
    if not ranks:
        return [_split(mask, 0)]
    scored = _scored_set_choices(mask, ranks)
    best = min(value for value, _ in scored)
    found = [_split(mask, taken) for value, taken in scored if value == best]
    if len(found) > 1:
        found.sort(key=lambda found: (len(found[0]), sorted(meld_sort_key(m) for m in found[0])))
    return found


def _scored_set_choices(mask: int, ranks: int) -> list[tuple[int, int]]:
    """``(deadwood, taken)`` for each choice of sets (``taken``, their cards) for the
    set-capable ``ranks`` of a mask, the deadwood being that of the best runs of the rest."""
    table = _RUN_DEADWOOD
    scored = []
    for taken in _set_choices(mask, ranks):
        rest = mask & ~taken
        value = (
            table[rest & SUIT_MASK]
            + table[rest >> 13 & SUIT_MASK]
            + table[rest >> 26 & SUIT_MASK]
            + table[rest >> 39]
        )
        scored.append((value, taken))
    return scored


NO_OTHER = 1 << 30
"""What :func:`first_arrangement` gives as the deadwood of another arrangement when there is
none (more than any hand's)."""


def first_arrangement(mask: int) -> tuple[list[int], int, int]:
    """The first of :func:`mask_arrangements` (melds, deadwood mask), and the least deadwood
    any other way of laying the cards down leaves (:data:`NO_OTHER` when there is none): it
    is the only way to leave at most ``limit`` exactly when its deadwood is at most
    ``limit`` and the other's is over it.

    Any other way (disjoint melds, runs of one suit not touching) either chooses other sets,
    and so leaves at least the deadwood of that choice with its best runs, or the same sets
    with other runs, and so leaves out of runs at least one card of a run of the optimal
    one: a run of three whole (no run of one suit fits in three cards but that one), a
    longer run at least its lowest card; each of these ways is one. Most knockers' hands
    are settled by it without listing their arrangements (issue 30).
    """
    ranks = _mask_set_ranks(mask)
    taken = 0
    beyond = NO_OTHER
    if ranks:
        scored = _scored_set_choices(mask, ranks)
        best, taken = min(scored)
        for value, other in scored:
            if value < beyond and other != taken:
                beyond = value
        if beyond == best:  # more than one optimal arrangement
            melds, dead = mask_arrangements(mask)[0]
            return melds, dead, best
    melds, dead = _split(mask, taken)
    left = mask_points(dead)
    for meld in melds:
        if not meld & taken:
            other_way = left + _CHEAPEST_CHANGE[meld]
            if other_way < beyond:
                beyond = other_way
    return melds, dead, beyond


def _cheapest_change(run: int) -> int:
    """The least deadwood a run adds when the same cards are melded otherwise with the
    runs of its suit not touching: its lowest card left out of a longer run (the cheapest
    card, and what it leaves is a run), else the three cards."""
    low = (run & -run).bit_length() - 1
    return _VALUES[low % 13] if run.bit_count() > 3 else mask_points(run)


_CHEAPEST_CHANGE = {
    run << 13 * suit: _cheapest_change(run << 13 * suit)
    for suit in range(4)
    for run in _sub_runs(SUIT_MASK)
}
""":func:`_cheapest_change` of each of the deck's 264 runs."""


def arrangements(cards: int | str | Iterable[str | Card]) -> tuple[Arrangement, ...]:
    """Every optimal arrangement of the cards, each listed once (:class:`Arrangement`).

    Runs are listed whole (see the module docs). Sets come before runs,
    cards in index order.

    >>> [a.melds for a in arrangements("7c 7d 7h 7s 8s 9s")]
    [(('7c', '7d', '7h'), ('7s', '8s', '9s'))]
    """
    return tuple(_arrangement(melds, dead) for melds, dead in mask_arrangements(hand_mask(cards)))


def _arrangement(melds: Iterable[int], dead: int) -> Arrangement:
    """The arrangement of these meld masks and deadwood mask."""
    ordered = sorted(melds, key=meld_sort_key)
    return Arrangement(tuple([meld_codes(m) for m in ordered]), codes_of(dead), mask_points(dead))


def meld_report(cards: str | Iterable[str | Card]) -> MeldReport:
    """What to tell someone who shows these cards: the arrangements, and the discards
    (:func:`~scorekeeper.melds.discard_options`) when there are 11 of them (a
    :class:`DiscardReport`).

    This is the answer of ``POST /api/v1/melds`` and ``scorekeeper melds``.
    """
    hand = parse_cards(cards, field="cards")
    if len(hand) == 11:
        return DiscardReport(arrangements(hand), discard_options(hand))
    return MeldReport(arrangements(hand))
