"""Each player's record kept as running totals (scorekeeper/store/totals.py): equal to the
record counted game by game after every hand, undo and correction (both backends); a
first meeting taken back moves the head-to-head line to the next one; games sharing
players written side by side (threads) keep them right; a record reads only its
totals; the migration fills them from the games stored, and a game older than the
scored state is counted game by game until its next write."""

from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor
from itertools import permutations

import psycopg
import pytest
from store_kit import PARTNERSHIP, THREE_PLAYERS, VOID, quick

from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import (
    games,
    open_store,
    sql_totals,
    sqlite,
    sqlite_migrations,
    tallies,
    totals,
)
from scorekeeper.store import postgres_migrations as pg_migrations
from scorekeeper.store.stats import head_to_head, player_stats, recount

NAMES = ["Ana", "Ben", "Cy", "Dan", "Eva"]


def _same_as_counted(store, names=NAMES):
    """Every record (and each head-to-head line read alone) is the one counted game by
    game, read from the totals; the records."""
    found = {}
    for name in names:
        assert store.kept_record(name) is not None  # read from the totals
        kept, counted = player_stats(store, name), recount(store, name)
        assert kept == counted, name
        found[name] = kept
        for other in names:
            lines = [r for r in counted.head_to_head if r.opponent.casefold() == other.casefold()]
            line = lines[0] if lines else None
            assert head_to_head(store, name, other.upper()) == (counted.name, line)
    return found


def _write(store, rng, game_id, seats):
    """A random hand, undo or correction; what was done (``None``: refused, nothing)."""
    hands = THREE_PLAYERS if seats == 3 else PARTNERSHIP if seats == 4 else None
    hand = rng.choice(hands or [quick(rng.randrange(2), rng.randrange(11), rng.randrange(40))])
    count = store.game(game_id).scored.count
    roll = rng.random()
    try:
        if roll < 0.2:
            games.write_undo(store, game_id)
            return "undo"
        if roll < 0.4 and count:
            games.write_correction(store, game_id, rng.randrange(1, count + 1), hand)
            return "correction"
        games.write_hand(store, game_id, hand)
        return "hand"
    except ScorekeeperError:
        return None


def test_the_totals_equal_the_record_counted_game_by_game_after_every_write(store):
    rng = random.Random(5)
    done = []
    made = []
    for number in range(9):
        seats = 2 + number % 3
        players = [*rng.sample(NAMES[1:], seats - 1), "Ana"]
        made.append((games.create_game(store, players, {"target": 30})[0].id, seats))
        _same_as_counted(store, {"Ana", *players})
    for _ in range(70):
        game_id, seats = rng.choice(made)
        done.append(_write(store, rng, game_id, seats))
        _same_as_counted(store)
    games.import_game(store, {"players": ["Ana", "Ben"], "hands": [quick(0, 0, 30)]})
    records = _same_as_counted(store)
    assert {"undo", "correction", "hand"} <= set(done)
    assert records["Ana"].imported_games == 1
    assert sum(r.hands for r in records.values()) > 20  # something was counted
    assert any(r.wins for r in records.values())


def test_a_first_meeting_taken_back_moves_the_line_to_the_next_meeting(store):
    first, _ = games.create_game(store, ["Ana", "Ben", "Cy"])  # Ana deals, sits out
    games.write_hand(store, first.id, THREE_PLAYERS[0])  # Ben and Cy meet
    second, _ = games.create_game(store, ["Ben", "Dan"])
    third, _ = games.create_game(store, ["BEN", "Cy"])

    def lines(name):
        return [(r.opponent, r.games) for r in player_stats(store, name).head_to_head]

    def met(*lines):
        """The lines by where they first met, ``(game, line)``: games made within one
        millisecond go in the order of their ids."""
        return [line for _, line in sorted(lines, key=lambda m: (m[0].created, m[0].id))]

    assert lines("Ben") == met((first, ("Cy", 2)), (second, ("Dan", 1)))
    assert lines("Cy") == [("Ben", 2)]
    games.write_undo(store, first.id)
    _same_as_counted(store, ["Ana", "Ben", "Cy", "Dan"])
    assert lines("Ben") == met((second, ("Dan", 1)), (third, ("Cy", 1)))
    assert lines("Cy") == [("BEN", 1)]  # the name as written where they now first met
    assert lines("Ana") == []
    games.write_hand(store, first.id, THREE_PLAYERS[0])
    games.write_correction(store, first.id, 1, VOID)  # a void hand is a meeting too
    _same_as_counted(store, ["Ana", "Ben", "Cy", "Dan"])
    assert lines("Ben") == met((first, ("Cy", 2)), (second, ("Dan", 1)))
    assert player_stats(store, "Ben").hands == 0


PAIRS = "SELECT game_id, n, seat_a, seat_b, void, winner, outcome, points FROM hand_pairs"


def test_a_write_adds_up_its_hand_pairs_as_sql_adds_up_the_stored_ones(store):
    """A write adds up the hand pairs it puts (``tallies.pair_sums``) instead of reading them
    back: the sums SQL makes of the same stored pairs (``totals.SELECT_GROUPS``), for two,
    three and four players, void hands, gins and undercuts, from any hand on."""
    two = [quick(0, 5, 25), quick(1, 0, 10), VOID, quick(0, 9, 4), quick(1, 3, 40)]
    for players, hands in ((NAMES[:2], two), (NAMES[:3], THREE_PLAYERS), (NAMES[:4], PARTNERSHIP)):
        game_id = games.create_game(store, players, {"target": 1000})[0].id
        for hand in hands:
            games.write_hand(store, game_id, hand)
        for start in (1, 3):
            with store._read() as conn:
                pairs = store._run(conn, f"{PAIRS} WHERE game_id = ? AND n >= ?", [game_id, start])
                summed = store._run(conn, totals.SELECT_GROUPS.format("?"), [game_id, start])
                put, read = pairs.fetchall(), summed.fetchall()
            assert len(put) >= len(hands) - start  # a deal is two pairs, a void deal none
            assert sorted(tallies.pair_sums(put)) == sorted([r[0], *map(int, r[1:])] for r in read)


@pytest.mark.one_backend
def test_the_lines_a_write_moves_are_read_a_batch_at_a_time(store):
    """The head-to-head lines a write moves are read in statements of at most
    ``MOVED_AT_ONCE`` lines: each stored line found as read alone, a key without one absent."""
    for players in (["Ana", "Ben"], ["Ana", "Cy"]):
        games.create_game(store, players)
    conn = store.db.conn
    stored = {tuple(row[:2]): tuple(row[2:]) for row in conn.execute(sql_totals.SELECT_MOVED + "1")}
    assert len(stored) == 4
    absent = [(999, f"nobody {n}") for n in range(2 * sql_totals.MOVED_AT_ONCE + 1)]
    keys = [*absent[:250], *stored, *absent[250:]]
    traced: list[str] = []
    conn.set_trace_callback(traced.append)
    found = sql_totals._lines(conn.execute, keys)
    conn.set_trace_callback(None)
    assert {key: tuple(row) for key, row in found.items()} == stored
    assert len(traced) == 3  # 405 keys, 200 at a time


@pytest.mark.one_backend
def test_a_record_and_a_head_to_head_read_only_the_totals(store):
    for players in permutations(NAMES[:3], 2):
        sheet, _ = games.create_game(store, list(players))
        games.write_hand(store, sheet.id, quick(0, 0, 30))
    traced = []
    store.db.conn.set_trace_callback(traced.append)
    player_stats(store, "Ana")
    head_to_head(store, "Ana", "Ben")
    store.db.conn.set_trace_callback(None)
    tables = {t for s in traced for t in re.findall(r"(?:FROM|JOIN) (\w+)", s)}
    assert tables == {"players", "player_totals", "rival_totals"}, traced


def _forget_the_totals(store, backend, legacy_game):
    """The database as it was before the totals' migration, ``legacy_game`` stored before
    the scored state was kept (no summary, no sheet rows); the store opened on it again."""
    statements = [
        f"UPDATE games SET scored = NULL, won_by = NULL WHERE id = '{legacy_game}'",
        f"DELETE FROM hand_pairs WHERE game_id = '{legacy_game}'",
        f"DELETE FROM sheet_hands WHERE game_id = '{legacy_game}'",
        "DROP TABLE rival_totals",
        "DROP TABLE player_totals",
    ]
    later = [
        "DROP TABLE rating_changes",
        "ALTER TABLE rating_state DROP COLUMN changes",
        "DROP INDEX player_games_key",
        "ALTER TABLE player_games DROP COLUMN key_id",
        "DROP INDEX rating_steps_line",
    ]
    if backend.name == "sqlite":  # and the migrations after it taken back
        version = sqlite_migrations.MIGRATIONS.index(sqlite_migrations._migrate_totals)
        triggers = "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%rated%'"
        dropped = [f"DROP TRIGGER {name}" for (name,) in store.db.conn.execute(triggers)]
        for statement in [*statements, *dropped, *later, f"PRAGMA user_version = {version}"]:
            store.db.conn.execute(statement)
        return sqlite.Storage(backend.address, durable=False)
    version = pg_migrations.MIGRATIONS.index(pg_migrations._migrate_totals)
    later = [
        "DROP FUNCTION count_rating_change CASCADE",  # and its triggers
        *later,
        "DROP INDEX player_words_player, key_games_game_key",
    ]
    with psycopg.connect(backend.address) as conn:
        for statement in [*statements, *later, f"UPDATE schema_version SET version = {version}"]:
            conn.execute(statement)
    return open_store(backend.address)


def test_the_migration_fills_the_totals_and_an_older_game_is_counted_until_written(store, backend):
    rng = random.Random(9)
    made = []
    for number in range(6):
        seats = 2 + number % 3
        sheet, _ = games.create_game(store, rng.sample(NAMES, seats), {"target": 60})
        made.append((sheet.id, seats))
        for _ in range(5):
            _write(store, rng, sheet.id, seats)
    records = _same_as_counted(store)
    old_id, seats = made[0]
    old_players = {p.casefold() for p in store.game(old_id).players}
    upgraded = _forget_the_totals(store, backend, old_id)
    try:
        for name in NAMES:  # a player of the older game: counted game by game
            assert (upgraded.kept_record(name) is None) == (name.casefold() in old_players)
            assert player_stats(upgraded, name) == recount(upgraded, name)
        others = [n for n in NAMES if n.casefold() not in old_players]
        assert {n: player_stats(upgraded, n) for n in others} == {n: records[n] for n in others}
        games.write_hand(upgraded, old_id, quick(0, 0, 30) if seats == 2 else THREE_PLAYERS[1])
        _same_as_counted(upgraded)
    finally:
        upgraded.close()


def test_games_sharing_players_written_side_by_side_keep_the_totals(store):
    seated = [["Ana", "Ben"], ["Ben", "Ana"], ["Ana", "Cy", "Ben"], ["Cy", "Ben"]]
    made = [(games.create_game(store, players)[0].id, len(players)) for players in seated]

    def play(number):
        rng = random.Random(number)
        game_id, seats = made[number]
        return [_write(store, rng, game_id, seats) for _ in range(12)]

    with ThreadPoolExecutor(len(made)) as pool:
        done = [kind for kinds in pool.map(play, range(len(made))) for kind in kinds]
    assert done.count("hand") > 10
    _same_as_counted(store, ["Ana", "Ben", "Cy"])
