"""A time-called result and a table's event line on a 360 x 740 phone (issue 27).

A round robin of four is made and paired through the JSON API of a real ``scorekeeper
serve``; table 1's second player wins one gin and the director calls time on it. In
chromium, the director's phone opens the director page (the table marked *time called*,
the winner's score first) and table 1's sheet (its event, round and table, the
director's end), in English and in Slovenian: nothing sticks out sideways, axe finds
nothing serious. Screenshots: ``tests/artifacts/marks-<lang>-director.png`` and
``marks-<lang>-sheet.png``.
"""

from __future__ import annotations

import pytest
import requests
from browser_kit import WAIT, axe_problems, overflow
from test_pad_browser import ARTIFACTS
from test_pad_events_browser import pytestmark, server  # noqa: F401  (a fixture)

PHONE = {"width": 360, "height": 740}
PLAYERS = ["Ana", "Bor", "Cene", "Dušan"]
GIN_FOR_SECOND = {"kind": "quick", "knocker": 1, "knocker_deadwood": 0, "defender_deadwood": 0}


@pytest.fixture(scope="module")
def event(server):  # noqa: F811
    """(event id, director token, table 1's match) with table 1 time called after one gin."""
    made = requests.post(
        f"{server}/api/v1/events",
        json={"name": "Klubski večer", "players": PLAYERS, "format": "round_robin"},
        timeout=10,
    ).json()
    director = {"Authorization": f"Bearer {made['director_token']}"}
    paired = requests.post(
        f"{server}/api/v1/events/{made['id']}/rounds", headers=director, timeout=10
    )
    first = paired.json()["matches"][0]
    hand = requests.post(
        f"{server}/api/v1/games/{first['game_id']}/hands",
        json=GIN_FOR_SECOND,
        headers={"Authorization": f"Bearer {first['edit_token']}"},
        timeout=10,
    )
    assert hand.status_code == 201
    ended = requests.post(
        f"{server}/api/v1/events/{made['id']}/matches/{first['game_id']}/end",
        headers=director,
        timeout=10,
    )
    assert ended.status_code == 200, ended.text
    return made["id"], made["director_token"], first


@pytest.mark.parametrize(
    ("lang", "said", "note"),
    [
        ("en", "time called", "Time called: the director ended this match."),
        ("sl", "čas je potekel", "Čas je potekel: vodja turnirja je zaključil to partijo."),
    ],
)
def test_time_called_and_the_event_line_at_360_px(browser, server, event, lang, said, note):  # noqa: F811
    event_id, token, match = event
    winner = match["players"][1]
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, locale=lang)
    context.add_cookies(
        [{"name": "sk_director", "value": token, "url": f"{server}/events/{event_id}/"}]
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        page.goto(f"{server}/events/{event_id}/director")
        line = page.locator("ul.tables li").first
        assert line.locator(".time-called").inner_text() == said
        assert line.locator(".score").inner_text() == "25 – 0"
        assert winner in line.locator(".winner-chip").inner_text()
        assert overflow(page) == [] and axe_problems(page, f"director ({lang})") == []
        page.screenshot(path=str(ARTIFACTS / f"marks-{lang}-director.png"), full_page=True)
        page.goto(f"{server}/games/{match['game_id']}")
        event_line = page.locator("p.event-line")
        assert event_line.locator("a").get_attribute("href") == f"/events/{event_id}"
        assert "Klubski večer" in event_line.inner_text()
        assert page.locator(".time-called-note").inner_text().startswith(note)
        assert overflow(page) == [] and axe_problems(page, f"sheet ({lang})") == []
        page.screenshot(path=str(ARTIFACTS / f"marks-{lang}-sheet.png"), full_page=True)
        event_line.locator("a").click()
        page.wait_for_url(f"{server}/events/{event_id}")
    finally:
        context.close()
