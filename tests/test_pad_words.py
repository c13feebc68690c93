"""The words of the pad's scripts, the manifest and the worker's offline page, per language.

Every page carries its scripts' catalog (``#pad-words``, :mod:`api.pad.script_words`):
each message, and each counting message in every plural form the language has, so the
script's ``Intl.PluralRules`` choice (CLDR's categories) finds the form gettext would
choose for the same number.
"""

from __future__ import annotations

import gettext
import json
import re

import pytest
from babel import Locale
from babel.messages.plurals import get_plural

from api import create_app
from api.i18n import LANGUAGES
from api.pad.script_words import plural_samples


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return create_app({"DB": str(tmp_path_factory.mktemp("words") / "pad.db")}).test_client()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_plural_category_has_the_form_gettext_gives_its_numbers(lang):
    """Slovenian has four forms, Polish three: every count up to 5000 is in a category whose
    sample number takes the same catalog form (the catalog's Plural-Forms are CLDR's)."""
    forms, expression = get_plural(lang)
    index = gettext.c2py(expression)
    category = Locale.parse(lang).plural_form
    samples = plural_samples(lang)
    assert len({index(n) for n in samples.values()}) == forms
    for n in range(5000):
        assert index(samples[category(n)]) == index(n), n


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_carries_its_scripts_words_in_its_language(client, lang):
    page = client.get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
    words = json.loads(
        re.search(r'<script type="application/json" id="pad-words">(.*?)</script>', page)[1]
    )
    assert words["lang"] == lang
    assert set(words["counts"]["cards"]) == set(plural_samples(lang))
    assert all("%(num)d" in form for form in words["counts"]["waiting"].values())
    assert words["words"]["twice"].count("%(card)s") == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_manifest_and_the_offline_page_speak_the_language(client, lang):
    manifest = client.get("/manifest.webmanifest", headers={"Accept-Language": lang})
    assert manifest.mimetype == "application/manifest+json"
    assert manifest.json["lang"] == lang and manifest.json["scope"] == "/"
    assert manifest.json["name"] and manifest.json["short_name"]
    offline = client.get("/offline", headers={"Accept-Language": lang})
    assert offline.headers["Content-Language"] == lang
    assert f'<html lang="{lang}">' in offline.get_data(as_text=True)
