"""What is PostgreSQL's own: its schema and migrations, choosing it by URL, forks, backups.

The behaviour both backends share (games, hands, refusals, concurrency,
crashes) is tested on both by the store, API, concurrency and crash tests;
these run against the session's real PostgreSQL server (conftest).
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
import unicodedata

import psycopg
import pytest
import requests
from click.testing import CliRunner
from conftest import query
from pg import bin_dir
from serve_kit import spawn, stop

from scorekeeper.cli import main
from scorekeeper.rules import Rules
from scorekeeper.store import games, open_store
from scorekeeper.store.postgres import PostgresStore
from scorekeeper.store.postgres_migrations import SCHEMA_VERSION
from scorekeeper.store.refusals import NotFound, StorageError, StorageUnavailable
from scorekeeper.store.sqlite import Storage


@pytest.fixture
def address(postgres) -> str:
    return postgres.new_database()


@pytest.fixture
def connect(address):
    """``open_store(address)``, each store closed after the test."""
    opened = []

    def connect_() -> PostgresStore:
        opened.append(open_store(address))
        return opened[-1]

    yield connect_
    for store in opened:
        store.close()


def test_open_store_chooses_the_backend_by_the_address(address, tmp_path):
    for url in (address, address.replace("postgresql://", "postgres://", 1)):
        store = open_store(url)
        assert isinstance(store, PostgresStore)
        store.close()
    assert isinstance(open_store(tmp_path / "file.db"), Storage)
    assert isinstance(open_store(str(tmp_path / "postgresql.db")), Storage)


def test_schema_version_table_constraints_and_the_append_only_log(address, connect):
    store = connect()
    assert store.schema_version() == SCHEMA_VERSION
    assert query(address, "SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
    tables = {
        row[0]
        for row in query(
            address,
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema()",
        )
    }
    assert tables == {
        "schema_version",
        "players",
        "games",
        "game_players",
        "hands",
        "edit_rights",
        "handovers",
        "director_rights",
        "director_links",
        "card_generations",
        "sheet_hands",
        "api_keys",
        "key_games",
        "retired_tokens",
        "events",
        "event_rounds",
        "event_matches",
        "event_match_ends",
        "player_words",
        "rating_state",
        "ratings",
        "rating_steps",
        "seasons",
        "game_results",
        "event_roster",
        "player_games",
        "hand_pairs",
        "player_totals",
        "rival_totals",
        "rating_changes",
    }
    with pytest.raises(psycopg.errors.ForeignKeyViolation):
        query(
            address,
            "INSERT INTO hands (game_id, seq, kind, payload, result, created)"
            " VALUES ('nope', 1, 'void', '{}', '{}', 'now')",
        )
    sheet, _ = games.create_game(store, ["Ana", "Ben"])
    games.add_hand(store, sheet.id, {"kind": "void"})
    with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
        query(address, "TRUNCATE hands CASCADE")
    assert query(address, "SELECT imported FROM games") == [(False,)]
    with pytest.raises(psycopg.errors.UniqueViolation):
        query(address, "INSERT INTO players (name, name_key, created) VALUES ('ANA', 'ana', 'now')")
    assert connect().schema_version() == SCHEMA_VERSION  # reopening migrates nothing
    assert len(store.log(sheet.id)) == 1


def test_servers_starting_together_migrate_once(address, connect):
    opened, errors = [], []

    def start():
        try:
            opened.append(connect().schema_version())
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and opened == [SCHEMA_VERSION] * 4
    assert query(address, "SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]


def test_a_newer_database_is_refused(address, connect):
    connect()
    query(address, "UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(StorageError, match="schema version"):
        connect()


def test_players_are_found_by_their_name_key(address, connect):
    store = connect()
    composed = unicodedata.normalize("NFC", "Zoë")
    decomposed = unicodedata.normalize("NFD", "Zoë")
    games.create_game(store, [composed, "Ben"])
    games.create_game(store, ["BEN", decomposed])
    assert store.player(" zoË ").name == composed
    assert store.player(decomposed).id == store.player(composed).id
    assert query(address, "SELECT name, name_key FROM players ORDER BY name_key") == [
        ("Ben", "ben"),
        (composed, "zoë"),
    ]  # one row per player, as first written
    assert len(store.games_of("ben")) == 2
    with pytest.raises(NotFound):
        store.player("Zed")


def test_an_imported_game_is_marked(address, connect):
    store = connect()
    game = store.create_game(
        game_id="g1",
        players=["Ana", "Ben"],
        rules=Rules.preset(),
        dealer=0,
        stake=None,
        token_hash="0" * 64,
        imported=True,
        entries=[("void", {"kind": "void"}, {"points": 0})],
    )
    assert game.imported and store.game("g1").imported
    assert [e.seq for e in store.log("g1")] == [1]


def test_a_forked_process_opens_its_own_pool(address, connect):
    store = connect()
    sheet, _ = games.create_game(store, ["Ana", "Ben"])
    games.add_hand(store, sheet.id, {"kind": "void"})  # the parent's pool is open now
    child = os.fork()
    if child == 0:  # the child writes through a pool of its own, then leaves at once
        try:
            games.add_hand(store, sheet.id, {"kind": "void"}, idempotency_key="child")
            store.close()
        finally:
            os._exit(0 if len(store.log(sheet.id)) == 2 else 1)
    assert os.waitpid(child, 0)[1] == 0
    games.add_hand(store, sheet.id, {"kind": "void"})  # the parent's pool still works
    assert [e.idempotency_key for e in store.log(sheet.id)] == [None, "child", None]


def test_connections_cut_by_the_server_cost_no_failed_request(address, connect):
    store = connect()
    sheet, _ = games.create_game(store, ["Ana", "Ben"])
    cut = query(
        address,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?",
        (f"scorekeeper-{os.getpid()}",),
    )
    assert cut and all(done for (done,) in cut)  # as when the database server restarts
    assert games.add_hand(store, sheet.id, {"kind": "void"})[1].version == 1


def test_the_wsgi_entry_point_reads_the_url_from_scorekeeper_db(address):
    process, url = spawn(address, wsgi=True, workers=1)
    try:
        created = requests.post(
            f"{url}/api/v1/games", json={"dealer": 0, "players": ["Ana", "Ben"]}, timeout=10
        )
        assert created.status_code == 201
    finally:
        assert stop(process) == 0
    assert query(address, "SELECT id FROM games") == [(created.json()["id"],)]


@pytest.mark.parametrize("command", [["backup", "copy.db"], ["restore", "copy.db"]])
def test_backup_and_restore_refuse_postgresql_and_point_to_pg_dump(address, tmp_path, command):
    (tmp_path / "copy.db").write_bytes(b"")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        result = CliRunner().invoke(main, [*command, "--db", address])
    assert result.exit_code == 1
    assert "pg_dump" in result.output and "pg_restore" in result.output
    assert not (tmp_path / "copy.db").read_bytes()


def test_pg_dump_and_pg_restore_as_the_readme_says(postgres, address, connect, tmp_path):
    store = connect()
    sheet, token = games.create_game(store, ["Ana", "Ben"], rules={"target": 50})
    games.add_hand(store, sheet.id, {"kind": "void"}, idempotency_key="k")
    games.add_hand(
        store,
        sheet.id,
        {"kind": "quick", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 20},
    )
    dump = tmp_path / "games.dump"
    schema = address.rsplit("%3D", 1)[1]  # this test's schema: the dump holds it alone
    subprocess.run(
        [
            os.path.join(bin_dir(), "pg_dump"),
            "--format=custom",
            f"--file={dump}",
            f"--schema={schema}",
            postgres.url(),
        ],
        check=True,
    )
    query(postgres.url(), "CREATE DATABASE restored")
    restored_url = postgres.url(schema).replace("/postgres?", "/restored?")
    subprocess.run(
        [
            os.path.join(bin_dir(), "pg_restore"),
            "--exit-on-error",
            f"--dbname={restored_url.split('?')[0]}",
            str(dump),
        ],
        check=True,
    )
    restored = open_store(restored_url)
    try:
        assert games.load_sheet(restored, sheet.id) == games.load_sheet(store, sheet.id)
        assert restored.log(sheet.id) == store.log(sheet.id)
        assert games.token_matches(restored.game(sheet.id), token)
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            query(restored_url, "DELETE FROM hands")  # the trigger came back too
        _, again, created = games.add_hand(
            restored, sheet.id, {"kind": "void"}, idempotency_key="k"
        )
        # idempotency keys too: the repeat gets its first answer (the sheet at entry 1)
        assert not created and again.version == 1
    finally:
        restored.close()


def test_migration_4_counts_versions_and_the_next_write_scores_an_old_game(address, connect):
    """A schema-3 database (as migration 3 left it) gets each game's version from its log
    and no scored state; the next write scores the log once and answers as from scratch."""
    store = connect()
    sheet, _ = games.create_game(store, ["Ana", "Ben"])
    for knocker in (0, 1, 1):
        games.add_hand(
            store,
            sheet.id,
            {"kind": "quick", "knocker": knocker, "knocker_deadwood": 2, "defender_deadwood": 20},
        )
    query(
        address,
        "DROP TABLE game_results, seasons, rating_steps, ratings, rating_state, event_roster,"
        " player_words, director_rights, director_links, card_generations,"
        " event_match_ends, event_matches, event_rounds, events, sheet_hands,"
        " retired_tokens, key_games, api_keys, player_games, hand_pairs, player_totals,"
        " rival_totals, rating_changes",
    )
    query(address, "DROP FUNCTION count_rating_change CASCADE")  # and its triggers
    query(address, "DROP INDEX games_created, games_updated")
    query(address, "DROP TRIGGER games_result ON games")
    query(address, "DROP FUNCTION keep_game_result")
    query(
        address,
        "ALTER TABLE games DROP COLUMN version, DROP COLUMN scored, DROP COLUMN follows,"
        " DROP COLUMN cut, DROP COLUMN finished, DROP COLUMN won_by",
    )
    query(address, "UPDATE schema_version SET version = 3")
    store.close()
    store = connect()
    assert store.schema_version() == SCHEMA_VERSION
    game = store.game(sheet.id)
    assert (game.version, game.scored) == (3, None)
    _, after, _ = games.correct_hand(store, sheet.id, 2, {"kind": "void"})
    assert after == games.load_sheet(store, sheet.id) and after.version == 4
    assert query(address, "SELECT count(*) FROM sheet_hands") == [(3,)]


def test_the_busy_timeout_bounds_the_wait_for_a_pooled_connection(postgres):
    """The configured busy timeout reaches the pool, not only the lock waits: with a
    database that takes no connections for a while, a request is refused (unavailable) after
    the store's ``busy_timeout`` when that is shorter than the connect timeout (1.5 s), not
    the pool's own 30 s, and heals after."""
    address = postgres.database_of_its_own()
    name = address.rsplit("/", 1)[1]
    store = open_store(address, busy_timeout=0.5)
    game_id = games.create_game(store, ["Ana", "Ben"])[0].id
    query(postgres.url(), f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
    try:
        store.close()  # the next request needs a new connection
        start = time.monotonic()
        with pytest.raises(StorageUnavailable) as error:
            store.game(game_id)
        waited = time.monotonic() - start
        assert 0.4 < waited < 1.4, waited
        assert error.value.code == "unavailable" and "cannot be reached" in str(error.value)
    finally:
        query(postgres.url(), f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        store.close()
    assert store.log(game_id) == []
    store.close()


def test_the_stores_connections_plan_without_jit_or_parallel_workers(connect):
    """The store's statements read a page or a few rows: its connections neither compile
    plans (JIT) nor start parallel workers, whatever the server's defaults."""
    store = connect()
    with store._read() as conn:
        settings = [
            conn.execute(f"SHOW {name}").fetchone()[0]
            for name in ("jit", "max_parallel_workers_per_gather")
        ]
    assert settings == ["off", "0"]


def test_a_searchs_walk_probes_a_players_words_and_a_games_key_by_index(connect, address):
    """The indexes a search's walk reads for each game it meets: a player's words in the
    search's range, and the key of a game, from the index alone."""
    connect()
    found = query(
        address,
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()"
        " AND indexname IN ('player_words_player', 'key_games_game_key') ORDER BY indexname",
    )
    assert [(name, definition.split(" USING ")[1]) for name, definition in found] == [
        ("key_games_game_key", "btree (game_id, key_id)"),
        ("player_words_player", "btree (player_id, word)"),
    ]
