"""``scorekeeper backup`` and ``scorekeeper restore`` next to a real gunicorn writing on loopback.

The backup is taken in the middle of a write burst: it is a sound
scorekeeper database holding every hand acknowledged before it started,
and its log is a prefix of the live one. Restore refuses files that are
not scorekeeper databases (and a database holding games without
``--force``), changing nothing; a forced restore switches the running
server to the backup's games at once, and writing goes on.
"""

from __future__ import annotations

import fcntl
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from click.testing import CliRunner
from serve_kit import spawn, stop

from scorekeeper.cli import main
from scorekeeper.store import games
from scorekeeper.store.sqlite import Storage
from scorekeeper.store.sqlite_migrations import SCHEMA_VERSION


def log_rows(db) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT game_id, seq, idempotency_key, payload FROM hands ORDER BY game_id, seq"
        ).fetchall()


@pytest.mark.slow
def test_backup_while_the_server_writes(tmp_path):
    db, copy = tmp_path / "live.db", tmp_path / "copy.db"
    process, url = spawn(db, workers=4)
    acknowledged: list[str] = []
    done = threading.Event()
    try:
        created = requests.post(
            f"{url}/api/v1/games",
            timeout=10,
            json={"dealer": 0, "players": ["Ana", "Ben"], "rules": {"target": 10_000}},
        ).json()
        headers = {"Authorization": f"Bearer {created['edit_token']}", "Prefer": "return=minimal"}

        def writer(w: int) -> None:
            with requests.Session() as session:
                for i in range(400):
                    if done.is_set():
                        return
                    key = f"w{w}-{i}"
                    response = session.post(
                        f"{url}{created['url']}/hands",
                        timeout=10,
                        json={"kind": "void"},
                        headers={**headers, "Idempotency-Key": key},
                    )
                    assert response.status_code == 201
                    acknowledged.append(key)

        with ThreadPoolExecutor(3) as pool:
            writers = [pool.submit(writer, w) for w in range(3)]
            deadline = time.monotonic() + 20
            while len(acknowledged) < 60 and time.monotonic() < deadline:
                time.sleep(0.01)
            before = set(acknowledged)
            result = CliRunner().invoke(main, ["backup", str(copy), "--db", str(db)])
            during = len(acknowledged)
            deadline = time.monotonic() + 20  # the server goes on writing after the backup
            while len(acknowledged) <= during and time.monotonic() < deadline:
                time.sleep(0.01)
            done.set()
            for finished in writers:
                finished.result()  # a writer's failed assertion fails the test
        assert result.exit_code == 0, result.output
        assert result.output.startswith("backed up 1 game(s), ")
        assert len(acknowledged) > during >= len(before) >= 60
    finally:
        assert stop(process) == 0
    with sqlite3.connect(copy) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert not os.path.exists(f"{copy}-wal")
    backed_up, live = log_rows(copy), log_rows(db)
    assert before <= {row[2] for row in backed_up}
    assert backed_up == live[: len(backed_up)] and len(backed_up) < len(live)


@pytest.fixture
def store_with_a_game(tmp_path):
    """A database with one game of two hands: (path, game id)."""
    path = tmp_path / "games.db"
    store = Storage(path)
    sheet, _ = games.create_game(store, ["Ana", "Ben"])
    games.add_hand(store, sheet.id, {"kind": "void"})
    games.add_hand(
        store,
        sheet.id,
        {"kind": "quick", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 9},
    )
    store.close()
    return path, sheet.id


def not_scorekeeper_files(folder, good) -> dict[str, tuple[object, str]]:
    """Files restore must refuse: {label: (path, words of the message)}."""
    text = folder / "notes.txt"
    text.write_text("these are not the games you are looking for\n" * 20)
    other = folder / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE contacts (name TEXT)")
    newer = folder / "newer.db"
    with sqlite3.connect(good) as source, sqlite3.connect(newer) as target:
        source.backup(target)
        target.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    damaged = folder / "damaged.db"
    data = bytearray(good.read_bytes())
    data[4096 + 200 : 4096 * 3] = bytes(4096 * 3 - 4096 - 200)  # wipe pages 2 and 3
    damaged.write_bytes(bytes(data))
    return {
        "text": (text, "not a SQLite database"),
        "other tables": (other, "not a scorekeeper database: it has no table players"),
        "newer": (newer, f"schema version {SCHEMA_VERSION + 1}"),
        "damaged": (damaged, "damaged"),
    }


def test_restore_refuses_what_is_not_a_scorekeeper_database(store_with_a_game, tmp_path):
    db, _ = store_with_a_game
    good = tmp_path / "good.db"
    assert CliRunner().invoke(main, ["backup", str(good), "--db", str(db)]).exit_code == 0
    before = log_rows(db)
    fresh = tmp_path / "fresh.db"
    for label, (path, words) in not_scorekeeper_files(tmp_path, good).items():
        for target in (db, fresh):
            result = CliRunner().invoke(
                main, ["restore", str(path), "--db", str(target), "--force"]
            )
            assert result.exit_code == 1, (label, result.output)
            assert result.output.startswith("Error: ") and words in result.output, label
    assert log_rows(db) == before and not os.path.exists(fresh)
    missing = CliRunner().invoke(main, ["restore", str(tmp_path / "nowhere.db"), "--db", str(db)])
    assert missing.exit_code == 2 and "does not exist" in missing.output
    itself = CliRunner().invoke(main, ["backup", str(db), "--db", str(db)])
    assert itself.exit_code == 1 and "the database itself" in itself.output


@pytest.mark.slow
def test_restore_into_a_running_server(store_with_a_game, tmp_path):
    db, game_id = store_with_a_game
    saved = tmp_path / "saved.db"
    assert CliRunner().invoke(main, ["backup", str(saved), "--db", str(db)]).exit_code == 0
    process, url = spawn(db, workers=2)
    try:
        sheet = f"{url}/api/v1/games/{game_id}"
        later = requests.post(
            f"{url}/api/v1/games", json={"dealer": 0, "players": ["Cy", "Di"]}, timeout=10
        ).json()
        assert requests.get(sheet, timeout=10).json()["version"] == 2
        refused = CliRunner().invoke(main, ["restore", str(saved), "--db", str(db)])
        assert refused.exit_code == 1 and "holds 2 games" in refused.output
        assert "--force" in refused.output
        assert requests.get(f"{url}{later['url']}", timeout=10).status_code == 200
        result = CliRunner().invoke(main, ["restore", str(saved), "--db", str(db), "--force"])
        assert result.exit_code == 0, result.output
        assert result.output.startswith("restored 1 game(s), 2 log entries from ")
        assert requests.get(f"{url}{later['url']}", timeout=10).status_code == 404
        restored = requests.get(sheet, timeout=10).json()
        assert restored["version"] == 2 and restored["totals"] == [6, 0]
        copied = requests.post(
            f"{url}/api/v1/games/import",
            timeout=10,
            json=requests.get(f"{sheet}/export", timeout=10).json(),
        )
        assert copied.status_code == 201  # the restored server writes as before
    finally:
        assert stop(process) == 0
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 2


def test_backup_into_a_missing_folder_is_one_line(store_with_a_game, tmp_path):
    db, _ = store_with_a_game
    target = tmp_path / "no such folder" / "copy.db"
    result = CliRunner().invoke(main, ["backup", str(target), "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert result.output == (
        f"Error: cannot write {target}: the folder {target.parent} does not exist\n"
    )
    assert not target.parent.exists()


KILLED_BACKUP = """
import glob, os, signal, sys, threading
from scorekeeper.store.backup import backup
db, folder = sys.argv[1], sys.argv[2]
def kill_when_writing():
    while not glob.glob(os.path.join(folder, ".backup-*.db")):
        pass
    os.kill(os.getpid(), signal.SIGKILL)
threading.Thread(target=kill_when_writing, daemon=True).start()
backup(db, os.path.join(folder, "copy.db"))
"""


def test_a_killed_backup_leaves_nothing_behind_after_the_next(store_with_a_game, tmp_path):
    """A backup killed (SIGKILL) while writing its copy leaves its temporary file; the
    next backup into that folder removes it, and keeps the file of a backup still running."""
    db, _ = store_with_a_game
    with sqlite3.connect(db) as conn:  # a few MB, so the copy takes a moment
        conn.execute("CREATE TABLE ballast (data BLOB)")
        conn.executemany("INSERT INTO ballast VALUES (randomblob(65536))", [()] * 100)
    folder = tmp_path / "backups"
    folder.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for _ in range(5):
        killed = subprocess.run(
            [sys.executable, "-c", KILLED_BACKUP, str(db), str(folder)], env=env, timeout=60
        )
        if killed.returncode == -signal.SIGKILL:
            break
        (folder / "copy.db").unlink()  # it finished before it was killed: again
    assert killed.returncode == -signal.SIGKILL
    stale = list(folder.glob(".backup-*.db"))
    assert len(stale) == 1 and not (folder / "copy.db").exists()
    running = folder / ".backup-running.db"  # the file of a backup still writing it
    running.write_bytes(b"")
    with open(running, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        result = CliRunner().invoke(main, ["backup", str(folder / "copy.db"), "--db", str(db)])
        assert result.exit_code == 0, result.output
        assert sorted(p.name for p in folder.iterdir()) == [".backup-running.db", "copy.db"]
    result = CliRunner().invoke(main, ["backup", str(folder / "copy.db"), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == ["copy.db"]
