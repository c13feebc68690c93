"""Issue 21's fixes in chromium at 360 x 740: the live melds strip shows all three melds,
two phones typing the same hand are offered *Discard mine*, and the phone list's times
are in the phone's zone.

The session's ``live`` server (``scorekeeper serve``, temporary database; each test
starts games of its own) and Playwright chromium. The two phones are two pages of one
browser (the device that started the game may edit from both). Screenshots go to
tests/artifacts/.
"""

from __future__ import annotations

import os
import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from browser_kit import CHROMIUM, WAIT, overflow
from playwright.sync_api import expect
from test_pad_browser import ANA, ARTIFACTS, start_game, tap

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
)

SMALL = {"width": 360, "height": 740}


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        viewport=SMALL, device_scale_factor=1, is_mobile=True, has_touch=True
    )
    errors: list[str] = []
    context.on("weberror", lambda error: errors.append(str(error.error)))
    yield context
    context.close()
    assert errors == []


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def new_game(page, url: str) -> str:
    start_game(page, url, stake="")
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    return page.url


def type_quick(page, who: str, kind: str, mine: str, theirs: str) -> None:
    page.locator("label.choice", has_text=who).click()
    page.locator("label.choice", has_text=re.compile(f"^{kind}$")).click()
    page.fill("#knocker_deadwood", mine)
    page.fill("#defender_deadwood", theirs)


def both_type(sheet: str, *phones) -> None:
    """Both phones open the quick form, then each in turn types its hand and adds it: the
    first is saved (the sheet with its notice), the second's form is stale."""
    for page, __ in phones:
        page.goto(sheet + "/hand?mode=quick")
    for i, (page, hand) in enumerate(phones):
        page.bring_to_front()  # the tab in use: a tab behind draws no frames (no rAF) ...
        type_quick(page, *hand)  # ... and Playwright's taps wait seconds for it to be stable
        page.get_by_role("button", name="Add to the sheet").click()
        if i == 0:
            expect(page).to_have_url(re.compile(r"done=added"))


def test_the_live_strip_shows_three_melds_at_360_px(phone, live):
    page = phone.new_page()
    page.set_default_timeout(WAIT)
    new_game(page, live.url)
    page.get_by_role("link", name="+ Tap the cards").click()
    tap(page, "p0", ANA)  # A-2-3 of spades, three fours, 9-10-J of diamonds; 2c left
    readout = page.locator("#live-p0")
    readout.get_by_text("deadwood 2").wait_for()
    melds = readout.locator(".meld")
    expect(melds).to_have_count(3)
    strip = readout.bounding_box()
    for i in range(3):
        box = melds.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= SMALL["width"], (i, box)
        assert box["y"] + box["height"] <= strip["y"] + strip["height"] + 1, (i, box, strip)
    assert overflow(page) == []
    shot(page, "live-melds-360")


def test_two_phones_typing_the_same_hand_discard_the_second(phone, live):
    one = phone.new_page()
    one.set_default_timeout(WAIT)
    sheet = new_game(one, live.url)
    two = phone.new_page()
    two.set_default_timeout(WAIT)
    both_type(sheet, (one, ("Ana", "Knock", "2", "10")), (two, ("Ana", "Knock", "2", "10")))
    banner = two.locator("section.changed")
    expect(banner.locator("#changed-title")).to_have_text("The sheet changed")
    expect(banner).to_contain_text("What you typed matches hand 1")
    actions = banner.locator(".actions > *")
    expect(actions).to_have_text(["Discard mine", "Save anyway"])
    discard = banner.get_by_role("link", name="Discard mine")
    anyway = banner.get_by_role("button", name="Save anyway")
    # the main button looks it: filled, where Save anyway is the outlined secondary one
    colours = [
        x.evaluate("(el) => getComputedStyle(el).backgroundColor") for x in (discard, anyway)
    ]
    assert colours[0] != colours[1]
    assert overflow(two) == []
    shot(two, "duplicate-guard-360")
    discard.click()
    expect(two).to_have_url(sheet)
    expect(two.locator(".player .total")).to_have_text(["8", "0"])  # one hand, not two

    # a different hand typed on a stale form: today's flow, saving it is the main step
    both_type(sheet, (one, ("Bor", "Knock", "3", "9")), (two, ("Ana", "Knock", "1", "9")))
    banner = two.locator("section.changed")
    expect(banner).to_contain_text("What you typed is kept below.")
    expect(banner.get_by_role("link", name="Discard mine")).to_have_count(0)
    two.get_by_role("button", name="Add to the sheet").click()
    expect(two).to_have_url(re.compile(r"done=added"))
    expect(two.locator(".player .total")).to_have_text(["16", "6"])


def test_the_phone_list_shows_times_in_the_phones_zone(browser, live):
    """Issue 21 found phone-list times in UTC: each is a ``<time>`` the page's script shows
    in the phone's zone (here Kathmandu, UTC+5:45, whose minutes differ from UTC's)."""
    context = browser.new_context(viewport=SMALL, timezone_id="Asia/Kathmandu")
    page = context.new_page()
    page.set_default_timeout(WAIT)
    page.goto(new_game(page, live.url) + "/phones")
    since = page.locator("time[datetime]").first
    utc = datetime.fromisoformat(since.get_attribute("datetime").replace("Z", "+00:00"))
    local = utc.astimezone(ZoneInfo("Asia/Kathmandu"))
    hour = f"({local.hour}|{local.hour % 12 or 12})"  # 24- or 12-hour, as the language has it
    expect(since).to_contain_text(re.compile(rf"\b{hour}:{local:%M}\b"))
    assert "UTC" not in since.inner_text() and "UTC" in since.get_attribute("title")
    context.close()
