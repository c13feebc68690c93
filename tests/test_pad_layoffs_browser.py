"""What was laid down, chosen in chromium at 390 x 844 (and looked at 360 x 740).

One ``scorekeeper serve`` for the module (:func:`serve_kit.spawn`, temporary database)
and the session's Playwright chromium. The hand is the one of test_pad_layoffs.py:
Ana may lay down her threes as a set (deadwood 6, nothing of Bor's fits: 53 - 6 = 47,
the best) or A-2-3 of hearts (deadwood 9; Bor's 4h then 5h fit it). The table chose
the run and Bor laid off only the 4h: Bor 53 - 4 = 49, Ana scores 49 - 9 = 40.
Screenshots go to tests/artifacts/ (ignored by git).
"""

from __future__ import annotations

import os

import pytest
from browser_kit import CHROMIUM, WAIT
from playwright.sync_api import expect
from serve_kit import spawn, stop_soon
from test_pad_browser import ARTIFACTS, expect_totals, start_game

ANA = "Ah 2h 3h 3c 3d 9s 9d 9c As 2c"
BOR = "4h 5h Kc Kd Ks Js Qs 8d 6s Tc"

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with pytest.MonkeyPatch.context() as env:
        env.setenv("SCOREKEEPER_SECRET_KEY", "pad-layoffs-browser-tests")
        process, url = spawn(tmp_path_factory.mktemp("layoffs") / "layoffs.db", workers=1)
    yield url
    stop_soon(process, f"{__name__}'s server")


def shot(target, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def type_the_hand(page, server) -> None:
    """A new game, and Ana's knock typed card by card, ready to be checked."""
    start_game(page, server, stake="")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="+ Tap the cards").click()
    page.locator("label.choice", has_text="Ana").click()
    page.fill("#p0-typed", ANA)
    page.fill("#p1-typed", BOR)
    page.locator("#live-p1").get_by_text("deadwood 53").wait_for()


def test_choosing_a_worse_arrangement_and_one_layoff_scores_them(browser, server):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)

    type_the_hand(page, server)
    page.get_by_role("button", name="Check the hand").click()

    choice = page.locator("[data-play-choice]")
    radios = choice.locator("input[name=arrangement]")
    expect(radios).to_have_count(2)
    expect(radios.nth(0)).to_be_checked()  # the set of threes, the best
    assert "Ana knocks and scores 47" in page.inner_text("#result")
    expect(page.locator("[data-show-layoffs]")).to_be_hidden()  # pad.js shows layoffs at once

    choice.locator("label.arrangement", has_text="deadwood 9").click()
    boxes = choice.locator("input[name=layoffs]")
    expect(boxes).to_have_count(2)
    expect(boxes.nth(0)).to_be_checked()
    expect(boxes.nth(1)).to_be_checked()  # 4h and 5h, the best reply
    choice.locator("label.layoff", has=page.locator("[aria-label='five of hearts']")).click()
    expect(boxes.nth(1)).not_to_be_checked()
    expect(page.locator("#result .stale-note")).to_be_visible()
    page.get_by_role("button", name="Check the hand").click()

    result = page.locator("#result")
    expect(result).to_contain_text("Ana knocks and scores 40")
    expect(result).to_contain_text("40 deadwood difference = 40")
    expect(result).to_contain_text(
        "Ana could have knocked with 3 less deadwood by melding 3♣ 3♦ 3♥: 12 points."
    )
    expect(result).to_contain_text("Bor could have laid off 5♥: 5 points.")
    expect(radios.nth(1)).to_be_checked()
    choice.scroll_into_view_if_needed()
    shot(choice, "pad-arrangement-390")
    shot(result, "pad-missed-layoff-preview-390")

    page.get_by_role("button", name="Add to the sheet").click()
    expect(page.locator("main")).to_contain_text("Hand 1 added")
    page.get_by_role("link", name="See the showdown").click()
    expect(page.locator(".hindsight")).to_contain_text("Bor could have laid off 5♥: 5 points.")
    page.screenshot(path=str(ARTIFACTS / "pad-missed-layoff-hand-390.png"), full_page=True)
    page.get_by_role("link", name="Back to the sheet").first.click()
    expect_totals(page, ["40", "0"])
    row = page.locator("#hand-1")
    expect(row).to_contain_text("Ana knocked: 40")
    expect(row.locator(".missed")).to_contain_text("Bor could have laid off 5♥: 5 points.")
    page.screenshot(path=str(ARTIFACTS / "pad-missed-layoff-sheet-390.png"), full_page=True)

    # the narrower phone: the sheet, and the declared play when correcting the hand
    page.set_viewport_size({"width": 360, "height": 740})
    page.screenshot(path=str(ARTIFACTS / "pad-missed-layoff-sheet-360.png"), full_page=True)
    page.goto(page.url.split("?")[0] + "/hands/1/edit")
    expect(radios.nth(1)).to_be_checked()
    expect(boxes.nth(0)).to_be_checked()
    expect(boxes.nth(1)).not_to_be_checked()
    choice.scroll_into_view_if_needed()
    shot(choice, "pad-arrangement-360")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page scrolls sideways: {width}px"
    context.close()
    assert not errors, errors


def test_a_choice_made_before_the_script_ran_shows_its_layoffs(browser, server):
    # A slow phone: the arrangement is tapped while pad.js is still on its way (held here
    # until after the tap); once it runs, the layoffs that fit the tapped choice are
    # listed, the best ticked, and the score shown is marked out of date.
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, service_workers="block", is_mobile=True
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    type_the_hand(page, server)
    held = []
    page.route("**/pad.js", lambda route: held.append(route))
    page.get_by_role("button", name="Check the hand").click()

    choice = page.locator("[data-play-choice]")
    choice.locator("label.arrangement", has_text="deadwood 9").click()
    boxes = choice.locator("input[name=layoffs]")
    expect(boxes).to_have_count(0)  # the server's list is the threes': nothing fits
    assert held, "pad.js was not held"
    for route in held:
        route.continue_()
    expect(boxes).to_have_count(2)
    expect(boxes.nth(0)).to_be_checked()
    expect(boxes.nth(1)).to_be_checked()
    expect(page.locator("#result .stale-note")).to_be_visible()
    context.close()
    assert not errors, errors
