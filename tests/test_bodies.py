"""api.bodies.load_json: what cannot be kept is refused by its place, with or without the walk.

load_json walks a decoded document only when its text may hold a long
integer, a lone surrogate or too deep a nesting; these tests check that
skipping the walk never lets one of them through: for any document, and
any way of writing it, load_json refuses exactly what a walk of every
document (the reference below) refuses, naming the same place.
"""

from __future__ import annotations

import json

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from api.bodies import (
    MAX_INT_DIGITS,
    MAX_JSON_DEPTH,
    Unstorable,
    _LongInt,
    check_document,
    load_json,
)


def walked(text: str) -> str | None:
    """The place the walk of the whole document names, or None: the reference."""

    def parse_int(literal: str) -> int | _LongInt:
        return _LongInt(literal) if len(literal.lstrip("-")) > MAX_INT_DIGITS else int(literal)

    try:
        check_document(json.loads(text, parse_int=parse_int))
    except Unstorable as error:
        return error.field
    return None


def refused(text: str) -> str | None:
    try:
        load_json(text)
    except Unstorable as error:
        return error.field
    return None


SURROGATES = st.integers(0xD800, 0xDFFF).map(chr)
TEXT = st.text(st.one_of(st.characters(), SURROGATES, st.sampled_from('[]{}\\"u')), max_size=8)
LEAVES = st.one_of(
    st.integers(-(10**120), 10**120),
    st.sampled_from([10 ** (MAX_INT_DIGITS - 1), 10**MAX_INT_DIGITS, -(10**MAX_INT_DIGITS)]),
    TEXT,
    st.booleans(),
    st.none(),
)
DOCUMENTS = st.recursive(
    LEAVES,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(TEXT, inner, max_size=3)),
    max_leaves=12,
)


def nested(depth: int, leaf: object = 1) -> object:
    document = leaf
    for _ in range(depth):
        document = [document]
    return document


@settings(max_examples=examples(600), deadline=None)
@given(DOCUMENTS, st.booleans(), st.integers(0, MAX_JSON_DEPTH + 2))
def test_load_json_refuses_what_the_whole_walk_refuses(document, ascii_only, depth):
    text = json.dumps(nested(depth, document), ensure_ascii=ascii_only)
    assert refused(text) == walked(text)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('{"players": ["Ana", "\\ud800"]}', "players.1"),
        ('{"players": ["Ana", "\ud800"]}', "players.1"),
        ('{"a": {"\\udfff": 1}}', "a"),
        ('{"n": ' + "9" * (MAX_INT_DIGITS + 1) + "}", "n"),
        ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1), ".".join(["0"] * MAX_JSON_DEPTH)),
    ],
)
def test_each_thing_that_cannot_be_kept_is_named(text, field):
    assert refused(text) == field


@pytest.mark.parametrize(
    "text",
    [
        '{"players": ["Ana", "\\\\ud800"]}',  # a backslash, then "ud800": plain text
        '{"players": ["\\ud83c\\udca1"]}',  # a pair: one character (a playing card)
        '{"players": ["[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["]}',  # brackets in a string
        "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH,
        '{"n": ' + "9" * MAX_INT_DIGITS + "}",
    ],
)
def test_what_only_looks_unkeepable_is_kept(text):
    assert refused(text) is None
    assert load_json(text) == json.loads(text)
