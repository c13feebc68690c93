"""Events played to their end through the API (issue 22): a 16-player Swiss of four rounds
and an 8-player double elimination whose grand final is reset.

The director pairs each round (``POST /events/{id}/rounds``); each table
enters quick hands into its match's game with the match's edit token until
the game is over, the winner chosen by the test (the better seed, with
upsets, so that the brackets and score groups are exercised). The served
standings are compared with :func:`event_kit.reference_standings`, computed
from the games' own final totals (``GET /games/{id}``). Both backends.
"""

from __future__ import annotations

from collections import Counter

from event_kit import Final, reference_standings, seats_to_win, served_lines
from test_api_events import EIGHT, call, create, pair, play_to_the_end  # noqa: F401  (call is a fixture)

SIXTEEN = [f"P{seed:02}" for seed in range(1, 17)]


def better_seed_wins(players: list[str], roster: list[str], upset: bool) -> int:
    """The index (0 or 1) of the winner: the better seed, or the other on an upset."""
    first, second = (roster.index(name) for name in players)
    return int((first > second) != upset)


def finals_of(call, game_ids: list[str]) -> list[Final]:  # noqa: F811
    """Each game's (players, final totals, winner's index), as ``GET /games/{id}`` tells."""
    finals = []
    for game_id in game_ids:
        sheet = call("GET", f"/api/v1/games/{game_id}").json
        assert sheet["status"] == "over"
        finals.append((sheet["players"], sheet["result"]["final"], sheet["result"]["winner"]))
    return finals


def test_a_sixteen_player_swiss_of_four_rounds_played_to_the_end(call):  # noqa: F811
    event = create(call, name="Swiss night", players=SIXTEEN, format="swiss", rounds=4)
    rounds = []  # each round's matches as paired
    for number in range(1, 5):
        paired = pair(call, event)
        assert paired["number"] == number and paired["byes"] == [] and paired["bye"] is None
        matches = paired["matches"]
        seated = [name for match in matches for name in match["players"]]
        assert sorted(seated) == SIXTEEN  # everyone plays every round, once
        if number == 2:  # winners meet winners, losers meet losers
            first = finals_of(call, [m["game_id"] for m in rounds[0]])
            winners = {players[winner] for players, _, winner in first}
            assert len(winners) == 8
            assert all(len(winners & set(m["players"])) in (0, 2) for m in matches)
        for match in matches:
            winner = better_seed_wins(match["players"], SIXTEEN, (number + match["table"]) % 3 == 0)
            # one margin for every match: net points follow the wins, so the
            # opponents' wins and then head to head decide between players level on wins
            sheet = play_to_the_end(call, match, seats_to_win(winner, 20))
            assert sheet["result"]["winner"] == winner
        rounds.append(matches)
    assert pair(call, event, 409)["error"]["code"] == "event_over"

    finals = finals_of(call, [m["game_id"] for matches in rounds for m in matches])
    meetings = Counter(frozenset(players) for players, _, _ in finals)
    assert len(meetings) == 32 and set(meetings.values()) == {1}  # no pair met twice
    standings = call("GET", f"{event['url']}/standings").json["standings"]
    expected = reference_standings(SIXTEEN, finals, swiss=True)
    assert served_lines(standings) == expected
    assert all(line["played"] == 4 and line["byes"] == 0 for line in standings)
    # the tie-breaks were needed: players level on wins and net points, told apart
    level = Counter((won, net) for _, _, won, _, net, _ in expected)
    assert max(level.values()) > 1
    assert len({rank for rank, *_ in expected}) > len(level)
    whole = call("GET", event["url"]).json
    assert whole["over"] and whole["standings"] == standings


def test_an_eight_player_double_elimination_with_a_grand_final_reset(call):  # noqa: F811
    event = create(call, name="Cup", format="double_elimination")
    losses: Counter[str] = Counter()
    rounds = []  # each round's matches as paired
    final_side = None  # the player who came to the grand final from the losers' bracket
    while len(alive := [name for name in EIGHT if losses[name] < 2]) > 1:
        paired = pair(call, event)
        matches = paired["matches"]
        assert paired["number"] == len(rounds) + 1 and paired["byes"] == []
        seated = [name for match in matches for name in match["players"]]
        assert len(set(seated)) == len(seated)
        assert all(losses[name] < 2 for name in seated)  # nobody plays on after two losses
        for match in matches:
            players = match["players"]
            if len(alive) == 2:  # the grand final and its reset: the losers' side wins both
                if final_side is None:
                    assert sorted(losses[name] for name in players) == [0, 1]
                    final_side = next(name for name in players if losses[name] == 1)
                winner = players.index(final_side)
            else:
                upset = (paired["number"] + match["table"]) % 3 == 0
                winner = better_seed_wins(players, EIGHT, upset)
            margin = (7 * paired["number"] + 5 * match["table"]) % 31
            sheet = play_to_the_end(call, match, seats_to_win(winner, margin))
            assert sheet["result"]["winner"] == winner
            losses[players[1 - winner]] += 1
        rounds.append(matches)
    assert pair(call, event, 409)["error"]["code"] == "event_over"

    grand_final, reset = rounds[-2], rounds[-1]
    assert len(grand_final) == len(reset) == 1  # the reset round exists
    assert set(reset[0]["players"]) == set(grand_final[0]["players"])
    champion = final_side
    assert losses[champion] == 1  # beaten once, in the winners' bracket
    assert all(losses[name] == 2 for name in EIGHT if name != champion)
    assert sum(len(matches) for matches in rounds) == sum(losses.values()) == 2 * len(EIGHT) - 1

    finals = finals_of(call, [m["game_id"] for matches in rounds for m in matches])
    reset_players, _, reset_winner = finals[-1]
    assert reset_players[reset_winner] == champion  # the reset decides the champion
    standings = call("GET", f"{event['url']}/standings").json["standings"]
    assert served_lines(standings) == reference_standings(EIGHT, finals, swiss=False)
    assert standings[0]["player"] == champion
    whole = call("GET", event["url"]).json
    assert whole["over"] and whole["standings"] == standings
