"""``GET /api/v1/ratings`` and ``GET /api/v1/players/{name}/rating`` through Flask's test
client (each answer checked against the served OpenAPI document), on both backends, and
bot keys made with ``scorekeeper keys create NAME --bot``."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import serving_database
from test_api import Client, error_of, quick

from api import STORAGE_KEY
from scorekeeper.cli import main
from scorekeeper.store.ratings import recompute


@pytest.fixture
def call(app, spec):
    return Client(app, spec)


@pytest.fixture(scope="module")
def spec(module_app):
    from test_api import served_document

    return served_document(module_app)


def play(call, players, winner=0, headers=None):
    """A game of ``players`` (two) to 50 won by seat ``winner`` with one gin: its id."""
    body = {"players": list(players), "rules": {"target": 50}, "dealer": 0}
    made = call("POST", "/api/v1/games", json=body, headers=headers or {}).json
    auth = {"Authorization": f"Bearer {made['edit_token']}"}
    hand = call("POST", f"{made['url']}/hands", json=quick(winner, 0, 40), headers=auth)
    assert hand.json["sheet"]["status"] == "over"
    return made["id"], auth


def test_the_ladder_and_a_players_rating(call, app):
    first, auth = play(call, ("Ana", "Ben"))
    second, _ = play(call, ("Ben", "Cy"))
    play(call, ("Cy", "Ana"), winner=1)
    body = call("GET", "/api/v1/ratings").json
    assert body["next"] is None
    assert body["ratings"][0]["player"] == "Ana"
    assert {line["player"]: line["games"] for line in body["ratings"]} == {
        "Ana": 2,
        "Ben": 2,
        "Cy": 2,
    }
    ratings = [line["rating"] for line in body["ratings"]]
    assert ratings == sorted(ratings, reverse=True)
    ben = call("GET", "/api/v1/players/BEN/rating").json
    assert set(ben) == {"player", "rating", "games", "history"} and ben["player"] == "Ben"
    assert [point["game_id"] for point in ben["history"]] == [first, second]
    assert set(ben["history"][0]) == {"game_id", "finished", "rating"}
    assert ben["rating"] == ben["history"][-1]["rating"]

    # a correction of the first game after its end: Ben won it; the answer is a fold afresh
    fixed = call("PUT", f"/api/v1/games/{first}/hands/1", json=quick(1, 0, 40), headers=auth)
    assert fixed.status_code == 200, fixed.json
    after = call("GET", "/api/v1/players/Ben/rating").json
    assert after["rating"] > ben["rating"]
    store = app.extensions[STORAGE_KEY]
    folded = recompute(store)
    assert after["rating"] == folded.skills[store.player("Ben").id].rating
    assert [p["rating"] for p in after["history"]] == [
        s.rating for s in folded.steps if s.player == store.player("Ben").id
    ]


def test_the_ladder_pages_and_filters(call):
    for players in (("Ana", "Ben"), ("Ana", "Cy"), ("Dan", "Eve")):
        play(call, players)
    pages, cursor = [], ""
    while cursor is not None:
        page = call("GET", f"/api/v1/ratings?limit=2{cursor and '&cursor=' + cursor}").json
        pages.append(page["ratings"])
        cursor = page["next"]
    assert [len(lines) for lines in pages] == [2, 2, 1]
    everyone = call("GET", "/api/v1/ratings").json["ratings"]
    assert [line for lines in pages for line in lines] == everyone
    assert sorted(line["player"] for line in everyone) == ["Ana", "Ben", "Cy", "Dan", "Eve"]
    regulars = call("GET", "/api/v1/ratings?min_games=2").json["ratings"]
    assert [line["player"] for line in regulars] == ["Ana"]
    assert call("GET", "/api/v1/ratings?active_since=2000-01-01T00:00:00Z").json["ratings"]
    assert call("GET", "/api/v1/ratings?active_since=2999-01-01T00:00:00Z").json["ratings"] == []
    error_of(call("GET", "/api/v1/ratings?cursor=nope"), 422, field="cursor")
    error_of(call("GET", "/api/v1/ratings?limit=0"), 422, field="limit")
    error_of(call("GET", "/api/v1/ratings?active_since=yesterday"), 422, field="active_since")


def test_an_unknown_player_is_404_and_a_new_one_shows_1000(call):
    error_of(call("GET", "/api/v1/players/Zed/rating"), 404, "not_found", "name")
    call("POST", "/api/v1/games", json={"players": ["Ana", "Ben"]})
    assert call("GET", "/api/v1/players/Ana/rating").json == {
        "player": "Ana",
        "rating": 1000,
        "games": 0,
        "history": [],
    }


def test_games_of_a_bot_key_stay_out_of_the_ratings(module_app, spec, tmp_path):
    db = str(tmp_path / "club.db")
    runner = CliRunner()
    made = runner.invoke(main, ["keys", "create", "simulator", "--bot", "--db", db])
    assert made.exit_code == 0, made.output
    bot = {"Authorization": f"Bearer {made.stdout.strip()}"}
    club = runner.invoke(main, ["keys", "create", "club-site", "--db", db]).stdout.strip()
    with serving_database(module_app, db) as app:
        call = Client(app, spec)
        play(call, ("Ana", "Ben"), headers=bot)
        play(call, ("Ana", "Ben"), headers=bot)
        kept, _ = play(call, ("Cy", "Ben"), headers={"Authorization": f"Bearer {club}"})
        play(call, ("Cy", "Dan"))  # no key at all: the club's
        body = call("GET", "/api/v1/ratings").json
        assert sorted(line["player"] for line in body["ratings"]) == ["Ben", "Cy", "Dan"]
        ben = call("GET", "/api/v1/players/Ben/rating").json
        assert [point["game_id"] for point in ben["history"]] == [kept]
        assert call("GET", "/api/v1/players/Ana/rating").json["games"] == 0
    simulator, site = runner.invoke(main, ["keys", "list", "--db", db]).stdout.splitlines()
    assert simulator.startswith("simulator\t") and "\t2 game(s)\tin use\tbot" in simulator
    assert site.startswith("club-site\t") and "bot" not in site
