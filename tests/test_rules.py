"""Rule options and presets (RULES.md section 9)."""

import pytest

from scorekeeper import RuleError, Rules

PRESET_TABLE = {
    # option: (standard, classic, modern, oklahoma), straight from RULES.md section 9
    "knock_limit": (10, 10, 10, 10),
    "oklahoma": (False, False, False, True),
    "ace_upcard": ("gin_only",) * 4,
    "spade_doubles": (False, False, False, True),
    "gin_bonus": (25, 20, 25, 25),
    "big_gin_bonus": (None, None, 31, None),
    "undercut_bonus": (25, 10, 25, 20),
    "box_bonus": (25, 20, 25, 25),
    "game_bonus": (100, 100, 100, 100),
    "shutout": ("double_bonus", "double_bonus", "double_total", "double_bonus"),
    "target": (100, 100, 100, 150),
    "next_dealer": ("winner", "winner", "winner", "alternate"),
    "wall": ("void_at_two",) * 4,
    "scoring": ("single",) * 4,
    "first_dealer": ("low", "low", "low", "random"),
    "tie": ("undercut",) * 4,
    "discard_taken": ("forbidden",) * 4,
    "max_discard_draws": (None,) * 4,
    "repeated_discard": ("play_on",) * 4,
    "three_player_dealer": ("loser",) * 4,
    "partnership_netting": ("per_deal",) * 4,
}


PRESET_COLUMNS = list(enumerate(["standard", "classic", "modern", "oklahoma"]))


@pytest.mark.parametrize("column, name", PRESET_COLUMNS)
def test_presets_match_the_rule_book(column, name):
    rules = Rules.preset(name)
    for option, values in PRESET_TABLE.items():
        assert getattr(rules, option) == values[column], (name, option)


def test_straight_and_hollywood_are_standard_with_one_change():
    standard = Rules.preset("standard").to_dict()
    straight = Rules.preset("straight").to_dict()
    hollywood = Rules.preset("hollywood").to_dict()
    assert {k for k in standard if standard[k] != straight[k]} == {"preset", "knock_limit"}
    assert straight["knock_limit"] == 0
    assert {k for k in standard if standard[k] != hollywood[k]} == {"preset", "scoring"}
    assert hollywood["scoring"] == "hollywood"


def test_slovenian_and_openspiel_presets_are_standard_with_their_changes():
    standard = Rules.preset("standard").to_dict()

    def changes(name):
        other = Rules.preset(name).to_dict()
        return {k: other[k] for k in standard if k != "preset" and standard[k] != other[k]}

    assert changes("slovenian") == {"box_bonus": 20}
    assert changes("openspiel") == {
        "tie": "no_score",
        "discard_taken": "allowed",
        "max_discard_draws": 50,
        "repeated_discard": "void",
        "wall": "knock_only_at_two",
    }


@pytest.mark.parametrize(
    "option, value",
    [
        ("first_dealer", "lowest"),
        ("tie", "split"),
        ("discard_taken", True),
        ("max_discard_draws", 0),
        ("max_discard_draws", 2.5),
        ("max_discard_draws", "50"),
        ("repeated_discard", "stop"),
        ("repeated_discard", True),
    ],
)
def test_new_options_refuse_bad_values_by_name(option, value):
    with pytest.raises(RuleError) as caught:
        Rules.preset("standard", **{option: value})
    assert caught.value.option == option


def test_spade_doubles_needs_the_upcard():
    with pytest.raises(RuleError) as caught:
        Rules.preset("oklahoma", oklahoma=False).multiplier_for(None)
    assert caught.value.option == "upcard"
    assert Rules.preset("standard").multiplier_for(None) == 1


def test_default_is_standard_and_overrides_apply():
    assert Rules() == Rules.preset("standard") == Rules.from_dict(None)
    rules = Rules.preset("oklahoma", undercut_bonus=25, ace_upcard="one")
    assert rules.undercut_bonus == 25 and rules.ace_upcard == "one" and rules.target == 150
    assert rules.differences() == {"undercut_bonus": 25, "ace_upcard": "one"}


def test_dict_round_trip_keeps_every_option():
    rules = Rules.preset("modern", target=250, next_dealer="alternate", wall="knock_only_at_two")
    data = rules.to_dict()
    assert data["preset"] == "modern"
    assert Rules.from_dict(data) == rules
    assert Rules.from_dict("classic") == Rules.preset("classic")
    assert Rules.from_dict({"preset": "classic", "gin_bonus": 30}).gin_bonus == 30


@pytest.mark.parametrize(
    "options, option",
    [
        ({"knock_limit": 11}, "knock_limit"),
        ({"knock_limit": -1}, "knock_limit"),
        ({"knock_limit": "10"}, "knock_limit"),
        ({"oklahoma": "yes"}, "oklahoma"),
        ({"gin_bonus": -5}, "gin_bonus"),
        ({"gin_bonus": True}, "gin_bonus"),
        ({"big_gin_bonus": "31"}, "big_gin_bonus"),
        ({"shutout": "triple"}, "shutout"),
        ({"target": 0}, "target"),
        ({"next_dealer": "random"}, "next_dealer"),
        ({"wall": "none"}, "wall"),
        ({"scoring": "tournament"}, "scoring"),
        ({"ace_upcard": "eleven"}, "ace_upcard"),
        ({"jokers": True}, "jokers"),
        ({"preset": "canasta"}, "preset"),
    ],
)
def test_bad_options_name_the_option(options, option):
    with pytest.raises(RuleError) as raised:
        Rules.from_dict(options)
    assert raised.value.option == option
    assert option in str(raised.value)


def test_knock_limit_and_multiplier_for_the_upcard():
    from scorekeeper import parse_cards

    four_s, king_h, ace_d = parse_cards("4s Kh Ad")
    oklahoma = Rules.preset("oklahoma")
    assert oklahoma.knock_limit_for(four_s) == 4
    assert oklahoma.knock_limit_for(king_h) == 10
    assert oklahoma.knock_limit_for(ace_d) == 0
    assert Rules.preset("oklahoma", ace_upcard="one").knock_limit_for(ace_d) == 1
    assert Rules.preset("oklahoma", knock_limit=7).knock_limit_for(king_h) == 7
    assert oklahoma.multiplier_for(four_s) == 2 and oklahoma.multiplier_for(king_h) == 1
    assert Rules().knock_limit_for(four_s) == 10 and Rules().multiplier_for(four_s) == 1
    with pytest.raises(RuleError, match="upcard"):
        oklahoma.knock_limit_for(None)
