"""Storage (a real SQLite file in tmp_path) and the stored-game operations on top of it."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest
import sqlite_utils

from scorekeeper.bots import simulate_match
from scorekeeper.errors import RuleError
from scorekeeper.rules import Rules
from scorekeeper.store import games
from scorekeeper.store.base import (
    Conflict,
    KeyReused,
    NotFound,
    Stale,
    StorageBusy,
    StorageError,
    StorageFull,
)
from scorekeeper.store.sqlite import MIGRATIONS, SCHEMA_VERSION, Storage
from scorekeeper.store.stats import player_stats


@pytest.fixture
def store(tmp_path):
    return Storage(tmp_path / "games.db")


def quick(knocker, k, d, **extra):
    return {"kind": "quick", "knocker": knocker, "knocker_deadwood": k,
            "defender_deadwood": d, **extra}


def new_game(store, **settings):
    settings.setdefault("players", ["Ana", "Ben"])
    sheet, token = games.create_game(store, **settings)
    return sheet["id"], token


# ----------------------------------------------------------------------------- the file


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


def test_a_file_of_the_first_schema_is_migrated_and_keeps_its_games(tmp_path):
    path = tmp_path / "old.db"
    db = sqlite_utils.Database(path)
    MIGRATIONS[0](db)
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO games (id, players, rules, dealer, stake, created, updated, status,"
               " token_hash) VALUES ('old-game-000001', '[\"Ana\",\"Ben\"]', ?, 0, NULL,"
               " 'then', 'then', 'active', ?)",
               [json.dumps(Rules.preset("standard").to_dict()), games.hash_token("t")])
    db.conn.commit()
    db.conn.close()
    store = Storage(path)
    assert store.schema_version() == SCHEMA_VERSION
    columns = {row[1] for row in store.db.conn.execute("PRAGMA table_info(games)")}
    assert {"idempotency_key", "request_hash"} <= columns
    assert games.load_sheet(store, "old-game-000001")["players"] == ["Ana", "Ben"]
    first = games.create_game(store, ["Cy", "Di"], idempotency_key="k", secret="s")
    assert games.create_game(store, ["Cy", "Di"], idempotency_key="k", secret="s") == first


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


# ----------------------------------------------------------------------------- games


def test_create_game_stores_the_rules_snapshot_and_only_a_token_hash(store):
    sheet, token = games.create_game(store, ["Ana ", "Ben"], rules={"preset": "classic",
                                                                     "target": 150},
                                     dealer=1, stake=0.1)
    game = store.game(sheet["id"])
    assert game["players"] == ["Ana", "Ben"]
    assert game["rules"]["gin_bonus"] == 20 and game["rules"]["target"] == 150
    assert (game["dealer"], game["stake"], game["status"]) == (1, 0.1, "active")
    assert token not in game["token_hash"] and len(game["token_hash"]) == 64
    assert games.token_matches(game, token) and not games.token_matches(game, token + "x")
    assert not games.token_matches(game, None)
    assert len(sheet["id"]) >= 16 and sheet["hands"] == [] and sheet["next_dealer"] == 1


@pytest.mark.parametrize(("settings", "field"), [
    ({"players": ["Ana"]}, "players"),
    ({"players": ["Ana", "ana"]}, "players"),
    ({"players": ["Ana", "  "]}, "players"),
    ({"players": ["Ana", "Ben"], "dealer": 2}, "dealer"),
    ({"players": ["Ana", "Ben"], "stake": -1}, "stake"),
    ({"players": ["Ana", "Ben"], "rules": {"gin_bonus": "lots"}}, "gin_bonus"),
    ({"players": ["Ana", "Ben"], "rules": "bridge"}, "preset"),
])
def test_bad_game_settings_store_nothing(store, settings, field):
    with pytest.raises(RuleError) as error:
        games.create_game(store, **settings)
    assert error.value.field == field
    assert store.db.conn.execute("SELECT count(*) FROM games").fetchone()[0] == 0


def test_hands_totals_and_the_end_of_the_game(store):
    game_id, _ = new_game(store, stake=0.5)
    hand, sheet, created = games.add_hand(store, game_id, quick(0, 7, 22))
    assert created and hand["n"] == 1 and hand["points"] == 15 and hand["winner"] == 0
    assert hand["kind"] == "quick" and hand["input"] == quick(0, 7, 22)
    for _ in range(2):
        _, sheet, _ = games.add_hand(store, game_id, quick(1, 0, 20))  # Ben gins: 45 each
    _, sheet, _ = games.add_hand(store, game_id, {"kind": "void"})
    assert sheet["totals"] == [15, 90] and sheet["status"] == "active"
    assert store.game(game_id)["status"] == "active"
    _, sheet, _ = games.add_hand(store, game_id, quick(1, 0, 0))  # Ben gins: 25 more
    assert sheet["totals"] == [15, 115] and sheet["boxes"] == [1, 3]
    assert sheet["status"] == "over" and store.game(game_id)["status"] == "over"
    assert sheet["result"]["winner"] == 1 and sheet["result"]["settlement"]["payer"] == 0


def test_a_hand_after_the_end_is_refused_and_stores_nothing(store):
    game_id, _ = new_game(store, rules={"target": 20})
    games.add_hand(store, game_id, quick(0, 0, 10))
    with pytest.raises(Conflict) as error:
        games.add_hand(store, game_id, quick(0, 5, 20))
    assert error.value.code == "game_over"
    assert len(store.log(game_id)) == 1


def test_a_bad_hand_stores_nothing(store):
    game_id, _ = new_game(store)
    with pytest.raises(RuleError) as error:
        games.add_hand(store, game_id, quick(0, 12, 20))
    assert error.value.field == "knocker_deadwood"
    assert store.log(game_id) == []
    with pytest.raises(NotFound):
        games.add_hand(store, "no-such-game", quick(0, 5, 20))


def test_idempotency_key(store):
    game_id, _ = new_game(store)
    first = games.add_hand(store, game_id, quick(0, 5, 20), idempotency_key="k1")
    again = games.add_hand(store, game_id, quick(0, 5, 20), idempotency_key="k1")
    assert first[2] and not again[2] and again[0] == first[0]
    assert len(store.log(game_id)) == 1
    with pytest.raises(KeyReused):
        games.add_hand(store, game_id, quick(0, 6, 20), idempotency_key="k1")
    other, _ = new_game(store)
    assert games.add_hand(store, other, quick(0, 5, 20), idempotency_key="k1")[2]


def test_a_keyed_create_is_stored_once_and_gives_its_token_again(store):
    first = games.create_game(store, ["Ana", "Ben"], idempotency_key="g1", secret="s")
    again = games.create_game(store, ["Ana", "Ben"], idempotency_key="g1", secret="s")
    assert again == first and games.token_matches(store.game(first[0]["id"]), first[1])
    for other in ({"players": ["Ana", "Cy"], "secret": "s"},
                  {"players": ["Ana", "Ben"], "secret": "another secret"}):
        with pytest.raises(KeyReused):
            games.create_game(store, other["players"], idempotency_key="g1",
                              secret=other["secret"])
    with sqlite3.connect(store.path) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 1


def test_a_write_based_on_an_old_version_is_stale_and_stores_nothing(store):
    game_id, _ = new_game(store)
    games.add_hand(store, game_id, quick(0, 5, 20), expected_version=0, idempotency_key="a")
    with pytest.raises(Stale) as error:
        games.add_hand(store, game_id, quick(1, 5, 20), expected_version=0)
    assert (error.value.expected, error.value.version, error.value.code) == (0, 1, "stale")
    assert "version 1" in str(error.value)
    for stale in (lambda: games.undo_last(store, game_id, expected_version=3),
                  lambda: games.correct_hand(store, game_id, 1, quick(0, 6, 20),
                                             expected_version=0)):
        with pytest.raises(Stale):
            stale()
    assert len(store.log(game_id)) == 1
    # a retry of the acknowledged write returns its answer, though its version is old now
    record, sheet, created = games.add_hand(store, game_id, quick(0, 5, 20),
                                            expected_version=0, idempotency_key="a")
    assert not created and record["n"] == 1 and sheet["version"] == 1
    assert games.undo_last(store, game_id, expected_version=1)[1]["version"] == 2


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


def test_undo_and_correct_are_new_log_entries(store):
    game_id, _ = new_game(store)
    games.add_hand(store, game_id, quick(0, 5, 20))           # Ana 15
    games.add_hand(store, game_id, quick(1, 2, 10))           # Ben 8
    undone, sheet, _ = games.undo_last(store, game_id)
    assert undone["n"] == 2 and undone["points"] == 8
    assert sheet["totals"] == [15, 0] and len(sheet["hands"]) == 1
    hand, sheet, _ = games.correct_hand(store, game_id, 1, quick(0, 5, 30))
    assert hand["corrected"] and hand["points"] == 25 and sheet["totals"] == [25, 0]
    games.add_hand(store, game_id, quick(1, 0, 10))
    assert [e["kind"] for e in store.log(game_id)] == ["quick", "quick", "undo", "correct",
                                                        "quick"]
    sheet = games.load_sheet(store, game_id)
    assert [h["seq"] for h in sheet["hands"]] == [4, 5]
    assert sheet["totals"] == [25, 35] and sheet["version"] == 5


def test_undo_on_an_empty_sheet_and_correcting_a_missing_hand(store):
    game_id, _ = new_game(store)
    with pytest.raises(Conflict) as error:
        games.undo_last(store, game_id)
    assert error.value.code == "nothing_to_undo"
    with pytest.raises(NotFound) as error:
        games.correct_hand(store, game_id, 1, quick(0, 5, 20))
    assert error.value.field == "n"
    assert store.log(game_id) == []


def test_corrections_recompute_the_end_of_the_game(store):
    game_id, _ = new_game(store, rules={"target": 50})
    games.add_hand(store, game_id, quick(0, 5, 20))           # Ana 15
    games.add_hand(store, game_id, quick(0, 5, 25))           # Ana 35
    _, sheet, _ = games.add_hand(store, game_id, quick(0, 0, 0))   # Ana 60: over
    assert sheet["over"]
    _, sheet, _ = games.correct_hand(store, game_id, 3, quick(0, 5, 6))  # Ana 36: open again
    assert not sheet["over"] and sheet["status"] == "active"
    with pytest.raises(Conflict, match="undo the later hands") as error:
        games.correct_hand(store, game_id, 1, quick(0, 0, 40))  # over after hand 1
    assert error.value.code == "game_over"
    assert games.load_sheet(store, game_id)["totals"] == [36, 0]
    games.undo_last(store, game_id)
    _, sheet, _ = games.add_hand(store, game_id, quick(0, 0, 30))
    assert sheet["over"] and sheet["result"]["winner"] == 0


def test_export_and_import_round_trip(store):
    game_id, _ = new_game(store, rules="oklahoma", stake=0.25)
    games.add_hand(store, game_id, quick(0, 3, 20, upcard="5s"))
    games.add_hand(store, game_id, {"kind": "void"})
    games.add_hand(store, game_id, {"kind": "cards", "knocker": 1, "upcard": "Kd",
                                    "knocker_cards": "As 2s 3s 7c 7d 7h 9d Td Jd 2c",
                                    "defender_cards": "4s 5s 6s 8c 8d 8h Kd Qd Jh Th"})
    games.undo_last(store, game_id)
    record = games.export_game(store, game_id)
    assert record["format"] == "scorekeeper.game" and len(record["hands"]) == 2
    sheet, token = games.import_game(store, record)
    original = games.load_sheet(store, game_id)
    assert sheet["id"] != game_id and token
    assert sheet["totals"] == original["totals"] == [34, 0]
    assert sheet["rules"] == original["rules"] and sheet["stake"] == 0.25


def test_import_refuses_a_bad_hand_naming_it(store):
    record = {"players": ["Ana", "Ben"], "hands": [quick(0, 5, 20), quick(0, 15, 20)]}
    with pytest.raises(RuleError) as error:
        games.import_game(store, record)
    assert error.value.field == "hands.1.knocker_deadwood"
    assert str(error.value).startswith("hand 2:")
    assert store.db.conn.execute("SELECT count(*) FROM games").fetchone()[0] == 0


def test_import_an_engine_match_record(store):
    match = simulate_match(2)
    sheet, _ = games.import_game(store, match)
    assert len(sheet["hands"]) == len(match["deals"])
    assert all(hand["kind"] == "record" for hand in sheet["hands"])
    assert sheet["over"] and sheet["status"] == "over"


def test_player_stats(store):
    game_id, _ = new_game(store, rules={"target": 60})
    games.add_hand(store, game_id, quick(0, 0, 30))           # Ana gin 55
    games.add_hand(store, game_id, quick(0, 9, 2))            # Ben undercuts: 32
    games.add_hand(store, game_id, {"kind": "void"})
    games.add_hand(store, game_id, quick(0, 2, 9))            # Ana 7: 62, over
    other, _ = new_game(store, players=["ana", "Cy"])
    games.add_hand(store, other, quick(1, 4, 10))             # Cy 6
    stats = player_stats(store, "ANA")
    assert stats["name"] == "Ana"
    assert (stats["games"], stats["finished"], stats["wins"], stats["losses"]) == (2, 1, 1, 0)
    assert (stats["hands"], stats["hands_won"], stats["gins"]) == (4, 2, 1)
    assert stats["undercuts"] == 0 and stats["points"] == 62 and stats["average_hand"] == 31
    assert stats["head_to_head"] == [
        {"opponent": "Ben", "games": 1, "wins": 1, "losses": 0, "hands_won": 2, "hands_lost": 1},
        {"opponent": "Cy", "games": 1, "wins": 0, "losses": 0, "hands_won": 0, "hands_lost": 1}]
    ben = player_stats(store, "Ben")
    assert (ben["undercuts"], ben["losses"], ben["average_hand"]) == (1, 1, 32)
    with pytest.raises(NotFound):
        player_stats(store, "Zed")


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
