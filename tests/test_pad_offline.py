"""The scorepad at a table without a steady connection, typing cards, and in the dark.

Playwright drives Debian's chromium against a real ``scorekeeper serve``
(gunicorn, :func:`serve_kit.spawn`) on ``http://127.0.0.1``, which chromium
treats as a secure context, so the service worker and IndexedDB run as they
would over HTTPS. The network is cut with the browser context's offline
switch. Screenshots at 390 x 844 and 360 x 740 go to ``tests/artifacts/``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import time
import urllib.request

import pytest
from browser_kit import ARGS, CHROMIUM, WAIT
from playwright.sync_api import expect
from serve_kit import spawn, stop, stop_soon
from test_pad_browser import ANA, ARTIFACTS, BOR, tap
from test_serve_tls import make_certificate

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
)

SIZES = {"390": {"width": 390, "height": 844}, "360": {"width": 360, "height": 740}}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A real ``scorekeeper serve`` and its database file: ``(url, db)``."""
    db = tmp_path_factory.mktemp("offline") / "pad.db"
    process, url = spawn(db, workers=2)
    yield url, db
    stop_soon(process, f"{__name__}'s server", status=None)


def new_page(browser, dark: bool = False):
    context = browser.new_context(
        viewport=SIZES["390"],
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
        color_scheme="dark" if dark else "light",
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())
    return page


@pytest.fixture
def page(browser):
    page = new_page(browser)
    yield page
    page.context.close()
    assert not page.errors, f"browser errors: {page.errors}"


def shots(page, name: str) -> None:
    """The page at both phone sizes (full page), then back at 390 x 844."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(ARTIFACTS / f"pad-{name}-{size}.png"), full_page=True)
    page.set_viewport_size(SIZES["390"])


def start(page, url: str) -> str:
    """A new standard game of Ana and Bor (Ana deals); returns the sheet's URL."""
    page.goto(url + "/")
    page.fill("#player_0", "Ana")
    page.fill("#player_1", "Bor")
    page.locator("label.choice", has_text="Ana").first.click()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[\w-]+$"))
    return page.url


def until(page, script: str, timeout: float = 45.0) -> None:
    """Wait until ``script`` (a function, evaluated in the page) returns true.

    The limit is generous: a service worker installing while the other test process
    keeps both cores busy can take tens of seconds; a quiet machine takes about one.

    Polled from here: ``wait_for_function`` evaluates strings, which the
    pages' Content-Security-Policy forbids.
    """
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        if time.monotonic() > deadline:
            worker = page.evaluate("""async () => {
                const r = await navigator.serviceWorker.getRegistration();
                return r ? [r.installing, r.waiting, r.active].map((w) => w && w.state) : null;
            }""")
            pytest.fail(
                f"still false after {timeout} s: {script} (service worker: {worker},"
                f" page {page.url})"
            )
        time.sleep(0.1)


def worker_ready(page, mode: str = "quick") -> None:
    """Wait until the service worker controls the page and has kept both the page
    itself and its hand forms (the form of ``mode``: ``deal`` at a table of four).

    The worker fetches what a sheet asks it to keep side by side, so the form may be
    kept before the page that asked: both are waited for.
    """
    until(page, "() => Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)")
    until(
        page,
        f"""async () => {{
        const here = location.href.split('?')[0];
        const keys = [];
        for (const name of await caches.keys()) {{
          keys.push(...(await (await caches.open(name)).keys()).map((r) => r.url));
        }}
        return keys.some((u) => u.includes('/hand?mode={mode}')) && keys.includes(here);
    }}""",
    )


def stored_hands(db, game_id: str) -> list[tuple[str, dict]]:
    """The game's log as stored: (idempotency key, hand input) per entry, in order."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT idempotency_key, payload FROM hands WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    return [(key, json.loads(payload)) for key, payload in rows]


def quick(page, who: str, kind: str, mine: str, theirs: str) -> None:
    page.locator("label.choice", has_text=who).click()
    page.locator("label.choice", has_text=re.compile(f"^{kind}$")).click()
    if kind == "Knock":
        page.fill("#knocker_deadwood", mine)
    page.fill("#defender_deadwood", theirs)
    page.get_by_role("button", name="Add to the sheet").click()


def enter_deal(page, games: list[tuple[str, str, str]]) -> None:
    """A deal of four on its form: per game who knocked with what against what."""
    for i, (who, mine, theirs) in enumerate(games):
        game = page.locator(f"fieldset.game-entry[data-game='{i}']")
        game.locator("label.choice", has_text=who).click()
        game.locator("label.choice", has_text=re.compile("^Knock$")).click()
        page.fill(f"#g{i}_knocker_deadwood", mine)
        page.fill(f"#g{i}_defender_deadwood", theirs)
    page.get_by_role("button", name="Add to the sheet").click()


def test_app_shell_and_sheet_open_offline_after_a_first_visit(page, served):
    url, _ = served
    sheet = start(page, url)
    manifest = page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())"
    )
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    worker_ready(page)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_have_text("Ana vs Bor")
    assert page.evaluate("getComputedStyle(document.querySelector('.top')).display") == "flex"
    expect(page.locator(".queue")).to_contain_text("No connection")
    # The hand form was never opened, yet it opens offline (the sheet kept it).
    page.get_by_role("link", name="+ Quick hand").click()
    expect(page.locator("h1")).to_have_text("Hand 1")
    page.goto(url + "/")
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    page.goto(sheet + "/hands/7")  # never seen: the worker's own offline page
    expect(page.locator("h1")).to_have_text("No connection")
    page.context.set_offline(False)
    page.goto(sheet)
    worker_ready(page)
    cdp = page.context.new_cdp_session(page)
    problems = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # A page the worker does not control (a hard reload bypasses it, as a navigation
    # begun while the worker was installing does) asks to be claimed, and is.
    with page.expect_navigation():
        cdp.send("Page.reload", {"ignoreCache": True})
    page.wait_for_load_state()
    worker_ready(page)
    # Chromium would offer to install it (a test browser's profile is always incognito).
    assert [p["errorId"] for p in problems if p["errorId"] != "in-incognito"] == [], problems


def test_hands_typed_offline_wait_and_sync_once_in_order(page, served):
    url, db = served
    sheet = start(page, url)
    game_id = sheet.rsplit("/", 1)[1]
    worker_ready(page)
    page.get_by_role("link", name="+ Quick hand").click()
    # offline only once the form's page has loaded (its scripts with it): cut before, the
    # scripts fail and the taps go to a form they have not set up
    page.wait_for_url(re.compile(r"/hand\?mode=quick$"))
    page.context.set_offline(True)
    typed = [("Bor", "Knock", "5", "30"), ("Ana", "Gin", "", "20"), ("Bor", "Knock", "2", "9")]
    for count, (who, kind, mine, theirs) in enumerate(typed, start=1):
        quick(page, who, kind, mine, theirs)
        panel = page.locator(".queue")
        expect(panel.locator("h2")).to_have_text(
            f"Waiting to sync: {count} hand{'s' if count > 1 else ''}"
        )
        expect(panel.locator("li")).to_have_count(count)
        expect(page.locator("h1")).to_have_text(f"Hand {count + 1}")
    expect(page.locator(".queue li .badge")).to_have_text(["waiting to sync"] * 3)
    assert "Hand 2: Ana: Gin" in page.locator(".queue li").nth(1).inner_text()
    assert stored_hands(db, game_id) == []  # nothing reached the server
    shots(page, "offline-waiting")

    # A hand typed while others wait goes behind them, even once online again.
    page.context.set_offline(False)
    expect(page.locator(".queue h2")).to_have_text("All hands synced")
    expect(page.locator("h1")).to_have_text("Hand 4")
    assert page.locator("[data-dealer-line]").is_hidden()  # the page's dealer is out of date
    shots(page, "offline-synced")
    log = stored_hands(db, game_id)
    assert [(h["knocker"], h["knocker_deadwood"], h["defender_deadwood"]) for _, h in log] == [
        (1, 5, 30),
        (0, 0, 20),
        (1, 2, 9),
    ]
    keys = [key for key, _ in log]
    assert all(keys) and len(set(keys)) == 3

    # Sending a queued hand again with its key (an answer lost on the way) stores nothing.
    again = page.evaluate(
        """async (key) => {
        const form = document.querySelector('form[data-queue-game]');
        const body = new URLSearchParams(new FormData(form));
        body.set('knocker', '1'); body.set('kind', 'knock'); body.set('knocker_deadwood', '2');
        body.set('defender_deadwood', '9'); body.set('action', 'save');
        body.set('form_key', key); body.delete('version');  // as the queue sends it
        const response = await fetch(form.getAttribute('action'), {method: 'POST', body});
        return [response.status, response.redirected];
    }""",
        keys[2],
    )
    assert again == [200, True]
    assert stored_hands(db, game_id) == log
    too_long = page.evaluate(
        """async (key) => {
        const form = document.querySelector('form[data-queue-game]');
        const body = new URLSearchParams(new FormData(form));
        body.set('knocker', '0'); body.set('kind', 'gin'); body.set('defender_deadwood', '9');
        body.set('action', 'save'); body.set('form_key', key); body.delete('version');
        const response = await fetch(form.getAttribute('action'), {method: 'POST', body});
        return [response.status, await response.text()];
    }""",
        "k" * 201,
    )
    assert too_long[0] == 400 and "This form&#39;s key is damaged" in too_long[1]
    assert stored_hands(db, game_id) == log

    # The sheet shows them, totals as the three hands make them.
    page.goto(sheet)
    expect(page.locator(".player .total")).to_have_text(["45", "32"])  # 25 + 20 gin; 25 + 7
    assert page.locator(".queue").is_hidden()


def test_a_hand_sent_while_the_server_is_gone_waits_and_syncs(browser, tmp_path):
    """The phone thinks it is online (Wi-Fi up) but the server is down: the worker keeps it."""
    db = tmp_path / "gone.db"
    process, url = spawn(db, workers=1)
    page = new_page(browser)
    try:
        sheet = start(page, url)
        game_id = sheet.rsplit("/", 1)[1]
        worker_ready(page)
        page.get_by_role("link", name="+ Quick hand").click()
        stop(process)
        quick(page, "Bor", "Knock", "5", "30")
        waiting = page.locator(".queue li")
        expect(waiting.locator(".badge")).to_have_text(["waiting to sync"])
        assert "Hand 1: Bor: Knock, deadwood 5 against 30" in waiting.inner_text()
        assert page.evaluate("navigator.onLine")
        process, _ = spawn(db, workers=1, port=int(url.rsplit(":", 1)[1]))
        page.evaluate("window.dispatchEvent(new Event('online'))")
        expect(page.locator(".queue h2")).to_have_text("All hands synced")
        assert [
            (h["knocker"], h["knocker_deadwood"], h["defender_deadwood"])
            for _, h in stored_hands(db, game_id)
        ] == [(1, 5, 30)]
        assert not page.errors, page.errors
    finally:
        page.context.close()
        stop_soon(process, "test_a_hand_sent_while_the_server_is_gone_waits_and_syncs", status=None)


def test_refused_hand_is_kept_and_holds_back_the_later_ones(page, served):
    url, db = served
    sheet = start(page, url)
    game_id = sheet.rsplit("/", 1)[1]
    page.goto(sheet + "/hand?mode=quick")
    page.context.set_offline(True)
    quick(page, "Ana", "Knock", "14", "30")  # over the knock limit: the server refuses
    quick(page, "Bor", "Gin", "", "10")
    page.context.set_offline(False)
    refused = page.locator(".queue li").first
    expect(refused.locator(".badge")).to_have_text("not saved")
    assert "10 or less" in refused.inner_text()
    expect(page.locator(".queue li").nth(1).locator(".badge")).to_have_text("waiting to sync")
    assert stored_hands(db, game_id) == []
    refused.get_by_role("button", name="Discard hand 1").click()
    expect(page.locator(".queue h2")).to_have_text("All hands synced")
    assert [(h["knocker"], h["knocker_deadwood"]) for _, h in stored_hands(db, game_id)] == [(1, 0)]


def test_typed_cards_give_what_tapping_gives(page, served):
    url, _ = served
    sheet = start(page, url)
    page.goto(sheet + "/hand?mode=cards")
    page.locator("label.choice", has_text="Ana").click()
    tap(page, "p0", ANA)
    tap(page, "p1", BOR)
    expect(page.locator("#live-p0")).to_contain_text("deadwood 2")
    expect(page.locator("#live-p1")).to_contain_text("deadwood 3")
    tapped = [page.locator(f"#live-{p}").inner_text() for p in ("p0", "p1")]
    assert page.input_value("#p0-typed") == " ".join(ANA)  # a tap shows in the typed line

    page.goto(sheet + "/hand?mode=cards")
    page.locator("label.choice", has_text="Ana").click()
    page.locator("#p0-typed").press_sequentially("as 2S 3♠ 4c 4D 4h 9d 10d jd 2C")
    page.locator("#p1-typed").press_sequentially("5s6s4s 7c,8c,9c Kh QH JH 3♦")
    expect(page.locator("#live-p0")).to_contain_text("deadwood 2")
    expect(page.locator("#live-p1")).to_contain_text("deadwood 3")
    assert [page.locator(f"#live-{p}").inner_text() for p in ("p0", "p1")] == tapped
    for prefix, cards in (("p0", ANA), ("p1", BOR)):
        ticked = page.eval_on_selector_all(
            f"[data-grid={prefix}] input:checked", "boxes => boxes.map(b => b.value)"
        )
        assert sorted(ticked) == sorted(cards)
    assert page.locator("#p1-As").is_disabled()
    shots(page, "typed-entry")
    page.get_by_role("button", name="Check the hand").click()
    expect(page.locator("#result")).to_contain_text("Ana knocks and scores 1")
    until(page, "() => document.activeElement.id === 'result'")

    # A mistake is named and leaves the grid as the good cards make it.
    page.fill("#p0-typed", "As 2s Xq")
    expect(page.locator("#live-p0 .error")).to_have_text(re.compile('"Xq" is not a card'))
    assert page.locator("#p0-2s").is_checked() and not page.locator("#p0-3s").is_checked()
    page.fill("#p0-typed", "As 2s 3s 5c 5c")
    expect(page.locator("#live-p0 .error")).to_have_text("5♣ is in there twice.")


def test_quick_form_previews_the_score_before_saving(page, served):
    url, db = served
    sheet = start(page, url)
    game_id = sheet.rsplit("/", 1)[1]
    page.goto(sheet + "/hand?mode=quick")
    page.locator("label.choice", has_text="Ana").click()
    page.fill("#knocker_deadwood", "5")
    page.fill("#defender_deadwood", "3")
    page.get_by_role("button", name="Preview the score").click()
    result = page.locator("#result")
    expect(result).to_contain_text("Bor undercut Ana: 27")
    assert "2 deadwood difference + 25 undercut bonus = 27" in result.inner_text()
    until(page, "() => document.activeElement.id === 'result'")
    assert stored_hands(db, game_id) == []
    assert page.input_value("#knocker_deadwood") == "5"  # the form keeps what was typed
    page.get_by_role("button", name="Add to the sheet").click()
    expect(page.locator(".player .total")).to_have_text(["0", "27"])
    # Offline there is no preview, and the page says why instead of failing.
    page.goto(sheet + "/hand?mode=quick")
    page.context.set_offline(True)
    page.locator("label.choice", has_text="Bor").click()
    page.fill("#defender_deadwood", "10")
    page.get_by_role("button", name="Preview the score").click()
    expect(page.locator("[data-offline-note]")).to_contain_text("No connection, so no preview")
    page.context.set_offline(False)


def test_errors_take_the_focus_with_a_summary_on_the_long_form(page, served):
    url, _ = served
    sheet = start(page, url)
    page.goto(sheet + "/hand?mode=cards")
    tap(page, "p0", ANA[:4])
    page.get_by_role("button", name="Add to the sheet").click()
    summary = page.locator(".error-summary")
    expect(summary).to_be_visible()
    until(page, "() => document.activeElement.classList.contains('error-summary')")
    assert summary.locator("a").count() >= 1
    page.goto(sheet + "/hand?mode=quick")
    page.locator("label.choice", has_text="Bor").click()
    page.fill("#knocker_deadwood", "12")
    page.fill("#defender_deadwood", "30")
    page.get_by_role("button", name="Add to the sheet").click()
    expect(page.locator("#err-knocker_deadwood")).to_be_visible()
    until(page, "() => document.activeElement.id === 'knocker_deadwood'")


def test_dark_mode(browser, served):
    url, _ = served
    page = new_page(browser, dark=True)
    try:
        sheet = start(page, url)
        page.goto(sheet + "/hand?mode=quick")
        quick(page, "Bor", "Knock", "5", "30")
        expect(page.locator(".player .total")).to_have_text(["0", "25"])
        until(page, "() => getComputedStyle(document.body).backgroundColor === 'rgb(21, 23, 26)'")
        # Undo is at the top of the sheet, above the hands.
        undo = page.get_by_role("button", name="Undo the last hand")
        assert undo.bounding_box()["y"] < page.locator("#hands-title").bounding_box()["y"]
        shots(page, "dark-sheet")
        page.goto(sheet + "/hand?mode=cards")
        page.locator("label.choice", has_text="Bor").click()
        page.locator("#p1-typed").fill("5s 6s 4s 7c 8c 9c Kh Qh Jh 3d")
        expect(page.locator("#live-p1")).to_contain_text("deadwood 3")
        shots(page, "dark-cards")
        assert not page.errors, page.errors
    finally:
        page.context.close()


def test_the_screen_stays_awake_while_a_sheet_is_open(page, served):
    url, _ = served
    # A phone's chromium grants a visible page its screen lock without asking; the
    # headless shell asks, and nobody is there to answer: the test answers yes.
    page.context.grant_permissions(["screen-wake-lock"])
    # Watch the page's requests for a screen wake lock (the browser's own lock is kept).
    page.add_init_script("""
        window.wakeLocks = [];
        if (navigator.wakeLock) {
          const request = navigator.wakeLock.request.bind(navigator.wakeLock);
          navigator.wakeLock.request = async (type) => {
            const lock = await request(type);
            window.wakeLocks.push(lock);
            return lock;
          };
        }
    """)
    sheet = start(page, url)
    if not page.evaluate("'wakeLock' in navigator"):
        pytest.skip("this chromium has no Wake Lock API")
    until(page, "() => window.wakeLocks.length === 1")
    assert page.evaluate("window.wakeLocks.map((l) => [l.type, l.released])") == [["screen", False]]
    page.goto(sheet + "/hand?mode=quick")
    until(page, "() => window.wakeLocks.length === 1 && !window.wakeLocks[0].released")
    page.goto(url + "/check")  # not a sheet: no lock asked for
    page.wait_for_load_state("networkidle")  # its scripts have run and asked for all they ask
    assert page.evaluate("window.wakeLocks.length") == 0


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl CLI")
def test_over_https_the_worker_keeps_the_sheet_for_offline(browser, tmp_path):
    """``serve --certfile/--keyfile`` as the README says, reached as ``https://127.0.0.1``.

    The certificate is self-signed, so chromium runs with
    ``--ignore-certificate-errors`` (a phone would trust the certificate instead).
    """
    cert, key = make_certificate(tmp_path)
    process, url = spawn(
        tmp_path / "tls.db", workers=1, args=["--certfile", str(cert), "--keyfile", str(key)]
    )
    try:
        lenient = browser.browser_type.launch(
            executable_path=CHROMIUM, args=[*ARGS, "--ignore-certificate-errors"]
        )
        try:
            page = new_page(lenient)
            sheet = start(page, url)
            assert sheet.startswith("https://")
            worker_ready(page)
            page.context.set_offline(True)
            page.reload()
            expect(page.locator("h1")).to_have_text("Ana vs Bor")
            assert not page.errors, page.errors
        finally:
            lenient.close()
    finally:
        stop_soon(process, "test_over_https_the_worker_keeps_the_sheet_for_offline", status=None)


def test_service_worker_and_manifest_are_served_from_the_root(served):
    url, _ = served
    with urllib.request.urlopen(url + "/sw.js") as response:
        assert response.headers["Content-Type"].startswith("text/javascript")
        assert response.headers["Cache-Control"] == "no-cache"
        assert "Content-Security-Policy" in response.headers
    with urllib.request.urlopen(url + "/manifest.webmanifest") as response:
        assert response.headers["Content-Type"] == "application/manifest+json"
        assert json.load(response)["scope"] == "/"


def test_three_players_offline_keep_the_hand_typed_and_wait_for_it(page, served):
    url, db = served
    page.goto(url + "/")
    for i, name in enumerate(("Ana", "Bor", "Cy")):
        page.fill(f"#player_{i}", name)
    page.locator("label.choice", has_text="Ana").first.click()  # Ana deals and sits out
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[\w-]+$"))
    sheet = page.url
    game_id = sheet.rsplit("/", 1)[1]
    worker_ready(page)
    page.get_by_role("link", name="+ Quick hand").click()
    # offline only once the form's page has loaded (its scripts with it): cut before, the
    # scripts fail and the taps go to a form they have not set up
    page.wait_for_url(re.compile(r"/hand\?mode=quick$"))
    page.context.set_offline(True)
    quick(page, "Bor", "Knock", "4", "30")  # Bor beats Cy: 26
    expect(page.locator(".queue h2")).to_have_text("Waiting to sync: 1 hand")
    assert "Hand 1: Bor: Knock, deadwood 4 against 30" in page.locator(".queue li").inner_text()
    # who plays hand 2 depends on hand 1 (the loser, Cy, deals it): the form waits
    quick(page, "Bor", "Knock", "2", "20")
    expect(page.locator("[data-offline-note]")).to_contain_text("must reach the sheet first")
    assert stored_hands(db, game_id) == []
    page.context.set_offline(False)
    expect(page.locator(".queue h2")).to_have_text("All hands synced")
    assert [h["knocker"] for _, h in stored_hands(db, game_id)] == [1]
    page.goto(sheet)
    expect(page.locator(".player .total")).to_have_text(["0", "26", "0"])


def test_a_partnership_deal_typed_offline_is_kept_and_synced(page, served):
    url, db = served
    page.goto(url + "/")
    for i, name in enumerate(("Ana", "Bor", "Cy", "Dan")):
        page.fill(f"#player_{i}", name)
    page.locator("label.choice", has_text="Ana").first.click()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[\w-]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    worker_ready(page, "deal")
    page.context.set_offline(True)
    page.get_by_role("link", name="+ Enter the deal").click()  # opened from the kept copy
    enter_deal(page, [("Ana", "3", "20"), ("Dan", "5", "12")])
    expect(page.locator(".queue h2")).to_have_text("Waiting to sync: 1 hand")
    assert (
        "Deal 1: game 1: Ana: Knock, deadwood 3 against 20; game 2: Dan: Knock, deadwood 5"
        " against 12"
    ) in page.locator(".queue li").inner_text()
    assert stored_hands(db, game_id) == []
    page.context.set_offline(False)
    expect(page.locator(".queue h2")).to_have_text("All hands synced")
    ((_, deal),) = stored_hands(db, game_id)
    assert deal["kind"] == "deal" and [g["knocker"] for g in deal["games"]] == [0, 3]
    page.goto(f"{url}/games/{game_id}")
    # Ana & Cy won 17, Bor & Dan 7: the team of Ana and Cy scores the difference, 10
    expect(page.locator(".player .total")).to_have_text(["10", "0"])
