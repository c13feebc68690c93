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
import urllib.request

from playwright.sync_api import expect
from test_pad_offline import (  # the offline tests' harness, their skip and server
    SIZES,
    new_page,
    pytestmark,  # noqa: F401
    quick,
    served,  # noqa: F401
    shots,
    start,
    worker_ready,
)

LOCKED = "Undo, correct and void wait until the hands on this phone are sent."


def api_sheet(url: str, game_id: str) -> dict:
    with urllib.request.urlopen(f"{url}/api/v1/games/{game_id}") as response:
        return json.loads(response.read())


def board(page) -> list[str]:
    return page.locator(".board .player .total").all_inner_texts()


def offline_hands(page, sheet: str, typed: list[tuple[str, str, str, str]]) -> None:
    """With the service worker keeping the sheet, type ``typed`` without a connection,
    then open the sheet (the worker's copy)."""
    worker_ready(page)
    page.get_by_role("link", name="+ Quick hand").click()
    page.context.set_offline(True)
    for hand in typed:
        quick(page, *hand)
    page.goto(sheet)


def test_waiting_hands_show_provisional_totals_until_the_server_answers(browser, served):  # noqa: F811
    url, _ = served
    page = new_page(browser)
    page.set_viewport_size(SIZES["360"])
    try:
        sheet = start(page, url)
        game_id = sheet.rsplit("/", 1)[1]
        page.get_by_role("link", name="+ Quick hand").click()
        quick(page, "Bor", "Knock", "4", "20")  # online: on the sheet at once
        page.goto(sheet)
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
        dealer_chip = page.locator(
            ".board .player", has=page.locator(".dealer-chip")
        ).get_attribute("data-side")
        # Undo and the hand links are off, for assistive technology too.
        expect(undo).to_be_disabled()
        assert undo.get_attribute("aria-describedby") == "locked-why"
        links = page.locator("table.hands a")
        assert links.count() == 2
        for link in links.all():
            assert link.get_attribute("href") is None
            assert link.get_attribute("aria-disabled") == "true"
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        shots(page, "provisional")
        page.set_viewport_size(SIZES["360"])

        page.context.set_offline(False)
        expect(page.locator(".queue h2")).to_have_text("All hands synced", timeout=30000)
        expect(page.locator("#provisional-note")).to_be_hidden()
        server = api_sheet(url, game_id)
        assert len(server["hands"]) == 3
        assert board(page) == [str(total) for total in server["totals"]] == shown
        assert page.locator("[data-next]").inner_text() == next_line
        assert (
            page.locator(".board .player", has=page.locator(".dealer-chip")).get_attribute(
                "data-side"
            )
            == dealer_chip
            == server["players"][server["next_dealer"]]
        )
        expect(page.get_by_role("button", name="Undo the last hand (3)")).to_be_enabled()
        assert page.locator("table.hands a").first.get_attribute("href")
        assert not page.errors, page.errors
    finally:
        page.context.close()


def test_a_game_that_ends_offline_shows_its_provisional_end(browser, served):  # noqa: F811
    url, _ = served
    page = new_page(browser)
    page.set_viewport_size(SIZES["360"])
    try:
        sheet = start(page, url)
        game_id = sheet.rsplit("/", 1)[1]
        page.get_by_role("link", name="+ Quick hand").click()
        quick(page, "Bor", "Knock", "2", "10")
        page.goto(sheet)
        offline_hands(page, sheet, [("Ana", "Gin", "", "80")])  # 25 + 80: past 100
        note = page.locator("#provisional-note")
        expect(note).to_contain_text("Provisional: the game ends with hand 2.")
        winner = page.locator(".board .player", has=page.locator(".winner-chip"))
        assert winner.get_attribute("data-side") == "Ana"
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
        assert not page.errors, page.errors
    finally:
        page.context.close()


def test_a_hand_the_server_will_refuse_stops_the_scoring_and_fixes_wait(browser, served):  # noqa: F811
    url, _ = served
    page = new_page(browser)
    page.set_viewport_size(SIZES["360"])
    try:
        sheet = start(page, url)
        page.get_by_role("link", name="+ Quick hand").click()
        quick(page, "Bor", "Knock", "4", "20")
        page.goto(sheet)
        before = board(page)
        # Over the knock limit: scored nowhere, and the hand after it waits for it.
        offline_hands(page, sheet, [("Ana", "Knock", "14", "30"), ("Bor", "Gin", "", "10")])
        note = page.locator("#provisional-note")
        expect(note.locator(".stopped")).to_have_text(
            "The server will not take hand 2 as typed; the totals after it wait until it is"
            " discarded."
        )
        assert board(page) == before

        page.context.set_offline(False)
        refused = page.locator(".queue li").first
        expect(refused.locator(".badge")).to_have_text("not saved", timeout=30000)
        expect(note).to_be_visible()
        # A hand's own page: Correct and Void wait too.
        page.goto(sheet + "/hands/1")
        correct = page.get_by_role("link", name="Correct hand 1")
        expect(correct).to_have_attribute("aria-disabled", "true")
        assert correct.get_attribute("href") is None
        expect(page.get_by_role("button", name="Void hand 1")).to_be_disabled()
        expect(page.locator("#locked-why")).to_have_text(LOCKED)

        page.goto(sheet)
        page.locator(".queue li").first.get_by_role("button", name="Discard hand 2").click()
        expect(page.locator(".queue h2")).to_have_text("All hands synced", timeout=30000)
        expect(note).to_be_hidden()
        expect(page.get_by_role("button", name="Undo the last hand (2)")).to_be_enabled()
        page.goto(sheet + "/hands/1")
        edit = page.get_by_role("link", name="Correct hand 1").get_attribute("href")
        assert edit and edit.endswith("/hands/1/edit")
        assert not page.errors, page.errors
    finally:
        page.context.close()
