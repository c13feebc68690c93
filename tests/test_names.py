"""Player names (scorekeeper.names): cleaning, the refused characters and the name key."""

from __future__ import annotations

import pytest

from scorekeeper.errors import RuleError
from scorekeeper.names import MAX_NAME_LENGTH, clean_name, fold, name_key


def test_a_name_is_stored_nfc_and_trimmed():
    assert clean_name("  E\u0301mile ") == "\u00c9mile"
    assert clean_name("Ana María") == "Ana María"  # spaces inside are kept
    for name in (
        "שרה",
        "李雷",
        "Zoë-Anne O'Neil",
        "x" * MAX_NAME_LENGTH,
        " " + "x" * MAX_NAME_LENGTH + " ",
    ):
        assert clean_name(name) == name.strip()


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ana", "ANA"),
        ("Ana", "Ana "),
        ("Ana", " ana"),
        ("E\u0301mile", "\u00e9mile"),
        ("\u00c9MILE", "e\u0301mile"),
        ("Straße", "STRASSE"),
    ],
)
def test_names_that_are_one_player(one, other):
    assert name_key(one) == name_key(other) == fold(one) == fold(other)


@pytest.mark.parametrize("other", ["Anna", "Ána", "Ana B"])
def test_names_that_are_two_players(other):
    assert name_key("Ana") != name_key(other)


@pytest.mark.parametrize(
    ("char", "code"),
    [
        ("\x00", "U+0000"),
        ("\t", "U+0009"),
        ("\n", "U+000A"),
        ("\r", "U+000D"),
        ("\x1b", "U+001B"),
        ("\x7f", "U+007F"),
        ("\x85", "U+0085"),
        ("\x9f", "U+009F"),
        ("\u200e", "U+200E"),
        ("\u200f", "U+200F"),
        ("\u061c", "U+061C"),
        ("\u202a", "U+202A"),
        ("\u202e", "U+202E"),
        ("\u2066", "U+2066"),
        ("\u2069", "U+2069"),
        ("\u200b", "U+200B"),
        ("\u200c", "U+200C"),
        ("\u200d", "U+200D"),
        ("\u2060", "U+2060"),
        ("\ufeff", "U+FEFF"),
    ],
)
def test_invisible_and_layout_changing_characters_are_refused(char, code):
    for name in (f"A{char}na", f"Ana{char}", f"{char}Ana"):  # even at an end: not trimmed
        with pytest.raises(RuleError) as error:
            clean_name(name, field="players.1")
        assert error.value.field == "players.1" and code in str(error.value)
        with pytest.raises(RuleError):
            name_key(name)


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * (MAX_NAME_LENGTH + 1), f"{MAX_NAME_LENGTH}"),
        (None, "text"),
        (7, "text"),
        (["Ana"], "text"),
    ],
)
def test_empty_long_and_non_text_names_are_refused(value, words):
    with pytest.raises(RuleError, match=words) as error:
        clean_name(value)
    assert error.value.field == "name"
