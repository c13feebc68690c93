"""The Deal state machine (scorekeeper.engine) against RULES.md sections 3-6."""

from __future__ import annotations

import copy
import random

import pytest
from engine_kit import DECK as CODES
from engine_kit import cards

from scorekeeper import Deal, RuleError, deadwood
from scorekeeper.actions import parse_action
from scorekeeper.cards import DECK, parse_cards
from scorekeeper.knock import Layoff

# Ana (player 0) is the non-dealer in every deal below (dealer=1) and acts first.
JUNK_A = "Ac 5c 9c Kc 2d 6d Td 3h 7h Js"
JUNK_B = "2c 6c Tc 3d 7d Jd 4h 8h Qh Ks"
NINE = "2c 3c 4c 7d 7h 7s Ts Js Qs 9d"  # deadwood 9: 2-3-4c, three 7s, T-J-Qs + 9d
JUNK_D = "Ac 5c 9c Kc 2d 6d Td 3h 8h Ks"  # no meld, no card in common with NINE
JUNK_C = "5c 8c Jc 3d 6d Jd 2h 4h 8h Qh"  # no meld, deadwood 66, no card in common with NINE


def make_deal(
    a: str, b: str, upcard: str, stock_top: str = "", *, dealer: int = 1, rules=None
) -> Deal:
    used = cards(a) + cards(b) + [upcard] + cards(stock_top)
    assert len(set(used)) == len(used), "test deck has a duplicate"
    stock = cards(stock_top) + [c for c in CODES if c not in used]
    return Deal(
        [cards(a), cards(b)], upcard, stock, dealer=dealer, rules=rules, names=("Ana", "Ben")
    )


def play(deal: Deal, *actions: str) -> Deal:
    for action in actions:
        deal.apply(action)
    return deal


# --------------------------------------------------------------------------- the deal


def test_from_deck_deals_alternately_non_dealer_first():
    deck = list(DECK)
    deal = Deal.from_deck(deck, dealer=0)
    assert deal.hand(1) == tuple(sorted(deck[0:20:2]))  # non-dealer gets cards 1, 3, 5, ...
    assert deal.hand(0) == tuple(sorted(deck[1:20:2]))
    assert deal.upcard == deck[20]
    assert deal.stock == [c.code for c in deck[21:]]
    assert (deal.turn, deal.phase, deal.stock_left) == (1, "upcard_offer", 31)


def test_shuffled_is_deterministic_and_cuts_for_the_dealer():
    one, two = Deal.shuffled(42), Deal.shuffled(42)
    assert (one.dealt, one.upcard, one.stock, one.dealer) == (
        two.dealt,
        two.upcard,
        two.stock,
        two.dealer,
    )
    assert {Deal.shuffled(seed).dealer for seed in range(20)} == {0, 1}
    assert Deal.shuffled(1).dealt != Deal.shuffled(2).dealt


def test_the_52_cards_must_be_one_deck():
    with pytest.raises(ValueError, match="52 cards of one deck"):
        Deal([cards(JUNK_A), cards(JUNK_B)], "Qd", [c for c in CODES if c != "Qd"][:31])


@pytest.mark.parametrize(
    "text, expected",
    [
        ("pass", ("pass", None)),
        ("Draw  Stock", ("draw stock", None)),
        ("draw discard", ("draw discard", None)),
        ("knock 10♠", ("knock", parse_cards("Ts")[0])),
        ("GIN qh", ("gin", parse_cards("Qh")[0])),
        ("big gin", ("big gin", None)),
    ],
)
def test_parse_action(text, expected):
    assert parse_action(text) == expected


@pytest.mark.parametrize("text", ["fold", "discard", "discard Zz", "knock As Ks", "", 3])
def test_parse_action_refuses_non_actions(text):
    with pytest.raises(RuleError):
        parse_action(text)


# --------------------------------------------------------------------------- the upcard offer


def test_non_dealer_takes_the_upcard_then_dealer_draws_normally():
    deal = make_deal(JUNK_A, JUNK_B, "Qd")
    assert deal.legal_actions() == ["pass", "draw discard"]
    deal.apply("draw discard")
    assert (deal.turn, deal.phase, len(deal.hand(0))) == (0, "discard", 11)
    assert "discard Qd" not in deal.legal_actions()
    deal.apply("discard Kc")
    assert (deal.turn, deal.phase, deal.top.code) == (1, "draw", "Kc")
    assert deal.legal_actions() == ["draw stock", "draw discard"]


def test_non_dealer_passes_dealer_takes_then_non_dealer_draws():
    deal = play(make_deal(JUNK_A, JUNK_B, "Qd"), "pass")
    assert (deal.turn, deal.phase) == (1, "upcard_offer")
    play(deal, "draw discard", "discard 2c")
    assert (deal.turn, deal.phase) == (0, "draw")
    assert deal.legal_actions() == ["draw stock", "draw discard"]


def test_both_pass_and_the_non_dealer_must_draw_from_the_stock():
    deal = play(make_deal(JUNK_A, JUNK_B, "Qd", "5h"), "pass", "pass")
    assert (deal.turn, deal.phase, deal.legal_actions()) == (0, "draw", ["draw stock"])
    with pytest.raises(
        RuleError, match="both players passed the upcard, so Ana must draw from the stock"
    ):
        deal.apply("draw discard")
    play(deal, "draw stock", "discard 5h")  # a card drawn from the stock may go at once
    assert deal.legal_actions() == ["draw stock", "draw discard"]
    deal.apply("draw discard")  # the dealer may take the top card (5h) now
    assert deal.taken.code == "5h"


def test_no_stock_draw_during_the_offer_and_no_pass_after_it():
    deal = make_deal(JUNK_A, JUNK_B, "Qd")
    with pytest.raises(RuleError, match="cannot draw from the stock during the upcard offer"):
        deal.apply("draw stock")
    with pytest.raises(RuleError, match="must first take the upcard"):
        deal.apply("discard Kc")
    play(deal, "pass", "pass")
    with pytest.raises(RuleError, match="cannot pass: the upcard offer is over"):
        deal.apply("pass")


def test_draw_before_discarding_and_not_twice():
    deal = play(make_deal(JUNK_A, JUNK_B, "Qd"), "pass", "pass")
    with pytest.raises(RuleError, match="Ana must draw first"):
        deal.apply("discard Kc")
    deal.apply("draw stock")
    with pytest.raises(RuleError, match="has drawn and must discard"):
        deal.apply("draw stock")
    with pytest.raises(RuleError, match="Ana does not hold it"):
        deal.apply("discard Ks")


# --------------------------------------------------------------------------- the card just taken


def test_the_card_just_taken_cannot_be_discarded_or_knocked_with():
    deal = play(make_deal(NINE, JUNK_C, "Kd"), "draw discard")
    with pytest.raises(
        RuleError, match="cannot discard Kd: it was just taken from the discard pile"
    ):
        deal.apply("discard Kd")
    with pytest.raises(RuleError, match="cannot knock Kd: it was just taken"):
        deal.apply("knock Kd")
    actions = deal.legal_actions()
    assert not any(a.endswith("Kd") for a in actions)
    assert "knock 9d" in actions
    # a failed action leaves the deal unchanged
    assert (deal.phase, deal.taken.code, len(deal.actions)) == ("discard", "Kd", 1)


def test_taking_the_upcard_and_knocking_at_once_is_allowed():
    deal = play(make_deal(NINE, JUNK_C, "9h"), "draw discard", "knock 9d")
    assert deal.phase == "showdown"
    result = deal.showdown()
    assert result.knocker.deadwood == 9 and result.discard == "9d"


# --------------------------------------------------------------------------- knocking


def test_knock_over_the_limit_is_refused_and_legal_knocks_match_deadwood():
    deal = play(make_deal(NINE, JUNK_C, "Kh", "5h"), "pass", "pass", "draw stock")
    with pytest.raises(
        RuleError, match="cannot knock discarding 2c: deadwood 21 exceeds the knock limit 10"
    ):
        deal.apply("knock 2c")
    hand = deal.hand(0)
    knocks = {a.split()[1] for a in deal.legal_actions() if a.startswith("knock")}
    assert knocks == {c.code for c in hand if 0 < deadwood([x for x in hand if x != c]) <= 10}
    assert knocks == {"9d", "5h"}
    deal.apply("knock 9d")
    result = deal.showdown()
    assert (result.outcome, result.knocker.deadwood) == ("knock", 5)
    assert result.points == result.defender.deadwood - 5


def test_gin_scores_bonus_and_refuses_layoffs():
    # Ana draws Ks: T-J-Q-K spades; discarding Kd leaves all ten melded.
    ana = "2c 3c 4c 7d 7h 7s Ts Js Qs Kd"
    ben = "5c 7c 9s Ah 2h 4h 6d 8d 9h Jh"  # 5c, 7c and 9s could be laid off after a knock
    deal = play(make_deal(ana, ben, "Qh", "Ks"), "pass", "pass", "draw stock")
    assert "gin Kd" in deal.legal_actions() and "knock Kd" not in deal.legal_actions()
    deal.apply("knock Kd")  # a knock with deadwood 0 is gin
    result = deal.showdown()
    assert (result.outcome, result.winner_player) == ("gin", 0)
    assert result.defender.layoffs == ()
    assert result.defender.deadwood == 61
    assert result.points == 25 + 61
    with pytest.raises(RuleError, match="cannot go gin discarding"):
        play(make_deal(NINE, JUNK_C, "Kh", "5h"), "pass", "pass", "draw stock", "gin 9d")


def test_chained_layoffs_on_a_run():
    ana = "4s 5s 6s Qc Qd Qh Ac 2c 3c 9h"
    ben = "7s 8s Kc Kh Jd Jh 5d 3h 2d 4d"
    deal = play(make_deal(ana, ben, "Js", "Kd"), "pass", "pass", "draw stock", "knock Kd")
    result = deal.showdown()
    assert result.defender.layoffs == (
        Layoff(card="7s", meld=("4s", "5s", "6s")),
        Layoff(card="8s", meld=("4s", "5s", "6s")),
    )
    assert (result.knocker.deadwood, result.defender.deadwood) == (9, 54)
    assert (result.outcome, result.points) == ("knock", 45)


def test_declared_showdown_is_validated_and_gin_laid_out_as_a_knock_scores_as_one():
    ana = "4s 5s 6s Qc Qd Qh Ac 2c 3c 9h"
    ben = "7s 8s Kc Kh Jd Jh 5d 3h 2d 4d"
    deal = play(make_deal(ana, ben, "Js", "Kd"), "pass", "pass", "draw stock", "knock Kd")
    with pytest.raises(RuleError, match="cannot be laid off"):
        deal.showdown(layoffs=[{"card": "8s", "meld": ["4s", "5s", "6s"]}])
    assert deal.phase == "showdown"
    result = deal.showdown(layoffs=[{"card": "7s", "meld": ["4s", "5s", "6s"]}])
    assert result.defender.deadwood == 62 and result.points == 53

    gin = play(
        make_deal("2c 3c 4c 7d 7h 7s Ts Js Qs Kd", JUNK_C, "Kh", "Ks"),
        "pass",
        "pass",
        "draw stock",
        "gin Kd",
    )
    # RULES.md 5: laid out with deadwood, a gin hand is scored as the knock it is
    laid = gin.showdown(knocker_melds=[["2c", "3c", "4c"], ["7d", "7h", "7s"], ["Ts", "Js", "Qs"]])
    assert laid.outcome == "knock" and laid.knocker.deadwood == 10
    assert laid.breakdown.bonus == 0
    with pytest.raises(RuleError, match=r"the hand is over: .* knocked"):
        gin.apply("draw stock")


def test_big_gin_only_when_the_rules_allow_it():
    ana = "2c 3c 4c 7d 7h 7s Ts Js Qs Ks"
    ben = "5d 7c 9s Ah 2h 4h 6d 8d 9h Jh"
    standard = play(make_deal(ana, ben, "Qh", "5c"), "pass", "pass", "draw stock")
    assert "big gin" not in standard.legal_actions()
    with pytest.raises(RuleError, match="big gin is not allowed under these rules"):
        standard.apply("big gin")
    assert {"gin 5c", "gin 2c", "gin Ks"} <= set(standard.legal_actions())

    modern = play(make_deal(ana, ben, "Qh", "5c", rules="modern"), "pass", "pass", "draw stock")
    assert "big gin" in modern.legal_actions()
    modern.apply("big gin")
    result = modern.showdown()
    assert result.outcome == "big_gin" and len(result.knocker.cards) == 11
    assert result.discard is None
    assert result.points == 31 + result.defender.deadwood

    not_yet = play(make_deal(ana, ben, "Qh", "Kd", rules="modern"), "pass", "pass", "draw stock")
    with pytest.raises(RuleError, match="the 11 cards leave deadwood 10"):
        not_yet.apply("big gin")


# --------------------------------------------------------------------------- Oklahoma


def test_oklahoma_ace_upcard_means_gin_only_or_one_by_option():
    ben = JUNK_C
    deal = play(make_deal(NINE, ben, "Ad", "Ah", rules="oklahoma"), "pass", "pass", "draw stock")
    assert deal.knock_limit == 0
    assert not any(a.startswith("knock") for a in deal.legal_actions())
    with pytest.raises(
        RuleError,
        match="deadwood 1 exceeds the knock limit 0 set by the upcard Ad: only gin ends the hand",
    ):
        deal.apply("knock 9d")
    one = play(
        make_deal(NINE, ben, "Ad", "Ah", rules={"preset": "oklahoma", "ace_upcard": "one"}),
        "pass",
        "pass",
        "draw stock",
        "knock 9d",
    )
    assert one.showdown().knocker.deadwood == 1


def test_oklahoma_upcard_sets_the_limit_and_a_spade_doubles():
    ben = JUNK_C
    deal = play(make_deal(NINE, ben, "5d", "Ah", rules="oklahoma"), "pass", "pass", "draw stock")
    assert deal.knock_limit == 5
    with pytest.raises(
        RuleError, match="deadwood 9 exceeds the knock limit 5 set by the upcard 5d"
    ):
        deal.apply("knock Ah")
    deal.apply("knock 9d")
    plain = deal.showdown()
    assert plain.breakdown.multiplier == 1

    spade = play(
        make_deal(NINE, ben.replace("Ks", "Kd"), "9s", "Ah", rules="oklahoma"),
        "pass",
        "pass",
        "draw stock",
        "knock 9d",
    )
    result = spade.showdown()
    assert spade.knock_limit == 9
    assert result.breakdown.multiplier == 2
    assert result.points == 2 * (result.defender.deadwood - 1)


# --------------------------------------------------------------------------- the wall


def stock_of(deal: Deal) -> list[str]:
    return deal.stock


def test_void_at_two_after_a_discard_without_knocking():
    deal = play(make_deal(JUNK_A, JUNK_B, "Qd"), "pass", "pass")
    stock = stock_of(deal)
    for i in range(29):
        play(deal, "draw stock", f"discard {stock[i]}")
    assert deal.over and deal.void and deal.stock_left == 2
    result = deal.result
    assert (result.void, result.winner_player, result.points) == (True, None, 0)
    assert result.next_dealer == 1 == deal.dealer  # the same dealer deals again
    assert result.actions == 60
    with pytest.raises(RuleError, match="the hand is over: it is void"):
        deal.apply("draw stock")


def test_knocking_on_the_last_turn_before_the_wall_is_allowed():
    deal = play(make_deal(NINE, JUNK_C, "Qd"), "pass", "pass")
    stock = stock_of(deal)
    for i in range(28):
        play(deal, "draw stock", f"discard {stock[i]}")
    deal.apply("draw stock")  # Ana draws the third-last card
    deal.apply(f"knock {stock[28]}")
    result = deal.showdown()
    assert not result.void and result.stock_left == 2
    assert result.knocker_player == 0


def test_knock_only_at_two_lets_the_next_player_take_the_discard_to_knock():
    rules = {"preset": "standard", "wall": "knock_only_at_two"}
    ben = NINE  # Ben can knock with whatever he takes
    deal = play(make_deal(JUNK_D, ben, "Qd", rules=rules), "pass", "pass")
    stock = stock_of(deal)
    for i in range(29):
        play(deal, "draw stock", f"discard {stock[i]}")
    assert not deal.over and deal.wall and deal.turn == 1
    assert deal.legal_actions() == ["draw discard", "pass"]
    with pytest.raises(RuleError, match="it is down to 2 cards"):
        deal.apply("draw stock")

    passing = copy.deepcopy(deal)
    passing.apply("pass")
    assert passing.void and passing.result.next_dealer == 1

    deal.apply("draw discard")
    actions = deal.legal_actions()
    assert actions and all(a.startswith(("knock", "gin", "big gin")) for a in actions)
    with pytest.raises(RuleError, match="may only knock with it"):
        deal.apply("discard 9d")
    deal.apply("knock 9d")
    result = deal.showdown()
    assert result.knocker_player == 1 and result.stock_left == 2


def test_knock_only_at_two_is_void_at_once_when_the_discard_cannot_help():
    deal = play(make_deal(NINE, JUNK_C, "Qd", rules={"wall": "knock_only_at_two"}), "pass", "pass")
    stock = stock_of(deal)
    for i in range(29):
        play(deal, "draw stock", f"discard {stock[i]}")
    assert deal.void  # Ben's junk cannot knock with Ana's last discard


# --------------------------------------------------------------------------- next dealer


@pytest.mark.parametrize("option, expected", [("winner", 0), ("loser", 1), ("alternate", 0)])
def test_next_dealer_follows_the_option(option, expected):
    deal = play(
        make_deal(NINE, JUNK_C, "Kh", "5h", rules={"next_dealer": option}),
        "pass",
        "pass",
        "draw stock",
        "knock 9d",
    )
    result = deal.showdown()
    assert result.winner_player == 0
    assert result.next_dealer == expected


# --------------------------------------------------------------------------- legal_actions


ALL_ACTIONS = ["pass", "draw stock", "draw discard", "big gin"] + [
    f"{verb} {card.code}" for verb in ("discard", "knock", "gin") for card in DECK
]


@pytest.mark.slow
@pytest.mark.parametrize(
    "seed, rules",
    [
        (1, None),
        (2, "modern"),
        (3, "oklahoma"),
        (4, {"wall": "knock_only_at_two"}),
        (5, "straight"),
    ],
)
def test_legal_actions_are_exactly_the_actions_apply_accepts(seed, rules):
    rng = random.Random(seed)
    for game in range(3):
        deal = Deal.shuffled(seed * 100 + game, rules=rules)
        while deal.phase not in ("showdown", "over"):
            legal = deal.legal_actions()
            assert len(set(legal)) == len(legal)
            # "knock Xx" with deadwood 0 is accepted as gin; only "gin Xx" is listed
            accepted = set(legal) | {"knock " + a[4:] for a in legal if a.startswith("gin ")}
            for action in ALL_ACTIONS:
                if action in accepted:
                    copy.deepcopy(deal).apply(action)
                else:
                    before = (deal.phase, deal.turn, deal.actions, list(deal.hands))
                    with pytest.raises(RuleError):
                        deal.apply(action)
                    assert before == (deal.phase, deal.turn, deal.actions, list(deal.hands))
            # prefer ending the hand now and then so that showdowns are reached too
            going_out = [a for a in legal if a.startswith(("knock", "gin", "big"))]
            deal.apply(rng.choice(going_out if going_out and rng.random() < 0.3 else legal))
        assert deal.legal_actions() == []
