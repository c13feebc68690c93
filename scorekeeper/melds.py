"""Melds, deadwood and optimal arrangements (RULES.md section 2).

The solver works on 52-bit hand masks (see :mod:`scorekeeper.cards`). Two
facts keep it small and fast:

* Runs never cross suits, and within one suit, once the cards given to sets
  are taken out, the best use of the rest is to meld every maximal block of
  three or more consecutive cards. So the run-only deadwood of each 13-bit
  suit pattern is precomputed once (``_RUN_DEADWOOD``, 8192 entries).
* Only ranks held three or four times can form sets; each such rank offers
  "no set", the set of all its cards, and (when four are held) each set of
  three. The optimum is the minimum over these few choices of the four
  table look-ups.

**Canonical arrangements.** Two runs of one suit that touch (3-4-5 and
6-7-8) are listed as one run (3-8): splitting a run changes neither the
deadwood nor what can be laid off on it, so arrangements that differ only in
where a run is cut are the same arrangement and are listed once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cache, lru_cache
from itertools import combinations

from .cards import DECK, SUIT_MASK, Card, cards_mask, parse_cards
from .errors import CardError
from .meld_results import Arrangement as Arrangement
from .meld_results import DiscardOption as DiscardOption
from .meld_results import DiscardReport as DiscardReport
from .meld_results import MeldReport as MeldReport

_VALUES = tuple(min(rank + 1, 10) for rank in range(13))


def _blocks(pattern: int) -> list[tuple[int, int]]:
    """Maximal runs of consecutive set bits of a 13-bit pattern, as (low, high) ranks."""
    result = []
    rank = 0
    while rank < 13:
        if pattern >> rank & 1:
            start = rank
            while rank < 13 and pattern >> rank & 1:
                rank += 1
            result.append((start, rank - 1))
        else:
            rank += 1
    return result


def _runs(pattern: int) -> tuple[int, ...]:
    """The maximal runs (blocks of 3+ consecutive ranks) of a 13-bit pattern."""
    return tuple(
        ((1 << (high - low + 1)) - 1) << low for low, high in _blocks(pattern) if high - low >= 2
    )


def _sub_runs(pattern: int) -> tuple[int, ...]:
    """Every run (3+ consecutive ranks) inside a 13-bit pattern."""
    return tuple(
        ((1 << (end - start + 1)) - 1) << start
        for low, high in _blocks(pattern)
        for start in range(low, high - 1)
        for end in range(start + 2, high + 1)
    )


_RUNS: tuple[tuple[int, ...], ...] = tuple(_runs(p) for p in range(1 << 13))
"""The maximal runs of each 13-bit suit pattern."""

_RUN_COVER: tuple[int, ...] = tuple(map(sum, _RUNS))
"""The cards of each 13-bit suit pattern that its maximal runs take."""

_RUN_DEADWOOD: tuple[int, ...] = tuple(
    sum(_VALUES[r] for r in range(13) if (p & ~_RUN_COVER[p]) >> r & 1) for p in range(1 << 13)
)
"""Deadwood of one suit's 13-bit pattern when only runs may be formed."""


def _code_table(suit: int) -> tuple[tuple[str, ...], ...]:
    """[13-bit pattern] -> the codes of those cards of ``suit``, in rank order.

    Built by doubling: the patterns holding rank r are those below 1 << r
    with r's code added.
    """
    table: list[tuple[str, ...]] = [()]
    for card in DECK[suit * 13 : suit * 13 + 13]:
        table += [(*codes, card.code) for codes in table]
    return tuple(table)


_CLUB_CODES, _DIAMOND_CODES, _HEART_CODES, _SPADE_CODES = (_code_table(s) for s in range(4))

_POINTS: tuple[int, ...] = tuple(
    sum(_VALUES[r] for r in range(13) if p >> r & 1) for p in range(1 << 13)
)
"""Point value of one suit's 13-bit pattern."""


def _set_options() -> dict[int, tuple[int, ...]]:
    """The cards of a rank held three or four times (a 52-bit mask) -> the 52-bit masks its
    set may take: none, all of them, and (held four times) each three."""
    options = {}
    for rank in range(13):
        column = [1 << (s * 13 + rank) for s in range(4)]
        for held in [*combinations(column, 3), tuple(column)]:
            choices = [0, sum(held)]
            if len(held) == 4:
                choices += [sum(trio) for trio in combinations(held, 3)]
            options[sum(held)] = tuple(choices)
    return options


_SET_OPTIONS = _set_options()


def hand_mask(cards: int | str | Iterable[str | Card]) -> int:
    """The 52-bit mask of ``cards`` (a mask is returned as it is).

    A tuple or list of :class:`Card` objects (the solver's hot path) is
    or-ed together here, in one loop: the loop of
    :func:`~scorekeeper.cards.card_list_mask`, written out because the call
    to it cost a third of a ``deadwood()`` (measured in separate processes:
    600-650k against 390-420k hands/s; ``reduce`` over ``attrgetter`` was
    slower still). Duplicates count once. Anything else goes through
    :func:`parse_cards`.
    """
    kind = cards.__class__
    if kind is tuple or kind is list:
        mask = 0
        try:
            for card in cards:  # type: ignore[union-attr]
                mask |= card.bit  # type: ignore[union-attr]
        except AttributeError:  # not a Card (only cards have a bit): parse them
            pass
        else:
            return mask
    elif kind is int:
        return cards  # type: ignore[return-value]
    return cards_mask(parse_cards(cards))


def mask_points(mask: int) -> int:
    """The point value of all cards in a mask."""
    return (
        _POINTS[mask & SUIT_MASK]
        + _POINTS[mask >> 13 & SUIT_MASK]
        + _POINTS[mask >> 26 & SUIT_MASK]
        + _POINTS[mask >> 39 & SUIT_MASK]
    )


def _set_choices(mask: int, ranks: int) -> list[int]:
    """Every combination of set choices for the set-capable ``ranks`` of ``mask``."""
    choices = [0]
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        options = _SET_OPTIONS[mask & low * _EACH_SUIT]  # the cards held of that rank
        choices = [chosen | option for chosen in choices for option in options]
    return choices


_EACH_SUIT = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""A rank's bit (13-bit) times this is that rank's four cards (52-bit)."""


def _set_deadwood(a: int, b: int, c: int, d: int, ranks: int) -> int:
    """Minimal deadwood of four suit patterns whose ``ranks`` (13-bit) may form sets.

    The lowest such rank is left to the runs, or set with all its cards, or
    (held four times) set with three, leaving one suit's card to the runs;
    each choice recurses on the other ranks. With one rank left the choices
    are priced directly from per-suit look-ups with and without that rank.
    """
    rank = ranks & -ranks
    others = ranks ^ rank
    keep = ~rank
    a2, b2, c2, d2 = a & keep, b & keep, c & keep, d & keep
    four = a & b & c & d & rank
    if others:
        best = _set_deadwood(a, b, c, d, others)
        for option in (
            (a2, b2, c2, d2),
            (a, b2, c2, d2),
            (a2, b, c2, d2),
            (a2, b2, c, d2),
            (a2, b2, c2, d),
        )[: 5 if four else 1]:
            value = _set_deadwood(*option, others)
            if value < best:
                best = value
        return best
    table = _RUN_DEADWOOD
    wa, wb, wc, wd = table[a], table[b], table[c], table[d]
    xa, xb, xc, xd = table[a2], table[b2], table[c2], table[d2]
    melded = xa + xb + xc + xd
    if four:
        melded += min(0, wa - xa, wb - xb, wc - xc, wd - xd)
    unmelded = wa + wb + wc + wd
    return melded if melded < unmelded else unmelded


def mask_discards(mask: int, barred: int = 0) -> Iterator[tuple[int, int]]:
    """Each card of ``mask`` but those in ``barred``, with the deadwood left without it.

    Yields ``(bit, mask_deadwood(mask ^ bit))`` in index order, one at a time,
    so a caller looking for a good enough discard can stop at the first.
    """
    rest = mask & ~barred
    while rest:
        bit = rest & -rest
        rest ^= bit
        yield bit, mask_deadwood(mask ^ bit)


def deadwood(cards: int | str | Iterable[str | Card]) -> int:
    """The minimal deadwood count of exactly these cards (any number of them), or of
    the cards of a 52-bit mask (:func:`mask_deadwood` is this function).

    >>> deadwood("As 2s 3s 7c 7d 7h 9d Td Jd Kc")
    10

    Most hands hold no rank three times and cost four look-ups; the others
    go to :func:`_set_deadwood`. The solver's hot paths (a mask; a tuple of
    cards, the bench's and the bots' case) are read here without calling
    :func:`hand_mask`: each call saved is a twentieth of a ``deadwood()``.
    """
    kind = cards.__class__
    if kind is int:
        mask: int = cards  # type: ignore[assignment]
    elif kind is tuple:
        mask = 0
        try:
            for card in cards:  # type: ignore[union-attr]
                mask |= card.bit  # type: ignore[union-attr]
        except AttributeError:
            mask = hand_mask(cards)
    else:
        mask = hand_mask(cards)
    a = mask & SUIT_MASK
    b = mask >> 13 & SUIT_MASK
    c = mask >> 26 & SUIT_MASK
    d = mask >> 39
    ranks = (a & b & (c | d)) | (c & d & (a | b))
    if not ranks:
        table = _RUN_DEADWOOD
        return table[a] + table[b] + table[c] + table[d]
    return _set_deadwood(a, b, c, d, ranks)


mask_deadwood: Callable[[int], int] = deadwood
"""Minimal deadwood of the cards in a 52-bit mask: :func:`deadwood` itself, under the name
its callers holding masks read best (one function, no extra call on the hot path)."""


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


def _sets(taken: int) -> list[int]:
    """The sets a choice of set cards (``taken``) makes, one per rank (by its lowest card)."""
    melds = []
    rest = taken
    while rest:
        low = rest & -rest
        meld = taken & _RANK_COLUMNS[(low.bit_length() - 1) % 13]
        melds.append(meld)
        rest ^= meld
    return melds


_RANK_COLUMNS = tuple(sum(1 << (s * 13 + rank) for s in range(4)) for rank in range(13))
"""The four cards of each rank, as 52-bit masks."""


def codes_of(mask: int) -> tuple[str, ...]:
    """Codes of the cards in a mask, in index order: four table look-ups (one per suit)."""
    return (
        _CLUB_CODES[mask & SUIT_MASK]
        + _DIAMOND_CODES[mask >> 13 & SUIT_MASK]
        + _HEART_CODES[mask >> 26 & SUIT_MASK]
        + _SPADE_CODES[mask >> 39]
    )


def mask_codes(mask: int) -> list[str]:
    """Codes of the cards in a mask, in index order, as a list (see :func:`codes_of`)."""
    return list(codes_of(mask))


@cache
def meld_codes(meld: int) -> tuple[str, ...]:
    """:func:`codes_of` a meld, remembered: a deck has 329 melds, and each result names
    every meld it holds by its codes."""
    return codes_of(meld)


@cache
def meld_sort_key(meld: int) -> tuple[int, int]:
    """Display order of melds: sets before runs, then by their lowest card (cached: a
    hand has few hundred possible melds)."""
    is_set = _is_set_mask(meld)
    low = (meld & -meld).bit_length() - 1
    return (0 if is_set else 1, low % 13 if is_set else low)


def _is_set_mask(meld: int) -> bool:
    low = (meld & -meld).bit_length() - 1
    rank = low % 13
    same_rank = 1 << rank | 1 << (rank + 13) | 1 << (rank + 26) | 1 << (rank + 39)
    return meld & ~same_rank == 0


def mask_arrangements(mask: int) -> list[tuple[list[int], int]]:
    """Every optimal arrangement of a mask as (meld masks, deadwood mask).

    Fewest melds first, then by :func:`meld_sort_key`; the first is the one
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


def _mask_set_ranks(mask: int) -> int:
    """13-bit pattern of the ranks a mask holds in three or four suits."""
    a = mask & SUIT_MASK
    b = mask >> 13 & SUIT_MASK
    c = mask >> 26 & SUIT_MASK
    d = mask >> 39
    return (a & b & (c | d)) | (c & d & (a | b))


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
    (:func:`discard_options`) when there are 11 of them (a :class:`DiscardReport`).

    This is the answer of ``POST /api/v1/melds`` and ``scorekeeper melds``.
    """
    hand = parse_cards(cards, field="cards")
    if len(hand) == 11:
        return DiscardReport(arrangements(hand), discard_options(hand))
    return MeldReport(arrangements(hand))


def discard_options(cards: int | str | Iterable[str | Card]) -> tuple[DiscardOption, ...]:
    """For 11 cards, the deadwood left by each possible discard, lowest first.

    Each is a :class:`DiscardOption`; ties keep card order. This is the true
    best 10 of 11, not "meld 11 then drop the highest deadwood card".
    """
    hand = parse_cards(cards, count=11) if type(cards) is not int else None
    mask = hand_mask(hand if hand is not None else cards)
    if mask.bit_count() != 11:
        raise CardError(
            f"expected 11 cards, got {mask.bit_count()}",
            code="wrong_card_count",
            params={"expected": [11], "count": mask.bit_count()},
        )
    options = sorted((left, bit.bit_length() - 1) for bit, left in mask_discards(mask))
    return tuple(DiscardOption(DECK[index].code, value) for value, index in options)


def mask_all_melds(mask: int) -> list[int]:
    """Every meld the cards can form: each run of 3+ within held cards, each set of 3 or 4."""
    melds: list[int] = []
    for suit in range(4):
        pattern = mask >> (13 * suit) & SUIT_MASK
        if pattern & pattern >> 1 & pattern >> 2:
            melds += _suit_runs(suit, pattern)
    ranks = _mask_set_ranks(mask)
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        melds += _SET_MELDS[mask & low * _EACH_SUIT]
    return melds


@lru_cache(maxsize=8192)
def _suit_runs(suit: int, pattern: int) -> tuple[int, ...]:
    """Every run inside one suit's 13-bit pattern, as 52-bit masks."""
    return tuple(run << (13 * suit) for run in _sub_runs(pattern))


_SET_MELDS: dict[int, tuple[int, ...]] = {
    held: (
        *(sum(trio) for trio in combinations([1 << i for i in range(52) if held >> i & 1], 3)),
        *((held,) if held.bit_count() == 4 else ()),
    )
    for held in _SET_OPTIONS
}
"""The cards of a rank held three or four times (52-bit) -> the sets they form (the threes,
then the four)."""


def all_melds(cards: int | str | Iterable[str | Card]) -> list[list[str]]:
    """Every meld that can be formed from the cards (overlapping ones included)."""
    return [mask_codes(m) for m in sorted(mask_all_melds(hand_mask(cards)), key=meld_sort_key)]


def meld_kind(cards: Iterable[Card]) -> str | None:
    """``"set"``, ``"run"``, or ``None`` when the cards are not a meld."""
    cards = list(cards)
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return None
    if len(cards) <= 4 and len({c.rank for c in cards}) == 1:
        return "set"
    if len({c.suit for c in cards}) == 1:
        ranks = sorted(c.rank for c in cards)
        if ranks[-1] - ranks[0] == len(ranks) - 1:
            return "run"
    return None


def is_meld(cards: Iterable[Card]) -> bool:
    """True when the cards form a set or a run."""
    return meld_kind(cards) is not None
