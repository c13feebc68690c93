"""Every page state of the scorepad in every language, on a 360 px phone (issue 20).

The axe walk's phone (:mod:`test_pad_axe`: the same states, in the same
order, on a real ``scorekeeper serve``) walks the scorepad again at 360 x
740, where Greek and Slovenian words are longest, in Slovenian, Polish,
French, Norwegian and Greek (the axe walk is the English one). The default
run walks once, its language turning (the ``sk_lang`` cookie the page's
switch sets) at each state that opens a page (:data:`OPENERS`), so each
state is seen once and in one language, and each language on pages all
along the walk (:class:`TestEveryLanguageInTurn`); the soak tier (``pytest
-m soak``) walks every state in each language, chosen by the browser's
``Accept-Language`` (Playwright's ``locale``). The walk finds its way by the
catalog's words (:class:`browser_kit.Words`), so a button left
untranslated, or translated differently from its catalog entry, stops the
walk where it is. In each state:

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

import functools
import os
import re

import pytest
from babel.messages.pofile import read_po
from browser_kit import AXE, CHROMIUM, WAIT, Words, axe_problems, overflow
from playwright.sync_api import expect
from serve_kit import spawn, stop_soon
from test_pad_axe import STATES, Walk, picture
from test_pad_browser import ARTIFACTS

from api.i18n import LANG_COOKIE, LANGUAGES, TRANSLATIONS

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


@functools.cache
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
    stop_soon(process, f"{__name__}'s server", status=None)


WALKED = tuple(lang for lang in LANGUAGES if lang != "en")
"""The languages walked here (the axe walk is the English one)."""

OPENERS = frozenset(
    {
        "start",
        "start-errors",
        "start-option-errors",
        "sheet-empty",
        "hand-record",
        "hand-cards",
        "hand-cards-errors",
        "hand-stale",
        "queue-waiting",
        "phones-handover-qr",
        "phones",
        "join-already",
        "sheet-read-only",
        "error-403",
        "join",
        "join-errors",
        "join-dead-link",
        "phones-link-off",
        "sheet-over",
        "players-record",
        "start-recent",
        "sheet-hollywood",
        "sheet-three",
        "hand-three-quick",
        "sheet-partners",
        "hand-deal",
        "check",
        "replay",
        "replay-start",
        "error-404",
        "expired",
        "expired-foreign",
        "offline-sheet",
    }
)
"""The states of the walk whose step begins by opening a page: the turning walk changes
its language there (a step that begins on the page before acts in that page's words)."""


def turns(languages: tuple[str, ...] = WALKED) -> list[str]:
    """The language of each state of the walk (:data:`STATES`) in the turning walk: the next
    of ``languages`` at each of :data:`OPENERS`, the same as the state before elsewhere."""
    langs: list[str] = []
    turn = -1
    for state, _shown, _step in STATES:
        turn += state in OPENERS
        langs.append(languages[turn % len(languages)])
    return langs


def walk_in(browser, served, lang: str, turning: bool = False) -> None:
    """The axe walk's states in ``lang`` at 360 px (or, ``turning``, each in its language of
    :func:`turns`), checked as the module docs say."""
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
    page.set_default_timeout(WAIT)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())
    walk = Walk(page, served, Words(lang))
    langs = turns() if turning else [lang] * len(STATES)
    problems: list[str] = []
    try:
        for (state, shown, step), lang in zip(STATES, langs, strict=True):
            if walk.t.lang != lang:
                walk.t = Words(lang)
            if turning:  # every step: a step may put the phone's cookies back as they were
                context.add_cookies([{"name": LANG_COOKIE, "value": lang, "url": served}])
            step(walk)
            selector = shown(walk) if callable(shown) else shown
            expect(page.locator(selector).first, f"{lang} {state}").to_be_visible()
            assert page.get_attribute("html", "lang") == lang, state
            problems += [f"{state}: {out}" for out in overflow(page)]
            text = re.sub(r"\s+", " ", page.inner_text("body"))
            problems += [f"{state}: English left: {m!r}" for m in english_left(lang) if m in text]
            problems += axe_problems(page, f"{state} ({lang})")
            if state in PICTURED:
                picture(page, f"i18n-{lang}-{state}")
    finally:
        context.close()
    assert not errors, f"browser errors: {errors}"
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


class TestEveryLanguageInTurn:
    """One walk, its language turning at each page it opens (the default run's)."""

    @pytest.mark.cost(80)
    def test_every_page_state_at_360_px_each_in_one_language(self, browser, served):
        walk_in(browser, served, WALKED[0], turning=True)

    def test_the_turning_walk_sees_each_language_on_pages_all_along(self):
        langs = turns()
        assert set(langs) == set(WALKED)
        assert all(langs.count(lang) >= 8 for lang in WALKED), langs
        # and in each half of the walk
        half = len(langs) // 2
        assert set(langs[:half]) == set(langs[half:]) == set(WALKED)

    def test_the_language_turns_only_where_a_page_is_opened(self):
        assert {state for state, _shown, _step in STATES} >= OPENERS


# One class per language (the soak tier's): tests/run.sh distributes the suite by scope
# (--dist loadscope), so the five walks, a minute or two each, run in parallel processes.


@pytest.mark.soak
class LanguageWalk:
    """The walk in :attr:`lang` (not collected itself: its subclasses are the tests)."""

    lang = ""

    @pytest.mark.cost(80)
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
