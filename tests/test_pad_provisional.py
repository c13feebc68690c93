"""Hands waiting on the phone are scored there: the sheet's provisional totals (issue 21).

Playwright drives Debian's chromium at 360 x 740 against a real ``scorekeeper
serve`` (the offline harness of :mod:`test_pad_offline`); the network is cut with
the browser context's offline switch. While hands wait, the sheet's board shows the
totals, boxes, next dealer and game end that ``pad-score.js`` gives after the sheet
the server sent, marked provisional, with Undo and the hand links (correct, void)
disabled and a sentence saying why; once they are sent, the page shows the server's
figures, and those are what the phone showed.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request

import pytest
from browser_kit import AXE, WAIT, axe_problems
from playwright.sync_api import expect
from test_pad_browser import ROOT
from test_pad_offline import (  # the offline tests' harness, their skip and server
    SIZES,
    enter_deal,
    new_page,
    pytestmark,  # noqa: F401
    quick,
    served,  # noqa: F401
    shots,
    start,
    worker_ready,
)

LOCKED = "Undo, correct and void wait until the hands on this phone are sent."

RETRY_MS = int(
    re.search(r"^const RETRY_MS = (\d+);", (ROOT / "api/static/pad-offline.js").read_text(), re.M)[
        1
    ]
)
"""How often (ms) a page with hands sent asks the server again (pad-offline.js)."""


@pytest.fixture
def phone(browser):
    """A phone-sized page (360 x 740); no script error may occur on it."""
    page = new_page(browser)
    page.set_viewport_size(SIZES["360"])
    yield page
    page.context.close()
    assert not page.errors, f"browser errors: {page.errors}"


def game_with_a_hand(page, url: str, mine: str, theirs: str) -> tuple[str, str]:
    """A new game of Ana and Bor with Bor's knock (``mine`` against ``theirs``) on the
    server's sheet, the sheet open: its address and the game's id."""
    sheet = start(page, url)
    page.get_by_role("link", name="+ Quick hand").click()
    quick(page, "Bor", "Knock", mine, theirs)
    page.goto(sheet)
    return sheet, sheet.rsplit("/", 1)[1]


def api_sheet(url: str, game_id: str) -> dict:
    with urllib.request.urlopen(f"{url}/api/v1/games/{game_id}") as response:
        return json.loads(response.read())


def board(page) -> list[str]:
    return page.locator(".board .player .total").all_inner_texts()


def expect_reloaded(page, hands: int) -> None:
    """Wait until the sheet has reloaded after its hands synced, showing ``hands`` hands.

    It says "All hands synced" before it reloads: read meanwhile, the page may go from
    under the read ("Execution context was destroyed")."""
    expect(page.locator("section.queue[data-reload]")).to_have_attribute("data-hands", str(hands))


def offline_hands(page, sheet: str, typed: list[tuple[str, str, str, str]]) -> None:
    """With the service worker keeping the sheet, type ``typed`` without a connection,
    then open the sheet (the worker's copy)."""
    worker_ready(page)
    page.get_by_role("link", name="+ Quick hand").click()
    # offline only once the form's page has loaded (its scripts with it): cut before, the
    # scripts fail and the taps go to a form they have not set up
    page.wait_for_url(re.compile(r"/hand\?mode=quick$"))
    page.context.set_offline(True)
    for hand in typed:
        quick(page, *hand)
    page.goto(sheet)


def test_waiting_hands_show_provisional_totals_until_the_server_answers(phone, served):  # noqa: F811
    url, _ = served
    page = phone
    sheet, game_id = game_with_a_hand(page, url, "4", "20")
    expect(page.locator("#provisional-note")).to_be_hidden()
    undo = page.get_by_role("button", name="Undo the last hand (1)")
    expect(undo).to_be_enabled()
    before = board(page)

    offline_hands(page, sheet, [("Ana", "Gin", "", "12"), ("Bor", "Knock", "3", "9")])
    note = page.locator("#provisional-note")
    expect(note).to_be_visible()
    expect(note.locator(".badge")).to_have_text("provisional")
    expect(note).to_contain_text(LOCKED)
    expect(page.locator(".queue li .badge")).to_have_text(["waiting to sync"] * 2)
    shown = board(page)
    assert shown != before
    next_line = page.locator("[data-next]").inner_text()
    dealer_chip = page.locator(".board .player", has=page.locator(".dealer-chip")).get_attribute(
        "data-player"
    )
    # Undo and the hand links are off, for assistive technology too.
    expect(undo).to_be_disabled()
    # (offline here: both reasons are named, pad-reach.js's too, in the order they came)
    assert sorted(undo.get_attribute("aria-describedby").split()) == ["locked-why", "offline-why"]
    links = page.locator("table.hands a")
    assert links.count() == 2
    for link in links.all():
        assert link.get_attribute("href") is None
        assert link.get_attribute("aria-disabled") == "true"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    if AXE.exists():  # npm ci --prefix tests
        assert axe_problems(page, "provisional") == []
    shots(page, "provisional")
    page.set_viewport_size(SIZES["360"])

    page.context.set_offline(False)
    expect(page.locator(".queue h2")).to_have_text("All hands synced", timeout=30000)
    expect_reloaded(page, 3)
    expect(page.locator("#provisional-note")).to_be_hidden()
    server = api_sheet(url, game_id)
    assert len(server["hands"]) == 3
    assert board(page) == [str(total) for total in server["totals"]] == shown
    assert page.locator("[data-next]").inner_text() == next_line
    assert (
        page.locator(".board .player", has=page.locator(".dealer-chip")).get_attribute(
            "data-player"
        )
        == dealer_chip
        == str(server["next_dealer"])
    )
    expect(page.get_by_role("button", name="Undo the last hand (3)")).to_be_enabled()
    assert page.locator("table.hands a").first.get_attribute("href")


def test_a_game_that_ends_offline_shows_its_provisional_end(phone, served):  # noqa: F811
    url, _ = served
    page = phone
    sheet, game_id = game_with_a_hand(page, url, "2", "10")
    offline_hands(page, sheet, [("Ana", "Gin", "", "80")])  # 25 + 80: past 100
    note = page.locator("#provisional-note")
    expect(note).to_contain_text("Provisional: the game ends with hand 2.")
    winner = page.locator(".board .player", has=page.locator(".winner-word"))
    assert winner.get_attribute("data-player") == "0"  # Ana
    expect(winner.locator(".name")).to_have_text("Winner: Ana")  # the server's words
    assert page.locator("[data-next]").is_hidden()
    shown = board(page)
    shots(page, "provisional-end")
    page.set_viewport_size(SIZES["360"])

    page.context.set_offline(False)
    expect(page.locator("#over-title")).to_contain_text("Ana", timeout=30000)
    server = api_sheet(url, game_id)
    assert server["over"] and server["players"][server["result"]["winner"]] == "Ana"
    assert board(page) == [str(total) for total in server["totals"]] == shown
    expect(page.locator("#provisional-note")).to_be_hidden()


def test_a_sheet_reloaded_from_the_kept_copy_after_a_sync_reloads_again(phone, served):  # noqa: F811
    """Once its hands are sent the sheet reloads; when the worker cannot reach the server
    for it (here its requests for the sheet fail: the page's own still go through) it shows
    the copy it kept from before them, under "All hands synced". That page owes the hands
    it sent: it asks the server again, and reloads once it answers. The live sheet's
    update, failing too, does not put the kept copy back meanwhile."""
    url, _ = served
    page = phone
    page.clock.install()  # its time runs, and is run on to its next retry below
    sheet, game_id = game_with_a_hand(page, url, "2", "10")
    offline_hands(page, sheet, [("Ana", "Gin", "", "80")])
    seen: list[str] = []  # "load", "check" (the live sheet's version, newer), "cut"

    def cut(route) -> None:
        if route.request.method == "GET" and route.request.service_worker is not None:
            seen.append("cut")
            route.abort("internetdisconnected")
        else:
            route.fallback()

    def answered(response) -> None:
        if response.url == f"{url}/api/v1/games/{game_id}" and response.status == 200:
            seen.append("check")

    page.context.route(sheet, cut)
    page.on("load", lambda: seen.append("load"))
    page.on("response", answered)
    page.context.set_offline(False)
    # The reload, from the kept copy; then the live sheet's check and its refresh, cut too.
    until_seen(page, seen, ["cut", "load", "check", "cut"])
    expect(page.locator(".queue h2")).to_have_text("All hands synced")
    page.context.unroute(sheet, cut)
    page.clock.run_for(RETRY_MS)  # the page asks again at its next retry
    expect(page.locator("#over-title")).to_contain_text("Ana")
    server = api_sheet(url, game_id)
    assert len(server["hands"]) == 2
    assert board(page) == [str(total) for total in server["totals"]]


def until_seen(page, seen: list[str], wanted: list[str]) -> None:
    """Wait until ``wanted`` has happened, in its order (other events between)."""
    deadline = time.monotonic() + WAIT / 1000

    def happened() -> bool:
        rest = iter(seen)
        return all(event in rest for event in wanted)

    while not happened():
        assert time.monotonic() < deadline, f"saw {seen}, not {wanted} in order"
        page.wait_for_timeout(100)


def test_a_hand_the_server_will_refuse_stops_the_scoring_and_fixes_wait(phone, served):  # noqa: F811
    url, _ = served
    page = phone
    sheet, game_id = game_with_a_hand(page, url, "4", "20")
    # Hand 3 is over the knock limit: scored nowhere, and hand 4 waits for it.
    typed = [("Ana", "Gin", "", "10"), ("Ana", "Knock", "14", "30"), ("Bor", "Gin", "", "10")]
    offline_hands(page, sheet, typed)
    note = page.locator("#provisional-note")
    refusal = (
        "The server will not take hand 3 as typed; the totals after it wait until it is discarded."
    )
    expect(note.locator(".stopped")).to_have_text(refusal)
    assert board(page) == ["35", "16"]  # hand 2 counted: Ana's gin, 25 + 10

    # Hand 2 reaches the server, hand 3 is refused: the page scores after the
    # server's sheet as it is now (the API's), and still names hand 3.
    page.context.set_offline(False)
    refused = page.locator(".queue li").first
    expect(refused.locator(".badge")).to_have_text("not saved", timeout=30000)
    assert len(api_sheet(url, game_id)["hands"]) == 2
    expect(note.locator(".stopped")).to_have_text(refusal)
    assert board(page) == [str(t) for t in api_sheet(url, game_id)["totals"]] == ["35", "16"]
    # A hand's own page: Correct and Void wait too.
    page.goto(sheet + "/hands/1")
    correct = page.get_by_role("link", name="Correct hand 1")
    expect(correct).to_have_attribute("aria-disabled", "true")
    assert correct.get_attribute("href") is None
    expect(page.get_by_role("button", name="Void hand 1")).to_be_disabled()
    expect(page.locator("#locked-why")).to_have_text(LOCKED)

    page.goto(sheet)
    page.locator(".queue li").first.get_by_role("button", name="Discard hand 3").click()
    expect(page.locator(".queue h2")).to_have_text("All hands synced", timeout=30000)
    expect_reloaded(page, 3)
    expect(note).to_be_hidden()
    expect(page.get_by_role("button", name="Undo the last hand (3)")).to_be_enabled()
    assert (
        board(page) == [str(t) for t in api_sheet(url, game_id)["totals"]] == ["35", "51"]
    )  # Bor gin: 25 + 10
    page.goto(sheet + "/hands/1")
    edit = page.get_by_role("link", name="Correct hand 1").get_attribute("href")
    assert edit and edit.endswith("/hands/1/edit")


STYLED = """async () => ({
  applied: Array.from(document.styleSheets).some((s) => (s.href || "").endsWith("/pad.css")),
  kept: Boolean(await caches.match("/static/pad.css")),
})"""
"""Whether the page's style sheet applies, and whether the service worker keeps it."""


def shown_sheet(page) -> tuple[str, list[str | None], str]:
    """The board as read (its text and each card's accessible name) and the next line."""
    cards = page.locator(".board .player")
    labels = [cards.nth(i).get_attribute("aria-label") for i in range(cards.count())]
    return page.locator(".board").inner_text(), labels, page.locator("[data-next]").inner_text()


@pytest.mark.parametrize("table", ["hollywood", "three", "four"])
def test_every_table_shows_what_the_server_then_shows(phone, served, table):  # noqa: F811
    url, _ = served
    page = phone
    names = {"three": ("Ana", "Bor", "Cy"), "four": ("Ana", "Bor", "Cy", "Dan")}.get(
        table, ("Ana", "Bor")
    )
    page.goto(url + "/")
    for i, name in enumerate(names):
        page.fill(f"#player_{i}", name)
    page.locator("label.choice", has_text="Ana").first.click()
    if table == "hollywood":
        page.locator("label.choice", has_text="Hollywood").click()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[\w-]+$"))
    sheet = page.url
    worker_ready(page, "deal" if table == "four" else "quick")
    page.context.set_offline(True)
    if table == "four":
        page.get_by_role("link", name="+ Enter the deal").click()
        enter_deal(page, [("Ana", "3", "20"), ("Dan", "5", "12")])
    else:
        page.get_by_role("link", name="+ Quick hand").click()
        quick(page, "Bor", "Knock", "4", "30")
    expect(page.locator(".queue li")).to_have_count(1)
    page.goto(sheet)
    expect(page.locator("#provisional-note .badge")).to_have_text("provisional")
    # styled: the page's scripts (the badge) run once pad.css has loaded or failed to, and
    # a failure here names which (seen once at a load of 10-14: the board read unstyled)
    styled = page.evaluate(STYLED)
    assert styled == {"applied": True, "kept": True}, f"pad.css offline: {styled}"
    before = shown_sheet(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    page.context.set_offline(False)
    expect(page.locator(".queue h2")).to_have_text("All hands synced", timeout=30000)
    expect(page.locator("#provisional-note")).to_be_hidden()
    assert shown_sheet(page) == before
