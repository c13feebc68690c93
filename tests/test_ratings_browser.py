"""The ladder and a player's rating chart in Debian's chromium at 360 x 740, light and
dark: from the players page to the ladder (its filters), to a player's record with the
rating's history drawn as an inline SVG; screenshots to tests/artifacts/.

One real server (the session's ``live`` ``scorekeeper serve``), shared with other tests:
the players here have names of their own.
"""

from __future__ import annotations

import os
import random

import pytest
import requests
from browser_kit import CHROMIUM, overflow
from playwright.sync_api import expect
from test_pad_browser import ARTIFACTS, page
from test_pad_review_browser import SIZES

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
)

__all__ = ["page"]  # the browser page fixture of test_pad_browser, used here as well

CLUB = ["Ladderana", "Ladderbor", "Laddercvetka", "Ladderdusan"]


def finished(live, first: str, second: str, winner: int) -> None:
    """A game of two to 50 ended by one gin of seat ``winner``, through the API."""
    url, auth = live.new_game(players=[first, second], rules={"target": 50})
    hand = {"kind": "quick", "knocker": winner, "knocker_deadwood": 0, "defender_deadwood": 40}
    response = requests.post(f"{url}/hands", json=hand, headers=auth, timeout=10)
    assert response.json()["sheet"]["status"] == "over", response.text


def test_the_ladder_and_the_rating_chart_at_360_px_light_and_dark(page, live):
    rng = random.Random(29)
    for _ in range(14):
        first, second = rng.sample(CLUB, 2)
        finished(live, first, second, 0 if CLUB.index(first) < CLUB.index(second) else 1)
    finished(live, "Ladderemil", "Ladderana", 1)  # Emil: one game only
    page.set_viewport_size(SIZES["360"])
    page.goto(live.url + "/players")
    page.get_by_role("link", name="The ladder: players by rating").click()
    expect(page.get_by_role("heading", name="Ladder")).to_be_visible()
    rows = page.locator("table.ladder tbody tr")
    mine = rows.filter(has_text="Ladder")
    expect(mine).to_have_count(5)
    # the strongest of the club (Ana beats everyone) is above the others
    assert mine.first.locator("th").inner_text() == "Ladderana"
    page.fill("#ladder-min", "2")
    page.select_option("#ladder-days", "30")
    page.get_by_role("button", name="Show").click()
    expect(mine).to_have_count(4)  # Emil has one game
    assert "Ladderemil" not in page.locator("table.ladder").inner_text()
    assert overflow(page) == []
    shoot(page, "ladder")
    page.goto(live.url + "/ladder?min=x")  # typed into the address: a word of what is wrong
    expect(page.locator("#err-min")).to_contain_text("whole number")

    page.goto(live.url + "/ladder")
    mine.first.get_by_role("link").click()
    chart = page.locator("svg.rating-chart")
    expect(chart).to_be_visible()
    points = chart.locator("polyline").get_attribute("points").split()
    rated = requests.get(f"{live.url}/api/v1/players/Ladderana/rating", timeout=10).json()
    assert len(points) == rated["games"] > 2  # one point per game
    expect(page.locator(".rating-number")).to_have_text(str(rated["rating"]))
    assert chart.get_attribute("role") == "img"
    box = chart.bounding_box()
    assert 300 <= box["width"] <= 360 and box["height"] > 150
    assert overflow(page) == []
    shoot(page, "rating")


def shoot(page, name: str) -> None:
    """The page at 360 x 740 in the light and the dark colour scheme."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_load_state("load")
        page.screenshot(path=str(ARTIFACTS / f"pad-{name}-360-{scheme}.png"), full_page=True)
    page.emulate_media(color_scheme="light")
