"""The round clock in the store (scorekeeper/store/event_clock.py, sql_clock.py; issue 29):
set on the current round on both backends, read back with the event, replaced when set
again, gone with a withdrawn round; a file made before the clock's migration takes it
with its rounds kept, clockless."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from store_kit import schema_file

from scorekeeper.errors import Conflict, InvalidInputError
from scorekeeper.store import event_rounds, events, sqlite, sqlite_migrations
from scorekeeper.store.event_clock import moment, round_clock, seconds_left, set_clock

ROSTER = ["Ana", "Bor", "Cy", "Dan"]


def test_the_clock_is_set_on_the_current_round_and_read_with_the_event(store):
    stored, _ = events.create_event(store, "Night", ROSTER, "round_robin")
    with pytest.raises(Conflict) as early:
        set_clock(store, stored.id, 30)
    assert early.value.code == "no_round"
    events.pair_round(store, stored.id)
    assert round_clock(store.event(stored.id)) is None
    clock = round_clock(set_clock(store, stored.id, 30))
    assert clock is not None and (clock.round, clock.minutes) == (1, 30)
    assert clock == round_clock(store.event(stored.id))
    assert 29 * 60 < seconds_left(clock) <= 30 * 60
    start = datetime.now(UTC) - timedelta(minutes=31)
    late = round_clock(set_clock(store, stored.id, 30, start.isoformat()))
    assert late is not None and moment(late.started) == start.replace(
        microsecond=start.microsecond // 1000 * 1000
    )
    assert seconds_left(late) == 0
    assert seconds_left(late, moment(late.started)) == 30 * 60
    event_rounds.withdraw_round(store, stored.id, 1)
    events.pair_round(store, stored.id)
    assert round_clock(store.event(stored.id)) is None


@pytest.mark.parametrize("minutes", [0, 601, True, 2.5, "30", None])
def test_a_bad_length_is_refused_naming_minutes(store, minutes):
    stored, _ = events.create_event(store, "Night", ROSTER[:2], "round_robin")
    events.pair_round(store, stored.id)
    with pytest.raises(InvalidInputError) as bad:
        set_clock(store, stored.id, minutes)
    assert bad.value.field == "minutes"
    assert round_clock(store.event(stored.id)) is None


@pytest.mark.one_backend
def test_the_clock_migration_keeps_the_rounds_paired_before(tmp_path):
    before = next(
        i
        for i, step in enumerate(sqlite_migrations.MIGRATIONS)
        if "round clock" in (step.__doc__ or "")
    )
    path = schema_file(tmp_path / "old.db", before)
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO events (id, name, players, format, rules, token_hash, created)"
        " VALUES ('e1', 'Night', '[\"Ana\", \"Bor\"]', 'round_robin', '{}', 'x', '2026-01-01')"
    )
    db.execute("INSERT INTO event_rounds VALUES ('e1', 1, '[]', '2026-01-01')")
    db.commit()
    db.close()
    store = sqlite.Storage(path, durable=False)
    assert store.schema_version() == sqlite_migrations.SCHEMA_VERSION
    (paired,) = store.event("e1").paired
    assert (paired.number, paired.clock) == (1, None)
    set_clock(store, "e1", 45)
    store.close()
    again = sqlite.Storage(path, durable=False)
    clock = round_clock(again.event("e1"))
    assert clock is not None and (clock.round, clock.minutes) == (1, 45)
    again.close()
