"""Simulation (scorekeeper.bots): determinism, round trips and an independent rescoring."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import examples
from engine_kit import check_result

from scorekeeper import Deal, RuleError, Rules, deadwood, replay, simulate
from scorekeeper.bots import simulate_deal, simulate_match

ROUND_TRIP_SEEDS = range(2000)


def test_simulate_is_deterministic_and_seeded():
    for seed in (0, 1, 12345, "club night"):
        assert simulate(seed) == simulate(seed)
        assert simulate(seed)["seed"] == seed
    assert simulate(1)["hands"] != simulate(2)["hands"]
    assert simulate(7, players=("random", "random")) == simulate(7, players="random,random")
    assert {simulate(seed)["dealer"] for seed in range(20)} == {0, 1}
    assert simulate(3, dealer=1)["dealer"] == 1


def test_simulated_record_shape():
    record = simulate(5, players=("greedy", "random"), rules="oklahoma")
    assert record["format"] == "gin-rummy-deal/1"
    assert record["players"] == ["greedy 1", "random 2"]
    assert record["rules"] == "oklahoma"
    assert len(record["hands"][0]) == len(record["hands"][1]) == 10
    assert len(record["stock"]) == 31 and "showdown" not in record
    changed = simulate(5, rules={"preset": "oklahoma", "undercut_bonus": 25})
    assert changed["rules"] == {"preset": "oklahoma", "undercut_bonus": 25}


def test_unknown_player_kinds_are_refused():
    with pytest.raises(RuleError, match="unknown player kind 'smart'"):
        simulate(1, players=("greedy", "smart"))
    with pytest.raises(RuleError, match="two player kinds"):
        simulate(1, players=("greedy",))


@pytest.mark.slow
@pytest.mark.parametrize("kinds", [("greedy", "greedy"), ("random", "random")])
def test_round_trip_over_thousands_of_seeds(kinds):
    outcomes = Counter()
    for seed in ROUND_TRIP_SEEDS:
        record, result = simulate_deal(seed, players=kinds)
        replayed = replay(json.loads(json.dumps(record)))
        assert replayed == result, seed
        outcomes["void" if result.void else result.outcome] += 1
    assert sum(outcomes.values()) == len(ROUND_TRIP_SEEDS)
    if kinds[0] == "greedy":
        assert outcomes["knock"] > 1000 and outcomes["gin"] > 0 and outcomes["undercut"] > 0
    else:
        assert outcomes["void"] > 1000 and outcomes["knock"] > 0


@pytest.mark.parametrize(
    "rules",
    [
        "modern",
        "oklahoma",
        "straight",
        "classic",
        {"wall": "knock_only_at_two"},
        {"next_dealer": "loser"},
    ],
)
def test_round_trip_under_other_rules(rules):
    for seed in range(examples(150)):
        for kinds in (("greedy", "greedy"), ("greedy", "random")):
            record, result = simulate_deal(seed, players=kinds, rules=rules)
            assert replay(record) == result


@pytest.mark.slow
def test_scores_recomputed_independently():
    checked = Counter()
    for rules in ("standard", "modern", "oklahoma", "classic"):
        options = Rules.from_dict(rules).to_dict()
        for seed in range(120):
            for kinds in (("greedy", "greedy"), ("random", "greedy")):
                result = replay(simulate(seed, players=kinds, rules=rules))
                if not result.void:
                    check_result(result, options)
                    checked[result.outcome] += 1
    assert checked["knock"] > 500 and checked["gin"] > 0 and checked["undercut"] > 0


@pytest.mark.slow
def test_big_gin_happens_under_modern_rules():
    found = next(
        (
            seed
            for seed in range(3000)
            if simulate_deal(seed, rules="modern")[1].outcome == "big_gin"
        ),
        None,
    )
    assert found is not None, "no big gin in 3000 greedy deals"
    result = replay(simulate(found, rules="modern"))
    assert len(result.knocker.cards) == 11 and result.discard is None


def test_greedy_knocks_as_soon_as_it_can_and_takes_only_helpful_discards():
    for seed in range(examples(150)):
        record = simulate(seed)
        deal = Deal(
            record["hands"],
            record["upcard"],
            record["stock"],
            dealer=record["dealer"],
            rules=record["rules"],
        )
        for action in record["actions"]:
            legal = deal.legal_actions()
            hand = list(deal.hand(deal.turn))
            if deal.phase == "discard":
                can_go_out = any(a.startswith(("knock", "gin")) for a in legal)
                assert action.startswith(("knock", "gin")) == can_go_out
            elif "draw discard" in legal and not deal.wall:
                top = deal.top
                helps = any(
                    deadwood([*hand, top][:i] + [*hand, top][i + 1 :]) < deadwood(hand)
                    for i in range(10)
                )
                assert (action == "draw discard") == helps
            deal.apply(action)


@pytest.mark.slow
def test_random_player_is_uniform_on_the_upcard_offer():
    first = Counter(
        simulate(seed, players=("random", "random"))["actions"][0] for seed in range(1000)
    )
    assert set(first) == {"pass", "draw discard"}
    assert 400 < first["pass"] < 600


def test_simulated_matches_follow_the_rotation_and_end():
    for seed in range(3):
        for rules in (None, "hollywood", "oklahoma"):
            record = simulate_match(seed, rules=rules)
            assert record == simulate_match(seed, rules=rules)
            sheet = replay(record).sheet
            assert sheet.over
