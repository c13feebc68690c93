"""Concurrent writers through a real gunicorn (4 workers) on loopback: nothing lost, nothing twice.

On each backend (a SQLite file, a PostgreSQL database), eight clients
enter 100 hands each (40 on PostgreSQL, to keep the suite's time) into
one game at the same time (voids
and small knocks, under a target of 10,000 so the game goes on), retrying
some requests with the same ``Idempotency-Key``. The database is then
read directly: every acknowledged hand is there exactly once, the sequence
numbers run 1..800 without a gap, and the served totals equal totals
recomputed from the stored log by hand (a knock of k against d scores
d - k under the standard rules; a void scores nothing).

Then clients race with ``If-Match``: each reads the sheet's ETag and
writes based on it; exactly one write per version wins, the others get 409
``stale`` and write nothing.

Last, two machines, one database: two gunicorn servers started at the
same moment (they migrate one PostgreSQL database together) take the
eight clients' writes to one game, half each; every acknowledged hand is
stored exactly once, as with one server.
"""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor

import requests
from conftest import Live, query
from load_kit import TARGET, hand_for
from serve_kit import serving_together

CLIENTS = 8
HANDS = {"sqlite": 100, "postgresql": 40}
"""Hands each client enters, by backend."""
TWO_SERVERS_HANDS = 25
"""Hands each client enters in the two-servers test."""
RETRY_EVERY = 7
"""Every this many hands a client sends the same request again, as after a lost answer."""


def stored_log(db, game_id: str) -> list[tuple]:
    """(seq, kind, payload, idempotency key) of each log row, read from the database."""
    return [
        (seq, kind, json.loads(payload), key)
        for seq, kind, payload, key in query(
            db,
            "SELECT seq, kind, payload, idempotency_key FROM hands WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
    ]


def enter_hands(
    url: str, auth: dict, clients: list[tuple[int, str]], hands: int
) -> list[tuple[str, dict, int]]:
    """Each client ``(c, hands URL)`` enters ``hands`` hands at once: (key, hand, seq) acked.

    Every :data:`RETRY_EVERY` hands a client sends the same request again
    and checks it is answered as a replay of the stored hand.
    """

    def client(c: int, hands_url: str) -> list[tuple[str, dict, int]]:
        rng = random.Random(c)
        acknowledged = []
        with requests.Session() as session:
            for i in range(hands):
                hand, key = hand_for(rng), f"client{c}-hand{i}"
                headers = {**auth, "Idempotency-Key": key, "Prefer": "return=minimal"}
                response = session.post(hands_url, json=hand, headers=headers, timeout=60)
                assert response.status_code == 201, response.text
                seq = response.json()["hand"]["seq"]
                acknowledged.append((key, hand, seq))
                if i % RETRY_EVERY == 0:
                    again = session.post(hands_url, json=hand, headers=headers, timeout=60)
                    assert again.status_code == 201, again.text  # the first answer
                    assert again.headers["Idempotent-Replayed"] == "true"
                    assert again.json()["hand"]["seq"] == seq
        return acknowledged

    with ThreadPoolExecutor(len(clients)) as pool:
        return [a for acks in pool.map(lambda ch: client(*ch), clients) for a in acks]


def check_stored_once(db, url: str, acknowledged: list[tuple[str, dict, int]]) -> None:
    """Every acknowledged hand is stored exactly once at its seq, 1..n without a gap, and
    the served sheet's totals are the ones recomputed from the stored log."""
    log = stored_log(db, url.rsplit("/", 1)[1])
    count = len(acknowledged)
    assert [row[0] for row in log] == list(range(1, count + 1))  # no gap
    by_key = {row[3]: row for row in log}
    assert len(by_key) == len(log) == count  # each stored once, nothing extra
    for key, hand, seq in acknowledged:
        assert by_key[key][0] == seq and by_key[key][2] == hand

    totals = [0, 0]
    for _, kind, hand, _ in log:
        if kind == "quick":
            totals[hand["knocker"]] += hand["defender_deadwood"] - hand["knocker_deadwood"]
    sheet = requests.get(url, timeout=30).json()
    assert sheet["version"] == len(sheet["hands"]) == count
    assert sheet["totals"] == totals and sheet["status"] == "active"
    assert [h["seq"] for h in sheet["hands"]] == list(range(1, count + 1))


def test_eight_clients_a_hundred_hands_each_into_one_game(live_server):
    live = live_server
    url, auth = live.new_game(rules={"target": TARGET})
    hands = HANDS[live.backend]
    acknowledged = enter_hands(url, auth, [(c, f"{url}/hands") for c in range(CLIENTS)], hands)
    assert len(acknowledged) == CLIENTS * hands
    check_stored_once(live.db, url, acknowledged)


def test_racing_writes_with_if_match_never_overwrite(live_server):
    url, auth = live_server.new_game(rules={"target": TARGET})
    rounds = 12

    def client(c: int) -> list[tuple[int, int, str | None]]:
        """(version seen, status, error code) of each write."""
        seen = []
        with requests.Session() as session:
            for _ in range(rounds):
                tag = session.get(url, timeout=30).headers["ETag"]
                response = session.post(
                    f"{url}/hands",
                    json={"kind": "void"},
                    timeout=30,
                    headers={**auth, "If-Match": tag},
                )
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


def test_two_servers_over_one_postgresql_database(postgres):
    db = postgres.new_database()
    with serving_together(db) as (first, second):  # both start (and migrate) at once
        url, auth = Live(first, db).new_game(rules={"target": TARGET})
        path = url.removeprefix(first)
        clients = [(c, f"{(first, second)[c % 2]}{path}/hands") for c in range(CLIENTS)]
        acknowledged = enter_hands(url, auth, clients, TWO_SERVERS_HANDS)
        assert len(acknowledged) == CLIENTS * TWO_SERVERS_HANDS
        check_stored_once(db, url, acknowledged)
        other = requests.get(f"{second}{path}", timeout=30).json()
        assert other == requests.get(url, timeout=30).json()  # one game, seen from both
