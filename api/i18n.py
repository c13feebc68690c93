"""The players' languages (issue 20): Flask-Babel, gettext catalogs, the locale's forms.

The scorepad speaks English (``en``), Slovenian (``sl``), Polish (``pl``),
French (``fr``), Norwegian Bokmål (``nb``) and Greek (``el``). Each request's
language is, in this order: the ``sk_lang`` cookie the page's language switch
sets (no account), else the best match of the browser's ``Accept-Language``,
else English. So a shared sheet link opens in the viewer's own language.

Catalogs live in ``api/translations/<lang>/LC_MESSAGES/messages.po`` (one
file per language, its header says where its card vocabulary comes from);
``messages.pot`` is extracted from the code and templates with Babel (see
``api/translations/README``). Every string a player reads goes through
``gettext``/``ngettext`` (``_`` in the templates); a test fails on any message
left untranslated or fuzzy in any catalog.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, g, has_request_context, request
from flask_babel import (
    Babel,
    LazyString,
    force_locale,
    format_date,
    format_datetime,
    format_decimal,
    format_number,
    get_locale,
    get_translations,
    lazy_gettext,
    ngettext,
    pgettext,
)
from flask_babel import gettext as _

__all__ = [
    "LazyString",
    "_",
    "force_locale",
    "format_date",
    "format_datetime",
    "format_decimal",
    "format_number",
    "get_locale",
    "get_translations",
    "lazy_gettext",
    "ngettext",
    "pgettext",
]
"""Flask-Babel's functions, typed (``stubs/flask_babel``): the rest of ``api/`` imports them
from here, the one module that knows where they come from."""

LANGUAGES = ("en", "sl", "pl", "fr", "nb", "el")
"""The scorepad's languages, as BCP 47 tags (``<html lang>``), English first (the default)."""

NORWEGIAN = ("no", "nn")
"""Norwegian asked for without the written standard (``no``) or as Nynorsk: served in Bokmål,
which every Norwegian reader reads."""

LANGUAGE_NAMES = {
    "en": "English",
    "sl": "Slovenščina",
    "pl": "Polski",
    "fr": "Français",
    "nb": "Norsk bokmål",
    "el": "Ελληνικά",
}
"""Each language in its own words, for the switch."""

LANG_COOKIE = "sk_lang"
"""The cookie the language switch sets: one of :data:`LANGUAGES`."""

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
"""The gettext catalogs (``<lang>/LC_MESSAGES/messages.po`` and the compiled ``.mo``)."""


def N_(message: str) -> str:
    """Marks ``message`` for extraction (``-k N_``) where it is translated later, outside a
    request (nginx's error pages are written from the catalogs): ``message`` itself."""
    return message


def chosen_language() -> str:
    """This request's language: the switch's cookie, else ``Accept-Language``, else English."""
    chosen = request.cookies.get(LANG_COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    best = request.accept_languages.best_match(LANGUAGES + NORWEGIAN)
    if best in NORWEGIAN:
        return "nb"
    return best or LANGUAGES[0]


def page_language() -> dict[str, Any]:
    """What every page's template gets: ``lang`` (this request's language, for
    ``<html lang>``) and ``languages`` (code -> own name, for the switch)."""
    return {"lang": current_language(), "languages": LANGUAGE_NAMES}


def current_language() -> str:
    """The language this request is answered in (one of :data:`LANGUAGES`; English outside
    a request), found once per request (a page writes hundreds of cards)."""
    if not has_request_context():
        return LANGUAGES[0]
    if "_language" not in g:
        locale = get_locale()
        g._language = str(locale) if locale is not None else LANGUAGES[0]
    return str(g._language)


def install(app: Flask) -> None:
    """Give ``app`` Flask-Babel with the catalogs and the language choice above."""
    Babel(
        app,
        locale_selector=chosen_language,
        default_translation_directories=str(TRANSLATIONS),
    )
    app.context_processor(page_language)
