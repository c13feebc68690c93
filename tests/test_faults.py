"""Faults that heal, against a real server: a read-only database file, a database locked
by another process.

The read-only fault is a real one: the file is made read-only (``chmod
444``) while the server runs. Root writes read-only files all the same (the
capability CAP_DAC_OVERRIDE), so when the tests run as root the server is
started under ``setpriv`` without that capability (still root, but bound by
file permissions like any user); as another user it needs nothing.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from serve_kit import spawn, stop_soon

from scorekeeper.store import games
from scorekeeper.store.sqlite import Storage

pytestmark = pytest.mark.slow  # each test starts its own server

WITHOUT_OVERRIDE = [
    "setpriv",
    "--inh-caps=-dac_override,-dac_read_search",
    "--bounding-set=-dac_override,-dac_read_search",
]
"""Runs a command as root but bound by file permissions."""

BUSY_TIMEOUT = 5.0
"""The app's default ``BUSY_TIMEOUT``: the longest a write waits for the lock."""


def bound_by_permissions() -> list[str]:
    """The wrapper under which the server cannot write a read-only file."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: root writes read-only files")
    return WITHOUT_OVERRIDE


@pytest.fixture
def game(tmp_path):
    """A database with one game: (path, id, auth header).

    The game is written before the server starts, so every connection the
    server opens for requests is opened during the fault. The writing
    connection stays open, as a running server's do, so the WAL files
    exist before the fault (one SQLite creates during it gets the database
    file's read-only mode, and stays read-only when the file is restored).
    """
    db = tmp_path / "faults.db"
    store = Storage(db)
    sheet, token = games.create_game(store, ["Ana", "Ben"])
    yield db, sheet.id, {"Authorization": f"Bearer {token}"}
    store.close()


def timed(method: str, url: str, **kwargs) -> tuple[requests.Response, float]:
    start = time.monotonic()
    response = requests.request(method, url, timeout=20, **kwargs)
    return response, time.monotonic() - start


def test_a_read_only_database_file_is_503_while_it_lasts_and_heals_after(game):
    db, game_id, auth = game
    process, url = spawn(db, workers=2, wrapper=bound_by_permissions())
    hands, sheet = f"{url}/api/v1/games/{game_id}/hands", f"{url}/api/v1/games/{game_id}"
    try:
        with ThreadPoolExecutor(8) as pool:
            db.chmod(0o444)
            try:
                reads = list(pool.map(lambda _: timed("GET", sheet), range(8)))
                during = list(
                    pool.map(
                        lambda _: timed("POST", hands, json={"kind": "void"}, headers=auth),
                        range(8),
                    )
                )
            finally:
                db.chmod(0o644)
            assert all(response.status_code == 200 for response, _ in reads)
            for response, _ in during:
                assert response.status_code == 503, response.text
                assert response.headers["Retry-After"] == "1"
                assert response.json()["error"]["code"] == "unavailable"
            # Healed at once: the connections opened read-only are opened afresh.
            after = list(
                pool.map(
                    lambda _: timed("POST", hands, json={"kind": "void"}, headers=auth), range(8)
                )
            )
        assert [response.status_code for response, _ in after] == [201] * 8
        assert requests.get(sheet, timeout=10).json()["version"] == 8
    finally:
        stop_soon(process, "test_a_read_only_database_file_is_503_while_it_lasts_and_heals_after")


def test_a_database_locked_by_another_process_keeps_reads_quick_and_writes_get_503(game):
    db, game_id, auth = game
    process, url = spawn(db, workers=2)
    hands, sheet = f"{url}/api/v1/games/{game_id}/hands", f"{url}/api/v1/games/{game_id}"
    try:
        locker = sqlite3.connect(db, isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")  # another process holds the database
        try:
            sending: list[int] = []

            def write() -> tuple[requests.Response, float]:
                sending.append(1)
                return timed("POST", hands, json={"kind": "void"}, headers=auth)

            with ThreadPoolExecutor(16) as pool:
                writes = [pool.submit(write) for _ in range(8)]
                deadline = time.monotonic() + 20  # the writers are in and waiting
                while len(sending) < 8 and time.monotonic() < deadline:
                    time.sleep(0.01)
                reads = [pool.submit(timed, "GET", sheet) for _ in range(8)]
                read_results = [future.result() for future in reads]
                write_results = [future.result() for future in writes]
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        for response, seconds in read_results:
            assert response.status_code == 200 and seconds < 2.0, seconds
        for response, seconds in write_results:
            assert response.status_code == 503 and seconds < BUSY_TIMEOUT + 2, seconds
            assert response.headers["Retry-After"] == "1"
            assert response.json()["error"]["code"] == "busy"
        written = requests.post(hands, json={"kind": "void"}, headers=auth, timeout=10)
        assert written.status_code == 201 and written.json()["sheet"]["version"] == 1
    finally:
        stop_soon(
            process,
            "test_a_database_locked_by_another_process_keeps_reads_quick_and_writes_get_503",
        )
