"""The round clock through the API (api/event_clock.py, issue 29): the director sets the
current round's minutes (PUT /events/{id}/clock with the director token), GET
/events/{id} shows ``clock`` {round, started, minutes, ends} on both backends, a new
round starts without one, a withdrawn round takes its clock with it.

Every response is validated against the served OpenAPI document (test_api's Client).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from test_api import Client, error_of
from test_api_events import EIGHT, create, pair, play_to_the_end

from scorekeeper.store.event_clock import MAX_MINUTES


@pytest.fixture
def call(app):
    return Client(app)


def when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def set_clock(call, event, body, token=None, status=200):
    token = token or event["director_token"]
    response = call(
        "PUT",
        f"/api/v1/events/{event['id']}/clock",
        json=body,
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == status, response.json
    return response.json


def test_the_director_sets_the_round_clock_and_the_event_shows_it(call):
    event = create(call, players=EIGHT[:4])
    assert call("GET", event["url"]).json["clock"] is None
    assert set_clock(call, event, {"minutes": 30}, status=409)["error"]["code"] == "no_round"
    first = pair(call, event)
    before = datetime.now(UTC)
    answer = set_clock(call, event, {"minutes": 40})
    after = datetime.now(UTC)
    clock = answer["clock"]
    assert set(clock) == {"round", "started", "minutes", "ends"}
    assert (clock["round"], clock["minutes"]) == (1, 40)
    assert before - timedelta(seconds=1) <= when(clock["started"]) <= after
    assert when(clock["ends"]) - when(clock["started"]) == timedelta(minutes=40)
    assert answer["url"] == event["url"]
    assert call("GET", event["url"]).json == answer
    # started late: the director gives the round's start, in any offset
    past = (datetime.now(UTC) - timedelta(minutes=25)).astimezone()
    stamp = past.replace(microsecond=0).isoformat()
    clock = set_clock(call, event, {"minutes": 30, "started": stamp})["clock"]
    assert when(clock["started"]) == past.replace(microsecond=0)
    assert clock["started"].endswith("Z") and clock["minutes"] == 30
    assert when(clock["ends"]) == past.replace(microsecond=0) + timedelta(minutes=30)
    # the next round starts with no clock
    for match in first["matches"]:
        play_to_the_end(call, match, [(0, 0, 30)])
    pair(call, event)
    assert call("GET", event["url"]).json["clock"] is None
    assert set_clock(call, event, {"minutes": 5})["clock"]["round"] == 2


def test_a_withdrawn_round_takes_its_clock_with_it(call):
    event = create(call, players=EIGHT[:4])
    pair(call, event)
    set_clock(call, event, {"minutes": 20})
    auth = {"Authorization": f"Bearer {event['director_token']}"}
    assert call("DELETE", f"/api/v1/events/{event['id']}/rounds/1", headers=auth).status_code == 204
    assert call("GET", event["url"]).json["clock"] is None
    pair(call, event)
    assert call("GET", event["url"]).json["clock"] is None


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"minutes": 0}, "minutes"),
        ({"minutes": MAX_MINUTES + 1}, "minutes"),
        ({"minutes": "40"}, "minutes"),
        ({"minutes": 4.5}, "minutes"),
        ({}, "minutes"),
        ({"minutes": 40, "started": "tonight"}, "started"),
        ({"minutes": 40, "started": "2026-05-01T19:30:00"}, "started"),  # no offset
        ({"minutes": 40, "started": "2999-05-01T19:30:00Z"}, "started"),  # the future
        ({"minutes": 40, "seconds": 3}, "seconds"),
    ],
)
def test_a_bad_clock_is_refused_naming_the_field(call, body, field):
    event = create(call, players=EIGHT[:2])
    pair(call, event)
    error = set_clock(call, event, body, status=422)["error"]
    assert error["field"] == field and error["message"]
    assert call("GET", event["url"]).json["clock"] is None


def test_only_the_director_sets_the_clock(call):
    event = create(call, players=EIGHT[:2])
    pair(call, event)
    url = f"/api/v1/events/{event['id']}/clock"
    error_of(call("PUT", url, json={"minutes": 9}), 401, "unauthorized", "Authorization")
    other = create(call, players=EIGHT[:2])
    refused = set_clock(call, event, {"minutes": 9}, token=other["director_token"], status=403)
    assert refused["error"]["field"] == "Authorization"
    assert call("GET", event["url"]).json["clock"] is None


@pytest.mark.one_backend
def test_the_clock_is_in_the_openapi_document(call):
    spec = call.client.get("/api/openapi.json").json
    operation = spec["paths"]["/api/v1/events/{event_id}/clock"]["put"]
    assert operation["operationId"] == "setRoundClock"
    assert operation["security"] == [{"directorAuth": []}]
    assert {"200", "401", "403", "404", "409", "422"} <= set(operation["responses"])
    clock = spec["components"]["schemas"]["RoundClock"]
    assert set(clock["required"]) == {"round", "started", "minutes", "ends"}
    assert "clock" in spec["components"]["schemas"]["EventView"]["properties"]
