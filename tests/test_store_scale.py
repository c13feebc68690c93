"""Lists and records at any size: the indexes and tables the migration makes (both
backends), an upgrade that fills them from what was stored, records read from the kept
hands equal to records scored from the logs, and SQLite's plan of every list and record
query (an index walked in the page's order, no sort of the store's games)."""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from datetime import date, datetime

import psycopg
import pytest
from store_kit import PARTNERSHIP, THREE_PLAYERS, quick, schema_file

from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import access, games, listing, sqlite, sqlite_migrations
from scorekeeper.store import postgres as pg_store
from scorekeeper.store import postgres_migrations as pg_migrations
from scorekeeper.store.stats import player_stats

NEW_TABLES = {"player_games", "hand_pairs"}
NEW_INDEXES = {"key_games_created", "games_updated", "games_created"}

NAMES = ["Ana", "Ben", "Cy", "Dan", "Eva"]


def _play(store, rng, count=8):
    """Games of two, three and four of :data:`NAMES` with hands, undos and corrections; one
    made by an API key, one imported. Their ids."""
    key = store.add_api_key("club", games.hash_token("sk_test-club"))
    made = []
    for number in range(count):
        seats = 2 + number % 3
        players = rng.sample(NAMES, seats)
        owner = key.id if number == 1 else None
        sheet, _ = games.create_game(store, players, {"target": 60}, owner=owner)
        made.append(sheet.id)
        for _ in range(rng.randrange(2, 9)):
            _write(store, rng, sheet.id, seats)
    record = {"players": ["Ana", "Ben"], "hands": [quick(0, 0, 30)], "rules": {"target": 60}}
    made.append(games.import_game(store, record)[0].id)
    return made


def _write(store, rng, game_id, seats):
    """A random hand, undo or correction (refused ones leave the game as it was)."""
    hand = (THREE_PLAYERS if seats == 3 else PARTNERSHIP if seats == 4 else None) or [
        quick(rng.randrange(2), rng.randrange(11), rng.randrange(40))
    ]
    try:
        roll, count = rng.random(), store.game(game_id).scored.count
        if roll < 0.15:
            games.write_undo(store, game_id)
        elif roll < 0.3 and count:
            games.write_correction(store, game_id, rng.randrange(1, count + 1), rng.choice(hand))
        else:
            games.write_hand(store, game_id, rng.choice(hand))
    except ScorekeeperError:
        pass


def _records(store):
    return {name: player_stats(store, name).to_dict() for name in NAMES}


def _lists(store):
    """Every page of each list of the games, by id."""
    key = access.find_key(store, "sk_test-club")
    found = {}
    for label, filters in [
        ("all", {}),
        ("player", {"player": "ana"}),
        ("over", {"status": "over"}),
        ("words", {"q": "cy"}),
    ]:
        pages, cursor = [], None
        while True:
            page, cursor = access.server_games(store, limit=2, cursor=cursor, **filters)
            pages.append([game.id for game in page])
            if cursor is None:
                break
        found[label] = pages
        found[f"key {label}"] = [g.id for g in access.list_games(store, key.id, **filters)[0]]
    return found


def test_the_migration_makes_the_tables_and_indexes(store, backend):
    if backend.name == "sqlite":
        rows = store.db.conn.execute("SELECT name FROM sqlite_master")
    else:
        with psycopg.connect(backend.address) as conn:
            rows = conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                " UNION SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
            ).fetchall()
    names = {row[0] for row in rows}
    assert names >= NEW_TABLES | NEW_INDEXES


def test_a_record_from_the_kept_hands_is_the_record_scored_from_the_logs(store, backend):
    _play(store, random.Random(7), count=12)
    kept = _records(store)
    assert sum(record["hands"] for record in kept.values()) > 20  # something was counted
    # what a game stored before the scored state looks like: no kept summary nor hands
    statements = ["UPDATE games SET scored = NULL", "DELETE FROM hand_pairs"]
    if backend.name == "sqlite":
        for statement in statements:
            store.db.conn.execute(statement)
    else:
        with psycopg.connect(backend.address) as conn:
            for statement in statements:
                conn.execute(statement)
    assert _records(store) == kept


def _previous(migrations, mine):
    """The schema version before the migration ``mine``."""
    return migrations.index(mine)


def _copy_sqlite(source, target):
    """The rows of ``source``'s tables into ``target``'s (an older schema: its columns)."""
    with closing(sqlite3.connect(target)) as conn:
        conn.execute("ATTACH ? AS new", (str(source),))
        tables = conn.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'")
        for (table,) in tables.fetchall():
            columns = ", ".join(row[1] for row in conn.execute(f"PRAGMA main.table_info({table})"))
            conn.execute(f"INSERT INTO main.{table} ({columns}) SELECT {columns} FROM new.{table}")
        conn.commit()


@pytest.mark.one_backend
def test_an_upgraded_sqlite_file_lists_and_counts_what_it_held(tmp_path):
    current = sqlite.Storage(tmp_path / "now.db", durable=False)
    _play(current, random.Random(11))
    records, lists = _records(current), _lists(current)
    current.close()
    version = _previous(sqlite_migrations.MIGRATIONS, sqlite_migrations._migrate_13)
    old = schema_file(tmp_path / "old.db", version)
    _copy_sqlite(tmp_path / "now.db", old)
    upgraded = sqlite.Storage(old, durable=False)
    try:
        assert upgraded.schema_version() == sqlite_migrations.SCHEMA_VERSION
        assert _records(upgraded) == records
        assert _lists(upgraded) == lists
        stats = upgraded.db.conn.execute("SELECT count(*) FROM sqlite_stat1").fetchone()[0]
        assert stats > 0  # the migration ran ANALYZE
    finally:
        upgraded.close()


ORDER = ["players", "games", "game_players", "hands", "sheet_hands", "api_keys", "key_games"]
"""Tables copied first, parents before children (PostgreSQL checks each row's keys)."""


def test_an_upgraded_postgresql_database_lists_and_counts_what_it_held(postgres):
    now_address = postgres.new_database()
    current = pg_store.PostgresStore(now_address)
    _play(current, random.Random(11))
    records, lists = _records(current), _lists(current)
    current.close()
    old_address = postgres.new_database()
    version = _previous(pg_migrations.MIGRATIONS, pg_migrations._migrate_12)
    with psycopg.connect(old_address, autocommit=True) as conn:
        conn.execute("CREATE TABLE schema_version (version integer NOT NULL)")
        for migration in pg_migrations.MIGRATIONS[:version]:
            migration(conn)
        conn.execute("INSERT INTO schema_version VALUES (%s)", (version,))
        old_schema = conn.execute("SELECT current_schema()").fetchone()[0]
        new_schema = now_address.rsplit("%3D", 1)[1]
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
        ]
        for table in sorted(tables, key=lambda t: ORDER.index(t) if t in ORDER else 99):
            if table == "schema_version":
                continue
            columns = ", ".join(
                r[0]
                for r in conn.execute(
                    "SELECT column_name FROM information_schema.columns"
                    " WHERE table_schema = %s AND table_name = %s",
                    (old_schema, table),
                )
            )
            conn.execute(
                f"INSERT INTO {old_schema}.{table} ({columns}) OVERRIDING SYSTEM VALUE"
                f" SELECT {columns} FROM {new_schema}.{table}"
            )
    upgraded = pg_store.PostgresStore(old_address)
    try:
        assert upgraded.schema_version() == pg_migrations.SCHEMA_VERSION
        assert _records(upgraded) == records
        assert _lists(upgraded) == lists
    finally:
        upgraded.close()


def _plans(conn, statements):
    """Each traced SELECT's plan steps (``EXPLAIN QUERY PLAN``), with the statement."""
    found = []
    for statement in statements:
        if statement.lstrip().upper().startswith("SELECT"):
            steps = [row[-1] for row in conn.execute(f"EXPLAIN QUERY PLAN {statement}")]
            found.append((statement, steps))
    return found


def _walks_an_index(statement, steps):
    """No table read whole, and no sort of more than a narrow filter's games."""
    subqueries = {f"SCAN {step.split()[1]}" for step in steps if step.startswith("CO-ROUTINE")}
    for step in steps:  # a subquery's rows (a count's: at most listing.FEW) may be scanned
        read_whole = step.startswith("SCAN") and "INDEX" not in step
        assert not read_whole or step in subqueries, (statement, steps)
    if any("TEMP B-TREE FOR ORDER BY" in step for step in steps):
        # a narrow filter's games (fewer than listing.FEW, read first) named by id, in order
        named = (" AND g.id IN ('", " AND g.id IN (NULL)")
        assert any(ids in statement for ids in named), (statement, steps)


@pytest.mark.one_backend
def test_every_list_and_record_query_walks_an_index(store):
    _play(store, random.Random(3))
    key = access.find_key(store, "sk_test-club")
    conn = store.db.conn
    traced = []
    conn.set_trace_callback(traced.append)
    after = access.encode_cursor(store.all_games(limit=1)[0])
    for filters in [
        {},
        {"player": "Ana"},
        {"player": "Ana", "status": "over", "q": "be"},
        {"status": "active"},
        {"q": "ana"},
        {"since": datetime(2020, 1, 1)},
        {"created_from": date(2020, 1, 1), "created_to": date(2100, 1, 1)},
        {"cursor": after},
    ]:
        access.server_games(store, **filters)
        access.list_games(store, key.id, **filters)
    player_stats(store, "Ana")
    conn.set_trace_callback(None)
    plans = _plans(conn, traced)
    assert len(plans) > 16
    for statement, steps in plans:
        _walks_an_index(statement, steps)
        if "FROM player_games pg" in statement:  # a player's games: their index, in order
            index = "PRIMARY KEY (player_id=?)", "player_games_key (player_id=? AND key_id=?)"
            assert steps[0].startswith("SEARCH pg USING") and steps[0].endswith(index), steps
    listed = [s for s, _ in plans if "ORDER BY" in s and "FROM player_games pg" in s]
    assert len(listed) == 4  # two filters: every game and the key's (a record: its totals)


@pytest.mark.one_backend
def test_a_narrow_filter_of_many_games_is_checked_on_the_walk(store):
    _play(store, random.Random(5))
    conn = store.db.conn

    def run(statement, params):
        return conn.execute(statement, params)

    traced = []
    for filters in ({"words": ["ana"]}, {"since": "2020-01-01T00:00:00.000Z"}):
        for key_id in (None, 1):
            sorted_page = listing.page(run, key_id, filters, None, 3)
            conn.set_trace_callback(traced.append)
            walked = listing.page(run, key_id, filters, None, 3, few=0)
            conn.set_trace_callback(None)
            assert walked == sorted_page
    walks = [(s, steps) for s, steps in _plans(conn, traced) if "ORDER BY" in s]
    assert len(walks) == 4
    for statement, steps in walks:
        assert not any("TEMP B-TREE" in step for step in steps), (statement, steps)
        _walks_an_index(statement, steps)


@pytest.mark.one_backend
def test_a_narrow_filters_few_games_are_searched_for_once(store):
    """A search by part of a name with fewer than ``listing.FEW`` games reads them once
    (an API key's: the key's range of each player's games), then reads the page by their
    ids."""
    _play(store, random.Random(3))
    key = access.find_key(store, "sk_test-club")
    traced = []
    store.db.conn.set_trace_callback(traced.append)
    mine = access.list_games(store, key.id, q="ana")[0]
    every = access.server_games(store, q="ana")[0]
    store.db.conn.set_trace_callback(None)
    assert mine and len(every) > len(mine)
    searched = [s for s in traced if "FROM player_games s" in s]
    assert len(searched) == 2, searched  # one a page
    assert sum("AND s.key_id = " in s for s in searched) == 1
    assert not any("FROM key_games o WHERE o.game_id" in s for s in traced)


def _analyzed(address: str) -> dict[str, bool]:
    """Each table of the address's schema: whether it has statistics (``reltuples`` is -1
    on a table never analyzed)."""
    with psycopg.connect(address) as conn:
        rows = conn.execute(
            "SELECT relname, reltuples >= 0 FROM pg_class"
            " WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r'"
        )
        return dict(rows.fetchall())


def test_a_migration_analyzes_its_own_schema_and_no_other(postgres):
    """A bare ANALYZE in the migration read every schema of the database (one store's
    tables each, in the suite) and held a lock on each table until it committed: a
    database of many schemas ran out of shared memory."""
    bystander = postgres.new_database()
    with psycopg.connect(bystander, autocommit=True) as conn:
        conn.execute("CREATE TABLE neighbour (n integer)")
        conn.execute("INSERT INTO neighbour SELECT generate_series(1, 10)")  # no autoanalyze
    address = postgres.new_database()
    pg_store.PostgresStore(address).close()
    assert _analyzed(bystander) == {"neighbour": False}
    own = _analyzed(address)
    assert "games" in own and all(own.values()), own
