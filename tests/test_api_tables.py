"""Three players and partnerships over HTTP: whole games against a real server.

The games of :mod:`store_kit` (figures worked out there by hand) entered
through ``scorekeeper serve`` on loopback, on each backend (``live_server``):
hands posted, a correction and an undo, the end of the game, the sheet read
back, and the export imported again.
"""

from __future__ import annotations

import requests
from store_kit import ABC, ABCD, PARTNERSHIP, THREE_PLAYERS, deal, quick


def post(url, auth, hand, status=201):
    response = requests.post(f"{url}/hands", json=hand, headers=auth, timeout=10)
    assert response.status_code == status, response.text
    return response.json()


def copied(live, url):
    """The game exported and imported again: the copy's sheet."""
    exported = requests.get(f"{url}/export", timeout=10).json()
    response = requests.post(f"{live.url}/api/v1/games/import", json=exported, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()["game"]


def test_a_three_player_game_over_http(live_server):
    url, auth = live_server.new_game(players=ABC, dealer=0, stake=0.1)
    for hand in THREE_PLAYERS[:4]:
        post(url, auth, hand)
    # Ana deals hand 5 (she lost hand 4 to Ben's gin) and sits out
    error = post(url, auth, quick(0, 2, 12), status=422)["error"]
    assert (error["field"], error["reason"]) == ("knocker", "dealer_sits_out")
    post(url, auth, quick(2, 9, 12))  # a slip: Cy knocks 9 (3 points)
    undone = requests.delete(f"{url}/hands/last", headers=auth, timeout=10).json()
    assert undone["hand"]["points"] == 3 and undone["sheet"]["totals"] == [55, 65, 29]
    for hand in THREE_PLAYERS[4:]:
        sheet = post(url, auth, hand)["sheet"]
    assert sheet["totals"] == [101, 65, 39] and sheet["boxes"] == [2, 1, 2]
    assert [h["sits_out"] for h in sheet["hands"]] == [0, 1, 2, 2, 0, 1]
    assert sheet["status"] == "over" and sheet["result"]["winner"] == 0
    # Ana 101 + 50 + 100 = 251, Ben 65 + 25 = 90, Cy 39 + 50 = 89; each loser pays Ana
    assert sheet["result"]["final"] == [251, 90, 89] and sheet["result"]["net"] == 323
    assert sheet["result"]["settlement"] == [
        {"payer": 1, "payee": 0, "amount": 16.1},
        {"payer": 2, "payee": 0, "amount": 16.2},
    ]
    assert requests.get(url, timeout=10).json() == sheet
    assert post(url, auth, quick(1, 2, 12), status=409)["error"]["code"] == "game_over"
    assert copied(live_server, url)["result"] == sheet["result"]


def test_a_partnership_game_over_http(live_server):
    url, auth = live_server.new_game(players=ABCD, dealer=1, stake=0.5)
    for hand in PARTNERSHIP[:4]:
        sheet = post(url, auth, hand)["sheet"]
    assert sheet["totals"] == [95, 15] and sheet["next_games"] == [
        {"game": 1, "players": [0, 1], "dealer": 1},
        {"game": 2, "players": [2, 3], "dealer": 3},
    ]
    # a wrong opponent in deal 5's second game: Cy plays Dan
    error = post(url, auth, deal(quick(1, 3, 6), quick(1, 1, 9)), status=422)["error"]
    assert (error["field"], error["reason"]) == ("games.1.knocker", "not_in_this_game")
    # deal 2 corrected: Cy gins Ben for 30 too (team 0 + 60 instead of + 30): 125, over
    corrected = requests.put(
        f"{url}/hands/2", json=deal(quick(3, 9, 4), quick(2, 0, 5)), headers=auth, timeout=10
    )
    assert corrected.status_code == 200 and corrected.json()["sheet"]["totals"] == [125, 15]
    requests.put(f"{url}/hands/2", json=PARTNERSHIP[1], headers=auth, timeout=10)
    sheet = post(url, auth, PARTNERSHIP[4])["sheet"]
    assert [h["team_points"] for h in sheet["hands"]] == [
        [20, 35],
        [30, 0],
        [0, 0],
        [75, 10],
        [8, 3],
    ]
    assert sheet["totals"] == [100, 15] and sheet["boxes"] == [3, 1]
    # team 0: 100 + 3 x 25 + 100 = 275; team 1: 15 + 25 = 40; 235 x 0.50 = 117.50
    result = sheet["result"]
    assert (result["winner"], result["final"], result["net"]) == (0, [275, 40], 235)
    assert result["settlement"] == {"payer": 1, "payee": 0, "amount": 117.5}
    assert requests.get(url, timeout=10).json()["hands"] == sheet["hands"]
    assert copied(live_server, url)["totals"] == [100, 15]
