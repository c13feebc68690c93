"""The events API (api/events.py): create an event, pair its rounds, play each match as
an ordinary game through the API, and read the standings.

Every response is validated against the served OpenAPI document (test_api's Client).
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from event_kit import reference_standings, served_lines
from test_api import Client, error_of, quick

EIGHT = ["Ana", "Bor", "Cy", "Dan", "Eva", "Fil", "Gal", "Hana"]


@pytest.fixture
def call(app):
    return Client(app)


def create(call, **body):
    body = {"name": "Club night", "players": EIGHT, "format": "round_robin", **body}
    response = call("POST", "/api/v1/events", json=body)
    assert response.status_code == 201, response.json
    return response.json


def pair(call, event, status=201):
    response = call(
        "POST",
        f"/api/v1/events/{event['id']}/rounds",
        headers={"Authorization": f"Bearer {event['director_token']}"},
    )
    assert response.status_code == status, response.json
    return response.json


def play_to_the_end(call, match, seats):
    """Post hands to the match's game until it ends: ``seats`` gives each hand's knocker
    and deadwoods in turn. Returns the game's final sheet."""
    auth = {"Authorization": f"Bearer {match['edit_token']}"}
    url = f"/api/v1/games/{match['game_id']}"
    for knocker, own, other in itertools.cycle(seats):
        response = call("POST", f"{url}/hands", json=quick(knocker, own, other), headers=auth)
        assert response.status_code == 201, response.json
        if response.json["sheet"]["status"] == "over":
            return response.json["sheet"]
    raise AssertionError("unreachable")


def test_an_eight_player_round_robin_played_to_the_end(call):
    event = create(call, stake=0.1)
    assert event["url"] == f"/api/v1/events/{event['id']}"
    assert call("GET", event["url"]).json["rounds"] == []
    rng = itertools.count()
    finals = []  # (players, final totals, winner) from the games' own sheets
    for number in range(1, 8):
        paired = pair(call, event)
        assert paired["number"] == number and paired["bye"] is None
        assert [m["table"] for m in paired["matches"]] == [1, 2, 3, 4]
        # a round cannot be paired while one of its games is unfinished
        assert pair(call, event, 409)["error"]["code"] == "round_unfinished"
        for match in paired["matches"]:
            turn = next(rng)
            # different winners and margins: a knock, an undercut, a gin
            seats = [(turn % 2, 0, 10 + turn % 17), (1 - turn % 2, 5, 3 + turn % 4)]
            sheet = play_to_the_end(call, match, seats)
            assert sheet["players"] == match["players"]
            result = sheet["result"]
            finals.append((match["players"], result["final"], result["winner"]))
    assert pair(call, event, 409)["error"]["code"] == "event_over"

    # the reference, from the games' own final totals
    won, net = Counter(), Counter()
    for players, final, winner in finals:
        won[players[winner]] += 1
        net[players[0]] += final[0] - final[1]
        net[players[1]] += final[1] - final[0]
    meetings = Counter(frozenset(p) for p, _, _ in finals)
    assert len(meetings) == 28 and set(meetings.values()) == {1}

    standings = call("GET", f"{event['url']}/standings").json["standings"]
    assert {line["player"]: (line["won"], line["net_points"]) for line in standings} == {
        name: (won[name], net[name]) for name in EIGHT
    }
    assert all(line["played"] == 7 and line["won"] + line["lost"] == 7 for line in standings)
    keys = [(line["won"], line["net_points"]) for line in standings]
    assert keys == sorted(keys, reverse=True)
    assert standings[0]["rank"] == 1
    assert served_lines(standings) == reference_standings(EIGHT, finals, swiss=False)

    whole = call("GET", event["url"]).json
    assert whole["over"] and len(whole["rounds"]) == 7
    assert whole["standings"] == standings
    assert all(m["finished"] for r in whole["rounds"] for m in r["matches"])


def test_a_correction_to_a_finished_game_changes_the_standings(call):
    event = create(call, players=EIGHT[:2])
    (match,) = pair(call, event)["matches"]
    play_to_the_end(call, match, [(0, 0, 30)])
    before = call("GET", f"{event['url']}/standings").json["standings"][0]
    auth = {"Authorization": f"Bearer {match['edit_token']}"}
    response = call(
        "PUT", f"/api/v1/games/{match['game_id']}/hands/1", json=quick(0, 0, 60), headers=auth
    )
    assert response.status_code == 200, response.json
    after = call("GET", f"{event['url']}/standings").json["standings"][0]
    final = response.json["sheet"]["result"]["final"]
    assert after["net_points"] == abs(final[0] - final[1]) != before["net_points"]


def test_the_director_token_is_needed_and_kept_hashed(call):
    event = create(call)
    url = f"/api/v1/events/{event['id']}/rounds"
    error_of(call("POST", url), 401, field="Authorization")
    error_of(call("POST", url, headers={"Authorization": "Bearer nope"}), 403)
    error_of(call("GET", "/api/v1/events/AAAAAAAAAAAAAAAA"), 404)
    assert event["director_token"] not in str(call("GET", event["url"]).json)


def test_an_idempotency_key_creates_one_event(call):
    headers = {"Idempotency-Key": "night-1"}
    body = {"name": "Night", "players": EIGHT, "format": "swiss", "rounds": 3}
    first = call("POST", "/api/v1/events", json=body, headers=headers)
    again = call("POST", "/api/v1/events", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.json == again.json
    other = call("POST", "/api/v1/events", json={**body, "rounds": 2}, headers=headers)
    error_of(other, 422, "idempotency_key_reused", "Idempotency-Key")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": ["Ana"]}, "players"),
        ({"players": ["Ana", "Ana"]}, "players"),
        ({"format": "ladder"}, "format"),
        ({"format": "swiss"}, "rounds"),
        ({"rounds": 3}, "rounds"),
        ({"name": ""}, "name"),
        ({"rules": {"target": "high"}}, "target"),  # as POST /games names it
        ({"stake": "0.05"}, "stake"),  # a number, not a string
    ],
)
def test_bad_events_are_refused_naming_the_field(call, body, field):
    full = {"name": "Night", "players": EIGHT, "format": "round_robin", **body}
    error_of(call("POST", "/api/v1/events", json=full), 422, field=field)


def end(call, event, match, body=None, token=None, status=200):
    """POST the match's end (``body`` as JSON, or none) with the director token."""
    token = token or event["director_token"]
    kwargs = {} if body is None else {"json": body}
    response = call(
        "POST",
        f"/api/v1/events/{event['id']}/matches/{match['game_id']}/end",
        headers={"Authorization": f"Bearer {token}"},
        **kwargs,
    )
    assert response.status_code == status, response.json
    return response


def test_the_director_ends_matches_and_the_next_round_pairs(call):
    event = create(call, players=EIGHT[:4])
    first, second = pair(call, event)["matches"]
    auth = {"Authorization": f"Bearer {first['edit_token']}"}
    hand = call(
        "POST", f"/api/v1/games/{first['game_id']}/hands", json=quick(1, 2, 20), headers=auth
    )
    assert hand.status_code == 201
    # no body: the player ahead on the sheet's totals wins, on the totals as they stand
    ended = end(call, event, first).json
    assert ended == {
        "table": 1,
        "players": first["players"],
        "game_id": first["game_id"],
        "finished": True,
        "winner": first["players"][1],
        "totals": [0, 18],
        "ended_by_director": True,
    }
    assert pair(call, event, 409)["error"]["code"] == "round_unfinished"
    # a named winner, even the player behind (0 to 0 here)
    named = end(call, event, second, {"winner": second["players"][0]}).json
    assert (named["winner"], named["totals"]) == (second["players"][0], [0, 0])
    whole = call("GET", event["url"]).json
    assert whole["rounds"][0]["matches"] == [ended, named]
    standings = {line["player"]: line for line in whole["standings"]}
    assert (
        standings[first["players"][1]]["won"],
        standings[first["players"][1]]["net_points"],
    ) == (1, 18)
    assert standings[first["players"][0]]["net_points"] == -18
    assert standings[second["players"][0]]["won"] == 1
    # the game itself goes on as an ordinary game; the event keeps the director's result
    play_to_the_end(call, first, [(0, 0, 30)])
    assert call("GET", event["url"]).json["rounds"][0]["matches"][0] == ended
    assert pair(call, event)["number"] == 2


def test_ending_a_match_is_refused_with_json_errors(call):
    event = create(call, players=EIGHT[:4])
    first, second = pair(call, event)["matches"]
    url = f"/api/v1/events/{event['id']}/matches/{first['game_id']}/end"
    error_of(call("POST", url), 401, "unauthorized", "Authorization")
    error_of(
        call("POST", url, headers={"Authorization": "Bearer nope"}), 403, field="Authorization"
    )
    level = error_of(end(call, event, first, status=422), 422, "rule", "winner")
    assert (level["reason"], level["params"]) == ("level_totals", {"total": 0})
    stranger = error_of(
        end(call, event, first, {"winner": "Hana"}, status=422), 422, "rule", "winner"
    )
    assert (stranger["reason"], stranger["params"]) == ("not_in_this_game", {"player": "Hana"})
    for bad in (7, "", " ", "A\u0000na", "x" * 41):
        error_of(end(call, event, first, {"winner": bad}, status=422), 422, field="winner")
    error_of(end(call, event, first, {"loser": "Ana"}, status=422), 422, field="loser")
    ordinary = call("POST", "/api/v1/games", json={"dealer": 0, "players": ["Ana", "Bor"]}).json
    error_of(end(call, event, {"game_id": ordinary["id"]}, status=404), 404, field="game_id")
    other = create(call, players=EIGHT[:2])
    error_of(end(call, other, first, status=404), 404, field="game_id")
    assert call("GET", event["url"]).json["rounds"][0]["matches"][0]["finished"] is False
    end(call, event, first, {"winner": first["players"][0]})
    again = error_of(end(call, event, first, status=409), 409, "match_finished")
    assert again["params"]["ended_by_director"] is True
    play_to_the_end(call, second, [(0, 0, 30)])
    over = error_of(end(call, event, second, status=409), 409, "match_finished")
    assert over["params"]["ended_by_director"] is False
