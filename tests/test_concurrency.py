"""Concurrent writers through a real gunicorn (4 workers) on loopback: nothing lost, nothing twice.

Eight clients enter 100 hands each into one game at the same time (voids
and small knocks, under a target of 10,000 so the game goes on), retrying
some requests with the same ``Idempotency-Key``. The SQLite file is then
read directly: every acknowledged hand is there exactly once, the sequence
numbers run 1..800 without a gap, and the served totals equal totals
recomputed from the stored log by hand (a knock of k against d scores
d - k under the standard rules; a void scores nothing).

Then clients race with ``If-Match``: each reads the sheet's ETag and
writes based on it; exactly one write per version wins, the others get 409
``stale`` and write nothing.
"""

from __future__ import annotations

import json
import random
import sqlite3
from concurrent.futures import ThreadPoolExecutor

import requests
from load_kit import TARGET, hand_for

CLIENTS = 8
HANDS = 100
RETRY_EVERY = 7
"""Every this many hands a client sends the same request again, as after a lost answer."""


def stored_log(db, game_id: str) -> list[tuple]:
    """(seq, kind, payload, idempotency key) of each log row, read from the SQLite file."""
    with sqlite3.connect(db) as conn:
        return [(seq, kind, json.loads(payload), key) for seq, kind, payload, key in
                conn.execute("SELECT seq, kind, payload, idempotency_key FROM hands"
                             " WHERE game_id = ? ORDER BY seq", (game_id,))]


def test_eight_clients_a_hundred_hands_each_into_one_game(live):
    url, auth = live.new_game(rules={"target": TARGET})
    game_id = url.rsplit("/", 1)[1]

    def client(c: int) -> list[tuple[str, dict, int]]:
        rng = random.Random(c)
        acknowledged = []
        with requests.Session() as session:
            for i in range(HANDS):
                hand, key = hand_for(rng), f"client{c}-hand{i}"
                headers = {**auth, "Idempotency-Key": key, "Prefer": "return=minimal"}
                response = session.post(f"{url}/hands", json=hand, headers=headers, timeout=60)
                assert response.status_code == 201, response.text
                seq = response.json()["hand"]["seq"]
                acknowledged.append((key, hand, seq))
                if i % RETRY_EVERY == 0:
                    again = session.post(f"{url}/hands", json=hand, headers=headers, timeout=60)
                    assert again.status_code == 201, again.text  # the first answer
                    assert again.headers["Idempotent-Replayed"] == "true"
                    assert again.json()["hand"]["seq"] == seq
        return acknowledged

    with ThreadPoolExecutor(CLIENTS) as pool:
        acknowledged = [a for client_acks in pool.map(client, range(CLIENTS))
                        for a in client_acks]

    log = stored_log(live.db, game_id)
    assert [row[0] for row in log] == list(range(1, CLIENTS * HANDS + 1))  # no gap
    by_key = {row[3]: row for row in log}
    assert len(by_key) == len(log) == len(acknowledged)  # each stored once, nothing extra
    for key, hand, seq in acknowledged:
        assert by_key[key][0] == seq and by_key[key][2] == hand

    totals = [0, 0]
    for _, kind, hand, _ in log:
        if kind == "quick":
            totals[hand["knocker"]] += hand["defender_deadwood"] - hand["knocker_deadwood"]
    sheet = requests.get(url, timeout=30).json()
    assert sheet["version"] == len(sheet["hands"]) == CLIENTS * HANDS
    assert sheet["totals"] == totals and sheet["status"] == "active"
    assert [h["seq"] for h in sheet["hands"]] == list(range(1, CLIENTS * HANDS + 1))


def test_racing_writes_with_if_match_never_overwrite(live):
    url, auth = live.new_game(rules={"target": TARGET})
    rounds = 12

    def client(c: int) -> list[tuple[int, int, str | None]]:
        """(version seen, status, error code) of each write."""
        seen = []
        with requests.Session() as session:
            for _ in range(rounds):
                tag = session.get(url, timeout=30).headers["ETag"]
                response = session.post(f"{url}/hands", json={"kind": "void"}, timeout=30,
                                        headers={**auth, "If-Match": tag})
                code = response.json()["error"]["code"] if response.status_code >= 400 else None
                seen.append((int(tag.strip('"')), response.status_code, code))
        return seen

    with ThreadPoolExecutor(CLIENTS) as pool:
        writes = [w for seen in pool.map(client, range(CLIENTS)) for w in seen]

    won = sorted(version for version, status, _ in writes if status == 201)
    assert {(status, code) for _, status, code in writes} <= {(201, None), (409, "stale")}
    assert won == list(range(len(won)))  # one winner per version, none lost
    assert requests.get(url, timeout=10).json()["version"] == len(won)
    assert len(won) < len(writes)  # the race really happened: some writes were stale
