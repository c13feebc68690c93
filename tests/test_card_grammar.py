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
from api.pad import card_letters, forms_hand, forms_play
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
    ("sl", "Fp dC 9d", ["Js", "Qc", "9d"]),
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
    assert _read_in_node(page, [text]) == [{"codes": codes, "problem": None}]


# ------------------------------------------------------------------- the players' own suit letters

SUIT_INITIALS = {  # what each language's players write for its suits, and the suits they mean
    "sl": {"s": "h", "k": "dc", "p": "s"},  # srce; karo, križ; pik
    "pl": {"k": "hd", "p": "s", "t": "c"},  # kier, karo; pik; trefl
    "fr": {"c": "h", "k": "d", "p": "s", "t": "c"},  # cœur; carreau (bridge's K); pique; trèfle
    "nb": {"h": "h", "r": "d", "s": "s", "k": "c"},  # hjerter, ruter, spar, kløver
    "el": {"κ": "hd", "μ": "s", "σ": "c", "ς": "c"},  # κούπα, καρό; μπαστούνι; σπαθί
}
ENGLISH_SUITS = {"c": "c", "d": "d", "h": "h", "s": "s"}


def test_a_suit_letter_is_read_only_where_it_names_one_suit():
    """Issue 26 item 11: a letter is read as the one suit it names in the language and in
    English together; one naming two suits is refused naming both cards; the symbols work."""
    for lang, initials in {**SUIT_INITIALS, "en": {}}.items():
        for letter in {*initials, *ENGLISH_SUITS}:
            meanings = sorted(set(initials.get(letter, "")) | set(ENGLISH_SUITS.get(letter, "")))
            for token in (f"7{letter}", f"7{letter.upper()}"):
                two = card_letters.readings(token, lang)
                if len(meanings) == 1:
                    assert two is None, (lang, token)
                    assert parse_card(card_letters.to_core(token, lang)).code == "7" + meanings[0]
                else:
                    assert two is not None and sorted(c[1] for c in two) == meanings, (lang, token)
        for suit, symbol in SUIT_SYMBOLS.items():
            assert card_letters.to_core(f"7{symbol}", lang) == f"7{symbol}"
            assert card_letters.readings(f"7{symbol}\ufe0f", lang) is None
            assert parse_card(card_letters.to_core(f"7{symbol}", lang)).code == "7" + suit


SUITED = [
    ("sl", "Dp 10h Fc Kd", ["Qs", "Th", "Jc", "Kd"]),
    ("fr", "Vk Rt 10p Ah Ds", ["Jd", "Kc", "Ts", "Ah", "Qs"]),
    ("pl", "Wt Dp Kh", ["Jc", "Qs", "Kh"]),
    ("nb", "Knk Er Dh Ks", ["Jc", "Ad", "Qh", "Ks"]),
    ("el", "Ρμ Ας Νσ Βh", ["Ks", "Ac", "Qc", "Jh"]),
]
REFUSED = [  # a letter naming two suits: both cards named, as the page shows them
    ("sl", "Ds", "D♥", "D♠"),  # srce, or spades in English
    ("sl", "Fk", "F♦", "F♣"),  # karo or križ
    ("fr", "Ac", "A♥", "A♣"),  # cœur, or clubs in English
    ("pl", "Wk", "W♥", "W♦"),  # kier or karo
    ("el", "Ακ", "A♥", "A♦"),  # κούπα or καρό
]


def _read_in_node(page: str, texts: list[str]) -> list[dict]:
    """What the pad's script makes of ``texts`` with the grammar and words of ``page`` (its
    words block given to ``pad-words.js`` as the page would)."""
    block = re.search(r'<script type="application/json" id="pad-words">(.*?)</script>', page)[1]
    words = json.loads(block)
    script = (
        f"const block = {{ textContent: {json.dumps(block)} }};\n"
        "globalThis.document = { getElementById: () => block };\n"
        f"const {{ cardReader }} = await import({json.dumps(SCRIPT.as_uri())});\n"
        f"const read = cardReader({json.dumps(page_grammar(page))},"
        f" {json.dumps(words['letters'])}, {json.dumps(words['suits'])});\n"
        f"console.log(JSON.stringify({json.dumps(texts)}.map((t) => read(t))));"
    )
    run = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(run.stdout)


@pytest.mark.slow  # node
@pytest.mark.parametrize("lang", sorted(SUIT_INITIALS))
def test_the_server_and_the_pads_script_read_and_refuse_suit_letters_alike(lang, tmp_path):
    app = create_app({"DB": str(tmp_path / "pad.db")})
    page = app.test_client().get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
    suited = [(text, codes) for code_lang, text, codes in SUITED if code_lang == lang]
    refused = [row[1:] for row in REFUSED if row[0] == lang]
    read = _read_in_node(page, [t for t, _ in suited] + [r[0] for r in refused])
    with app.test_request_context("/", headers={"Accept-Language": lang}):
        for (text, codes), pad in zip(suited, read, strict=False):
            assert forms_hand.selection(text) == (codes, None)
            assert pad == {"codes": codes, "problem": None}
        for (text, first, second), pad in zip(refused, read[len(suited) :], strict=True):
            codes, problem = forms_hand.selection(text)
            assert codes == [] and pad["codes"] == [] and problem == pad["problem"]
            assert f"{text}" in problem and first in problem and second in problem


def test_the_api_names_its_own_notation_in_every_language(tmp_path):
    """The JSON API's notation is a data format: its bad-card error names A 2-9 T J Q K and
    c d h s in every language, never the scorepad's local letters."""
    client = create_app({"DB": str(tmp_path / "api.db")}).test_client()
    body = {"knocker": "Fs 2s 3s 7c 7d 7h 9d Td Jd 2c", "defender": "4s 5s 6s 8c 8d 8h Kd Qd Jh Th"}
    for lang in ("en", "sl", "pl", "fr", "nb", "el"):
        error = client.post("/api/v1/verify", json=body, headers={"Accept-Language": lang}).json[
            "error"
        ]
        assert error["code"] == "bad_card" and error["params"]["token"] == "Fs"
        assert "J Q K" in error["message"] and "c d h s" in error["message"], (lang, error)
        for local in ("F D K", "V, D, R", "W D K", "V D R"):
            assert local not in error["message"], (lang, error)
    sl = client.post("/api/v1/verify", json=body, headers={"Accept-Language": "sl"}).json
    assert sl["error"]["message"].startswith("knocker: 'Fs' (mesto 1) ni karta")  # field first


@pytest.mark.parametrize(
    ("lang", "typed", "refused", "readings"),
    [("sl", "Dp", "Ds", ("D♥", "D♠")), ("fr", "Dp", "Dc", ("D♥", "D♣"))],
)
def test_the_hand_form_takes_local_suits_and_refuses_two_readings(
    lang, typed, refused, readings, tmp_path
):
    """Through the pad's cards form: the language's suit letter is read (``Dp``: the queen of
    spades, pik / pique), a letter with two readings is refused naming both cards, and the
    typed field says which letters it takes."""
    from test_pad import ANA as ANA_CODES
    from test_pad import start, token

    client = create_app({"DB": str(tmp_path / "pad.db")}).test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    game = start(client)
    form = client.get(game + "/hand?mode=cards").get_data(as_text=True)
    help_text = html.unescape(re.search(r"data-suit-letters>([^<]*)<", form)[1])
    assert "♠ s/p" in help_text if lang == "fr" else "♠ p" in help_text
    assert refused[-1] in help_text.split(";")[1]  # the refused letter is named
    mine = f"A{typed[1]} 2{typed[1]} 3{typed[1]} 4♣ 4d 4h 9d Td Jd 2♣"  # Ana's, as typed
    theirs = "5♠ 6♠ 4♠ 7♣ 8♣ 9♣ Kh Qh Jh 3d"
    data = {"csrf_token": token(client, game), "mode": "cards", "knocker": "0"}
    bad = client.post(game + "/hand", data={**data, "cards_0": mine.replace("2♣", refused).split()})
    page = html.unescape(bad.get_data(as_text=True))
    assert bad.status_code == 422 and all(card in page for card in readings)
    saved = client.post(
        game + "/hand", data={**data, "cards_0": mine.split(), "cards_1": theirs.split()}
    )
    assert saved.status_code == 303
    hand = client.get("/api/v1" + game).json["hands"][0]
    assert hand["input"]["knocker_cards"] == ANA_CODES  # Ap, 2p, 3p: the spades


def test_the_grids_ticks_are_the_cores_codes_in_every_language():
    """The form's ticks and the page's own values (``4s``, ``Ac``) are the core's codes: on
    a pad where ``s`` or ``c`` names two suits when typed, a tick still is its card."""
    app = create_app({"DB": ":memory:"})
    ticks = [card.code for card in DECK[::5]]
    for lang in ("en", *SUIT_INITIALS):
        with app.test_request_context("/", headers={"Accept-Language": lang}):
            assert forms_hand.selection(ticks) == (ticks, None), lang
            assert forms_play.arrangement_melds("As 2s 3s|4c 4d 4h") == [
                ["As", "2s", "3s"],
                ["4c", "4d", "4h"],
            ]
