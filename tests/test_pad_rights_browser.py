"""Edit rights and form keys at a real table: chromium phones against a real server.

Playwright drives Debian's chromium (see test_pad_browser.py) as two
phones, one 390 x 844 and one 360 x 740, each a browser context of its own
(its own cookies), against ``scorekeeper serve`` started by
:func:`serve_kit.spawn` on a temporary database (restarted in place where
a test needs it). Screenshots go to ``tests/artifacts/`` (ignored by git).
"""

from __future__ import annotations

import os
import re
import time

import pytest
import requests
from browser_kit import CHROMIUM, WAIT
from playwright.sync_api import expect
from serve_kit import spawn, stop, stop_soon
from test_pad_browser import expect_totals, quick_hand, shot, start_game

BIG = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 740}

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
)


class Server:
    """``scorekeeper serve`` on loopback, with a fixed secret key so it can restart."""

    def __init__(self, db):
        self.db = db
        with pytest.MonkeyPatch.context() as env:
            env.setenv("SCOREKEEPER_SECRET_KEY", "pad-rights-browser-tests")
            self.process, self.url = spawn(db, workers=2)

    def restart(self) -> None:
        """Stop the server and start it again on the same port (cookies are per port)."""
        port = int(self.url.rsplit(":", 1)[1])
        assert stop(self.process) == 0
        with pytest.MonkeyPatch.context() as env:
            env.setenv("SCOREKEEPER_SECRET_KEY", "pad-rights-browser-tests")
            self.process, self.url = spawn(self.db, workers=2, port=port)

    def version(self, sheet_url: str) -> int:
        path = sheet_url.split("/games/", 1)[1]
        response = requests.get(f"{self.url}/api/v1/games/{path}", timeout=10)
        return response.json()["version"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("rights") / "rights.db")
    yield running
    stop_soon(running.process, f"{__name__}'s server")


@pytest.fixture
def phones(browser):
    """``phone(size)`` opens a phone (a browser context with its own cookies); every
    page's script errors fail the test."""
    contexts, errors = [], []

    def phone(size=BIG):
        context = browser.new_context(
            viewport=size, device_scale_factor=1, is_mobile=True, has_touch=True
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(WAIT)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("dialog", lambda dialog: dialog.accept())
        return page

    yield phone
    for context in contexts:
        context.close()
    assert not errors, f"browser errors: {errors}"


def new_game(page, server, names=("Ana", "Bor")) -> str:
    start_game(page, server.url, names=names, stake="")
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    return page.url


def make_handover_link(page, sheet_url: str) -> str:
    page.goto(sheet_url)
    page.get_by_role("link", name="Phones and hand-over").click()
    page.get_by_role("button", name=re.compile(r"Make a (new )?hand-over link")).click()
    expect(page.locator(".qr-box svg")).to_be_visible()
    return page.input_value("#handover-link")


def take_over(page, link: str, label: str) -> None:
    page.goto(link)
    page.fill("#label", label)
    page.get_by_role("button", name="Keep the score on this phone").click()
    expect(page.locator(".notice")).to_contain_text("This phone can now keep the score")


def no_sideways_scrolling(page) -> None:
    page.wait_for_load_state("load")  # the style sheet applied
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url


def test_a_second_phone_takes_over_through_the_hand_over_link(phones, server):
    ana = phones(BIG)
    sheet_url = new_game(ana, server)
    link = make_handover_link(ana, sheet_url)
    assert "/join?key=" in link
    # the QR code is square and large enough to scan from the other phone
    box = ana.locator(".qr-box svg").bounding_box()
    assert abs(box["width"] - box["height"]) < 1 and box["width"] >= 200
    no_sideways_scrolling(ana)
    shot(ana, "rights-handover-qr")

    bor = phones(SMALL)
    bor.goto(sheet_url)
    assert "read-only" in bor.inner_text("main")
    bor.goto(link)
    no_sideways_scrolling(bor)
    shot(bor, "rights-join")
    take_over(bor, link, "Bor's phone")
    shot(bor, "rights-joined")
    quick_hand(bor, "Bor", "Gin", None, "10")
    expect_totals(bor, ["0", "35"])
    ana.goto(sheet_url)
    expect_totals(ana, ["0", "35"])
    assert ana.get_by_role("link", name="+ Quick hand").count() == 1  # Ana still scores too

    # Both phones keep their rights across a restart of the server and in a new tab.
    server.restart()
    tab = bor.context.new_page()
    tab.goto(sheet_url)
    assert tab.get_by_role("link", name="+ Quick hand").count() == 1
    tab.close()

    # Ana sees both phones and revokes Bor's; Bor's sheet is read-only again.
    ana.get_by_role("link", name="Phones and hand-over").click()
    rows = ana.locator(".phones li")
    expect(rows).to_have_count(2)
    assert "this phone" in rows.nth(0).inner_text() and "Bor's phone" in rows.nth(1).inner_text()
    no_sideways_scrolling(ana)
    shot(ana, "rights-phones")
    rows.nth(1).get_by_role("button", name="Revoke").click()
    expect(ana.locator(".phones li")).to_have_count(1)
    bor.reload()
    assert "read-only" in bor.inner_text("main")
    assert bor.goto(sheet_url + "/hand").status == 403
    # The old link is dead once Ana makes a new one; the new one works again.
    new_link = make_handover_link(ana, sheet_url)
    # the revoked phone opening its old link is told the true cause (issue 27)
    assert bor.goto(link).status == 403 and "was revoked" in bor.inner_text("main")
    take_over(bor, new_link, "Bor's phone")
    assert bor.get_by_role("link", name="+ Quick hand").count() == 1


def test_a_thousand_games_on_one_phone_and_every_page_still_loads(phones, server):
    page = phones(BIG)
    page.goto(server.url + "/")
    csrf = page.locator("form[action='/games'] input[name=csrf_token]").get_attribute("value")
    began = time.monotonic()
    for i in range(1000):
        response = page.request.post(
            server.url + "/games",
            max_redirects=0,
            form={
                "csrf_token": csrf,
                "player_0": f"Ana {i}",
                "player_1": "Bor",
                "preset": "standard",
                "options_for": "standard",
                "dealer": "0",
            },
        )
        assert response.status == 303, (i, response.status)
        last = response.headers["location"]
    took = time.monotonic() - began
    assert took < 240, f"1,000 games took {took:.0f} s"
    cookies = page.context.cookies()
    assert sorted(c["name"] for c in cookies) == ["sk_csrf", "sk_device"]
    assert sum(len(c["name"]) + len(c["value"]) for c in cookies) < 300
    assert all(c["expires"] - time.time() <= 120 * 86400 + 60 for c in cookies)
    first = None
    for path in (
        "/",
        last,
        last + "/hand",
        last + "/hand?mode=cards",
        last + "/phones",
        "/check",
        "/replay",
    ):
        response = page.goto(server.url + path if path.startswith("/") else path)
        assert response.status == 200, path
        first = first or page.locator("section[aria-labelledby=recent-title] li").count()
    assert first == 8
    page.goto(server.url + "/")
    expect(page.get_by_text("Ana 999 vs Bor")).to_be_visible()
    shot(page, "rights-after-1000-games")


def test_back_then_save_and_a_double_tap_store_one_hand(phones, server):
    page = phones(BIG)
    sheet_url = new_game(page, server)
    quick_hand(page, "Ana", "Knock", "3", "12")
    expect_totals(page, ["9", "0"])
    page.go_back()  # the filled form again
    expect(page.get_by_role("button", name="Add to the sheet")).to_be_visible()
    page.get_by_role("button", name="Add to the sheet").click()
    expect(page.locator("main")).to_contain_text("already saved")
    assert server.version(sheet_url) == 1
    expect_totals(page, ["9", "0"])
    shot(page, "rights-back-save")

    posts = []
    page.on("request", lambda r: posts.append(r) if r.method == "POST" else None)
    page.get_by_role("link", name="+ Quick hand").click()
    page.locator("label.choice", has_text="Bor").click()
    page.locator("label.choice", has_text=re.compile("^Gin$")).click()
    page.fill("#defender_deadwood", "20")
    button = page.get_by_role("button", name="Add to the sheet")
    button.dblclick()
    expect_totals(page, ["9", "45"])
    assert server.version(sheet_url) == 2
    assert posts, "the form was not sent"
    shot(page, "rights-double-tap")
    # The same form sent twice by the browser's own request (as a double tap on a
    # slow network does) also stores one hand.
    page.get_by_role("link", name="+ Quick hand").click()
    page.locator("label.choice", has_text="Ana").click()
    page.locator("label.choice", has_text=re.compile("^Gin$")).click()
    page.fill("#defender_deadwood", "5")
    form = page.eval_on_selector("form[data-quick]", "f => Object.fromEntries(new FormData(f))")
    action = server.url + page.get_attribute("form[data-quick]", "action")
    statuses = [page.request.post(action, form=form, max_redirects=0).status for _ in range(2)]
    assert statuses == [303, 303] and server.version(sheet_url) == 3


def test_back_to_a_sent_form_the_browser_fetches_again_still_stores_one_hand(phones, server):
    """A browser short of memory fetches the form again on Back (a new key from the
    server): the history entry keeps the key it had, so Save is still recognised."""
    page = phones(BIG)
    sheet_url = new_game(page, server)
    quick_hand(page, "Ana", "Knock", "3", "12")
    expect_totals(page, ["9", "0"])
    page.context.new_cdp_session(page).send("Network.clearBrowserCache")
    fetched = []
    page.on("request", lambda r: fetched.append(r.url) if "/hand" in r.url else None)
    page.go_back()
    expect(page.get_by_role("button", name="Add to the sheet")).to_be_visible()
    if not fetched:
        pytest.skip("chromium restored the page from its back-forward cache: nothing to test")
    page.locator("label.choice", has_text="Ana").click()  # typed again if not restored
    page.fill("#knocker_deadwood", "3")
    page.fill("#defender_deadwood", "12")
    page.get_by_role("button", name="Add to the sheet").click()
    expect(page.locator("main")).to_contain_text("already saved")
    assert server.version(sheet_url) == 1


def test_a_stale_form_shows_the_changed_sheet_and_keeps_what_was_typed(phones, server):
    ana = phones(BIG)
    sheet_url = new_game(ana, server)
    bor = phones(SMALL)
    take_over(bor, make_handover_link(ana, sheet_url), "Bor's phone")
    ana.goto(sheet_url)
    ana.get_by_role("link", name="+ Quick hand").click()
    ana.locator("label.choice", has_text="Bor").click()
    ana.fill("#knocker_deadwood", "4")
    ana.fill("#defender_deadwood", "29")
    quick_hand(bor, "Ana", "Gin", None, "10")  # meanwhile, on Bor's phone
    ana.get_by_role("button", name="Add to the sheet").click()
    banner = ana.locator(".changed")
    expect(banner).to_contain_text("The sheet changed")
    expect(banner.locator(".player .total")).to_have_text(["35", "0"])
    assert ana.input_value("#defender_deadwood") == "29"
    assert ana.input_value("#knocker_deadwood") == "4"
    assert ana.locator("input[name=knocker][value='1']").is_checked()
    assert ana.locator("h1").inner_text() == "Hand 2"
    assert server.version(sheet_url) == 1
    no_sideways_scrolling(ana)
    shot(ana, "rights-sheet-changed")
    ana.get_by_role("button", name="Add to the sheet").click()
    expect_totals(ana, ["35", "25"])  # Bor knocks 4 v 29
    assert server.version(sheet_url) == 2
    bor.reload()
    expect_totals(bor, ["35", "25"])
    shot(bor, "rights-sheet-after-both")
