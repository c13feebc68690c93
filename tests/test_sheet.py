"""Game scoring (scorekeeper.sheet) against RULES.md sections 6-8.

Every expected number is worked out by hand from the rule book in the
comments next to it.
"""

from __future__ import annotations

import json

import pytest

from scorekeeper.errors import RuleError
from scorekeeper.rules import Rules
from scorekeeper.sheet import (
    GameSeat,
    HandRecord,
    Payment,
    next_dealer,
    score_sheet,
    summary,
)

AB = ["Ana", "Bor"]


def win(winner, points, outcome="knock", loser=None):
    entry = {"winner": winner, "points": points, "outcome": outcome}
    if loser is not None:
        entry["loser"] = loser
    return entry


VOID = {"void": True}

# A wins 20 (knock), B gins for 30, A undercuts for 32, A knocks for 48:
# A = 20 + 32 + 48 = 100 exactly, B = 30.
GAME = [win(0, 20), win(1, 30, "gin"), win(0, 32, "undercut"), win(0, 48)]


# ----------------------------------------------------------------------------- one game


def test_game_to_100_with_game_and_box_bonus_net_and_settlement():
    sheet = score_sheet(GAME, players=AB, stake=0.05)
    assert [h.totals for h in sheet.hands] == [(20, 0), (20, 30), (52, 30), (100, 30)]
    assert [h.n for h in sheet.hands] == [1, 2, 3, 4]
    assert [h.game_over_after for h in sheet.hands] == [False, False, False, True]
    assert sheet.hands[1].loser == 0  # the loser is deduced for two players
    assert sheet.totals == (100, 30)
    assert sheet.boxes == (3, 1)
    assert sheet.needed == (0, 70)
    assert sheet.over is True
    assert sheet.rules == Rules().to_dict()
    assert sheet.scoring == "single"
    result = sheet.result
    assert result.winner == 0 and result.loser == 1
    assert result.totals == (100, 30)
    assert result.game_bonus == 100
    assert result.box_bonus == (75, 25)  # 3 and 1 hands won x 25
    assert result.shutout is False
    # A: 100 + 75 + 100 = 275; B: 30 + 25 = 55; net 220; 220 x 0.05 = 11.00
    assert result.final == (275, 55)
    assert result.net == 220
    assert result.stake == 0.05
    assert result.settlement == Payment(payer=1, payee=0, amount=11.0)
    json.dumps(sheet.to_dict())  # JSON-ready


def test_one_point_short_is_not_the_end_and_box_bonus_does_not_count():
    # A at 99 with 3 boxes (75 box points) has not reached the target.
    sheet = score_sheet(
        [win(0, 20), win(1, 30, "gin"), win(0, 32, "undercut"), win(0, 47)], players=AB
    )
    assert sheet.totals == (99, 30)
    assert sheet.needed == (1, 70)
    assert sheet.over is False
    assert sheet.result is None


def test_entry_after_the_end_is_refused():
    with pytest.raises(RuleError, match=r"the game is over after hand 4") as caught:
        score_sheet([*GAME, win(1, 10)], players=AB)
    assert "hand 5" in str(caught.value)
    with pytest.raises(RuleError, match=r"the game is over after hand 4"):
        score_sheet([*GAME, VOID], players=AB)


def test_shutout_doubles_the_game_bonus():
    # A 60 + 40 = 100, B won nothing: bonus 2 x 100; A: 100 + 50 + 200 = 350.
    sheet = score_sheet([win(0, 60), win(0, 40, "gin")], players=AB, stake=1)
    result = sheet.result
    assert result.shutout is True
    assert result.game_bonus == 200
    assert result.box_bonus == (50, 0)
    assert result.final == (350, 0)
    assert result.net == 350
    assert result.settlement == Payment(payer=1, payee=0, amount=350.0)


def test_shutout_double_total_doubles_the_whole_final():
    # (100 + 50 + 100) x 2 = 500; the game bonus itself stays 100.
    for rules in (Rules.preset("modern"), {"shutout": "double_total"}):
        result = score_sheet([win(0, 60), win(0, 40, "gin")], players=AB, rules=rules).result
        assert result.shutout is True
        assert result.game_bonus == 100
        assert result.final == (500, 0)
        assert result.net == 500


def test_no_shutout_when_loser_won_a_hand():
    result = score_sheet([win(1, 5), win(0, 100)], players=AB, rules="modern").result
    # B won a hand: A = 100 + 25 + 100 = 225, B = 5 + 25 = 30.
    assert result.shutout is False
    assert result.final == (225, 30)
    assert result.net == 195


def test_settlement_rounds_half_up_to_cents_and_none_without_stake():
    sheet = score_sheet(GAME, players=AB, stake=0.00125)
    # 220 x 0.00125 = 0.275 -> 0.28
    assert sheet.result.settlement.amount == 0.28
    assert score_sheet(GAME, players=AB).result.settlement is None


def test_box_bonuses_can_turn_the_net_around():
    # B wins ten hands of 9 (90 points, 10 boxes), then A gins for 100.
    hands = [win(1, 9)] * 10 + [win(0, 100, "gin")]
    result = score_sheet(hands, players=AB, stake=1).result
    # A: 100 + 25 + 100 = 225; B: 90 + 250 = 340; net -115: the winner pays.
    assert result.winner == 0
    assert result.final == (225, 340)
    assert result.net == -115
    assert result.nets == (-115, 115)
    assert result.settlement == Payment(payer=0, payee=1, amount=115.0)


def test_classic_preset_prices():
    rules = Rules.preset("classic")
    # gin 20 + D 25 = 45; undercut 10 + 2 = 12; knock 55. A = 100, B = 12.
    sheet = score_sheet(
        [win(0, 45, "gin"), win(1, 12, "undercut"), win(0, 55)], players=AB, rules=rules, stake=0.01
    )
    result = sheet.result
    assert sheet.rules["preset"] == "classic"
    assert result.box_bonus == (40, 20)  # 20 a box
    # A: 100 + 40 + 100 = 240; B: 12 + 20 = 32; net 208 -> 2.08
    assert result.final == (240, 32)
    assert result.net == 208
    assert result.settlement.amount == 2.08
    # A gin worth 20 is fine under classic (gin bonus 20), too few under standard (25).
    assert score_sheet([win(0, 20, "gin")], players=AB, rules="classic").totals == (20, 0)
    with pytest.raises(RuleError, match="hand 1"):
        score_sheet([win(0, 20, "gin")], players=AB)


def test_oklahoma_target_is_150():
    sheet = score_sheet([win(0, 100)], players=AB, rules="oklahoma")
    assert sheet.over is False
    assert sheet.needed == (50, 150)


def test_big_gin_only_where_allowed_and_straight_gin_only_gin():
    sheet = score_sheet([win(0, 31, "big_gin")], players=AB, rules="modern")
    assert sheet.hands[0].outcome == "big_gin"
    with pytest.raises(RuleError, match="big gin") as caught:
        score_sheet([win(0, 31, "big_gin")], players=AB)
    assert caught.value.option == "outcome"
    with pytest.raises(RuleError, match="knock limit 0") as caught:
        score_sheet([win(0, 10)], players=AB, rules="straight")
    assert caught.value.option == "outcome"
    assert score_sheet([win(0, 30, "gin")], players=AB, rules="straight").totals == (30, 0)


# ----------------------------------------------------------------------------- dealers


def dealers(sheet):
    return [h.dealer for h in sheet.hands]


def test_void_hand_scores_nothing_and_same_dealer_deals_again():
    sheet = score_sheet([VOID, VOID, win(1, 10)], players=AB, dealer=1)
    assert dealers(sheet) == [1, 1, 1]
    assert sheet.hands[0] == HandRecord(
        n=1,
        dealer=1,
        void=True,
        winner=None,
        loser=None,
        outcome=None,
        points=0,
        totals=(0, 0),
        game_over_after=False,
    )
    assert sheet.boxes == (0, 1)


def test_next_dealer_winner_default():
    sheet = score_sheet([win(1, 10), VOID, win(0, 10)], players=AB, dealer=0)
    assert dealers(sheet) == [0, 1, 1]
    assert sheet.next_dealer == 0


def test_next_dealer_loser():
    sheet = score_sheet(
        [win(1, 10), VOID, win(0, 10)], players=AB, dealer=0, rules={"next_dealer": "loser"}
    )
    assert dealers(sheet) == [0, 0, 0]
    assert sheet.next_dealer == 1


def test_next_dealer_alternate():
    sheet = score_sheet(
        [win(1, 10), VOID, win(1, 10)], players=AB, dealer=0, rules={"next_dealer": "alternate"}
    )
    assert dealers(sheet) == [0, 1, 1]
    assert sheet.next_dealer == 0


def test_next_dealer_helper():
    assert next_dealer(None, 0, 1, False) == 1
    assert next_dealer(None, 0, 1, True) == 0
    assert next_dealer({"next_dealer": "loser"}, 0, 1, False) == 0
    assert next_dealer({"next_dealer": "alternate"}, 0, 0, False) == 1
    assert next_dealer(None, 0, 2, False, players=3) == 1  # the loser (seat 1) deals
    assert next_dealer(None, 2, 1, True, players=3) == 2
    assert next_dealer(None, 0, 1, False, players=4) == 1  # teams
    assert next_dealer(None, 0, 0, False, players=4) == 1  # the deal passes, won or not
    assert next_dealer(None, 1, None, False, players=4) == 0  # nobody scored
    assert next_dealer(None, 1, None, True, players=4) == 0  # a void deal
    with pytest.raises(RuleError):
        next_dealer(None, 0, 0, False, players=3)


# ----------------------------------------------------------------------------- Hollywood

HOLLYWOOD = [
    win(0, 10),  # A's 1st win opens game 1: g1 A 10
    win(0, 20),  # 2nd opens game 2: g1 30, g2 20
    win(0, 30),  # 3rd opens game 3: g1 60, g2 50, g3 30
    win(0, 40),  # all three: g1 100 (closes), g2 90, g3 70
    win(1, 30, "gin"),  # B shut out of game 1 starts in game 2: g2 B 30
    win(1, 20),  # B opens game 3: g2 B 50, g3 B 20
    win(0, 10),  # A: g2 100 (closes), g3 80
    win(1, 90, "undercut"),  # B: g3 110 (closes) -> match over
]


def test_hollywood_columns_open_one_per_win():
    sheet = score_sheet(HOLLYWOOD[:4], players=AB, rules="hollywood")
    assert [h.columns for h in sheet.hands] == [(0,), (0, 1), (0, 1, 2), (0, 1, 2)]
    assert [h.opened for h in sheet.hands] == [0, 1, 2, None]
    assert [h.closed for h in sheet.hands] == [(), (), (), (0,)]
    assert [c.totals for c in sheet.columns] == [(100, 0), (90, 0), (70, 0)]
    assert [c.over for c in sheet.columns] == [True, False, False]
    assert sheet.over is False and sheet.result is None
    # A needs 10 to close game 2; B needs 100 anywhere.
    assert sheet.needed == (10, 100)
    game1 = sheet.columns[0].result
    # B never won in game 1: shutout, bonus 200; A: 100 + 4 x 25 + 200 = 400.
    assert game1.box_bonus == (100, 0)
    assert game1.shutout is True
    assert game1.game_bonus == 200
    assert game1.final == (400, 0)


def test_hollywood_match():
    sheet = score_sheet(HOLLYWOOD, players=AB, rules="hollywood", stake=0.1)
    hands = sheet.hands
    assert [h.columns for h in hands[4:]] == [(1,), (1, 2), (1, 2), (2,)]
    assert hands[4].opened == 1  # B's first win: game 2, game 1 being closed
    assert sheet.opened == ((0, 1, 2), (1, 2))
    assert [c.totals for c in sheet.columns] == [(100, 0), (100, 50), (80, 110)]
    assert [c.boxes for c in sheet.columns] == [(4, 0), (4, 2), (3, 2)]
    assert sheet.boxes == (5, 3)
    assert sheet.totals == (280, 160)
    assert all(c.over for c in sheet.columns)
    game2 = sheet.columns[1].result
    # A: 100 + 100 + 100 = 300; B: 50 + 50 = 100.
    assert (game2.winner, game2.shutout, game2.final, game2.net) == (0, False, (300, 100), 200)
    game3 = sheet.columns[2].result
    # B: 110 + 50 + 100 = 260; A: 80 + 75 = 155.
    assert (game3.winner, game3.final, game3.net) == (1, (155, 260), 105)
    assert game3.settlement == Payment(payer=0, payee=1, amount=10.5)
    assert sheet.over is True
    result = sheet.result
    # A: 400 + 300 + 155 = 855; B: 0 + 100 + 260 = 360; net 495 -> 49.50
    assert result.final == (855, 360)
    assert result.winner == 0 and result.loser == 1
    assert result.net == 495
    assert result.column_winners == (0, 0, 1)
    assert result.shutouts == (True, False, False)
    assert result.game_bonuses == (300, 100)
    assert result.box_bonus == (275, 100)
    assert result.settlement == Payment(payer=1, payee=0, amount=49.5)
    assert sheet.next_dealer == 1  # B won the last hand
    with pytest.raises(RuleError, match="the game is over after hand 8"):
        score_sheet([*HOLLYWOOD, win(0, 10)], players=AB, rules="hollywood")


def test_hollywood_is_for_two_players():
    with pytest.raises(RuleError) as caught:
        score_sheet([], players=["A", "B", "C"], rules="hollywood")
    assert caught.value.option == "scoring"


# ----------------------------------------------------------------------------- three players

ABC = ["Ana", "Bor", "Cid"]


def test_three_players():
    hands = [
        win(1, 30, loser=2),  # A deals and sits out; B beats C
        win(0, 40, "gin", loser=1),  # C (loser) deals; A beats B
        VOID,  # B deals; void: B deals again
        win(2, 35, "undercut", loser=0),  # B deals; C beats A
        win(1, 70, loser=2),  # A deals; B beats C: B 100
    ]
    sheet = score_sheet(hands, players=ABC, dealer=0, stake=0.1)
    assert dealers(sheet) == [0, 2, 1, 1, 0]
    assert [h.sits_out for h in sheet.hands] == [0, 2, 1, 1, 0]
    assert sheet.totals == (40, 100, 35)
    assert sheet.boxes == (1, 2, 1)
    assert sheet.next_dealer == 2  # the loser of the last hand
    result = sheet.result
    assert result.winner == 1 and result.loser is None and result.losers == (0, 2)
    assert result.game_bonus == 100 and result.shutout is False
    assert result.box_bonus == (25, 50, 25)
    # A 40 + 25 = 65; B 100 + 50 + 100 = 250; C 35 + 25 = 60; each loser pays the difference.
    assert result.final == (65, 250, 60)
    assert result.net == 185 + 190
    assert result.nets == (-185, 375, -190)
    assert result.settlement == (
        Payment(payer=0, payee=1, amount=18.5),
        Payment(payer=2, payee=1, amount=19.0),
    )


def test_three_player_shutout_and_seat_checks():
    result = score_sheet([win(1, 100, "gin", loser=2)], players=ABC, dealer=0).result
    # Nobody else won a hand: bonus 200; B: 100 + 25 + 200 = 325.
    assert result.shutout is True
    assert result.final == (0, 325, 0)
    with pytest.raises(RuleError, match=r"hand 1.*sits out") as caught:
        score_sheet([win(0, 10, loser=1)], players=ABC, dealer=0)
    assert caught.value.option == "winner"
    with pytest.raises(RuleError, match=r"hand 2.*sits out") as caught:
        # hand 2 is dealt by C (the loser of hand 1)
        score_sheet([win(1, 10, loser=2), win(0, 10, loser=2)], players=ABC, dealer=0)
    assert caught.value.option == "loser"
    with pytest.raises(RuleError, match="loser is missing") as caught:
        score_sheet([win(1, 10)], players=ABC, dealer=0)
    assert caught.value.option == "loser"


def test_three_players_the_shutout_doubles_against_each_loser_on_its_own():
    # RULES.md section 8. Hand 1: A deals and sits out, B beats C 40. Hand 2: the loser C
    # deals, A beats B 30. Hand 3: the loser B deals, A beats C 75 by gin: A has 105.
    hands = [win(1, 40, loser=2), win(0, 30, loser=1), win(0, 75, "gin", loser=2)]
    sheet = score_sheet(hands, players=ABC, dealer=0, stake=0.1)
    assert dealers(sheet) == [0, 2, 1]
    result = sheet.result
    # Boxes: A 2, B 1, C 0: C won no hand (shut out), B won one.
    assert result.winner == 0 and result.shut_out == (2,) and result.shutout is False
    # A: 105 + 50 = 155, + game bonus 100 = 255 against B; against C the bonus doubles: 355.
    # B: 40 + 25 = 65; C: 0.
    assert result.game_bonus == 100 and result.final == (255, 65, 0)
    assert result.nets == (190 + 355, -190, -355)
    assert result.settlement == (
        Payment(payer=1, payee=0, amount=19.0),
        Payment(payer=2, payee=0, amount=35.5),
    )
    # With double_total, the winner's whole final doubles against C only: 2 x 255 = 510.
    total = score_sheet(hands, players=ABC, dealer=0, rules={"shutout": "double_total"}).result
    assert total.final == (255, 65, 0) and total.nets == (190 + 510, -190, -510)
    # Two players keep their one shutout: the loser is the list.
    two = score_sheet([win(0, 100, "gin")], players=["Ana", "Bor"]).result
    assert two.shutout is True and two.shut_out == (1,) and two.final == (325, 0)


ROTATE = {"three_player_dealer": "rotate"}


def test_three_players_rotating_dealer():
    hands = [
        win(1, 30, loser=2),  # A deals, sits out; B beats C: B 30; B deals next
        win(2, 40, "gin", loser=0),  # B sits out; C gins A: C 40; C deals next
        VOID,  # C deals; void: C deals again
        win(0, 35, "undercut", loser=1),  # C sits out; A undercuts B: A 35; A deals next
        win(1, 70, loser=2),  # A sits out; B beats C: B 30 + 70 = 100, game
    ]
    sheet = score_sheet(hands, players=ABC, rules=ROTATE, dealer=0, stake=0.1)
    assert dealers(sheet) == [0, 1, 2, 2, 0]
    assert [h.sits_out for h in sheet.hands] == [0, 1, 2, 2, 0]
    assert sheet.totals == (35, 100, 40)
    assert sheet.boxes == (1, 2, 1)
    assert sheet.next_dealer == 1  # the seat after the last dealer
    result = sheet.result
    assert result.winner == 1 and result.losers == (0, 2) and result.shutout is False
    # A 35 + 25 = 60; B 100 + 2 x 25 + 100 = 250; C 40 + 25 = 65.
    assert result.final == (60, 250, 65)
    assert result.nets == (-190, 375, -185)
    assert result.settlement == (
        Payment(payer=0, payee=1, amount=19.0),
        Payment(payer=2, payee=1, amount=18.5),
    )
    # The default (the loser of hand 1, C, deals hand 2) refuses C winning hand 2.
    with pytest.raises(RuleError, match=r"hand 2.*sits out") as caught:
        score_sheet(hands, players=ABC, dealer=0)
    assert caught.value.option == "winner"
    # With rotate the seat that deals still sits out: hand 2 is B's deal.
    with pytest.raises(RuleError, match=r"hand 2.*sits out") as caught:
        score_sheet([hands[0], win(1, 10, loser=0)], players=ABC, rules=ROTATE, dealer=0)
    assert caught.value.option == "winner"


def test_rotating_dealer_helper():
    assert next_dealer(ROTATE, 0, 2, False, players=3) == 1  # the winner may deal next
    assert next_dealer(ROTATE, 0, 1, False, players=3) == 1
    assert next_dealer(ROTATE, 2, 1, False, players=3) == 0  # round the table
    assert next_dealer(ROTATE, 2, None, True, players=3) == 2  # void: same dealer
    assert next_dealer(ROTATE, 0, 1, False) == 1  # two players: next_dealer rules


def scored_in_steps(hands, **kwargs):
    """The summary of ``hands`` scored from scratch, and each split of them via ``after``."""
    whole = summary(score_sheet(hands, **kwargs), len(hands))
    for k in range(len(hands) + 1):
        first = summary(score_sheet(hands[:k], **kwargs), k)
        rest = score_sheet(hands[k:], after=first, **kwargs)
        assert summary(rest, len(hands)) == whole, k
    return whole


# ----------------------------------------------------------------------------- partnerships

ABCD = ["Ana", "Bor", "Cid", "Dan"]  # teams Ana+Cid (0) and Bor+Dan (1)


def deal(first, second):
    return {"games": [first, second]}


def test_partnerships():
    hands = [
        deal(win(0, 16), win(2, 12)),  # 0-1, 2-3: both team 0 -> team 0 scores 28
        deal(win(0, 7), win(1, 13)),  # 0-3, 2-1: split 7 vs 13 -> team 1 scores 6
        deal(win(0, 10), win(3, 10)),  # 0-1, 2-3: equal -> nobody scores
        deal(VOID, win(2, 72, "gin")),  # 0-3, 2-1: one void -> team 0 scores 72: 100
    ]
    sheet = score_sheet(hands, players=ABCD, dealer=0, stake=0.5)
    assert sheet.teams == ((0, 2), (1, 3))
    assert [[g.players for g in h.games] for h in sheet.hands] == [
        [(0, 1), (2, 3)],
        [(0, 3), (2, 1)],
        [(0, 1), (2, 3)],
        [(0, 3), (2, 1)],
    ]
    assert [h.team_points for h in sheet.hands] == [(28, 0), (7, 13), (10, 10), (72, 0)]
    assert [h.winner for h in sheet.hands] == [0, 1, None, 0]
    assert [h.points for h in sheet.hands] == [28, 6, 0, 72]
    assert [h.totals for h in sheet.hands] == [(28, 0), (28, 6), (28, 6), (100, 6)]
    # the deal passes from team to team after every deal, whoever scored it
    assert [h.dealer_team for h in sheet.hands] == [0, 1, 0, 1]
    assert [[g.dealer for g in h.games] for h in sheet.hands] == [[0, 2], [3, 1], [0, 2], [3, 1]]
    assert dealers(sheet) == [0, 3, 0, 3]
    assert sheet.boxes == (2, 1)  # deals scored
    assert sheet.needed == (0, 94)
    result = sheet.result
    # team 0: 100 + 50 + 100 = 250; team 1: 6 + 25 = 31; net 219 -> 109.50
    assert result.winner == 0 and result.loser == 1
    assert result.final == (250, 31)
    assert result.net == 219
    assert result.settlement == Payment(payer=1, payee=0, amount=109.5)
    assert sheet.next_dealer == 0
    assert sheet.next_games == (
        GameSeat(game=1, players=(0, 1), dealer=0),
        GameSeat(game=2, players=(2, 3), dealer=2),
    )


def test_partnership_void_deal_and_wrong_opponent():
    sheet = score_sheet([VOID], players=ABCD, dealer=3)
    assert sheet.hands[0].void is True
    assert sheet.hands[0].dealer_team == 1
    assert sheet.totals == (0, 0)
    # the other team deals next, a void deal included; opponents change: game 1
    # is 0-3 dealt by 0
    assert sheet.next_dealer == 0
    for next_dealer_option in ("winner", "loser", "alternate"):
        rules = {"next_dealer": next_dealer_option}
        sheet = score_sheet([deal(win(0, 10), win(2, 10))], players=ABCD, rules=rules)
        assert sheet.next_games[0] == GameSeat(game=1, players=(0, 3), dealer=3)
    with pytest.raises(RuleError, match="hand 1, game 1") as caught:
        score_sheet([deal(win(3, 10), win(2, 10))], players=ABCD)
    assert caught.value.option == "winner"
    with pytest.raises(RuleError, match="hand 1") as caught:
        score_sheet([win(0, 10)], players=ABCD)
    assert caught.value.option == "games"


PER_GAME = {"partnership_netting": "per_game"}


def test_partnerships_netted_per_game():
    hands = [
        deal(win(0, 16), win(3, 12)),  # 0-1, 2-3: teams 16 and 12, both box
        deal(win(3, 30, "gin"), win(1, 20)),  # 0-3, 2-1: team 1 wins both: 50
        VOID,  # nobody scores, no box
        deal(win(0, 50), win(2, 40)),  # 0-3, 2-1: team 0 wins both: 90
    ]
    sheet = score_sheet(hands, players=ABCD, rules=PER_GAME, dealer=0, stake=0.5)
    assert [h.team_points for h in sheet.hands] == [(16, 12), (0, 50), (0, 0), (90, 0)]
    # totals: (16, 12); (16, 12 + 50 = 62); (16, 62); (16 + 90 = 106, 62)
    assert [h.totals for h in sheet.hands] == [(16, 12), (16, 62), (16, 62), (106, 62)]
    assert [h.game_over_after for h in sheet.hands] == [False, False, False, True]
    # the deal's winner and margin as per deal: who deals next follows them
    assert [(h.winner, h.points) for h in sheet.hands] == [(0, 4), (1, 50), (None, 0), (0, 90)]
    assert [h.dealer_team for h in sheet.hands] == [0, 1, 0, 1]
    assert sheet.boxes == (2, 2)  # team 0: deals 1 and 4; team 1: deals 1 and 2
    result = sheet.result
    # team 0: 106 + 2 x 25 + 100 = 256; team 1: 62 + 2 x 25 = 112; net 144 x 0.5 = 72
    assert result.winner == 0 and result.final == (256, 112) and result.net == 144
    assert result.shutout is False
    assert result.settlement == Payment(payer=1, payee=0, amount=72.0)
    assert scored_in_steps(hands, players=ABCD, rules=PER_GAME, dealer=0, stake=0.5) == summary(
        sheet, 4
    )
    # netted per deal the same deals give 4, 4 + 50 ... team 0 only 94: not over
    per_deal = score_sheet(hands, players=ABCD, dealer=0)
    assert per_deal.totals == (94, 50) and per_deal.over is False


def test_per_game_netting_at_the_target_together():
    rules = {**PER_GAME, "target": 50}
    first = deal(win(0, 30), win(3, 30))  # (30, 30)
    level = deal(win(0, 25, "gin"), win(1, 25, "gin"))  # (55, 55): both there, level
    ahead = deal(win(0, 30, "gin"), win(1, 25, "gin"))  # (60, 55): team 0 ahead
    sheet = score_sheet([first, ahead], players=ABCD, rules=rules)
    assert sheet.totals == (60, 55) and sheet.result.winner == 0
    # team 0: 60 + 2 x 25 + 100 = 210; team 1: 55 + 2 x 25 = 105
    assert sheet.result.final == (210, 105)
    hands = [first, level, deal(win(1, 5), VOID)]  # 0-1: team 1 5 -> (55, 60)
    sheet = score_sheet(hands[:2], players=ABCD, rules=rules)
    assert sheet.totals == (55, 55) and sheet.over is False and sheet.needed == (0, 0)
    assert sheet.hands[-1].game_over_after is False
    sheet = score_sheet(hands, players=ABCD, rules=rules)
    assert sheet.totals == (55, 60) and sheet.boxes == (2, 3)
    # team 1: 60 + 3 x 25 + 100 = 235; team 0: 55 + 2 x 25 = 105; net 130
    assert sheet.result.winner == 1 and sheet.result.final == (105, 235)
    assert sheet.result.net == 130
    scored_in_steps(hands, players=ABCD, rules=rules)
    with pytest.raises(RuleError, match="game is over after hand 3"):
        score_sheet([*hands, VOID], players=ABCD, rules=rules)


def test_incremental_scoring_of_three_and_four_players():
    three = [
        win(1, 30, loser=2),
        win(2, 40, "gin", loser=0),
        VOID,
        win(0, 35, "undercut", loser=1),
        win(1, 70, loser=2),
    ]
    assert scored_in_steps(three, players=ABC, rules=ROTATE)["totals"] == [35, 100, 40]
    four = [
        deal(win(0, 16), win(2, 12)),
        deal(win(0, 7), win(1, 13)),
        deal(win(0, 10), win(3, 10)),
        deal(VOID, win(2, 72, "gin")),
    ]
    assert scored_in_steps(four, players=ABCD, dealer=0)["totals"] == [100, 6]


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"winner": 5, "points": 10, "outcome": "knock"}, "winner"),
        ({"winner": True, "points": 10, "outcome": "knock"}, "winner"),
        ({"points": 10, "outcome": "knock"}, "winner"),
        ({"winner": 0, "loser": 0, "points": 10, "outcome": "knock"}, "loser"),
        ({"winner": 0, "loser": 7, "points": 10, "outcome": "knock"}, "loser"),
        ({"winner": 0, "points": -1, "outcome": "knock"}, "points"),
        ({"winner": 0, "points": 10.5, "outcome": "knock"}, "points"),
        ({"winner": 0, "outcome": "knock"}, "points"),
        ({"winner": 0, "points": 10, "outcome": "gin"}, "points"),  # gin is at least 25
        ({"winner": 0, "points": 0, "outcome": "knock"}, "points"),
        ({"winner": 0, "points": 10}, "outcome"),
        ({"winner": 0, "points": 10, "outcome": "schneider"}, "outcome"),
        ({"void": "yes"}, "void"),
        ({"void": True, "winner": 0}, "winner"),
        ({"void": True, "points": 5}, "points"),
        ({"games": [VOID, VOID]}, "games"),
        ("Ana 10", "hands"),
    ],
)
def test_bad_entries_name_the_field_and_hand(entry, field):
    with pytest.raises(RuleError) as caught:
        score_sheet([win(0, 10), entry], players=AB)
    assert caught.value.option == field
    assert caught.value.field == field
    assert "hand 2" in str(caught.value)
    assert field in str(caught.value) or field == "hands"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"players": ["Ana"]}, "players"),
        ({"players": ["Ana", "Ana"]}, "players"),
        ({"players": "AnaBor"}, "players"),
        ({"players": AB, "dealer": 2}, "dealer"),
        ({"players": AB, "stake": -1}, "stake"),
        ({"players": AB, "stake": "1"}, "stake"),
        ({"players": AB, "rules": {"target": 0}}, "target"),
        ({"players": AB, "rules": "nonsense"}, "preset"),
    ],
)
def test_bad_arguments(kwargs, field):
    with pytest.raises(RuleError) as caught:
        score_sheet([], **kwargs)
    assert caught.value.option == field


def test_empty_sheet_and_round_trip_of_records():
    sheet = score_sheet([], players=AB, dealer=1)
    assert sheet.hands == () and sheet.totals == (0, 0) and sheet.needed == (100, 100)
    assert sheet.next_dealer == 1 and sheet.over is False and sheet.result is None
    # a hand record of a sheet is itself a valid entry
    first = score_sheet(GAME, players=AB)
    again = score_sheet([hand.to_dict() for hand in first.hands], players=AB)
    assert again == first
