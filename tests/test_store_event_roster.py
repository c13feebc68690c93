"""The director's roster changes stored (scorekeeper/store/event_roster.py and
sql_roster.py) on both backends: withdrawals and late entries kept and read back, a
knockout's walkovers kept with their round, swaps made of new games, and a pairing that
raced a roster change refused."""

from __future__ import annotations

import json
import sqlite3

import pytest
from store_kit import quick, schema_file

from scorekeeper.errors import Conflict
from scorekeeper.rules import Rules
from scorekeeper.store import events, games, sqlite, sqlite_migrations
from scorekeeper.store.event_roster import enter_player, swap_players, withdraw_player

ROSTER = ["Ana", "Bor", "Cy", "Dan", "Eva"]


def finish(store, game_id, knocker=0):
    """Play the game to its end: the seat ``knocker`` gins until it wins."""
    while store.game(game_id).status.value == "active":
        games.add_hand(store, game_id, quick(knocker, 0, 30))


def test_withdrawals_and_late_entries_are_kept_in_order(store):
    stored, _ = events.create_event(store, "Night", ROSTER, "swiss", 3)
    first = events.pair_round(store, stored.id)
    withdraw_player(store, stored.id, " ana ")
    assert enter_player(store, stored.id, " Fil ") == "Fil"
    enter_player(store, stored.id, "Gal")
    again = store.event(stored.id)
    assert again.players == (*ROSTER, "Fil", "Gal")
    assert (again.entered, again.withdrawn) == ((("Fil", 2), ("Gal", 2)), (("Ana", 2),))
    for match in first.matches:
        finish(store, match.game_id)
    second = events.pair_round(store, stored.id)
    seated = {name for match in second.matches for name in match.players} | set(second.byes)
    assert seated == {"Bor", "Cy", "Dan", "Eva", "Fil", "Gal"}
    body = events.event_body(store, store.event(stored.id))
    assert [(w.player, w.round) for w in body.withdrawals] == [("Ana", 2)]
    assert {line.player: line.withdrawn for line in body.standings}["Ana"] == 2
    with pytest.raises(Conflict) as again_withdrawn:
        withdraw_player(store, stored.id, "ANA")
    assert again_withdrawn.value.code == "already_withdrawn"
    assert store.event(stored.id).withdrawn == (("Ana", 2),)  # nothing written


def test_a_knockout_walkover_is_kept_with_its_round(store):
    stored, _ = events.create_event(store, "Cup", ROSTER[:4], "single_elimination")
    first = events.pair_round(store, stored.id)
    for match in first.matches:
        finish(store, match.game_id)  # seat 0 wins: Ana and Bor
    withdraw_player(store, stored.id, "Bor")
    final = events.pair_round(store, stored.id)
    assert final.matches == () and [(w.winner, w.withdrawn) for w in final.walkovers] == [
        ("Ana", "Bor")
    ]
    again = store.event(stored.id)
    assert again.paired[1].walkovers == (("Ana", "Bor"),)
    body = events.event_body(store, again)
    assert body.over and body.standings[0].player == "Ana" and body.standings[0].walkovers == 1
    with pytest.raises(Conflict) as over:
        withdraw_player(store, stored.id, "Cy")
    assert over.value.code == "event_over"
    with pytest.raises(Conflict) as closed:
        enter_player(store, stored.id, "Fil")
    assert closed.value.code == "entries_closed"


def test_a_swap_gives_the_two_tables_new_games(store, backend):
    stored, _ = events.create_event(store, "Night", ROSTER, "swiss", 2)
    first = events.pair_round(store, stored.id)
    (t1, t2), bye = first.matches, first.byes[0]
    swapped = swap_players(store, stored.id, 1, [t1.players[0], bye])
    assert [m.table for m in swapped.matches] == [1] and swapped.byes == (t1.players[0],)
    assert swapped.matches[0].players == (bye, t1.players[1])
    again = store.event(stored.id).paired[0]
    assert again.byes == (t1.players[0],)
    assert dict(again.matches) == {1: swapped.matches[0].game_id, 2: t2.game_id}
    # the old game stays, an ordinary game no longer the event's
    assert store.game(t1.game_id).players == t1.players
    assert store.game_event(t1.game_id) is None
    games.add_hand(store, swapped.matches[0].game_id, quick(0, 2, 9))
    with pytest.raises(Conflict) as began:
        swap_players(store, stored.id, 1, [bye, t2.players[0]])
    assert began.value.code == "swap_started" and began.value.params["table"] == 1
    assert dict(store.event(stored.id).paired[0].matches)[1] == swapped.matches[0].game_id
    counted = backend.sql("SELECT count(*) FROM event_matches WHERE event_id = ?", (stored.id,))
    assert counted == [(2,)]


def test_a_pairing_made_before_a_roster_change_is_refused(store):
    stored, _ = events.create_event(store, "Night", ROSTER, "swiss", 2)
    seen = store.event(stored.id)
    withdraw_player(store, stored.id, "Eva")  # meanwhile, as the pairing was worked out
    with pytest.raises(Conflict) as changed:
        store.add_round(
            stored.id, 1, ("Eva",), (), rules=seen.rules, stake=None, check=events.roster_kept(seen)
        )
    assert changed.value.code == "roster_changed"
    assert store.event(stored.id).paired == ()  # nothing written
    paired = events.pair_round(store, stored.id)
    assert "Eva" not in {name for match in paired.matches for name in match.players}


@pytest.mark.one_backend
def test_the_roster_migration_keeps_the_rounds_stored_before(tmp_path):
    """A file from before the roster migration, with an event and a paired round, opens with
    the round's walkovers empty and no roster change; then takes withdrawals."""
    before = sqlite_migrations.MIGRATIONS.index(sqlite_migrations._migrate_roster)
    path = schema_file(tmp_path / "before.db", before)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO events (id, name, players, format, rounds, rules, stake, token_hash,"
            " created) VALUES ('e1', 'Night', '[\"Ana\", \"Bor\", \"Cy\"]', 'swiss', 2, ?,"
            " NULL, 'h', 't')",
            (json.dumps(Rules().to_dict()),),
        )
        conn.execute(
            "INSERT INTO event_rounds (event_id, number, byes, created) VALUES ('e1', 1, ?, 't')",
            (json.dumps(["Cy"]),),
        )
    conn.close()
    store = sqlite.Storage(path, durable=False)
    assert store.schema_version() == sqlite_migrations.SCHEMA_VERSION
    stored = store.event("e1")
    assert stored.paired[0].walkovers == () and stored.paired[0].byes == ("Cy",)
    assert (stored.entered, stored.withdrawn) == ((), ())
    withdraw_player(store, "e1", "Cy")
    assert store.event("e1").withdrawn == (("Cy", 2),)
    store.close()
