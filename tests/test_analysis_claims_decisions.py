"""The analysis's claims about decisions, 10,000 of each kind re-derived by brute force
(the rest of the run: test_analysis_claims.py): discards, discards off the best, melds
passed up, knocks and gins missed, in deals played by careless bots (claims_oracle's
``careless``): both dealt 10 melded cards and never going out, or one feeding the other
cards that meld with its hand while that one never takes a card offered."""

from __future__ import annotations

from collections import Counter

import pytest
from claims_oracle import careless, check_deal, ten_thousand
from conftest import soak_shares


@pytest.mark.slow
@pytest.mark.parametrize("share", soak_shares())
def test_ten_thousand_claims_of_each_kind_about_decisions(share):
    count: Counter = Counter()
    for seed in range(800 // share):
        check_deal(careless(seed, "gin"), count)
    for seed in range(1_250 // share):
        check_deal(careless(seed, "feed"), count)
    for seed in range(200 // share):
        check_deal(careless(seed, "faults"), count)
    ten_thousand(count, __file__, share)
