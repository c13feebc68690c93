"""Where the browser tests find chromium and axe-core: Debian's and npm's packages, never a
downloaded browser; and the accessibility check that injects axe-core into a page."""

from __future__ import annotations

import functools
import json
import re
import shutil
import weakref
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

WAIT = 30_000
"""How long (ms) a browser test waits for the condition it checks (a page's element, text,
URL; Playwright's ``expect`` and each page's actions): long, for a busy machine, and free
when the condition is met early. A test about a time (a live sheet's 2 s) says its own."""

expect.set_options(timeout=WAIT)

CHROMIUM = (
    shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or "/usr/bin/chromium-headless-shell"
)
"""Debian's chromium in its headless shell (package ``chromium-headless-shell``, which
tests/run.sh installs): the same chromium build, its Blink and V8, without a browser
window's machinery around the pages (the headless mode Playwright itself runs); where
only Debian's full ``chromium`` is installed, that one (the same pages, more CPU). The
browser tests skip without either. Measured on 2026-12-06: test_pad_browser.py spent 46.9 s
of CPU in all with the full ``chromium --headless`` and 35.5 s with the shell (chromium's
own share 34.5 -> 22.6 s), and the pages render the same."""

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
"""chromium's command line: no sandbox (containers), no network chatter of its own."""

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core as tests/run.sh installs it (``npm ci`` of tests/package-lock.json); the
accessibility tests skip without it."""

AXE_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
"""The axe rules run: WCAG 2.0 and 2.1, levels A and AA."""

COLOUR_RULES = ("color-contrast", "link-in-text-block")
"""The axe rules that read colours: all a page's colour scheme can change (its layout and
markup stay)."""

BLOCKING = ("serious", "critical")
"""The impacts that fail a page; "minor" and "moderate" findings are not checked."""

_RUN = """async ([type, values]) => {
  const result = await axe.run(document, {runOnly: {type, values},
                                          resultTypes: ['violations']});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.flat().join(' '),
                                why: (n.any[0] || n.all[0] || n.none[0] || {}).message || ''})),
  }));
}"""


@functools.cache
def _axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


_AXE_CONTEXTS: weakref.WeakSet[Any] = weakref.WeakSet()
"""The browser contexts given axe as an init script."""


def _axe_everywhere(context: Any) -> None:
    """Give axe to every document ``context`` opens from now on (once a context)."""
    if context not in _AXE_CONTEXTS:
        context.add_init_script(_axe_source())
        _AXE_CONTEXTS.add(context)


def axe_problems(page, state: str, rules: tuple[str, ...] = ()) -> list[str]:
    """axe's serious and critical violations on ``page`` as it is now, one line per element:
    ``state: rule (impact): help: selector: why``. The rules of :data:`AXE_TAGS`, or only
    ``rules`` when given.

    axe is evaluated through the DevTools protocol rather than added as a
    ``<script>`` tag: the pages' Content-Security-Policy forbids inline
    scripts, and the check must see the pages with their real policy. The
    first check in a browser context evaluates it in its page and makes it an
    init script of the context (:func:`_axe_everywhere`), so every document
    the context opens after has it from its start: the walks check some
    seventy pages each, and sending and compiling axe's half megabyte again
    for each cost about 0.1 s a page (a colour-scheme switch keeps it).
    A page is checked once it has loaded: a page just navigated to can be laid out
    (its awaited element visible) before its style sheets apply, and axe would judge the
    browser's own styles (seen once: the dark scheme's default link colour on white).
    """
    page.wait_for_load_state("load")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_source())
        _axe_everywhere(page.context)
    violations = page.evaluate(_RUN, ["rule", list(rules)] if rules else ["tag", list(AXE_TAGS)])
    return [
        f"{state}: {v['id']} ({v['impact']}): {v['help']}: {node['target']}: {node['why']}"
        for v in violations
        if v["impact"] in BLOCKING
        for node in v["nodes"]
    ]


class Words:
    """The scorepad's words in one language, as its catalog has them, for finding what a
    page shows: ``words("Hand %(n)s", n=3)`` is the text, :meth:`pattern` a regular
    expression of a message whatever fills its placeholders, :meth:`before` its text up to
    the first placeholder. English is the messages themselves."""

    def __init__(self, lang: str) -> None:
        from babel.support import NullTranslations, Translations

        from api.i18n import TRANSLATIONS

        self.lang = lang
        self.catalog = (
            NullTranslations() if lang == "en" else Translations.load(str(TRANSLATIONS), [lang])
        )

    def __call__(self, message: str, plural: str = "", num: int = 0, **values: object) -> str:
        if plural:
            text = self.catalog.ngettext(message, plural, num)
            values = {"num": num, **values}
        else:
            text = self.catalog.gettext(message)
        return text % values if values else text

    def pattern(self, *messages: str):
        """A regular expression matching any of ``messages`` (translated) in a text."""

        def one(message: str) -> str:
            parts = re.split(r"%\(\w+\)[sd]", self.catalog.gettext(message))
            return ".+?".join(re.escape(part) for part in parts)

        return re.compile("|".join(one(message) for message in messages))

    def before(self, message: str) -> str:
        """The translated ``message`` up to its first placeholder (a link or button whose
        name goes on with a number)."""
        return re.split(r"%\(\w+\)[sd]", self.catalog.gettext(message))[0].strip()

    def has_text(self, message: str, **values: object) -> str:
        """A Playwright ``:has-text(...)`` for the translated message."""
        return f":has-text({json.dumps(self(message, **values), ensure_ascii=False)})"


def overflow(page) -> list[str]:
    """What sticks out of the phone's width on ``page`` (at most five findings): the page
    scrolling sideways, or an element whose right edge passes the window's and that no
    scrolling or clipping box around it holds (its tag, id, class and first words).

    Measured once the page has loaded: a layout forced before its style sheet arrives
    (a busy machine, the worker's network-first fetch) is not the page players see."""
    page.wait_for_load_state("load")
    return page.evaluate("""() => {
      const width = document.documentElement.clientWidth;
      const out = [];
      if (document.documentElement.scrollWidth > width + 1)
        out.push(`the page is ${document.documentElement.scrollWidth}px wide, not ${width}px`);
      const held = (el) => {
        for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
          if (getComputedStyle(up).overflowX !== 'visible') return true;
        return false;
      };
      for (const el of document.body.querySelectorAll('*')) {
        const box = el.getBoundingClientRect();
        if (box.width && box.right > width + 1 && !held(el)) {
          const classes = typeof el.className === 'string' ? el.className.trim() : '';
          const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
            (classes ? '.' + classes.split(/\\s+/).join('.') : '');
          const text = (el.innerText || '').slice(0, 40);
          out.push(`${name} ends at ${Math.round(box.right)}px: ${text}`);
        }
      }
      return out.slice(0, 5);
    }""")


PAGE_ERRORS: list[str] = []
"""The script errors of the pages :func:`watch_errors` watches, during the test running:
conftest's ``no_page_errors`` fails the test in its teardown if any. (``pytest.fail`` in
Playwright's event callback would close its connection, and so fail every later browser
test of the process.)"""


def watch_errors(page: Any) -> None:
    """Note ``page``'s script errors in :data:`PAGE_ERRORS`."""
    page.on("pageerror", lambda error: PAGE_ERRORS.append(str(error)))
