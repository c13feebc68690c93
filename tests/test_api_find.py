"""Finding players and games by part of a name and by day in the JSON API (issue 27),
each response checked against the OpenAPI document, on each backend."""

from __future__ import annotations

import pytest
from test_api import Client, error_of, spec
from test_api_keys import created, key_for, listed

from scorekeeper.store import games

__all__ = ["spec"]  # the module's document, read once (a fixture of test_api)


@pytest.fixture
def call(app, spec):
    return Client(app, spec)


def _store(app):
    return app.extensions["scorekeeper.store.sqlite"]


def test_players_are_found_by_any_part_of_a_name(call, app):
    for pair in (["Zora Novak", "Bor"], ["Žofia Łęcka", "Ana"]):
        games.create_game(_store(app), pair)
    found = call("GET", "/api/v1/players?q=NOVÁK").json
    assert found == {
        "players": [{"name": "Zora Novak", "stats": "/api/v1/players/Zora%20Novak/stats"}],
        "suggestions": [],
    }
    names = {p["name"] for p in call("GET", "/api/v1/players?q=zo").json["players"]}
    assert names == {"Zora Novak", "Žofia Łęcka"}
    assert len(call("GET", "/api/v1/players?q=zo&limit=1").json["players"]) == 1
    assert call("GET", "/api/v1/players?q=%00%E2%80%AE").json["players"] == []  # no 500
    near = call("GET", "/api/v1/players?q=Nowak").json
    assert near["players"] == [] and [p["name"] for p in near["suggestions"]] == ["Zora Novak"]
    stats = call("GET", near["suggestions"][0]["stats"])
    assert stats.status_code == 200 and stats.json["name"] == "Zora Novak"


@pytest.mark.parametrize(
    ("query", "field"),
    [("", "q"), ("?q=" + "x" * 41, "q"), ("?q=zo&limit=0", "limit"), ("?q=zo&limit=101", "limit")],
)
def test_a_bad_player_search_is_refused_naming_it(call, app, query, field):
    error_of(call("GET", f"/api/v1/players{query}"), 422, field=field)


def test_a_keys_games_are_found_by_part_of_a_name_and_days(call, app):
    key = key_for(app)
    zora = created(call, key, players=["Zora Novak", "Bor"])
    ana = created(call, key, players=["Ana", "Bor"])
    created(call, {}, players=["Zora Novak", "Cy"])  # not the key's
    assert [g["id"] for g in listed(call, key, "?q=nov")["games"]] == [zora["id"]]
    assert [g["id"] for g in listed(call, key, "?q=BOR")["games"]] == [ana["id"], zora["id"]]
    assert [g["id"] for g in listed(call, key, "?player=Zora")["games"]] == []  # still exact
    days = sorted(game["created"][:10] for game in listed(call, key)["games"])  # one, or two
    assert len(listed(call, key, f"?from={days[0]}&to={days[-1]}")["games"]) == 2  # past midnight
    assert listed(call, key, "?to=2000-01-01")["games"] == []
    backwards = call("GET", "/api/v1/games?from=2025-05-03&to=2025-05-01", headers=key)
    error_of(backwards, 422, field="to")
    error_of(call("GET", "/api/v1/games?from=3.5.2025", headers=key), 422, field="from")


@pytest.mark.one_backend
def test_the_document_describes_the_searches(app):
    document = app.test_client().get("/api/openapi.json").json
    listing = {p["name"]: p for p in document["paths"]["/api/v1/games"]["get"]["parameters"]}
    assert {"q", "from", "to", "player"} <= set(listing)
    assert listing["from"]["schema"]["format"] == "date"
    assert "begins a word" in listing["q"]["description"]
    search = document["paths"]["/api/v1/players"]["get"]
    assert search["operationId"] == "findPlayers"
    assert {p["name"] for p in search["parameters"]} == {"q", "limit"}
