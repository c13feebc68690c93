"""A search by part of a name on an API key's list reads the key's games of the players it
finds (the index ``player_games_key``), not each of their games to ask whose key made it:
on SQLite and PostgreSQL the rows it reads are the same for a player with 20 games and
with 200, none of them the key's."""

from __future__ import annotations

import json
import re
from contextlib import closing

import psycopg

from scorekeeper.store import access, games, listing
from scorekeeper.store.postgres_migrations import analyze_own_tables

SEARCH = {"words": ["zora"]}


def test_a_search_on_a_keys_list_reads_the_keys_games_of_its_players(store, backend):
    key = access.find_key(store, access.create_key(store, "club")).id
    owned = [games.create_game(store, ["Zora Owned", "Ana"], owner=key)[0].id for _ in range(3)]
    for n in range(20):
        games.create_game(store, ["Ana", f"Bor {n}"], owner=key)
    for n in range(20):
        games.create_game(store, ["Zora Many", f"Cy {n}"])
    few = searched(store, backend, key)
    for n in range(180):
        games.create_game(store, ["Zora Many", f"Dan {n}"])
    many = searched(store, backend, key)
    assert sorted(row[0] for row in few[0]) == sorted(owned) == sorted(r[0] for r in many[0])
    # 180 more of her games, not one row read for each (before: 179 more on PostgreSQL,
    # 1,800 more steps on SQLite; now none or two)
    assert many[1] - few[1] < 20, (few[1], many[1])


def searched(store, backend, key: int) -> tuple[list, int]:
    """The key's page of :data:`SEARCH` read by :func:`listing.page` (the store's own
    statements) and the rows they read: SQLite's virtual machine steps, PostgreSQL's rows
    read by its plans' scans (``EXPLAIN ANALYZE``, with index scans preferred, as on a
    big store)."""
    if backend.name == "sqlite":
        return _sqlite(store.db.conn, key)
    with closing(psycopg.connect(backend.address)) as conn:
        conn.execute("SET enable_seqscan = off")
        analyze_own_tables(conn)  # a bare ANALYZE would read every test's schema
        ran: list[tuple[str, list]] = []

        def run(statement, params):
            statement = statement.replace("?", "%s")
            ran.append((statement, list(params)))
            return conn.execute(statement, params)

        page = listing.page(run, key, SEARCH, None, 25)
        return page, sum(_rows_read(conn, statement, params) for statement, params in ran)


def _sqlite(conn, key: int) -> tuple[list, int]:
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    conn.set_progress_handler(count, 1)
    try:
        page = listing.page(conn.execute, key, SEARCH, None, 25)
    finally:
        conn.set_progress_handler(None, 1)
    return page, steps[0]


def _rows_read(conn, statement: str, params: list) -> int:
    """The rows the scans of ``statement``'s plan read (kept or filtered out)."""
    plan = conn.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {statement}", params).fetchone()[0]
    text = plan if isinstance(plan, str) else json.dumps(plan)
    total = 0
    for node in _nodes(json.loads(text)[0]["Plan"]):
        if "Relation Name" in node or re.search("Scan", node["Node Type"]):
            kept = node["Actual Rows"] + node.get("Rows Removed by Filter", 0)
            total += kept * node["Actual Loops"]
    return total


def _nodes(node: dict):
    yield node
    for child in node.get("Plans", []):
        yield from _nodes(child)
