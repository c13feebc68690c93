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
from scorekeeper.match_scoring import deal_entry
from scorekeeper.results import Outcome
from scorekeeper.sheet import Entry, score_sheet

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


def test_a_tied_quick_hand_under_no_score_is_a_hand_played_not_a_void_one():
    assert score_deadwood(6, 6, rules="openspiel").outcome == "tie"
    assert score_deadwood(0, 0, rules="openspiel").outcome == "gin"  # gin is never a tie
    hand = {"kind": "quick", "knocker": 1, "knocker_deadwood": 6, "defender_deadwood": 6}
    tie = evaluate_hand(hand, "openspiel").entry
    assert tie == Entry(outcome=Outcome.TIE) and not tie.void
    assert evaluate_hand(hand, "standard").entry == Entry(
        winner=0, loser=1, points=25, outcome=Outcome.UNDERCUT
    )
    win = {"winner": 0, "points": 12, "outcome": "knock"}
    sheet = score_sheet([win, tie.to_dict()], players=["Ana", "Ben"], rules="openspiel")
    played = sheet.hands[1]
    assert (played.void, played.outcome, played.winner, played.points) == (
        False,
        Outcome.TIE,
        None,
        0,
    )
    assert sheet.totals == (12, 0) and sheet.boxes == (1, 0)  # no winner, no box
    assert played.dealer == sheet.next_dealer == 0  # Ana won hand 1 and deals on


@pytest.mark.parametrize(
    ("options", "players", "dealer", "after"),
    [
        ({}, 2, 1, 1),  # next_dealer winner: the same dealer
        ({"next_dealer": "loser"}, 2, 1, 1),
        ({"next_dealer": "alternate"}, 2, 1, 0),  # the deal moves on whoever wins
        ({}, 3, 2, 2),  # three_player_dealer loser: nobody lost, the same dealer
        ({"three_player_dealer": "rotate"}, 3, 2, 0),
    ],
)
def test_who_deals_after_a_tie(options, players, dealer, after):
    names = ["Ana", "Ben", "Cy"][:players]
    rules = {"preset": "openspiel", **options}
    sheet = score_sheet([{"outcome": "tie"}], players=names, rules=rules, dealer=dealer)
    assert sheet.hands[0].void is False and sheet.next_dealer == after
    void = score_sheet([{"void": True}], players=names, rules=rules, dealer=dealer)
    assert void.next_dealer == dealer  # a void hand: always the same dealer


def test_a_tie_in_a_partnership_game_and_the_ties_refused():
    names = ["Ana", "Bor", "Cid", "Dan"]
    deal = {
        "games": [{"outcome": "tie", "points": 0}, {"winner": 2, "points": 9, "outcome": "knock"}]
    }
    sheet = score_sheet([deal], players=names, rules="openspiel")
    tie, won = sheet.hands[0].games
    assert won.winner == 2
    assert (tie.void, tie.outcome, tie.winner) == (False, Outcome.TIE, None)
    assert sheet.totals == (9, 0) and sheet.hands[0].void is False
    with pytest.raises(RuleError, match="hand 1: a tied knock is an undercut") as refused:
        score_sheet([{"outcome": "tie"}], players=names[:2])  # standard: tie undercut
    assert refused.value.option == "outcome"
    for bad, key in (({"winner": 0}, "winner"), ({"points": 3}, "points")):
        with pytest.raises(RuleError, match="a tie") as caught:
            score_sheet([{"outcome": "tie", **bad}], players=names[:2], rules="openspiel")
        assert caught.value.option == key


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


# --------------------------------------------------------------------------- repeated_discard


def test_a_discard_taken_and_thrown_straight_back_twice_in_a_row_voids_the_deal():
    repeat = ["draw discard", "discard 5s", "draw discard", "discard 5s"]
    rules = {"preset": "standard", "discard_taken": "allowed", "repeated_discard": "void"}
    game = deal(rules)
    for action in repeat[:3]:
        game.apply(action)
    assert not game.over
    game.apply(repeat[3])  # Ben throws back the 5s Ana threw back: void at this discard
    assert game.over and game.void and game.result.void and game.result.points == 0
    assert game.result.next_dealer == 1 and game.result.actions == 4
    with pytest.raises(RuleError, match=r"void \(5s was taken and discarded straight back twice"):
        game.apply("draw discard")
    assert deal("openspiel").rules.repeated_discard == "void"
    played_on = deal({**rules, "repeated_discard": "play_on"})  # the default
    for action in [*repeat, "draw discard", "discard 5s"]:
        played_on.apply(action)
    assert not played_on.over
    # once the card taken is kept (or a stock card drawn), the count starts again
    game = deal(rules, stock_top="Qs")
    for action in [
        "draw discard",
        "discard 5s",  # Ana: straight back
        "draw stock",
        "discard Qs",  # Ben: the stock card drawn
        "draw discard",
        "discard Qs",  # Ana: straight back
        "draw discard",
        "discard Ks",  # Ben keeps the Qs
        "draw discard",
        "discard Ks",  # Ana: straight back
    ]:
        game.apply(action)
    assert not game.over
    game.apply("draw discard")
    game.apply("discard Ks")  # Ben: straight back, right after Ana's
    assert game.void


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


def test_a_tie_replayed_under_no_score_is_a_tie_sheet_entry():
    record = make_record(
        (KNOCKER.replace("5c", "Jc"), DEFENDER),
        "5s",
        "5c",
        actions=["pass", "pass", "draw stock", "knock Jc"],
        rules="openspiel",
    )
    result = replay(record)
    assert (result.outcome, result.winner_player, result.points) == ("tie", None, 0)
    assert result.next_dealer == record["dealer"] and not result.void
    assert deal_entry(result) == Entry(outcome=Outcome.TIE)
    alternate = replay({**record, "rules": {"preset": "openspiel", "next_dealer": "alternate"}})
    assert alternate.next_dealer == 1 - record["dealer"]


# --------------------------------------------------------------------------- first_dealer


def test_the_cut_follows_first_dealer():
    import random

    from scorekeeper.cards import DECK as CARDS
    from scorekeeper.cut import cut_for_dealer

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


def test_the_service_cuts_when_nobody_names_the_dealer_nor_the_cut():
    """RULES.md 3: under low/high the service cuts for the players from the random source it
    is given: one card each, a tie for the deciding rank cut again, the option applied."""
    import random

    from scorekeeper.cards import DECK as CARDS
    from scorekeeper.cut import draw_cut, first_dealer

    tied = 0
    for players in (2, 3, 4):
        for seed in range(150):
            for how in ("low", "high"):
                rules = {"first_dealer": how}
                first = first_dealer(rules, players, random.Random(seed))
                mirror = random.Random(seed)  # the draw worked by hand: ties cut again
                rounds = 1
                while True:
                    cut = mirror.sample(CARDS, players)
                    ranks = [card.rank for card in cut]
                    best = min(ranks) if how == "low" else max(ranks)
                    if ranks.count(best) == 1:
                        break
                    rounds += 1
                tied += rounds > 1 and how == "low"
                assert first.cut == tuple(cut) == draw_cut(rules, random.Random(seed), players)
                assert len(set(first.cut)) == players  # one card each, all different
                assert first.dealer == ranks.index(best)
                assert first.cut_codes == [card.code for card in cut]
    assert tied > 10  # the sweep met ties, and each was cut again
    assert first_dealer("oklahoma", 2, random.Random(1)).cut is None  # random: by lot


def test_the_first_dealer_without_anybody_to_cut():
    import random

    from scorekeeper.cut import first_dealer
    from scorekeeper.errors import ScorekeeperError

    rng = random.Random(5)
    assert first_dealer("standard", 2, rng, dealer=1).dealer == 1  # a dealer named deals
    assert first_dealer("standard", 2, rng, dealer=1).cut is None
    assert first_dealer("standard", 2, rng, cut=["Kc", "3d"]).dealer == 1
    assert first_dealer("standard", 2, rng, cut=["kc", "3D"]).cut_codes == ["Kc", "3d"]
    assert first_dealer({"first_dealer": "high"}, 2, rng, cut=["Kc", "3d"]).dealer == 0
    assert first_dealer("standard", 3, rng, cut="5c 5d 2h").dealer == 2  # a tie above the lowest
    lots = {first_dealer("oklahoma", 4, random.Random(n)).dealer for n in range(40)}
    assert lots == {0, 1, 2, 3}
    for rules, players, cut, field in [
        ("standard", 2, ["5c", "5d"], "cut"),  # a tie for the lowest: cut again
        ({"first_dealer": "high"}, 3, ["Kc", "3d", "Kd"], "cut"),
        ("standard", 2, ["5c"], "cut"),  # one card per player
        ("standard", 2, ["5c", "5c"], "cut"),
        ("oklahoma", 2, ["5c", "9d"], "cut"),  # random: drawn by lot, not cut
    ]:
        with pytest.raises(ScorekeeperError) as refused:
            first_dealer(rules, players, rng, cut=cut)
        assert refused.value.field == field, (rules, cut)


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
