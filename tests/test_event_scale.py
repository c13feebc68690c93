"""An event at scale (issue 22): 20 tables saving at once through two servers over one
PostgreSQL database lose nothing, and the standings equal a recomputation from the games.

Two ``scorekeeper serve`` processes (started together, they migrate the one
database together) serve one Swiss event of 40 players. The director pairs
its round through the first server; then 20 table clients, each a thread with
an HTTP connection of its own, half of them on each server, enter their
match's hands at once until every match is over. Every hand a client got 201
for is stored (the served sheets of both servers and the database's own rows
count them), no request got a 5xx, and the standings both servers serve equal
:func:`event_kit.reference_standings` recomputed from each stored game's final
totals.
"""

from __future__ import annotations

import itertools
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from conftest import query
from event_kit import reference_standings, seats_to_win, served_lines
from serve_kit import serving_together
from test_api import quick

pytestmark = pytest.mark.slow  # starts PostgreSQL and two servers

PLAYERS = [f"Player {seat:02}" for seat in range(1, 41)]
"""The roster: 40 players, 20 tables."""


def test_twenty_tables_saving_at_once_through_two_servers_lose_nothing(postgres):
    db = postgres.new_database()
    with serving_together(db) as urls:  # both start (and migrate) at once
        body = {"name": "Big night", "players": PLAYERS, "format": "swiss", "rounds": 1}
        event = requests.post(f"{urls[0]}/api/v1/events", json=body, timeout=30).json()
        director = {"Authorization": f"Bearer {event['director_token']}"}
        response = requests.post(f"{urls[0]}{event['url']}/rounds", headers=director, timeout=30)
        assert response.status_code == 201, response.text
        matches = response.json()["matches"]
        assert len(matches) == 20 and response.json()["byes"] == []

        ready = threading.Barrier(len(matches))

        def table(match: dict) -> tuple[int, list[int]]:
            """Enter the match's hands until it is over: (hands acknowledged, statuses)."""
            number = match["table"]
            hands = f"{urls[number % 2]}/api/v1/games/{match['game_id']}/hands"
            auth = {"Authorization": f"Bearer {match['edit_token']}"}
            seats = seats_to_win(int(number % 3 == 0), (7 * number) % 31, knocks=2 + number % 5)
            acknowledged, statuses = 0, []
            with requests.Session() as session:
                ready.wait(timeout=60)
                for knocker, own, other in itertools.cycle(seats):
                    sent = session.post(
                        hands, json=quick(knocker, own, other), headers=auth, timeout=60
                    )
                    statuses.append(sent.status_code)
                    if sent.status_code != 201:
                        break
                    acknowledged += 1
                    if sent.json()["sheet"]["status"] == "over":
                        break
            return acknowledged, statuses

        with ThreadPoolExecutor(len(matches)) as pool:
            played = list(pool.map(table, matches))
        assert {status for _, statuses in played for status in statuses} == {201}

        finals = []
        for match, (acknowledged, _) in zip(matches, played, strict=True):
            game_id = match["game_id"]
            sheets = [requests.get(f"{url}/api/v1/games/{game_id}", timeout=30) for url in urls]
            sheet = sheets[0].json()
            assert sheets[1].json() == sheet  # one game, seen from both
            assert sheet["status"] == "over"
            assert sheet["result"]["winner"] == int(match["table"] % 3 == 0)
            assert len(sheet["hands"]) == acknowledged
            rows = query(db, "SELECT count(*) FROM hands WHERE game_id = ?", (game_id,))
            assert rows == [(acknowledged,)]
            finals.append((sheet["players"], sheet["result"]["final"], sheet["result"]["winner"]))

        expected = reference_standings(PLAYERS, finals, swiss=True)
        for url in urls:
            standings = requests.get(f"{url}{event['url']}/standings", timeout=30).json()
            assert served_lines(standings["standings"]) == expected
            whole = requests.get(f"{url}{event['url']}", timeout=30).json()
            assert whole["over"] and whole["standings"] == standings["standings"]
