"""Words as each language's players say them (issue 27), through the app's pages.

Each page is asked for in its language (the switch's cookie) and read as a player
reads it: the format notes do not repeat the format's name, the rules line and the
final row say what players say, the winner is a sentence in the language's order,
Slovenian card names put the agreeing suit adjective first, the typed-cards field shows
the letters it takes, and French has a no-break space before ``: ; ? !`` in every
message of its catalog and in every text of its pages.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from babel.messages.pofile import read_po
from flask_babel import gettext
from test_pad import quick, start, token
from test_pad_events import create, pair

from api import i18n
from api.pad.card_letters import TYPED
from api.pad.views_events import FORMAT_NAMES

pytestmark = pytest.mark.fast

BEFORE = "\u00a0"
"""French's space before ``: ; ? !`` (the catalog's convention: no-break space)."""


def speak(client, lang: str) -> None:
    client.set_cookie(i18n.LANG_COOKIE, lang)


def text(response) -> str:
    """What a page says: its scripts left out, its tags taken away (a name's ``<bdi>`` too:
    ``Podcina <bdi>Bor</bdi>,`` reads ``Podcina Bor,``), runs of spaces made one (the no-break
    space kept)."""
    page = re.sub(r"<script\b.*?</script>", " ", response.get_data(as_text=True), flags=re.S)
    return re.sub(r"[ \n\t]+", " ", re.sub(r"<[^>]+>", "", page))


def finished(client) -> str:
    """A two-player game (Ana, Bor) that Bor won by an undercut and then gin."""
    game = start(client)
    assert quick(client, game, 0, "knock", 10, 9).status_code == 303  # Bor undercuts
    assert quick(client, game, 1, "gin", 0, 90).status_code == 303
    return game


# ----------------------------------------------------------------------------- the words


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_format_note_does_not_name_its_format_again(client, lang):
    speak(client, lang)
    page = client.get("/events/new").get_data(as_text=True)
    with client.application.test_request_context("/", headers={"Accept-Language": lang}):
        names = {key: str(name) for key, name in FORMAT_NAMES.items()}
    for key, name in names.items():
        item = re.search(rf'<li id="format-{key}">(.*?)</li>', page, re.S)[1]
        note = re.sub(r"<[^>]+>", "", item).split(name, 1)[1]
        assert name.lower() not in note.lower(), item
        assert note.count(":") == 1, item  # the label's colon only


@pytest.mark.parametrize(("lang", "line"), [("nb", "Regler: standard"), ("sl", "Pravila: ")])
def test_the_rules_line_says_rules_first(client, lang, line):
    game = start(client)
    speak(client, lang)
    assert line in text(client.get(game))


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Winner: Bor"),
        ("sl", "Zmaga: Bor"),
        ("fr", f"Victoire{BEFORE}: Bor"),
        ("el", "Κέρδισε: Bor"),
        ("pl", "Wygrywa Bor"),
    ],
)
def test_the_winner_is_a_sentence_in_the_language_order(client, lang, said):
    game = finished(client)
    speak(client, lang)
    board = client.get(game).get_data(as_text=True).split('class="board', 1)[1]
    board = board.split("</section>", 1)[0]
    assert said in re.sub(r"[ \n]+", " ", re.sub(r"<[^>]+>", "", board))
    assert board.count('class="winner-word"') == 1


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("nb", ["Sluttsum"]),
        ("el", ["Πόντοι χεριών"]),
        ("pl", ["Podcina Bor, traci Ana: ", "Bor kończy ginem: "]),
    ],
)
def test_the_finished_sheet_says_it_as_players_do(client, lang, words):
    game = finished(client)
    speak(client, lang)
    said = text(client.get(game))
    for word in words:
        assert word in said


def test_french_quick_entry_and_void_button(client):
    game = start(client)
    assert quick(client, game, 0, "knock", 5, 30).status_code == 303
    speak(client, "fr")
    assert "+ Saisie rapide" in text(client.get(game))
    assert "Déclarer la manche 1 nulle" in text(client.get(game + "/hands/1"))


def test_slovenian_card_names_put_the_agreeing_suit_first(client):
    game = start(client, preset="oklahoma")
    speak(client, "sl")
    page = client.get(game + "/hand?mode=quick").get_data(as_text=True)
    named = dict(re.findall(r'<option value="(\w\w)"[^>]*>\S+ ([^<]+)</option>', page))
    assert named["Ah"] == "srčev as" and named["Qh"] == "srčeva dama"
    assert named["Ks"] == "pikov kralj" and named["Ad"] == "karo as"
    assert named["Jc"] == "križev fant" and named["Tc"] == "križeva desetka"


def test_the_slovenian_knock_check_closes_the_clause(client):
    speak(client, "sl")
    response = client.post(
        "/check",
        data={
            "csrf_token": token(client, "/check"),
            "preset": "standard",
            "knocker_cards": "As 2s 3s 4c 4d 4h 9d Td Jd 2c".split(),
            "defender_cards": "5s 6s 4s 7c 8c 9c Kh Qh Jh 3d".split(),
        },
    )
    assert "Igralec, ki je potrkal, konča: " in text(response)


@pytest.mark.parametrize("lang", ["nb", "el", "fr"])
def test_the_typed_cards_field_shows_the_letters_it_takes(client, lang):
    speak(client, lang)
    game = start(client)
    page = client.get(game + "/hand?mode=cards").get_data(as_text=True)
    shown = re.search(r'placeholder="([^"]+) …"', page)[1].split()
    for letters, rank in TYPED[lang].items():
        assert any(card.upper().startswith(letters) for card in shown), (letters, shown)
        assert not any(card.startswith(rank) and rank != letters for card in shown[3:]), shown


# ----------------------------------------------------------------------------- French spacing


def unspaced(text: str, code: str = "") -> list[str]:
    """Each ``: ; ? !`` in ``text`` without a no-break space before it, with the text before
    it. Not prose, so left alone: a word ``code`` holds as it is (``Content-Type:``,
    ``"format":``: code quoted from the English), a time (``12:15``), an address (``https://``,
    ``?page=2``)."""
    found = []
    for match in re.finditer(r"[:;?!]", text):
        at = match.start()
        if at == 0 or text[at - 1] in (BEFORE, "\u202f"):
            continue
        word = re.search(r"\S*$", text[:at])[0] + match[0]
        after = text[at + 1 : at + 3]
        if len(word) > 1 and word.lstrip("(") in code:
            continue
        if after.startswith("//") or (text[at - 1].isdigit() and after[:1].isdigit()):
            continue
        if not text[at - 1].isspace() and after[:1] not in ("", " ", "\n", "\u00a0"):
            continue  # inside a word or an address (a?b=1)
        found.append(text[max(0, at - 24) : at + 1])
    return found


def test_the_checker_finds_a_plain_space_and_none_at_all():
    assert len(unspaced("Score : 5 ; bien ? oui !")) == 4
    assert unspaced("Lien: https://x") == ["Lien:"]
    assert unspaced(f"Score{BEFORE}: 5, à 12:15, https://x.fr/a?b=1") == []
    assert unspaced('il faut "format": "x"', code='"format": "x"') == []
    assert unspaced('il faut "format": "x"') == ['il faut "format":']


def test_every_french_message_has_a_no_break_space_before_the_double_signs():
    with open(i18n.TRANSLATIONS / "fr/LC_MESSAGES/messages.po", "rb") as po:
        catalog = read_po(po, locale="fr")
    problems = []
    for message in catalog:
        if not message.id:
            continue
        english = " ".join(message.id) if isinstance(message.id, tuple) else message.id
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in strings:
            problems += [f"{english!r}: {bad!r}" for bad in unspaced(string, english)]
    assert not problems, "\n".join(problems)


class _Texts(HTMLParser):
    """The texts of a page that people read or hear: its text outside scripts and styles,
    and its labels, titles and placeholders."""

    SAID = ("aria-label", "title", "placeholder", "alt")

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._skip += tag in ("script", "style")
        self.texts += [value for name, value in attrs if name in self.SAID and value]

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.texts.append(data)


def _french_pages(client) -> list[str]:
    game, playing = finished(client), start(client)
    event_id = create(client, new_players="Ana\nBor")
    pair(client, event_id)
    speak(client, "fr")
    event = client.get(f"/api/v1/events/{event_id}").get_json()
    table = event["rounds"][0]["matches"][0]["game_id"]
    return [
        "/",
        "/check",
        "/events/new",
        game,
        game + "/hands/2",
        playing,
        playing + "/hand?mode=cards",
        f"/events/{event_id}",
        f"/events/{event_id}/director",
        f"/events/{event_id}/tables/{table}/card",
    ]


def test_every_french_page_has_a_no_break_space_before_the_double_signs(client):
    problems = []
    for path in _french_pages(client):
        response = client.get(path)
        assert response.status_code == 200, path
        reader = _Texts()
        reader.feed(response.get_data(as_text=True))
        problems += [f"{path}: {bad!r}" for said in reader.texts for bad in unspaced(said)]
    assert not problems, "\n".join(problems)


def test_the_french_catalog_says_carte_retournee_not_entame(module_app):
    with module_app.test_request_context("/", headers={"Accept-Language": "fr"}):
        assert gettext("First upcard") == "Première carte retournée"


@pytest.mark.parametrize(("average", "shown"), [(42.2, "42,2 točke"), (42.0, "42 točk")])
def test_a_slovenian_average_takes_the_number_s_form(client, average, shown):
    """A decimal average takes Slovenian's form for decimals (točke); a whole one the plural
    form of its number (42 točk, 2 točki)."""
    from flask_babel import force_locale

    from api.pad.views_tally import average_points

    with client.application.test_request_context("/"), force_locale("sl"):
        assert average_points(average) == shown
