"""The JSON API's error messages in the caller's language (issue 27).

Through the app with ``Accept-Language``: the schemas' refusals (marshmallow's own
messages), the domain's and the credentials' are written in the language asked for, in
the API's terms (the field named first, cards in the API's notation, nothing "tapped"),
with ``Content-Language`` and ``Vary``; ``code``, ``field``, ``reason`` and ``params`` are
the same in every language, and English is what it always was.
"""

from __future__ import annotations

import pytest
from flask_babel import force_locale
from flask_babel import gettext as _

pytestmark = pytest.mark.fast

LANGS = ["fr", "sl", "el"]
KNOCKER = "As 2s 3s 4s 5s 6s 7s 8s 9s Ts"


def ask(client, lang: str, path: str, body: dict | None = None):
    headers = {"Accept-Language": lang}
    if body is None:
        return client.get(path, headers=headers)
    return client.post(path, json=body, headers=headers)


def said(app, lang: str, message: str, **values) -> str:
    """``message`` as the catalog of ``lang`` words it, after the field at fault."""
    field = values.pop("field")
    with app.test_request_context("/"), force_locale(lang):
        return _("%(field)s: %(problem)s", field=field, problem=_(message, **values))


def english_and(client, lang: str, path: str, body: dict | None = None):
    english, local = ask(client, "en", path, body), ask(client, lang, path, body)
    assert english.status_code == local.status_code
    assert english.headers["Content-Language"] == "en"
    assert local.headers["Content-Language"] == lang
    assert "Accept-Language" in local.headers["Vary"] and "Cookie" in local.headers["Vary"]
    same = {k: v for k, v in english.json["error"].items() if k != "message"}
    assert {k: v for k, v in local.json["error"].items() if k != "message"} == same
    assert local.json["error"]["message"] != english.json["error"]["message"]
    return english.json["error"], local.json["error"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_schema_refusal_is_in_the_language_asked_for(client, lang):
    body = {"players": ["Ana", "Bor"], "dealer": 0, "outcome": 1}
    english, local = english_and(client, lang, "/api/v1/games", body)
    assert english == {"code": "invalid", "message": "outcome: Unknown field.", "field": "outcome"}
    assert local["message"] == said(client.application, lang, "Unknown field.", field="outcome")

    english, local = english_and(client, lang, "/api/v1/games", {"players": ["Ana"], "dealer": 0})
    assert english["message"] == "players: Length must be between 2 and 4."
    assert local["message"] == said(
        client.application,
        lang,
        "Length must be between %(min)s and %(max)s.",
        field="players",
        min="2",
        max="4",
    )


def test_french_reads_french_with_its_spacing(client):
    _english, local = english_and(
        client, "fr", "/api/v1/games", {"players": ["Ana", "Bor"], "dealer": "x"}
    )
    assert local["message"] == "dealer\u00a0: Ce n'est pas un nombre entier valide."


@pytest.mark.parametrize("lang", LANGS)
def test_a_wrong_card_count_names_the_field_in_the_api_terms(client, lang):
    english, local = english_and(
        client, lang, "/api/v1/verify", {"knocker": KNOCKER, "defender": "Ah 2h"}
    )
    assert english["message"] == "defender: expected 10 cards, got 2"
    assert english["reason"] == "wrong_card_count" and english["field"] == "defender"
    with client.application.test_request_context("/"), force_locale(lang):
        tap = _("Tap 10 cards; %(count)s tapped so far", count=2)
    assert local["message"].startswith("defender") and tap.rstrip(".") not in local["message"]
    assert "10" in local["message"] and "2" in local["message"]


@pytest.mark.parametrize("lang", LANGS)
def test_cards_are_written_in_the_api_notation(client, lang):
    defender = "Ah Ah 3h 4h 5h 6h 7h 8h 9h Th"
    english, local = english_and(
        client, lang, "/api/v1/verify", {"knocker": KNOCKER, "defender": defender}
    )
    assert english["params"]["card"] == "Ah"
    assert "Ah" in local["message"] and "A♥" not in local["message"]
    _english, bad = english_and(
        client,
        lang,
        "/api/v1/verify",
        {"knocker": KNOCKER, "defender": defender.replace("Ah ", "Xh ", 1)},
    )
    assert "'Xh'" in bad["message"] and "J Q K" in bad["message"] and "c d h s" in bad["message"]


@pytest.mark.parametrize("lang", LANGS)
def test_credentials_and_missing_things_are_refused_in_the_language(client, lang):
    english, local = english_and(client, lang, "/api/v1/games?status=nope")
    assert english["field"] == "Authorization"
    with client.application.test_request_context("/"), force_locale(lang):
        assert local["message"] == _(
            "this needs an API key (scorekeeper keys create): Authorization: Bearer <key>"
        )


def test_a_success_keeps_its_headers(client):
    response = ask(
        client,
        "fr",
        "/api/v1/verify",
        {"knocker": KNOCKER, "defender": "Ac Ad 2h 3h 4h 5h 6h 7h 8h 9h"},
    )
    assert response.status_code == 200 and "Content-Language" not in response.headers


@pytest.mark.parametrize("lang", LANGS)
def test_a_missing_token_and_a_reused_key_are_refused_in_the_language(client, lang):
    game = client.post("/api/v1/games", json={"players": ["Ana", "Bor"], "dealer": 0}).json
    hands = f"{game['url']}/hands"
    headers = {"Accept-Language": lang}
    missing = client.post(hands, json={"kind": "void"}, headers=headers).json["error"]
    with client.application.test_request_context("/"), force_locale(lang):
        assert missing["message"] == _(
            "this needs the game's edit token: Authorization: Bearer <token>"
        )
    keyed = {**headers, "Authorization": f"Bearer {game['edit_token']}", "Idempotency-Key": "k"}
    assert client.post(hands, json={"kind": "void"}, headers=keyed).status_code == 201
    quick = {"kind": "quick", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 9}
    reused = client.post(hands, json=quick, headers=keyed)
    assert (reused.status_code, reused.json["error"]["code"]) == (422, "idempotency_key_reused")
    with client.application.test_request_context("/"), force_locale(lang):
        assert reused.json["error"]["message"] == _(
            "Idempotency-Key %(key)s was already used for a different request (entry %(entry)s)",
            key="'k'",
            entry="1",
        )


@pytest.mark.parametrize("lang", LANGS)
def test_the_stores_and_the_limits_refusals_have_their_words(client, lang):
    """The store's refusals and the rate limits' are among the messages translated (their
    English is built where they arise, so each is checked against its msgid here)."""
    from api.api_words import in_language

    english = [
        "the server's disk is full: nothing was written",
        "the database stayed locked for 5 s: nothing was written; try again",
        "too many requests from this address (at most 30 per 1 minute); try again in 12 s",
        "the database cannot be reached just now: nothing was written; try again",
    ]
    with client.application.test_request_context("/"), force_locale(lang):
        for message in english:
            assert in_language(message) != message, message
