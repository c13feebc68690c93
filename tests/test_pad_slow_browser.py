"""A save on a slow network lands on the sheet, and a phone without a connection offers
nothing that cannot load (issue 26, item 9), at 360 x 740.

A real ``scorekeeper serve`` (test_pad_offline's ``served``) and Debian's chromium. A slow
network is chromium's own throttling (the DevTools protocol's
``Network.emulateNetworkConditions``): its ``latency`` holds every request the page makes
that long before its answer, a redirect's next request too, so it is the round trip. No
connection is the browser context's offline switch. Every wait is for a condition.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect
from test_pad_browser import ARTIFACTS
from test_pad_offline import pytestmark, served, start, stored_hands, until, worker_ready
from test_pad_provisional import phone
from test_pad_quick_browser import new_game

__all__ = ["phone", "pytestmark", "served"]  # fixtures, and the module's skip mark

MESSAGES = """(() => {
  // Every change of what the page tells about a save, noted in the tab's sessionStorage
  // (it outlives the page): the form's note, the queue's heading once nothing waits ("All
  // hands synced", "No connection"; while hands wait it lists them), the sheet's notice.
  const note = () => {
    const shown = ["[data-offline-note]", ".queue.done h2", ".queue.offline h2", "#main > .notice"]
      .flatMap((sel) => Array.from(document.querySelectorAll(sel)))
      .filter((el) => el.checkVisibility()).map((el) => el.textContent.trim());
    const seen = JSON.parse(sessionStorage.getItem("messages") || "[]");
    const last = JSON.stringify(seen[seen.length - 1] || null);
    if (JSON.stringify(shown) !== last) {
      seen.push(shown);
      sessionStorage.setItem("messages", JSON.stringify(seen));
    }
  };
  document.addEventListener("DOMContentLoaded", () => {
    note();
    new MutationObserver(note).observe(document.body,
      { subtree: true, childList: true, attributes: true, characterData: true });
  });
})()"""

KEPT = "No answer from the server yet: this hand is kept on this phone and will be sent."


def throttle(page, cdp, seconds: float) -> None:
    """Every request of ``page`` answered ``seconds`` late (0: at once)."""
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": seconds * 1000,
            "downloadThroughput": -1,
            "uploadThroughput": -1,
        },
    )


def slow_phone(browser, served):
    """A phone on a new game, its messages noted, and a DevTools session to slow it."""
    page, sheet, game_id, db = new_game(browser, served)
    page.context.add_init_script(MESSAGES)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    return page, cdp, sheet, game_id, db


def type_knock(page, sheet: str, who: int, mine: int, theirs: str) -> None:
    """The quick form, opened at full speed, with a knock typed (not yet added)."""
    page.goto(sheet + "/hand?mode=quick")
    expect(page.locator("[data-quick-pad]")).to_be_visible()
    page.locator(f"[data-chip-knocker='{who}'][data-chip-deadwood='{mine}']").click()
    for digit in theirs:
        page.locator(f"[data-key='{digit}']").click()


def lands(page, sheet: str, n: int, seconds: float) -> None:
    """The save landed: the sheet with "Hand n added." and its Undo, nothing else said."""
    notice = page.locator("[data-saved]")
    expect(notice).to_contain_text(f"Hand {n} added.", timeout=(8 * seconds + 30) * 1000)
    assert page.url == f"{sheet}?done=added&n={n}"
    expect(notice.get_by_role("button", name="Undo")).to_be_enabled()
    expect(page.locator(".queue")).to_be_hidden()


def messages(page) -> list[list[str]]:
    seen = page.evaluate("JSON.parse(sessionStorage.getItem('messages') || '[]')")
    crowded = [shown for shown in seen if len(shown) > 1]
    assert not crowded, f"more than one message at a time: {crowded}"
    return seen


def test_saves_land_on_the_sheet_at_round_trips_of_1_2_4_and_8_s(browser, served):
    """Four phones, each on a game of its own at one round trip, add a hand at once: the
    four saves are under way together (each phone waits for its own: the test as long as
    its slowest), and each lands. Those of two round trips over 3 s say first that the
    hand is kept on the phone; the one at 8 s is seen waiting in the queue."""
    phones = {seconds: slow_phone(browser, served) for seconds in (1, 2, 4, 8)}
    began = {}
    for seconds, (page, cdp, sheet, __, __) in phones.items():
        type_knock(page, sheet, 0, 2, "30")
        throttle(page, cdp, seconds)
        began[seconds] = time.monotonic()
        page.get_by_role("button", name="Add to the sheet").click(no_wait_after=True)
    slowest = phones[8][0]
    expect(slowest.locator("[data-offline-note]")).to_have_text(KEPT)
    expect(slowest.locator(".queue h2")).to_have_text("Waiting to sync: 1 hand")
    slowest.screenshot(path=str(ARTIFACTS / "pad-slow-kept-360.png"), full_page=True)
    took = {}
    for seconds, (page, cdp, sheet, game_id, db) in phones.items():
        lands(page, sheet, 1, seconds)
        took[seconds] = round(time.monotonic() - began[seconds], 1)
        throttle(page, cdp, 0)
        assert [hand["knocker_deadwood"] for __, hand in stored_hands(db, game_id)] == [2]
        seen = messages(page)
        if seconds > 1:  # two round trips before the answer, over 3 s
            assert [KEPT] in seen, seconds
    assert seen.index([KEPT]) < seen.index(["Saved. Opening the sheet…"])  # the 8 s phone's
    slowest.screenshot(path=str(ARTIFACTS / "pad-slow-landed-360.png"), full_page=True)
    print(f"from Add to the sheet's notice: {took}")
    for page, *__ in phones.values():
        page.context.close()


def test_offline_the_sheet_offers_no_undo_and_no_page_it_cannot_open(browser, served):
    page, sheet, game_id, __ = new_game(browser, served)  # no service worker: no page kept
    type_knock(page, sheet, 0, 2, "30")
    page.get_by_role("button", name="Add to the sheet").click()
    lands(page, sheet, 1, 0)
    # the sheet's scripts loaded (module scripts come after its words): offline before
    # then, a module fails to load and nothing would watch the connection
    page.wait_for_load_state("load")
    page.context.set_offline(True)
    why = page.locator("#offline-why")
    expect(why).to_have_text(
        "No connection: Undo, corrections and pages not kept on this phone wait until it returns."
    )
    undo = page.locator("[data-saved]").get_by_role("button", name="Undo")
    expect(undo).to_be_disabled()
    expect(page.get_by_role("button", name="Undo the last hand (1)")).to_be_disabled()
    assert undo.get_attribute("aria-describedby") == "offline-why"
    page.locator("header.top summary").click()  # a phone's menu holds "Games": one tap
    for name in ("+ Quick hand", "Hand 1 details", "Phones and hand-over", "Games"):
        link = page.get_by_role("link", name=name)
        expect(link).to_have_attribute("aria-disabled", "true")
        assert link.get_attribute("href") is None
    page.screenshot(path=str(ARTIFACTS / "pad-offline-sheet-360.png"), full_page=True)
    page.context.set_offline(False)
    expect(why).to_have_count(0)
    expect(undo).to_be_enabled()
    expect(page.get_by_role("link", name="+ Quick hand")).to_have_attribute(
        "href", f"/games/{game_id}/hand?mode=quick"
    )
    page.context.close()


def test_a_kept_form_older_than_the_sheet_numbers_and_deals_as_the_sheet_will(phone, served):
    """The worker's copy of the hand form is from before the last save (it had not
    fetched it again when the connection went): put back here, it opens offline."""
    page = phone  # with its service worker
    url, db = served
    sheet = start(page, url)
    game_id = sheet.rsplit("/", 1)[1]
    worker_ready(page)
    form_url = f"{sheet}/hand?mode=quick"
    before = page.evaluate("(u) => caches.match(u).then((r) => r.text())", form_url)
    assert 'data-hands="0"' in before and "Ana</bdi> deals this hand." in before
    page.get_by_role("link", name="+ Quick hand").click()
    page.locator("[data-chip-knocker='1'][data-chip-deadwood='0']").click()  # Bor: gin
    page.locator("[data-key='9']").click()
    page.get_by_role("button", name="Add to the sheet").click()
    lands(page, sheet, 1, 0)
    # the worker keeps the sheet and its forms anew (hand 1 on them), then loses the form's
    for kept, mark in ((sheet, 'data-live-version="1"'), (form_url, 'data-hands="1"')):
        until(
            page,
            f"() => caches.match({kept!r}).then((r) => r && r.text())"
            f".then((text) => Boolean(text && text.includes({mark!r})))",
        )
    page.evaluate(
        """async ([u, text]) => {
        const cache = await caches.open('scorepad-v1');
        await cache.put(u, new Response(text, {headers: {'Content-Type': 'text/html'}}));
    }""",
        [form_url, before],
    )
    page.context.set_offline(True)
    page.reload()  # the sheet kept for offline has no save's notice, nor its Undo
    expect(page.locator("h1")).to_have_text("Ana vs Bor")
    expect(page.locator("[data-saved]")).to_have_count(0)
    expect(page.locator(".player .total")).to_have_text(["0", "34"])
    page.get_by_role("link", name="+ Quick hand").click()
    expect(page.locator("h1")).to_have_text("Hand 2")
    dealer = page.locator("[data-dealer-line]")
    expect(dealer).to_have_text("Bor deals this hand.")  # the winner deals (standard)
    page.screenshot(path=str(ARTIFACTS / "pad-offline-form-360.png"), full_page=True)
    page.locator("label.choice", has_text=re.compile("^Void")).click()
    page.get_by_role("button", name="Add to the sheet").click()
    expect(page.locator(".queue li")).to_have_count(1)
    assert "Hand 2: Void" in page.locator(".queue li").inner_text()
    expect(page.locator("h1")).to_have_text("Hand 3")
    expect(dealer).to_have_text("Bor deals this hand.")  # a void hand: the same dealer
    page.locator("[data-chip-knocker='0'][data-chip-deadwood='3']").click()
    page.locator("[data-key='2']").click()
    page.locator("[data-key='0']").click()
    page.get_by_role("button", name="Add to the sheet").click()
    expect(page.locator("h1")).to_have_text("Hand 4")
    expect(dealer).to_have_text("Ana deals this hand.")  # Ana won hand 3
    page.screenshot(path=str(ARTIFACTS / "pad-offline-kept-360.png"), full_page=True)
    page.context.set_offline(False)
    expect(page.locator(".queue h2")).to_have_text("All hands synced")
    assert [hand.get("kind") for __, hand in stored_hands(db, game_id)] == [
        "quick",
        "void",
        "quick",
    ]
