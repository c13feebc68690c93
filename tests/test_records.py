"""Deal and match records (scorekeeper.records): loading, checks, replay and fuzzing."""

from __future__ import annotations

import copy
import json

import pytest
from conftest import examples
from engine_kit import (
    DECK,
    JUNK_A,
    JUNK_B,
    check_result,
    draw_and_discard,
    make_record,
    strip,
    void_deal,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import RecordError, Rules, replay
from scorekeeper.bots import simulate, simulate_match
from scorekeeper.knock import Layoff

JUNK_C = "5c 8c Jc 3d 6d Jd 2h 4h 8h Qh"  # deadwood 66
GIN10 = "2c 3c 4c 7d 7h 7s Ts Js Qs Kd"  # with Ks: discard Kd for gin


def gin_deal(winner: int, dealer: int, *, match: bool = True) -> dict:
    """A deal in which ``winner`` takes the upcard Ks and goes gin: 25 + 66 = 91 points."""
    hands = [JUNK_C, JUNK_C]
    hands[winner] = GIN10
    actions = ["draw discard", "gin Kd"] if winner != dealer else ["pass", "draw discard", "gin Kd"]
    record = make_record(tuple(hands), "Ks", dealer=dealer, actions=actions)
    return strip(record) if match else record


def match(deals, rules=None) -> dict:
    record = {"format": "gin-rummy-match/1", "players": ["Ana", "Ben"], "deals": deals}
    if rules is not None:
        record["rules"] = rules
    return record


def refused(record) -> RecordError:
    with pytest.raises(RecordError) as caught:
        replay(record)
    return caught.value


# --------------------------------------------------------------------------- deal records


def test_the_issue_example_message_for_the_card_just_taken():
    record = make_record(
        (JUNK_A, JUNK_B), "Qd", actions=["draw discard", "discard Js", "draw discard", "discard Js"]
    )
    error = refused(record)
    assert str(error) == "step 3: cannot discard Js: it was just taken from the discard pile"
    assert error.step == 3 and error.deal is None
    assert isinstance(error, ValueError)


def test_a_knock_replays_to_the_verify_knock_shape_plus_the_deal_fields():
    record = make_record(
        ("4s 5s 6s Qc Qd Qh Ac 2c 3c 9h", "7s 8s Kc Kh Jd Jh 5d 3h 2d 4d"),
        "Js",
        "Kd",
        actions=["pass", "pass", "draw stock", "knock Kd"],
    )
    result = replay(record)
    assert {"outcome", "winner", "points", "knocker", "defender", "breakdown"} <= set(
        result.to_dict()
    )
    assert (result.outcome, result.points, result.void) == ("knock", 45, False)
    assert (result.knocker_player, result.winner_player) == (0, 0)
    assert (result.next_dealer, result.stock_left, result.players) == (0, 30, ("Ana", "Ben"))
    assert result.defender.layoffs == (
        Layoff(card="7s", meld=("4s", "5s", "6s")),
        Layoff(card="8s", meld=("4s", "5s", "6s")),
    )
    assert replay(json.dumps(record)) == result  # JSON text is accepted too


def test_deck_form_deals_one_at_a_time_non_dealer_first():
    record = make_record((JUNK_A, JUNK_B), "Qd", dealer=1, actions=["pass", "pass", "draw stock"])
    record["actions"].append(f"discard {record['stock'][0]}")
    record["actions"] += draw_and_discard(record["stock"], 1, 28)
    deck = [
        card for pair in zip(record["hands"][0], record["hands"][1], strict=True) for card in pair
    ] + [record["upcard"], *record["stock"]]
    by_deck = {k: v for k, v in record.items() if k not in ("hands", "upcard", "stock")}
    by_deck["deck"] = deck
    assert replay(by_deck) == replay(record)
    assert replay(record).void is True


def test_void_hand_result():
    result = replay(void_deal(0, match=False))
    assert result.void is True
    assert (result.outcome, result.winner, result.points) == (None, None, 0)
    assert (result.knocker_player, result.winner_player) == (None, None)
    assert (result.next_dealer, result.stock_left) == (0, 2)
    extra = void_deal(0, match=False)
    extra["actions"].append("draw stock")
    error = refused(extra)
    assert error.step == 60 and "the hand is over: it is void" in str(error)
    extra["actions"].pop()
    extra["showdown"] = {}
    assert "there is no showdown" in str(refused(extra))


def test_actions_that_stop_early_name_the_missing_step():
    record = make_record((JUNK_A, JUNK_B), "Qd", actions=["pass", "pass", "draw stock"])
    error = refused(record)
    assert error.step == 3
    assert str(error) == (
        "step 3: the actions end before the hand is over: Ana has drawn and"
        " must discard, knock or go gin"
    )


def test_an_action_after_the_knock_is_refused():
    record = gin_deal(0, 1, match=False)
    record["actions"].append("draw stock")
    error = refused(record)
    assert error.step == 2
    assert "the hand is over: Ana went gin" in str(error)


def test_declared_showdown_is_checked_and_errors_carry_the_knock_step():
    base = make_record(
        ("4s 5s 6s Qc Qd Qh Ac 2c 3c 9h", "7s 8s Kc Kh Jd Jh 5d 3h 2d 4d"),
        "Js",
        "Kd",
        actions=["pass", "pass", "draw stock", "knock Kd"],
    )
    ok = dict(base, showdown={"layoffs": [{"card": "7s", "meld": ["4s", "5s", "6s"]}]})
    assert replay(ok).points == 62 - 9
    bad = dict(base, showdown={"layoffs": [{"card": "8s", "meld": ["4s", "5s", "6s"]}]})
    error = refused(bad)
    assert error.step == 3 and str(error).startswith("step 3: showdown: ")
    melds = dict(base, showdown={"knocker_melds": [["4s", "5s", "Zz"]]})
    assert refused(melds).step == 3
    over = dict(base, showdown={"knocker_melds": [["4s", "5s", "6s"], ["Qc", "Qd", "Qh"]]})
    assert "exceeds the knock limit" in str(refused(over))
    unknown = dict(base, showdown={"melds": []})
    assert refused(unknown).step is None


def good_record() -> dict:
    return make_record((JUNK_A, JUNK_B), "Qd", actions=["pass", "pass", "draw stock"])


def with_changes(**changes) -> dict:
    record = good_record()
    for key, value in changes.items():
        if value is KeyError:
            del record[key]
        else:
            record[key] = value
    return record


@pytest.mark.parametrize(
    "record, message",
    [
        (with_changes(format=KeyError), "format must be"),
        (with_changes(format="gin-rummy-deal/2"), "format must be"),
        (with_changes(dealer=2), "dealer must be 0 or 1"),
        (with_changes(dealer=True), "dealer must be 0 or 1"),
        (with_changes(dealer="1"), "dealer must be 0 or 1"),
        (with_changes(dealer=KeyError), "dealer is missing"),
        (with_changes(upcard="Zz"), "upcard: unknown card 'Zz'"),
        (with_changes(upcard=KeyError), "upcard missing"),
        (with_changes(hands=[JUNK_A.split()[:9], JUNK_B.split()]), "hands[0]: expected 10 cards"),
        (
            with_changes(hands=[JUNK_A.split(), JUNK_A.split()]),
            "Ac appears twice: in hands[0] and in hands[1]",
        ),
        (with_changes(hands="Ac 2c"), "hands must be a list of two hands"),
        (with_changes(upcard="Ac"), "Ac appears twice: in hands[0] and in upcard"),
        (with_changes(stock=["Ac"] * 31), "stock: duplicate card Ac"),
        (with_changes(stock={"a": 1}), "stock must be a list"),
        (with_changes(deck=DECK), "give either deck or hands"),
        (with_changes(showdwn={}), "unknown key 'showdwn'"),
        (with_changes(rules={"preset": "nope"}), "rules: unknown preset 'nope'"),
        (with_changes(rules={"knock_limit": 11}), "rules: knock_limit must be"),
        (with_changes(rules=5), "rules: rules must be a preset name"),
        (with_changes(players=["Ana", "Ana"]), "different names"),
        (with_changes(players="Ana"), "players must be a list of two names"),
        (with_changes(actions="draw stock"), "actions must be a list"),
        (with_changes(showdown=[]), "showdown must be an object"),
        ([1, 2], "a record must be a JSON object"),
        ("{not json", "not valid JSON"),
    ],
)
def test_bad_headers_raise_record_error_without_a_step(record, message):
    error = refused(record)
    assert message in str(error)
    assert error.step is None


def test_a_deck_that_is_not_52_distinct_cards():
    record = with_changes(hands=KeyError, upcard=KeyError, stock=KeyError, deck=DECK[:51])
    assert "deck: expected 52 cards, got 51" in str(refused(record))
    record["deck"] = [*DECK[:51], "Ac"]
    assert "deck: duplicate card Ac" in str(refused(record))


@pytest.mark.parametrize(
    "action, message",
    [
        (5, "step 3: an action must be text"),
        ("fold", "step 3: unknown action 'fold'"),
        ("discard Zz", "step 3: unknown card 'Zz'"),
        ("discard 9h", "step 3: cannot discard 9h: Ana does not hold it"),
    ],
)
def test_bad_actions_name_their_step(action, message):
    record = good_record()
    record["actions"].append(action)
    error = refused(record)
    assert message in str(error) and error.step == 3


# --------------------------------------------------------------------------- match records


def test_match_checks_the_dealer_rotation_and_scores_the_game():
    # Ana wins 91 in deal 0 (she deals next), deal 1 is void (she deals again), Ben wins
    # deal 2 (he deals next), Ana wins deal 3 and reaches 182 >= 100.
    deals = [gin_deal(0, 1), void_deal(0), gin_deal(1, 0), gin_deal(0, 1)]
    result = replay(match(deals))
    assert [d.next_dealer for d in result.deals] == [0, 0, 1, 0]
    sheet = result.sheet
    assert [h.totals for h in sheet.hands] == [(91, 0), (91, 0), (91, 91), (182, 91)]
    assert sheet.boxes == (2, 1) and sheet.over
    final = sheet.result
    # Recomputed by hand: Ana 182 + 2 boxes x 25 + game 100 = 332; Ben 91 + 25 = 116.
    assert final.final == (332, 116) and final.net == 216 and not final.shutout

    wrong = copy.deepcopy(deals)
    wrong[1]["dealer"] = 1
    wrong[1]["actions"] = void_deal(1)["actions"]
    error = refused(match(wrong))
    assert (error.deal, error.step) == (1, None)
    assert str(error) == (
        "deal 1: dealer must be Ana (0): Ana won deal 0 and the winner deals (next_dealer: winner)"
    )
    wrong = copy.deepcopy(deals)
    wrong[2] = gin_deal(1, 1)
    assert str(refused(match(wrong))) == (
        "deal 2: dealer must be Ana (0): deal 1 was void, so the same dealer deals again"
    )


def test_match_rotation_follows_the_next_dealer_option():
    deals = [gin_deal(0, 1), gin_deal(0, 1)]
    assert "the winner deals" in str(refused(match(deals)))
    result = replay(match(deals, rules={"preset": "standard", "next_dealer": "loser"}))
    assert result.sheet.totals == (182, 0)
    # a shutout: the game bonus is doubled, 182 + 50 + 200 = 432
    assert result.sheet.result.final == (432, 0)


def test_a_deal_after_the_game_is_over_is_refused():
    rules = {"next_dealer": "loser"}
    deals = [gin_deal(0, 1), gin_deal(0, 1), gin_deal(0, 1)]
    error = refused(match(deals, rules=rules))
    assert error.deal == 2 and str(error).startswith(
        "deal 2: the game is already over after deal 1"
    )


def test_errors_inside_a_match_name_the_deal_and_the_step():
    deals = [gin_deal(0, 1), gin_deal(1, 0)]
    deals[1]["actions"] = ["draw discard", "discard Ks"]
    error = refused(match(deals))
    assert (error.deal, error.step) == (1, 1)
    assert str(error) == (
        "deal 1, step 1: cannot discard Ks: it was just taken from the discard pile"
    )
    deals[1] = dict(gin_deal(1, 0), rules="standard")
    assert "rules belong to the match record" in str(refused(match(deals)))


def test_hollywood_columns_open_one_per_win():
    # winner deals: Ana (non-dealer) wins, Ana deals and wins, Ben wins, Ben deals, Ana wins
    deals = [gin_deal(0, 1), gin_deal(0, 0), gin_deal(1, 0), gin_deal(0, 1)]
    sheet = replay(match(deals, rules="hollywood")).sheet
    # 91 a win. Ana's 1st win: game 1; 2nd: games 1 and 2 (game 1 closes at 182);
    # Ben's 1st win: the lowest open column he has not opened, game 2;
    # Ana's 3rd: games 2 (closes at 182) and 3.
    assert [h.columns for h in sheet.hands] == [(0,), (0, 1), (1,), (1, 2)]
    assert [c.totals for c in sheet.columns] == [(182, 0), (182, 91), (91, 0)]
    assert [c.over for c in sheet.columns] == [True, True, False]
    assert sheet.opened == ((0, 1, 2), (1,))
    assert not sheet.over


def test_simulated_matches_replay_and_score_like_a_hand_count():
    for seed in range(4):
        record = simulate_match(seed)
        result = replay(record)
        sheet = result.sheet
        totals, boxes = [0, 0], [0, 0]
        for deal in result.deals:
            if not deal.void:
                totals[deal.winner_player] += deal.points
                boxes[deal.winner_player] += 1
        assert list(sheet.totals) == totals and list(sheet.boxes) == boxes and sheet.over
        winner = max((0, 1), key=lambda p: totals[p])
        bonus = 100 * (2 if boxes[1 - winner] == 0 else 1)
        final = [t + 25 * b for t, b in zip(totals, boxes, strict=True)]
        final[winner] += bonus
        assert list(sheet.result.final) == final
        assert sheet.result.net == final[winner] - final[1 - winner]


# --------------------------------------------------------------------------- fuzzing

SEEDS = [
    simulate(seed, players=kinds, rules=rules)
    for seed, kinds, rules in [
        (1, ("greedy", "greedy"), None),
        (2, ("greedy", "random"), None),
        (3, ("greedy", "greedy"), "modern"),
        (4, ("greedy", "greedy"), "oklahoma"),
        (5, ("random", "random"), {"wall": "knock_only_at_two"}),
    ]
]
CARD_CODES = st.one_of(st.sampled_from(DECK), st.sampled_from(["Zz", "", "10h", "A♠", "1s"]))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)


@st.composite
def mutated(draw):
    record = copy.deepcopy(draw(st.sampled_from([*SEEDS, gin_deal(0, 1, match=False)])))
    kinds = draw(
        st.lists(
            st.sampled_from(
                [
                    "card",
                    "duplicate",
                    "drop",
                    "swap",
                    "action_card",
                    "insert",
                    "dealer",
                    "value",
                    "showdown",
                ]
            ),
            min_size=1,
            max_size=3,
        )
    )
    # the structural mutations first: "value" may replace a whole field
    for kind in sorted(kinds, key=lambda k: k == "value"):
        mutate(draw, record, kind)
    return record


def mutate(draw, record: dict, kind: str) -> None:
    actions = record["actions"]
    if kind == "card":
        where = draw(st.sampled_from(["hands0", "hands1", "upcard", "stock"]))
        code = draw(CARD_CODES)
        if where == "upcard":
            record["upcard"] = code
        elif where == "stock":
            record["stock"][draw(st.integers(0, 30))] = code
        else:
            record["hands"][int(where[-1])][draw(st.integers(0, 9))] = code
    elif kind == "duplicate":
        record["stock"][draw(st.integers(0, 30))] = record["hands"][0][0]
    elif kind == "drop" and actions:
        del actions[draw(st.integers(0, len(actions) - 1))]
    elif kind == "swap" and len(actions) > 1:
        i = draw(st.integers(0, len(actions) - 1))
        j = draw(st.integers(0, len(actions) - 1))
        actions[i], actions[j] = actions[j], actions[i]
    elif kind == "action_card" and actions:
        i = draw(st.integers(0, len(actions) - 1))
        verb = actions[i].split()[0] if isinstance(actions[i], str) else "discard"
        actions[i] = f"{verb} {draw(CARD_CODES)}"
    elif kind == "insert":
        action = draw(
            st.sampled_from(["pass", "draw stock", "draw discard", "big gin"])
            | st.builds(
                lambda v, c: f"{v} {c}", st.sampled_from(["discard", "knock", "gin"]), CARD_CODES
            )
            | JSON
        )
        actions.insert(draw(st.integers(0, len(actions))), action)
    elif kind == "dealer":
        record["dealer"] = draw(st.sampled_from([0, 1, 2, -1, "0", None, 1.0]))
    elif kind == "value":
        key = draw(st.sampled_from(sorted(record)))
        record[key] = draw(JSON)
    elif kind == "showdown":
        record["showdown"] = draw(
            st.dictionaries(
                st.sampled_from(["knocker_melds", "defender_melds", "layoffs", "x"]),
                JSON,
                max_size=3,
            )
        )


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_records_give_record_error_or_a_valid_result(record):
    try:
        result = replay(record)
    except RecordError as error:
        assert error.step is None or isinstance(error.step, int)
        return
    if not result.void:
        check_result(
            result,
            Rules.from_dict(record.get("rules")).to_dict(),
            optimal=not record.get("showdown"),
        )


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_match_records_give_record_error_or_a_sheet(data):
    record = copy.deepcopy(simulate_match(data.draw(st.integers(0, 3))))
    deals = record["deals"]
    kind = data.draw(st.sampled_from(["dealer", "drop", "swap", "value", "rules"]))
    i = data.draw(st.integers(0, len(deals) - 1))
    if kind == "dealer":
        deals[i]["dealer"] = 1 - deals[i]["dealer"]
    elif kind == "drop":
        del deals[i]
    elif kind == "swap":
        j = data.draw(st.integers(0, len(deals) - 1))
        deals[i], deals[j] = deals[j], deals[i]
    elif kind == "value":
        deals[i][data.draw(st.sampled_from(sorted(deals[i])))] = data.draw(JSON)
    else:
        record["rules"] = data.draw(JSON)
    try:
        result = replay(record)
    except RecordError as error:
        assert error.deal is None or 0 <= error.deal < len(deals)
        return
    assert set(result.to_dict()) == {"deals", "sheet"}
