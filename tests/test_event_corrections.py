"""Knockouts whose finished matches are corrected at random moments (issue 26, item 7).

Random single and double eliminations of 5 to 16 players (seeded) are played
through the API (Flask's test client over a real SQLite file, every answer
validated against the served OpenAPI document). After each round is paired and
after each match ends, a finished match may be changed at random: its last hand
corrected so that the other player wins, corrected so that the same player
wins by other points, or undone. The change must be refused (409
``decided_later_pairing`` naming the match and the later round) exactly when it
changes the match's winner and one of its two players already plays (or has a
bye) in a later paired round; that is worked out here from the rounds as paired,
apart from the server's bracket. A refused change is then sometimes retried
after the director withdraws the rounds from that later round on, which must
succeed while none of their tables has a hand (409 ``round_started`` otherwise).

After every change: the event, its standings, its pages (event, wall, director)
and its four exports answer and parse; the standings equal
:func:`event_kit.reference_standings` over the games' own final totals and the
byes as paired; every paired player had fewer losses than put them out when
their round was paired; at the end the event is over and everybody but the
champion is out. The command line's ``event export`` writes all three exports.
"""

from __future__ import annotations

import csv
import html
import io
import json
import random
from collections import Counter

import pytest
from click.testing import CliRunner
from conftest import fast_first, serving_database
from event_kit import reference_standings, seats_to_win, served_lines
from test_api import Client, quick, spec  # noqa: F401  (spec is a fixture)
from test_pad_events import create as create_on_the_pad
from test_pad_events import pair as pair_on_the_pad
from test_pad_rights import fields, page

from scorekeeper.cli import main
from scorekeeper.rules import Rules
from scorekeeper.store import Storage
from scorekeeper.store.event_types import NewMatch
from scorekeeper.store.events import match_key
from scorekeeper.store.games import (
    check_new_game,
    derive_token,
    empty_summary,
    hash_token,
    new_game_id,
    new_token,
)

SEEDS = fast_first(range(8))
"""The random events played (each up to a few seconds): the first alone in the fast tier."""

KINDS = ("flip", "keep", "undo")
"""A change to a finished match: its winner changed, its points changed, its last hand undone."""


@pytest.fixture
def call(module_app, db, spec):  # noqa: F811
    with serving_database(module_app, db) as app:
        yield Client(app, spec)


class Night:
    """A knockout played through the API, with the rounds as the director paired them."""

    def __init__(self, call, rng: random.Random, db):
        self.call, self.rng, self.db = call, rng, db
        count = rng.randint(5, 16)
        self.double = rng.random() < 0.5
        self.players = [f"P{seed:02}" for seed in range(1, count + 1)]
        body = {
            "name": "Cup night",
            "players": self.players,
            "format": "double_elimination" if self.double else "single_elimination",
        }
        created = call("POST", "/api/v1/events", json=body)
        assert created.status_code == 201, created.json
        self.id, self.url = created.json["id"], created.json["url"]
        self.director = {"Authorization": f"Bearer {created.json['director_token']}"}
        self.pad = call.app.test_client()
        self.pad.set_cookie(
            "sk_director", created.json["director_token"], path=f"/events/{self.id}"
        )
        self.rounds: list[dict] = []  # as paired: number, matches (with edit tokens), byes
        self.refusals = self.allowed = self.withdrawn = 0

    # ------------------------------------------------------------------ playing

    def sheet(self, match) -> dict:
        return self.call("GET", f"/api/v1/games/{match['game_id']}").json

    def losses(self) -> Counter[str]:
        lost: Counter[str] = Counter()
        for round_ in self.rounds:
            for match in round_["matches"]:
                sheet = self.sheet(match)
                if sheet["status"] == "over":
                    lost[match["players"][1 - sheet["result"]["winner"]]] += 1
        return lost

    def pair(self) -> bool:
        """Pair the next round (False once the event is over); check who plays in it."""
        out = self.losses()
        response = self.call("POST", f"{self.url}/rounds", headers=self.director)
        if response.status_code == 409:
            assert response.json["error"]["code"] == "event_over", response.json
            return False
        assert response.status_code == 201, response.json
        paired = response.json
        assert paired["number"] == len(self.rounds) + 1
        seated = [name for m in paired["matches"] for name in m["players"]] + paired["byes"]
        assert len(seated) == len(set(seated))
        assert all(out[name] < (2 if self.double else 1) for name in seated), (seated, out)
        self.rounds.append(paired)
        return True

    def play(self, match) -> None:
        """Quick hands at the match's table until its game is over, the winner at random."""
        winner, margin = self.rng.randrange(2), self.rng.randrange(59)
        auth = {"Authorization": f"Bearer {match['edit_token']}"}
        for knocker, own, other in seats_to_win(winner, margin, self.rng.randrange(3)) * 3:
            response = self.call(
                "POST",
                f"/api/v1/games/{match['game_id']}/hands",
                json=quick(knocker, own, other),
                headers=auth,
            )
            assert response.status_code == 201, response.json
            if response.json["sheet"]["status"] == "over":
                return
        raise AssertionError("the game did not end")

    def finish_all(self) -> None:
        """Play every unfinished match (of this round, or one an undo reopened)."""
        while open_ := [
            match
            for round_ in self.rounds
            for match in round_["matches"]
            if self.sheet(match)["status"] != "over"
        ]:
            self.play(open_[0])
            self.maybe_change()

    # ------------------------------------------------------------------ changing

    def later_round(self, number: int, players) -> int | None:
        """The first round after ``number`` in which one of ``players`` plays or sits out."""
        for round_ in self.rounds[number:]:
            seated = [n for m in round_["matches"] for n in m["players"]] + round_["byes"]
            if set(players) & set(seated):
                return round_["number"]
        return None

    def maybe_change(self) -> None:
        if self.rng.random() < 0.45:
            self.change()
            self.check()

    def change(self) -> None:
        finished = [
            (round_["number"], match)
            for round_ in self.rounds
            for match in round_["matches"]
            if self.sheet(match)["status"] == "over"
        ]
        if not finished:
            return
        number, match = self.rng.choice(finished)
        kind = self.rng.choice(KINDS)
        later = self.later_round(number, match["players"])
        response = self.send(kind, match)
        if kind != "keep" and later is not None:
            self.refusals += 1
            assert response.status_code == 409, response.json
            error = response.json["error"]
            assert error["code"] == "decided_later_pairing"
            assert error["params"]["round"] == number
            assert error["params"]["table"] == match["table"]
            assert error["params"]["later_round"] == later
            assert f"round {later}" in error["message"]
            if self.rng.random() < 0.6 and self.withdraw_from(later):
                response = self.send(kind, match)
                assert response.status_code == 200, response.json
        else:
            self.allowed += 1
            assert response.status_code == 200, response.json

    def send(self, kind: str, match):
        """Undo the match's last hand, or score it again so that the other player
        (``flip``) or the same player (``keep``) reaches the target with it."""
        url = f"/api/v1/games/{match['game_id']}"
        auth = {"Authorization": f"Bearer {match['edit_token']}"}
        if kind == "undo":
            return self.call("DELETE", f"{url}/hands/last", headers=auth)
        sheet = self.sheet(match)
        winner = sheet["result"]["winner"]
        ginner = 1 - winner if kind == "flip" else winner
        hands = sheet["hands"]
        before = hands[-2]["totals"][ginner] if len(hands) > 1 else 0
        deadwood = max(1, 75 - before) + self.rng.randrange(1, 9)
        return self.call(
            "PUT", f"{url}/hands/{len(hands)}", json=quick(ginner, 0, deadwood), headers=auth
        )

    def withdraw_from(self, later: int) -> bool:
        """Withdraw the rounds from the last down to ``later``: False (and the rest kept)
        at the first one a table has started, which the server must refuse so."""
        while self.rounds and self.rounds[-1]["number"] >= later:
            last = self.rounds[-1]
            started = any(self.sheet(m)["hands"] for m in last["matches"])
            response = self.call(
                "DELETE", f"{self.url}/rounds/{last['number']}", headers=self.director
            )
            if started:
                assert response.status_code == 409, response.json
                assert response.json["error"]["code"] == "round_started"
                return False
            assert response.status_code == 204, response.get_data(as_text=True)
            self.rounds.pop()
            self.withdrawn += 1
        return True

    # ------------------------------------------------------------------ checking

    def check(self) -> dict:
        """Everything the event shows answers and agrees; returns the event's JSON."""
        whole = self.call("GET", self.url)
        assert whole.status_code == 200, whole.json
        body = whole.json
        assert body["stale_round"] is None
        assert [r["number"] for r in body["rounds"]] == [r["number"] for r in self.rounds]
        finals = []
        for round_ in self.rounds:
            for match in round_["matches"]:
                sheet = self.sheet(match)
                if sheet["status"] == "over":
                    result = sheet["result"]
                    finals.append((sheet["players"], result["final"], result["winner"]))
        byes = Counter(name for round_ in self.rounds for name in round_["byes"])
        standings = self.call("GET", f"{self.url}/standings").json["standings"]
        assert standings == body["standings"]
        expected = reference_standings(self.players, finals, swiss=False, byes=byes)
        assert served_lines(standings) == expected
        assert {line["player"]: line["byes"] for line in standings} == {
            name: byes[name] for name in self.players
        }
        for path in ("", "/wall", "/director"):
            shown = self.pad.get(f"/events/{self.id}{path}")
            assert shown.status_code == 200, (path, shown.status_code)
        results = self.call("GET", f"{self.url}/export/results.csv")
        rows = list(csv.DictReader(io.StringIO(results.get_data(as_text=True))))
        assert len(rows) == sum(len(r["matches"]) for r in self.rounds)
        table = self.call("GET", f"{self.url}/export/standings.csv").get_data(as_text=True)
        lines = list(csv.DictReader(io.StringIO(table)))
        assert [(int(line["rank"]), line["player"]) for line in lines] == [
            (line["rank"], line["player"]) for line in standings
        ]
        assert self.call("GET", f"{self.url}/export/results.json").json["standings"] == standings
        record = self.call("GET", f"{self.url}/export/record.json").json
        assert len(record["games"]) == len(rows)
        return body

    def export_on_the_command_line(self) -> None:
        for what in ("standings", "results", "record"):
            ran = CliRunner().invoke(
                main, ["event", "export", self.id, "--what", what, "--db", str(self.db)]
            )
            assert ran.exit_code == 0, ran.output
            if what == "record":
                assert len(json.loads(ran.output)["games"]) == sum(
                    len(r["matches"]) for r in self.rounds
                )
            else:
                assert list(csv.reader(io.StringIO(ran.output)))[1:]


@pytest.mark.parametrize("seed", SEEDS)
def test_random_corrections_to_a_knockout(call, db, seed):
    night = Night(call, random.Random(seed), db)
    while True:
        night.finish_all()
        if not night.pair():
            break
        night.maybe_change()
    body = night.check()
    assert body["over"]
    out = night.losses()
    alive = [name for name in night.players if out[name] < (2 if night.double else 1)]
    assert len(alive) == 1
    night.export_on_the_command_line()
    assert night.refusals + night.allowed > 0


def finish(call, match, winner: int) -> None:
    """The match played to its end through the API, ``winner`` (0 or 1) winning."""
    auth = {"Authorization": f"Bearer {match['edit_token']}"}
    for knocker, own, other in seats_to_win(winner, 10):
        response = call(
            "POST",
            f"/api/v1/games/{match['game_id']}/hands",
            json=quick(knocker, own, other),
            headers=auth,
        )
        assert response.status_code == 201, response.json
    assert response.json["sheet"]["result"]["winner"] == winner


def test_a_swiss_result_may_change_after_the_next_round_is_paired(call):
    players = ["Ana", "Bor", "Cy", "Dan"]
    body = {"name": "Swiss", "players": players, "format": "swiss", "rounds": 2}
    event = call("POST", "/api/v1/events", json=body).json
    director = {"Authorization": f"Bearer {event['director_token']}"}
    first = call("POST", f"{event['url']}/rounds", headers=director).json
    for match in first["matches"]:
        finish(call, match, 0)
    assert call("POST", f"{event['url']}/rounds", headers=director).status_code == 201
    match = first["matches"][0]
    undone = call(
        "DELETE",
        f"/api/v1/games/{match['game_id']}/hands/last",
        headers={"Authorization": f"Bearer {match['edit_token']}"},
    )
    assert undone.status_code == 200, undone.json
    whole = call("GET", event["url"]).json
    assert whole["stale_round"] is None and not whole["rounds"][0]["matches"][0]["finished"]
    assert sum(line["won"] for line in whole["standings"]) == 1


def test_a_round_paired_on_results_changed_since_is_shown_then_withdrawn(call, db):
    """A database where round 2 no longer follows from round 1 (as a correction accepted
    before this rule left it): every page, answer and export works, pairing is refused
    naming the round, and once the director withdraws it the right round is paired."""
    players = ["Ana", "Bor", "Cy", "Dan"]
    body = {"name": "Cup", "players": players, "format": "single_elimination"}
    event = call("POST", "/api/v1/events", json=body).json
    director = {"Authorization": f"Bearer {event['director_token']}"}
    first = call("POST", f"{event['url']}/rounds", headers=director).json
    for match in first["matches"]:
        finish(call, match, 0)  # Ana and Bor win
    store = Storage(db)
    stored = store.event(event["id"])
    game = check_new_game(["Dan", "Bor"], Rules.from_dict(stored.rules), 0, stored.stake)
    new = NewMatch(1, new_game_id(), game.players, hash_token(new_token()), empty_summary(game))
    assert store.add_round(event["id"], 2, (), [new], rules=game.rules, stake=game.stake)
    store.close()

    whole = call("GET", event["url"])
    assert whole.status_code == 200 and whole.json["stale_round"] == 2
    assert not whole.json["over"] and len(whole.json["rounds"]) == 2
    pad = call.app.test_client()
    pad.set_cookie("sk_director", event["director_token"], path=f"/events/{event['id']}")
    director_page = pad.get(f"/events/{event['id']}/director").get_data(as_text=True)
    assert "Round 2 was paired on a result that has changed since" in director_page
    assert "Withdraw round 2" in director_page
    shown = pad.get(f"/events/{event['id']}").get_data(as_text=True)
    assert "the director will pair it again" in shown
    assert pad.get(f"/events/{event['id']}/wall").status_code == 200
    for what in ("standings.csv", "results.csv", "results.json", "record.json"):
        assert call("GET", f"{event['url']}/export/{what}").status_code == 200
    for what in ("standings", "results", "record"):
        ran = CliRunner().invoke(
            main, ["event", "export", event["id"], "--what", what, "--db", str(db)]
        )
        assert ran.exit_code == 0, ran.output
    refused = call("POST", f"{event['url']}/rounds", headers=director)
    assert refused.status_code == 409 and refused.json["error"]["code"] == "round_stale"
    assert refused.json["error"]["params"] == {"round": 2}

    assert call("DELETE", f"{event['url']}/rounds/1", headers=director).status_code == 409
    assert call("DELETE", f"{event['url']}/rounds/3", headers=director).status_code == 404
    gone = call("DELETE", f"{event['url']}/rounds/2", headers=director)
    assert gone.status_code == 204
    final = call("POST", f"{event['url']}/rounds", headers=director).json
    assert [sorted(m["players"]) for m in final["matches"]] == [["Ana", "Bor"]]
    assert call("GET", event["url"]).json["stale_round"] is None


def test_withdrawing_needs_the_director_and_untouched_tables(call):
    body = {"name": "Cup", "players": ["Ana", "Bor", "Cy", "Dan"], "format": "single_elimination"}
    event = call("POST", "/api/v1/events", json=body).json
    director = {"Authorization": f"Bearer {event['director_token']}"}
    (first, second) = call("POST", f"{event['url']}/rounds", headers=director).json["matches"]
    url = f"{event['url']}/rounds/1"
    assert call("DELETE", url).status_code == 401
    assert call("DELETE", url, headers={"Authorization": "Bearer nope"}).status_code == 403
    call(
        "POST",
        f"/api/v1/games/{second['game_id']}/hands",
        json=quick(0, 2, 30),
        headers={"Authorization": f"Bearer {second['edit_token']}"},
    )
    started = call("DELETE", url, headers=director)
    assert started.status_code == 409
    assert started.json["error"]["code"] == "round_started"
    assert started.json["error"]["params"]["table"] == 2
    call(
        "DELETE",
        f"/api/v1/games/{second['game_id']}/hands/last",
        headers={"Authorization": f"Bearer {second['edit_token']}"},
    )
    assert call("DELETE", url, headers=director).status_code == 204
    assert call("GET", event["url"]).json["rounds"] == []
    assert call("GET", f"/api/v1/games/{first['game_id']}").status_code == 200  # kept


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "Round 1, table 1: Ana won this match and round 2 was paired on that result."),
        ("fr", "Ronde 1, table 1\u00a0: Ana a gagné cette partie et la ronde 2 a été appariée"),
    ],
)
def test_the_pad_refuses_the_undo_in_the_players_language(client, language, sentence):
    """The director's phone (which holds the tables' edit rights) undoes the last hand of
    a round 1 match after round 2 is paired: refused in words; once the director has
    withdrawn round 2 from the director's page, the same undo goes through."""
    event_id = create_on_the_pad(
        client, name="Cup", format="single_elimination", new_players="Ana\nBor\nCy\nDan"
    )
    assert pair_on_the_pad(client, event_id).status_code == 303

    def api(method, path, **kwargs):
        return client.open(path, method=method, **kwargs)

    for round_ in client.get(f"/api/v1/events/{event_id}").get_json()["rounds"]:
        for match in round_["matches"]:
            token = derive_token("test", match["game_id"], match_key(event_id, 1, match["table"]))
            finish(api, {**match, "edit_token": token}, 0)
    assert pair_on_the_pad(client, event_id).status_code == 303
    game = client.get(f"/api/v1/events/{event_id}").get_json()["rounds"][0]["matches"][0]
    sheet = f"/games/{game['game_id']}"
    hidden = fields(page(client, sheet), f"{sheet}/undo")
    refused = client.post(f"{sheet}/undo", data=hidden, headers={"Accept-Language": language})
    assert refused.status_code == 409
    assert sentence in html.unescape(refused.get_data(as_text=True))

    director = f"/events/{event_id}/director"
    withdraw = f"/events/{event_id}/rounds/2/withdraw"
    gone = client.post(withdraw, data=fields(page(client, director), withdraw))
    assert gone.status_code == 303
    assert "Round 2 is withdrawn" in html.unescape(
        client.get(gone.headers["Location"]).get_data(as_text=True)
    )
    hidden = fields(page(client, sheet), f"{sheet}/undo")
    assert "done=undone" in client.post(f"{sheet}/undo", data=hidden).headers["Location"]


@pytest.fixture
def on_each_backend(app, spec):  # noqa: F811
    return Client(app, spec)


def test_the_refusal_and_the_withdrawal_on_each_backend(on_each_backend):
    call = on_each_backend
    body = {"name": "Cup", "players": ["Ana", "Bor", "Cy", "Dan"], "format": "single_elimination"}
    event = call("POST", "/api/v1/events", json=body).json
    director = {"Authorization": f"Bearer {event['director_token']}"}
    first = call("POST", f"{event['url']}/rounds", headers=director).json["matches"]
    for match in first:
        finish(call, match, 0)  # Ana beats Dan, Bor beats Cy
    call("POST", f"{event['url']}/rounds", headers=director)
    match = first[1]
    auth = {"Authorization": f"Bearer {match['edit_token']}"}
    url = f"/api/v1/games/{match['game_id']}"
    hands = call("GET", url).json["hands"]
    flip = quick(1, 0, 75 - (hands[-2]["totals"][1] if len(hands) > 1 else 0) + 5)
    refused = call("PUT", f"{url}/hands/{len(hands)}", json=flip, headers=auth)
    assert refused.status_code == 409
    error = refused.json["error"]
    assert error["code"] == "decided_later_pairing"
    assert error["params"] == {
        "round": 1,
        "table": 2,
        "players": ["Bor", "Cy"],
        "winner": "Bor",
        "later_round": 2,
    }
    assert call("GET", url).json["result"]["winner"] == 0  # nothing written
    assert call("DELETE", f"{event['url']}/rounds/2", headers=director).status_code == 204
    assert call("PUT", f"{url}/hands/{len(hands)}", json=flip, headers=auth).status_code == 200
    final = call("POST", f"{event['url']}/rounds", headers=director).json["matches"]
    assert [sorted(m["players"]) for m in final] == [["Ana", "Cy"]]
