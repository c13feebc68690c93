"""Every claim of the analysis re-derived by brute force (issue 19): zero false.

The claims of :func:`scorekeeper.analysis.analyse` (the command line's
``scorekeeper analyse``, ``POST /api/v1/analyse``, the replay viewer) and of
:func:`scorekeeper.analysis.review_knock` (the scorepad's hand review) are
checked by :mod:`claims_oracle` on simulated deals (the simulator's bots and
bots that knock only half the time, each knocked deal laid down at random
several ways), on imported deals (OpenSpiel's and the Java framework's, as
played) and on showdowns dealt from aces to fives (where replies to be
rearranged are common). The big run (marked ``slow``, with its sibling
test_analysis_claims_rearranged.py, so two processes share it) counts at
least 10,000 claims of each showdown kind and of discards; the others are
counted as they come. Measured: 10,000 claims take 8 to 15 seconds of CPU;
the fast test here 1.5 seconds.
"""

from __future__ import annotations

import gzip
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from claims_oracle import (
    check_deal,
    check_match,
    check_showdown,
    dense_showdowns,
    showdowns,
    simulated,
    with_showdown,
)

from scorekeeper.analysis import review_knock
from scorekeeper.imports import ImportFault, import_text, openspiel_records
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


def test_claims_on_a_few_simulated_deals_and_dense_showdowns():
    count: Counter = Counter()
    _simulated(range(20), 4, count)
    dense(1, 60, "rearrange", count)
    dense(1, 30, "lay_off", count)
    assert min(count[kind] for kind in ("discard", "knocker", "layoff", "rearranged")) > 10


@pytest.mark.slow
def test_claims_on_imported_deals():
    """OpenSpiel's sample and the Java framework's 60 games, as they were laid down."""
    count: Counter = Counter()
    _openspiel((DATA / "openspiel-sample.jsonl").read_text(), count)
    with gzip.open(DATA / "neller-60-games.log.gz", "rt") as log:
        matches = import_text("neller", log.read()).records
    for match in matches:
        check_match(match, count)
    assert count["defender"] > 300 and count["layoff"] > 0


@pytest.mark.slow
def test_claims_on_fresh_openspiel_deals():
    pytest.importorskip("pyspiel")
    from openspiel_kit import play

    count: Counter = Counter()
    _openspiel("".join(json.dumps(deal["entry"]) + "\n" for deal in play(19, 300)), count)
    assert count["defender"] > 100


@pytest.mark.slow
def test_ten_thousand_claims_of_each_kind():
    """Discards, the knocker's and the defender's showdowns, layoffs missed alone (the
    replies to be rearranged: test_analysis_claims_rearranged.py, in a process of its own)."""
    count: Counter = Counter()
    _simulated(range(1000, 1700), 6, count)
    dense(2, 6_300, "lay_off", count)
    for kind in ("discard", "knocker", "defender", "layoff"):
        assert count[kind] >= 10_000, (kind, count)
