"""A deliberately simple brute-force oracle for the rules core (RULES.md sections 2, 5, 6).

Nothing here imports ``scorekeeper``: cards are plain two-character codes
(``"Ts"``), melds are frozensets of codes, and every question is answered by
enumerating all possibilities:

* every meld inside a hand (every 3/4-subset of one rank, every stretch of
  3+ consecutive ranks of one suit);
* every arrangement (every collection of disjoint melds) -- the lowest
  remaining card is either deadwood or goes into one of the melds that
  contain it, so each collection is produced exactly once;
* every legal set of defender layoffs, by laying cards off one at a time
  onto the knocker's melds in every possible order;
* every arrangement the knocker may lay down (not only optimal ones).

It is slow on purpose-built worst cases but fine for hands of 10-11 cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "cdhs"
ALL_CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
"""The 52 codes in the core's index order (suits c d h s, ranks A..K)."""

Meld = frozenset  # a frozenset of card codes
Arrangement = frozenset  # a frozenset of melds


class IllegalKnock(ValueError):
    """The knock (or big gin claim) breaks the rules."""


def rank(code: str) -> int:
    """0 for an ace .. 12 for a king."""
    return _RANK[code[0]]


def suit(code: str) -> str:
    return code[1]


def value(code: str) -> int:
    """Deadwood points: A 1, 2-9 face value, T J Q K 10."""
    return min(rank(code) + 1, 10)


def index(code: str) -> int:
    return _INDEX[code]


_RANK = {r: RANKS.index(r) for r in RANKS}
_INDEX = {code: at for at, code in enumerate(ALL_CODES)}


def points(cards: Iterable[str]) -> int:
    return sum(value(c) for c in cards)


def hand(cards: str | Iterable[Any]) -> frozenset[str]:
    """Distinct card codes from ``"As 2s 3s"`` or an iterable of codes / objects with str()."""
    codes = cards.split() if isinstance(cards, str) else [str(c) for c in cards]
    for code in codes:
        if code not in ALL_CODES:
            raise ValueError(f"not a card code: {code!r}")
    if len(set(codes)) != len(codes):
        raise ValueError(f"duplicate cards in {codes}")
    return frozenset(codes)


# --------------------------------------------------------------------------- melds


def is_set(cards: Iterable[str]) -> bool:
    cards = list(cards)
    return len(cards) in (3, 4) and len({rank(c) for c in cards}) == 1


def is_run(cards: Iterable[str]) -> bool:
    cards = list(cards)
    if len(cards) < 3 or len({suit(c) for c in cards}) != 1:
        return False
    ranks = sorted(rank(c) for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def is_meld(cards: Iterable[str]) -> bool:
    cards = list(cards)
    return is_set(cards) or is_run(cards)


@cache
def all_melds(cards: frozenset[str]) -> tuple[Meld, ...]:
    """Every meld made of cards of ``cards`` (sets of 3 and 4, runs of every length)."""
    melds: list[Meld] = []
    for r in RANKS:
        same_rank = sorted(r + s for s in SUITS if r + s in cards)
        for size in (3, 4):
            melds.extend(Meld(combo) for combo in combinations(same_rank, size))
    for s in SUITS:
        for low in range(13):
            high = low  # every stretch of held cards from low up
            while high < 12 and RANKS[low] + s in cards and RANKS[high + 1] + s in cards:
                high += 1
                if high - low >= 2:
                    melds.append(Meld(RANKS[r] + s for r in range(low, high + 1)))
    assert all(is_meld(m) for m in melds)
    return tuple(melds)


def arrangements_all(cards: frozenset[str]) -> Iterator[tuple[Meld, ...]]:
    """Every collection of disjoint melds of ``cards``, each exactly once."""
    melds = all_melds(cards)

    def rec(remaining: frozenset[str], chosen: tuple[Meld, ...]) -> Iterator[tuple[Meld, ...]]:
        if not remaining:
            yield chosen
            return
        first = min(remaining, key=index)
        # ``first`` is either deadwood ...
        yield from rec(remaining - {first}, chosen)
        # ... or in exactly one meld made of still-free cards.
        for meld in melds:
            if first in meld and meld <= remaining:
                yield from rec(remaining - meld, (*chosen, meld))

    yield from rec(cards, ())


def arrangement_deadwood(cards: frozenset[str], melds: Iterable[Meld]) -> int:
    melded = frozenset().union(*melds)
    return points(cards - melded)


@cache
def _deadwood(cards: frozenset[str]) -> int:
    return min(arrangement_deadwood(cards, a) for a in arrangements_all(cards))


def deadwood(cards: str | Iterable[Any]) -> int:
    """The minimal deadwood of exactly these cards."""
    return _deadwood(hand(cards))


def canonical(melds: Iterable[Meld]) -> Arrangement:
    """Same-suit runs that touch (3-4-5 and 6-7-8) become one run (3..8)."""
    melds = [Meld(m) for m in melds]
    result = [m for m in melds if not is_run(m)]
    for s in SUITS:
        runs = sorted(
            (m for m in melds if is_run(m) and suit(next(iter(m))) == s),
            key=lambda m: min(rank(c) for c in m),
        )
        merged: list[Meld] = []
        for run in runs:
            if merged and max(rank(c) for c in merged[-1]) + 1 == min(rank(c) for c in run):
                merged[-1] = merged[-1] | run
            else:
                merged.append(run)
        result.extend(merged)
    return Arrangement(result)


def optimal_arrangements(cards: str | Iterable[Any]) -> set[Arrangement]:
    """Every distinct optimal arrangement, canonical, as a set of frozensets of melds."""
    cards = hand(cards)
    best = _deadwood(cards)
    return {canonical(a) for a in arrangements_all(cards) if arrangement_deadwood(cards, a) == best}


def discard_options(cards: str | Iterable[Any]) -> dict[str, int]:
    """For each card of an 11-card hand: the minimal deadwood of the other 10."""
    cards = hand(cards)
    return {c: _deadwood(cards - {c}) for c in cards}


# --------------------------------------------------------------------------- layoffs


def layoff_sets(defender: frozenset[str], knocker_melds: Iterable[Meld]) -> set[frozenset[str]]:
    """Every set of defender cards that can be laid off onto the knocker's melds.

    Cards are laid one at a time; a card may join a meld when meld + card is
    still a meld (the 4th card of a 3-card set, or one rank beyond either end
    of a run, which then keeps growing). Every order is tried.
    """
    start = tuple(sorted((Meld(m) for m in knocker_melds), key=lambda m: sorted(m)))
    knocker_cards = frozenset().union(*start)
    seen: set[tuple[Meld, ...]] = set()
    stack = [start]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        laid = frozenset().union(*state) - knocker_cards
        for card in defender - laid:
            for i, meld in enumerate(state):
                if is_meld(meld | {card}):
                    stack.append((*state[:i], meld | {card}, *state[i + 1 :]))
    return {frozenset().union(*state) - knocker_cards for state in seen}


def defender_best(defender: frozenset[str], knocker_melds: Iterable[Meld]) -> int:
    """The defender's lowest deadwood: own melds and layoffs chosen together."""
    return min(_deadwood(defender - laid) for laid in layoff_sets(defender, knocker_melds))


def defender_with_melds(available: frozenset[str], knocker_melds: Iterable[Meld]) -> int:
    """The defender's lowest deadwood once own melds are fixed: ``available`` (the
    cards outside those melds) can only be laid off or count as deadwood."""
    return min(points(available - laid) for laid in layoff_sets(available, knocker_melds))


def layoffs_are_legal(knocker_melds: Iterable[Meld], layoffs: dict[str, Meld]) -> bool:
    """Each laid-off card names the knocker meld it joined; every meld plus its cards
    must still be one meld (a 4-card set, or a longer run)."""
    knocker_melds = [Meld(m) for m in knocker_melds]
    for meld in set(layoffs.values()):
        if meld not in knocker_melds:
            return False
    for meld in knocker_melds:
        added = {card for card, target in layoffs.items() if target == meld}
        if added and not is_meld(meld | added):
            return False
    return True


# --------------------------------------------------------------------------- knocks


def _opt(rules: Any, name: str) -> Any:
    return rules[name] if isinstance(rules, dict) else getattr(rules, name)


def knock_limit(rules: Any, upcard: str | None) -> int:
    limit = _opt(rules, "knock_limit")
    if not _opt(rules, "oklahoma"):
        return limit
    if upcard is None:
        raise IllegalKnock("Oklahoma needs the upcard")
    if rank(upcard) == 0:
        up_value = 0 if _opt(rules, "ace_upcard") == "gin_only" else 1
    else:
        up_value = value(upcard)
    return min(up_value, limit)


def multiplier(rules: Any, upcard: str | None) -> int:
    return 2 if _opt(rules, "spade_doubles") and upcard is not None and suit(upcard) == "s" else 1


@dataclass
class KnockResult:
    outcome: str  # knock | gin | big_gin | undercut
    winner: str  # knocker | defender
    points: int
    knocker_deadwood: int
    best_deadwood: int
    # Every (K, D) pair the knocker can reach with an equally good arrangement.
    optimal_pairs: set[tuple[int, int]] = field(default_factory=set)


def _score(k: int, d: int, rules: Any, mult: int) -> tuple[str, str, int, int]:
    """(outcome, winner, points, knocker's net) of a plain knock."""
    if k < d:
        return "knock", "knocker", (d - k) * mult, d - k
    net = (k - d) + _opt(rules, "undercut_bonus")
    return "undercut", "defender", net * mult, -net


def verify_knock(
    knocker: Any,
    defender: Any,
    rules: Any,
    upcard: Any = None,
    knocker_melds: Iterable[Iterable[Any]] | None = None,
) -> KnockResult:
    """The result of a knock.

    Without ``knocker_melds`` the knocker lays down whichever legal
    arrangement (deadwood within the limit, not necessarily optimal) gives
    the best result against the defender's best reply; with them, exactly
    that arrangement.
    """
    knocker, defender = hand(knocker), hand(defender)
    upcard = None if upcard is None else str(upcard)
    mult = multiplier(rules, upcard)
    own_d = _deadwood(defender)  # defender's deadwood without layoffs

    if len(knocker) == 11:
        bonus = _opt(rules, "big_gin_bonus")
        if bonus is None or _deadwood(knocker) != 0:
            raise IllegalKnock("big gin not allowed or the 11 cards do not all meld")
        return KnockResult("big_gin", "knocker", (own_d + bonus) * mult, 0, own_d, {(0, own_d)})
    if len(knocker) != 10:
        raise IllegalKnock("the knocker needs 10 cards (11 for big gin)")

    limit = knock_limit(rules, upcard)
    if knocker_melds is not None:
        melds = [hand(m) for m in knocker_melds]
        if (
            not all(is_meld(m) for m in melds)
            or sum(map(len, melds)) != len(frozenset().union(*melds))
            or not frozenset().union(*melds) <= knocker
        ):
            raise IllegalKnock("the declared knocker melds are not disjoint melds of the hand")
        candidates = {canonical(melds)}
    else:
        # Every arrangement the knocker may lay down. Touching runs of one suit
        # allow exactly the same layoffs whether cut or not, so the canonical
        # form is enough to evaluate.
        candidates = {canonical(a) for a in arrangements_all(knocker)}
    candidates = {a for a in candidates if arrangement_deadwood(knocker, a) <= limit}
    if not candidates:
        raise IllegalKnock(f"no arrangement within the knock limit {limit}")
    if any(arrangement_deadwood(knocker, a) == 0 for a in candidates):
        points_ = (own_d + _opt(rules, "gin_bonus")) * mult
        return KnockResult("gin", "knocker", points_, 0, own_d, {(0, own_d)})

    results = []
    for melds in candidates:
        k = arrangement_deadwood(knocker, melds)
        d = defender_best(defender, melds)
        results.append((_score(k, d, rules, mult), k, d))
    best_net = max(score[3] for score, _, _ in results)
    best = [(score, k, d) for score, k, d in results if score[3] == best_net]
    (outcome, winner, points_, _), k, d = min(best, key=lambda r: (r[1], r[2]))
    pairs = {(k2, d2) for _, k2, d2 in best}
    assert len({score[:3] for score, _, _ in best}) == 1
    return KnockResult(outcome, winner, points_, k, d, pairs)


def clear_caches() -> None:
    all_melds.cache_clear()
    _deadwood.cache_clear()
