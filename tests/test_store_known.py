"""A write takes the game as its request read it (the token check before the body) while
the game's row still holds it, so the row is read and decoded once per request; a game
that moved on in between (another hand, a new token) is read again under the write's
lock (both backends)."""

from __future__ import annotations

import sqlite3

from store_kit import new_game, quick

from scorekeeper.store import access, games, open_store


def test_a_write_takes_the_game_read_before_it(tmp_path):
    store = open_store(str(tmp_path / "known.db"))
    game_id, _ = new_game(store)
    known = store.game(game_id)
    statements: list[str] = []
    conn: sqlite3.Connection = store.db.conn
    conn.set_trace_callback(statements.append)
    try:
        hand, sheet, _ = games.add_hand(store, game_id, quick(0, 5, 20), known=known)
    finally:
        conn.set_trace_callback(None)
    assert (hand.points, sheet.totals, sheet.version) == (15, (15, 0), 1)
    reads = [s for s in statements if s.startswith("SELECT") and "FROM games WHERE id" in s]
    assert reads == [f"SELECT version, token_hash FROM games WHERE id = '{game_id}'"]
    store.close()


def test_a_game_that_moved_on_is_read_again(store):
    game_id, token = new_game(store)
    known = store.game(game_id)
    games.add_hand(store, game_id, quick(0, 5, 20))  # the version moves on
    _, sheet, _ = games.add_hand(store, game_id, quick(1, 5, 20), known=known)
    assert (sheet.totals, sheet.version, len(sheet.hands)) == ((15, 15), 2, 2)
    assert store.game(game_id).scored.count == 2

    known = store.game(game_id)
    fresh = access.rotate_token(store, game_id, token)  # the token changes, not the version
    undone = games.write_undo(store, game_id, known=known)
    stored = store.game(game_id)
    assert stored.version == 3 and stored.scored.count == 1
    assert undone.game == stored  # the game as the write left it, with its new token
    assert games.token_matches(stored, fresh) and not games.token_matches(stored, token)
