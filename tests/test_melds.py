"""Melds, deadwood, optimal arrangements and 11-card discards (RULES.md section 2)."""

import pytest

from scorekeeper import Card, CardError, all_melds, arrangements, deadwood, discard_options
from scorekeeper.melds import DiscardOption, is_meld, meld_kind


def as_sets(found):
    return {frozenset(frozenset(m) for m in a.melds) for a in found}


def test_ace_is_low_only():
    assert deadwood("As 2s 3s") == 0
    assert deadwood("Qs Ks As") == 21
    assert deadwood("Ks As 2s") == 13


def test_deadwood_values_and_any_count():
    assert deadwood("") == 0
    assert deadwood("Kc") == 10
    assert deadwood("Ac 2d 9h Js") == 1 + 2 + 9 + 10
    assert deadwood("7c 7d 7h 7s 8s 9s") == 0
    assert deadwood("As 2s 3s 7c 7d 7h 9d Td Jd Kc") == 10


def test_deadwood_takes_cards_codes_and_both_mixed_in_any_container():
    """The fast path (a tuple or list of cards) and its fallback (anything without a
    card's ``bit``) give one answer; a bad code is still named."""
    codes = "As 2s 3s 7c 7d 7h 9d Td Jd Kc".split()
    cards = [Card(code) for code in codes]
    mixed = [cards[0], *codes[1:5], *cards[5:]]
    for given in (
        tuple(cards),
        cards,
        tuple(codes),
        codes,
        tuple(mixed),
        mixed,
        iter(mixed),
        " ".join(codes),
    ):
        assert deadwood(given) == 10, given
    with pytest.raises(CardError, match="'Zz'"):
        deadwood((cards[0], "Zz"))
    with pytest.raises(CardError):
        deadwood((cards[0], 7))


def test_all_melds_lists_overlapping_melds():
    found = {tuple(m) for m in all_melds("As 2s 3s 4s 3c 3d")}
    assert found == {
        ("As", "2s", "3s"),
        ("2s", "3s", "4s"),
        ("As", "2s", "3s", "4s"),
        ("3c", "3d", "3s"),
    }
    four = all_melds("9c 9d 9h 9s")
    assert len(four) == 5 and ["9c", "9d", "9h", "9s"] in four


def test_ties_are_all_listed_each_once():
    found = arrangements("As 5s 6s 7s 5c 6c 7c 5d 6d 7d")
    assert len(found) == 2
    assert as_sets(found) == {
        frozenset(
            {
                frozenset({"5c", "5d", "5s"}),
                frozenset({"6c", "6d", "6s"}),
                frozenset({"7c", "7d", "7s"}),
            }
        ),
        frozenset(
            {
                frozenset({"5s", "6s", "7s"}),
                frozenset({"5c", "6c", "7c"}),
                frozenset({"5d", "6d", "7d"}),
            }
        ),
    }
    assert all(a.deadwood == 1 and a.deadwood_cards == ("As",) for a in found)


def test_fourth_card_of_a_set_may_go_to_a_run():
    found = arrangements("7c 7d 7h 7s 8s 9s 2c")
    assert as_sets(found) == {
        frozenset({frozenset({"7c", "7d", "7h"}), frozenset({"7s", "8s", "9s"})})
    }
    assert found[0].deadwood_cards == ("2c",)


def test_touching_runs_are_one_run():
    found = arrangements("3h 4h 5h 6h 7h 8h Kc")
    assert [a.melds for a in found] == [(("3h", "4h", "5h", "6h", "7h", "8h"),)]


def test_fourth_card_goes_where_it_melds():
    # 8s melds either in the set of four or in the run 8-9-T of spades
    found = arrangements("8c 8d 8h 8s 9s Ts")
    assert as_sets(found) == {
        frozenset({frozenset({"8c", "8d", "8h"}), frozenset({"8s", "9s", "Ts"})})
    }
    found = arrangements("8c 8d 8h 8s 6s 7s")
    assert as_sets(found) == {
        frozenset({frozenset({"8c", "8d", "8h"}), frozenset({"6s", "7s", "8s"})})
    }


def test_eleven_card_discards_find_the_true_best_ten():
    options = discard_options("As 2s 3s 3c 2d 3d 4d 5d Ah 2h 3h")
    assert options[0] == DiscardOption(discard="3c", deadwood=0)
    assert options[0].to_dict() == {"discard": "3c", "deadwood": 0}
    assert len(options) == 11
    assert [o.deadwood for o in options] == sorted(o.deadwood for o in options)
    # the shortcut (meld all 11, then drop the highest deadwood card) misses the gin
    best_eleven = arrangements("As 2s 3s 3c 2d 3d 4d 5d Ah 2h 3h")[0]
    highest = max(Card(code).value for code in best_eleven.deadwood_cards)
    assert best_eleven.deadwood - highest > 0


def test_discard_options_need_eleven_cards():
    with pytest.raises(CardError, match="expected 11 cards, got 10"):
        discard_options("As 2s 3s 4s 5s 6s 7s 8s 9s Ts")


def test_meld_kind():
    from scorekeeper import parse_cards

    assert meld_kind(parse_cards("5s 6s 7s")) == "run"
    assert meld_kind(parse_cards("5s 5h 5c 5d")) == "set"
    assert meld_kind(parse_cards("Qs Ks As")) is None
    assert meld_kind(parse_cards("5s 6s 8s")) is None
    assert not is_meld(parse_cards("5s 5h"))
