"""The director's roster changes over the API (api/event_roster.py): withdrawals, late
entries and swaps, their refusals, and issue 29's scenario: a 40-player Swiss of 5 rounds
with two withdrawals after round 2 and a late entry before round 3, played through the
API, with no rematch and the standings equal to a recomputation from the stored games.

Every response is validated against the served OpenAPI document (test_api's Client).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from event_kit import reference_standings, seats_to_win, served_lines
from test_api import Client, error_of, quick
from test_api_events import create, pair, play_to_the_end

from scorekeeper.rescore import rescore_event

# SQLite only (the marker's effect): tests/test_store_event_roster.py runs the roster's
# store on both backends; these tests are about the API, and the 40-player night costs seconds
pytestmark = pytest.mark.one_backend

FORTY = [f"Player {n:02d}" for n in range(1, 41)]


@pytest.fixture
def call(app):
    return Client(app)


def director(event):
    return {"Authorization": f"Bearer {event['director_token']}"}


def roster(call, event, what, player, status):
    """POST ``{"player"}`` to the event's ``what`` (withdrawals, entries) as its director."""
    url = f"/api/v1/events/{event['id']}/{what}"
    response = call("POST", url, json={"player": player}, headers=director(event))
    assert response.status_code == status, response.json
    return response.json


def withdraw(call, event, player, status=200):
    return roster(call, event, "withdrawals", player, status)


def enter(call, event, player, status=201):
    return roster(call, event, "entries", player, status)


def swap(call, event, number, players, status=200, **extra):
    response = call(
        "POST",
        f"/api/v1/events/{event['id']}/rounds/{number}/swaps",
        json={"players": players, **extra},
        headers=director(event),
    )
    assert response.status_code == status, response.json
    return response.json


def play_round(call, paired, rng, finals):
    """Play every match of ``paired`` to a random winner and margin; each game's own
    final sheet is added to ``finals`` as (players, final totals, winner's index)."""
    for match in paired["matches"]:
        seats = seats_to_win(rng.randrange(2), rng.randrange(59))
        sheet = play_to_the_end(call, match, seats)
        finals.append((sheet["players"], sheet["result"]["final"], sheet["result"]["winner"]))


def test_forty_player_swiss_with_two_withdrawals_and_a_late_entry(call):
    event = create(call, players=FORTY, format="swiss", rounds=5)
    rng = random.Random(29)
    finals, pairs, byes = [], [], Counter()
    gone = ["Player 07", "Player 31"]
    for number in range(1, 6):
        if number == 3:
            for name in gone:
                shown = withdraw(call, event, name.upper())  # letter case does not count
            assert shown["withdrawals"] == [{"player": name, "round": 3} for name in gone]
            shown = enter(call, event, "Late Comer")
            assert shown["players"] == [*FORTY, "Late Comer"]
            assert shown["entries"] == [{"player": "Late Comer", "round": 3}]
            line = {li["player"]: li for li in shown["standings"]}
            assert line["Late Comer"]["won"] == line["Late Comer"]["played"] == 0
        paired = pair(call, event)
        seated = [name for match in paired["matches"] for name in match["players"]]
        seated += paired["byes"]
        expected = set(FORTY) if number < 3 else set(FORTY) - set(gone) | {"Late Comer"}
        assert sorted(seated) == sorted(expected)  # everyone playing once, nobody else
        byes.update(paired["byes"])
        pairs += [frozenset(match["players"]) for match in paired["matches"]]
        play_round(call, paired, rng, finals)
    assert pair(call, event, 409)["error"]["code"] == "event_over"

    assert len(pairs) == len(set(pairs))  # no rematch
    assert all(count == 1 for count in byes.values()) and len(byes) == 3  # 39 players: a bye
    shown = call("GET", event["url"]).json
    assert shown["over"]
    # the standings, recomputed from the games' own final sheets and the byes
    reference = reference_standings([*FORTY, "Late Comer"], finals, swiss=True, byes=byes)
    assert served_lines(shown["standings"]) == reference
    marks = {line["player"]: line["withdrawn"] for line in shown["standings"]}
    assert marks == {name: 3 if name in gone else None for name in [*FORTY, "Late Comer"]}
    played = {line["player"]: line["played"] for line in shown["standings"]}
    assert [played[name] for name in gone] == [2, 2]
    assert played["Late Comer"] + byes["Late Comer"] == 3


def test_a_knockout_opponent_goes_through_by_walkover(call):
    event = create(call, players=["Ana", "Bor", "Cy", "Dan"], format="single_elimination")
    first = pair(call, event)
    for match in first["matches"]:
        play_to_the_end(call, match, seats_to_win(0, 10))  # Ana and Bor win
    shown = withdraw(call, event, "Bor")
    assert shown["withdrawals"] == [{"player": "Bor", "round": 2}]
    final = pair(call, event)
    assert final["matches"] == [] and final["walkovers"] == [{"winner": "Ana", "withdrawn": "Bor"}]
    shown = call("GET", event["url"]).json
    assert shown["over"]
    assert shown["rounds"][1]["walkovers"] == [{"winner": "Ana", "withdrawn": "Bor"}]
    lines = {line["player"]: line for line in shown["standings"]}
    assert (lines["Ana"]["won"], lines["Ana"]["walkovers"], lines["Ana"]["played"]) == (2, 1, 1)
    assert (lines["Bor"]["won"], lines["Bor"]["lost"], lines["Bor"]["withdrawn"]) == (1, 0, 2)
    assert shown["standings"][0]["player"] == "Ana"
    # the event's record scores again to the same standings, walkover and withdrawal kept
    record = call("GET", f"{event['url']}/export/record.json").json
    assert record["event"]["withdrawals"] == [{"player": "Bor", "round": 2}]
    assert list(rescore_event(record).standings) == shown["standings"]
    assert withdraw(call, event, "Cy", 409)["error"]["code"] == "event_over"


def test_withdrawal_refusals(call):
    event = create(call, players=["Ana", "Bor", "Cy", "Dan"], format="swiss", rounds=2)
    url = f"/api/v1/events/{event['id']}/withdrawals"
    error_of(call("POST", url, json={"player": "Ana"}), 401)
    wrong = {"Authorization": "Bearer nope"}
    error_of(call("POST", url, json={"player": "Ana"}, headers=wrong), 403)
    error_of(call("POST", url, json={}, headers=director(event)), 422, field="player")
    unknown = call("POST", url, json={"player": "Zed"}, headers=director(event))
    assert error_of(unknown, 422, field="player")["reason"] == "unknown_player"
    withdraw(call, event, "Ana")
    again = call("POST", url, json={"player": "ana"}, headers=director(event))
    error_of(again, 409, "already_withdrawn")
    withdraw(call, event, "Bor")
    assert withdraw(call, event, "Cy", 409)["error"]["code"] == "too_few_players"
    first = pair(call, event)
    assert sorted(first["matches"][0]["players"]) == ["Cy", "Dan"] and first["byes"] == []
    # every round paired (the last still played): no round is left to withdraw from
    short = create(call, players=["Ana", "Bor", "Cy", "Dan"], format="swiss", rounds=1)
    pair(call, short)
    assert withdraw(call, short, "Cy", 409)["error"]["code"] == "event_over"


def test_late_entries_close_where_the_format_says(call):
    for kind in ("round_robin", "single_elimination", "double_elimination"):
        event = create(call, players=["Ana", "Bor", "Cy"], format=kind)
        shown = enter(call, event, "Dan")  # before round 1: every format takes one
        assert shown["players"] == ["Ana", "Bor", "Cy", "Dan"]
        assert len(pair(call, event)["matches"]) == 2
        refused = enter(call, event, "Eva", 409)["error"]
        assert refused["code"] == "entries_closed"
    swiss = create(call, players=["Ana", "Bor", "Cy", "Dan"], format="swiss", rounds=2)
    assert enter(call, swiss, " ANA ", 409)["error"]["code"] == "already_entered"
    first = pair(call, swiss)
    shown = enter(call, swiss, "Eva")  # while round 1 is played: from round 2
    assert shown["entries"] == [{"player": "Eva", "round": 2}]
    for match in first["matches"]:
        play_to_the_end(call, match, seats_to_win(1, 5))
    second = pair(call, swiss)
    assert "Eva" in [*second["byes"], *(p for m in second["matches"] for p in m["players"])]
    assert enter(call, swiss, "Fil", 409)["error"]["code"] == "entries_closed"


def test_swaps_warn_of_a_rematch_and_stop_once_a_table_began(call):
    names = ["Ana", "Bor", "Cy", "Dan", "Eva", "Fil"]
    event = create(call, players=names, format="swiss", rounds=3)
    first = pair(call, event)
    for match in first["matches"]:
        play_to_the_end(call, match, seats_to_win(0, 5))
    second = pair(call, event)
    tables = [m["players"] for m in second["matches"]]
    met = {frozenset(m["players"]) for m in first["matches"]}
    # a swap that makes a first-round pair meet again
    a, b = (
        tables[0][0],
        next(p for t in tables[1:] for p in t if frozenset((tables[0][1], p)) in met),
    )
    refused = swap(call, event, 2, [a, b], 409)["error"]
    assert refused["code"] == "rematch" and refused["params"]["pairs"]
    for not_a_flag in (1, "yes"):  # JSON's true only: nothing swapped
        assert swap(call, event, 2, [a, b], 422, confirm=not_a_flag)["error"]["field"] == "confirm"
    assert call("GET", event["url"]).json["rounds"][1]["matches"][0]["players"] == tables[0]
    done = swap(call, event, 2, [a, b], confirm=True)
    assert done["rematches"] and len(done["matches"]) == 2
    shown = call("GET", event["url"]).json["rounds"][1]
    after = {frozenset(m["players"]) for m in shown["matches"]}
    assert frozenset((b, tables[0][1])) in after
    assert {m["game_id"] for m in done["matches"]} <= {m["game_id"] for m in shown["matches"]}
    # one hand at a swapped table: its players can no longer be swapped
    match = done["matches"][0]
    hand = call(
        "POST",
        f"/api/v1/games/{match['game_id']}/hands",
        json=quick(0, 2, 9),
        headers={"Authorization": f"Bearer {match['edit_token']}"},
    )
    assert hand.status_code == 201, hand.json
    other = next(m for m in shown["matches"] if m["game_id"] != match["game_id"])
    began = swap(call, event, 2, [match["players"][0], other["players"][0]], 409)["error"]
    assert began["code"] == "swap_started"
    same = swap(call, event, 2, list(other["players"]), 422)["error"]
    assert same["field"] == "players"
    assert swap(call, event, 1, [a, b], 409)["error"]["code"] == "round_not_last"
    error_of(
        call(
            "POST",
            f"/api/v1/events/{event['id']}/rounds/3/swaps",
            json={"players": [a, b]},
            headers=director(event),
        ),
        404,
    )


def test_round_robin_and_knockouts_take_no_swap(call):
    for kind in ("round_robin", "single_elimination"):
        event = create(call, players=["Ana", "Bor", "Cy", "Dan"], format=kind)
        pair(call, event)
        refused = swap(call, event, 1, ["Ana", "Bor"], 409)["error"]
        assert refused["code"] == "swap_not_allowed"
