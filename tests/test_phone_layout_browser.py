"""Numbers, standings, the top bar and finger targets on a 360 x 740 phone, in the six
languages (issue 27).

One real ``scorekeeper serve`` for the module over a SQLite file that :mod:`phone_kit` fills
first: finished games whose finals run to four digits (two players, three, Hollywood) with
hands numbered past 10, and a round robin and a Swiss of five players (a bye each round).
Debian's chromium at 360 x 740 reads them in each language (``locale``). A number is
broken when a Range over its digits has client rectangles on more than one line.
Screenshots: ``tests/artifacts/phone-<lang>-<page>-360.png``.
"""

from __future__ import annotations

import os

import pytest
import requests
from browser_kit import CHROMIUM, Words, overflow
from phone_kit import seed
from playwright.sync_api import expect
from serve_kit import spawn, stop_soon
from test_pad_browser import ARTIFACTS

from api.i18n import LANGUAGES

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
)

NARROW = {"width": 360, "height": 740}
TARGET = 44
"""The smallest finger target, in CSS pixels (WCAG 2.5.5, the platforms' guidelines)."""

BROKEN_NUMBERS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('svg, script, style, datalist, option')) continue;
    for (const found of node.data.matchAll(/\\d+(?:[.,]\\d+)*/g)) {
      if (found[0].length < 2) continue;
      const range = document.createRange();
      range.setStart(node, found.index);
      range.setEnd(node, found.index + found[0].length);
      const lines = new Set([...range.getClientRects()].filter((box) => box.width > 0)
        .map((box) => Math.round(box.top)));
      if (lines.size > 1) broken.push(`${found[0]} on ${lines.size} lines in ` +
        `${node.parentElement.tagName}: ${node.parentElement.textContent.trim().slice(0, 40)}`);
    }
  }
  return broken;
}"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The server's URL and the ids :func:`phone_kit.seed` stored."""
    db = tmp_path_factory.mktemp("phone") / "phone.db"
    ids = seed(str(db))
    process, url = spawn(db, workers=2)
    yield url, ids
    stop_soon(process, f"{__name__}'s server", status=None)


def phone(browser, lang: str = "en"):
    context = browser.new_context(
        viewport=NARROW, device_scale_factor=1, is_mobile=True, has_touch=True, locale=lang
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


def shot(page, lang: str, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"phone-{lang}-{name}-360.png"), full_page=True)


def pages(url: str, ids: dict) -> dict[str, str]:
    return {
        "sheet": f"{url}/games/{ids['two']}",
        "sheet-three": f"{url}/games/{ids['three']}",
        "sheet-hollywood": f"{url}/games/{ids['hollywood']}",
        "games": f"{url}/games",
        "standings-round-robin": f"{url}/events/{ids['round_robin']}",
        "standings-swiss": f"{url}/events/{ids['swiss']}",
    }


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_no_number_breaks_and_the_standings_decide_in_view(browser, served, lang):
    url, ids = served
    page = phone(browser, lang)
    problems: list[str] = []
    try:
        for name, address in pages(url, ids).items():
            page.goto(address)
            problems += [f"{name}: {out}" for out in overflow(page)]
            problems += [f"{name}: {b}" for b in page.evaluate(BROKEN_NUMBERS)]
            top = page.locator("header.top").bounding_box()
            if top["height"] > 64:
                problems.append(f"{name}: the top bar is {top['height']} px high")
            if name.startswith("standings"):
                problems += standings_problems(page, url, ids, name)
            if name in ("sheet", "standings-round-robin", "standings-swiss"):
                shot(page, lang, name)
    finally:
        page.context.close()
    assert not problems, f"{len(problems)} problems in {lang}:\n" + "\n".join(problems)


def standings_problems(page, url: str, ids: dict, name: str) -> list[str]:
    """What is wrong with the standings on the page: a deciding column (won, net points,
    the Swiss tie-break) past the screen's edge, or a figure unlike the API's."""
    key = name.removeprefix("standings-").replace("-", "_")
    event = requests.get(f"{url}/api/v1/events/{ids[key]}/standings", timeout=10).json()
    lines = event["standings"]
    swiss = key == "swiss"
    deciding = 5 if swiss else 4  # rank, player, won, net points (, opponents' wins)
    heads = page.locator("table.standings thead th")
    found = []
    for i in range(deciding):
        box = heads.nth(i).bounding_box()
        if box["x"] + box["width"] > NARROW["width"]:
            found.append(f"{name}: column {i + 1} ends at {box['x'] + box['width']} px")
    rows = page.locator("table.standings tbody tr")
    shown = [[c.strip() for c in rows.nth(i).locator("td, th").all_inner_texts()] for i in range(5)]
    decide = ["won", "net_points", "opponents_won"][: deciding - 2]
    expected = [
        [str(line["rank"]), line["player"]]
        + [str(line[k]) for k in decide]
        + [str(line["played"]), str(line["lost"]), str(line["byes"])]
        for line in lines
    ]
    if shown != expected:
        found.append(f"{name}: rows {shown} are not {expected}")
    return found


def test_the_menu_is_one_tap_away_and_targets_take_a_finger(browser, served):
    url, ids = served
    page = phone(browser)
    words = Words("en")
    try:
        page.goto(f"{url}/games/{ids['two']}")
        main = page.get_by_role("navigation", name="Main")
        expect(main).to_be_hidden()
        page.locator("header.top summary").click()  # one tap
        expect(main.get_by_role("link", name="Players")).to_be_visible()
        page.keyboard.press("Escape")
        page.goto(f"{url}/games/{ids['two']}")
        small = []
        for what, locator in (
            ("hand number", page.locator("table.hands td.n a")),
            ("hand row", page.locator("table.hands tbody tr")),
            ("player's name", page.locator(".player .name a")),
            ("menu", page.locator("header.top summary")),
        ):
            for box in (locator.nth(i).bounding_box() for i in range(locator.count())):
                if box["height"] < TARGET or (what == "hand number" and box["width"] < TARGET):
                    small.append(f"{what}: {box['width']:.0f} x {box['height']:.0f}")
        assert not small, small
        # a tap on a hand's totals opens the hand, like its number and its words
        totals = page.locator("#hand-11 td.num").first
        totals.scroll_into_view_if_needed()  # a mouse click lands in the viewport
        box = totals.bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        expect(page.locator("h1")).to_contain_text(words("Hand %(n)s", n=11))
    finally:
        page.context.close()


def test_a_shared_title_is_plain_text(browser, served):
    """The page's title isolates the names (U+2068 ... U+2069); what leaves the phone (the
    Web Share title and text, a link preview's og:title) has none of them."""
    url, ids = served
    page = phone(browser)
    page.add_init_script("navigator.share = async (data) => { window.shared = data; };")
    isolates = ("\u2066", "\u2067", "\u2068", "\u2069")
    try:
        page.goto(f"{url}/games/{ids['two']}")
        title = page.title()
        assert "\u2068" in title  # the page's own title keeps them
        page.get_by_role("button", name="Share").click()
        page.wait_for_function("() => window.shared !== undefined")
        shared = page.evaluate("window.shared")
        preview = page.get_attribute("meta[property='og:title']", "content")
        for text in (shared["title"], shared["text"], preview):
            assert not any(mark in text for mark in isolates), repr(text)
        plain = "".join(c for c in title if c not in isolates)
        assert shared["title"] == plain and preview == plain.split(" · ")[0]
    finally:
        page.context.close()
