"""Season pages through Flask's test client on a real SQLite file (issue 29, item 2): the
form and its refusals in the player's language, the season's page and its table, the
club night's pages linking to it, and the wall's season table between rounds."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from conftest import today
from test_pad_events import create, finish, pair
from test_pad_rights import fields, page

from scorekeeper.store.events import match_key
from scorekeeper.store.games import derive_token

pytestmark = pytest.mark.fast


def send(client, headers=None, **form):
    hidden = fields(page(client, "/seasons/new"), "/seasons")
    data = {
        "name": "Spring league",
        "first_day": str(today() - timedelta(days=7)),
        "last_day": str(today() + timedelta(days=1)),
        "table": "wins",
        **hidden,
        **form,
    }
    return client.post("/seasons", data=data, headers=headers or {})


def play_round(client, event_id):
    """Pair the next round and finish every table (the first seat wins each)."""
    pair(client, event_id)
    rounds = client.get(f"/api/v1/events/{event_id}").get_json()["rounds"]
    for match in rounds[-1]["matches"]:
        token = derive_token(
            "test", match["game_id"], match_key(event_id, len(rounds), match["table"])
        )
        finish(client, match["game_id"], token)


def test_a_season_from_the_form_and_its_table(client):
    event_id = create(client, new_players="Ana\nBor\nCene\nDana")
    play_round(client, event_id)  # Ana beats Dana, Bor beats Cene
    response = send(client, table="placement", placement="5, 3 1", casual_games="1")
    assert response.status_code == 303
    shown = page(client, response.headers["Location"])
    assert "Spring league" in shown and "Placement points per night" in shown
    rows = re.findall(
        r'<tr[^>]*><td class="num">(\d+)</td>\s*<th scope="row"><bdi>(\w+)</bdi>', shown
    )
    assert rows == [("1", "Ana"), ("1", "Bor"), ("3", "Cene"), ("3", "Dana")]
    assert "Friday club" in shown and f'href="/events/{event_id}"' in shown
    season_id = response.headers["Location"].rsplit("/", 1)[1]
    assert f'href="/api/v1/seasons/{season_id}/table.csv"' in shown
    # the club night's pages link to the season it counts in
    assert f'href="/seasons/{season_id}"' in page(client, f"/events/{event_id}")
    assert f'href="/seasons/{season_id}"' in page(client, f"/events/{event_id}/director")


def test_the_form_names_what_is_wrong_in_the_players_language(client):
    response = send(client, first_day=str(today()), last_day=str(today() - timedelta(days=1)))
    assert response.status_code == 422
    shown = html.unescape(response.get_data(as_text=True))
    assert "The last day" in shown and 'id="err-last_day"' in shown
    french = send(client, {"Accept-Language": "fr"}, table="placement", placement="8 10")
    assert french.status_code == 422
    text = html.unescape(french.get_data(as_text=True))
    assert 'id="err-placement"' in text and "Points de classement" in text
    assert client.get("/api/v1/seasons").get_json() == {"seasons": []}


def test_the_wall_shows_the_season_table_between_rounds_only(client, module_app):
    event_id = create(client, new_players="Ana\nBor\nCene\nDana")
    wall = module_app.test_client()
    assert "Season table" not in page(wall, f"/events/{event_id}/wall")  # no season yet
    assert send(client).status_code == 303
    play_round(client, event_id)
    between = page(wall, f"/events/{event_id}/wall")
    assert "Season table: <bdi>Spring league</bdi>" in between
    pair(client, event_id)  # round 2 under way: the wall shows the tables alone
    assert "Season table" not in page(wall, f"/events/{event_id}/wall")


def test_a_form_sent_twice_makes_one_season(client):
    hidden = fields(page(client, "/seasons/new"), "/seasons")
    form = {"name": "Cup", "first_day": "2026-03-01", "last_day": "2026-03-01", "table": "wins"}
    first = client.post("/seasons", data={**form, **hidden})
    again = client.post("/seasons", data={**form, **hidden})
    assert first.status_code == again.status_code == 303
    assert first.headers["Location"] == again.headers["Location"]
    assert len(client.get("/api/v1/seasons").get_json()["seasons"]) == 1
    changed = client.post("/seasons", data={**form, **hidden, "name": "Other cup"})
    assert changed.status_code == 409
