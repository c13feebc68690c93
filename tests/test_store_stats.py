"""Players' records (scorekeeper.store.stats) over games in a real SQLite store."""

from __future__ import annotations

import pytest
from store_kit import new_game, quick

from scorekeeper.store import games
from scorekeeper.store.base import NotFound
from scorekeeper.store.stats import player_stats


def test_player_stats(store):
    game_id, _ = new_game(store, rules={"target": 60})
    games.add_hand(store, game_id, quick(0, 0, 30))           # Ana gin 55
    games.add_hand(store, game_id, quick(0, 9, 2))            # Ben undercuts: 32
    games.add_hand(store, game_id, {"kind": "void"})
    games.add_hand(store, game_id, quick(0, 2, 9))            # Ana 7: 62, over
    other, _ = new_game(store, players=["ana", "Cy"])
    games.add_hand(store, other, quick(1, 4, 10))             # Cy 6
    stats = player_stats(store, "ANA")
    assert stats["name"] == "Ana"
    assert (stats["games"], stats["finished"], stats["wins"], stats["losses"]) == (2, 1, 1, 0)
    assert (stats["hands"], stats["hands_won"], stats["gins"]) == (4, 2, 1)
    assert stats["undercuts"] == 0 and stats["points"] == 62 and stats["average_hand"] == 31
    assert stats["head_to_head"] == [
        {"opponent": "Ben", "games": 1, "wins": 1, "losses": 0, "hands_won": 2, "hands_lost": 1},
        {"opponent": "Cy", "games": 1, "wins": 0, "losses": 0, "hands_won": 0, "hands_lost": 1}]
    ben = player_stats(store, "Ben")
    assert (ben["undercuts"], ben["losses"], ben["average_hand"]) == (1, 1, 32)
    with pytest.raises(NotFound):
        player_stats(store, "Zed")
