"""API keys, a key's games and edit token rotation (scorekeeper.store.access), on each backend.

Written against the :class:`~scorekeeper.store.protocol.Store` methods and the
access service only, so every backend runs the same checks.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from store_kit import quick, schema_file

from scorekeeper.errors import InvalidValueError, RuleError
from scorekeeper.store import access, games, sqlite, sqlite_migrations
from scorekeeper.store.refusals import KeyReused, NameTaken


def test_a_key_is_shown_once_and_stored_only_hashed(store, backend):
    key = access.create_key(store, "club-site")
    assert key.startswith(access.KEY_PREFIX) and len(key) > 40
    [(name, key_hash)] = backend.sql("SELECT name, key_hash FROM api_keys")
    assert name == "club-site" and key_hash == games.hash_token(key) and key not in key_hash
    found = access.find_key(store, key)
    assert found is not None and found.name == "club-site"
    assert access.find_key(store, key + "x") is None
    assert access.find_key(store, key[len(access.KEY_PREFIX) :]) is None


def test_key_names_are_checked_unique_while_in_use_and_free_again_once_revoked(store):
    with pytest.raises(InvalidValueError) as error:
        access.create_key(store, "club site")
    assert error.value.field == "name"
    first = access.create_key(store, "league")
    with pytest.raises(NameTaken):
        access.create_key(store, "league")
    assert access.create_key(store, "other")
    assert access.find_key(store, first) is not None
    assert store.revoke_api_key("league") and not store.revoke_api_key("league")
    assert access.find_key(store, first) is None  # a revoked key opens nothing
    second = access.create_key(store, "league")
    assert access.find_key(store, second).name == "league"
    listed = [(k.name, k.revoked is None) for k in store.api_keys()]
    assert listed == [("league", False), ("other", True), ("league", True)]


def _owned(store, owner, players=("Ana", "Ben"), **options):
    sheet, token = games.create_game(store, list(players), owner=owner, **options)
    time.sleep(0.002)  # distinct creation times
    return sheet.id, token


def test_a_key_lists_only_its_own_games_newest_first_page_by_page(store):
    mine = access.find_key(store, access.create_key(store, "mine")).id

    theirs = access.find_key(store, access.create_key(store, "theirs")).id

    ids = [_owned(store, mine, (f"P{i}", "Q"))[0] for i in range(5)]
    _owned(store, theirs)
    games.create_game(store, ["Cy", "Dee"])  # no key's
    pages, cursor = [], None
    while True:
        page, cursor = access.list_games(store, mine, limit=2, cursor=cursor)
        pages.append([g.id for g in page])
        if cursor is None:
            break
    assert pages == [ids[4:2:-1], ids[2:0:-1], ids[:1]]
    assert [k.games for k in store.api_keys()] == [5, 1]
    assert access.list_games(store, mine, limit=100)[1] is None


def test_a_page_does_not_shift_when_games_arrive_meanwhile(store):
    mine = access.find_key(store, access.create_key(store, "mine")).id

    ids = [_owned(store, mine, (f"P{i}", "Q"))[0] for i in range(3)]
    first, cursor = access.list_games(store, mine, limit=2)
    _owned(store, mine, ("New", "Q"))
    rest, last = access.list_games(store, mine, limit=2, cursor=cursor)
    assert [g.id for g in first + rest] == ids[::-1] and last is None


def test_filters_player_by_name_key_status_and_since(store):
    mine = access.find_key(store, access.create_key(store, "mine")).id

    emile, _ = _owned(store, mine, ("Émile", "Ben"))
    over, _ = _owned(store, mine, ("Ana", "Ben"), rules={"target": 10})
    games.add_hand(store, over, quick(0, 0, 20))
    time.sleep(0.002)  # times are kept to the millisecond: middle is after over's change
    middle = datetime.now(UTC)
    time.sleep(0.002)
    late, _ = _owned(store, mine, ("Ana", "Cy"))

    def ids(**filters):
        return [g.id for g in access.list_games(store, mine, **filters)[0]]

    assert ids(player="  E\u0301MILE ") == [emile]  # decomposed, other case, spaces
    assert ids(player="Ana") == [late, over] and ids(player="Nobody") == []
    assert ids(status="over") == [over] and ids(status="active") == [late, emile]
    assert ids(since=middle) == [late]
    assert ids(since=middle - timedelta(hours=1), player="Ben", status="active") == [emile]
    naive = middle.astimezone(UTC).replace(tzinfo=None)
    assert ids(since=naive) == [late]  # no offset: UTC
    with pytest.raises(RuleError) as error:
        ids(player="\x00")
    assert error.value.field == "player"


@pytest.mark.parametrize("cursor", ["x", "bm90IGpzb24", "WzFd", "!!!"])
def test_a_cursor_this_server_never_gave_is_refused_naming_it(store, cursor):
    with pytest.raises(InvalidValueError) as error:
        access.list_games(store, 1, cursor=cursor)
    assert error.value.field == "cursor"


@pytest.mark.parametrize("limit", [0, 101])
def test_a_page_limit_out_of_range_is_refused(store, limit):
    with pytest.raises(InvalidValueError) as error:
        access.list_games(store, 1, limit=limit)
    assert error.value.field == "limit"


def test_a_summary_has_the_totals_and_the_hands(store):
    mine = access.find_key(store, access.create_key(store, "mine")).id

    game_id, _ = _owned(store, mine)
    games.add_hand(store, game_id, quick(0, 3, 12))
    [game], _ = access.list_games(store, mine)
    summary = access.game_summary(game)
    assert list(summary) == ["id", "players", "status", "created", "updated", "hands", "totals"]
    assert summary["players"] == ["Ana", "Ben"] and summary["hands"] == 1
    assert summary["totals"] == games.load_sheet(store, game_id).to_dict()["totals"] == [9, 0]


def test_rotation_replaces_the_token_and_remembers_the_old_one(store):
    game_id, token = _owned(store, None)
    fresh = access.rotate_token(store, game_id, token)
    assert fresh is not None and fresh != token
    game = store.game(game_id)
    assert games.token_matches(game, fresh) and not games.token_matches(game, token)
    assert store.token_retired(game_id, games.hash_token(token))
    assert not store.token_retired(game_id, games.hash_token(fresh))
    assert access.rotate_token(store, game_id, token) is None  # already replaced
    assert games.token_matches(store.game(game_id), fresh)


def test_a_repeated_keyed_create_after_a_rotation_answers_as_the_first(store):
    options = {"idempotency_key": "k1", "secret": "s"}
    sheet, token = games.create_game(store, ["Ana", "Ben"], **options)
    access.rotate_token(store, sheet.id, token)
    again, replayed = games.create_game(store, ["Ana", "Ben"], **options)
    assert (again.id, replayed) == (sheet.id, token)


def test_an_idempotency_key_finds_only_the_game_of_the_same_api_key(store):
    mine = access.find_key(store, access.create_key(store, "mine")).id

    theirs = access.find_key(store, access.create_key(store, "theirs")).id

    options = {"idempotency_key": "k1", "secret": "s"}
    sheet, token = games.create_game(store, ["Ana", "Ben"], owner=mine, **options)
    assert games.create_game(store, ["Ana", "Ben"], owner=mine, **options)[1] == token
    for other in (theirs, None):
        with pytest.raises(KeyReused):
            games.create_game(store, ["Ana", "Ben"], owner=other, **options)
    imported, _ = games.import_game(
        store, games.export_game(store, sheet.id).to_dict(), owner=theirs
    )
    assert [g.id for g in access.list_games(store, theirs)[0]] == [imported.id]


def test_migration_7_takes_a_schema_6_file_to_the_key_tables(tmp_path):
    path = schema_file(tmp_path / "v6.db", 6)
    store = sqlite.Storage(path, durable=False)
    sheet, token = games.create_game(store, ["Ana", "Ben"])
    store.close()
    store = sqlite.Storage(path, durable=False)
    assert store.schema_version() == sqlite_migrations.SCHEMA_VERSION
    assert store.api_keys() == [] and games.token_matches(store.game(sheet.id), token)
    mine = access.find_key(store, access.create_key(store, "mine")).id

    assert access.list_games(store, mine) == ([], None)


def test_every_game_on_the_server_newest_first_page_by_page_and_by_player(store):
    mine = access.find_key(store, access.create_key(store, "mine")).id
    ids = [_owned(store, None, (f"P{i}", "Quinn"))[0] for i in range(4)]
    keyed, _ = _owned(store, mine, ("Émile", "Quinn"))
    pages, cursor = [], None
    while True:
        page, cursor = access.server_games(store, limit=2, cursor=cursor)
        pages.append([g.id for g in page])
        if cursor is None:
            break
    assert pages == [[keyed, ids[3]], ids[2:0:-1], ids[:1]]  # a key's games are games too
    found, last = access.server_games(store, player=" e\u0301mile ")
    assert [g.id for g in found] == [keyed] and last is None
    assert access.server_games(store, player="Nobody") == ([], None)
    with pytest.raises(InvalidValueError, match="cursor"):
        access.server_games(store, cursor="not-a-cursor")


def test_the_roster_is_every_known_name_as_first_written_by_name(store):
    games.create_game(store, ["zoë", "Ana"])
    games.create_game(store, ["ANA", "Ben"])  # Ana again: her name as first written stays
    assert store.player_names(10) == ["Ana", "Ben", "zoë"]
    assert store.player_names(2) == ["Ana", "Ben"]
