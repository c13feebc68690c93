"""The analysis's missed layoffs that need the defender's reply rearranged, 10,000 of
them re-derived by brute force (the rest of the run: test_analysis_claims.py)."""

from __future__ import annotations

from collections import Counter

import pytest
from claims_oracle import ten_thousand
from conftest import soak_shares
from test_analysis_claims import dense


@pytest.mark.slow
@pytest.mark.parametrize("share", soak_shares())
def test_ten_thousand_layoffs_that_need_the_reply_rearranged(share):
    count: Counter = Counter()
    dense(3, 7_800 // share, "rearrange", count)
    ten_thousand(count, __file__, share)
