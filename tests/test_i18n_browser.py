"""Every page state of the scorepad in every language, on a 360 px phone (issue 20).

The axe walk's phone (:mod:`test_pad_axe`: the same states, in the same
order, on a real ``scorekeeper serve``) walks the scorepad again in
Slovenian, Polish, French, Norwegian and Greek, its language chosen by the
browser's ``Accept-Language`` (Playwright's ``locale``), at 360 x 740, where
Greek and Slovenian words are longest. It finds its way by the catalog's
words (:class:`browser_kit.Words`), so a button left untranslated, or
translated differently from its catalog entry, stops the walk where it is.
In each state:

- ``<html lang>`` is the language;
- nothing sticks out sideways (:func:`browser_kit.overflow`);
- no English sentence of the catalog is left on the page (a message whose
  translation differs from its English, of three words or more, found in the
  page's visible text);
- axe-core finds nothing serious or critical (light scheme: the axe walk
  checks the dark one; colours do not change with the language).

Screenshots of the start page, a sheet at game end and the card-entry form
go to ``tests/artifacts/i18n-<lang>-<state>.png``.
"""

from __future__ import annotations

import os
import re

import pytest
from babel.messages.pofile import read_po
from browser_kit import AXE, CHROMIUM, Words, axe_problems, overflow
from playwright.sync_api import expect
from serve_kit import spawn, stop
from test_pad_axe import STATES, Walk
from test_pad_browser import ARTIFACTS

from api.i18n import LANGUAGES, TRANSLATIONS

pytestmark = [
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
    ),
    pytest.mark.skipif(
        not AXE.exists(), reason="axe-core is not installed (tests/run.sh: npm ci --prefix tests)"
    ),
]

NARROW = {"width": 360, "height": 740}
"""The narrowest phone the scorepad is made for."""

PICTURED = ("start", "hand-cards-typed", "sheet-over")
"""The states photographed in each language: the start page, a card-entry form, a sheet at
game end."""


def english_left(lang: str) -> list[str]:
    """The English sentences that must not be on a page in ``lang``: every message of three
    words or more, without placeholders, whose translation is not the same text."""
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        catalog = read_po(f)
    return [
        m.id
        for m in catalog
        if m.id
        and isinstance(m.id, str)
        and "%(" not in m.id
        and len(m.id.split()) >= 3
        and m.string
        and m.string != m.id
    ]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A real ``scorekeeper serve`` for this module: its URL."""
    process, url = spawn(tmp_path_factory.mktemp("i18n") / "i18n.db", workers=2)
    yield url
    stop(process)


def walk_in(browser, served, lang: str) -> None:
    """The axe walk's states in ``lang`` at 360 px, checked as the module docs say."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(
        viewport=NARROW,
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
        color_scheme="light",
        locale=lang,
    )
    page = context.new_page()
    page.set_default_timeout(15000)  # a shared, busy machine: pages may take a while
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())
    walk = Walk(page, served, Words(lang))
    english = english_left(lang)
    problems: list[str] = []
    try:
        for state, shown, step in STATES:
            step(walk)
            selector = shown(walk) if callable(shown) else shown
            expect(page.locator(selector).first, f"{lang} {state}").to_be_visible()
            assert page.get_attribute("html", "lang") == lang, state
            problems += [f"{state}: {out}" for out in overflow(page)]
            text = re.sub(r"\s+", " ", page.inner_text("body"))
            problems += [f"{state}: English left: {m!r}" for m in english if m in text]
            problems += axe_problems(page, f"{state} ({lang})")
            if state in PICTURED:
                page.evaluate("window.scrollTo(0, 0)")
                path = ARTIFACTS / f"i18n-{lang}-{state}.png"
                page.screenshot(path=str(path), full_page=True)
    finally:
        context.close()
    assert not errors, f"browser errors: {errors}"
    assert not problems, f"{len(problems)} problems in {lang}:\n" + "\n".join(problems)


# One class per language: tests/run.sh distributes the suite by scope (--dist loadscope),
# so the five walks, a minute or two each, run in parallel processes.


class LanguageWalk:
    """The walk in :attr:`lang` (not collected itself: its subclasses are the tests)."""

    lang = ""

    def test_every_page_state_at_360_px(self, browser, served):
        walk_in(browser, served, self.lang)


class TestSlovenian(LanguageWalk):
    lang = "sl"


class TestPolish(LanguageWalk):
    lang = "pl"


class TestFrench(LanguageWalk):
    lang = "fr"


class TestNorwegian(LanguageWalk):
    lang = "nb"


class TestGreek(LanguageWalk):
    lang = "el"


def test_the_walks_cover_every_language_but_english():
    walked = [walk.lang for walk in LanguageWalk.__subclasses__()]
    assert sorted(walked) == sorted(set(LANGUAGES) - {"en"})
