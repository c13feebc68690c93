"""Layoffs: the cards the defender may lay off on the knocker's melds (RULES.md 5).

A set of three takes its fourth card; a run takes the cards below its low end
and above its high end, each end a chain laid one card after another. Here are
those chains and the cards that could start one (:func:`_layoff_reach`, for a
whole hand without listing its melds), the layoff options a knock gives the
defender (:func:`layoff_options`) and the defender's best choice among them
(:func:`_best_reply`); :mod:`scorekeeper.knock` lays them out in a result, and
:mod:`scorekeeper.declarations` checks the layoffs a table declares.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise, product

from .cards import FULL_DECK_MASK, SUIT_MASK
from .melds import mask_all_melds

_RANK_COLUMN = [sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)]
_ACES = _RANK_COLUMN[0]
_KINGS = _RANK_COLUMN[12]
_WINDOW_STARTS = sum(0x7FF << (13 * s) for s in range(4))
"""The cards that can start three consecutive cards of their suit (ace to jack)."""


def _layoff_reach(hand: int) -> int:
    """Every card that could be laid off first on some meld of ``hand``.

    The union of :func:`_reach_of` over every meld the hand can form, found
    without listing them: a run's chains start next to the ends of the block
    of 3+ consecutive cards it lies in (the cards next to a shorter run inside
    the block are the hand's own), and a set's next card is the fourth of a
    rank held exactly three times.
    """
    start = hand & hand >> 1 & hand >> 2 & _WINDOW_STARTS
    runs = start | start << 1 | start << 2
    ends = (runs << 1 & ~_ACES | runs >> 1 & ~_KINGS) & ~runs
    a = hand & SUIT_MASK
    b = hand >> 13 & SUIT_MASK
    c = hand >> 26 & SUIT_MASK
    d = hand >> 39
    three = ((a & b & (c | d)) | (c & d & (a | b))) & ~(a & b & c & d)
    return (ends | three * _ACES & ~hand) & FULL_DECK_MASK


def _chains_of(meld: int) -> tuple[tuple[int, ...], ...]:
    """The cards that can be laid off on a meld, as chains laid one after another.

    A set of three takes its fourth card; a set of four nothing; a run takes
    the cards below its low end (down to the ace) and above its high end (up
    to the king), each chain in the order they must be laid.
    """
    low = (meld & -meld).bit_length() - 1
    rank = low % 13
    column = _RANK_COLUMN[rank]
    if meld & ~column == 0:
        missing = column & ~meld
        return ((missing,),) if meld.bit_count() == 3 else ()
    suit_base = low - rank
    high_rank = meld.bit_length() - 1 - suit_base
    return (
        tuple(1 << (suit_base + r) for r in range(rank - 1, -1, -1)),
        tuple(1 << (suit_base + r) for r in range(high_rank + 1, 13)),
    )


def _reach_of(meld: int) -> int:
    """The cards that could be laid off first on a meld (the head of each chain)."""
    reach = 0
    for chain in _chains_of(meld):
        if chain:
            reach |= chain[0]
    return reach


LayoffOption = tuple[int, list[int]]
"""A knocker meld and the cumulative masks of one chain of cards that may be laid on it
(the first, 0, lays nothing): see :func:`layoff_options`."""


def layoff_options(melds: Iterable[int], available: int) -> list[LayoffOption]:
    """For each chain with a card in ``available``: (meld, cumulative masks that may be laid).

    The chains come from the table of the deck's melds; a mask that is no
    meld (a stored result read back, say) has them worked out as for one.
    """
    options: list[LayoffOption] = []
    for meld in melds:
        if not _REACH.get(meld, available) & available:
            continue  # no chain of this meld starts with an available card
        chains = _CHAINS.get(meld)
        for chain in _chains_of(meld) if chains is None else chains:
            laid = 0
            prefixes = [0]
            for bit in chain:
                if not available & bit:
                    break
                laid |= bit
                prefixes.append(laid)
            if len(prefixes) > 1:
                options.append((meld, prefixes))
    return options


Reply = tuple[int, int, tuple[int, ...]]
"""The defender's best layoffs (:func:`_best_reply`): (deadwood, laid mask, chosen prefix per
option)."""


def _best_reply(
    options: Sequence[LayoffOption], available: int, evaluate: Callable[[int], int]
) -> Reply:
    """The defender's best layoffs (a :data:`Reply`).

    ``evaluate(mask)`` prices the cards left after laying off (their minimal
    deadwood, or their points when the defender's melds are fixed).
    """
    if not options:
        return evaluate(available), 0, ()
    best: tuple[tuple[int, int], int, tuple[int, ...]] | None = None
    for combo in product(*(prefixes for _, prefixes in options)):
        laid = 0
        for part in combo:
            if laid & part:
                break
            laid |= part
        else:
            key = (evaluate(available & ~laid), laid.bit_count())
            if best is None or key < best[0]:
                best = (key, laid, combo)
    # every option's prefixes start with 0 (lay nothing), so some combo fits
    assert best is not None
    (value, _), laid, combo = best
    return value, laid, combo


def _layoff_list(options: Sequence[LayoffOption], combo: Iterable[int]) -> list[tuple[int, int]]:
    """(card bit, knocker meld) pairs for a chosen combination, in laying order."""
    result = []
    for (meld, prefixes), chosen in zip(options, combo, strict=True):
        for previous, current in pairwise(prefixes):
            if current & ~chosen:
                break
            result.append((current & ~previous, meld))
    return result


_ALL_MELDS = mask_all_melds(FULL_DECK_MASK)
"""Every meld of the deck (264 runs, 65 sets): the tables below are keyed by them."""
_CHAINS = {meld: _chains_of(meld) for meld in _ALL_MELDS}


def _chains(meld: int) -> tuple[tuple[int, ...], ...]:
    """The chains of a meld from the table; a mask that is no meld of the deck (a stored
    result read back, cards a table names) has them worked out as for one."""
    return _CHAINS.get(meld) or _chains_of(meld)


_REACH = {meld: _reach_of(meld) for meld in _ALL_MELDS}


def _fits(meld: int, bits: list[int]) -> bool:
    """True when all these cards can be laid off together on the meld."""
    laid = sum(bits)
    for chain in _chains(meld):
        for bit in chain:
            if not laid & bit:
                break
            laid &= ~bit
    return laid == 0
