"""Browser tests of issue 10's scorepad review, in Debian's chromium at 360 x 740 and 390 x 844.

One real server for the module (the session's ``live`` ``scorekeeper serve``) and the
session browser. The games use long ordinary names ("Alexandra", "Bartholomew") and
every page visited is checked for sideways scrolling at 360 px. Screenshots go to
``tests/artifacts/pad-{stats,tally,hollywood-cards,voided}-{360,390}.png``.
"""

from __future__ import annotations

import os
import re
import time

import pytest
from browser_kit import CHROMIUM, WAIT
from playwright.sync_api import expect
from test_pad_browser import ANA, ARTIFACTS, BOR, page, quick_hand, start_game, tap

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
)

SIZES = {"360": {"width": 360, "height": 740}, "390": {"width": 390, "height": 844}}
LONG = ("Alexandra", "Bartholomew")

__all__ = ["page"]  # the browser page fixture of test_pad_browser, used here as well

# The WCAG contrast of each text element against the first opaque background behind it.
CONTRASTS = """root => {
  const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const back = e => {
    for (; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || c[3] > 0.9) return c;
    }
    return [255, 255, 255];
  };
  return Array.from(root.querySelectorAll('*')).filter(e => Array.from(e.childNodes)
      .some(n => n.nodeType === 3 && n.textContent.trim()) && e.getClientRects().length)
    .map(e => { const a = lum(rgb(getComputedStyle(e).color)), b = lum(back(e));
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      return [e.textContent.trim().slice(0, 30), ratio]; });
}"""

# The elements that stick out on the right (what makes a page scroll sideways).
STICKING_OUT = """width => Array.from(document.querySelectorAll('body *'))
  .filter(e => e.getBoundingClientRect().right > width + 0.5)
  .map(e => e.tagName + '.' + e.className + ': ' + (e.textContent || '').trim().slice(0, 30))
  .slice(0, 8)"""


def no_sideways_scroll(page, what: str) -> None:
    page.wait_for_load_state("load")  # the style sheet applied: a page seen as players see it
    width = page.viewport_size["width"]
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, (
        f"{what} is {scroll} px wide at {width} px: {page.evaluate(STICKING_OUT, width)}"
    )


def shots(page, name: str) -> None:
    """The page at both sizes (each checked for sideways scrolling), then back at 360 px."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        no_sideways_scroll(page, name)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(ARTIFACTS / f"pad-{name}-{size}.png"), full_page=True)
    page.set_viewport_size(SIZES["360"])


def start(page, url, names=LONG, preset="standard", target=None, stake="0.05"):
    start_game(page, url, names=names, preset=preset, stake=stake)
    no_sideways_scroll(page, "the start page")
    if target:
        page.locator("details.options summary").click()
        page.fill("#opt-target", target)
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))


def test_records_tally_and_voided_hands_at_360_px(page, live):
    page.set_viewport_size(SIZES["360"])
    url = live.url
    start(page, url, target="60")
    sheet = page.url
    quick_hand(page, "Alexandra", "Knock", "3", "12")  # 9
    quick_hand(page, "Bartholomew", "Gin", None, "10")  # 35
    page.get_by_role("link", name="Hand 1 details").click()
    no_sideways_scroll(page, "a hand's page")
    page.get_by_role("button", name="Void hand 1").click()
    row = page.locator("#hand-1")
    expect(row.locator(".badge")).to_have_text("voided")
    expect(row.locator("del")).to_contain_text("Alexandra knocked: 9")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        low = [(text, ratio) for text, ratio in row.evaluate(CONTRASTS) if ratio < 4.5]
        assert not low, f"voided row under 4.5:1 ({scheme}): {low}"
        shots(page, "voided" if scheme == "light" else "voided-dark")
    page.emulate_media(color_scheme="light")

    quick_hand(page, "Bartholomew", "Gin", None, "10")  # 70: game over
    over = page.locator("section.over").inner_text()
    assert "Alexandra pays Bartholomew" in over and "points" in over and "Net:" not in over
    page.get_by_role("button", name="New game with the same players").click()
    expect(page).not_to_have_url(sheet)
    quick_hand(page, "Alexandra", "Gin", None, "40")  # 65: over
    # the save lands on the sheet first (game 2's sheet already showed the tally's line:
    # a tap on its link while the save is under way would race the save's own landing)
    expect(page.locator("section.over")).to_be_visible()
    tally_line = page.locator("section.tally-now")
    expect(tally_line).to_contain_text("Game 2 with the same players")
    page.get_by_role("link", name="The tally, game by game").click()
    items = page.locator("ol.tally li")
    expect(items).to_have_count(2)
    assert "Bartholomew won" in items.nth(0).inner_text()
    assert "Alexandra won" in items.nth(1).inner_text()
    assert "owes" in page.locator(".standing").inner_text()
    shots(page, "tally")

    # A player's record from the sheet (tap the name), then head to head.
    page.get_by_role("link", name="Back to the sheet").click()
    page.locator(".player .name a", has_text="Alexandra").click()
    expect(page.locator("h1")).to_have_text("Alexandra's record")
    record = page.locator("table.record").inner_text()
    assert re.search(r"Games\s+2", record) and re.search(r"Games won\s+1", record)
    assert "imported" in page.inner_text("main").lower()
    shots(page, "stats")
    page.get_by_role("link", name="Alexandra vs Bartholomew").click()
    assert re.search(r"Games won\s+1\s+1", page.locator("table.record").inner_text())
    no_sideways_scroll(page, "head to head")

    # The start page's search, with a name nobody has.
    page.goto(url + "/")
    page.fill("#player-name", "Zebedee")
    page.get_by_role("button", name="Show").click()
    assert "Nobody called" in page.locator("#err-name").inner_text()
    no_sideways_scroll(page, "a player not found")


def scrolled_to_ace(page) -> tuple[dict, dict]:
    """The boxes of the melds' strip and the ace of hearts once the page has scrolled the
    focused ace clear of the strip: read until they are, or :data:`WAIT` has passed (the
    focus's scroll can land a frame after the key; read at once, a busy machine saw the
    page not yet scrolled)."""
    deadline = time.monotonic() + WAIT / 1000
    while True:
        stuck = page.locator("#live-p0").bounding_box()
        ace = page.locator("label[for='p0-Ah']").bounding_box()
        clear = stuck["y"] <= 1 and ace["y"] >= stuck["y"] + stuck["height"]
        if clear or time.monotonic() > deadline:
            return stuck, ace
        page.wait_for_timeout(50)


def test_melds_strip_by_keyboard_and_card_entry_at_360_px(page, live):
    page.set_viewport_size(SIZES["360"])
    start(page, live.url, names=("Christopher", "Bartholomew"), stake="")
    page.get_by_role("link", name="+ Tap the cards").click()
    page.locator("label.choice", has_text="Christopher").click()
    tap(page, "p0", ANA)
    strip = page.locator("#live-p0 .melds")
    expect(page.locator("#live-p0 .count")).to_have_text(f"{len(ANA)} cards")
    expect(strip.locator(".meld")).to_have_count(3)
    no_sideways_scroll(page, "the card form")
    # Every meld shows: the strip wraps them onto a second line (issue 21: it hid the third).
    assert page.evaluate(
        "(() => { const e = document.querySelector('#live-p0 .melds');"
        " return e.scrollWidth <= e.clientWidth; })()"
    )
    boxes = [strip.locator(".meld").nth(i).bounding_box() for i in range(3)]
    assert all(box["x"] >= 0 and box["x"] + box["width"] <= 360 for box in boxes), boxes
    assert boxes[2]["y"] > boxes[0]["y"]  # wrapped: the strip is taller than one line
    # By keyboard, each card scrolls into view clear of the taller sticky strip: Tab from
    # the king of spades (the grid's bottom) to the ace of hearts (its top, above).
    page.focus("#p0-Ks")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "p0-Ah"
    stuck, ace = scrolled_to_ace(page)
    assert stuck["y"] <= 1  # the strip is stuck at the top: the grid scrolled under it
    assert ace["y"] >= stuck["y"] + stuck["height"], (ace, stuck)
    assert ace["y"] + ace["height"] <= SIZES["360"]["height"], ace
    # Both hands' wrong counts are told at once.
    tap(page, "p1", BOR[:8])
    page.locator("label[for='p0-2c']").click()  # Christopher: 9 cards
    page.get_by_role("button", name="Check the hand").click()
    summary = page.locator(".error-summary li")
    expect(summary).to_have_count(2)
    assert "9 tapped" in page.inner_text("#err-cards_0")
    assert "8 tapped" in page.inner_text("#err-cards_1")
    no_sideways_scroll(page, "the card form with errors")


def test_hollywood_cards_show_each_game(page, live):
    page.set_viewport_size(SIZES["360"])
    start(page, live.url, names=("Cleopatra", "Konstantin"), preset="hollywood", stake="")
    for points in ("10", "20", "5"):
        quick_hand(page, "Cleopatra", "Gin", None, points)
    quick_hand(page, "Konstantin", "Knock", "2", "30")
    # Cleopatra: 110 in game 1 (closed, Konstantin shut out), 75 in game 2, 30 in game 3.
    cleo = page.locator(".player.p0")
    expect(cleo.locator(".game b")).to_have_text(["110", "75", "30"])
    expect(page.locator(".player.p1 .game b")).to_have_text(["·", "28", "·"])
    expect(cleo.locator(".shutout")).to_have_text("Shutout in game 1")
    expect(page.locator(".player.p1 .shutout")).to_have_count(0)
    first = page.locator("table.columns tbody tr").first.inner_text()
    assert re.search(r"Cleopatra wins \d+ – 0, shutout", first), first
    assert page.locator("table.columns thead th").last.text_content() == "Result"
    shots(page, "hollywood-cards")
