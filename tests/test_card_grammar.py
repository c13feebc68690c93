"""One card notation: the core, the API's documented patterns and the pad's script agree.

The grammar lives in :mod:`scorekeeper.cards` (``CARD_NOTATION``,
``CARD_SEPARATORS``); the API's patterns and the pad's typed cards are built
from it. This checks what each of the three really accepts, over generated
strings (near misses included: a Kelvin sign, a byte order mark, run-together
cards, a variation selector after a letter): the patterns as the served
OpenAPI document gives them, evaluated by node (JSON Schema patterns are
ECMAScript's), and ``api/static/pad-cards.js`` run by node with the grammar
the served page carries. The pad's typed box also takes cards run together
(``as2s3s``), which it turns into separate ticks; apart from that the three
accept the same strings.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api import create_app
from api.pad import card_letters, forms_hand
from scorekeeper.cards import CARD_SEPARATORS, DECK, SUIT_SYMBOLS, parse_card, parse_cards
from scorekeeper.errors import CardError

SCRIPT = Path(__file__).resolve().parent.parent / "api" / "static" / "pad-cards.js"

NODE = """
import { cardReader } from %s;
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { grammar, card, cards, texts } = JSON.parse(input);
const read = cardReader(grammar);
const [one, many] = [new RegExp(card), new RegExp(cards)];
console.log(JSON.stringify(texts.map((text) => ({
  ...read(text), card: one.test(text), cards: many.test(text) }))));
"""


def page_grammar(page: str) -> dict[str, str]:
    """The typed cards' grammar a pad page carries (``<html data-card-*>``), as its dataset."""
    return {
        key: html.unescape(re.search(f'data-card-{name}="([^"]*)"', page)[1])
        for key, name in [
            ("cardNotation", "notation"),
            ("cardRank", "rank"),
            ("cardSeparators", "separators"),
        ]
    }


@pytest.fixture(scope="module")
def served() -> dict:
    """The grammar on the pad's pages and the card patterns of the OpenAPI document."""
    client = create_app({"DB": ":memory:"}).test_client()
    page = client.get("/").get_data(as_text=True)
    grammar = page_grammar(page)
    text = json.dumps(client.get("/api/openapi.json").json)
    patterns = [json.loads(f'"{p}"') for p in re.findall(r'"pattern": "((?:[^"\\]|\\.)*)"', text)]
    card = next(p for p in patterns if "(10|" in p and ",;" not in p)
    cards = next(p for p in patterns if "(10|" in p and ",;" in p)
    return {"grammar": grammar, "card": card, "cards": cards}


def in_node(served: dict, texts: list[str]) -> list[dict]:
    """What the pad's script and the documented patterns make of each text."""
    run = subprocess.run(
        ["node", "--input-type=module", "-e", NODE % json.dumps(SCRIPT.as_uri())],
        input=json.dumps({**served, "texts": texts}),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(run.stdout)


def python_cards(text: str) -> list[str] | None:
    """The codes the core reads from ``text`` (duplicates allowed), or None if it refuses."""
    try:
        return [
            parse_card(token).code for token in re.split(CARD_SEPARATORS, text.strip()) if token
        ]
    except CardError:
        return None


def python_card(text: str) -> str | None:
    try:
        return parse_card(text).code
    except CardError:
        return None


NEAR = [
    *"A23456789TJQKatjqk10xcdhsCDHS♣♦♥♠,; \t\n\x1c\x85\xa0\u3000",
    "\ufe0f",  # the emoji variation selector (only after a suit symbol)
    "\ufeff",  # white space to ECMAScript, not to Python
    "\u212a",  # the Kelvin sign: K once case-folded
    "\u200b",
]
SPELLINGS = st.sampled_from(DECK).flatmap(
    lambda card: st.sampled_from(
        [
            card.code,
            card.code.lower(),
            card.code.upper(),
            card.code.replace("T", "10"),
            card.code[0] + SUIT_SYMBOLS[card.suit],
            card.code[0].lower() + SUIT_SYMBOLS[card.suit] + "\ufe0f",
            card.code[0] + card.suit + "\ufe0f",
        ]
    )
)
TEXTS = st.one_of(
    st.text(st.sampled_from(NEAR), max_size=10),
    st.lists(
        st.tuples(SPELLINGS, st.text(st.sampled_from(NEAR[-20:]), max_size=2)), max_size=4
    ).map(lambda parts: "".join(a + b for a, b in parts)),
)


@settings(max_examples=8, deadline=None)
@given(st.lists(TEXTS, min_size=100, max_size=100))
def test_the_core_the_patterns_and_the_pad_accept_the_same_cards(served, texts):
    for text, pad in zip(texts, in_node(served, texts), strict=True):
        core = python_cards(text)
        assert pad["card"] == (python_card(text) is not None), text
        assert pad["cards"] == (core is not None), text
        if core is not None:
            unique = list(dict.fromkeys(core))
            assert pad["codes"] == unique and (pad["problem"] is None) == (unique == core), text
            if unique == core:
                assert [c.code for c in parse_cards(text)] == core
        chunks = [chunk for chunk in re.split(CARD_SEPARATORS, text) if chunk]
        if pad["problem"] is None and len(pad["codes"]) == len(chunks):  # none run together
            assert core == pad["codes"], text


# ----------------------------------------------------------------- the players' own letters

LOCAL = [
    ("fr", "Vd dd R♠ 10h as", ["Jd", "Qd", "Ks", "Th", "As"]),
    ("pl", "Wc D♥ ks", ["Jc", "Qh", "Ks"]),
    ("sl", "Fs dC 9d", ["Js", "Qc", "9d"]),
    ("nb", "Knh kNs Dd E♣ Jc", ["Jh", "Js", "Qd", "Ac", "Jc"]),
    ("el", "Βh ν♦ Ρs αc Ts", ["Jh", "Qd", "Ks", "Ac", "Ts"]),
]


def test_local_rank_letters_stand_for_no_other_rank():
    """A local letter never means an English rank or another local letter, nor a digit."""
    for lang, letters in card_letters.TYPED.items():
        upper = [letter.upper() for letter in letters]
        assert len(set(upper)) == len(upper), lang
        for letter in upper:
            assert not letter[0].isdigit() and letter not in "TJQK", (lang, letter)
            assert card_letters.TYPED[lang][letter] in "AJQK", (lang, letter)


@pytest.mark.parametrize(("lang", "text", "codes"), LOCAL)
def test_the_server_reads_the_languages_letters(lang, text, codes):
    app = create_app({"DB": ":memory:"})
    with app.test_request_context("/", headers={"Accept-Language": lang}):
        assert forms_hand.selection(text) == (codes, None)
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert forms_hand.selection(text)[1] is not None  # English has no such letters


@pytest.mark.slow  # node
@pytest.mark.parametrize(("lang", "text", "codes"), LOCAL)
def test_the_pads_script_reads_the_languages_letters(lang, text, codes, tmp_path):
    client = create_app({"DB": str(tmp_path / "pad.db")}).test_client()
    page = client.get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
    grammar = page_grammar(page)
    words = json.loads(
        re.search(r'<script type="application/json" id="pad-words">(.*?)</script>', page)[1]
    )
    script = (
        f"import {{ cardReader }} from {json.dumps(SCRIPT.as_uri())};\n"
        f"const read = cardReader({json.dumps(grammar)}, {json.dumps(words['letters'])});\n"
        f"console.log(JSON.stringify(read({json.dumps(text)}).codes));"
    )
    run = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert json.loads(run.stdout) == codes
