"""Stored seasons (scorekeeper/store/seasons.py) on both backends: the season kept, its
nights and casual games read from the stored games, its table (issue 29, item 2)."""

from __future__ import annotations

import pytest
from store_kit import ABC, THREE_PLAYERS, quick

from scorekeeper.errors import InvalidInputError
from scorekeeper.seasons import TableRule, season_table
from scorekeeper.store import event_ends, events, games, seasons
from scorekeeper.store.refusals import KeyReused, NotFound


def finish(store, game_id, knocker=0, deadwood=30):
    """Play the game to its end: the seat ``knocker`` gins until it wins (25 + 30 a hand)."""
    while store.game(game_id).status.value == "active":
        games.add_hand(store, game_id, quick(knocker, 0, deadwood))


def dated(store, table, row_id, day):
    """Place an event or a game on ``day`` (its creation time: what places it in a season)."""
    with store._write() as conn:
        store._run(
            conn, f"UPDATE {table} SET created = ? WHERE id = ?", (f"{day}T19:30:00.000Z", row_id)
        )


def played_night(store, day, players, winners):
    """A round robin night of two or four players on ``day``, its first round played:
    ``winners`` the seat (0 or 1) that wins at each table."""
    stored, _ = events.create_event(store, f"Night {day}", players, "round_robin")
    dated(store, "events", stored.id, day)
    paired = events.pair_round(store, stored.id)
    for match, seat in zip(paired.matches, winners, strict=True):
        finish(store, match.game_id, knocker=seat)
    return stored.id, paired


def casual(store, day, players, seat=0, finished=True):
    sheet, _ = games.create_game(store, players)
    dated(store, "games", sheet.id, day)
    if finished:
        finish(store, sheet.id, knocker=seat)
    return sheet.id


def test_a_season_is_kept_and_listed(store):
    spring = seasons.create_season(
        store, "Spring", "2026-03-01", "2026-05-31", "placement", True, [5, 3, 1]
    )
    autumn = seasons.create_season(store, " Autumn ", "2026-09-01", "2026-11-30", "wins")
    assert store.season(spring.id) == spring
    assert (spring.table, spring.casual_games, spring.placement) == (
        TableRule.PLACEMENT,
        True,
        (5, 3, 1),
    )
    assert (autumn.name, autumn.placement, autumn.casual_games) == (
        "Autumn",
        (10, 8, 6, 5, 4, 3, 2, 1),
        False,
    )
    assert [s.id for s in store.seasons()] == [autumn.id, spring.id]
    assert [s.id for s in store.seasons("2026-05-31")] == [spring.id]
    assert store.seasons("2026-06-01") == []
    assert seasons.season_of_day(store, "2026-03-01") == spring
    with pytest.raises(NotFound):
        store.season("no-such-season")


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("S", "2026-03-02", "2026-03-01", "wins"), "last_day"),
        (("S", "2026-03-01", "2026-03-02", "league"), "table"),
        (("S", "2026-03-01", "2026-03-02", "wins", "yes"), "casual_games"),
        (("S", "2026-03-01", "2026-03-02", "placement", False, ["ten"]), "placement"),
    ],
)
def test_bad_seasons_are_refused_naming_the_field(store, args, field):
    with pytest.raises(InvalidInputError) as caught:
        seasons.create_season(store, *args)
    assert caught.value.field == field
    assert store.seasons() == []


def test_the_table_reads_the_nights_and_casual_games_of_its_days(store):
    first, _ = played_night(
        store, "2026-03-01", ["Ana", "Bor", "Cy", "Dan"], [0, 1]
    )  # Ana, Dan win
    last, paired = played_night(store, "2026-03-31", ["Ana", "Cy"], [1])  # Cy wins
    played_night(store, "2026-04-01", ["Ana", "Bor"], [1])  # the day after: not counted
    casual(store, "2026-03-15", ["Bor", "Ana"], seat=0)  # Bor wins
    casual(store, "2026-03-16", ["Bor", "Ana"], finished=False)  # unfinished: not counted
    three = casual(store, "2026-03-16", ABC, finished=False)
    for hand in THREE_PLAYERS:  # a finished three-player game: no match, not counted
        games.add_hand(store, three, hand)
    assert store.game(three).status.value == "over"
    casual(store, "2026-02-28", ["Bor", "Ana"], seat=0)  # the day before: not counted
    spring = seasons.create_season(store, "Spring", "2026-03-01", "2026-03-31", "wins", True)
    nights = store.season_nights(spring.first_day, spring.last_day)
    assert [(n.id, n.day) for n in nights] == [(first, "2026-03-01"), (last, "2026-03-31")]
    assert [len(r.matches) for n in nights for r in n.played] == [2, 1]
    casual_games = store.casual_games(spring.first_day, spring.last_day)
    assert casual_games == [("Bor", "Ana", 1, casual_games[0].net_points)]
    assert casual_games[0].net_points > 0
    table = seasons.season_standings(store, spring)
    assert (table.nights, table.casual_games) == (2, 1)
    # night 1 pairs Ana v Dan and Bor v Cy; Bor beats Ana in the casual game
    lines = [(x.rank, x.player, x.events, x.won, x.lost, x.tie_break) for x in table.table]
    assert lines == [
        (1, "Cy", 2, 2, 0, None),
        (2, "Bor", 1, 1, 1, None),
        (3, "Ana", 2, 1, 2, "net_points"),  # every game ends alike: Ana's net is one loss down
        (4, "Dan", 1, 0, 1, None),
    ]
    assert table.table == tuple(season_table(spring.season, nights, casual_games))
    assert paired.matches[0].players == ("Ana", "Cy")
    by_placement = seasons.create_season(store, "P", "2026-03-01", "2026-03-31", "placement")
    placed = seasons.season_standings(store, by_placement)
    # night 1: Ana and Cy share 1st (10 each), Bor and Dan 3rd (6); night 2: Cy 10, Ana 8
    assert [(x.rank, x.player, x.points, x.casual_played) for x in placed.table] == [
        (1, "Cy", 20, 0),
        (2, "Ana", 18, 0),
        (3, "Bor", 6, 0),
        (3, "Dan", 6, 0),
    ]


def test_a_match_the_director_ended_counts_as_ended(store):
    stored, _ = events.create_event(store, "Night", ["Ana", "Bor"], "round_robin")
    dated(store, "events", stored.id, "2026-03-05")
    (match,) = events.pair_round(store, stored.id).matches
    games.add_hand(store, match.game_id, quick(1, 2, 12))  # Bor knocks: 10 points
    event_ends.end_match(store, stored.id, match.game_id)  # time called: Bor leads
    games.create_game(store, ["Ana", "Bor"])  # an unfinished casual game
    spring = seasons.create_season(store, "Spring", "2026-03-01", "2026-03-31", "wins", True)
    table = seasons.season_standings(store, spring).table
    assert [(x.player, x.won, x.net_points, x.casual_played) for x in table] == [
        ("Bor", 1, 10, 0),
        ("Ana", 0, -10, 0),
    ]
    # the table plays on to the sheet's end, Ana winning it: the night's result stays
    while store.game(match.game_id).status.value != "over":
        games.add_hand(store, match.game_id, quick(0, 0, 40))
    assert seasons.season_standings(store, spring).table == table


def test_a_correction_or_an_undo_changes_the_table_at_once(store):
    game_id = casual(store, "2026-03-10", ["Ana", "Bor"], seat=0)  # Ana gins twice: over
    spring = seasons.create_season(store, "Spring", "2026-03-01", "2026-03-31", "wins", True)

    def points():
        return [(x.player, x.points) for x in seasons.season_standings(store, spring).table]

    assert points() == [("Ana", 1), ("Bor", 0)]
    for n in (1, 2):  # Bor gins both hands instead: Bor wins
        games.correct_hand(store, game_id, n, quick(1, 0, 30))
    assert points() == [("Bor", 1), ("Ana", 0)]
    games.undo_last(store, game_id)  # no longer over: no casual game
    assert points() == []


def test_an_older_file_gets_the_results_of_its_finished_games(tmp_path):
    from scorekeeper.store.sqlite import Storage, sqlite_utils
    from scorekeeper.store.sqlite_migrations import MIGRATIONS, SCHEMA_VERSION

    path = tmp_path / "older.db"
    store = Storage(path, durable=False)
    game_id = casual(store, "2026-03-10", ["Ana", "Bor"], seat=1)
    with store._write() as conn:  # as the schema before game_results left it
        for statement in (
            "DROP TRIGGER games_result_new",
            "DROP TRIGGER games_result_change",
            "DROP TABLE game_results",
        ):
            conn.execute(statement)
    store.close()
    (results,) = [m for m in MIGRATIONS if m.__name__ == "_migrate_game_results"]
    db = sqlite_utils.Database(path)
    results(db)  # that migration over the file (the later ones kept)
    db.conn.commit()
    db.conn.close()
    store = Storage(path, durable=False)
    assert store.schema_version() == SCHEMA_VERSION
    (games_won,) = store.casual_games("2026-03-10", "2026-03-10")
    first, second = store.game(game_id).scored.data["result"]["final"]
    assert games_won == ("Bor", "Ana", 1, second - first)
    store.close()


def test_an_idempotency_key_makes_one_season(store):
    args = ("Spring", "2026-03-01", "2026-03-31", "wins")
    first = seasons.create_season(store, *args, idempotency_key="k1")
    again = seasons.create_season(store, *args, idempotency_key="k1")
    assert again == first and store.seasons() == [first]
    with pytest.raises(KeyReused):
        seasons.create_season(store, "Autumn", *args[1:], idempotency_key="k1")
    other = seasons.create_season(store, *args)  # no key: a season each time
    assert {s.id for s in store.seasons()} == {first.id, other.id}
