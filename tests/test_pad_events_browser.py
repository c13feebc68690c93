"""A club night in chromium: a director, two table phones and the wall screen.

The director (a 360 x 740 phone) creates an 8-player round robin on /events/new from
the players known here and two new names, and pairs each of its 7 rounds on the
director page. In the first and the last round tables 1 and 2 are two more phones:
they open their game from the link the table card prints under its QR code, take the
scoring and enter quick hands until the game is over (in the last round each phone
takes a new table from its card, after six rounds away). Every other game finishes
through the JSON API with its edit token (derived from the server's secret key, as
the director page pairs them), to keep the test short: the rounds between add
nothing the pages do differently. The wall screen (1280 x 720, its own context)
shows each finished result at its next check for the event, without a reload, and at
the end the standings the API gives: it checks every second, on its own clock
(Playwright's, run on a second after each result, so that no result waits for it in
real time), and shows the result within 2 s of that check.
Every page passes axe at its size and (but the wall) has nothing sideways at 360 px.
Screenshots: tests/artifacts/event-*.png.
"""

from __future__ import annotations

import os
import re

import pytest
import requests
from browser_kit import AXE, CHROMIUM, WAIT, Words, axe_problems, overflow
from playwright.sync_api import expect
from serve_kit import spawn, stop_soon
from test_pad_browser import ARTIFACTS, quick_hand

from scorekeeper.store.events import match_key
from scorekeeper.store.games import derive_token

pytestmark = [
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
    ),
    pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (tests/run.sh)"),
]

SECRET = "pad-events-browser-tests"
PHONE = {"width": 360, "height": 740}
WALL = {"width": 1280, "height": 720}
KNOWN = ["Ana", "Bor", "Cene", "Dušan", "Eva", "Filip"]
NEW = ["Gal", "Iztok"]
t = Words("en")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with pytest.MonkeyPatch.context() as env:
        env.setenv("SCOREKEEPER_SECRET_KEY", SECRET)
        process, url = spawn(tmp_path_factory.mktemp("events") / "events.db", workers=2)
    yield url
    stop_soon(process, f"{__name__}'s server")


def context_page(browser, viewport):
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(WAIT)
    return page


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"event-{name}.png"), full_page=True)


def checked(page, state: str, phone: bool = True) -> None:
    """axe finds nothing serious on the page; at a phone's width nothing sticks out."""
    assert axe_problems(page, state) == []
    if phone:
        assert overflow(page) == [], state


def finish_by_api(url: str, event_id: str, number: int, match: dict) -> None:
    """Gins by one player (which one by round and table) until the game is over."""
    token = derive_token(SECRET, match["game_id"], match_key(event_id, number, match["table"]))
    game = f"{url}/api/v1/games/{match['game_id']}"
    winner = (number + match["table"]) % 2
    while not requests.get(game, timeout=10).json()["over"]:
        hand = {"kind": "quick", "knocker": winner, "knocker_deadwood": 0, "defender_deadwood": 60}
        response = requests.post(
            f"{game}/hands", json=hand, headers={"Authorization": f"Bearer {token}"}, timeout=10
        )
        assert response.status_code == 201, response.text


def finish_on_phone(phone, url: str, card_link: str, number: int, match: dict) -> None:
    """The table's phone opens the card's link, takes the scoring and plays quick hands."""
    phone.goto(card_link)
    phone.get_by_role("button", name=t("Keep the score on this phone")).click()
    expect(phone).to_have_url(re.compile(rf"/games/{match['game_id']}"))
    winner = match["players"][(number + match["table"]) % 2]
    game = f"{url}/api/v1/games/{match['game_id']}"
    while not requests.get(game, timeout=10).json()["over"]:
        before = requests.get(game, timeout=10).json()["version"]
        quick_hand(phone, winner, "Gin", None, "60")
        expect(phone).to_have_url(re.compile(rf"/games/{match['game_id']}(\?|$)"))
        assert requests.get(game, timeout=10).json()["version"] > before


def event_json(url: str, event_id: str) -> dict:
    return requests.get(f"{url}/api/v1/events/{event_id}", timeout=10).json()


def wall_results(wall) -> int:
    return wall.locator("ul.tables li.finished").count()


WALL_EVERY = 1000
"""How often (ms) the wall asks for the event again (``api/static/pad-follow.js``)."""

PAGE_EVERY = 5000
"""How often (ms) the director's page and the event page ask for the event again."""


def open_wall(wall, url: str) -> None:
    """Open the wall at ``url`` on Playwright's clock: its time runs, and :func:`next_check`
    runs it on to its next check for the event. (Not paused: axe's checks wait on
    timers.)"""
    wall.clock.install()
    wall.goto(url)


def next_check(page, every: int = WALL_EVERY) -> None:
    """Run the clock of ``page`` (a wall, or the page following the event ``every`` ms) on
    by its period: its next check for the event is now, and nothing waits for it in real
    time (a page that checked less often would not check at once)."""
    page.clock.run_for(every)


@pytest.mark.cost(40)
def test_an_eight_player_round_robin_to_the_end(server, browser):
    for first, second in zip(KNOWN[::2], KNOWN[1::2], strict=True):  # the players known here
        response = requests.post(
            f"{server}/api/v1/games", json={"players": [first, second], "dealer": 0}, timeout=10
        )
        assert response.status_code == 201
    director = context_page(browser, PHONE)
    tables = [context_page(browser, PHONE), context_page(browser, PHONE)]
    wall = context_page(browser, WALL)

    # The director creates the event from the home page's link.
    director.goto(server + "/")
    director.get_by_role("link", name=t("New club night")).click()
    director.get_by_role("button", name=t("Create the event")).click()  # nothing filled in
    expect(director.locator("#err-name")).to_have_text(t("Type a name for the event."))
    checked(director, "new event, refused")
    director.fill("#event-name", "Friday club")
    director.locator("label.choice", has_text=re.compile(f"^{t('Round robin')}$")).click()
    for name in KNOWN:
        director.locator("label.choice", has_text=re.compile(f"^{name}$")).click()
    director.fill("#new-players", "\n".join(NEW))
    checked(director, "new event")
    shot(director, "new")
    director.get_by_role("button", name=t("Create the event")).click()
    expect(director.locator("#recovery-title")).to_have_text(t("The director's recovery card"))
    checked(director, "event made, its recovery card")
    shot(director, "made")
    director.get_by_role("link", name=t("Go to the director's page")).click()
    expect(director).to_have_url(re.compile(r"/events/[\w-]+/director$"))
    event_id = director.url.rsplit("/", 2)[1]
    event = event_json(server, event_id)
    assert event["players"] == KNOWN + NEW and event["format"] == "round_robin"
    checked(director, "director, before round 1")

    refused = tables[0].goto(f"{server}/events/{event_id}/director")  # not the director
    assert refused.status == 403
    checked(tables[0], "director page refused")
    shot(tables[0], "refused")

    open_wall(wall, f"{server}/events/{event_id}/wall")
    wall.evaluate("window.keptWithoutReload = true")
    checked(wall, "wall, before round 1", phone=False)

    for number in range(1, 8):
        director.get_by_role("button", name=t("Pair the next round")).click()
        expect(director.locator("p.notice")).to_contain_text(
            t("Round %(number)s is paired: hand each table its card.", number=number)
        )
        pair_button = director.get_by_role("button", name=t("Pair the next round"))
        expect(pair_button).to_be_disabled()
        expect(director.locator("#pair-why")).to_have_text(
            t(
                "%(num)d table is still playing this round.",
                "%(num)d tables are still playing this round.",
                4,
            )
        )
        matches = event_json(server, event_id)["rounds"][-1]["matches"]
        assert len(matches) == 4
        next_check(wall)
        expect(wall.locator("h1")).to_contain_text(t("Round %(number)s", number=number))
        if number == 1:
            checked(director, "director, round 1")
            shot(director, "director")
        on_phones = 2 if number in (1, 7) else 0
        for phone, match in zip(tables[:on_phones], matches[:on_phones], strict=True):
            director.goto(f"{server}/events/{event_id}/tables/{match['game_id']}/card")
            link = director.locator(".card-link a").get_attribute("href")
            assert "/join?key=" in link
            if number == 1 and match["table"] == 1:
                checked(director, "table card")
                shot(director, "card")
            shown = wall_results(wall)
            finish_on_phone(phone, server, link, number, match)
            if number == 1 and match["table"] == 1:
                checked(phone, "table phone's sheet, game over")
                shot(phone, "table-sheet")
            next_check(wall)
            expect(wall.locator("ul.tables li.finished")).to_have_count(shown + 1, timeout=2000)
        for match in matches[on_phones:]:
            shown = wall_results(wall)
            finish_by_api(server, event_id, number, match)
            next_check(wall)
            expect(wall.locator("ul.tables li.finished")).to_have_count(shown + 1, timeout=2000)
        director.goto(f"{server}/events/{event_id}/director")
        if number == 3:
            checked(wall, "wall, round 3 played", phone=False)
            shot(wall, "wall")

    # The end: nothing left to pair, the final standings the same everywhere.
    over = event_json(server, event_id)
    assert over["over"] and len(over["rounds"]) == 7
    expect(director.get_by_role("button", name=t("Pair the next round"))).to_be_disabled()
    expect(director.locator("#pair-why")).to_have_text(
        t("The event is over: every round is played.")
    )
    checked(director, "director, the event over")
    shot(director, "director-over")
    standings = requests.get(f"{server}/api/v1/events/{event_id}/standings", timeout=10).json()[
        "standings"
    ]
    expect(wall.locator("#standings-title")).to_have_text(t("Final standings"), timeout=2000)
    rows = wall.locator("table.standings tbody tr")
    expect(rows).to_have_count(8)
    shown = [
        [cell.strip() for cell in rows.nth(i).locator("td, th").all_inner_texts()] for i in range(8)
    ]
    assert shown == [
        [
            str(line["rank"]),
            line["player"],
            str(line["won"]),
            str(line["net_points"]),
            str(line["played"]),
            str(line["lost"]),
        ]
        for line in standings
    ]
    assert sum(line["played"] for line in standings) == 8 * 7
    assert wall.evaluate("window.keptWithoutReload") is True
    checked(wall, "wall, final standings", phone=False)
    shot(wall, "wall-final")

    # The read-only event page on a table phone: every round, the standings.
    viewer = tables[0]
    viewer.goto(f"{server}/events/{event_id}")
    expect(viewer.locator("h2", has_text=re.compile(r"^Round \d+$"))).to_have_count(7)
    assert viewer.get_by_role("button", name=t("Pair the next round")).count() == 0
    checked(viewer, "event page")
    shot(viewer, "page")
