"""The knocker's legal arrangements, layoffs named without their meld, and the review of
a showdown as laid down against optimal play (knock.knock_arrangements, place_layoffs,
knock_review.review_knock), worked by hand and checked against the brute-force oracle."""

from __future__ import annotations

import random

import brute_force as bf
import pytest
from conftest import examples

from scorekeeper import RuleError, Rules, verify_knock
from scorekeeper.declarations import place_layoffs
from scorekeeper.knock import knock_arrangements
from scorekeeper.knock_review import review_knock
from scorekeeper.showdown_scoring import knocker_points

STANDARD = Rules.preset("standard")
# Ana: A-2-3 of hearts or three threes, and three nines; Bor holds 4h 5h (fit the run) and
# three kings; 3s is nobody's
ANA = "Ah 2h 3h 3c 3d 9s 9d 9c As 2c"
BOR = "4h 5h Kc Kd Ks Js Qs 8d 6s Tc"


def melds_of(arrangement) -> frozenset:
    return frozenset(frozenset(meld) for meld in arrangement.melds)


# --------------------------------------------------------------------------- worked by hand


def test_two_arrangements_best_first_with_their_scores():
    # threes as a set: deadwood Ah 2h As 2c = 6, nothing to lay off, Bor 53: Ana +47;
    # A-2-3 of hearts: deadwood 3c 3d As 2c = 9, Bor lays off 4h 5h: 53 - 9 = 44, Ana +35
    first, second = knock_arrangements(ANA, BOR)
    assert (first.melds, first.deadwood, first.points, first.layoffs) == (
        (("3c", "3d", "3h"), ("9c", "9d", "9s")),
        6,
        47,
        (),
    )
    assert (second.melds, second.deadwood, second.defender_deadwood, second.points) == (
        (("9c", "9d", "9s"), ("Ah", "2h", "3h")),
        9,
        44,
        35,
    )
    assert [x.card for x in second.layoffs] == ["4h", "5h"]
    assert second.to_dict()["outcome"] == "knock"


def test_a_hand_that_could_go_gin_may_be_laid_down_as_a_knock():
    # 4-5-6-7 of clubs, 8-8-8, 9-9-9: gin; or 4-5-6 of clubs with the 7c as deadwood
    shown = knock_arrangements("4c 5c 6c 7c 8c 8d 8h 9c 9d 9h", "Kc Kd 2s 3s 4s Qh Jh 7d 6d 5d")
    assert shown[0].outcome == "gin" and shown[0].deadwood == 0
    knocks = [a for a in shown if a.outcome != "gin"]
    assert knocks and all(0 < a.deadwood <= 10 for a in knocks)
    assert any(a.deadwood_cards == ("7c",) for a in knocks)


def test_an_illegal_knock_has_no_arrangement():
    with pytest.raises(RuleError, match="exceeds the knock limit"):
        knock_arrangements("Ah 2h 3h 9s 9d 9c Kh Qc Jd 8c", BOR)


def test_layoffs_named_without_their_meld_go_where_they_fit():
    # 5h fits both 2-3-4 and 6-7-8 of hearts; 4c only the set
    placed = place_layoffs(["2h 3h 4h", "6h 7h 8h", "4s 4d 4h"], ["5h", "9h", "4c"])
    assert [(x.card, x.meld) for x in placed] == [
        ("5h", ("2h", "3h", "4h")),
        ("9h", ("6h", "7h", "8h")),
        ("4c", ("4d", "4h", "4s")),
    ]
    # with the 9h gone, 5h and Ah both still fit (one at each end of 2-3-4)
    assert {x.card for x in place_layoffs(["2h 3h 4h"], ["Ah", "5h"])} == {"Ah", "5h"}


def test_layoffs_that_do_not_fit_are_refused_naming_what_is_missing():
    with pytest.raises(RuleError) as caught:
        place_layoffs(["4h 5h 6h"], ["8h"])
    assert caught.value.code == "layoff_does_not_fit"
    assert caught.value.params == {"cards": ["8h"], "meld": ["4h", "5h", "6h"], "missing": ["7h"]}
    with pytest.raises(RuleError, match="Qs fits none of the knocker's melds"):
        place_layoffs(["4h 5h 6h"], ["7h", "Qs"])


def test_review_names_the_better_arrangement_and_the_missed_layoffs():
    laid = verify_knock(ANA, BOR, knocker_melds=["Ah 2h 3h", "9c 9d 9s"], layoffs=[])
    assert laid.points == 53 - 9
    review = review_knock(laid, rules=STANDARD)
    # Ana: 35 against Bor's best reply, 47 with the set of threes
    assert review.knocker.to_dict() == {
        "deadwood": 9,
        "best_deadwood": 6,
        "points": 35,
        "best_points": 47,
        "cost": 12,
        "best_melds": [["3c", "3d", "3h"], ["9c", "9d", "9s"]],
        "missed_melds": [["3c", "3d", "3h"]],
    }
    # Bor laid nothing off: 4h and 5h would have saved 9 points
    assert (review.defender.points, review.defender.best_points, review.defender.cost) == (
        -44,
        -35,
        9,
    )
    assert [(x.card, x.meld) for x in review.defender.missed_layoffs] == [
        ("4h", ("Ah", "2h", "3h")),
        ("5h", ("Ah", "2h", "3h")),
    ]


def test_review_of_optimal_play_finds_nothing():
    review = review_knock(verify_knock(ANA, BOR))
    assert review.knocker.cost == review.defender.cost == 0
    assert review.knocker.missed_melds == () and review.defender.missed_layoffs == ()


def test_a_layoff_that_breaks_an_own_meld_is_needless():
    # Ana 4-5-6 of hearts; Bor's 7h makes 7-7-7 with 7c 7d: laid off, it leaves the
    # 7c and 7d as deadwood (62 against 48)
    ana, bor = "4h 5h 6h 9s 9d 9c Ks Kd Kc As", "7h 7c 7d 2s 3s Qh Jh Td 8d 5c"
    laid = verify_knock(ana, bor, layoffs=[{"card": "7h", "meld": ["4h", "5h", "6h"]}])
    review = review_knock(laid)
    assert (review.defender.deadwood, review.defender.best_deadwood) == (62, 48)
    assert review.defender.cost == 14
    assert review.defender.needless_layoffs == ("7h",) and review.defender.missed_layoffs == ()


def test_a_layoff_that_needed_a_needless_one_is_not_needless():
    # Ana 4-5-6 of spades; Bor lays off 3s and 2s onto it; the best reply melds 3s 3h 3d
    # and so cannot lay off the 2s: the 3s was needless, the 2s is deadwood either way
    ana, bor = "4s 5s 6s 9c 9d 9h Jc Qc Kc 2d", "3s 2s 3h 3d 7c 8d Th Jh 5c 6h"
    onto = ["4s", "5s", "6s"]
    laid = verify_knock(
        ana,
        bor,
        knocker_melds=[onto, "9c 9d 9h", "Jc Qc Kc"],
        defender_melds=[],
        layoffs=[{"card": "3s", "meld": onto}, {"card": "2s", "meld": onto}],
    )
    review = review_knock(laid)
    assert (review.defender.deadwood, review.defender.best_deadwood, review.defender.cost) == (
        52,
        48,
        4,
    )
    assert review.defender.needless_layoffs == ("3s",) and review.defender.missed_layoffs == ()


# --------------------------------------------------------------------------- against the oracle


def _deals(count: int, seed: int):
    """Knocks from low cards (melds, sets against runs and layoffs are common there)."""
    rng = random.Random(seed)
    low = [c for c in bf.ALL_CODES if bf.rank(c) < 7]
    found = 0
    while found < count:
        cards = rng.sample(low, 20)
        knocker, defender = cards[:10], cards[10:]
        if bf.deadwood(knocker) <= 10:
            found += 1
            yield knocker, defender


def _canonical_legal(knocker, limit=10) -> set:
    cards = bf.hand(knocker)
    return {
        bf.canonical(a)
        for a in bf.arrangements_all(cards)
        if bf.arrangement_deadwood(cards, a) <= limit
    }


def _signed(result: bf.KnockResult) -> int:
    return result.points if result.winner == "knocker" else -result.points


def test_arrangements_are_every_legal_one_scored_as_the_oracle_scores_them():
    rules = STANDARD.to_dict()
    for knocker, defender in _deals(examples(30), 1):
        shown = knock_arrangements(knocker, defender)
        assert {melds_of(a) for a in shown} == _canonical_legal(knocker)
        assert len(shown) == len({melds_of(a) for a in shown})
        best = bf.verify_knock(knocker, defender, rules)
        assert shown[0].points == _signed(best), (knocker, defender)
        for a in shown:
            assert a.deadwood == bf.arrangement_deadwood(bf.hand(knocker), melds_of(a))
            if a.deadwood:
                d = bf.defender_best(bf.hand(defender), melds_of(a))
                assert a.defender_deadwood == d
                assert a.points == _signed(
                    bf.verify_knock(knocker, defender, rules, knocker_melds=a.melds)
                )
        assert [a.points for a in shown[1:]] == sorted((a.points for a in shown[1:]), reverse=True)


def test_placed_layoffs_are_legal_and_the_review_adds_up():
    rng = random.Random(2)
    checked = 0
    for knocker, defender in _deals(30, 3):
        arrangement = rng.choice(knock_arrangements(knocker, defender))
        if not arrangement.deadwood:
            continue
        melds = [frozenset(m) for m in arrangement.melds]
        legal = bf.layoff_sets(bf.hand(defender), melds)
        for cards in sorted(legal, key=sorted):
            placed = place_layoffs(arrangement.melds, sorted(cards))
            assert bf.layoffs_are_legal(melds, {x.card: frozenset(x.meld) for x in placed})
            laid = verify_knock(
                knocker,
                defender,
                knocker_melds=arrangement.melds,
                layoffs=[x.to_dict() for x in placed],
            )
            review = review_knock(laid)
            best = bf.verify_knock(knocker, defender, STANDARD.to_dict())
            assert review.knocker.best_points == _signed(best)
            assert review.knocker.points == arrangement.points
            assert review.defender.best_deadwood == bf.defender_best(bf.hand(defender), melds)
            assert review.defender.cost == knocker_points(laid) - arrangement.points >= 0
            assert bool(review.defender.missed_layoffs or review.defender.needless_layoffs) == (
                review.defender.cost > 0
            )
            checked += 1
        # a card next to no meld end cannot be laid off
        stray = [c for c in defender if not any(c in s for s in legal)]
        if stray:
            with pytest.raises(RuleError):
                place_layoffs(arrangement.melds, stray[:1])
    assert checked > 30
