"""Ratings: the pure fold (scorekeeper.ratings) and the store's cached fold
(scorekeeper.store.ratings) over real SQLite and PostgreSQL stores."""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing, contextmanager

import psycopg
import pytest
from store_kit import ABC, ABCD, PARTNERSHIP, THREE_PLAYERS, new_game, quick

from scorekeeper import ratings
from scorekeeper.errors import InvalidValueError
from scorekeeper.ratings import NEW, RatedGame, Skill, fold, placing, shown
from scorekeeper.store import access, event_ends, events, games, open_store
from scorekeeper.store.ratings import UNCHANGED, ladder, player_rating, recompute, refresh
from scorekeeper.store.refusals import NotFound, StorageBusy
from scorekeeper.store.sqlite import Storage


def test_two_players_the_winner_goes_up_the_loser_down():
    folded = fold([RatedGame("g1", "t1", ((1,), (2,)), (1, 2))])
    winner, loser = folded.skills[1], folded.skills[2]
    assert winner.mu > NEW.mu > loser.mu
    assert winner.sigma < NEW.sigma and winner.games == loser.games == 1
    assert winner.rating > shown(NEW.mu, NEW.sigma) == 1000
    assert [s.to_dict() for s in folded.steps] == [
        {"player": 1, "games": 1, "game_id": "g1", "finished": "t1", "rating": winner.rating},
        {"player": 2, "games": 1, "game_id": "g1", "finished": "t1", "rating": loser.rating},
    ]


def test_the_placing_of_two_three_and_four_players():
    assert placing({"winner": 1, "final": [130, 60]}, 2) == (((0,), (1,)), (2, 1))
    # a winner with the lower final (box bonuses) still ranks first
    assert placing({"winner": 0, "final": [90, 120]}, 2) == (((0,), (1,)), (1, 2))
    assert placing({"winner": None, "final": [200, 200]}, 2) == (((0,), (1,)), (1, 1))
    assert placing({"winner": 0, "final": [251, 90, 89]}, 3) == (((0,), (1,), (2,)), (1, 2, 3))
    assert placing({"winner": 2, "final": [40, 40, 200]}, 3) == (((0,), (1,), (2,)), (2, 2, 1))
    assert placing({"winner": 1, "final": [40, 275]}, 4) == (((0, 2), (1, 3)), (2, 1))


def test_three_players_in_order_and_teams_move_together():
    three = fold([RatedGame("g", "t", ((1,), (2,), (3,)), (1, 2, 3))]).skills
    assert three[1].mu > three[2].mu > three[3].mu
    tied = fold([RatedGame("g", "t", ((1,), (2,), (3,)), (1, 2, 2))]).skills
    assert tied[2] == tied[3]
    teams = fold([RatedGame("g", "t", ((1, 3), (2, 4)), (2, 1))]).skills
    assert teams[2].mu == teams[4].mu > teams[1].mu == teams[3].mu


def test_the_fold_is_deterministic_and_folds_on_from_where_it_stopped():
    rng = random.Random(7)
    played = [
        RatedGame(f"g{n}", f"t{n:03}", tuple((p,) for p in rng.sample(range(6), 2)), (1, 2))
        for n in range(60)
    ]
    whole = fold(played)
    assert fold(played) == whole
    first = fold(played[:25])
    assert fold(played[25:], first.skills).skills == whole.skills
    changed = [*played[:10], RatedGame("g10", "t010", played[10].sides, (2, 1)), *played[11:]]
    assert fold(changed).skills != whole.skills


def test_a_game_of_one_player_twice_is_left_out():
    assert fold([RatedGame("g", "t", ((1,), (1,)), (1, 2))]).steps == ()


def finished_game(store, players=("Ana", "Ben"), winner=0, **settings):
    game_id, _ = new_game(store, players=list(players), rules={"target": 50}, **settings)
    games.add_hand(store, game_id, quick(winner, 0, 40))  # gin 65: over
    return game_id


def cached(store):
    """Every cached player's (rating, games) and history, and the same from a fold from
    scratch, by player name."""
    refresh(store)
    folded = recompute(store)
    mine, fresh = {}, {}
    for row in store.ladder_rows(limit=1000, min_games=0, active_since=""):
        found, steps = store.rating_steps(row.player_id)
        mine[row.name] = (found, [(s.game_id, s.rating) for s in steps])
        skill = folded.skills[row.player_id]
        fresh[row.name] = (
            (skill.rating, skill.games),
            [(s.game_id, s.rating) for s in folded.steps if s.player == row.player_id],
        )
    assert len(fresh) == len(folded.skills)
    return mine, fresh


def test_the_store_rates_two_three_and_four_players(store):
    first = finished_game(store)
    three, _ = new_game(store, players=ABC)
    for hand in THREE_PLAYERS:
        games.add_hand(store, three, hand)
    four, _ = new_game(store, players=ABCD, dealer=1)
    for hand in PARTNERSHIP:
        games.add_hand(store, four, hand)
    new_game(store, players=["Ana", "Dan"])  # not over: not rated
    ana = player_rating(store, "ana").to_dict()
    assert ana["player"] == "Ana" and ana["games"] == 3
    assert [point["game_id"] for point in ana["history"]] == [first, three, four]
    assert ana["rating"] == ana["history"][-1]["rating"]
    mine, fresh = cached(store)
    assert mine == fresh
    assert mine["Dan"][0][1] == 1  # the partnership only


def test_a_correction_after_the_end_equals_a_full_recomputation(store):
    first = finished_game(store)
    finished_game(store, ("Ben", "Cy"))
    finished_game(store, ("Cy", "Ana"), winner=1)
    refresh(store)
    before, _ = cached(store)
    ana_before = player_rating(store, "Ana").rating
    # the first game's only hand: Ben won it, not Ana
    end = store.rating_inputs().games[0]
    games.correct_hand(store, first, 1, quick(1, 0, 40))
    # the correction keeps the game's place: it ended when it ended
    assert store.rating_inputs().games[0][:2] == end[:2] == (first, end[1])
    after, fresh = cached(store)
    assert after == fresh != before
    assert player_rating(store, "Ana").rating < ana_before
    # an undo reopens it: it leaves the ratings; the end again puts it back in its place
    games.undo_last(store, first)
    assert cached(store)[0] == cached(store)[1]
    assert player_rating(store, "Ben").games == 1
    games.add_hand(store, first, quick(0, 0, 40))
    mine, fresh = cached(store)
    assert mine == fresh and mine["Ben"][0][1] == 2


def test_new_games_and_imports_fold_on_from_the_cache(store):
    finished_game(store)
    refresh(store)
    state = store.rating_inputs().state
    finished_game(store, ("Ben", "Ana"))
    refresh(store)
    assert store.rating_inputs().state[0] == state[0] + 1
    imported = {"players": ["Cy", "Ana"], "rules": {"target": 50}, "hands": [quick(0, 0, 40)]}
    games.import_game(store, imported)
    mine, fresh = cached(store)
    assert mine == fresh and mine["Cy"][0][1] == 1


def test_the_games_of_a_bot_key_stay_out(store):
    bot = store.api_key(games.hash_token(access.create_key(store, "sim", bot=True)))
    club = store.api_key(games.hash_token(access.create_key(store, "club")))
    finished_game(store, owner=bot.id)
    kept = finished_game(store, ("Cy", "Ben"), owner=club.id)
    assert player_rating(store, "Ana").games == 0
    assert player_rating(store, "Ana").rating == 1000
    assert [p.game_id for p in player_rating(store, "Ben").history] == [kept]


def test_a_match_ended_by_time_called_is_not_rated_even_when_its_sheet_ends(store):
    night, _ = events.create_event(store, "Night", ["Ana", "Bor"], "round_robin")
    (match,) = events.pair_round(store, night.id).matches
    games.add_hand(store, match.game_id, quick(1, 2, 12))  # Bor knocks: 10 points
    event_ends.end_match(store, night.id, match.game_id)  # time called: Bor wins the match
    kept = finished_game(store, ("Ana", "Cy"))
    assert [p.game_id for p in player_rating(store, "Ana").history] == [kept]
    assert player_rating(store, "Bor").games == 0
    # the table plays on to the sheet's end, Ana winning it; the night keeps Bor's win,
    # and the ratings take no other result for it
    while store.game(match.game_id).status.value != "over":
        games.add_hand(store, match.game_id, quick(0, 0, 40))
    (line,) = events.event_body(store, store.event(night.id)).rounds[0].matches
    assert (line.winner, line.ended_by_director) == ("Bor", True)
    assert [p.game_id for p in player_rating(store, "Ana").history] == [kept]
    assert player_rating(store, "Bor").games == 0
    mine, fresh = cached(store)
    assert mine == fresh and set(mine) == {"Ana", "Cy"}


def test_the_ladder_pages_filters_and_refuses(store):
    for players in (("Ana", "Ben"), ("Ana", "Cy"), ("Ana", "Dan"), ("Cy", "Dan")):
        finished_game(store, players)
    lines, cursor = ladder(store, limit=2)
    assert [line.player for line in lines] == ["Ana", lines[1].player]
    rest, end = ladder(store, limit=2, cursor=cursor)
    assert end is None
    everyone = [line.to_dict() for line in lines + rest]
    assert everyone[0]["player"] == "Ana" and len(everyone) == 4
    assert [line["rating"] for line in everyone] == sorted(
        (line["rating"] for line in everyone), reverse=True
    )
    assert everyone[0]["games"] == 3
    regulars, _ = ladder(store, min_games=2)
    assert sorted(line.player for line in regulars) == ["Ana", "Cy", "Dan"]
    with pytest.raises(InvalidValueError) as error:
        ladder(store, cursor="nonsense")
    assert error.value.option == "cursor"
    with pytest.raises(NotFound):
        player_rating(store, "Zed")


def test_a_skill_is_shown_on_the_documented_scale():
    assert shown(25, 25 / 3) == ratings.BASE == 1000
    assert Skill(30.0, 2.0).rating == 1000 + 25 * (30 - 6)


def test_games_ended_before_the_migration_are_rated_in_the_order_they_changed(tmp_path):
    """A file from before the ratings: its finished games get their last change's time
    as their end, and are rated."""
    from scorekeeper.store import sqlite, sqlite_migrations

    path = tmp_path / "old.db"
    store = sqlite.Storage(path, durable=False)
    first = finished_game(store)
    second = finished_game(store, ("Ben", "Cy"))
    new_game(store, players=["Ana", "Cy"])
    store.close()
    before = next(
        i for i, m in enumerate(sqlite_migrations.MIGRATIONS) if "Ratings:" in (m.__doc__ or "")
    )
    db = sqlite.sqlite_utils.Database(path)
    counted = [m for m in sqlite_migrations.MIGRATIONS if m.__name__ == "_migrate_rating_changes"]
    triggers = "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%rated%'"
    for (trigger,) in db.execute(triggers).fetchall():
        db.execute(f"DROP TRIGGER {trigger}")
    for statement in (
        "DROP TABLE rating_changes",
        "DROP TABLE rating_steps",
        "DROP TABLE ratings",
        "DROP TABLE rating_state",
        "DROP INDEX games_finished",
        "ALTER TABLE games DROP COLUMN finished",
    ):
        db.execute(statement)
    # the ratings' migrations over that file (the others kept)
    for migration in (sqlite_migrations.MIGRATIONS[before], *counted):
        migration(db)
    db.conn.commit()
    db.conn.close()
    store = sqlite.Storage(path, durable=False)
    assert store.schema_version() == sqlite_migrations.SCHEMA_VERSION
    ends = [(g.id, g.updated) for g in (store.game(first), store.game(second))]
    assert [(i, end) for i, end, _ in store.rating_inputs().games] == ends
    assert [p.game_id for p in player_rating(store, "Ben").history] == [first, second]
    store.close()


@contextmanager
def blind_store(backend):
    """Another store on ``backend``'s database that may not read the table ``games`` (in
    :func:`games_locked`, on PostgreSQL), and the error a read of it raises: SQLite's
    authorizer refuses the table to the store's connection; on PostgreSQL the store's
    connections wait for a lock at most a second."""
    if backend.name == "sqlite":
        blind = Storage(backend.address, durable=False)
        refused = sqlite3.SQLITE_DENY
        blind.db.conn.set_authorizer(
            lambda action, table, *_: refused if table == "games" else sqlite3.SQLITE_OK
        )
        with closing(blind):
            yield blind, sqlite3.DatabaseError
        return
    assert "?options=" in backend.address  # the test's schema: one more option
    waiting = backend.address.replace("?options=", "?options=-c%20lock_timeout%3D1000%20")
    with closing(open_store(waiting)) as blind:
        yield blind, StorageBusy


@contextmanager
def games_locked(backend):
    """On PostgreSQL, another connection holding the table ``games``'s lock (no read of it
    ends); on SQLite, nothing (:func:`blind_store` never reads it)."""
    if backend.name == "sqlite":
        yield
        return
    with psycopg.connect(backend.address) as holder:
        holder.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
        yield
        holder.rollback()


def test_a_rating_read_when_nothing_changed_reads_no_game(store, backend):
    """The count of changes kept by the database: a read reads no game when no rated game
    changed (at any number of games), and a correction after the end is still seen."""
    first = finished_game(store)
    for players in (("Ben", "Cy"), ("Cy", "Ana"), ("Ana", "Dan")):
        finished_game(store, players)
    new_game(store, players=["Ana", "Ben"])  # going on: not rated
    rating, lines = player_rating(store, "Ana"), ladder(store)
    assert rating.games == 3
    with blind_store(backend) as (blind, refused):
        with games_locked(backend):
            assert (player_rating(blind, "Ana"), ladder(blind)) == (rating, lines)
        games.correct_hand(store, first, 1, quick(1, 0, 40))  # Ben won it, not Ana
        with games_locked(backend), pytest.raises(refused):  # the games must be read
            player_rating(blind, "Ana")
        corrected = player_rating(store, "Ana")
        assert corrected.rating < rating.rating and corrected.games == 3
        assert cached(store)[0] == cached(store)[1]
        with games_locked(backend):  # read again from the cache alone
            assert player_rating(blind, "Ana") == corrected


def test_a_refresh_saves_the_count_of_changes_it_read_not_a_later_one(store):
    """A refresh that read the games before another write ended a game saves the count it
    read with them: the next read sees the count changed and folds the new game."""
    finished_game(store)
    refresh(store)
    finished_game(store, ("Ben", "Cy"))  # not yet read: the count moved
    read = store.rating_inputs()
    finished_game(store, ("Cy", "Ana"))  # ended between the read and the save
    saved, now = store.rating_changes()
    assert saved < read.changes[1] < now
    unchanged = (read.state, read.state, UNCHANGED)
    assert store.save_ratings(*unchanged, scratch=False, changes=read.changes)
    assert store.rating_changes() == (read.changes[1], now)
    mine, fresh = cached(store)
    assert mine == fresh and mine["Cy"][0][1] == 2
    assert store.rating_changes()[0] == now
