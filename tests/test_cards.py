"""Card notation: parsing every accepted form, canonical output, precise errors."""

import pytest

from scorekeeper import Card, CardError, parse_cards
from scorekeeper.cards import DECK, cards_mask, mask_cards


def codes(cards):
    return [str(c) for c in cards]


@pytest.mark.parametrize(
    "text",
    ["As 2s 3s Th", "As,2s,3s,Th", "as 2S, 3s 10h", "A♠ 2♠ 3♠ 10♥", "AS  2s;3s TH", "a♠ 2s 3♠ t♥"],
)
def test_every_notation_gives_the_canonical_codes(text):
    assert codes(parse_cards(text)) == ["As", "2s", "3s", "Th"]


def test_iterables_of_codes_and_cards():
    assert codes(parse_cards(["Kd", "10c"])) == ["Kd", "Tc"]
    cards = parse_cards("Qh Jh")
    assert parse_cards(cards) == cards
    assert codes(parse_cards([cards[0], "9h"])) == ["Qh", "9h"]


def test_card_identity_value_and_display():
    ten = Card("10s")
    assert str(ten) == "Ts" and ten is Card("Ts")
    assert ten.value == 10 and Card("Ah").value == 1 and Card("7c").value == 7
    assert Card("Kd").value == 10
    assert ten.symbol == "T♠" and ten.name == "ten of spades"
    assert sorted([Card("2d"), Card("Ac")]) == [Card("Ac"), Card("2d")]
    assert len(DECK) == 52 and len({c.code for c in DECK}) == 52


def test_masks_round_trip():
    cards = parse_cards("As Kc 7h 7d")
    assert set(mask_cards(cards_mask(cards))) == set(cards)


def test_unknown_token_names_it_and_its_position():
    with pytest.raises(CardError) as raised:
        parse_cards("As 2s Xz 4s")
    assert raised.value.token == "Xz" and raised.value.position == 3
    assert "'Xz'" in str(raised.value) and "position 3" in str(raised.value)


@pytest.mark.parametrize("bad", ["1s", "11h", "Ts9", "Ks Q", "Zs"])
def test_malformed_tokens_are_refused(bad):
    with pytest.raises(CardError):
        parse_cards(bad)


def test_duplicate_names_the_card_and_both_positions():
    with pytest.raises(CardError) as raised:
        parse_cards("As 2s 3s as")
    assert raised.value.position == 4
    assert "duplicate card As at position 4" in str(raised.value)
    assert "position 1" in str(raised.value)


def test_wrong_count_and_field_name():
    with pytest.raises(CardError, match=r"knocker: expected 10 or 11 cards, got 3"):
        parse_cards("As 2s 3s", count=(10, 11), field="knocker")
    with pytest.raises(CardError, match=r"defender: unknown card"):
        parse_cards("As 2s q", field="defender")


def test_non_text_items_are_refused():
    with pytest.raises(CardError, match="position 2"):
        parse_cards(["As", 7])
    with pytest.raises(CardError):
        parse_cards(42)
