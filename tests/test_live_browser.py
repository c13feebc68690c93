"""Live sheets in chromium: a hand saved on one phone shows on the others within 2 s.

Through ``scorekeeper serve`` (real nginx with nchan before gunicorn): one
phone starts a game and enters hands; a second tab of the same phone (an
editing sheet) and a read-only viewer of the share link follow each save
without a reload (a mark set on the page survives), the viewer's page
also after an undo. Without the stream (gunicorn alone, no nginx) a
viewer follows by polling.
"""

from __future__ import annotations

import os
import re
import time

import pytest
import test_pad_browser
from browser_kit import CHROMIUM
from playwright.sync_api import expect
from serve_kit import spawn, stop_soon
from test_pad_browser import PHONE, ROOT, quick_hand, start_game

from api.nginx import NCHAN_MODULE

pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(NCHAN_MODULE)),
    reason="chromium or nginx's nchan is not installed (tests/run.sh installs them)",
)

page = test_pad_browser.page
"""test_pad_browser's phone: a 390 x 844 touch context that fails on any browser error."""


POLL = int(
    re.search(r"^const POLL = (\d+);", (ROOT / "api/static/pad-live.js").read_text(), re.M)[1]
)
"""How often (ms) a sheet with no stream polls (pad-live.js)."""

COUNT_OPEN_STREAMS = """
window.openStreams = 0;
window.EventSource = class extends window.EventSource {
  constructor(...args) {
    super(...args);
    this.addEventListener("open", () => { window.openStreams += 1; });
  }
};
"""
"""An init script: ``window.openStreams`` counts the page's event streams opened."""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``scorekeeper serve``'s base URL."""
    process, url = spawn(tmp_path_factory.mktemp("live-browser") / "live.db")
    yield url
    stop_soon(process, f"{__name__}'s server")


def totals(page):
    return page.locator(".player .total")


def test_a_saved_hand_reaches_the_other_phones_within_2_s(page, served, browser):
    start_game(page, served)
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    sheet_url = page.url
    share = page.input_value("#share")
    page.context.add_init_script(COUNT_OPEN_STREAMS)
    second_tab = page.context.new_page()  # the same phone: an editing sheet
    second_tab.goto(sheet_url)
    viewer_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    viewer_context.add_init_script(COUNT_OPEN_STREAMS)
    viewer = viewer_context.new_page()  # another phone: read-only
    errors: list[str] = []
    viewer.on("pageerror", lambda error: errors.append(str(error)))
    viewer.goto(share)
    expect(viewer.locator(".readonly-note")).to_be_visible()
    for other in (second_tab, viewer):
        expect(totals(other)).to_have_text(["0", "0"])
        other.evaluate("window.notReloaded = true")
        other.wait_for_function("window.openStreams > 0")  # its stream is open

    page.bring_to_front()  # the tab in use (a tab behind draws no frames: slow taps)
    quick_hand(page, "Ana", "Knock", "5", "30")
    expect(page.locator("main")).to_contain_text("Hand 1 added")
    for other in (viewer, second_tab):
        expect(totals(other)).to_have_text(["25", "0"], timeout=2000)

    page.goto(sheet_url)
    page.get_by_role("button", name=re.compile("Undo the last hand")).click()
    expect(page.locator("main")).to_contain_text("Hand 1 taken back")
    expect(totals(viewer)).to_have_text(["0", "0"], timeout=2000)
    expect(viewer.locator("table.hands")).to_have_count(0)
    assert viewer.evaluate("window.notReloaded") is True
    viewer_context.close()
    assert not errors, errors


def game_and_viewer(page, browser, url: str):
    """A game started on ``page`` (its sheet shown), and another phone's context and page
    (nothing opened yet) to follow it."""
    start_game(page, url)
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    viewer_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    return viewer_context, viewer_context.new_page()


def test_without_the_stream_the_sheet_polls(page, browser, tmp_path):
    # gunicorn alone: nothing published, no stream; the pages poll every 15 s, on the
    # viewer's own clock (Playwright's), run on by one poll's time once the hand is saved
    process, url = spawn(tmp_path / "polled.db", workers=1, wsgi=True)
    try:
        viewer_context, viewer = game_and_viewer(page, browser, url)
        viewer.clock.install()
        viewer.goto(page.input_value("#share"))
        assert viewer.locator("[data-live-stream]").count() == 0
        viewer.evaluate("window.notReloaded = true")
        quick_hand(page, "Ana", "Knock", "5", "30")
        expect(page.locator("main")).to_contain_text("Hand 1 added")
        expect(totals(viewer)).to_have_text(["0", "0"])  # nothing until the poll
        viewer.clock.run_for(POLL)
        expect(totals(viewer)).to_have_text(["25", "0"])
        assert viewer.evaluate("window.notReloaded") is True
        viewer_context.close()
    finally:
        stop_soon(process, "test_without_the_stream_the_sheet_polls")


def test_the_sheet_follows_on_when_a_stream_ends(page, browser, tmp_path, monkeypatch):
    """nginx ends each stream after its lifetime (3 s here): the page's EventSource comes
    back with the last event id, and the next save shows from the stream, not at a poll."""
    monkeypatch.setenv("SCOREKEEPER_LIVE_STREAM_LIFETIME", "3")
    process, url = spawn(tmp_path / "lifetime.db")
    try:
        viewer_context, viewer = game_and_viewer(page, browser, url)
        opened: list[dict[str, str]] = []
        viewer.on(
            "request",
            lambda request: (
                opened.append(request.all_headers()) if request.url.endswith("/events") else None
            ),
        )
        viewer.goto(page.input_value("#share"))
        viewer.evaluate("window.notReloaded = true")
        # A save shows at once, or at the next stream's opening check if it falls between
        # two streams: from the stream either way (no poll runs beside a stream). Only a
        # stream that carried an event has an id to come back with, so on a slow machine
        # the first saves may all fall between streams: each of up to five has its chance.
        score = 0
        for hands, (mine, theirs) in enumerate([("5", "30")] + [("9", "10")] * 4, start=1):
            quick_hand(page, "Ana", "Knock", mine, theirs)
            expect(page.locator("main")).to_contain_text(f"Hand {hands} added")
            score += int(theirs) - int(mine)
            expect(totals(viewer)).to_have_text([str(score), "0"], timeout=10_000)
            streams = len(opened)
            deadline = time.monotonic() + 15  # the stream ends (3 s), the page opens another
            while len(opened) == streams:
                assert time.monotonic() < deadline, opened
                viewer.wait_for_timeout(100)
            if any("last-event-id" in headers for headers in opened[1:]):
                break
        else:
            pytest.fail(f"no stream came back with the last event id: {opened}")
        quick_hand(page, "Ana", "Knock", "2", "40")
        expect(totals(viewer)).to_have_text([str(score + 38), "0"], timeout=10_000)
        assert viewer.evaluate("window.notReloaded") is True
        viewer_context.close()
    finally:
        stop_soon(process, "test_the_sheet_follows_on_when_a_stream_ends")
