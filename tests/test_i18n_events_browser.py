"""The club night pages in the five other languages, on a 360 px phone (issues 20 and 22).

One event (8 players, a round robin) is made and its first round paired through the
JSON API; one table finishes, the others still play. For each language a phone (its
browser's ``Accept-Language``, the director's cookie given) opens the new-event form,
the director page (with a table's "time called" fold open), the event's page, a table
card and the wall, and in each: ``<html lang>`` is the language, no English sentence
of the catalog is left (:func:`test_i18n_browser.english_left`), nothing sticks out
sideways (but on the wall, made for a big screen) and axe finds nothing serious.
Screenshots: ``tests/artifacts/i18n-<lang>-event-director.png``.
"""

from __future__ import annotations

import re

import pytest
import requests
from browser_kit import WAIT, axe_problems, overflow
from test_i18n_browser import NARROW, english_left, pytestmark  # noqa: F401
from test_pad_browser import ARTIFACTS
from test_pad_events_browser import server  # noqa: F401  (a fixture)

from api.i18n import LANGUAGES

EIGHT = ["Ana", "Bor", "Cene", "Dušan", "Eva", "Filip", "Gal", "Iztok"]


@pytest.fixture(scope="module")
def event(server):  # noqa: F811
    """(event id, director token, a table's game id) of a round robin with round 1 paired
    and its table 1 finished."""
    made = requests.post(
        f"{server}/api/v1/events",
        json={"name": "Klubski večer", "players": EIGHT, "format": "round_robin"},
        timeout=10,
    ).json()
    auth = {"Authorization": f"Bearer {made['director_token']}"}
    paired = requests.post(f"{server}/api/v1/events/{made['id']}/rounds", headers=auth, timeout=10)
    first = paired.json()["matches"][0]
    game = f"{server}/api/v1/games/{first['game_id']}"
    while not requests.get(game, timeout=10).json()["over"]:
        hand = {"kind": "quick", "knocker": 0, "knocker_deadwood": 0, "defender_deadwood": 60}
        response = requests.post(
            f"{game}/hands",
            json=hand,
            headers={"Authorization": f"Bearer {first['edit_token']}"},
            timeout=10,
        )
        assert response.status_code == 201
    second = paired.json()["matches"][1]["game_id"]
    return made["id"], made["director_token"], second


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_club_night_pages_in_each_language(browser, server, event, lang):  # noqa: F811
    event_id, token, game_id = event
    context = browser.new_context(viewport=NARROW, device_scale_factor=1, locale=lang)
    context.add_cookies(
        [{"name": "sk_director", "value": token, "url": f"{server}/events/{event_id}/"}]
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    english = english_left(lang)
    problems: list[str] = []
    pages = {
        "new event": "/events/new",
        "director": f"/events/{event_id}/director",
        "event page": f"/events/{event_id}",
        "table card": f"/events/{event_id}/tables/{game_id}/card",
        "wall": f"/events/{event_id}/wall",
    }
    try:
        for state, path in pages.items():
            response = page.goto(server + path)
            assert response.status == 200, (lang, state, response.status)
            if state == "director":
                page.locator("details.end-match summary").first.click()
            assert page.get_attribute("html", "lang") == lang, state
            text = re.sub(r"\s+", " ", page.inner_text("body"))
            problems += [f"{state}: English left: {m!r}" for m in english if m in text]
            if state != "wall":
                problems += [f"{state}: {out}" for out in overflow(page)]
            problems += axe_problems(page, f"{state} ({lang})")
            if state == "director":
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                path = ARTIFACTS / f"i18n-{lang}-event-director.png"
                page.screenshot(path=str(path), full_page=True)
    finally:
        context.close()
    assert not problems, f"{len(problems)} problems in {lang}:\n" + "\n".join(problems)
