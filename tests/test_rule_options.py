"""The rule options of RULES.md 4-6 that other systems play by (issue 11).

``tie``, ``discard_taken``, ``max_discard_draws``, spade doubling that needs
the upcard, a gin hand laid out as a knock, and records whose stock lists
only the cards that were drawn.
"""

from __future__ import annotations

import pytest
from engine_kit import DECK, cards, make_record

from scorekeeper import Deal, RecordError, RuleError, Rules, replay, verify_knock
from scorekeeper.hands import evaluate_hand, score_deadwood
from scorekeeper.records import deal_entry
from scorekeeper.results import Outcome
from scorekeeper.sheet import Entry

KNOCKER = "As 2s 3s 7c 7d 7h 9d 9h 9c 5c"  # deadwood 5 (the 5c), no layoff takes the 5d
DEFENDER = "Kc Kd Kh 2h 3h 4h Qc Qd Qh 5d"  # deadwood 5 (the 5d)
ANA = "Ac 5c 9c Kc 2d 6d Td 3h 7h Js"  # no meld
BEN = "2c 6c Tc 3d 7d Jd 4h 8h Qh Ks"  # no meld


def deal(rules, upcard="5s", stock_top=""):
    used = cards(ANA) + cards(BEN) + [upcard] + cards(stock_top)
    stock = cards(stock_top) + [c for c in DECK if c not in used]
    return Deal(
        [cards(ANA), cards(BEN)], upcard, stock, dealer=1, rules=rules, names=("Ana", "Ben")
    )


# --------------------------------------------------------------------------- tie


def test_a_tied_knock_is_an_undercut_by_default_and_scores_nothing_under_no_score():
    standard = verify_knock(KNOCKER, DEFENDER)
    assert (standard.outcome, standard.winner, standard.points) == ("undercut", "defender", 25)
    tie = verify_knock(KNOCKER, DEFENDER, rules="openspiel")
    assert (tie.outcome, tie.winner, tie.points) == ("tie", None, 0)
    assert tie.knocker.deadwood == tie.defender.deadwood == 5


def test_a_tied_quick_hand_under_no_score_is_a_void_sheet_entry():
    assert score_deadwood(6, 6, rules="openspiel").outcome == "tie"
    assert score_deadwood(0, 0, rules="openspiel").outcome == "gin"  # gin is never a tie
    hand = {"kind": "quick", "knocker": 1, "knocker_deadwood": 6, "defender_deadwood": 6}
    assert evaluate_hand(hand, "openspiel").entry == Entry(void=True)
    assert evaluate_hand(hand, "standard").entry == Entry(
        winner=0, loser=1, points=25, outcome=Outcome.UNDERCUT
    )


# --------------------------------------------------------------------------- discard_taken


def test_the_card_just_taken_may_be_discarded_only_when_the_rules_allow_it():
    forbidden = deal("standard")
    forbidden.apply("draw discard")
    assert "discard 5s" not in forbidden.legal_actions()
    with pytest.raises(RuleError, match="just taken from the discard pile"):
        forbidden.apply("discard 5s")
    allowed = deal({"preset": "standard", "discard_taken": "allowed"})
    allowed.apply("draw discard")
    assert "discard 5s" in allowed.legal_actions()
    allowed.apply("discard 5s")
    assert allowed.discard_pile == ["5s"] and allowed.turn == 1


# --------------------------------------------------------------------------- max_discard_draws


def test_the_capped_discard_draw_is_not_made_and_voids_the_deal():
    rules = {"preset": "standard", "max_discard_draws": 3, "discard_taken": "allowed"}
    game = deal(rules, stock_top="Qs")
    # the upcard offer's take does not count (OpenSpiel counts draw-phase draws only)
    for action in (
        "draw discard",
        "discard 5s",
        "draw discard",
        "discard Ks",  # 1
        "draw discard",
        "discard Js",
    ):  # 2
        game.apply(action)
    assert not game.over
    before = game.hand_mask(1)
    game.apply("draw discard")  # 3: not made
    assert game.over and game.void and game.hand_mask(1) == before
    assert game.result.void and game.result.points == 0
    with pytest.raises(RuleError, match=r"void \(this would be draw 3 from the discard pile"):
        game.apply("draw stock")


# --------------------------------------------------------------------------- spade doubling


def test_spade_doubles_refuses_a_hand_without_its_upcard_naming_upcard():
    rules = {"preset": "standard", "spade_doubles": True}
    with pytest.raises(RuleError) as quick:
        evaluate_hand(
            {"kind": "quick", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 12}, rules
        )
    assert quick.value.option == "upcard"
    with pytest.raises(RuleError) as cards_hand:
        verify_knock(KNOCKER, DEFENDER, rules=rules)
    assert cards_hand.value.option == "upcard"
    assert verify_knock(KNOCKER, DEFENDER, rules=rules, upcard="Ks").points == 50


# ----------------------------------------------------------------------- gin laid out as a knock


def test_a_replayed_gin_hand_laid_out_with_deadwood_is_scored_as_the_knock_it_is():
    gin_hand = "2c 3c 4c 7d 7h 7s Ts Js Qs Kd"
    record = make_record(
        (gin_hand, "5c 8c Jc 3d 6d Jd 2h 4h 8h Qh"),
        "Kh",
        "Ks",
        actions=["pass", "pass", "draw stock", "gin Kd"],
        showdown={"knocker_melds": [["2c", "3c", "4c"], ["7d", "7h", "7s"], ["Ts", "Js", "Qs"]]},
    )
    result = replay(record)
    assert result.outcome in ("knock", "undercut") and result.knocker.deadwood == 10
    assert result.breakdown.bonus in (0, 25)
    assert replay({**record, "showdown": None}).outcome == "gin"


# --------------------------------------------------------------------------- partial stock


def full_and_partial(actions):
    full = make_record((ANA, BEN), "5s", "Qs 8s", actions=actions)
    partial = {**full, "stock": ["Qs", "8s"], "stock_complete": False}
    return full, partial


def test_a_record_listing_only_the_drawn_stock_cards_replays_as_the_full_one():
    ana, ben = "As 2s 3s 7c 7d 7h 9d 9h 9c Kc", "Kd Kh Ks 2h 3h 4h Qc Qd Qh 5d"
    full = make_record((ana, ben), "Jc", "5c", actions=["pass", "pass", "draw stock", "knock Kc"])
    partial = {**full, "stock": ["5c"], "stock_complete": False}
    result = replay(partial)
    assert result == replay(full)
    assert (result.outcome, result.stock_left) == ("undercut", 30)


def test_replay_refuses_only_where_play_needs_an_unlisted_stock_card():
    actions = [
        "pass",
        "pass",
        "draw stock",
        "discard Qs",
        "draw stock",
        "discard 8s",
        "draw stock",
        "discard Ac",
    ]
    _, partial = full_and_partial(actions)
    with pytest.raises(RecordError) as caught:
        replay(partial)
    assert caught.value.step == 6 and caught.value.field == "actions"
    assert "lists only 2 stock cards" in str(caught.value)


def test_a_partial_stock_must_say_so_and_hold_distinct_cards():
    _, partial = full_and_partial(["pass"])
    with pytest.raises(RecordError) as unsaid:
        replay({**partial, "stock_complete": True})
    assert unsaid.value.field == "stock"
    with pytest.raises(RecordError) as twice:
        replay({**partial, "stock": ["Qs", "Qs"]})
    assert twice.value.field == "stock"
    with pytest.raises(RecordError) as held:
        replay({**partial, "stock": ["Qs", "Ac"]})  # Ana holds the Ac
    assert held.value.field == "stock"
    with pytest.raises(RecordError) as flag:
        replay({**partial, "stock_complete": "no"})
    assert flag.value.field == "stock_complete"


def test_a_tie_replayed_under_no_score_is_a_void_sheet_entry():
    record = make_record(
        (KNOCKER.replace("5c", "Jc"), DEFENDER),
        "5s",
        "5c",
        actions=["pass", "pass", "draw stock", "knock Jc"],
        rules="openspiel",
    )
    result = replay(record)
    assert (result.outcome, result.winner_player, result.points) == ("tie", None, 0)
    assert result.next_dealer == record["dealer"]
    assert deal_entry(result) == Entry(void=True)


# --------------------------------------------------------------------------- first_dealer


def test_the_cut_follows_first_dealer():
    import random

    from scorekeeper.cards import DECK as CARDS
    from scorekeeper.engine import cut_for_dealer

    for seed in range(200):
        rng, mirror = random.Random(seed), random.Random(seed)
        dealer = cut_for_dealer("standard", rng)
        while True:  # the same cut, worked by hand: the lower rank deals, equal ranks recut
            a, b = mirror.sample(CARDS, 2)
            if a.rank != b.rank:
                break
        assert dealer == (0 if a.rank < b.rank else 1)
        assert (
            cut_for_dealer({"preset": "standard", "first_dealer": "high"}, random.Random(seed))
            == 1 - dealer
        )
    tosses = {cut_for_dealer("oklahoma", random.Random(seed)) for seed in range(20)}
    assert tosses == {0, 1}


# --------------------------------------------------------------------------- three and four


def test_every_preset_has_the_loser_dealing_and_netting_per_deal():
    for name in Rules.preset_names():
        options = Rules.preset(name).to_dict()
        assert (options["three_player_dealer"], options["partnership_netting"]) == (
            "loser",
            "per_deal",
        ), name


@pytest.mark.parametrize(
    "option, value, allowed",
    [
        ("three_player_dealer", "winner", ["loser", "rotate"]),
        ("three_player_dealer", None, ["loser", "rotate"]),
        ("partnership_netting", "per_hand", ["per_deal", "per_game"]),
        ("partnership_netting", True, ["per_deal", "per_game"]),
    ],
)
def test_the_table_options_refuse_bad_values_by_name(option, value, allowed):
    with pytest.raises(RuleError) as caught:
        Rules.from_dict({"preset": "slovenian", option: value})
    assert caught.value.option == option
    assert caught.value.code == "bad_option_value"
    assert caught.value.params["allowed"] == allowed
    assert option in str(caught.value)


def test_the_table_options_round_trip_and_differ_from_the_preset():
    rules = Rules.from_dict(
        {"preset": "slovenian", "three_player_dealer": "rotate", "partnership_netting": "per_game"}
    )
    assert Rules.from_dict(rules.to_dict()) == rules
    assert rules.differences() == {
        "three_player_dealer": "rotate",
        "partnership_netting": "per_game",
    }
