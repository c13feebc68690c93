"""The director's roster forms in chromium, and the wall following them without a reload.

A 6-player Swiss of 3 rounds is made through the API and its round 1 played there. The
director's phone (360 x 740) takes the right with the director token, withdraws a player,
adds a late entry, pairs round 2 and swaps two players (confirming a rematch when the
swap makes one); the wall (1280 x 720, its own context) shows each change within a few
seconds, never reloaded. The director's page passes axe and has nothing sideways at
360 px with the new forms. Screenshots: tests/artifacts/event-roster-*.png.
"""

from __future__ import annotations

import os
import re

import pytest
import requests
from browser_kit import AXE, CHROMIUM, Words
from playwright.sync_api import expect
from serve_kit import spawn, stop_soon
from test_pad_events_browser import (
    PHONE,
    WALL,
    checked,
    context_page,
    next_check,
    open_wall,
    shot,
)

pytestmark = [
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
    ),
    pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (tests/run.sh)"),
]

SIX = ["Ana", "Bor", "Cene", "Dušan", "Eva", "Filip"]
t = Words("en")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    process, url = spawn(tmp_path_factory.mktemp("roster") / "roster.db", workers=2)
    yield url
    stop_soon(process, f"{__name__}'s server")


def finish(url: str, match: dict) -> None:
    """Gins by the first player until the game is over, with the match's edit token."""
    game = f"{url}/api/v1/games/{match['game_id']}"
    auth = {"Authorization": f"Bearer {match['edit_token']}"}
    while not requests.get(game, timeout=10).json()["over"]:
        hand = {"kind": "quick", "knocker": 0, "knocker_deadwood": 0, "defender_deadwood": 60}
        response = requests.post(f"{game}/hands", json=hand, headers=auth, timeout=10)
        assert response.status_code == 201, response.text


def test_roster_changes_on_the_directors_phone_show_on_the_wall(server, browser):
    body = {"name": "Late night", "players": SIX, "format": "swiss", "rounds": 3}
    created = requests.post(f"{server}/api/v1/events", json=body, timeout=10).json()
    event_id, token = created["id"], created["director_token"]
    auth = {"Authorization": f"Bearer {token}"}
    first = requests.post(f"{server}/api/v1/events/{event_id}/rounds", headers=auth, timeout=10)
    for match in first.json()["matches"]:
        finish(server, match)

    wall = context_page(browser, WALL)
    open_wall(wall, f"{server}/events/{event_id}/wall")
    wall.evaluate("window.keptWithoutReload = true")
    phone = context_page(browser, PHONE)
    phone.goto(f"{server}/events/{event_id}/restore")
    phone.get_by_label(t("The director token")).fill(token)
    phone.get_by_role("button", name=t("Direct the event on this phone")).click()
    expect(phone.locator("#roster-title")).to_have_text(t("Players"))
    checked(phone, "director, roster forms")

    phone.locator("#withdraw-player").select_option("Filip")
    phone.get_by_role("button", name=t("Withdraw the player")).click()
    expect(phone.locator("#roster-part .notice")).to_contain_text("Filip is withdrawn")
    mark = t("withdrawn from round %(number)s", number=2)
    next_check(wall)
    expect(wall.locator("table.standings")).to_contain_text(mark)

    phone.get_by_role("form", name=t("Late entry")).get_by_label(t("Player")).fill("Gal")
    phone.get_by_role("button", name=t("Add the player")).click()
    expect(phone.locator("#roster-part .notice")).to_contain_text("Gal is entered")
    next_check(wall)
    expect(wall.locator("table.standings tbody tr")).to_have_count(7)

    phone.get_by_role("button", name=t("Pair the next round")).click()
    expect(wall.locator("h1")).to_contain_text(t("Round %(number)s", number=2))
    second = requests.get(f"{server}/api/v1/events/{event_id}", timeout=10).json()["rounds"][1]
    seated = {name for m in second["matches"] for name in m["players"]} | set(second["byes"])
    assert seated == {"Ana", "Bor", "Cene", "Dušan", "Eva", "Gal"}
    (a, _), (c, _) = second["matches"][0]["players"], second["matches"][1]["players"]
    phone.locator("#swap-first").select_option(a)
    phone.locator("#swap-second").select_option(c)
    checked(phone, "director, round 2 paired")
    shot(phone, "roster-director")
    phone.get_by_role("button", name=t("Swap them")).click()
    if phone.locator("h1").inner_text() == t("Swap anyway?"):  # the swap made a rematch
        checked(phone, "swap, asked first")
        phone.get_by_role("button", name=t("Swap anyway")).click()
    expect(phone.locator("#roster-part .notice")).to_contain_text(
        t(
            "The players are swapped. Tables %(tables)s have new games: print their cards again.",
            tables="1, 2",
        )
    )
    swapped = requests.get(f"{server}/api/v1/events/{event_id}", timeout=10).json()["rounds"][1]
    table_one = swapped["matches"][0]["players"]
    assert c in table_one and a not in table_one
    next_check(wall)
    expect(wall.locator("ul.tables li").first).to_contain_text(re.compile(re.escape(c)))
    shot(wall, "roster-wall")
    assert wall.evaluate("window.keptWithoutReload") is True
