"""Stored events (scorekeeper/store/events.py) on both backends: the event and its
director token, rounds paired as stored games, standings read from the games."""

from __future__ import annotations

import pytest
import sqlite_utils
from store_kit import quick

from scorekeeper.errors import Conflict, InvalidInputError
from scorekeeper.store import events, games, sqlite
from scorekeeper.store.base import KeyReused, NotFound

ROSTER = ["Ana", "Bor", "Cy", "Dan", "Eva"]


def finish(store, game_id, knocker=0, deadwood=30):
    """Play the game to its end: the seat ``knocker`` gins until it wins."""
    while store.game(game_id).status.value == "active":
        games.add_hand(store, game_id, quick(knocker, 0, deadwood))


def test_an_event_keeps_its_settings_and_only_a_token_hash(store):
    stored, token = events.create_event(store, "Club night", ROSTER, "round_robin", stake=0.5)
    again = store.event(stored.id)
    assert again == stored
    assert (again.name, again.players, again.format, again.rounds) == (
        "Club night",
        tuple(ROSTER),
        "round_robin",
        None,
    )
    assert again.stake == 0.5 and again.rules["target"] == 100
    assert token not in again.token_hash and events.token_matches(again, token)
    assert not events.token_matches(again, token + "x")
    with pytest.raises(NotFound):
        store.event("no-such-event")


def test_an_idempotency_key_makes_one_event(store):
    first, token = events.create_event(
        store, "Night", ROSTER, "swiss", 3, idempotency_key="k1", secret="s"
    )
    second, again = events.create_event(
        store, "Night", ROSTER, "swiss", 3, idempotency_key="k1", secret="s"
    )
    assert (second.id, again) == (first.id, token)
    with pytest.raises(KeyReused):
        events.create_event(store, "Other", ROSTER, "swiss", 3, idempotency_key="k1", secret="s")


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("", ROSTER, "swiss", 2), "name"),
        (("N", "Ana", "swiss", 2), "players"),
        (("N", ROSTER, "ladder", None), "format"),
        (("N", ROSTER, "swiss", None), "rounds"),
        (("N", ["Ana", "ana "], "round_robin", None), "players"),
    ],
)
def test_bad_events_are_refused_naming_the_field(store, args, field):
    with pytest.raises(InvalidInputError) as caught:
        events.create_event(store, *args)
    assert caught.value.field == field


def test_rounds_are_stored_games_and_standings_follow_them(store):
    stored, _ = events.create_event(store, "Night", ROSTER[:4], "round_robin")
    first, matches = events.pair_round(store, stored.id)
    assert first.number == 1 and [m.pairing.table for m in matches] == [1, 2]
    for match in matches:
        game = store.game(match.game_id)
        assert game.players == match.pairing.players
        assert games.token_matches(game, match.edit_token)
    with pytest.raises(Conflict, match="round 1 is still being played"):
        events.pair_round(store, stored.id)
    for match in matches:
        finish(store, match.game_id)
    stored = store.event(stored.id)
    assert [(r.number, r.matches) for r in stored.paired] == [
        (1, tuple((m.pairing.table, m.game_id) for m in matches))
    ]
    table = events.event_standings(store, stored)
    winners = {m.pairing.players[0] for m in matches}
    assert {line["player"] for line in table if line["won"] == 1} == winners
    sheet = games.load_sheet(store, matches[0].game_id).to_dict()
    final = sheet["result"]["final"]
    line = next(x for x in table if x["player"] == matches[0].pairing.players[0])
    assert line["net_points"] == final[0] - final[1]

    # a correction to a finished game changes the standings
    games.correct_hand(store, matches[0].game_id, 1, quick(0, 0, 60))
    corrected = games.load_sheet(store, matches[0].game_id).to_dict()["result"]["final"]
    assert corrected != final
    table = events.event_standings(store, store.event(stored.id))
    line = next(x for x in table if x["player"] == matches[0].pairing.players[0])
    assert line["net_points"] == corrected[0] - corrected[1]


def test_a_round_robin_ends_and_the_event_says_so(store):
    stored, _ = events.create_event(store, "Night", ROSTER[:3], "round_robin")
    for number in (1, 2, 3):
        paired, matches = events.pair_round(store, stored.id)
        assert paired.number == number and len(paired.byes) == 1
        for match in matches:
            finish(store, match.game_id)
    with pytest.raises(Conflict, match="the event is over"):
        events.pair_round(store, stored.id)
    body = events.event_body(store, store.event(stored.id))
    assert body["over"] and [r["number"] for r in body["rounds"]] == [1, 2, 3]
    assert all(line["played"] == 2 and line["byes"] == 1 for line in body["standings"])


def test_a_round_is_paired_once(store):
    stored, _ = events.create_event(store, "Night", ROSTER[:2], "round_robin")
    events.pair_round(store, stored.id)
    assert not store.add_round(stored.id, 1, (), ())


@pytest.mark.one_backend
def test_migration_8_takes_a_schema_7_file_to_the_event_tables(tmp_path):
    path = tmp_path / "v7.db"
    db = sqlite_utils.Database(path)
    for migration in sqlite.MIGRATIONS[:7]:
        migration(db)
    db.execute("PRAGMA user_version = 7")
    db.conn.commit()
    db.conn.close()
    store = sqlite.Storage(path, durable=False)
    assert store.schema_version() == sqlite.SCHEMA_VERSION == 8
    stored, _ = events.create_event(store, "Night", ROSTER, "single_elimination")
    paired, matches = events.pair_round(store, stored.id)
    assert paired.byes == ("Ana", "Bor", "Cy") and len(matches) == 1
    store.close()
