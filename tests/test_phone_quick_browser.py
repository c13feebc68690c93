"""Quick entry on a phone and from a keyboard (issue 27), in Debian's chromium against a real
``scorekeeper serve`` (test_pad_offline's ``served``, one for the module).

- the other player's count shows as typed ("Bor: 25") above the keypad, and the saved notice
  says the hand as the sheet's list does;
- with 30-letter names Add stays on the first screen at 390 x 844 and 360 x 740, in all six
  languages (screenshots ``tests/artifacts/phone-<lang>-quick-360.png``);
- under an Oklahoma upcard only the chips within its knock limit are offered;
- a four-player deal has a chip pad per game: 7 taps;
- from the sheet, a hand takes at most 12 keys (Tab, Enter, digits).
"""

from __future__ import annotations

import re

import pytest
from browser_kit import WAIT, Words, overflow, watch_errors
from playwright.sync_api import expect
from test_pad_browser import ARTIFACTS
from test_pad_offline import SIZES, pytestmark, served, stored_hands, until

from api.i18n import LANGUAGES

__all__ = ["pytestmark", "served"]  # the module's skip mark and its server fixture

LONG = ("Anastazija Kovačević-Novakova", "Borislava Zupančič-Hrovatová")
"""Two names of 29 and 28 letters."""


def phone(browser, size: str = "360", lang: str = "en"):
    context = browser.new_context(
        viewport=SIZES[size], device_scale_factor=1, is_mobile=True, has_touch=True, locale=lang
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    watch_errors(page)
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def begin(page, url: str, names, words: Words, preset: str = "") -> str:
    """A new game of ``names`` (the first deals) under ``preset``: the sheet's URL."""
    page.goto(url + "/")
    for i, name in enumerate(names):
        page.fill(f"#player_{i}", name)
    page.locator("label.choice", has_text=names[0]).first.click()
    if preset:
        page.locator(f"input[name=preset][value={preset}]").check()
    page.get_by_role("button", name=words("Start the game")).click()
    page.wait_for_url(re.compile(r"/games/[\w-]+$"))
    return page.url


def entered(hand: dict) -> tuple[int, int, int]:
    """A quick hand as stored: (knocker, knocker's deadwood, defender's deadwood)."""
    return hand["knocker"], hand["knocker_deadwood"], hand["defender_deadwood"]


def on_first_screen(page, locator, size: str) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= SIZES[size]["height"]


def test_the_count_shows_as_typed_and_the_notice_says_the_hand(browser, served):
    url, __ = served
    page = phone(browser)
    words = Words("en")
    try:
        sheet = begin(page, url, ("Ana", "Bor"), words)
        page.get_by_role("link", name="+ Quick hand").click()
        page.locator("[data-chip-knocker='0'][data-chip-deadwood='3']").click()
        page.locator("[data-key='2']").click()
        page.locator("[data-key='5']").click()
        count = page.locator("[data-typed-count]")
        expect(count).to_have_text(words("%(name)s: %(points)s", name="Bor", points=25))
        assert count.bounding_box()["y"] < page.locator(".keypad").bounding_box()["y"]
        page.locator("[data-pad-add]").click()
        expect(page.locator("[data-echo]")).to_have_text(
            words("knock") + " " + words("%(winner)s knocked: %(points)s", winner="Ana", points=22),
            ignore_case=True,
        )
        assert page.url.startswith(sheet)
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_long_names_keep_add_on_the_first_screen(browser, served, lang):
    url, __ = served
    words = Words(lang)
    page = phone(browser, "390", lang)
    try:
        sheet = begin(page, url, LONG, words)
        for size in ("390", "360"):
            page.set_viewport_size(SIZES[size])
            page.goto(sheet + "/hand?mode=quick")
            add = page.locator("[data-pad-add]")
            expect(add).to_be_visible()
            assert on_first_screen(page, add, size), (size, add.bounding_box())
            assert not overflow(page)
        page.locator("[data-chip-knocker='1'][data-chip-deadwood='4']").click()
        page.locator("[data-key='1']").click()
        page.locator("[data-key='7']").click()
        assert on_first_screen(page, page.locator("[data-pad-add]"), "360")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"phone-{lang}-quick-360.png"), full_page=True)
    finally:
        page.context.close()


def test_an_oklahoma_upcard_offers_only_the_chips_within_its_limit(browser, served):
    url, __ = served
    page = phone(browser)
    try:
        sheet = begin(page, url, ("Ana", "Bor"), Words("en"), preset="oklahoma")
        page.goto(sheet + "/hand?mode=quick")
        shown = page.locator("[data-chip-knocker='0']:visible")
        expect(shown).to_have_count(11)  # not known yet: Gin to 10
        for upcard, limit in (("5h", 5), ("Ac", 0), ("Ks", 10), ("2d", 2)):
            page.select_option("#upcard", upcard)
            expect(shown).to_have_count(limit + 1)
            expect(page.locator("[data-chip-knocker='1']:visible")).to_have_count(limit + 1)
    finally:
        page.context.close()


def test_a_four_player_deal_has_a_chip_pad_for_each_game(browser, served):
    url, db = served
    page = phone(browser)
    try:
        sheet = begin(page, url, ("Ana", "Bor", "Cy", "Dan"), Words("en"))
        page.get_by_role("link", name="+ Enter the deal").click()
        pads = page.locator("[data-quick-pad]")
        expect(pads).to_have_count(2)
        taps, expected = 0, []
        for pad, (deadwood, keys) in zip(pads.all(), (("0", "12"), ("4", "30")), strict=True):
            chip = pad.locator(f".chips >> nth=0 >> [data-chip-deadwood='{deadwood}']")
            knocker = int(chip.get_attribute("data-chip-knocker"))
            expected.append((knocker, int(deadwood), int(keys)))
            chip.click()
            for key in keys:
                pad.locator(f"[data-key='{key}']").click()
            taps += 1 + len(keys)
        page.locator("[data-pad-add]").click()
        taps += 1
        assert taps == 7
        expect(page.locator("[data-saved]")).to_be_visible()
        assert page.url.startswith(sheet)
        [(__, deal)] = stored_hands(db, sheet.rsplit("/", 1)[1])
        assert [entered(game) for game in deal["games"]] == expected, deal
    finally:
        page.context.close()


def test_a_hand_from_the_sheet_takes_at_most_twelve_keys(browser, served):
    url, db = served
    page = phone(browser, "390")
    try:
        sheet = begin(page, url, ("Ana", "Bor"), Words("en"))
        page.goto(sheet)
        pressed = []

        def key(name: str) -> None:
            page.keyboard.press(name)
            pressed.append(name)

        quick = page.get_by_role("link", name="+ Quick hand")
        while not quick.evaluate("(link) => link === document.activeElement"):
            key("Tab")
            assert len(pressed) < 12, pressed
        key("Enter")
        expect(page.locator("[data-quick-pad]")).to_be_visible()
        until(page, "() => document.activeElement.matches('[data-quick-pad]')")
        for name in ("ArrowDown", "3", "2", "5", "Enter"):  # Bor knocks with 3, Ana has 25
            key(name)
        expect(page.locator("[data-saved]")).to_be_visible()
        assert len(pressed) <= 12, pressed
        hands = stored_hands(db, sheet.rsplit("/", 1)[1])
        assert [entered(hand) for __, hand in hands] == [(1, 3, 25)]
    finally:
        page.context.close()
