"""Where the browser tests find chromium and axe-core: Debian's and npm's packages, never a
downloaded browser; and the accessibility check that injects axe-core into a page."""

from __future__ import annotations

import functools
import shutil
from pathlib import Path

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
"""The chromium binary (tests/run.sh installs Debian's); the browser tests skip without it."""

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


def axe_problems(page, state: str, rules: tuple[str, ...] = ()) -> list[str]:
    """axe's serious and critical violations on ``page`` as it is now, one line per element:
    ``state: rule (impact): help: selector: why``. The rules of :data:`AXE_TAGS`, or only
    ``rules`` when given.

    axe is evaluated through the DevTools protocol rather than added as a
    ``<script>`` tag: the pages' Content-Security-Policy forbids inline
    scripts, and the check must see the pages with their real policy. It is
    evaluated once per document (a colour-scheme switch keeps it).
    """
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_source())
    violations = page.evaluate(_RUN, ["rule", list(rules)] if rules else ["tag", list(AXE_TAGS)])
    return [
        f"{state}: {v['id']} ({v['impact']}): {v['help']}: {node['target']}: {node['why']}"
        for v in violations
        if v["impact"] in BLOCKING
        for node in v["nodes"]
    ]
