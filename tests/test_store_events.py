"""Stored events (scorekeeper/store/events.py) on both backends: the event and its
director token, rounds paired as stored games, standings read from the games."""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from store_kit import quick, schema_file

from api.pad import labels as pad_labels
from scorekeeper.errors import Conflict, InvalidInputError
from scorekeeper.events import Format
from scorekeeper.rules import Rules
from scorekeeper.store import event_ends, events, games, open_store, sqlite, sqlite_migrations
from scorekeeper.store.refusals import KeyReused, NotFound

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
        Format.ROUND_ROBIN,
        None,
    )
    # typed as read from the row: the format an enum member, the rules parsed once
    assert again.format is Format.ROUND_ROBIN and isinstance(again.rules, Rules)
    assert again.stake == 0.5 and again.rules.target == 100
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
    first = events.pair_round(store, stored.id)
    matches = first.matches
    assert first.number == 1 and [m.table for m in matches] == [1, 2]
    for match in matches:
        game = store.game(match.game_id)
        assert game.players == match.players
        assert games.token_matches(game, match.edit_token)
    with pytest.raises(Conflict, match="round 1 is still being played"):
        events.pair_round(store, stored.id)
    for match in matches:
        finish(store, match.game_id)
    stored = store.event(stored.id)
    assert [(r.number, r.matches) for r in stored.paired] == [
        (1, tuple((m.table, m.game_id) for m in matches))
    ]
    table = events.event_standings(store, stored).standings
    winners = {m.players[0] for m in matches}
    assert {line.player for line in table if line.won == 1} == winners
    sheet = games.load_sheet(store, matches[0].game_id).to_dict()
    final = sheet["result"]["final"]
    line = next(x for x in table if x.player == matches[0].players[0])
    assert line.net_points == final[0] - final[1]

    # a correction to a finished game changes the standings
    games.correct_hand(store, matches[0].game_id, 1, quick(0, 0, 60))
    corrected = games.load_sheet(store, matches[0].game_id).to_dict()["result"]["final"]
    assert corrected != final
    table = events.event_standings(store, store.event(stored.id)).standings
    line = next(x for x in table if x.player == matches[0].players[0])
    assert line.net_points == corrected[0] - corrected[1]


def test_a_round_robin_ends_and_the_event_says_so(store):
    stored, _ = events.create_event(store, "Night", ROSTER[:3], "round_robin")
    for number in (1, 2, 3):
        paired = events.pair_round(store, stored.id)
        assert paired.number == number and len(paired.byes) == 1
        for match in paired.matches:
            finish(store, match.game_id)
    with pytest.raises(Conflict, match="the event is over"):
        events.pair_round(store, stored.id)
    body = events.event_body(store, store.event(stored.id))
    assert body.over and [r.number for r in body.rounds] == [1, 2, 3]
    assert all(line.played == 2 and line.byes == 1 for line in body.standings)


def test_a_round_is_paired_once(store):
    stored, _ = events.create_event(store, "Night", ROSTER[:2], "round_robin")
    events.pair_round(store, stored.id)
    assert not store.add_round(stored.id, 1, (), (), rules=stored.rules, stake=None)


def waiting(backend, started: list[int]) -> bool:
    """Whether both pairing threads have begun and (PostgreSQL, where it shows) both wait
    for the lock the other connection holds."""
    if len(started) < 2:
        return False
    if backend.name == "sqlite":
        return True  # SQLite's busy wait shows nowhere outside its thread
    locked = backend.sql(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        " AND datname = current_database()"
    )
    return locked[0][0] >= 2


def test_two_directors_pairing_at_once_make_one_round_and_no_orphan_games(store, backend):
    """Both requests read the event and pair round 1, then meet at the write: one stores
    the round with its games, the other writes nothing (no game without its round)."""
    stored, _ = events.create_event(store, "Night", ROSTER[:4], "round_robin")
    # two servers' stores, as two workers pairing at once would use
    other = (
        sqlite.Storage(backend.address, durable=False)
        if backend.name == "sqlite"
        else open_store(backend.address)
    )
    stores = [store, other]
    for each in stores:
        each.event(stored.id)  # connected before the race

    started: list[int] = []

    def pair(each):
        started.append(1)
        try:
            return events.pair_round(each, stored.id)
        except Conflict as refused:
            return refused

    with ThreadPoolExecutor(2) as pool:
        with backend.writer_holding():
            futures = [pool.submit(pair, each) for each in stores]
            deadline = time.monotonic() + 30  # both have begun and wait to write
            while not waiting(backend, started) and time.monotonic() < deadline:
                time.sleep(0.01)
        answers = [future.result() for future in futures]
    other.close()
    refused = [a for a in answers if isinstance(a, Conflict)]
    paired = [a for a in answers if not isinstance(a, Conflict)]
    assert len(paired) == len(refused) == 1
    # refused at the write (both had read round 1 unpaired) or, where SQLite's busy wait is
    # not seen from outside and the second read came after the first commit, as paired and
    # unfinished: either way one round and no game without it
    assert refused[0].code in ("round_paired", "round_unfinished")
    matches = paired[0].matches
    again = store.event(stored.id)
    assert [r.number for r in again.paired] == [1]
    assert {game_id for _, game_id in again.paired[0].matches} == {m.game_id for m in matches}
    assert backend.sql("SELECT count(*) FROM games") == [(len(matches),)]
    assert backend.sql("SELECT count(*) FROM game_players") == [(2 * len(matches),)]


@pytest.mark.one_backend
def test_migration_8_takes_a_schema_7_file_to_the_event_tables(tmp_path):
    store = sqlite.Storage(schema_file(tmp_path / "v7.db", 7), durable=False)
    assert store.schema_version() == sqlite_migrations.SCHEMA_VERSION
    stored, _ = events.create_event(store, "Night", ROSTER, "single_elimination")
    paired = events.pair_round(store, stored.id)
    assert paired.byes == ("Ana", "Bor", "Cy") and len(paired.matches) == 1
    store.close()


def test_the_director_ends_a_match_the_leader_wins_on_the_totals_as_they_stand(store):
    stored, _ = events.create_event(store, "Night", ROSTER[:4], "round_robin")
    first, second = events.pair_round(store, stored.id).matches
    games.add_hand(store, first.game_id, quick(1, 2, 20))  # seat 1 knocks: 18 points, no bonus
    ended = event_ends.end_match(store, stored.id, first.game_id).to_dict()
    leader = first.players[1]
    assert ended == {
        "table": 1,
        "players": list(first.players),
        "game_id": first.game_id,
        "finished": True,
        "winner": leader,
        "totals": [0, 18],
        "ended_by_director": True,
    }
    # the game stays an ordinary game: hands go on, the event keeps the director's result
    assert store.game(first.game_id).status.value == "active"
    finish(store, first.game_id, knocker=0)
    body = events.event_body(store, store.event(stored.id)).to_dict()
    assert body["rounds"][0]["matches"][0] == ended
    assert body["rounds"][0]["matches"][1]["ended_by_director"] is False
    line = next(x for x in body["standings"] if x["player"] == leader)
    assert (line["won"], line["net_points"]) == (1, 18)
    # the other match named its winner: the player behind
    games.add_hand(store, second.game_id, quick(0, 0, 30))
    behind = second.players[1]
    named = event_ends.end_match(store, stored.id, second.game_id, f" {behind.upper()} ")
    assert (named.winner, named.totals) == (behind, (55, 0))
    table = events.event_standings(store, store.event(stored.id)).standings
    assert next(x for x in table if x.player == behind).net_points == -55
    # every match of round 1 is finished: round 2 pairs
    assert events.pair_round(store, stored.id).number == 2


def test_ending_a_match_is_refused_naming_what_is_wrong(store):
    stored, _ = events.create_event(store, "Night", ROSTER[:4], "round_robin")
    first, second = events.pair_round(store, stored.id).matches
    with pytest.raises(InvalidInputError) as level:  # 0 to 0: the director must name one
        event_ends.end_match(store, stored.id, first.game_id)
    assert (level.value.field, level.value.code, level.value.params) == (
        "winner",
        "level_totals",
        {"total": 0},
    )
    assert pad_labels.worded(level.value) == "The totals are level at 0: name the winner."
    with pytest.raises(InvalidInputError) as stranger:
        event_ends.end_match(store, stored.id, first.game_id, "Eva")
    assert (stranger.value.field, stranger.value.code) == ("winner", "not_in_this_game")
    assert store.event(stored.id).ended == {}  # nothing was written
    ordinary = games.create_game(store, ["Ana", "Bor"])[0].id
    with pytest.raises(NotFound) as elsewhere:
        event_ends.end_match(store, stored.id, ordinary)
    assert elsewhere.value.field == "game_id"
    event_ends.end_match(store, stored.id, first.game_id, first.players[0])
    with pytest.raises(Conflict) as again:
        event_ends.end_match(store, stored.id, first.game_id, first.players[1])
    assert again.value.code == "match_finished" and again.value.params["ended_by_director"]
    assert pad_labels.worded(again.value) == (
        "This match has already been ended: its result stands."
    )
    finish(store, second.game_id)
    with pytest.raises(Conflict) as over:
        event_ends.end_match(store, stored.id, second.game_id)
    assert over.value.code == "match_finished" and not over.value.params["ended_by_director"]
    assert pad_labels.worded(over.value) == (
        "This match's game is already over: its result counts as played."
    )
    assert list(store.event(stored.id).ended) == [first.game_id]


@pytest.mark.one_backend
def test_migration_9_takes_a_schema_8_file_to_the_match_ends(tmp_path):
    store = sqlite.Storage(schema_file(tmp_path / "v8.db", 8), durable=False)
    assert store.schema_version() == sqlite_migrations.SCHEMA_VERSION
    stored, _ = events.create_event(store, "Night", ROSTER[:2], "round_robin")
    (match,) = events.pair_round(store, stored.id).matches
    event_ends.end_match(store, stored.id, match.game_id, "Bor")
    assert store.event(stored.id).ended[match.game_id].winner == "Bor"
    store.close()


@pytest.mark.one_backend
def test_the_standings_read_every_match_game_in_one_query(tmp_path):
    """The standings read the event's games with one query joining its matches to them,
    however many matches it has (no query per match)."""
    store = sqlite.Storage(tmp_path / "night.db", durable=False)
    stored, _ = events.create_event(store, "Night", [*ROSTER, "Fay", "Gus", "Hal"], "swiss", 2)
    seen: list[str] = []
    counts = []
    for number in (1, 2):
        for match in events.pair_round(store, stored.id).matches:
            finish(store, match.game_id)
        event = store.event(stored.id)
        seen.clear()
        store.db.conn.set_trace_callback(seen.append)
        table = events.event_standings(store, event).standings
        store.db.conn.set_trace_callback(None)
        counts.append([statement for statement in seen if re.search(r"\bgames\b", statement)])
        assert sum(line.played for line in table) == 2 * 4 * number
    assert [len(reads) for reads in counts] == [1, 1]  # 4 matches, then 8: one query each
    assert "JOIN games" in counts[1][0]
    store.close()
