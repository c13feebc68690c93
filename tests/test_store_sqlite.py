"""The SQLite backend (a real file in tmp_path): schema, migrations, durability, refusals."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from store_kit import new_game, quick

from scorekeeper.store import games
from scorekeeper.store.base import StorageBusy, StorageError, StorageFull
from scorekeeper.store.sqlite import SCHEMA_VERSION, Storage


def test_schema_wal_and_foreign_keys(tmp_path):
    path = tmp_path / "fresh.db"
    store = Storage(path)
    assert store.schema_version() == SCHEMA_VERSION
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type"
                                             " = 'table'")}
    assert {"players", "games", "game_players", "hands"} <= tables
    assert store.db.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert store.db.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    with pytest.raises(sqlite3.IntegrityError):
        store.db.conn.execute("INSERT INTO hands (game_id, seq, kind, payload, result, created)"
                              " VALUES ('nope', 1, 'void', '{}', '{}', 'now')")
    assert Storage(path).schema_version() == SCHEMA_VERSION  # reopening migrates nothing


def test_a_newer_file_is_refused(tmp_path):
    path = tmp_path / "future.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StorageError, match="schema version"):
        Storage(path)


def test_default_path_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_DB", str(tmp_path / "env.db"))
    assert Storage().path == str(tmp_path / "env.db")
    assert (tmp_path / "env.db").exists()


def test_the_log_is_append_only(store):
    game_id, _ = new_game(store)
    games.add_hand(store, game_id, quick(0, 5, 20))
    for statement in ("UPDATE hands SET kind = 'void'", "DELETE FROM hands"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            store.db.conn.execute(statement)
    assert len(store.log(game_id)) == 1


def test_a_full_disk_rolls_the_write_back(store):
    """SQLite's page limit stands in for a full disk: SQLITE_FULL, as on a full file system."""
    game_id, _ = new_game(store)
    conn = store.db.conn
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages + 2}")
    stored = 0
    with pytest.raises(StorageFull) as error:
        for i in range(500):
            games.add_hand(store, game_id, {"kind": "void"}, idempotency_key=f"{i:0>150}")
            stored += 1
    assert error.value.code == "storage_full" and "nothing was written" in str(error.value)
    assert stored > 0 and not conn.in_transaction
    assert [e["seq"] for e in store.log(game_id)] == list(range(1, stored + 1))
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.execute("PRAGMA max_page_count = 1073741823")  # space again: writing goes on
    assert games.add_hand(store, game_id, {"kind": "void"})[1]["version"] == stored + 1


def test_a_writer_kept_waiting_too_long_is_refused_and_writes_nothing(store):
    game_id, _ = new_game(store)
    store.db.conn.execute("PRAGMA busy_timeout = 50")  # instead of BUSY_TIMEOUT's 30 s
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    try:
        with pytest.raises(StorageBusy) as error:
            games.add_hand(store, game_id, {"kind": "void"})
        assert error.value.code == "busy" and "nothing was written" in str(error.value)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert store.log(game_id) == [] and not store.db.conn.in_transaction
    assert games.add_hand(store, game_id, {"kind": "void"})[1]["version"] == 1


def test_concurrent_writers_lose_nothing(tmp_path):
    path = tmp_path / "busy.db"
    Storage(path)
    game_id, _ = new_game(Storage(path), rules={"target": 10_000})
    errors = []

    def writer(knocker):
        store = Storage(path)
        try:
            for i in range(15):
                games.add_hand(store, game_id, quick(knocker, 5, 6),
                               idempotency_key=f"{knocker}-{i}")
                games.add_hand(store, game_id, quick(knocker, 5, 6),
                               idempotency_key=f"{knocker}-{i}")  # a retry
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=writer, args=(k,)) for k in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    sheet = games.load_sheet(Storage(path), game_id)
    assert len(sheet["hands"]) == 30 and sheet["totals"] == [15, 15]
    assert [h["seq"] for h in sheet["hands"]] == list(range(1, 31))

