"""Scoring a hand as a table enters it (scorekeeper.hands) against RULES.md sections 5-6."""

from __future__ import annotations

import pytest

from scorekeeper import simulate
from scorekeeper.errors import CardError, RecordError, RuleError
from scorekeeper.hands import (
    Deadwood,
    HandEvaluation,
    evaluate_hand,
    score_deadwood,
    sheet_entry,
)
from scorekeeper.results import Outcome
from scorekeeper.sheet import Entry


@pytest.mark.parametrize(
    ("k", "d", "outcome", "winner", "points"),
    [
        (9, 2, "undercut", "defender", 32),  # RULES.md 6: 7 + 25
        (10, 6, "undercut", "defender", 29),  # 4 + 25
        (10, 10, "undercut", "defender", 25),  # a tie is an undercut
        (0, 21, "gin", "knocker", 46),  # 21 + 25
        (0, 0, "gin", "knocker", 25),  # gin is never undercut
        (3, 12, "knock", "knocker", 9),
        (7, 22, "knock", "knocker", 15),
    ],
)
def test_rule_book_examples(k, d, outcome, winner, points):
    result = score_deadwood(k, d)
    assert (result.outcome, result.winner, result.points) == (outcome, winner, points)
    assert result.knocker == Deadwood(k) and result.defender == Deadwood(d)


def test_classic_bonuses_and_big_gin():
    assert score_deadwood(9, 2, rules="classic").points == 7 + 10
    assert score_deadwood(0, 21, rules="classic").points == 21 + 20
    big = score_deadwood(0, 30, rules="modern", big_gin=True)
    assert (big.outcome, big.points) == ("big_gin", 31 + 30)


def test_oklahoma_upcard_sets_the_limit_and_a_spade_doubles():
    assert score_deadwood(3, 12, rules="oklahoma", upcard="5h").points == 9
    doubled = score_deadwood(3, 12, rules="oklahoma", upcard="5s")
    assert doubled.points == 18 and doubled.breakdown.multiplier == 2
    with pytest.raises(RuleError, match="exceeds the knock limit 5") as error:
        score_deadwood(6, 12, rules="oklahoma", upcard="5h")
    assert error.value.field == "knocker_deadwood"
    with pytest.raises(RuleError, match="upcard") as error:
        score_deadwood(3, 12, rules="oklahoma")
    assert error.value.field == "upcard"
    with pytest.raises(CardError):
        score_deadwood(3, 12, rules="oklahoma", upcard="5x")


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"knocker_deadwood": 11, "defender_deadwood": 20}, "knocker_deadwood"),
        ({"knocker_deadwood": -1, "defender_deadwood": 20}, "knocker_deadwood"),
        ({"knocker_deadwood": 2.5, "defender_deadwood": 20}, "knocker_deadwood"),
        ({"knocker_deadwood": 5, "defender_deadwood": 99}, "defender_deadwood"),
        ({"knocker_deadwood": 5, "defender_deadwood": True}, "defender_deadwood"),
        ({"knocker_deadwood": 0, "defender_deadwood": 9, "big_gin": True}, "big_gin"),
        (
            {"knocker_deadwood": 1, "defender_deadwood": 9, "big_gin": True, "rules": "modern"},
            "knocker_deadwood",
        ),
        ({"knocker_deadwood": 1, "defender_deadwood": 9, "rules": "straight"}, "knocker_deadwood"),
    ],
)
def test_out_of_range_counts_name_the_field(kwargs, field):
    kwargs = dict(kwargs)
    with pytest.raises(RuleError) as error:
        score_deadwood(kwargs.pop("knocker_deadwood"), kwargs.pop("defender_deadwood"), **kwargs)
    assert error.value.field == field


def test_sheet_entry_maps_seats():
    assert sheet_entry(1, score_deadwood(3, 12)) == Entry(
        winner=1, loser=0, points=9, outcome=Outcome.KNOCK
    )
    assert sheet_entry(1, score_deadwood(9, 2)).winner == 0


def test_evaluate_each_kind():
    quick = evaluate_hand(
        {"kind": "quick", "knocker": 1, "knocker_deadwood": 0, "defender_deadwood": 21}
    )
    assert quick.entry == Entry(winner=1, loser=0, points=46, outcome=Outcome.GIN)
    cards = evaluate_hand(
        {
            "kind": "cards",
            "knocker": 0,
            "knocker_cards": "As 2s 3s 7c 7d 7h 9d Td Jd 2c",
            "defender_cards": "4s 5s 6s 8c 8d 8h Kd Qd Jh Th",
        }
    )
    assert cards.entry == Entry(winner=0, loser=1, points=18, outcome=Outcome.KNOCK)
    assert cards.detail.defender.layoffs
    assert evaluate_hand({"kind": "void"}) == HandEvaluation(entry=Entry(void=True), detail=None)
    with pytest.raises(RuleError) as error:
        evaluate_hand({"kind": "guess"})
    assert error.value.field == "kind"
    with pytest.raises(RuleError) as error:
        evaluate_hand(
            {"kind": "quick", "knocker": 2, "knocker_deadwood": 0, "defender_deadwood": 1}
        )
    assert error.value.field == "knocker"


def test_a_deal_record_is_replayed_under_the_games_rules_and_rotation():
    record = simulate(5, dealer=0)
    players = record["players"]
    result = evaluate_hand({"kind": "record", "record": record}, players=players, dealer=0)
    detail = result.detail
    assert result.entry.points == detail.points
    assert result.entry.winner == detail.winner_player
    with pytest.raises(RecordError) as error:
        evaluate_hand({"kind": "record", "record": record}, players=players, dealer=1)
    assert error.value.field == "record.dealer"
    with pytest.raises(RecordError) as error:
        evaluate_hand({"kind": "record", "record": record}, players=["Ana", "Ben"])
    assert error.value.field == "record.players"
    with pytest.raises(RecordError) as error:
        evaluate_hand({"kind": "record", "record": record}, rules="classic", players=players)
    assert error.value.field == "record.rules"
    short = {k: v for k, v in record.items() if k not in ("rules", "players")}
    short["actions"] = short["actions"][:2]
    with pytest.raises(RecordError) as error:
        evaluate_hand({"kind": "record", "record": short}, players=players)
    assert error.value.field == "record.actions" and "step 2" in str(error.value)
