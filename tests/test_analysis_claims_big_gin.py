"""Big gins and the players' summaries, 10,000 of each re-derived by brute force (the
rest of the run: test_analysis_claims.py): deals under modern rules where the non-dealer
holds 10 of 11 cards that meld and the 11th is the upcard or the top of the stock."""

from __future__ import annotations

from collections import Counter

import pytest
from claims_oracle import careless, check_deal, ten_thousand
from conftest import soak_shares


@pytest.mark.slow
@pytest.mark.parametrize("share", soak_shares())
def test_ten_thousand_big_gins_and_summaries(share):
    count: Counter = Counter()
    for seed in range(10_100 // share):
        check_deal(careless(seed, "big"), count)
    ten_thousand(count, __file__, share)
