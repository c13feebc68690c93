"""The words the scorepad builds in Python, in the request's language (issue 20).

Option and preset names come from the web layer's labels, never from the core's
identifiers; money has the locale's separators; the API's error ``message`` follows
``Accept-Language`` where a catalog translates it and stays as it was in English.
"""

from __future__ import annotations

import dataclasses

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from api import create_app
from api.pad import options
from api.pad.labels import moment
from api.pad.views_result import amount_text, payment_line
from scorekeeper.rules import CHOICES, PRESETS, Rules

OPTIONS = [f.name for f in dataclasses.fields(Rules) if f.name != "based_on"]


def test_every_option_and_preset_of_the_core_has_its_words():
    assert sorted(options.OPTION_NAMES) == sorted(OPTIONS)
    assert sorted(options.OPTION_LABELS) == sorted(OPTIONS)
    assert sorted(options.PRESET_NAMES) == sorted(PRESETS)
    assert sorted(options.PRESET_NOTES) == sorted(PRESETS)
    assert {name: sorted(labels) for name, labels in options.CHOICE_LABELS.items()} == {
        name: sorted(choices) for name, choices in CHOICES.items()
    }


def test_an_option_name_in_english_is_its_identifier_in_words():
    assert {name: str(words) for name, words in options.OPTION_NAMES.items()} == {
        name: name.replace("_", " ") for name in OPTIONS
    }


@pytest.mark.parametrize(
    ("language", "amount", "said"),
    [
        ("en", "21.00", "Bor pays Ana 21.00 (210 points)."),
        ("fr", "21,00", None),
        ("sl", "21,00", None),
    ],
)
def test_money_has_the_locale_separators(module_app, language, amount, said):
    with module_app.test_request_context("/", headers={"Accept-Language": language}):
        assert amount_text(21) == amount
        line = payment_line([210, -210], ["Ana", "Bor"], 21.0)
    said_here = line.replace("<bdi>", "").replace("</bdi>", "")
    if said:
        assert said_here == said
    else:  # the sentence is the language's own; the amount in it is written its way
        assert amount in said_here and "Ana" in said_here and "Bor" in said_here
        assert "21.00" not in said_here and "pays" not in said_here


@pytest.fixture(scope="module")
def french_app(tmp_path_factory):
    """An app whose only catalog is a tiny French one translating one wording."""
    folder = tmp_path_factory.mktemp("translations")
    catalog = Catalog(locale="fr")
    catalog.add("There is no preset called %(preset)s", "Aucune règle prédéfinie nommée %(preset)s")
    (folder / "fr" / "LC_MESSAGES").mkdir(parents=True)
    with open(folder / "fr" / "LC_MESSAGES" / "messages.mo", "wb") as mo:
        write_mo(mo, catalog)
    return create_app(
        {
            "DB": str(folder / "games.db"),
            "SECRET_KEY": "test",
            "TESTING": True,
            "BABEL_TRANSLATION_DIRECTORIES": str(folder),
        }
    )


def _refusal(app, language: str, rules) -> dict:
    response = app.test_client().post(
        "/api/v1/games",
        json={"dealer": 0, "players": ["Ana", "Ben"], "rules": rules},
        headers={"Accept-Language": language},
    )
    assert response.status_code == 422
    return response.json["error"]


def test_an_api_error_message_follows_accept_language_where_a_catalog_has_it(french_app):
    english = _refusal(french_app, "en", "nonsense")
    assert english == {
        "code": "rule",
        "message": "unknown preset 'nonsense'; choose one of standard, classic, modern,"
        " oklahoma, straight, hollywood, slovenian, openspiel",
        "field": "preset",
        "reason": "unknown_preset",
        "params": {"preset": "nonsense"},
    }
    french = _refusal(french_app, "fr", "nonsense")
    # The field at fault is named first, as in the API's other messages.
    assert french == {**english, "message": "preset: Aucune règle prédéfinie nommée nonsense."}
    # No translation of this error's wording: the English message stays.
    assert _refusal(french_app, "fr", {"knock_limit": 99}) == _refusal(
        french_app, "en", {"knock_limit": 99}
    )


@pytest.mark.parametrize(
    ("language", "shown"),
    [("en", "12/2/26, 12:15\u202fAM UTC"), ("fr", "02/12/2026 00:15 UTC")],
)
def test_a_stored_time_is_machine_readable_with_a_local_fallback(module_app, language, shown):
    with module_app.test_request_context("/", headers={"Accept-Language": language}):
        assert moment("2026-12-02T00:15:30.123Z") == (
            f'<time datetime="2026-12-02T00:15:30.123Z">{shown}</time>'
        )


@pytest.mark.parametrize("language", ["en", "fr", "el"])
def test_a_wrong_address_or_method_is_refused_in_the_request_language(module_app, language):
    client = module_app.test_client()
    headers = {"Accept-Language": language}
    with module_app.test_request_context("/", headers=headers):
        from flask_babel import gettext

        nothing = gettext("There is nothing at this address: check the link.")
        method = gettext("This address does not take that method (see the Allow header).")
    missing = client.get("/api/v1/no-such-thing", headers=headers)
    assert missing.status_code == 404
    assert missing.json["error"] == {"code": "not_found", "message": nothing, "field": None}
    wrong = client.delete("/api/v1/games", headers=headers)
    assert wrong.status_code == 405 and wrong.json["error"]["message"] == method
    assert (nothing == "There is nothing at this address: check the link.") == (language == "en")
