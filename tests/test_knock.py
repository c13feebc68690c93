"""Knock verification and hand scoring (RULES.md sections 5 and 6)."""

import dataclasses

import pytest

from scorekeeper import CardError, RuleError, Rules, verify_knock
from scorekeeper.knock import Breakdown, KnockResult, Layoff
from scorekeeper.results import slot_builder

# Knocker: 2-3-4 of clubs, three sevens, T-J-Q of spades (+ one deadwood card)
KNOCKER_BASE = "2c 3c 4c 7d 7h 7s Ts Js Qs"


def layoff_cards(result):
    return {x.card for x in result.defender.layoffs}


# ---- the worked examples of RULES.md section 6 -------------------------------------------


def test_knock_k3_d12_scores_9():
    result = verify_knock("5c 5d 5h 9c 9d 9h Ts Js Qs 3d", "Kc Kd Kh Ks 6h 7h 8h 4c 6d 2c")
    assert result.knocker.deadwood == 3 and result.defender.deadwood == 12
    assert (result.outcome, result.winner, result.points) == ("knock", "knocker", 9)
    assert result.breakdown == Breakdown(difference=9, bonus=0, multiplier=1)


def test_a_result_built_slot_by_slot_is_the_one_its_class_builds():
    """verify_knock() builds its results with slot_builder() (issue 30): the very object
    the class's __init__ builds, as frozen; a missing field is refused."""
    result = verify_knock("5c 5d 5h 9c 9d 9h Ts Js Qs 3d", "Kc Kd Kh Ks 6h 7h 8h 4c 6d 2c")
    values = [getattr(result, field.name) for field in dataclasses.fields(result)]
    built = slot_builder(KnockResult)(*values)
    assert type(built) is KnockResult
    assert built == KnockResult(*values) and hash(built) == hash(result)
    assert built.to_dict() == result.to_dict()
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.points = 0
    with pytest.raises(TypeError):
        slot_builder(Breakdown)(9, 25)


def test_undercut_k9_d2_after_layoffs_scores_32():
    result = verify_knock(KNOCKER_BASE + " 9d", "Ks 5c Ah Ad 9h Th Jh 3s 3d 3h")
    assert layoff_cards(result) == {"Ks", "5c"}
    assert result.defender.deadwood == 2
    assert (result.outcome, result.winner, result.points) == ("undercut", "defender", 32)
    assert result.breakdown == Breakdown(difference=7, bonus=25, multiplier=1)


def test_undercut_k10_d6_scores_29():
    result = verify_knock(KNOCKER_BASE + " Td", "8c 9c Tc Kc Kd Kh 4h 5h 6h 6d")
    assert (result.outcome, result.points) == ("undercut", 29)


def test_tie_is_an_undercut_k10_d10_scores_25():
    result = verify_knock(KNOCKER_BASE + " Td", "8c 9c Tc Kc Kd Kh 4h 5h 6h Qd")
    assert result.knocker.deadwood == 10 and result.defender.deadwood == 10
    assert (result.outcome, result.winner, result.points) == ("undercut", "defender", 25)


def test_gin_against_21_scores_46_with_no_layoffs():
    # 5c could be laid off on 2-3-4 of clubs, but not against gin
    result = verify_knock(KNOCKER_BASE + " 5c", "Kc Kd Kh 3h 4h 5h 6h 9d Jd 2d")
    assert (result.outcome, result.winner, result.points) == ("gin", "knocker", 46)
    assert result.defender.layoffs == ()
    assert result.breakdown == Breakdown(difference=21, bonus=25, multiplier=1)


def test_gin_is_never_undercut():
    result = verify_knock(KNOCKER_BASE + " 5c", "Kc Kd Kh 3h 4h 5h 6h 9d Td Jd")
    assert result.defender.deadwood == 0
    assert (result.outcome, result.winner, result.points) == ("gin", "knocker", 25)


# ---- presets' prices ------------------------------------------------------------------------


def test_classic_prices():
    undercut = verify_knock(KNOCKER_BASE + " Td", "8c 9c Tc Kc Kd Kh 4h 5h 6h 6d", rules="classic")
    assert undercut.points == 4 + 10
    gin = verify_knock(KNOCKER_BASE + " 5c", "Kc Kd Kh 3h 4h 5h 6h 9d Jd 2d", rules="classic")
    assert gin.points == 21 + 20


def test_big_gin_in_modern_scores_31_plus_deadwood():
    knocker = KNOCKER_BASE + " 5c 6c"
    result = verify_knock(knocker, "Kc Kd Kh 3h 4h 5h 6h 9d Jd 2d", rules="modern")
    assert (result.outcome, result.points) == ("big_gin", 31 + 21)
    assert len(result.knocker.cards) == 11 and result.knocker.deadwood == 0


def test_big_gin_refused_when_not_allowed_or_not_melded():
    with pytest.raises(RuleError, match="big gin"):
        verify_knock(KNOCKER_BASE + " 5c 6c", "Kc Kd Kh 3h 4h 5h 6h 9d Jd 2d")
    with pytest.raises(RuleError, match="all 11 cards melded; deadwood is 9"):
        verify_knock(KNOCKER_BASE + " 5c 9c", "Kc Kd Kh 3h 4h 5h 6h 9d Jd 2d", rules="modern")


def test_oklahoma_limit_from_upcard_and_spade_doubling():
    defender = "Kc Kd Kh Ks 6h 7h 8h 4c 6d 2c"
    knocker = "5c 5d 5h 9c 9d 9h Ts Js Qs 3d"
    doubled = verify_knock(knocker, defender, rules="oklahoma", upcard="3s")
    assert doubled.points == 18 and doubled.breakdown.multiplier == 2
    plain = verify_knock(knocker, defender, rules="oklahoma", upcard="3h")
    assert plain.points == 9
    with pytest.raises(
        RuleError, match="deadwood 3 exceeds the knock limit 2 set by the upcard 2h"
    ):
        verify_knock(knocker, defender, rules="oklahoma", upcard="2h")
    with pytest.raises(RuleError, match="knock limit 0"):
        verify_knock(knocker, defender, rules="oklahoma", upcard="Ah")
    one = verify_knock(
        "5c 5d 5h 9c 9d 9h Ts Js Qs Ad",
        defender,
        rules=Rules.preset("oklahoma", ace_upcard="one"),
        upcard="Ah",
    )
    assert one.outcome == "knock" and one.points == 11


def test_straight_gin_allows_only_gin():
    with pytest.raises(RuleError, match="only gin ends the hand"):
        verify_knock(
            "5c 5d 5h 9c 9d 9h Ts Js Qs Ad", "Kc Kd Kh Ks 6h 7h 8h 4c 6d 2c", rules="straight"
        )
    gin = verify_knock(KNOCKER_BASE + " 5c", "Kc Kd Kh 3h 4h 5h 6h 9d Jd 2d", rules="straight")
    assert gin.outcome == "gin"


# ---- illegal knocks -------------------------------------------------------------------------


def test_deadwood_over_the_limit_gives_the_numbers():
    with pytest.raises(RuleError, match="deadwood 12 exceeds the knock limit 10") as raised:
        verify_knock("2c 3c 4c 5c 7d 7h 7s Ad 2h 9h", "Kc Kd Kh 3h 4h 5h 6h 9d Jd 2d")
    assert raised.value.field == "knocker"
    with pytest.raises(RuleError, match="deadwood 40 exceeds the knock limit 10") as raised:
        verify_knock(
            KNOCKER_BASE + " Qd",
            "Kc Kd Kh 3h 4h 5h 6h 9d Jd 2d",
            knocker_melds=["2c 3c 4c", "7d 7h 7s"],
        )
    assert raised.value.field == "knocker_melds"


def test_declared_non_meld_and_foreign_cards_are_refused():
    hand = KNOCKER_BASE + " 9d"
    defender = "Ks 5c Ah Ad 9h Th Jh 3s 3d 3h"
    with pytest.raises(RuleError, match=r"knocker_melds\[1\]: 7d 7h Qs is not a meld"):
        verify_knock(hand, defender, knocker_melds=["2c 3c 4c", "7d 7h Qs"])
    with pytest.raises(CardError, match="5c is not in the knocker's hand"):
        verify_knock(hand, defender, knocker_melds=["3c 4c 5c"])
    with pytest.raises(CardError, match="already in another meld"):
        verify_knock(hand, defender, knocker_melds=["2c 3c 4c", "2c 3c 4c"])


def test_bad_hands_are_refused():
    with pytest.raises(CardError, match="defender: expected 10 cards, got 9"):
        verify_knock(KNOCKER_BASE + " 9d", "Ks 5c Ah Ad 9h Th Jh 3s 3d")
    with pytest.raises(CardError, match="9d is in both"):
        verify_knock(KNOCKER_BASE + " 9d", "Ks 5c Ah 9d 9h Th Jh 3s 3d 3h")


# ---- the knocker's choice of melds ----------------------------------------------------------

KNOCKER_SETS_OR_RUNS = "As 5s 6s 7s 5c 6c 7c 5d 6d 7d"
DEFENDER_SETS_OR_RUNS = "3s 4s 8s 4c 8c 4d 8d 5h 6h 7h"


def test_knocker_lays_the_arrangement_best_against_the_defender():
    result = verify_knock(KNOCKER_SETS_OR_RUNS, DEFENDER_SETS_OR_RUNS)
    assert (result.outcome, result.points) == ("knock", 2)
    assert sorted(result.knocker.melds) == [
        ("5c", "5d", "5s"),
        ("6c", "6d", "6s"),
        ("7c", "7d", "7s"),
    ]


def test_laying_three_runs_would_lose_26():
    result = verify_knock(
        KNOCKER_SETS_OR_RUNS,
        DEFENDER_SETS_OR_RUNS,
        knocker_melds=["5s 6s 7s", "5c 6c 7c", "5d 6d 7d"],
    )
    assert (result.outcome, result.winner, result.points) == ("undercut", "defender", 26)


def test_knocker_may_keep_a_card_out_of_a_run_to_block_a_chain():
    # The optimal layout (twos, 3-4-5 of hearts, kings: deadwood 1) lets the defender lay
    # off 6h 7h and scores 57; laying 2-3-4 of hearts and keeping 5h 2c 2d Ac back
    # (deadwood 10, still legal) blocks the chain and scores 61.
    defender = "6h 7h 9c Jc Qd 3s 5s 8d 4c 9s"
    result = verify_knock("2h 3h 4h 5h Kc Kd Ks Ac 2c 2d", defender)
    assert result.knocker.deadwood == 10
    assert result.knocker.melds == (("Kc", "Kd", "Ks"), ("2h", "3h", "4h"))
    assert result.defender.layoffs == ()
    assert (result.outcome, result.points) == ("knock", 71 - 10)


# ---- the defender's layoffs -----------------------------------------------------------------


def test_set_takes_its_fourth_card():
    result = verify_knock(KNOCKER_BASE + " 9d", "7c Ah 2h 4d 5d 9h Jd Kc Qh 3h")
    assert Layoff(card="7c", meld=("7d", "7h", "7s")) in result.defender.layoffs


def test_runs_take_chains():
    result = verify_knock("6s 7s 8s 2c 2d 2h Kc Kd Kh 3d", "9s Ts Js Qc Ah 4c 5h 8h 9h Jh")
    assert [x.card for x in result.defender.layoffs] == [
        "9s",
        "Ts",
        "Js",
    ] or result.defender.melds == (("9s", "Ts", "Js"),)
    assert result.defender.deadwood == 10 + 1 + 4 + 5 + 8 + 9 + 10


def test_run_chain_at_both_ends_never_past_ace_or_king():
    result = verify_knock("2s 3s 4s Jh Qh Kh 9c 9d 9h 4d", "As 5s 6s Th 8h Ac 3c 5c 7c 2d")
    laid = layoff_cards(result)
    assert {"As", "5s", "6s", "Th"} <= laid
    assert result.defender.deadwood == 8 + 1 + 3 + 5 + 7 + 2


def test_defender_breaks_an_own_meld_to_lay_off():
    # 8s 9s Ts is a run of the defender's, but laying 8s 9s on 5-6-7 of spades and
    # making Ts Tc Td a set leaves only 4h 3c.
    result = verify_knock("5s 6s 7s 2c 2d 2h Kc Kd Kh 3d", "8s 9s Ts Tc Td Ac Ad Ah 4h 3c")
    assert layoff_cards(result) == {"8s", "9s"}
    assert ("Tc", "Td", "Ts") in result.defender.melds
    assert result.defender.deadwood == 7


def test_fourth_card_of_a_set_extends_a_run_when_that_is_better():
    # 7s fits the set 7d 7h 7c and the run 4-5-6 of spades; on the run, 8s can follow.
    result = verify_knock("7c 7d 7h 4s 5s 6s Kc Kd Kh 2d", "7s 8s Ah 2h 4d 9c Jd Qh 3h 3c")
    layoffs = result.defender.layoffs
    assert Layoff(card="7s", meld=("4s", "5s", "6s")) in layoffs
    assert Layoff(card="8s", meld=("4s", "5s", "6s")) in layoffs


# ---- declared melds and layoffs (a physical table) -----------------------------------------


def test_declared_defender_melds_optimise_undeclared_layoffs():
    result = verify_knock(
        KNOCKER_BASE + " 9d", "Ks 5c Ah Ad 9h Th Jh 3s 3d 3h", defender_melds=["9h Th Jh"]
    )
    # without the set of threes declared, the threes are deadwood; Ks and 5c are laid off
    assert layoff_cards(result) == {"Ks", "5c"}
    assert result.defender.deadwood == 1 + 1 + 9
    assert result.defender.best_deadwood == 2
    assert result.outcome == "knock" and result.points == 2


def test_declared_layoffs_are_validated():
    knocker = KNOCKER_BASE + " 9d"
    defender = "Ks 5c Ah Ad 9h Th Jh 3s 3d 3h"
    result = verify_knock(knocker, defender, layoffs=[{"card": "5c", "meld": ["2c", "3c", "4c"]}])
    assert layoff_cards(result) == {"5c"}
    assert result.defender.deadwood == 12 and result.defender.best_deadwood == 2
    assert result.outcome == "knock" and result.points == 3
    with pytest.raises(RuleError, match="Ks cannot be laid off on 2c 3c 4c"):
        verify_knock(knocker, defender, layoffs=[{"card": "Ks", "meld": ["2c", "3c", "4c"]}])
    with pytest.raises(RuleError, match="not one of the knocker's melds"):
        verify_knock(knocker, defender, layoffs=[{"card": "5c", "meld": ["3c", "4c", "5c"]}])
    with pytest.raises(CardError, match="Qs is not among the defender's unmelded cards"):
        verify_knock(knocker, defender, layoffs=[{"card": "Qs", "meld": ["Ts", "Js", "Qs"]}])


def test_no_layoffs_against_gin():
    with pytest.raises(RuleError, match="no layoffs against gin"):
        verify_knock(
            KNOCKER_BASE + " 5c",
            "Kc Kd Kh 3h 4h 6c 6h 9d Jd 2d",
            layoffs=[{"card": "6c", "meld": ["2c", "3c", "4c", "5c"]}],
        )


def test_result_shape():
    result = verify_knock(KNOCKER_BASE + " 9d", "Ks 5c Ah Ad 9h Th Jh 3s 3d 3h")
    data = result.to_dict()
    assert set(data) == {"outcome", "winner", "points", "knocker", "defender", "breakdown"}
    assert set(data["knocker"]) == {"cards", "melds", "deadwood_cards", "deadwood"}
    assert set(data["defender"]) == {
        "cards",
        "melds",
        "layoffs",
        "deadwood_cards",
        "deadwood",
        "best_deadwood",
    }
    assert all(len(code) == 2 for code in result.knocker.cards)
