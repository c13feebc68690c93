"""The seasons API (api/seasons.py): create a season, read it, its table as JSON and CSV,
and the refusals naming their field (issue 29, item 2).

Every response is validated against the served OpenAPI document (test_api's Client).
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from conftest import today
from test_api import Client, error_of
from test_api_events import create, pair, play_to_the_end


@pytest.fixture
def call(app):
    return Client(app)


def season(call, **body):
    body = {
        "name": "Spring",
        "first_day": str(today() - timedelta(days=1)),
        "last_day": str(today() + timedelta(days=1)),
        "table": "wins",
        **body,
    }
    response = call("POST", "/api/v1/seasons", json=body)
    assert response.status_code == 201, response.json
    assert response.headers["Location"] == response.json["url"]
    return response.json


def played_night(call):
    """A round robin of four, its first round played: the first seat wins each table."""
    event = create(call, players=["Ana", "Bor", "Cy", "Dan"])
    for match in pair(call, event)["matches"]:
        play_to_the_end(call, match, [(0, 0, 30)])
    return event


def test_a_season_gathers_todays_night_and_ranks_it(call):
    before = str(today())
    event = played_night(call)  # round 1: Ana v Dan, Bor v Cy
    after = str(today())
    casual = call("POST", "/api/v1/games", json={"players": ["Dan", "Cy"], "dealer": 0}).json
    play_to_the_end(
        call, {"game_id": casual["id"], "edit_token": casual["edit_token"]}, [(0, 0, 30)]
    )
    made = season(call, casual_games=True)
    nights = [[{"id": event["id"], "name": "Club night", "day": day}] for day in (before, after)]
    assert made["nights"] in nights
    assert call("GET", made["url"]).json == made
    table = call("GET", f"{made['url']}/table").json
    assert (table["rule"], table["measures"], table["nights"], table["casual_games"]) == (
        "wins",
        ["points", "net_points", "head_to_head"],
        1,
        1,
    )
    lines = [(x["rank"], x["player"], x["events"], x["won"], x["points"]) for x in table["table"]]
    # winners Ana and Bor; Dan lost to Ana but beat Cy in the casual game: level on
    # points, behind on net points
    assert lines == [
        (1, "Ana", 1, 1, 1),
        (1, "Bor", 1, 1, 1),
        (3, "Dan", 1, 1, 1),
        (4, "Cy", 1, 0, 0),
    ]
    assert [x["tie_break"] for x in table["table"]] == [None, None, "net_points", None]
    assert {"rank", "player", "events", "won", "net_points", "points"} <= table["table"][0].keys()
    listed = call("GET", "/api/v1/seasons").json["seasons"]
    assert [s["id"] for s in listed] == [made["id"]] and "nights" not in listed[0]


def test_the_table_as_csv_is_the_json_table(call):
    played_night(call)
    made = season(call, name="Autumn league", table="placement", placement=[3, 1])
    table = call("GET", f"{made['url']}/table").json["table"]
    response = call("GET", f"{made['url']}/table.csv")
    assert response.status_code == 200 and response.content_type.startswith("text/csv")
    assert 'filename="autumn-league-table.csv"' in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [(r["rank"], r["player"], r["points"]) for r in rows] == [
        (str(x["rank"]), x["player"], str(x["points"])) for x in table
    ]
    assert [x["points"] for x in table] == [3, 3, 0, 0]  # two players share first place


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"first_day": "2026-03-02", "last_day": "2026-03-01"}, "last_day"),
        ({"table": "league"}, "table"),
        ({"first_day": "2026-02-30"}, "first_day"),
        ({"placement": [5, 8]}, "placement"),
        ({"placement": [-1]}, "placement.0"),
        ({"name": ""}, "name"),
        ({"casual_games": "yes"}, "casual_games"),
        ({"casual_games": 0}, "casual_games"),  # 0 == False in Python, not in JSON
        ({"casual_games": 1}, "casual_games"),
    ],
)
def test_bad_seasons_are_refused_naming_the_field(call, body, field):
    full = {"name": "S", "first_day": "2026-03-01", "last_day": "2026-03-31", "table": "wins"}
    error_of(call("POST", "/api/v1/seasons", json={**full, **body}), 422, field=field)
    assert call("GET", "/api/v1/seasons").json == {"seasons": []}


def test_a_refusal_in_the_players_language(call):
    body = {"name": "S", "first_day": "2026-03-02", "last_day": "2026-03-01", "table": "wins"}
    english = error_of(call("POST", "/api/v1/seasons", json=body), 422, field="last_day")
    french = call("POST", "/api/v1/seasons", json=body, headers={"Accept-Language": "fr"}).json
    assert (
        french["error"]["field"] == "last_day" and french["error"]["message"] != english["message"]
    )
    assert "2026-03-01" in french["error"]["message"]


def test_an_unknown_season_is_404(call):
    for path in ("", "/table", "/table.csv"):
        error_of(call("GET", f"/api/v1/seasons/AAAAAAAAAAAAAAAA{path}"), 404, "not_found")


def test_an_idempotency_key_answers_the_same_season(call):
    body = {"name": "S", "first_day": "2026-03-01", "last_day": "2026-03-31", "table": "wins"}
    key = {"Idempotency-Key": "season-one"}
    first = call("POST", "/api/v1/seasons", json=body, headers=key)
    again = call("POST", "/api/v1/seasons", json=body, headers=key)
    assert first.status_code == again.status_code == 201 and again.json == first.json
    other = call("POST", "/api/v1/seasons", json={**body, "name": "T"}, headers=key)
    error_of(other, 422, "idempotency_key_reused", "Idempotency-Key")
    assert len(call("GET", "/api/v1/seasons").json["seasons"]) == 1
