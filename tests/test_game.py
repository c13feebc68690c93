"""The game model: :func:`scorekeeper.game.apply` folded over typed hand inputs.

Folding ``apply`` gives the sheet :func:`~scorekeeper.sheet.score_sheet` gives for
the same hands (scored by :func:`~scorekeeper.hands.evaluate_hand`), in every
table format; a state read back from its summary (the store's resume point)
goes on the same; ``apply`` never changes the state it is given; a typed entry
advances the state as its JSON does (checked once, when the hand was scored).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.cards import Card
from scorekeeper.errors import InvalidValueError, RuleViolation
from scorekeeper.game import GameState, apply, evaluate
from scorekeeper.handinput import CardsHand, DealHand, QuickHand, VoidHand, parse_hand
from scorekeeper.hands import evaluate_hand
from scorekeeper.rules import Rules
from scorekeeper.sheet import score_sheet
from scorekeeper.tally import advance

TABLES = [
    (2, {}),
    (2, {"preset": "oklahoma"}),
    (2, {"scoring": "hollywood"}),
    (3, {}),
    (3, {"three_player_dealer": "rotate"}),
    (4, {}),
    (4, {"partnership_netting": "per_game"}),
]
"""Two players (single, Oklahoma, Hollywood), three (both dealer rules), four (both nettings)."""

UPCARDS = ["As", "7h", "Tc", "Ks", "3d"]


def _knock(data, seats, rules: Rules) -> dict:
    """A random quick hand (or void) between ``seats`` that ``rules`` allow."""
    if data.draw(st.integers(0, 9)) == 0:
        return {"kind": "void"}
    hand = {"kind": "quick", "knocker": data.draw(st.sampled_from(seats))}
    upcard = data.draw(st.sampled_from(UPCARDS)) if rules.oklahoma else None
    if upcard is not None:
        hand["upcard"] = upcard
    limit = rules.knock_limit_for(None if upcard is None else Card(upcard))
    hand["knocker_deadwood"] = data.draw(st.integers(0, limit))
    hand["defender_deadwood"] = data.draw(st.integers(0, 60))
    return hand


def _hand(data, state: GameState, rules: Rules) -> dict:
    """A random valid hand input for the next hand of the game at ``state``."""
    count = len(state.players)
    if count == 4:
        games = state.next_games or ()
        return {"kind": "deal", "games": [_knock(data, g.players, rules) for g in games]}
    seats = (0, 1) if count == 2 else tuple(p for p in range(3) if p != state.dealer)
    return _knock(data, seats, rules)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_folding_apply_is_scoring_the_sheet(data):
    count, options = data.draw(st.sampled_from(TABLES))
    rules = Rules.from_dict({**options, "target": data.draw(st.sampled_from([40, 100]))})
    names = ["Ana", "Ben", "Cy", "Dan"][:count]
    dealer = data.draw(st.integers(0, count - 1))
    stake = data.draw(st.sampled_from([None, 0.25]))
    state = GameState.start(rules, names, dealer, stake)
    inputs, records = [], []
    while not state.over and len(inputs) < data.draw(st.integers(0, 25)):
        hand = _hand(data, state, rules)
        before = state
        record, state = apply(rules, state, parse_hand(hand))
        assert before == GameState.resume(before.summary(rules), names, stake)
        resumed = apply(
            rules, GameState.resume(before.summary(rules), names, stake), parse_hand(hand)
        )
        assert resumed == (record, state)
        scored = evaluate(rules, before, parse_hand(hand)).entry  # typed: taken as it is
        assert advance(rules, before, scored) == advance(rules, before, scored.to_dict())
        assert advance(rules, before, scored) == (record, state)
        inputs.append(hand)
        records.append(record)
    entries, at = [], GameState.start(rules, names, dealer, stake)
    for hand in inputs:
        entries.append(
            evaluate_hand(
                hand,
                rules,
                players=names,
                dealer=at.dealer,
                games=None if at.next_games is None else [g.to_dict() for g in at.next_games],
            ).entry.to_dict()
        )
        at = apply(rules, at, parse_hand(hand))[1]
    sheet = score_sheet(entries, players=names, rules=rules, dealer=dealer, stake=stake)
    assert state.sheet(rules, records) == sheet
    assert state.summary(rules) == {**sheet.to_dict(), "hands": len(inputs)}


def test_a_quick_hand_is_parsed_to_typed_values():
    hand = parse_hand(
        {
            "kind": "quick",
            "knocker": 1,
            "knocker_deadwood": 4,
            "defender_deadwood": 30,
            "upcard": "10♠",
        }
    )
    assert hand == QuickHand(knocker=1, knocker_deadwood=4, defender_deadwood=30, upcard=Card("Ts"))
    cards = parse_hand(
        {
            "kind": "cards",
            "knocker": 0,
            "knocker_cards": "As 2s 3s 7c 7d 7h 9d Td Jd 2c",
            "defender_cards": "4s 5s 6s 8c 8d 8h Kd Qd Jh Th",
        }
    )
    assert isinstance(cards, CardsHand) and cards.knocker_cards[0] == Card("As")
    deal = parse_hand({"kind": "deal", "games": [{"kind": "void"}, {"kind": "void"}]})
    assert deal == DealHand((VoidHand(), VoidHand()))


@pytest.mark.parametrize(
    ("hand", "field", "code"),
    [
        (
            {"kind": "quick", "knocker": 0, "knocker_deadwood": -1, "defender_deadwood": 3},
            "knocker_deadwood",
            "bad_value",
        ),
        (
            {"kind": "cards", "knocker": 0, "knocker_cards": "As As", "defender_cards": ""},
            "knocker",
            "duplicate_card",
        ),
        (
            {"kind": "deal", "games": [{"kind": "void"}, {"kind": "record"}]},
            "games.1.kind",
            "bad_value",
        ),
        ({"kind": "nothing"}, "kind", "bad_value"),
    ],
)
def test_a_bad_hand_is_refused_where_it_is_read(hand, field, code):
    with pytest.raises((InvalidValueError, RuleViolation, Exception)) as error:
        parse_hand(hand)
    assert error.value.field == field
    assert error.value.code == code


def test_a_hand_after_the_end_is_refused_and_the_state_kept():
    rules = Rules.from_dict({"target": 10})
    state = GameState.start(rules, ["Ana", "Ben"], 0, None)
    _, over = apply(
        rules,
        state,
        parse_hand({"kind": "quick", "knocker": 0, "knocker_deadwood": 0, "defender_deadwood": 30}),
    )
    assert over.over and over.count == 1 and state.count == 0
    with pytest.raises(RuleViolation) as error:
        apply(rules, over, VoidHand())
    assert error.value.code == "game_over"
