"""A season's page on a 360 x 740 phone in the six languages, its form, and the wall's season
table between rounds (issue 29, item 2).

One real ``scorekeeper serve`` over a SQLite file filled first through the store: a Swiss
club night of eight (two rounds played, long names), a finished casual game, and a season
of today by placement points with casual games. Debian's chromium reads the season's page
in each language: nothing sticks out of the phone, the rank, player and points columns are
in view, the rows are the API's table. Screenshots:
``tests/artifacts/season-<lang>-table-360.png``, ``season-en-form-360.png`` and
``season-en-wall-1920.png``.
"""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
import requests
from browser_kit import CHROMIUM, COLOUR_RULES, axe_problems, overflow, watch_errors
from conftest import today
from playwright.sync_api import expect
from serve_kit import spawn, stop_soon
from store_kit import quick
from test_pad_browser import ARTIFACTS
from test_phone_layout_browser import NARROW, phone

from api.i18n import LANGUAGES
from scorekeeper.store import events, games, seasons
from scorekeeper.store.sqlite import Storage

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
)

NIGHT = (
    "Ana",
    "Borislava Kovačević-Novak",
    "Cvetka",
    "Dušan",
    "Eva",
    "Filip",
    "Gal",
    "Hana Zupančič",
)


def _finish(store: Storage, game_id: str, seat: int) -> None:
    while store.game(game_id).status.value == "active":
        games.add_hand(store, game_id, quick(seat, 0, 20 + 7 * seat))


def seed(path: str) -> dict[str, str]:
    """The night (two rounds played), a casual game and the season: their ids."""
    store = Storage(path, durable=False)
    try:
        night, _ = events.create_event(store, "Friday club", list(NIGHT), "swiss", 3)
        for number in (1, 2):
            for match in events.pair_round(store, night.id).matches:
                _finish(store, match.game_id, (match.table + number) % 2)
        casual, _ = games.create_game(store, ["Ana", "Gal"])
        _finish(store, casual.id, 1)
        day = today()  # read after the games: yesterday too, past midnight
        first, last = str(day - timedelta(days=1)), str(day)
        season = seasons.create_season(
            store, "Winter league", first, last, "placement", casual_games=True
        )
        return {"night": night.id, "season": season.id}
    finally:
        store.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = tmp_path_factory.mktemp("season") / "season.db"
    ids = seed(str(db))
    process, url = spawn(db, workers=2)
    yield url, ids
    stop_soon(process, f"{__name__}'s server", status=None)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_season_table_fits_a_phone(browser, served, lang):
    url, ids = served
    table = requests.get(f"{url}/api/v1/seasons/{ids['season']}/table", timeout=10).json()
    page = phone(browser, lang)
    watch_errors(page)
    try:
        page.goto(f"{url}/seasons/{ids['season']}")
        problems = overflow(page)
        heads = page.locator("table.season-table thead th")
        for i in range(3):  # rank, player, points: what the table ranks by
            box = heads.nth(i).bounding_box()
            if box["x"] + box["width"] > NARROW["width"]:
                problems.append(f"column {i + 1} ends at {box['x'] + box['width']} px")
        rows = page.locator("table.season-table tbody tr")
        expect(rows).to_have_count(len(NIGHT))
        shown = [
            (rows.nth(i).locator("td").first.inner_text(), rows.nth(i).locator("bdi").inner_text())
            for i in range(len(NIGHT))
        ]
        assert shown == [(str(x["rank"]), x["player"]) for x in table["table"]]
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"season-{lang}-table-360.png"), full_page=True)
    finally:
        page.context.close()
    assert not problems, problems


def test_the_form_makes_a_season_and_the_wall_shows_it_between_rounds(browser, served):
    url, ids = served
    page = phone(browser)
    watch_errors(page)
    try:
        page.goto(f"{url}/seasons/new")
        assert not overflow(page)
        page.screenshot(path=str(ARTIFACTS / "season-en-form-360.png"), full_page=True)
        page.get_by_label("The season's name").fill("Spring cup")
        page.get_by_label("First day").fill("2026-03-01")
        page.get_by_label("Last day").fill("2026-02-01")
        page.get_by_role("button", name="Create the season").click()
        expect(page.locator("#err-last_day")).to_contain_text("is before the first day")
        page.get_by_label("Last day").fill("2026-05-31")
        page.get_by_role("button", name="Create the season").click()
        expect(page.locator("h1")).to_have_text("Spring cup")
    finally:
        page.context.close()
    wall = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    watch_errors(wall)
    try:
        wall.goto(f"{url}/events/{ids['night']}/wall")
        expect(wall.locator("#season-title")).to_contain_text("Winter league")
        expect(wall.locator(".season-wall tbody tr")).to_have_count(len(NIGHT))
        wall.screenshot(path=str(ARTIFACTS / "season-en-wall-1920.png"), full_page=True)
    finally:
        wall.context.close()


def test_the_season_pages_pass_axe_in_light_and_dark(browser, served):
    """axe-core's serious and critical findings on the form, the form naming a mistake and
    the season's page: none, light and dark (as tests/test_pad_axe.py checks the others)."""
    url, ids = served
    page = phone(browser)
    problems: list[str] = []
    try:
        create = page.get_by_role("button", name="Create the season")
        for state, shown, go in (
            ("season-new", "#season-name", lambda: page.goto(f"{url}/seasons/new")),
            ("season-new-errors", "#err-name", create.click),
            (
                "season-table",
                "table.season-table",
                lambda: page.goto(f"{url}/seasons/{ids['season']}"),
            ),
        ):
            go()
            expect(page.locator(shown)).to_be_visible()
            problems += axe_problems(page, f"{state} (light)")
            page.emulate_media(color_scheme="dark")
            problems += axe_problems(page, f"{state} (dark)", COLOUR_RULES)
            page.emulate_media(color_scheme="light")
    finally:
        page.context.close()
    assert not problems, "\n".join(problems)
