"""An event's exports (api/events.py): standings and results as CSV and JSON, and the
event as a record that ``scorekeeper replay`` scores again (scorekeeper/rescore.py).

A small event is played through the API (every hand posted to its game) on a real
database; each export is read back (the CSV with the csv module) and compared with
GET /standings; the record is written to a file and replayed by the command line,
and the standings are recomputed from the replay's final totals.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections import Counter

import pytest
from click.testing import CliRunner
from test_api import Client, error_of, quick

from scorekeeper.cli import main
from scorekeeper.errors import RecordError
from scorekeeper.rescore import replay_any

PLAYERS = ["Ana", "Bor, Jr.", 'Zoë "Z" Ng', "Łukasz"]
"""Names a CSV must quote (a comma, quotes) or encode (not ASCII)."""

NAME = "Club night: Ljubljana, Maj"

KNOCK = {
    "knocker_cards": "As 2s 3s 7c 7d 7h 9d Td Jd 2c",
    "defender_cards": "4s 5s 6s 8c 8d 8h Kd Qd Jh Th",
}
"""A knock entered as cards (scored by verify_knock when the record is replayed)."""


@pytest.fixture
def call(app):
    return Client(app)


def create(call, players=PLAYERS):
    body = {"name": NAME, "players": players, "format": "round_robin"}
    response = call("POST", "/api/v1/events", json=body)
    assert response.status_code == 201, response.json
    return response.json


def pair(call, event):
    response = call(
        "POST",
        f"/api/v1/events/{event['id']}/rounds",
        headers={"Authorization": f"Bearer {event['director_token']}"},
    )
    assert response.status_code == 201, response.json
    return response.json["matches"]


def play(call, match, hands, to_the_end=True):
    """Post ``hands`` in turn (cycling) to the match's game until it ends, or just once
    each (``to_the_end`` false). Returns the game's last sheet."""
    auth = {"Authorization": f"Bearer {match['edit_token']}"}
    url = f"/api/v1/games/{match['game_id']}/hands"
    for hand in itertools.cycle(hands) if to_the_end else hands:
        response = call("POST", url, json=hand, headers=auth)
        assert response.status_code == 201, response.json
        if response.json["sheet"]["status"] == "over":
            break
    return response.json["sheet"]


def exports(call, event_id):
    """The four exports of the event: standings.csv, results.csv (parsed), results.json,
    record.json."""
    base = f"/api/v1/events/{event_id}/export"
    found = {}
    for what in ("standings", "results"):
        response = call("GET", f"{base}/{what}.csv")
        assert response.status_code == 200
        assert response.headers["Content-Type"].startswith("text/csv; charset=utf-8")
        assert response.headers["Content-Disposition"] == (
            f'attachment; filename="club-night-ljubljana-maj-{what}.csv"'
        )
        text = response.data.decode("utf-8")
        assert text.endswith("\r\n")  # RFC 4180 line ends
        found[what] = list(csv.DictReader(io.StringIO(text, newline="")))
    for what in ("results", "record"):
        response = call("GET", f"{base}/{what}.json")
        assert response.status_code == 200 and response.is_json
        found[f"{what}.json"] = response.json
    return found


def as_csv(value):
    """A JSON value as the CSV writes it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def replayed(tmp_path, record):
    """``scorekeeper replay --json`` of the record written to a file: its one JSON result."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    done = CliRunner().invoke(main, ["replay", "--json", str(path)])
    assert done.exit_code == 0, done.output
    (line,) = done.output.splitlines()
    return json.loads(line)


def recomputed(matches, byes):
    """won and net points per player from the replayed matches' winners and final totals."""
    won, net = Counter(byes), Counter()
    for match in matches:
        if match["winner"] is None:
            continue
        players, final = match["game"]["players"], match["final"]
        assert match["game"]["sheet"]["result"]["final"] == final
        won[match["winner"]] += 1
        net[players[0]] += final[0] - final[1]
        net[players[1]] += final[1] - final[0]
    return won, net


def test_a_round_robin_exported_and_replayed(call, tmp_path):
    event = create(call)
    turn = itertools.count()
    games = {}
    for _ in range(3):
        for match in pair(call, event):
            n = next(turn)
            hands = [quick(n % 2, 0, 10 + n), quick(1 - n % 2, 4, 9 + n % 3)]
            if n == 0:  # one knock entered as cards (a knock for 18: 2 against 20)
                hands.insert(0, {"kind": "cards", "knocker": 0, **KNOCK})
            games[match["game_id"]] = play(call, match, hands)
    standings = call("GET", f"/api/v1/events/{event['id']}/standings").json["standings"]
    found = exports(call, event["id"])

    # standings.csv: the standings, line for line, every column
    assert list(found["standings"][0]) == list(standings[0])
    assert found["standings"] == [
        {key: as_csv(value) for key, value in line.items()} for line in standings
    ]
    assert {row["player"] for row in found["standings"]} == set(PLAYERS)

    # results.json: the event, the standings and one result per match, from the games
    body = found["results.json"]
    assert body["standings"] == standings
    assert body["event"] == {
        "id": event["id"],
        "name": NAME,
        "players": PLAYERS,
        "format": "round_robin",
        "round_count": None,
        "rules": body["event"]["rules"],
        "stake": None,
        "created": body["event"]["created"],
        "entries": [],
        "withdrawals": [],
        "over": True,
    }
    results = body["results"]
    assert [(r["round"], r["table"]) for r in results] == [
        (1, 1),
        (1, 2),
        (2, 1),
        (2, 2),
        (3, 1),
        (3, 2),
    ]
    for row in results:
        sheet = games[row["game_id"]]
        assert [row["player_a"], row["player_b"]] == sheet["players"]
        assert row["finished"] is True
        assert row["winner"] == sheet["players"][sheet["result"]["winner"]]
        assert [row["total_a"], row["total_b"]] == sheet["result"]["final"]
    # results.csv: the same rows
    assert found["results"] == [{key: as_csv(value) for key, value in r.items()} for r in results]

    # record.json: every match's game as GET /games/{id}/export gives it, labelled
    record = found["record.json"]
    assert record["format"] == "scorekeeper.event" and record["version"] == 1
    assert [(g["round"], g["table"], g["game_id"]) for g in record["games"]] == [
        (r["round"], r["table"], r["game_id"]) for r in results
    ]
    for item in record["games"]:
        exported = call("GET", f"/api/v1/games/{item['game_id']}/export").json
        assert item["game"] == exported
    assert record["rounds"] == [{"number": n, "byes": [], "walkovers": []} for n in (1, 2, 3)]

    # scorekeeper replay scores every game again: the same totals, the same standings
    again = replayed(tmp_path, record)
    assert [m["game_id"] for m in again["matches"]] == [r["game_id"] for r in results]
    assert [m["final"] for m in again["matches"]] == [[r["total_a"], r["total_b"]] for r in results]
    won, net = recomputed(again["matches"], [])
    assert {line["player"]: (line["won"], line["net_points"]) for line in standings} == {
        name: (won[name], net[name]) for name in PLAYERS
    }
    assert again["standings"] == standings
    assert again["event"]["name"] == NAME


def test_an_unfinished_event_exports_its_unfinished_matches(call, tmp_path):
    players = [*PLAYERS[:2], PLAYERS[3]]  # three players: a bye each round
    event = create(call, players)
    (match,) = pair(call, event)
    play(call, match, [quick(0, 0, 25), quick(1, 3, 20)], to_the_end=False)
    standings = call("GET", f"/api/v1/events/{event['id']}/standings").json["standings"]
    found = exports(call, event["id"])

    assert found["standings"] == [
        {key: as_csv(value) for key, value in line.items()} for line in standings
    ]
    (row,) = found["results.json"]["results"]
    assert row["finished"] is False and row["winner"] is None
    assert row["total_a"] is None and row["total_b"] is None
    (line,) = found["results"]
    assert (line["finished"], line["winner"], line["total_a"], line["total_b"]) == (
        "false",
        "",
        "",
        "",
    )
    assert found["results.json"]["event"]["over"] is False

    record = found["record.json"]
    (bye,) = record["rounds"][0]["byes"]
    again = replayed(tmp_path, record)
    (rescored,) = again["matches"]
    assert rescored["winner"] is None and rescored["final"] is None
    assert rescored["game"]["sheet"]["over"] is False
    assert len(rescored["game"]["sheet"]["hands"]) == 2
    won, net = recomputed(again["matches"], [bye])
    assert again["standings"] == standings
    assert {line["player"]: (line["won"], line["net_points"]) for line in standings} == {
        name: (won[name], net[name]) for name in players
    }


def test_replay_names_the_match_and_hand_of_a_bad_record(call, tmp_path):
    event = create(call, PLAYERS[:2])
    (match,) = pair(call, event)
    play(call, match, [quick(0, 0, 30)])
    record = call("GET", f"/api/v1/events/{event['id']}/export/record.json").json
    record["games"][0]["game"]["hands"][1]["knocker_deadwood"] = 99
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = CliRunner().invoke(main, ["replay", "--json", str(path)])
    assert done.exit_code == 1
    refusal = json.loads(done.stdout.splitlines()[0])
    assert refusal["error"].startswith("round 1, table 1: hand 2: ")
    assert refusal["field"] == "games.0.game.hands.1.knocker_deadwood"

    human = CliRunner().invoke(main, ["replay", str(path.with_name("good.json"))])
    assert human.exit_code == 2  # no such file
    path.with_name("good.json").write_text(
        json.dumps(call("GET", f"/api/v1/events/{event['id']}/export/record.json").json),
        encoding="utf-8",
    )
    human = CliRunner().invoke(main, ["replay", str(path.with_name("good.json"))])
    assert human.exit_code == 0, human.output
    assert "round 1, table 1: Ana vs Bor, Jr.: Ana wins" in human.output
    assert "1. Ana: won 1, lost 0" in human.output


def test_an_unknown_event_has_no_exports(call):
    base = "/api/v1/events/AAAAAAAAAAAAAAAA/export"
    for what in ("standings.csv", "results.csv", "results.json", "record.json"):
        error_of(call("GET", f"{base}/{what}"), 404)


def test_replay_scores_an_exported_game_again(call, tmp_path):
    """A four-player game (partnerships, a deal of two games a hand) exported and replayed:
    the same sheet."""
    new = call(
        "POST",
        "/api/v1/games",
        json={"dealer": 0, "players": ["Ana", "Bor", "Cy", "Dan"], "rules": {"target": 100}},
    ).json
    auth = {"Authorization": f"Bearer {new['edit_token']}"}
    sheet = new["game"]
    while not sheet["over"]:
        games = [quick(game["players"][0], 0, 25) for game in sheet["next_games"]]
        response = call(
            "POST",
            f"/api/v1/games/{new['id']}/hands",
            json={"kind": "deal", "games": games},
            headers=auth,
        )
        assert response.status_code == 201, response.json
        sheet = response.json["sheet"]
    exported = call("GET", f"/api/v1/games/{new['id']}/export").json
    path = tmp_path / "game.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    done = CliRunner().invoke(main, ["replay", "--json", str(path)])
    assert done.exit_code == 0, done.output
    again = json.loads(done.output)
    assert again["players"] == sheet["players"]
    for key in ("totals", "boxes", "over", "result", "teams"):
        assert again["sheet"][key] == sheet[key]
    human = CliRunner().invoke(main, ["replay", str(path)])
    assert human.exit_code == 0, human.output
    assert "Ana & Cy" in human.output and "wins: final" in human.output


BAD_RECORDS = {
    "a version to come": ({"version": 2}, "version must be 1", "version"),
    "no event": ({"event": None}, "event must be an object", "event"),
    "a number for a name": (
        {"event": {"players": ["Ana", 7], "format": "swiss", "round_count": 1}},
        "event.players must be a list of names",
        "event.players",
    ),
    "a name twice": (
        {"event": {"players": ["Ana", "Ana"], "format": "round_robin"}},
        "event: players: 'Ana' is named twice",
        "event.players",
    ),
    "an unknown format": (
        {"event": {"players": ["Ana", "Bor"], "format": "ladder"}},
        "event.format must be one of",
        "event.format",
    ),
    "a game of no round": (
        {"games": [{"round": 2, "table": 1, "game": {}}]},
        "games.0 must be an object with its round (1 to 1)",
        "games.0",
    ),
    "a game that is no export": (
        {"games": [{"round": 1, "table": 1, "game": {"format": "gin-rummy-match/1"}}]},
        "round 1, table 1: format must be 'scorekeeper.game'",
        "games.0.game.format",
    ),
}


@pytest.mark.parametrize("change, message, field", BAD_RECORDS.values(), ids=BAD_RECORDS)
def test_a_bad_event_record_is_refused_by_name(change, message, field):
    record = {
        "format": "scorekeeper.event",
        "version": 1,
        "event": {"players": ["Ana", "Bor"], "format": "round_robin", "round_count": None},
        "rounds": [{"number": 1, "byes": []}],
        "games": [],
        **change,
    }
    with pytest.raises(RecordError) as refused:
        replay_any(record)
    assert message in str(refused.value) and refused.value.field == field


def test_the_command_line_exports_what_the_api_does(call, backend, tmp_path):
    event = create(call, PLAYERS[:3])
    for _ in range(2):
        for match in pair(call, event):
            play(call, match, [quick(1, 2, 30)])
    base = f"/api/v1/events/{event['id']}/export"
    for what, path in (
        ("standings", "standings.csv"),
        ("results", "results.csv"),
        ("record", "record.json"),
    ):
        out = tmp_path / path
        done = CliRunner().invoke(
            main,
            ["event", "export", event["id"], "--what", what, "--db", backend.address, "-o", out],
        )
        assert done.exit_code == 0, done.output
        served = call("GET", f"{base}/{path}")
        if path.endswith(".json"):
            assert json.loads(out.read_text(encoding="utf-8")) == served.json
        else:
            assert out.read_bytes() == served.data
    done = CliRunner().invoke(
        main, ["event", "export", "AAAAAAAAAAAAAAAA", "--db", backend.address]
    )
    assert done.exit_code == 2 and "there is no event 'AAAAAAAAAAAAAAAA'" in done.output


def test_a_match_the_director_ended_replays_as_ended(call, tmp_path):
    event = create(call, PLAYERS[:2])
    (match,) = pair(call, event)
    play(call, match, [quick(1, 2, 20)], to_the_end=False)  # seat 1 leads 18 to 0
    response = call(
        "POST",
        f"/api/v1/events/{event['id']}/matches/{match['game_id']}/end",
        headers={"Authorization": f"Bearer {event['director_token']}"},
    )
    assert response.status_code == 200, response.json
    play(call, match, [quick(0, 0, 30)])  # the game goes on to its end; the event keeps the end
    standings = call("GET", f"/api/v1/events/{event['id']}/standings").json["standings"]
    record = exports(call, event["id"])["record.json"]
    (game,) = record["games"]
    assert game["ended_by_director"] == {"winner": match["players"][1], "totals": [0, 18]}
    again = replayed(tmp_path, record)
    assert again["standings"] == standings
    assert standings[0]["player"] == match["players"][1] and standings[0]["net_points"] == 18
    game["ended_by_director"] = {"winner": "Nobody", "totals": [0, 18]}
    with pytest.raises(RecordError) as refused:
        replay_any(record)
    assert refused.value.field == "games.0.ended_by_director"
