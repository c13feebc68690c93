"""The store's scorepad edit rights (``edit_rights``, ``handovers``) and an event's rights
(``director_rights``, ``director_links``, ``card_generations``) on each backend.

Written against the :class:`~scorekeeper.store.protocol.Store` methods only, so
that another backend can run the same checks.
"""

from __future__ import annotations

import time

import pytest
from conftest import DB_ERRORS
from store_kit import new_game, quick

from scorekeeper.store import events, games

PHONE, OTHER = "a" * 64, "b" * 64


def test_rights_are_granted_listed_revoked_and_granted_again(store):
    game, _ = new_game(store)
    assert not store.has_edit(game, PHONE) and store.edit_rights(game) == []
    store.grant_edit(game, PHONE, "first")
    store.grant_edit(game, OTHER, "second")
    time.sleep(0.002)
    store.grant_edit(game, PHONE, "again")  # a right held is kept as it is
    rights = store.edit_rights(game)
    assert [(r.device_hash, r.label) for r in rights] == [(PHONE, "first"), (OTHER, "second")]
    assert store.revoke_edit(game, rights[1].id)
    assert not store.revoke_edit(game, rights[1].id)  # already revoked
    assert not store.has_edit(game, OTHER) and store.has_edit(game, PHONE)
    other_game, _ = new_game(store, players=["Cy", "Dee"])
    assert not store.revoke_edit(other_game, rights[0].id)  # a right of another game
    assert store.has_edit(game, PHONE)
    store.grant_edit(game, OTHER, "back again")
    assert [r.label for r in store.edit_rights(game)] == ["first", "back again"]


def test_a_devices_games_come_last_changed_first_and_are_bounded(store):
    ids = []
    for i in range(5):
        game, _ = new_game(store, players=[f"P{i}", "Q"])
        store.grant_edit(game, PHONE, "mine")
        ids.append(game)
        time.sleep(0.002)  # distinct time stamps
    games.add_hand(store, ids[1], quick(0, 3, 12))  # changed last
    store.grant_edit(new_game(store)[0], OTHER, "not mine")
    store.revoke_edit(ids[4], store.edit_rights(ids[4])[0].id)
    assert [g.id for g in store.device_games(PHONE, 3)] == [ids[1], ids[3], ids[2]]
    assert len(store.device_games(PHONE, 10)) == 4 and store.device_games("c" * 64, 8) == []


def test_one_handover_per_game_replaced_and_removed(store):
    game, _ = new_game(store)
    assert store.handover(game) is None
    store.set_handover(game, "1" * 64)
    store.set_handover(game, "2" * 64)
    assert store.handover(game).secret_hash == "2" * 64
    store.set_handover(game, None)
    assert store.handover(game) is None


def test_rights_need_an_existing_game(store):
    with pytest.raises(DB_ERRORS, match=r"(?i)foreign key"):  # the database's own refusal
        store.grant_edit("no-such-game", PHONE, "x")
    assert store.device_games(PHONE, 8) == []


def test_revoking_a_right_ends_the_hand_over_link_it_could_join_by_again(store):
    game, _ = new_game(store)
    store.grant_edit(game, PHONE, "starter")
    store.set_handover(game, "1" * 64)
    assert store.grant_edit(game, OTHER, "joined", handover="1" * 64)
    assert not store.grant_edit(game, "c" * 64, "guessed", handover="2" * 64)
    assert not store.has_edit(game, "c" * 64)
    joined = store.edit_rights(game)[1].id
    assert not store.revoke_edit(game, joined + 100)  # no such right: the link stays
    assert store.handover(game).secret_hash == "1" * 64
    assert store.revoke_edit(game, joined)
    assert store.handover(game) is None
    assert not store.grant_edit(game, OTHER, "joined again", handover="1" * 64)
    assert not store.has_edit(game, OTHER) and store.has_edit(game, PHONE)


# ----------------------------------------------------------------------------- an event's rights


def new_event(store) -> str:
    return events.create_event(store, "Night", ["Ana", "Ben"], "round_robin")[0].id


def test_director_rights_are_granted_listed_revoked_and_kept_revoked_or_revived(store):
    event = new_event(store)
    assert not store.has_director(event, PHONE) and store.director_rights(event) == []
    assert store.grant_director(event, PHONE, "creator", revive=False)
    assert store.grant_director(event, OTHER, "second")
    assert store.grant_director(event, PHONE, "again")  # a right held is kept as it is
    held = store.director_rights(event)
    assert [(r.device_hash, r.label) for r in held] == [(PHONE, "creator"), (OTHER, "second")]
    assert store.revoke_director(event, held[1].id)
    assert not store.revoke_director(event, held[1].id)  # already revoked
    assert not store.revoke_director(new_event(store), held[0].id)  # another event's right
    assert not store.has_director(event, OTHER) and store.has_director(event, PHONE)
    assert not store.grant_director(event, OTHER, "kept out", revive=False)
    assert not store.has_director(event, OTHER)
    assert store.grant_director(event, OTHER, "back again")
    assert [r.label for r in store.director_rights(event)] == ["creator", "back again"]
    with pytest.raises(DB_ERRORS, match=r"(?i)foreign key"):
        store.grant_director("no-such-event", PHONE, "x")


def test_director_links_grant_while_current_and_a_revoke_ends_the_hand_over_only(store):
    event = new_event(store)
    store.grant_director(event, PHONE, "creator")
    store.set_director_link(event, "handover", "1" * 64)
    store.set_director_link(event, "recovery", "2" * 64)
    assert store.director_link(event, "handover").secret_hash == "1" * 64
    assert not store.grant_director(event, OTHER, "x", link=("handover", "2" * 64))
    assert not store.grant_director(event, OTHER, "x", link=("recovery", "1" * 64))
    assert not store.has_director(event, OTHER)
    assert store.grant_director(event, OTHER, "joined", link=("handover", "1" * 64))
    joined = store.director_rights(event)[1].id
    assert not store.revoke_director(event, joined + 100)  # no such right: the link stays
    assert store.director_link(event, "handover") is not None
    assert store.revoke_director(event, joined)
    assert store.director_link(event, "handover") is None
    assert not store.grant_director(event, OTHER, "again", link=("handover", "1" * 64))
    assert store.director_link(event, "recovery").secret_hash == "2" * 64
    assert store.grant_director(event, OTHER, "recovered", link=("recovery", "2" * 64))
    store.set_director_link(event, "recovery", None)
    assert store.director_link(event, "recovery") is None


def test_each_revoke_of_a_games_right_counts_its_card_a_generation_on(store):
    game, _ = new_game(store)
    assert store.card_generation(game) == 0
    store.grant_edit(game, PHONE, "starter")
    store.grant_edit(game, OTHER, "joined")
    first, second = (r.id for r in store.edit_rights(game))
    assert store.revoke_edit(game, second) and store.card_generation(game) == 1
    assert not store.revoke_edit(game, second) and store.card_generation(game) == 1
    store.grant_edit(game, OTHER, "back")  # given back: the count goes on, never back
    assert store.revoke_edit(game, second) and store.revoke_edit(game, first)
    assert store.card_generation(game) == 3
