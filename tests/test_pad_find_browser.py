"""Browser tests of issue 21 at 360 x 740 in Debian's chromium: the games page (paging,
search, date and score), the roster on the start form, a record's link to the player's
games, Share on a finished sheet and the tally (``navigator.share`` and the clipboard
stubbed in the page to catch what is sent), and 40-letter names without spaces.

One real server (the session's ``live`` ``scorekeeper serve``), shared with other
tests: each test uses names of its own and searches by them.
"""

from __future__ import annotations

import os
import re

import pytest
import requests
from browser_kit import CHROMIUM
from playwright.sync_api import expect
from test_pad_browser import ARTIFACTS, page, quick_hand
from test_pad_review_browser import SIZES, no_sideways_scroll, shots, start

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
)

__all__ = ["page"]  # the browser page fixture of test_pad_browser, used here as well

LONG = "Wolfeschlegelsteinhausenbergerdorffvoral"  # 40 letters, no space

CATCH_SHARE = """
window.shared = [];
Object.defineProperty(navigator, 'share', { configurable: true,
  value: async (data) => { window.shared.push({ title: data.title, text: data.text,
                                                files: (data.files || []).length }); } });
Object.defineProperty(navigator, 'canShare', { configurable: true, value: () => false });
"""

CATCH_CLIPBOARD = """
window.copied = [];
Object.defineProperty(navigator, 'share', { configurable: true, value: undefined });
Object.defineProperty(navigator, 'clipboard', { configurable: true,
  value: { writeText: async (text) => { window.copied.push(text); } } });
"""


def test_the_games_page_pages_and_searches_with_date_and_score(page, live):
    page.set_viewport_size(SIZES["360"])
    ids = [live.new_game(players=["Zanzibar", f"Rival{i}"])[0].rsplit("/", 1)[1] for i in range(22)]
    page.goto(live.url + "/")
    page.get_by_role("link", name="All games").click()
    expect(page).to_have_url(re.compile(r"/games$"))
    no_sideways_scroll(page, "the games page")
    page.fill("#game-player", "zanzibar")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("ul.found a")).to_have_text(["Zanzibar"])  # the player found
    lines = page.locator("li.game-line")
    expect(lines).to_have_count(20)
    first = lines.first
    assert ids[-1] in first.locator("a").get_attribute("href")
    assert "Rival21" in first.inner_text() and "Score: 0 – 0" in first.inner_text()
    assert "Being played" in first.inner_text()
    assert first.locator("time[datetime]").get_attribute("datetime").startswith("20")
    no_sideways_scroll(page, "the games of a player")
    page.get_by_role("link", name="Older games").click()
    expect(lines).to_have_count(2)
    assert [lines.nth(i).locator("a").get_attribute("href") for i in range(2)] == [
        f"/games/{ids[1]}",
        f"/games/{ids[0]}",
    ]
    page.get_by_role("link", name="Newest games").click()
    expect(lines).to_have_count(20)


def test_the_roster_and_a_record_lead_to_the_players_games(page, live):
    page.set_viewport_size(SIZES["360"])
    live.new_game(players=["Quenby", "Ottoline"])
    page.goto(live.url + "/")
    names = page.locator("datalist#roster option").evaluate_all("os => os.map(o => o.value)")
    assert {"Quenby", "Ottoline"} <= set(names)
    assert page.get_attribute("#player_0", "list") == "roster"
    assert page.get_attribute("#player_0", "autocomplete") is None
    page.locator("header.top summary").click()  # a phone's menu
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Players").click()
    page.get_by_role("link", name="Quenby", exact=True).click()
    expect(page.locator("h1")).to_have_text("Quenby's record")
    page.get_by_role("link", name="Quenby's games").click()
    expect(page).to_have_url(re.compile(r"/games\?player=Quenby$"))
    expect(page.locator("li.game-line")).to_have_count(1)
    assert "Ottoline" in page.locator("li.game-line").inner_text()


def caught(page, name: str, count: int) -> list:
    """``window[name]`` once it holds ``count`` items (the page's policy forbids
    ``wait_for_function``'s eval, so the test asks again)."""
    for _ in range(50):
        found = page.evaluate(f"window.{name}")
        if len(found) >= count:
            return found
        page.wait_for_timeout(100)
    raise AssertionError(f"window.{name} has {found!r}, not {count} items")


def finish(page, live, names, target="60"):
    """A game of ``names`` started on the start form, played to its end (Bor goes gin twice)."""
    start(page, live.url, names=names, target=target)
    quick_hand(page, names[1], "Gin", None, "10")  # 35
    quick_hand(page, names[1], "Gin", None, "10")  # 70: over


def test_share_sends_the_settlement_and_the_final_table(page, live):
    page.set_viewport_size(SIZES["360"])
    page.add_init_script(CATCH_SHARE)
    finish(page, live, ("Philippa", "Barnabas"))
    over = page.locator("section.over")
    pays = over.locator(".pays").inner_text()
    assert "Philippa pays Barnabas" in pays
    over.get_by_role("button", name="Share").click()
    shared = caught(page, "shared", 1)[0]
    assert pays in shared["text"] and "Game over: Barnabas wins" in shared["text"]
    final = next(line for line in shared["text"].splitlines() if line.startswith("Final"))
    finals = over.locator("tr", has_text="Final").locator("td").all_inner_texts()
    assert re.split(r"\s+", final)[1:] == finals
    assert shared["files"] == 0  # this stub cannot share files

    # The tally of two games, shared from its page.
    page.get_by_role("button", name="New game with the same players").click()
    quick_hand(page, "Philippa", "Gin", None, "40")  # 65: over
    page.get_by_role("link", name="The tally, game by game").click()
    standing = page.locator(".standing").inner_text()
    page.get_by_role("button", name="Share").click()
    text = caught(page, "shared", 1)[0]["text"]  # a new page: a new catch
    assert re.sub(r"\s+", " ", standing) in text
    assert "Barnabas won" in text and "Philippa won" in text


def test_share_copies_the_text_without_the_web_share_api(page, live):
    page.set_viewport_size(SIZES["360"])
    page.add_init_script(CATCH_CLIPBOARD)
    finish(page, live, ("Leopoldina", "Maximilian"))
    over = page.locator("section.over")
    over.get_by_role("button", name="Share").click()
    expect(over.locator("[data-share-note]")).to_have_text("Copied")
    text = caught(page, "copied", 1)[0]
    assert over.locator(".pays").inner_text() in text and "Final" in text


def test_forty_letter_names_stay_within_360_px(page, live):
    page.set_viewport_size(SIZES["360"])
    start(page, live.url, names=(LONG, "B" + LONG[1:]), target="60")  # checks the start page
    page.get_by_role("link", name="+ Quick hand").click()
    expect(page).to_have_url(re.compile(r"/hand\?mode=quick"))
    no_sideways_scroll(page, "the quick hand form")
    page.go_back()
    quick_hand(page, "B" + LONG[1:], "Gin", None, "10")  # 35
    expect(page).to_have_url(re.compile(r"done=added"))
    no_sideways_scroll(page, "the sheet during the game")
    quick_hand(page, "B" + LONG[1:], "Gin", None, "10")  # 70: over
    expect(page.locator("section.over")).to_be_visible()
    no_sideways_scroll(page, "the sheet at game end")
    page.get_by_role("button", name="New game with the same players").click()
    quick_hand(page, LONG, "Gin", None, "40")  # 65: over
    expect(page.locator("section.over")).to_be_visible()
    no_sideways_scroll(page, "the sheet of the second game")
    page.get_by_role("link", name="The tally, game by game").click()
    expect(page.locator("ol.tally li")).to_have_count(2)
    shots(page, "tally-long-names")  # no sideways scroll at 360 and 390 px
    page.goto(live.url + "/games?player=" + LONG)
    expect(page.locator("li.game-line")).to_have_count(2)
    no_sideways_scroll(page, "the games page")
    page.goto(live.url + "/players?name=" + LONG)
    no_sideways_scroll(page, "the record")
    page.goto(live.url + "/")
    no_sideways_scroll(page, "the start page with the long names in the recent games")


def test_the_games_page_filters_by_part_of_a_name_status_and_days(page, live):
    page.set_viewport_size(SIZES["360"])
    for i in range(3):
        live.new_game(players=["Quillon Bravadossa", f"Foe{i}"])
    over, auth = live.new_game(players=["Foe9", "Quillon Bravadossa"], rules={"target": 10})
    hand = {"kind": "quick", "knocker": 1, "knocker_deadwood": 0, "defender_deadwood": 20}
    assert requests.post(f"{over}/hands", json=hand, headers=auth, timeout=10).status_code == 201
    page.goto(live.url + "/games")
    page.fill("#game-player", "BRAVA")
    page.select_option("#game-status", "over")
    today = page.evaluate("new Date().toLocaleDateString('sv')")  # the phone's day, ISO
    yesterday = page.evaluate("new Date(Date.now() - 864e5).toLocaleDateString('sv')")
    page.fill("#game-from", yesterday)  # the games were made before today was read: midnight
    page.fill("#game-to", today)
    page.get_by_role("button", name="Show").click()
    lines = page.locator("li.game-line")
    expect(lines).to_have_count(1)
    assert over.rsplit("/", 1)[1] in lines.first.locator("a").get_attribute("href")
    assert "Finished" in lines.first.inner_text()
    expect(page.locator("ul.found a")).to_have_text(["Quillon Bravadossa"])
    expect(page.locator("#game-status")).to_have_value("over")
    expect(page.locator("#game-from")).to_have_value(yesterday)
    assert page.locator("p.muted", has_text="Games made from").count() == 1
    no_sideways_scroll(page, "the games page with its filters")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / "pad-games-filters-360.png"))
    page.fill("#game-player", "Quilon")  # a letter short: nobody, but a near name
    page.select_option("#game-status", "")
    page.get_by_role("button", name="Show").click()
    expect(page.get_by_text("Did you mean:")).to_be_visible()
    page.locator("ul.near a", has_text="Quillon Bravadossa").click()
    expect(page.locator("h1")).to_have_text("Games with Quillon Bravadossa")
    expect(lines).to_have_count(4)
