"""Player names (scorekeeper.names): cleaning, the refused characters and the name key."""

from __future__ import annotations

import json
import re
import subprocess

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from api.request_fields import NAME_PATTERN
from scorekeeper.errors import RuleError
from scorekeeper.names import DEFAULT_IGNORABLE, MAX_NAME_LENGTH, clean_name, fold, name_key


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
        ("\u00ad", "U+00AD (SOFT HYPHEN)"),
        ("\u3164", "U+3164 (HANGUL FILLER)"),
        ("\u2800", "U+2800 (BRAILLE PATTERN BLANK)"),
        ("\U000e0001", "U+E0001 (LANGUAGE TAG)"),
        ("\U000e0041", "U+E0041 (TAG LATIN CAPITAL LETTER A)"),
        ("\U000e007f", "U+E007F (CANCEL TAG)"),
        ("\U000e0000", "U+E0000 (reserved character)"),
        ("\ufe0f", "U+FE0F (VARIATION SELECTOR-16)"),
        ("\u034f", "U+034F (COMBINING GRAPHEME JOINER)"),
        ("\u115f", "U+115F"),
        ("\uffa0", "U+FFA0"),
        ("\u2028", "U+2028 (LINE SEPARATOR)"),
        ("\ufff9", "U+FFF9"),
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


@pytest.mark.slow  # starts node
def test_every_default_ignorable_code_point_is_refused():
    """:data:`DEFAULT_IGNORABLE` against an independent list: the
    ``\\p{Default_Ignorable_Code_Point}`` of node's Unicode-aware regular
    expressions (ICU's Unicode data); every one of them is refused in a name."""
    script = (
        "const r = /\\p{Default_Ignorable_Code_Point}/u; const found = [];"
        " for (let c = 0; c <= 0x10ffff; c++)"
        " if ((c < 0xd800 || c > 0xdfff) && r.test(String.fromCodePoint(c))) found.push(c);"
        " console.log(JSON.stringify(found));"
    )
    listed = json.loads(
        subprocess.run(["node", "-e", script], check=True, capture_output=True, text=True).stdout
    )
    ours = re.compile(f"[{DEFAULT_IGNORABLE}]")
    assert [c for c in range(0x110000) if ours.match(chr(c))] == listed
    assert len(listed) > 4000
    for code in listed:
        with pytest.raises(RuleError) as error:
            clean_name(f"Ana{chr(code)}", field="players.0")
        assert error.value.field == "players.0" and f"U+{code:04X}" in str(error.value)


@settings(max_examples=examples(500), deadline=None)
@given(st.text(st.characters(max_codepoint=0xFFFF), max_size=MAX_NAME_LENGTH))
def test_the_documents_name_pattern_takes_exactly_the_names_kept(text):
    # within the BMP (beyond it the document says the refused characters in words): a
    # name the document's pattern allows is kept, and one it refuses is refused (spaces
    # alone too: they trim to nothing)
    try:
        clean_name(text)
        kept = True
    except RuleError:
        kept = False
    assert (re.fullmatch(NAME_PATTERN, text) is not None) == kept  # "$" as in ECMA


@pytest.mark.parametrize("blank", [" ", "\u3000", " \u2000 ", "\xa0"])
def test_a_name_of_spaces_alone_is_refused_by_the_document_too(blank):
    assert re.fullmatch(NAME_PATTERN, blank) is None
    with pytest.raises(RuleError, match="the name is empty"):
        clean_name(blank)


def test_no_game_or_event_id_begins_with_a_dash():
    """A command line reads ``-Yx...`` as an option: ids are drawn again until they do not
    begin with ``-`` (one in 64 would)."""
    from scorekeeper.store.games import new_game_id

    made = [new_game_id() for _ in range(2000)]
    assert not [made_id for made_id in made if made_id.startswith("-")]
    assert {len(made_id) for made_id in made} == {16}
