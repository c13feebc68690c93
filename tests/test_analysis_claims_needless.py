"""The review's needless layoffs and the knocker's costly arrangements, 10,000 of each
re-derived by brute force (the rest of the run: test_analysis_claims.py): showdowns dealt
from aces to fives where the knocker keeps more deadwood than it must and the defender
makes no melds of its own but lays off all it can."""

from __future__ import annotations

from collections import Counter

import pytest
from claims_oracle import ten_thousand
from conftest import soak_shares
from test_analysis_claims import dense


@pytest.mark.slow
@pytest.mark.parametrize("share", soak_shares())
def test_ten_thousand_needless_layoffs_and_costly_arrangements(share):
    count: Counter = Counter()
    dense(4, 19_000 // share, "needless", count)
    ten_thousand(count, __file__, share)
