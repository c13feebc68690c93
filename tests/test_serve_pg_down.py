"""``scorekeeper serve`` over PostgreSQL while the database server goes away and comes back.

With the database away, every request that needs it (reads included)
answers 503 with ``Retry-After`` within 2 s, in the API's error format,
instead of waiting for a connection; once it is back the same server
answers again, with nothing lost. A PostgreSQL server of the test's own
(tests/pg.py), halted and started again on its port and data.
"""

from __future__ import annotations

import time

import pytest
import requests
from pg import PostgresServer
from serve_kit import spawn, stop

pytestmark = pytest.mark.slow  # each test starts PostgreSQL and a server


@pytest.fixture
def database():
    server = PostgresServer()
    try:
        yield server
    finally:
        server.stop()


def test_requests_fail_fast_while_the_database_is_away_and_heal(database):
    process, url = spawn(database.new_database(), workers=1)
    try:
        created = requests.post(f"{url}/api/v1/games", json={"players": ["Ana", "Ben"]}, timeout=10)
        assert created.status_code == 201
        game, token = created.json()["id"], created.json()["edit_token"]
        sheet = f"{url}/api/v1/games/{game}"
        auth = {"Authorization": f"Bearer {token}"}
        database.halt()
        for method, path, body in [
            ("GET", sheet, None),
            ("POST", f"{sheet}/hands", {"kind": "void"}),
            ("GET", sheet, None),
        ]:
            began = time.monotonic()
            answer = requests.request(method, path, json=body, headers=auth, timeout=10)
            took = time.monotonic() - began
            assert answer.status_code == 503, answer.text
            assert answer.headers["Retry-After"] == "1"
            assert answer.json()["error"]["code"] == "unavailable"
            assert took < 2.0, f"{method} took {took:.2f} s"
        database.start()
        deadline = time.monotonic() + 30
        while True:
            added = requests.post(f"{sheet}/hands", json={"kind": "void"}, headers=auth, timeout=10)
            if added.status_code != 503 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert added.status_code == 201, added.text
        assert requests.get(sheet, timeout=10).json()["version"] == 1
    finally:
        assert stop(process) == 0
