"""The stores themselves: schema, migrations, durability and refusals.

Tests taking ``store`` or ``backend`` run on both backends (conftest); those
marked ``one_backend`` and those opening a file by hand are about the SQLite
file itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading

import pytest
import sqlite_utils
from conftest import DB_ERRORS, query
from store_kit import new_game, quick

from scorekeeper.hands import evaluate_hand
from scorekeeper.rules import Rules
from scorekeeper.store import games, open_store
from scorekeeper.store.refusals import StorageBusy, StorageError, StorageFull, StorageUnavailable
from scorekeeper.store.sqlite import Storage
from scorekeeper.store.sqlite_migrations import MIGRATIONS, SCHEMA_VERSION
from scorekeeper.store.stats import player_stats, recount


def test_schema_wal_and_foreign_keys(tmp_path):
    path = tmp_path / "fresh.db"
    store = Storage(path)
    assert store.schema_version() == SCHEMA_VERSION
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"players", "games", "game_players", "hands"} <= tables
    assert store.db.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert store.db.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    with pytest.raises(sqlite3.IntegrityError):
        store.db.conn.execute(
            "INSERT INTO hands (game_id, seq, kind, payload, result, created)"
            " VALUES ('nope', 1, 'void', '{}', '{}', 'now')"
        )
    assert Storage(path).schema_version() == SCHEMA_VERSION  # reopening migrates nothing


def test_a_file_of_the_first_schema_is_migrated_and_keeps_its_games(tmp_path):
    path = tmp_path / "old.db"
    db = sqlite_utils.Database(path)
    MIGRATIONS[0](db)
    db.execute("PRAGMA user_version = 1")
    db.execute(
        "INSERT INTO games (id, players, rules, dealer, stake, created, updated, status,"
        " token_hash) VALUES ('old-game-000001', '[\"Ana\",\"Ben\"]', ?, 0, NULL,"
        " 'then', 'then', 'active', ?)",
        [json.dumps(Rules.preset("standard").to_dict()), games.hash_token("t")],
    )
    db.conn.commit()
    db.conn.close()
    store = Storage(path)
    assert store.schema_version() == SCHEMA_VERSION
    columns = {row[1] for row in store.db.conn.execute("PRAGMA table_info(games)")}
    assert {"idempotency_key", "request_hash"} <= columns
    assert games.load_sheet(store, "old-game-000001").players == ("Ana", "Ben")
    first = games.create_game(store, ["Cy", "Di"], idempotency_key="k", secret="s")
    assert games.create_game(store, ["Cy", "Di"], idempotency_key="k", secret="s") == first


def test_a_newer_file_is_refused(tmp_path):
    path = tmp_path / "future.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StorageError, match="schema version"):
        Storage(path)


def test_the_default_file_is_in_the_working_folder_whatever_the_environment(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SCOREKEEPER_DB", str(tmp_path / "env.db"))  # the app's setting only
    assert Storage().path == "scorekeeper.db"
    assert (tmp_path / "scorekeeper.db").exists() and not (tmp_path / "env.db").exists()


def test_the_log_is_append_only(store, backend):
    game_id, _ = new_game(store)
    games.add_hand(store, game_id, quick(0, 5, 20))
    for statement in ("UPDATE hands SET kind = 'void'", "DELETE FROM hands"):
        with pytest.raises(DB_ERRORS, match="append-only"):
            backend.sql(statement)
    assert len(store.log(game_id)) == 1


def test_a_full_disk_rolls_the_write_back(store, backend):
    """See ``Backend.little_room`` for how each backend's disk fills up."""
    game_id, _ = new_game(store)
    stored = 0
    with backend.little_room(store):
        with pytest.raises(StorageFull) as error:
            for i in range(500):
                games.add_hand(store, game_id, {"kind": "void"}, idempotency_key=f"{i:0>150}")
                stored += 1
        assert error.value.code == "storage_full" and "nothing was written" in str(error.value)
        assert stored > 0 and backend.intact(store)
        assert [e.seq for e in store.log(game_id)] == list(range(1, stored + 1))
    # space again: writing goes on
    assert games.add_hand(store, game_id, {"kind": "void"})[1].version == stored + 1


def test_a_writer_kept_waiting_too_long_is_refused_and_writes_nothing(store, backend):
    game_id, _ = new_game(store)
    backend.shorten_wait(store)  # 50 ms instead of BUSY_TIMEOUT's 30 s
    with backend.writer_holding(game_id), pytest.raises(StorageBusy) as error:
        games.add_hand(store, game_id, {"kind": "void"})
    assert error.value.code == "busy" and "nothing was written" in str(error.value)
    assert store.log(game_id) == []
    assert games.add_hand(store, game_id, {"kind": "void"})[1].version == 1


def test_a_database_that_cannot_be_written_just_now_is_unavailable(backend, request):
    """One refusal with one code on both backends: while the database is read-only
    (SQLite: ``PRAGMA query_only`` on the store's connection; PostgreSQL: the database's
    ``default_transaction_read_only``, as on a standby), a write is refused with
    :class:`StorageUnavailable`, code ``unavailable``, and writes nothing; then it heals."""
    if backend.name == "sqlite":
        address = backend.address
    else:
        server = request.getfixturevalue("postgres")
        address = server.database_of_its_own()
        name = address.rsplit("/", 1)[1]
    store = open_store(address)
    try:
        game_id, _ = new_game(store)
        if backend.name == "sqlite":
            store.db.conn.execute("PRAGMA query_only = ON")  # the refusal closes it
        else:
            query(server.url(), f"ALTER DATABASE {name} SET default_transaction_read_only = on")
            store.close()  # sessions start afresh: read-only
        with pytest.raises(StorageUnavailable) as error:
            games.add_hand(store, game_id, {"kind": "void"})
        assert error.value.code == "unavailable" and "nothing was written" in str(error.value)
        if backend.name == "postgresql":
            query(server.url(), f"ALTER DATABASE {name} RESET default_transaction_read_only")
            store.close()
        assert store.log(game_id) == []
        assert games.add_hand(store, game_id, {"kind": "void"})[1].version == 1
    finally:
        store.close()


def test_concurrent_writers_lose_nothing(store, backend):
    game_id, _ = new_game(store, rules={"target": 10_000})
    errors = []

    def writer(knocker):
        store = open_store(backend.address)
        try:
            for i in range(15):
                games.add_hand(
                    store, game_id, quick(knocker, 5, 6), idempotency_key=f"{knocker}-{i}"
                )
                games.add_hand(
                    store, game_id, quick(knocker, 5, 6), idempotency_key=f"{knocker}-{i}"
                )  # a retry
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            store.close()

    threads = [threading.Thread(target=writer, args=(k,)) for k in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    sheet = games.load_sheet(store, game_id)
    assert len(sheet.hands) == 30 and sheet.totals == (15, 15)
    assert [h.seq for h in sheet.hands] == list(range(1, 31))


@pytest.mark.one_backend
def test_unit_test_stores_do_not_sync_and_others_do(store, tmp_path):
    assert store.db.conn.execute("PRAGMA synchronous").fetchone()[0] == 0  # OFF
    assert (
        Storage(tmp_path / "durable.db").db.conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    )  # FULL, the default


@pytest.mark.one_backend
def test_players_have_a_unique_name_key(store):
    new_game(store, players=["E\u0301mile ", "Ben"])
    new_game(store, players=["\u00c9MILE", "ben"])
    rows = store.db.conn.execute("SELECT name, name_key FROM players ORDER BY id").fetchall()
    assert rows == [("\u00c9mile", "\u00e9mile"), ("Ben", "ben")]
    for values in (("Other", "ben"), ("Other", None)):
        with pytest.raises(sqlite3.IntegrityError):
            store.db.conn.execute(
                "INSERT INTO players (name, name_key, created) VALUES (?, ?, 'now')", values
            )


def _schema_1_file(path):
    """A store file as the schema-1 code left it: migration 1 only, user_version 1."""
    db = sqlite_utils.Database(path)
    MIGRATIONS[0](db)
    db.execute("PRAGMA user_version = 1")
    db.conn.commit()
    return db


def test_migration_2_keys_players_and_merges_the_names_that_fold_together(tmp_path):
    path = tmp_path / "v1.db"
    db = _schema_1_file(path)
    rules = Rules.from_dict(None).to_dict()
    void = evaluate_hand({"kind": "void"}, rules, players=["A", "B"], dealer=0).to_dict()
    players = [  # id, name, created: the NOCASE index of schema 1 let all of these in
        (1, "Ana", "2024-01-01T00:00:00.000Z"),
        (2, "E\u0301mile", "2024-01-02T00:00:00.000Z"),  # decomposed: the oldest Émile
        (3, "\u00e9mile", "2024-01-03T00:00:00.000Z"),  # precomposed, lower case
        (4, "Straße", "2024-01-05T00:00:00.000Z"),
        (5, "STRASSE", "2024-01-04T00:00:00.000Z"),  # older than Straße, higher id
    ]
    db.conn.executemany("INSERT INTO players (id, name, created) VALUES (?, ?, ?)", players)
    games_ = [  # id, seat 0, seat 1, hand time (== created: written with the game, imported)
        ("game-emile-nfd", 2, 1, "2024-02-01T10:00:00.000Z"),
        ("game-emile-nfc", 3, 1, "2024-02-02T10:05:00.000Z"),
        ("game-strasse-1", 4, 1, "2024-02-03T10:05:00.000Z"),
        ("game-strasse-2", 5, 1, "2024-02-04T10:00:00.000Z"),
    ]
    names = {p[0]: p[1] for p in players}
    for n, (game_id, first, second, hand_time) in enumerate(games_):
        created = f"2024-02-0{n + 1}T10:00:00.000Z"
        db.conn.execute(
            "INSERT INTO games (id, players, rules, dealer, stake, created, updated, status,"
            " token_hash) VALUES (?, ?, ?, 0, NULL, ?, ?, 'active', 'x')",
            (
                game_id,
                json.dumps([names[first], names[second]]),
                json.dumps(rules),
                created,
                created,
            ),
        )
        db.conn.executemany(
            "INSERT INTO game_players (game_id, seat, player_id) VALUES (?, ?, ?)",
            [(game_id, 0, first), (game_id, 1, second)],
        )
        db.conn.execute(
            "INSERT INTO hands (game_id, seq, kind, payload, result, created)"
            " VALUES (?, 1, 'void', ?, ?, ?)",
            (game_id, json.dumps({"kind": "void"}), json.dumps(void), hand_time),
        )
    db.conn.commit()
    db.conn.close()

    store = Storage(path, durable=False)
    conn = store.db.conn
    assert store.schema_version() == SCHEMA_VERSION
    assert conn.execute("SELECT id, name, name_key FROM players ORDER BY id").fetchall() == [
        (1, "Ana", "ana"),
        (2, "E\u0301mile", "\u00e9mile"),
        (5, "STRASSE", "strasse"),
    ]
    seats = conn.execute(
        "SELECT game_id, seat, player_id FROM game_players ORDER BY game_id, seat"
    ).fetchall()
    assert seats == [
        ("game-emile-nfc", 0, 2),
        ("game-emile-nfc", 1, 1),
        ("game-emile-nfd", 0, 2),
        ("game-emile-nfd", 1, 1),
        ("game-strasse-1", 0, 5),
        ("game-strasse-1", 1, 1),
        ("game-strasse-2", 0, 5),
        ("game-strasse-2", 1, 1),
    ]
    assert conn.execute("SELECT id, imported FROM games ORDER BY id").fetchall() == [
        ("game-emile-nfc", 0),
        ("game-emile-nfd", 1),
        ("game-strasse-1", 0),
        ("game-strasse-2", 1),
    ]
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1  # on again for writes
    # the games keep their names as entered; every spelling finds the one player
    assert store.game("game-emile-nfc").players == ("\u00e9mile", "Ana")
    assert store.player("\u00c9MILE").id == store.player("e\u0301mile").id == 2
    assert [g.id for g, _ in store.games_of("straße")] == ["game-strasse-1", "game-strasse-2"]
    stats = player_stats(store, "Strasse").to_dict()
    assert (stats["name"], stats["games"], stats["imported_games"]) == ("STRASSE", 1, 1)
    assert player_stats(store, "ana").to_dict()["games"] == 2  # of 4: two were imported
    # a new game finds the merged player by key, and the merge is not run again
    sheet, _ = games.create_game(store, ["\u00c9mile", "Cy"])
    assert (
        conn.execute(
            "SELECT player_id FROM game_players WHERE game_id = ? AND seat = 0", (sheet.id,)
        ).fetchone()[0]
        == 2
    )
    assert Storage(path).schema_version() == SCHEMA_VERSION
    assert conn.execute("SELECT count(*) FROM players").fetchone()[0] == 4


def test_a_migration_that_would_break_a_foreign_key_is_rolled_back(tmp_path, monkeypatch):
    path = tmp_path / "v1.db"
    db = _schema_1_file(path)
    db.conn.execute("INSERT INTO players (id, name, created) VALUES (1, 'Ana', 'now')")
    db.conn.execute(
        "INSERT INTO games (id, players, rules, dealer, created, updated, status,"
        " token_hash) VALUES ('g', '[]', '{}', 0, 'now', 'now', 'active', 'x')"
    )
    db.conn.execute("INSERT INTO game_players VALUES ('g', 0, 1)")
    db.conn.commit()
    db.conn.close()

    def forgetful(db):  # a faulty migration 2: it drops a player who still sits in a game
        MIGRATIONS[1](db)  # (after its real work: the later migrations build on its columns)
        db.execute("DELETE FROM players")

    monkeypatch.setattr(
        "scorekeeper.store.sqlite.MIGRATIONS", (MIGRATIONS[0], forgetful, *MIGRATIONS[2:])
    )
    with pytest.raises(StorageError, match="without their parent row"):
        Storage(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert conn.execute("SELECT count(*) FROM players").fetchone()[0] == 1


def test_migration_5_counts_versions_and_the_next_write_scores_an_old_game(tmp_path):
    """A schema-4 file's games get their version from the log and no scored state; the
    next write to one scores its log once, and answers as scoring the whole log would."""
    path = tmp_path / "v4.db"
    db = sqlite_utils.Database(path)
    for migration in MIGRATIONS[:4]:
        migration(db)
    db.execute("PRAGMA user_version = 4")
    rules = Rules.from_dict(None).to_dict()
    db.execute(
        "INSERT INTO games (id, players, rules, dealer, stake, created, updated, status,"
        " token_hash) VALUES ('old', '[\"Ana\",\"Ben\"]', ?, 0, NULL, 't', 't', 'active',"
        " 'x')",
        (json.dumps(rules),),
    )
    log = [quick(0, 2, 20), quick(1, 4, 30), {"kind": "void"}]
    dealer = 0
    for seq, hand in enumerate(log, 1):
        result = evaluate_hand(hand, rules, players=["Ana", "Ben"], dealer=dealer).to_dict()
        db.execute(
            "INSERT INTO hands (game_id, seq, kind, payload, result, created)"
            " VALUES ('old', ?, ?, ?, ?, 't')",
            (seq, hand["kind"], json.dumps(hand), json.dumps(result)),
        )
        dealer = result["entry"].get("winner", dealer)
    db.conn.commit()
    db.conn.close()

    store = Storage(path, durable=False)
    assert store.schema_version() == SCHEMA_VERSION
    game = store.game("old")
    assert (game.version, game.scored) == (3, None)
    record, sheet, _ = games.undo_last(store, "old")
    assert sheet == games.load_sheet(store, "old") and record.n == 3
    assert store.game("old").scored.count == 2
    _, sheet, _ = games.add_hand(store, "old", quick(0, 1, 11))
    assert sheet == games.load_sheet(store, "old") and sheet.version == 5
    assert store.db.conn.execute("SELECT count(*) FROM sheet_hands").fetchone()[0] == 3


def test_migration_6_adds_follows_and_older_games_follow_nothing(tmp_path):
    path = tmp_path / "v5.db"
    db = sqlite_utils.Database(path)
    for migration in MIGRATIONS[:5]:
        migration(db)
    db.execute("PRAGMA user_version = 5")
    db.execute(
        "INSERT INTO games (id, players, rules, dealer, stake, created, updated, status,"
        " token_hash) VALUES ('old', '[\"Ana\",\"Ben\"]', ?, 0, NULL, 't', 't', 'active',"
        " 'x')",
        (json.dumps(Rules.from_dict(None).to_dict()),),
    )
    db.conn.commit()
    db.conn.close()
    store = Storage(path, durable=False)
    assert store.schema_version() == SCHEMA_VERSION >= 6
    assert store.game("old").follows is None
    rematch, _ = games.create_game(store, ["Ana", "Ben"], follows="old")
    assert store.game(rematch.id).follows == "old"


def _fork(child) -> int:
    """Run ``child()`` in a forked process: its exit status (0 when it returned)."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        code = 1
        try:
            child()
            code = 0
        finally:
            os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def _open_files(path) -> list[str]:
    """This process's open files that are ``path`` or its ``-wal`` and ``-shm``."""
    names = []
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(FileNotFoundError):  # listdir's own, closed meanwhile
            names.append(os.readlink(f"/proc/self/fd/{fd}"))
    return [name for name in names if name.startswith(str(path))]


def test_no_connection_crosses_a_fork(tmp_path):
    """Issue 26: SQLite's locks and WAL index are the process's; a connection carried into
    a child loses acknowledged writes or corrupts the file. Before a fork a store closes its
    idle connections; the child opens its own; both go on writing."""
    path = tmp_path / "forked.db"
    store = Storage(path)
    game_id, _ = new_game(store)
    assert _open_files(path)  # this thread's connection, open

    def child() -> None:
        assert _open_files(path) == []  # nothing of the parent's came across
        games.add_hand(store, game_id, quick(0, 0, 20))

    assert _fork(child) == 0
    games.add_hand(store, game_id, quick(1, 0, 30))
    assert [entry.seq for entry in store.log(game_id)] == [1, 2]
    assert query(path, "PRAGMA integrity_check") == [("ok",)]
    store.close()


def test_a_child_refuses_a_connection_caught_in_a_transaction_by_the_fork(tmp_path):
    path = tmp_path / "caught.db"
    store = Storage(path)
    game_id, _ = new_game(store)

    def child() -> None:
        with pytest.raises(StorageError, match="crossed a fork"):
            store.log(game_id)

    with store._snapshot():  # a read transaction under way as the process forks
        assert _fork(child) == 0
    assert len(store.log(game_id)) == 0
    store.close()


@pytest.mark.one_backend
def test_an_append_runs_only_the_statements_it_needs(store):
    """An appended hand takes the write lock with the store's own busy timeout (not read
    back first), has no sheet rows to delete past the last hand and adds up the hand pairs
    it puts for the totals (not read back); an undo still deletes its hand's rows, so an
    append after it leaves one row per hand."""
    game_id, _ = new_game(store)
    games.write_hand(store, game_id, quick(0, 5, 20))
    traced: list[str] = []
    store.db.conn.set_trace_callback(traced.append)
    games.write_hand(store, game_id, quick(0, 5, 20))
    store.db.conn.set_trace_callback(None)
    assert traced.count("PRAGMA busy_timeout = 0") == 1
    assert "PRAGMA busy_timeout" not in traced
    assert not [statement for statement in traced if statement.startswith("DELETE")]
    assert not [statement for statement in traced if "FROM hand_pairs" in statement]  # added up
    games.write_undo(store, game_id)
    games.write_hand(store, game_id, quick(1, 3, 30))
    for table in ("sheet_hands", "hand_pairs"):
        kept = store.db.conn.execute(f"SELECT n FROM {table} WHERE game_id = ?", [game_id])
        assert sorted(n for (n,) in kept) == [1, 2], table
    sheet = games.load_sheet(store, game_id)
    assert [hand.winner for hand in sheet.hands] == [0, 1] and sheet.totals == (15, 27)


@pytest.mark.one_backend
def test_a_create_runs_only_the_statements_it_needs(store):
    """A new game's row is not read back (the game is what was inserted, as it reads back:
    the answer is the sheet read later), its totals take their facts from it, read no hand
    pairs (a new game has none) and read its two head-to-head lines in one SELECT; its
    players' totals and head-to-head lines are counted all the same."""
    first, _ = new_game(store, players=["Ana", "Ben", "Cid"], dealer=2)
    games.write_hand(store, first, quick(0, 5, 20))
    traced: list[str] = []
    store.db.conn.set_trace_callback(traced.append)
    sheet, _ = games.create_game(store, ["Ben", "Dee"], "modern", 1, 3, cut=["4c", "9d"])
    store.db.conn.set_trace_callback(None)
    selects = [statement for statement in traced if statement.startswith("SELECT")]
    assert not [statement for statement in selects if " FROM games " in statement]
    assert not [statement for statement in selects if "FROM hand_pairs" in statement]
    assert len([statement for statement in selects if "FROM rival_totals" in statement]) == 1
    answer = json.dumps(sheet.to_dict())  # as the API sends it: a stake of 3 is 3.0, read back
    assert answer == json.dumps(games.load_sheet(store, sheet.id).to_dict())
    assert '"stake": 3.0' in answer and '"cut": ["4c", "9d"]' in answer
    game_id = sheet.id
    games.write_hand(store, game_id, quick(1, 3, 30))
    for name in ("Ana", "Ben", "Cid", "Dee"):
        assert player_stats(store, name) == recount(store, name), name
    assert player_stats(store, "Ben").games == 2 and player_stats(store, "Dee").games == 1
