"""Players' records (scorekeeper.store.stats) over games in a real SQLite store."""

from __future__ import annotations

import pytest
from store_kit import ABC, ABCD, PARTNERSHIP, THREE_PLAYERS, new_game, quick

from scorekeeper.errors import RuleError
from scorekeeper.store import games
from scorekeeper.store.refusals import NotFound
from scorekeeper.store.stats import player_stats, rematch_tally


def test_player_stats(store):
    game_id, _ = new_game(store, rules={"target": 60})
    games.add_hand(store, game_id, quick(0, 0, 30))  # Ana gin 55
    games.add_hand(store, game_id, quick(0, 9, 2))  # Ben undercuts: 32
    games.add_hand(store, game_id, {"kind": "void"})
    games.add_hand(store, game_id, quick(0, 2, 9))  # Ana 7: 62, over
    other, _ = new_game(store, players=["ana", "Cy"])
    games.add_hand(store, other, quick(1, 4, 10))  # Cy 6
    stats = player_stats(store, "ANA").to_dict()
    assert stats["name"] == "Ana"
    assert (stats["games"], stats["finished"], stats["wins"], stats["losses"]) == (2, 1, 1, 0)
    assert (stats["hands"], stats["hands_won"], stats["gins"]) == (4, 2, 1)
    assert stats["undercuts"] == 0 and stats["points"] == 62 and stats["average_hand"] == 31
    assert stats["head_to_head"] == [
        {"opponent": "Ben", "games": 1, "wins": 1, "losses": 0, "hands_won": 2, "hands_lost": 1},
        {"opponent": "Cy", "games": 1, "wins": 0, "losses": 0, "hands_won": 0, "hands_lost": 1},
    ]
    ben = player_stats(store, "Ben").to_dict()
    assert (ben["undercuts"], ben["losses"], ben["average_hand"]) == (1, 1, 32)
    with pytest.raises(NotFound):
        player_stats(store, "Zed").to_dict()


def test_a_player_is_found_however_the_name_is_written(store):
    first, _ = new_game(store, players=["E\u0301mile", "Ana"])
    games.add_hand(store, first, quick(0, 0, 30))  # Émile gin 55
    second, _ = new_game(store, players=["\u00e9mile ", "ANA"])
    games.add_hand(store, second, quick(1, 3, 10))  # Ana 7
    for spelling in ("\u00c9mile", "E\u0301MILE", " \u00e9mile"):
        stats = player_stats(store, spelling).to_dict()
        assert stats["name"] == "\u00c9mile"  # as first written, cleaned (NFC)
        assert (stats["games"], stats["hands"], stats["hands_won"]) == (2, 2, 1)
        assert stats["head_to_head"] == [
            {"opponent": "Ana", "games": 2, "wins": 0, "losses": 0, "hands_won": 1, "hands_lost": 1}
        ]
    assert player_stats(store, "Ana ").to_dict()["hands_won"] == 1
    with pytest.raises(RuleError) as error:
        player_stats(store, "Ana\u202e").to_dict()
    assert error.value.field == "name"


def test_imported_games_are_left_out_of_the_stats(store):
    game_id, _ = new_game(store, rules={"target": 60})
    games.add_hand(store, game_id, quick(0, 0, 40))  # Ana gin 65: wins
    before = player_stats(store, "Ana").to_dict()
    assert (before["wins"], before["imported_games"]) == (1, 0)
    # an import made by anyone: Ana loses a finished game and Ben "wins" a Cy game
    loss = {"players": ["Ana", "Ben"], "rules": {"target": 50}, "hands": [quick(1, 0, 30)]}
    games.import_game(store, loss)
    games.import_game(store, {"players": ["Ben", "Cy"], "hands": [quick(0, 0, 30)]})
    assert player_stats(store, "Ana").to_dict() == {**before, "imported_games": 1}
    ben = player_stats(store, "Ben").to_dict()
    assert (ben["games"], ben["wins"], ben["losses"], ben["hands_won"]) == (1, 0, 1, 0)
    assert ben["imported_games"] == 2
    cy = player_stats(store, "cy").to_dict()
    assert (cy["games"], cy["hands"], cy["imported_games"], cy["head_to_head"]) == (0, 0, 1, [])


def rival(opponent, games=1, wins=0, losses=0, hands_won=0, hands_lost=0):
    return {
        "opponent": opponent,
        "games": games,
        "wins": wins,
        "losses": losses,
        "hands_won": hands_won,
        "hands_lost": hands_lost,
    }


def test_three_and_four_player_games_count_the_hands_each_played(store):
    game_id, _ = new_game(store, players=ABC, dealer=0)
    for hand in THREE_PLAYERS:
        games.add_hand(store, game_id, hand)
    ana = player_stats(store, "Ana").to_dict()
    # Ana sat out hands 1 and 5; beat Cy with a gin (55) and a knock (46), lost to Ben's
    # gin, and the void hand 3 was Ana against Ben: Cy met first
    assert (ana["games"], ana["finished"], ana["wins"], ana["losses"]) == (1, 1, 1, 0)
    assert (ana["hands"], ana["hands_won"], ana["gins"], ana["points"]) == (3, 2, 1, 101)
    assert ana["average_hand"] == 50.5
    assert ana["head_to_head"] == [
        rival("Cy", wins=1, hands_won=2),
        rival("Ben", wins=1, hands_lost=1),
    ]
    cy = player_stats(store, "Cy").to_dict()
    # Cy undercut Ben (29) and beat him by 10, lost twice to Ana, who won the game
    assert (cy["hands"], cy["hands_won"], cy["undercuts"], cy["points"]) == (4, 2, 1, 39)
    assert cy["head_to_head"] == [rival("Ben", hands_won=2), rival("Ana", losses=1, hands_lost=2)]
    partners, _ = new_game(store, players=ABCD, dealer=1)
    for hand in PARTNERSHIP:
        games.add_hand(store, partners, hand)
    dan = player_stats(store, "Dan").to_dict()
    # Dan's games: deal 1 beat Cy (gin 35), deal 2 lost to Ana's undercut, deal 3 void
    # against Cy, deal 4 lost to Ana's gin, deal 5 lost to Cy; Ben (partner) never met
    assert (dan["games"], dan["finished"], dan["wins"], dan["losses"]) == (1, 1, 0, 1)
    assert (dan["hands"], dan["hands_won"], dan["gins"], dan["points"]) == (4, 1, 1, 35)
    assert dan["head_to_head"] == [
        rival("Cy", losses=1, hands_won=1, hands_lost=1),
        rival("Ana", losses=1, hands_lost=2),
    ]
    ana = player_stats(store, "Ana").to_dict()
    # both partners win: Ana's second game, won; Ana played Ben (deals 1, 3, 5) and Dan
    assert (ana["games"], ana["finished"], ana["wins"], ana["losses"]) == (2, 2, 2, 0)
    assert ana["head_to_head"] == [
        rival("Cy", wins=1, hands_won=2),
        rival("Ben", games=2, wins=2, hands_won=1, hands_lost=2),
        rival("Dan", wins=1, hands_won=2),
    ]


def test_rematches_chain_games_and_the_tally_runs_over_them(store):
    """A game created ``follows`` another is stored with that link (both backends), and the
    tally sums each finished game's nets and settlements, seats mapped by name."""
    first, _ = games.create_game(store, ["Ana", "Ben"], {"target": 30}, 0, 0.1)
    games.add_hand(store, first.id, quick(0, 0, 10))  # Ana gin 35: over
    second, _ = games.create_game(store, ["ana", "BEN"], {"target": 30}, 0, 0.1, follows=first.id)
    assert store.game(second.id).follows == first.id
    assert store.game(first.id).follows is None
    games.add_hand(store, second.id, quick(1, 2, 40))  # Ben 38: over
    third, _ = games.create_game(store, ["Ana", "Ben"], {"target": 30}, 0, 0.1, follows=second.id)
    one = games.load_sheet(store, first.id).result
    two = games.load_sheet(store, second.id).result
    tally = rematch_tally(store, third.id).to_dict()
    assert tally["players"] == ["Ana", "Ben"] and tally["stake"] == 0.1
    assert [g["id"] for g in tally["games"]] == [first.id, second.id, third.id]
    assert [(g["number"], g["over"], g["winner"]) for g in tally["games"]] == [
        (1, True, 0),
        (2, True, 1),
        (3, False, None),
    ]
    assert tally["games"][0]["nets"] == list(one.nets)
    assert tally["games"][1]["nets"] == list(two.nets)
    running = [one.nets[0] + two.nets[0], one.nets[1] + two.nets[1]]
    assert tally["games"][1]["points"] == running == tally["games"][2]["points"]
    assert tally["games"][1]["settlement"] == [
        {"payer": 0, "payee": 1, "amount": two.settlement.amount}
    ]
    paid = one.settlement.amount - two.settlement.amount
    assert tally["games"][2]["money"] == [round(paid, 2), round(-paid, 2)]
    assert rematch_tally(store, first.id).to_dict()["games"][0]["points"] == list(one.nets)
    with pytest.raises(NotFound):
        games.create_game(store, ["Ana", "Ben"], follows="no-such-game")


def test_a_chain_stops_at_a_game_of_other_players_and_is_not_of_partnerships(store):
    first, _ = games.create_game(store, ["Ana", "Cy"])
    second, _ = games.create_game(store, ["Ana", "Ben"], follows=first.id)
    tally = rematch_tally(store, second.id).to_dict()
    assert [g["id"] for g in tally["games"]] == [second.id]
    assert tally["games"][0]["money"] is None and tally["games"][0]["points"] == [0, 0]
    assert tally["games"][0]["settlement"] == []
    three, _ = games.create_game(store, ["Ana", "Ben", "Cy"], follows=second.id)
    assert [g["id"] for g in rematch_tally(store, three.id).to_dict()["games"]] == [three.id]
    four, _ = games.create_game(store, ["Ana", "Ben", "Cy", "Di"])
    with pytest.raises(ValueError):
        rematch_tally(store, four.id).to_dict()
