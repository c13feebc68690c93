"""Crash safety: kill -9 a real gunicorn (master and workers) in the middle of a write burst.

On each backend, six clients write hands as fast as they can; once 150
have been acknowledged (60 on PostgreSQL), the whole process group gets
SIGKILL (nothing is flushed, no handler runs; PostgreSQL ends the killed
workers' sessions and rolls back what they had not committed). A new
server on the same database must find it intact (``Backend.intact``:
SQLite's integrity check, amcheck on PostgreSQL), every acknowledged hand
present exactly once with sequence numbers 1..n without a gap, and go on
accepting writes. A hand whose request was cut off may or may not be there
(the client never learnt), but only such hands may be extra.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from conftest import query
from serve_kit import crash, spawn, stop_soon

from scorekeeper.store import open_store

pytestmark = pytest.mark.slow  # each test starts its own servers

WRITERS = 6
KILL_AFTER = {"sqlite": 150, "postgresql": 60}
"""Acknowledged hands before the kill, by backend."""


def test_kill_9_mid_burst_loses_no_acknowledged_hand(backend):
    db = backend.address
    kill_after = KILL_AFTER[backend.name]
    process, url = spawn(db, workers=4)
    acknowledged: list[str] = []
    sent: list[str] = []
    lock = threading.Lock()
    try:
        created = requests.post(
            f"{url}/api/v1/games",
            timeout=10,
            json={"dealer": 0, "players": ["Ana", "Ben"], "rules": {"target": 10_000}},
        ).json()
        hands = f"{url}{created['url']}/hands"
        auth = {"Authorization": f"Bearer {created['edit_token']}", "Prefer": "return=minimal"}

        def writer(c: int) -> None:
            with requests.Session() as session:
                for i in range(2000):
                    key = f"w{c}-{i}"
                    with lock:
                        sent.append(key)
                    try:
                        response = session.post(
                            hands,
                            json={"kind": "void"},
                            timeout=10,
                            headers={**auth, "Idempotency-Key": key},
                        )
                    except requests.RequestException:
                        # the server is gone (refused, reset, or cut off mid-answer):
                        # this request's fate is unknown
                        return
                    if response.status_code == 502:
                        # nginx (a process group of its own, ended by its parent-death
                        # signal a moment later) found gunicorn gone: fate unknown
                        return
                    assert response.status_code == 201, response.text
                    with lock:
                        acknowledged.append(key)

        with ThreadPoolExecutor(WRITERS) as pool:
            writers = [pool.submit(writer, c) for c in range(WRITERS)]
            deadline = time.monotonic() + 30
            while len(acknowledged) < kill_after and time.monotonic() < deadline:
                time.sleep(0.005)
            crash(process)
            for done in writers:
                done.result()  # a writer's failed assertion fails the test
        assert len(acknowledged) >= kill_after
    finally:
        if process.poll() is None:
            crash(process)
    if backend.name == "sqlite":
        assert os.path.exists(f"{db}-wal")  # killed with the WAL in use: recovery will run

    process, url = spawn(db, workers=2)
    try:
        store = open_store(db)
        assert backend.intact(store)
        store.close()
        rows = backend.sql(
            "SELECT seq, idempotency_key FROM hands WHERE game_id = ? ORDER BY seq",
            (created["id"],),
        )
        assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1))
        found = [key for _, key in rows]
        assert len(set(found)) == len(found)
        assert set(acknowledged) <= set(found) <= set(sent)  # extras: only cut-off requests
        assert len(found) - len(acknowledged) <= WRITERS
        sheet = requests.get(f"{url}{created['url']}", timeout=10).json()
        assert sheet["version"] == len(rows)
        after = requests.post(
            f"{url}{created['url']}/hands",
            json={"kind": "void"},
            headers={"Authorization": auth["Authorization"]},
            timeout=10,
        )
        assert after.status_code == 201 and after.json()["hand"]["seq"] == len(rows) + 1
    finally:
        stop_soon(process, "test_kill_9_mid_burst_loses_no_acknowledged_hand")


def test_the_postgresql_the_crash_test_counts_on_is_durable(postgres):
    """The suite's PostgreSQL keeps its durable defaults (tests/pg.py): a commit is on
    disk when it is acknowledged, so what the crash test counts on is a real commit."""
    settings = query(
        postgres.url(),
        "SELECT name, setting FROM pg_settings"
        " WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes') ORDER BY name",
    )
    assert settings == [("fsync", "on"), ("full_page_writes", "on"), ("synchronous_commit", "on")]
