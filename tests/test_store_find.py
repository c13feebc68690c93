"""Finding players by any part of a name, near names, and games by part of a name, status
and day (issue 27, scorekeeper.store.finding and access), on each backend."""

from __future__ import annotations

from datetime import date
from functools import partial

import psycopg
import pytest
from store_kit import quick, schema_file

from scorekeeper.errors import InvalidValueError
from scorekeeper.store import access, finding, games, listing, sqlite, sqlite_migrations
from scorekeeper.store import postgres as pg_store
from scorekeeper.store import postgres_migrations as pg_migrations
from scorekeeper.store.finding import find_players, near_names

NAMES = ["Zora Novak", "Žofia Łęcka", "Anastasia", "Jean-Luc Picard", "Ana", "Øystein Ås"]


def _seat_all(store):
    """One game for each name against Bor, in order: their ids."""
    return [games.create_game(store, [name, "Bor"])[0].id for name in NAMES]


def test_a_player_is_found_by_the_start_of_any_word_case_and_accents_aside(store):
    _seat_all(store)
    for typed in ("Zora", "zora", "Novak", "NOV", "novák zo", "  zora   novak "):
        assert find_players(store, typed, 10) == ["Zora Novak"], typed
    assert find_players(store, "ovak", 10) == []  # not the start of a word
    assert find_players(store, "zora x", 10) == []  # every word must begin one
    assert set(find_players(store, "zo", 10)) == {"Zora Novak", "Žofia Łęcka"}
    assert find_players(store, "lecka", 10) == ["Žofia Łęcka"]  # ł without its stroke
    assert find_players(store, "oystein as", 10) == ["Øystein Ås"]
    assert find_players(store, "luc", 10) == ["Jean-Luc Picard"]  # a hyphen parts words
    assert find_players(store, "ana", 10) == ["Ana", "Anastasia"]
    assert find_players(store, "ana", 1) == ["Ana"]
    assert find_players(store, "   ", 10) == []


def test_a_name_first_written_otherwise_is_found_by_its_first_writing(store):
    games.create_game(store, ["emile zola", "Bor"])
    games.create_game(store, ["ÉMILE ZOLA", "Cy"])  # another player: the key keeps the accent
    games.create_game(store, ["Emile Zola", "Cy"])  # the first one again
    assert set(find_players(store, "Emile", 10)) == {"emile zola", "ÉMILE ZOLA"}


def test_names_near_a_search_that_found_nobody_are_suggested(store):
    _seat_all(store)
    assert near_names(store, "Zorra") == ["Zora Novak"]
    assert near_names(store, "Nowak") == ["Zora Novak"]
    assert near_names(store, "zora nowak") == ["Zora Novak"]
    assert near_names(store, "Picrad") == ["Jean-Luc Picard"]
    assert near_names(store, "Qwxyz") == []
    assert near_names(store, "") == []


def test_the_games_page_finds_games_by_part_of_a_name_status_and_day(store, backend):
    ids = _seat_all(store)
    games.add_hand(store, ids[0], quick(0, 0, 90))  # Zora Novak's game is over
    later = games.create_game(store, ["Bor", "zora novak"])[0].id
    for day, game_id in enumerate([*ids, later], 1):  # each on its own day of May 2025
        day = f"2025-05-0{day}T12:00:00.000Z"
        backend.sql("UPDATE games SET created = ? WHERE id = ?", (day, game_id))

    def found(**filters):
        return [g.id for g in access.server_games(store, **filters)[0]]

    assert found(q="zora") == [later, ids[0]]
    assert found(q="ZO") == [later, ids[1], ids[0]]
    assert found(q="bor") == [later, *reversed(ids)]  # the other seat counts too
    assert found(q="ovak") == []
    assert found(q="zora", status="over") == [ids[0]]
    assert found(q="zora", status="active") == [later]
    assert found(created_from=date(2025, 5, 2), created_to=date(2025, 5, 3)) == ids[2:0:-1]
    assert found(created_from=date(2025, 5, 6)) == [later, ids[5]]
    assert found(created_to=date(2025, 5, 1)) == [ids[0]]
    # a day in a time zone east of UTC starts before that day's UTC midnight
    assert found(created_from=date(2025, 5, 2), created_to=date(2025, 5, 2), utc_offset=-780) == [
        ids[2]
    ]
    assert found(player="Zora Novak") == [later, ids[0]]  # the exact name, as before
    with pytest.raises(InvalidValueError) as error:
        found(created_from=date(2025, 5, 2), created_to=date(2025, 5, 1))
    assert error.value.field == "to"


def test_a_keys_games_are_found_by_part_of_a_name_and_day(store):
    mine = access.find_key(store, access.create_key(store, "mine")).id
    zora, _ = games.create_game(store, ["Zora Novak", "Bor"], owner=mine)
    games.create_game(store, ["Zora Novak", "Cy"])  # not the key's
    ana, _ = games.create_game(store, ["Ana", "Bor"], owner=mine)
    assert [g.id for g in access.list_games(store, mine, q="nov")[0]] == [zora.id]
    # two games made in the same instant are ordered by their random ids: compare as a set
    assert {g.id for g in access.list_games(store, mine, q="b")[0]} == {ana.id, zora.id}
    today = date.fromisoformat(zora.created[:10])
    assert len(access.list_games(store, mine, created_from=today, created_to=today)[0]) == 2
    assert access.list_games(store, mine, created_to=date(2000, 1, 1)) == ([], None)


def _stored_before(insert):
    """Two players written as the schema before ``player_words`` wrote them."""
    insert(
        "INSERT INTO players (name, name_key, created) VALUES"
        " ('Zora Novak', 'zora novak', '2024-01-01'), ('Žofia', 'žofia', '2024-01-01')"
    )


def _finds_them(store):
    assert set(find_players(store, "ZO", 10)) == {"Zora Novak", "Žofia"}
    assert find_players(store, "zof", 10) == ["Žofia"]
    assert find_players(store, "novak", 10) == ["Zora Novak"]


@pytest.mark.one_backend
def test_migration_12_finds_the_players_stored_before_it(tmp_path):
    path = schema_file(tmp_path / "v11.db", 11)
    with sqlite.sqlite3.connect(path) as conn:
        _stored_before(conn.execute)
    store = sqlite.Storage(path, durable=False)
    try:
        assert store.schema_version() == sqlite_migrations.SCHEMA_VERSION
        _finds_them(store)
    finally:
        store.close()


def test_postgresql_migration_11_finds_the_players_stored_before_it(postgres):
    address = postgres.new_database()
    with psycopg.connect(address, autocommit=True) as conn:
        conn.execute("CREATE TABLE schema_version (version integer NOT NULL)")
        for migration in pg_migrations.MIGRATIONS[:10]:
            migration(conn)
        conn.execute("INSERT INTO schema_version VALUES (10)")
        _stored_before(conn.execute)
    store = pg_store.PostgresStore(address)
    try:
        assert store.schema_version() == pg_migrations.SCHEMA_VERSION
        _finds_them(store)
    finally:
        store.close()


@pytest.mark.one_backend
def test_a_search_reads_the_word_index_not_every_player_or_game(store):
    _seat_all(store)
    found, params = finding.matching(["zo", "no"])
    statement = f" AND g.id IN ({finding.MATCHING_GAMES.format(found)})"
    plan = store.db.conn.execute(
        f"EXPLAIN QUERY PLAN SELECT g.id FROM games g WHERE 1 = 1{statement}"
        " ORDER BY g.created DESC, g.id DESC LIMIT 5",
        params,
    ).fetchall()
    steps = [row[-1] for row in plan]
    words = [step for step in steps if "player_words" in step]
    assert len(words) == 2 and all(step.startswith("SEARCH") for step in words), steps
    assert not any(step.startswith("SCAN") and "player" in step for step in steps), steps


def _has_player(game, typed):
    """Whether a player of ``game`` has a word beginning with each word of ``typed``."""
    wanted = finding.terms(typed)
    return any(
        all(any(word.startswith(w) for word in finding.terms(name)) for w in wanted)
        for name in game.players
    )


def _every_page(read, **filters):
    """Every game of every page of ``read(limit=7, cursor=..., **filters)``, in order."""
    found, cursor = [], None
    while True:
        page, cursor = read(limit=7, cursor=cursor, **filters)
        found += page
        if cursor is None:
            return found


def test_a_search_finds_the_same_games_whether_its_players_are_named_by_id_or_not(store):
    """A page names the players a search found by id when there are at most
    ``listing.LISTED`` of them, else finds them again by the word index: the same games
    either way, newest first, of every game and of an API key."""
    mine = access.find_key(store, access.create_key(store, "mine")).id
    many = listing.LISTED + 1
    for n in range(many):
        games.create_game(store, [f"Nov{n} Ana", "Bor"], owner=mine if n % 3 else None)
    games.create_game(store, ["Ana Nov", "Cy"], owner=mine)
    every, keys = partial(access.server_games, store), partial(access.list_games, store, mine)
    newest = _every_page(every)
    owned = {g.id for g in _every_page(keys)}
    for typed, players in (("nov", many + 1), ("nov5 ana", 11), ("nov17", 1), ("cy", 1)):
        assert len(find_players(store, typed, many + 1)) == players, typed
        kept = [g.id for g in newest if _has_player(g, typed)]
        assert [g.id for g in _every_page(every, q=typed)] == kept, typed
        mine_kept = [i for i in kept if i in owned]
        assert [g.id for g in _every_page(keys, q=typed)] == mine_kept, typed
