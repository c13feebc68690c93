"""Crash safety: kill -9 a real gunicorn (master and workers) in the middle of a write burst.

Six clients write hands as fast as they can; once 150 have been
acknowledged, the whole process group gets SIGKILL (nothing is flushed,
no handler runs). A new server on the same file must find it intact
(``PRAGMA integrity_check``), every acknowledged hand present exactly once
with sequence numbers 1..n without a gap, and go on accepting writes.
A hand whose request was cut off may or may not be there (the client never
learnt), but only such hands may be extra.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import requests

from api.server import crash, spawn, stop

WRITERS = 6
KILL_AFTER = 150
"""Acknowledged hands before the kill."""


def test_kill_9_mid_burst_loses_no_acknowledged_hand(tmp_path):
    db = tmp_path / "crash.db"
    process, url = spawn(db, workers=4)
    acknowledged: list[str] = []
    sent: list[str] = []
    lock = threading.Lock()
    try:
        created = requests.post(f"{url}/api/v1/games", timeout=10, json={
            "players": ["Ana", "Ben"], "rules": {"target": 10_000}}).json()
        hands = f"{url}{created['url']}/hands"
        auth = {"Authorization": f"Bearer {created['edit_token']}",
                "Prefer": "return=minimal"}

        def writer(c: int) -> None:
            with requests.Session() as session:
                for i in range(2000):
                    key = f"w{c}-{i}"
                    with lock:
                        sent.append(key)
                    try:
                        response = session.post(hands, json={"kind": "void"}, timeout=10,
                                                headers={**auth, "Idempotency-Key": key})
                    except requests.RequestException:
                        # the server is gone (refused, reset, or cut off mid-answer):
                        # this request's fate is unknown
                        return
                    assert response.status_code == 201, response.text
                    with lock:
                        acknowledged.append(key)

        with ThreadPoolExecutor(WRITERS) as pool:
            writers = [pool.submit(writer, c) for c in range(WRITERS)]
            deadline = time.monotonic() + 30
            while len(acknowledged) < KILL_AFTER and time.monotonic() < deadline:
                time.sleep(0.005)
            crash(process)
            for done in writers:
                done.result()  # a writer's failed assertion fails the test
        assert len(acknowledged) >= KILL_AFTER
    finally:
        if process.poll() is None:
            crash(process)
    assert os.path.exists(f"{db}-wal")  # killed with the WAL in use: recovery will run

    process, url = spawn(db, workers=2)
    try:
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            rows = conn.execute("SELECT seq, idempotency_key FROM hands WHERE game_id = ?"
                                " ORDER BY seq", (created["id"],)).fetchall()
        assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1))
        found = [key for _, key in rows]
        assert len(set(found)) == len(found)
        assert set(acknowledged) <= set(found) <= set(sent)  # extras: only cut-off requests
        assert len(found) - len(acknowledged) <= WRITERS
        sheet = requests.get(f"{url}{created['url']}", timeout=10).json()
        assert sheet["version"] == len(rows)
        after = requests.post(f"{url}{created['url']}/hands", json={"kind": "void"},
                              headers={"Authorization": auth["Authorization"]}, timeout=10)
        assert after.status_code == 201 and after.json()["hand"]["seq"] == len(rows) + 1
    finally:
        assert stop(process) == 0
