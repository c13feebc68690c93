"""Quick entry, saving and the sheet after a save, on a phone (issue 21), at 360 x 740.

A real ``scorekeeper serve`` (:func:`serve_kit.spawn`, via test_pad_offline's
``served``) and Debian's chromium. Each tap the player makes is counted: an
ordinary knock is at most 4 (Ana's chip "3", the keypad's 2 and 5, Add). A slow
server is a held POST (``page.route``), released after 4 s; round trips of 1 to 8 s are
test_pad_slow_browser's.
"""

from __future__ import annotations

import contextlib
import re
import time

from browser_kit import WAIT, watch_errors
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from test_pad_browser import ANA, ARTIFACTS, BOR, tap
from test_pad_offline import SIZES, pytestmark, served, start, stored_hands, until

__all__ = ["pytestmark", "served"]  # the module's skip mark and its server fixture


def phone(browser):
    """A phone at 360 x 740 whose requests all pass ``page.route`` (no service worker:
    the queue keeps its hands in the page's IndexedDB all the same)."""
    context = browser.new_context(
        viewport=SIZES["360"],
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
        service_workers="block",
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    watch_errors(page)
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def new_game(browser, served):
    """A phone on a new game of Ana and Bor: the page, the sheet's URL, the game's id
    and the server's database."""
    url, db = served
    page = phone(browser)
    sheet = start(page, url)
    return page, sheet, sheet.rsplit("/", 1)[1], db


def narrow(page) -> None:
    """Nothing wider than the phone."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, page.url


def test_an_ordinary_knock_is_four_taps_with_the_score_live(browser, served):
    page, __, game_id, db = new_game(browser, served)
    page.get_by_role("link", name="+ Quick hand").click()
    expect(page.locator("[data-quick-pad]")).to_be_visible()
    # the phone's keyboard stays shut: the deadwood fields ask for none
    for field in ("#knocker_deadwood", "#defender_deadwood"):
        assert page.get_attribute(field, "inputmode") == "none"
    narrow(page)
    live = page.locator("[data-live-preview]")
    taps = 0

    def press(locator) -> None:
        """A tap on ``locator``, which is on the first screen (no scrolling to it)."""
        nonlocal taps
        box = locator.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= SIZES["360"]["height"]
        locator.click()
        taps += 1

    press(page.locator("[data-chip-knocker='0'][data-chip-deadwood='3']"))  # Ana knocks with 3
    assert page.locator("input[name=knocker][value='0']").is_checked()
    assert page.locator("input[name=kind][value='knock']").is_checked()
    assert page.input_value("#knocker_deadwood") == "3"
    press(page.locator("[data-key='2']"))
    expect(live).to_have_text(  # 3 against 2: Bor undercuts
        "Undercut! Bor scores 26. Totals after this hand: Ana 0, Bor 26."
    )
    press(page.locator("[data-key='5']"))
    assert page.input_value("#defender_deadwood") == "25"
    expect(live).to_have_text("Ana knocks and scores 22. Totals after this hand: Ana 22, Bor 0.")
    # the server's preview says the same
    assert page.evaluate("document.activeElement.tagName") != "INPUT"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "pad-quick-keypad-360.png"), full_page=True)
    press(page.locator("[data-quick-pad]").get_by_role("button", name="Add", exact=True))
    assert taps == 4
    expect(page.locator("[data-saved]")).to_contain_text("Hand 1 added.")
    expect(page.locator(".player .total")).to_have_text(["22", "0"])
    assert [hand["knocker_deadwood"] for __, hand in stored_hands(db, game_id)] == [3]
    # a gin: its player's chip, and the other's count
    page.get_by_role("link", name="+ Quick hand").click()
    page.locator("[data-chip-knocker='1'][data-chip-deadwood='0']").click()
    assert page.locator("input[name=kind][value='gin']").is_checked()
    page.locator("[data-key='9']").click()
    expect(live).to_have_text("Gin! Bor scores 34. Totals after this hand: Ana 22, Bor 34.")
    page.locator("[data-key='back']").click()
    expect(live).to_have_text("")  # no count yet: nothing to show
    page.context.close()


def test_a_save_lands_on_the_sheet_and_its_undo_takes_it_back(browser, served):
    page, sheet, game_id, db = new_game(browser, served)
    page.get_by_role("link", name="+ Quick hand").click()
    page.locator("[data-chip-knocker='1'][data-chip-deadwood='4']").click()
    page.locator("[data-key='1']").click()
    page.locator("[data-key='4']").click()
    page.get_by_role("button", name="Add to the sheet").click()
    notice = page.locator("[data-saved]")
    expect(notice).to_contain_text("Hand 1 added.")
    assert page.url.split("?")[0] == sheet
    assert notice.get_by_role("link").count() == 0  # counts only: no showdown
    narrow(page)
    page.screenshot(path=str(ARTIFACTS / "pad-saved-notice-360.png"), full_page=True)
    notice.get_by_role("button", name="Undo").click()
    expect(page.locator(".notice")).to_contain_text("Hand 1 taken back.")
    assert len(stored_hands(db, game_id)) == 2  # the hand, and its undo
    expect(page.locator(".player .total")).to_have_text(["0", "0"])
    # a hand by its cards: the notice links to its showdown
    page.get_by_role("link", name="+ Tap the cards").click()
    page.locator("label.choice", has_text="Ana").click()
    tap(page, "p0", ANA)
    tap(page, "p1", BOR)
    page.get_by_role("button", name="Add to the sheet").click()
    expect(notice).to_contain_text("Hand 1 added.")
    assert page.url.split("?")[0] == sheet
    narrow(page)
    page.screenshot(path=str(ARTIFACTS / "pad-saved-cards-notice-360.png"), full_page=True)
    notice.get_by_role("link", name="See the showdown").click()
    expect(page.locator(".showdown")).to_contain_text("Ana knocks and scores 1")
    page.context.close()


def test_a_slow_save_shows_it_is_saving_then_keeps_the_hand(browser, served):
    page, sheet, game_id, db = new_game(browser, served)
    page.goto(sheet + "/hand?mode=quick")
    until(page, "() => Boolean(document.querySelector('[data-quick-pad]:not([hidden])'))")
    held = []

    def hold(route) -> None:  # the server answers nothing until released
        if route.request.method == "POST":
            held.append((time.monotonic(), route))
        else:
            route.continue_()

    page.route("**/hand", hold)
    page.locator("[data-chip-knocker='0'][data-chip-deadwood='2']").click()
    page.locator("[data-key='3']").click()
    page.locator("[data-key='0']").click()
    # The page notes what it shows and when (its own clock: a busy machine may run this
    # test's checks late, the page's 3 s are the page's).
    page.evaluate("""() => {
      const form = document.querySelector("form[data-quick]");
      window.seen = [];
      form.addEventListener("submit", () => window.seen.push(["sent", performance.now()]));
      new MutationObserver(() => {
        const busy = form.querySelector("button[aria-busy=true]");
        if (busy) window.seen.push(["busy", performance.now(), busy.textContent, busy.disabled]);
        const note = form.querySelector("[data-offline-note]");
        if (note) window.seen.push(["kept", performance.now(), note.textContent]);
      }).observe(form, { subtree: true, childList: true, attributes: true, characterData: true });
    }""")
    button = page.get_by_role("button", name="Add to the sheet")
    button.click(no_wait_after=True)  # the page's request is held: do not wait for it
    kept = page.locator("[data-offline-note]")
    expect(kept).to_have_text(
        "No answer from the server yet: this hand is kept on this phone and will be sent."
    )
    seen = page.evaluate("window.seen")
    sent = next(when for what, when, *__ in seen if what == "sent")
    # at once: the button says it is saving, is busy and cannot be pressed again
    assert any(what == "busy" and rest == ["Saving…", True] for what, __, *rest in seen), seen
    saving = min(when for what, when, *__ in seen if what == "busy")
    assert saving - sent < 1000, seen
    kept_at = min(when for what, when, *__ in seen if what == "kept")
    assert kept_at - sent >= 3000, seen  # not before 3 s
    narrow(page)
    page.screenshot(path=str(ARTIFACTS / "pad-saving-kept-360.png"), full_page=True)
    expect(page.get_by_role("button", name="Add to the sheet")).to_be_enabled()  # ready again
    # the network comes back after 4 s: the page's own request, still waiting, lands
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not stored_hands(db, game_id):
        for when, route in list(held):
            if time.monotonic() - when >= 4:
                held.remove((when, route))
                with contextlib.suppress(PlaywrightError):  # the page stopped waiting for it
                    route.continue_()
        page.wait_for_timeout(200)
    page.unroute("**/hand")
    hands = stored_hands(db, game_id)
    assert [hand["knocker_deadwood"] for __, hand in hands] == [2]  # once
    notice = page.locator("[data-saved]")  # on the sheet, as any save: its Undo, one message
    expect(notice).to_contain_text("Hand 1 added.")
    expect(notice.get_by_role("button", name="Undo")).to_be_enabled()
    expect(page.locator(".queue")).to_be_hidden()
    expect(page.locator(".player .total")).to_have_text(["28", "0"])
    page.context.close()


def test_while_a_hand_waits_the_live_score_leaves_the_totals_out(browser, served):
    """The totals after a hand waiting on the phone are not known to the form: the
    next hand's live score is its own alone, and a kept hand clears the form's."""
    page, __, __, __ = new_game(browser, served)
    page.get_by_role("link", name="+ Quick hand").click()
    expect(page.locator("[data-quick-pad]")).to_be_visible()
    live = page.locator("[data-live-preview]")
    page.context.set_offline(True)
    page.locator("[data-chip-knocker='0'][data-chip-deadwood='3']").click()
    page.locator("[data-key='2']").click()
    page.locator("[data-key='5']").click()
    expect(live).to_have_text("Ana knocks and scores 22. Totals after this hand: Ana 22, Bor 0.")
    page.get_by_role("button", name="Add to the sheet").click()
    expect(page.locator("h1")).to_have_text("Hand 2")  # kept: the next hand's form
    expect(live).to_have_text("")
    assert page.locator(".chip[aria-pressed=true]").count() == 0
    page.locator("[data-chip-knocker='1'][data-chip-deadwood='4']").click()
    page.locator("[data-key='1']").click()
    page.locator("[data-key='0']").click()
    expect(live).to_have_text("Bor knocks and scores 6.")
    page.context.close()


def test_a_link_tapped_while_a_kept_hand_goes_out_is_followed(browser, served):
    # The sheet reloads itself once the hands kept on the phone are on it. A player who
    # taps "+ Quick hand" while the last one goes out must get the form, not the sheet
    # again: here the kept hand's request and the form's page are held, the hand stored
    # first, then the form's page let through as the sheet takes the hand's answer.
    page, sheet, game_id, db = new_game(browser, served)
    page.goto(sheet + "/hand?mode=quick")
    until(page, "() => Boolean(document.querySelector('[data-quick-pad]:not([hidden])'))")
    posts, forms = [], []

    def hold(route) -> None:
        (posts if route.request.method == "POST" else forms).append(route)

    page.route("**/hand", hold)
    page.locator("[data-chip-knocker='0'][data-chip-deadwood='2']").click()
    page.locator("[data-key='3']").click()
    page.locator("[data-key='0']").click()
    page.get_by_role("button", name="Add to the sheet").click(no_wait_after=True)
    expect(page.locator("[data-offline-note]")).to_be_visible()  # kept on this phone
    deadline = time.monotonic() + 15
    while len(posts) < 2 and time.monotonic() < deadline:  # the queue sends it at once
        page.wait_for_timeout(100)
    for route in posts:
        route.abort()  # both requests failed: the queue has the hand
    posts.clear()
    page.unroute("**/hand")
    page.route("**/hand", hold)
    page.route("**/hand?mode=quick", hold)
    page.goto(sheet)  # the sheet sends the kept hand: held
    deadline = time.monotonic() + 15
    while not posts and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert posts, "the sheet did not send the kept hand"
    page.get_by_role("link", name="+ Quick hand").click(no_wait_after=True)
    deadline = time.monotonic() + 15
    while not forms and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert forms, "the form's page was not asked for"
    # The kept hand goes out and is stored; the browser follows the answer's redirect to
    # the sheet. That request is as far as the sheet's script gets while the form's
    # navigation is held (the held navigation holds the redirect's end too): the rest,
    # and the sheet's reload before the fix, comes once the form's page is let through.
    with page.expect_request(re.compile(r"/games/[\w-]+\?done=added")):
        posts.pop().continue_()
    assert stored_hands(db, game_id)
    for route in forms:
        with contextlib.suppress(PlaywrightError):  # a page given up has no route left
            route.continue_()
    expect(page).to_have_url(f"{sheet}/hand?mode=quick")
    expect(page.locator("[data-quick-pad]")).to_be_visible()
    assert [hand["knocker_deadwood"] for __, hand in stored_hands(db, game_id)] == [2]
    page.context.close()
