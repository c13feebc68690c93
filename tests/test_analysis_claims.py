"""Every claim of the analysis re-derived by brute force (issue 19): zero false.

The claims of :func:`scorekeeper.analysis.analyse` (the command line's
``scorekeeper analyse``, ``POST /api/v1/analyse``, the replay viewer) and of
:func:`scorekeeper.knock_review.review_knock` (the scorepad's hand review), of
every kind (:data:`claims_oracle.KINDS`), are checked by :mod:`claims_oracle`
on simulated deals (the simulator's bots, and careless bots dealt hands that
make the rarer claims), on imported deals (OpenSpiel's and the Java
framework's, as played) and on showdowns dealt from aces to fives, laid down
at random or steered. Each slow module counts at least 10,000 claims of its
kinds (:data:`claims_oracle.TEN_THOUSAND`) in the soak tier (``pytest -m
soak``), a twentieth of them (500, on a twentieth of the deals) in the
default run: here the knocker's and the defender's showdowns and the layoffs
missed alone; the others in test_analysis_claims_*.py, each in a process of
its own under xdist. Measured (CPU seconds): the fast test 1.6; the slow
ones here 36 (the 10,000; 2 for the twentieth), 7 (imported) and 6 (fresh
OpenSpiel deals); decisions 39 (4), rearranged 45 (2), needless 75 (6), big
gin 31 (2): about four minutes in all in the soak tier, 16 s by default.
"""

from __future__ import annotations

import gzip
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from claims_oracle import (
    KINDS,
    SETUPS,
    TEN_THOUSAND,
    careless,
    check_deal,
    check_match,
    check_showdown,
    dense_showdowns,
    showdowns,
    simulated,
    ten_thousand,
    with_showdown,
)
from conftest import soak_shares

from scorekeeper.import_faults import ImportFault
from scorekeeper.imports import import_text
from scorekeeper.knock_review import review_knock
from scorekeeper.openspiel import openspiel_records
from scorekeeper.rules import Rules

DATA = Path(__file__).parent / "data"


def _simulated(seeds: range, variants: int, count: Counter) -> None:
    """Each simulated deal as played and laid down at random (analysed), then reviewed
    laid down ``variants`` more ways."""
    rng = random.Random(seeds.start)
    for seed in seeds:
        record = simulated(seed)
        check_deal(record, count)
        varied = with_showdown(record, rng)
        if varied is not None:
            check_deal(varied, count)
        rules = Rules.from_dict(record.get("rules")).to_dict()
        for ours, theirs, result in showdowns(record, rng, variants):
            review = review_knock(result, rules=record.get("rules"), upcard=record["upcard"])
            check_showdown(ours, theirs, result, review, rules, record["upcard"], count)


def dense(seed: int, number: int, steer: str, count: Counter) -> None:
    """``number`` showdowns dealt from aces to fives, steered by ``steer``, reviewed."""
    rules = Rules.from_dict("standard").to_dict()
    for ours, theirs, result in dense_showdowns(seed, number, (steer,) * 4):
        check_showdown(ours, theirs, result, review_knock(result), rules, None, count)


def _openspiel(text: str, count: Counter) -> None:
    """The deals OpenSpiel played (the importer's faults, deals it refuses, left out)."""
    for record in openspiel_records(text):
        if not isinstance(record, ImportFault):
            check_deal(record, count)


def test_claims_of_every_kind_on_a_few_deals_and_showdowns():
    count: Counter = Counter()
    _simulated(range(20), 4, count)
    for setup in SETUPS:
        for seed in range(8):
            check_deal(careless(seed, setup), count)
    dense(1, 60, "rearrange", count)
    dense(1, 30, "lay_off", count)
    dense(1, 30, "needless", count)
    assert {kind for kind in KINDS if count[kind] < 5} == set()
    # each kind is counted to 10,000 by one slow module
    assert sorted(kind for kinds in TEN_THOUSAND.values() for kind in kinds) == sorted(KINDS)
    assert all((Path(__file__).parent / module).is_file() for module in TEN_THOUSAND)


@pytest.mark.slow
def test_claims_on_imported_deals():
    """OpenSpiel's sample and the Java framework's 60 games, as they were laid down."""
    count: Counter = Counter()
    _openspiel((DATA / "openspiel-sample.jsonl").read_text(), count)
    with gzip.open(DATA / "neller-60-games.log.gz", "rt") as log:
        matches = import_text("neller", log.read()).records
    for match in matches:
        check_match(match, count)
    assert count["defender"] > 300 and count["layoff"] > 0 and count["summary"] > 1000


@pytest.mark.slow
def test_claims_on_fresh_openspiel_deals():
    pytest.importorskip("pyspiel")
    from openspiel_kit import play

    count: Counter = Counter()
    _openspiel("".join(json.dumps(deal["entry"]) + "\n" for deal in play(19, 300)), count)
    assert count["defender"] > 100


@pytest.mark.slow
@pytest.mark.parametrize("share", soak_shares())
def test_ten_thousand_showdowns_and_layoffs_missed_alone(share):
    """Simulated deals laid down at random, and showdowns where the defender's own melds
    hold nothing the best reply lays off and nothing is laid off."""
    count: Counter = Counter()
    _simulated(range(1000, 1000 + 200 // share), 6, count)
    dense(2, 8_500 // share, "lay_off", count)
    ten_thousand(count, __file__, share)
