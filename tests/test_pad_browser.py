"""Browser tests of the scorepad: Playwright (Python) driving Debian's chromium at 390 x 844.

A real gunicorn serves the app on a free port with a temporary database.
The tests never download a browser: they use ``/usr/bin/chromium`` (the
README's test command installs it from Debian's packages) and are skipped
with a message when it is missing. Screenshots of the main screens go to
``tests/artifacts/`` (ignored by git).
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from html import unescape
from pathlib import Path

import pytest
from browser_kit import CHROMIUM, WAIT
from playwright.sync_api import expect
from serve_kit import stop_soon

import scorekeeper as sk

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
)

# Ana goes out with A-2-3 of spades, three fours and 9-10-J of diamonds, 2 of clubs
# left (deadwood 2); Bor has 4-5-6 of spades, 7-8-9 of clubs and J-Q-K of hearts,
# 3 of diamonds left (deadwood 3; the 4 of spades could also go on Ana's melds).
ANA = "As 2s 3s 4c 4d 4h 9d Td Jd 2c".split()
BOR = "5s 6s 4s 7c 8c 9c Kh Qh Jh 3d".split()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """A real gunicorn serving ``api:create_app()`` on a temporary database."""
    port = _free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_DB": str(tmp_path_factory.mktemp("pad") / "pad.db"),
        "SCOREKEEPER_SECRET_KEY": "browser-tests",
    }
    gunicorn = Path(sys.executable).with_name("gunicorn")
    process = subprocess.Popen(
        [
            str(gunicorn),
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            "2",
            "--log-level",
            "warning",
            "api:create_app()",
        ],
        cwd=ROOT,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90  # a condition: a busy machine starts it late, that's all
    while True:
        try:
            with urllib.request.urlopen(url + "/", timeout=10):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail("gunicorn did not start")
            time.sleep(0.1)
    yield url
    stop_soon(process, f"{__name__}'s gunicorn", status=None)  # graceful: seconds


@pytest.fixture
def page(browser):
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda msg: (
            errors.append(msg.text)
            if msg.type == "error" and "Failed to load resource" not in msg.text
            else None
        ),
    )
    page.on("dialog", lambda dialog: dialog.accept())
    yield page
    context.close()
    assert not errors, f"browser errors: {errors}"


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"pad-{name}.png"), full_page=True)


def start_game(page, server, names=("Ana", "Bor"), preset="standard", stake="0.05"):
    page.goto(server + "/")
    page.fill("#player_0", names[0])
    page.fill("#player_1", names[1])
    page.locator("label.choice", has_text=names[0]).first.click()  # Ana deals first
    page.locator("label.choice", has_text=preset.capitalize()).click()
    if stake:
        page.fill("#stake", stake)
    return page


def quick_hand(page, who: str, kind: str, mine: str | None, theirs: str) -> None:
    page.get_by_role("link", name="+ Quick hand").click()
    expect(page).to_have_url(re.compile(r"/hand\?mode=quick"))
    page.wait_for_load_state("domcontentloaded")
    # The page's script shows the tap pad above the form: tap once it has, or the layout
    # shifts between Playwright's aim and its click and the tap lands on the pad instead.
    expect(page.locator("[data-quick-pad][hidden]")).to_have_count(0)
    page.locator("label.choice", has_text=who).click()
    page.locator("label.choice", has_text=re.compile(f"^{kind}$", re.I)).click()
    if mine is not None and kind == "Knock":
        page.fill("#knocker_deadwood", mine)
    page.fill("#defender_deadwood", theirs)
    page.get_by_role("button", name="Add to the sheet").click()


def expect_totals(page, values: list[str]) -> None:
    """The running totals shown, once the page has them (Playwright waits for it)."""
    expect(page.locator(".player .total")).to_have_text(values)


def tap(page, grid: str, codes) -> None:
    for code in codes:
        page.locator(f"label[for='{grid}-{code}']").click()


def test_game_from_start_to_finish(page, server, browser):
    start_game(page, server)
    # The options follow the preset chosen (the preset's values are shown).
    page.locator("label.choice", has_text="Classic").click()
    page.locator("details.options summary").click()
    assert page.input_value("#opt-gin_bonus") == "20"
    page.locator("label.choice", has_text="Standard").click()
    assert page.input_value("#opt-gin_bonus") == "25"
    shot(page, "start")
    page.get_by_role("button", name="Start the game").click()
    expect_url = re.compile(r"/games/[\w-]+$")
    assert expect_url.search(page.url)
    sheet_url = page.url
    expect_totals(page, ["0", "0"])
    assert "Ana deals" in page.inner_text("main")

    # Hand 1 by tapping cards: live deadwood, a card used twice is refused.
    page.get_by_role("link", name="+ Tap the cards").click()
    page.locator("label.choice", has_text="Ana").click()
    tap(page, "p0", ANA[:3])
    live = page.locator("#live-p0")
    live.get_by_text("deadwood 0").wait_for()
    tap(page, "p0", ANA[3:])
    live.get_by_text("deadwood 2").wait_for()
    assert "10 cards" in live.inner_text()
    assert live.locator(".meld").count() == 3
    assert page.locator("#p1-As").is_disabled()  # Ana holds the ace of spades
    tap(page, "p1", BOR)
    page.locator("#live-p1").get_by_text("deadwood 3").wait_for()
    shot(page, "cards")
    page.get_by_role("button", name="Check the hand").click()
    result = page.locator("#result")
    assert "Ana knocks and scores 1" in result.inner_text()
    assert page.locator("#p0-As").is_checked()  # what was tapped is kept
    shot(page, "cards-checked")
    page.get_by_role("button", name="Add to the sheet").click()
    expect(page.locator("[data-saved]")).to_contain_text("Hand 1 added.")  # on the sheet
    page.get_by_role("link", name="See the showdown").click()
    main = page.inner_text("main")
    assert "Laid off" in main and "deadwood 2" in main
    assert page.locator(".showdown [aria-label='four of spades']").count() >= 1
    shot(page, "hand-result")
    page.get_by_role("link", name="Back to the sheet").first.click()
    expect_totals(page, ["1", "0"])

    # Quick hands, with a mistake shown next to its field and nothing lost.
    page.get_by_role("link", name="+ Quick hand").click()
    page.locator("label.choice", has_text="Bor").click()
    page.fill("#knocker_deadwood", "12")
    page.fill("#defender_deadwood", "30")
    page.get_by_role("button", name="Add to the sheet").click()
    error = page.locator("#err-knocker_deadwood")
    assert "10 or less" in error.inner_text()
    assert page.input_value("#defender_deadwood") == "30"
    assert page.locator("input[name=knocker][value='1']").is_checked()
    shot(page, "quick-error")
    page.fill("#knocker_deadwood", "5")
    page.get_by_role("button", name="Add to the sheet").click()
    expect_totals(page, ["1", "25"])  # Bor knocks 5 v 30
    quick_hand(page, "Ana", "Gin", None, "20")  # Ana: 25 + 20
    expect_totals(page, ["46", "25"])

    # Undo the last hand, then correct hand 2 and void hand 1.
    page.get_by_role("button", name="Undo the last hand").click()
    expect_totals(page, ["1", "25"])
    assert "Hand 3 taken back" in page.inner_text("main")
    page.get_by_role("link", name="Hand 2 details").click()
    page.get_by_role("link", name="Correct hand 2").click()
    assert page.input_value("#defender_deadwood") == "30"
    page.fill("#defender_deadwood", "15")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("[data-saved]")).to_contain_text(  # back on the sheet
        "Hand 2 corrected; the sheet is recomputed."
    )
    expect_totals(page, ["1", "10"])
    page.get_by_role("link", name="Hand 1 details").click()
    page.get_by_role("button", name="Void hand 1").click()
    expect_totals(page, ["0", "10"])
    assert page.locator("#hand-1 .badge.void").count() == 1
    shot(page, "sheet")

    # Play to the end: Bor gins three times (25 + 10 each: 10 + 105 = 115).
    for _ in range(3):
        quick_hand(page, "Bor", "Gin", None, "10")
    expect_totals(page, ["0", "115"])
    over = page.locator("section.over")
    text = over.inner_text()
    assert "Game over: Bor wins" in text and "Shutout" in text
    assert "Game bonus (doubled: shutout)" in text and "200" in text
    assert "Box bonus (25 a box)" in text and "415" in text  # 115 + 100 + 200
    assert "Ana pays Bor 20.75" in text  # 415 x 0.05
    assert page.locator(".chart polyline").count() == 2
    shot(page, "game-over")

    # Anyone else with the link sees the sheet read-only.
    other = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    watcher = other.new_page()
    watcher.goto(sheet_url)
    assert "read-only" in watcher.inner_text("main")
    assert watcher.get_by_role("button", name="Undo the last hand").count() == 0
    assert watcher.get_by_role("button", name="New game with the same players").count() == 0
    assert watcher.locator(".player .total").all_inner_texts() == ["0", "115"]
    shot(watcher, "shared-read-only")
    response = watcher.goto(sheet_url + "/hand")
    assert response.status == 403
    other.close()

    # New game with the same players: Bor won, so Bor deals.
    page.get_by_role("button", name="New game with the same players").click()
    expect(page).not_to_have_url(sheet_url)
    expect_totals(page, ["0", "0"])
    assert "Bor deals" in page.inner_text("main")


def next_link(url: str, html: str) -> str:
    """The address of the Next link of the replay page ``html`` (at ``url``)."""
    found = re.search(r'data-step="next" href="([^"#]+)"', html)
    assert found, f"no Next link on {url}"
    return urllib.parse.urljoin(url, unescape(found.group(1)))


def test_replay_a_record_and_enter_it(page, server):
    record = sk.simulate(7, dealer=0)
    result = sk.replay(record)
    page.goto(server + "/replay")
    page.fill("#record", json.dumps(record))
    page.get_by_role("button", name="Replay from the start").click()
    assert "Step 0 of" in page.inner_text(".steps")
    assert page.locator(".hand-row").count() == 2
    # stepping is plain links (the record travels in them), so Back steps back too
    page.get_by_role("link", name="Next").click()
    assert "Step 1 of" in page.inner_text(".steps")
    page.get_by_role("link", name="Next").click()
    assert "Step 2 of" in page.inner_text(".steps")
    page.go_back()
    assert "Step 1 of" in page.inner_text(".steps")
    page.get_by_role("link", name="Previous").click()
    assert "Step 0 of" in page.inner_text(".steps")
    shot(page, "replay-start")
    steps = len(record["actions"]) + (0 if result.void else 1)
    # each step after, by its page's Next link, fetched by the phone (a page opened for
    # each, 0.3 s, would check nothing the clicks above do not), the last one opened
    at = next_link(page.url, page.content())
    for n in range(1, steps + 1):
        answer = page.request.get(at)
        assert answer.status == 200 and f"Step {n} of {steps}<" in answer.text(), n
        at = next_link(at, answer.text()) if n < steps else at
    page.goto(at)
    assert page.get_by_role("link", name="Next").get_attribute("aria-disabled") == "true"
    assert "Where it was won or lost" in page.inner_text(".analysis")
    if result.void:
        assert "void" in page.inner_text("main")
    else:
        assert "The result" in page.inner_text("main")
    shot(page, "replay-end")

    # The same deal entered as a hand of a game with the record's players.
    start_game(page, server, names=tuple(record["players"]), stake="")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="+ Deal record").click()
    page.fill("#record", "{not json")
    page.get_by_role("button", name="Add to the sheet").click()
    assert "not a deal record" in page.inner_text("#err-record")
    assert page.input_value("#record") == "{not json"
    page.fill("#record", json.dumps(record))
    page.get_by_role("button", name="Add to the sheet").click()
    assert "Hand 1 added" in page.inner_text("main")
    page.get_by_role("link", name="See the showdown").click()
    page.get_by_role("link", name="Replay this deal step by step").click()
    page.get_by_role("link", name="Next").click()
    assert "Step 1 of" in page.inner_text(".steps")


def test_check_a_knock(page, server):
    page.goto(server + "/check")
    tap(page, "k", ANA)
    tap(page, "d", BOR[:9])
    page.get_by_role("button", name="Check the hand").click()
    assert "Tap 10 cards for the other player; 9 tapped" in page.inner_text("#err-defender_cards")
    assert page.locator("#d-5s").is_checked()
    tap(page, "d", BOR[9:])
    page.get_by_role("button", name="Check the hand").click()
    text = page.inner_text("#result")
    assert "knocks and scores 1" in text and "Laid off" in text
    shot(page, "check")


@pytest.mark.parametrize("locale", ["en", "el"])  # Greek's words are the longest
def test_the_grid_stays_put_under_the_taps_as_the_melds_come(browser, server, locale):
    """Each tap's melds come back from the server a moment later, into the strip above the
    grid: the strip has their room from the start, so no card moves under the next tap."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, locale=locale
    )
    page = context.new_page()
    page.goto(server + "/check")
    where = (  # in the page (a tap may scroll it), not in the window
        "() => document.querySelector(\"label[for='k-4c']\").getBoundingClientRect().top"
        " + window.scrollY"
    )
    first = page.evaluate(where)
    for count, code in enumerate(ANA, 1):  # three melds at the end, on two lines
        page.locator(f"label[for='k-{code}']").click()
        page.wait_for_function(  # the server's melds for these cards are shown
            "(n) => document.querySelector('#live-k .count').textContent.startsWith(n + ' ')"
            " && document.querySelector('#live-k .dw')",
            arg=count,
        )
        assert page.evaluate(where) == first, (locale, code)
    assert page.locator("#live-k .meld").count() == 3
    context.close()


def test_typed_cards_take_the_languages_letters(browser, server):
    """A French phone: the grid shows V D R for jack, queen, king, and the typed box takes
    them (and the English letters), its feedback writing cards the French way."""
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(WAIT)
    page.goto(server + "/check")
    assert page.inner_text("label[for=k-Jd]") == "V♦"
    page.fill("#k-typed", "Vd dd R♦ 10d Jt Ap")  # trèfle, pique: the French suit letters
    for code in ("Jd", "Qd", "Kd", "Td", "Jc", "As"):
        expect(page.locator(f"#k-{code}")).to_be_checked()
    page.fill("#k-typed", "Vd Jd")
    expect(page.locator("#live-k")).to_contain_text("V♦")
    page.fill("#k-typed", "Ac")  # cœur, or clubs in English: refused naming both
    expect(page.locator("#live-k")).to_contain_text("A♥")
    expect(page.locator("#live-k")).to_contain_text("A♣")
    expect(page.locator("#k-Ac")).not_to_be_checked()
    expect(page.locator("#k-Ah")).not_to_be_checked()
    context.close()


def test_hollywood_four_colour_deck_and_desktop(page, server):
    start_game(page, server, names=("Cleo", "Dan"), preset="hollywood", stake="")
    page.get_by_role("button", name="Start the game").click()
    for points in ("10", "20", "5"):
        quick_hand(page, "Cleo", "Gin", None, points)
    quick_hand(page, "Dan", "Knock", "2", "30")
    expect(page.locator("table.columns tbody tr")).to_have_count(3)
    columns = page.locator("table.columns tbody tr").all_inner_texts()
    # Cleo: 35 in game 1; 45 in games 1-2; 30 in games 1-3 (game 1 closes at 110).
    # Dan was shut out of game 1, so his first win (28) opens game 2.
    assert [row.split()[:3] for row in columns] == [
        ["1", "110", "·"],
        ["2", "75", "28"],
        ["3", "30", "·"],
    ]
    assert "Cleo wins" in columns[0]
    page.get_by_role("button", name="Four-colour deck").click()
    assert page.locator("html.four").count() == 1
    page.get_by_role("link", name="+ Tap the cards").click()
    tap(page, "p0", ["Ad", "2d", "3d", "Kc"])
    page.locator("#live-p0").get_by_text("deadwood 10").wait_for()
    colour = page.eval_on_selector("label[for='p0-Ad']", "e => getComputedStyle(e).backgroundColor")
    assert colour == "rgb(19, 80, 184)"  # diamonds are blue
    shot(page, "hollywood-four-colour-cards")
    page.set_viewport_size({"width": 1280, "height": 900})
    assert (
        page.eval_on_selector(".grid", "e => getComputedStyle(e).gridTemplateColumns").count("px")
        == 13
    )
    shot(page, "desktop-cards")


def test_narrow_phone_has_no_sideways_scrolling(page, server):
    # 360 px is the most common Android width; the top bar must fit (or wrap) in it
    page.set_viewport_size({"width": 360, "height": 780})
    for path in ("/", "/check", "/replay"):
        page.goto(server + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{path} is {width} px wide at 360 px"
        page.locator("header.top summary").click()  # the menu: one tap
        assert (
            page.get_by_role("link", name="Replay").bounding_box()["x"]
            + page.get_by_role("link", name="Replay").bounding_box()["width"]
            <= 360
        )


def test_the_language_switch_at_360_px(page, server):
    # the footer's switch: a labelled list of the languages and a button, a plain form
    page.set_viewport_size({"width": 360, "height": 780})
    page.goto(server + "/check?x=1")
    switch = page.get_by_label("Language")
    button = page.locator("footer .language button")
    for part in (switch, button):
        box = part.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360 and box["height"] >= 40
    switch.select_option(label="Ελληνικά")
    button.click()
    expect(page.locator("html")).to_have_attribute("lang", "el")
    assert page.url == server + "/check?x=1"
    assert page.evaluate("document.getElementById('language').value") == "el"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "language-switch")
