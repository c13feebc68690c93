"""Hands for load tests (test_concurrency.py, bench/soak.py): hands that never end a game."""

from __future__ import annotations

import random

TARGET = 10_000
"""A game target far enough that voids and small knocks never end the game."""


def hand_for(rng: random.Random) -> dict:
    """A void (one in three) or a knock of k against k + 1..4 (never gin, never undercut)."""
    if rng.random() < 1 / 3:
        return {"kind": "void"}
    k = rng.randint(1, 10)
    return {"kind": "quick", "knocker": rng.randrange(2), "knocker_deadwood": k,
            "defender_deadwood": k + rng.randint(1, 4)}
