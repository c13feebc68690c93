"""Throughput of the rules core on one core: deadwood() and verify_knock().

Prints hands per second for deadwood() over random 10-card hands and over
meld-dense hands (10 cards from 3 suits x 7 consecutive ranks), and
verifications per second for verify_knock() over random legal knocks.
Targets (issue 2): 300,000 random hands/s, 100,000 dense hands/s and
10,000 verifications/s. Run: ``.venv/bin/python bench/melds.py [--count N]``.
"""

from __future__ import annotations

import argparse
import random
import time

from scorekeeper import deadwood, verify_knock
from scorekeeper.cards import DECK


def dense_hand(rng: random.Random, size: int = 10) -> tuple:
    """``size`` cards from 3 random suits x 7 consecutive ranks."""
    suits = rng.sample(range(4), 3)
    low = rng.randrange(0, 7)
    pool = [DECK[s * 13 + r] for s in suits for r in range(low, low + 7)]
    return tuple(rng.sample(pool, size))


def legal_knocks(rng: random.Random, count: int) -> list[tuple[tuple, tuple]]:
    """``count`` (knocker, defender) pairs whose knocker may knock (deadwood <= 10)."""
    knocks = []
    while len(knocks) < count:
        if rng.random() < 0.5:
            knocker = dense_hand(rng)
            rest = [c for c in DECK if c not in knocker]
            defender = tuple(rng.sample(rest, 10))
        else:
            cards = rng.sample(DECK, 20)
            knocker, defender = tuple(cards[:10]), tuple(cards[10:])
        if deadwood(knocker) <= 10:
            knocks.append((knocker, defender))
    return knocks


def rate(label: str, unit: str, count: int, run) -> None:
    start = time.perf_counter()
    run()
    elapsed = time.perf_counter() - start
    print(f"{label:<34} {count / elapsed:>12,.0f} {unit}/s  ({count:,} in {elapsed:.2f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    random_hands = [tuple(rng.sample(DECK, 10)) for _ in range(args.count)]
    dense_hands = [dense_hand(rng) for _ in range(args.count)]
    knocks = legal_knocks(rng, max(args.count // 10, 1000))

    rate("deadwood(), random 10-card hands", "hands", len(random_hands),
         lambda: [deadwood(h) for h in random_hands])
    rate("deadwood(), meld-dense hands", "hands", len(dense_hands),
         lambda: [deadwood(h) for h in dense_hands])
    rate("verify_knock(), random legal knocks", "verifications", len(knocks),
         lambda: [verify_knock(k, d) for k, d in knocks])


if __name__ == "__main__":
    main()
