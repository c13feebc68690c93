"""The JSON API through the Flask test client, on a real SQLite file then a PostgreSQL database.

Every response of a known route is also checked against the OpenAPI
document the app serves (schemathesis' response validation), so the
documented schemas, error responses included, are the ones returned.
"""

from __future__ import annotations

import re

import pytest
from store_kit import ABC, ABCD, PARTNERSHIP, THREE_PLAYERS, VOID, deal

from api import STORAGE_KEY
from scorekeeper import simulate
from scorekeeper.bots import simulate_match
from scorekeeper.cards import parse_card
from scorekeeper.names import MAX_NAME_LENGTH
from scorekeeper.rules import Rules

KNOCK = {"knocker": "As 2s 3s 7c 7d 7h 9d Td Jd 2c", "defender": "4s 5s 6s 8c 8d 8h Kd Qd Jh Th"}


class Client:
    """The test client; each response is validated against the served OpenAPI document."""

    def __init__(self, app, spec=None):
        self.app = app
        self.client = app.test_client()
        self.spec = served_document(app) if spec is None else spec
        self.adapter = app.url_map.bind("localhost")

    def __call__(self, method, path, **kwargs):
        response = self.client.open(path, method=method, **kwargs)
        try:
            rule, _ = self.adapter.match(path.split("?")[0], method=method, return_rule=True)
        except Exception:  # an unknown route: nothing documented to check against
            return response
        template = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        self.spec[template][method].validate_response(response)
        return response


def served_document(app):
    """The OpenAPI document ``app`` serves, read by schemathesis (it compiles each
    operation's validators at its first use)."""
    import schemathesis  # at first use: a second of collection otherwise

    return schemathesis.openapi.from_dict(app.test_client().get("/api/openapi.json").json)


@pytest.fixture(scope="module")
def spec(module_app):
    """:func:`served_document` once for the module's tests."""
    return served_document(module_app)


@pytest.fixture
def call(app, spec):
    return Client(app, spec)


def error_of(response, status, code=None, field=None):
    assert response.status_code == status, response.json
    error = response.json["error"]
    assert error["message"]
    if code is not None:
        assert error["code"] == code
    if field is not None:
        assert error["field"] == field
    return error


@pytest.fixture
def game(call):
    """A new game of Ana and Ben: (id, auth headers)."""
    response = call(
        "POST", "/api/v1/games", json={"dealer": 0, "players": ["Ana", "Ben"], "stake": 0.1}
    )
    return response.json["id"], {"Authorization": f"Bearer {response.json['edit_token']}"}


def quick(knocker, k, d, **extra):
    return {
        "kind": "quick",
        "knocker": knocker,
        "knocker_deadwood": k,
        "defender_deadwood": d,
        **extra,
    }


def version(call, game_id):
    return call("GET", f"/api/v1/games/{game_id}").json["version"]


# ----------------------------------------------------------------------------- tools


@pytest.mark.one_backend
def test_melds(call):
    response = call("POST", "/api/v1/melds", json={"cards": "As 2s 3s 7c 7d 7h 9d Td Jd Kc"})
    assert response.status_code == 200
    assert response.json["arrangements"][0]["deadwood"] == 10
    assert "discards" not in response.json
    eleven = call(
        "POST",
        "/api/v1/melds",
        json={"cards": ["As", "2s", "3s", "7c", "7d", "7h", "9d", "Td", "Jd", "Kc", "Qh"]},
    )
    assert eleven.json["discards"][0] == {"discard": "Kc", "deadwood": 10}
    error = error_of(
        call("POST", "/api/v1/melds", json={"cards": "As 2s Zz"}), 422, "bad_card", "cards"
    )
    assert "'Zz'" in error["message"] and "position 3" in error["message"]


@pytest.mark.one_backend
def test_verify(call):
    response = call("POST", "/api/v1/verify", json=KNOCK)
    assert response.status_code == 200
    assert (response.json["outcome"], response.json["points"]) == ("knock", 18)
    assert response.json["defender"]["layoffs"]
    classic = call(
        "POST",
        "/api/v1/verify",
        json={
            **KNOCK,
            "rules": {"preset": "classic"},
            "knocker_melds": ["7c 7d 7h", "9d Td Jd", "As 2s 3s"],
            "defender_melds": ["4s 5s 6s", "8c 8d 8h"],
            "layoffs": [{"card": "Qd", "meld": ["9d", "Td", "Jd"]}],
        },
    )
    assert classic.status_code == 200 and classic.json["defender"]["deadwood"] == 30
    oklahoma = call("POST", "/api/v1/verify", json={**KNOCK, "rules": "oklahoma", "upcard": "2s"})
    assert oklahoma.json["points"] == 36  # the spade upcard doubles 18


@pytest.mark.one_backend
@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"knocker": KNOCK["knocker"]}, "invalid", "defender"),
        ({**KNOCK, "knocker": 5}, "invalid", "knocker"),
        ({**KNOCK, "extra": 1}, "invalid", "extra"),
        ({**KNOCK, "defender": KNOCK["knocker"]}, "bad_card", "defender"),
        ({**KNOCK, "knocker": "As 2s 3s"}, "bad_card", "knocker"),
        ({**KNOCK, "rules": {"gin_bonus": -3}}, "rule", "gin_bonus"),
        ({**KNOCK, "rules": "bridge"}, "rule", "preset"),
        ({**KNOCK, "rules": "oklahoma"}, "rule", "upcard"),
        ({**KNOCK, "knocker_melds": ["9d Td Jd"]}, "rule", "knocker_melds"),
        ({**KNOCK, "layoffs": [{"card": "Qh", "meld": "9d Td Jd"}]}, "bad_card", "layoffs"),
        ({**KNOCK, "knocker": "As " * 200}, "invalid", "knocker"),
        ([1, 2], "invalid", None),
    ],
)
def test_verify_refusals_name_the_field(call, body, code, field):
    error_of(call("POST", "/api/v1/verify", json=body), 422, code, field)


@pytest.mark.one_backend
def test_bad_json_too_large_and_unknown_routes(call, app):
    error_of(
        call("POST", "/api/v1/verify", data="{nope", content_type="application/json"),
        400,
        "invalid_json",
        "body",
    )
    error_of(
        call(
            "POST",
            "/api/v1/games",
            data='{"dealer": 0, "players": ["Ana", "Ben"]}',
            content_type="text/plain",
        ),
        400,
        "not_json",
        "Content-Type",
    )
    big = '{"cards": "' + "A" * (app.config["MAX_CONTENT_LENGTH"] + 10) + '"}'
    error_of(
        call("POST", "/api/v1/melds", data=big, content_type="application/json"),
        413,
        "too_large",
        "body",
    )
    error_of(call("GET", "/api/v1/nowhere"), 404, "not_found")
    not_allowed = call("GET", "/api/v1/verify")
    error_of(not_allowed, 405, "method_not_allowed")
    assert "POST" in not_allowed.headers["Allow"]


@pytest.mark.one_backend
def test_replay(call):
    deal = call("POST", "/api/v1/replay", json=simulate(3))
    assert deal.status_code == 200 and "outcome" in deal.json
    match = call("POST", "/api/v1/replay", json=simulate_match(2))
    assert match.status_code == 200 and match.json["sheet"]["over"]
    record = simulate(3)
    record["actions"] = record["actions"][:1]
    error = error_of(call("POST", "/api/v1/replay", json=record), 422, "bad_record", "actions")
    assert error["message"].startswith("step 1:")
    error_of(call("POST", "/api/v1/replay", json={"format": "tarot"}), 422, "invalid", "format")


# ----------------------------------------------------------------------------- games


def test_create_and_read_a_game(call):
    response = call(
        "POST",
        "/api/v1/games",
        json={
            "players": ["Ana", "Ben"],
            "rules": {"preset": "hollywood", "target": 50},
            "dealer": 1,
            "stake": 0.1,
        },
    )
    assert response.status_code == 201
    body = response.json
    assert response.headers["Location"] == body["url"] == f"/api/v1/games/{body['id']}"
    assert body["edit_token"] and body["game"]["rules"]["scoring"] == "hollywood"
    sheet = call("GET", body["url"]).json
    assert sheet["players"] == ["Ana", "Ben"] and sheet["next_dealer"] == 1
    assert sheet["status"] == "active" and len(sheet["columns"]) == 3
    assert "edit_token" not in sheet and "token_hash" not in str(sheet)
    auth = {"Authorization": f"Bearer {body['edit_token']}"}
    hand = call("POST", f"{body['url']}/hands", json=quick(1, 0, 20), headers=auth).json
    assert hand["hand"]["opened"] == 0 and hand["hand"]["columns"] == [0]
    assert hand["sheet"]["columns"][0]["totals"] == [0, 45]
    error_of(call("GET", "/api/v1/games/no-such-game-id0"), 404, "not_found", "id")
    error_of(call("GET", "/api/v1/games/unknown"), 404, "not_found")  # not shaped like an id


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "players"),
        ({"players": ["Ana"]}, "players"),
        ({"players": ["Ana", "ANA"]}, "players"),
        ({"players": ["Ana", "x" * 41]}, "players.1"),
        ({"players": ["Ana", "Ben"], "dealer": 3}, "dealer"),
        ({"players": ["Ana", "Ben", "Cy"], "dealer": 3}, "dealer"),
        ({"players": ["Ana", "Ben", "Cy", "Dan"], "dealer": 4}, "dealer"),
        ({"players": ["Ana", "Ben", "Cy", "Dan", "Eve"]}, "players"),
        ({"players": ["Ana", "Ben", "Cy", "ana"]}, "players"),
        ({"players": ["Ana", "Ben", "Cy"], "rules": "hollywood"}, "scoring"),
        (
            {"players": ["Ana", "Ben", "Cy"], "rules": {"three_player_dealer": "left"}},
            "three_player_dealer",
        ),
        (
            {"players": ["Ana", "Ben", "Cy", "Dan"], "rules": {"partnership_netting": "never"}},
            "partnership_netting",
        ),
        ({"players": ["Ana", "Ben"], "stake": -1}, "stake"),
        ({"players": ["Ana", "Ben"], "stake": "a lot"}, "stake"),
        ({"players": ["Ana", "Ben"], "stake": "0.05"}, "stake"),  # a number, not a string
        ({"players": ["Ana", "Ben"], "stake": True}, "stake"),
        ({"players": ["Ana", "Ben"], "rules": {"knock_limit": 11}}, "knock_limit"),
    ],
)
def test_bad_games_are_refused(call, body, field):
    error_of(call("POST", "/api/v1/games", json=body), 422, field=field)


def test_naming_neither_dealer_nor_cut_the_service_cuts(call):
    """RULES.md 3: the simplest call starts a game: under low/high the service cuts for
    the players (one card each, ties cut again), applies the option, records the cut and
    shows it as the game's ``cut``; a repeat with the Idempotency-Key draws the same."""

    def check(game, players, how):
        ranks = [parse_card(code).rank for code in game["cut"]]
        assert len(set(game["cut"])) == players  # one card each, all different
        best = min(ranks) if how == "low" else max(ranks)
        assert ranks.count(best) == 1 and game["dealer"] == ranks.index(best)
        stored = call("GET", f"/api/v1/games/{game['id']}").json
        assert (stored["dealer"], stored["cut"]) == (game["dealer"], game["cut"])  # recorded

    cuts = set()
    for rules, how in ((None, "low"), ("standard", "low"), ({"first_dealer": "high"}, "high")):
        for players in (["Ana", "Ben"], ["Ana", "Ben", "Cy"], ["Ana", "Ben", "Cy", "Dan"]):
            for dealer in ({}, {"dealer": None}):  # null is absent
                body = {"players": players, **dealer, **({"rules": rules} if rules else {})}
                created = call("POST", "/api/v1/games", json=body)
                assert created.status_code == 201, created.json
                check(created.json["game"], len(players), how)
                cuts.add(tuple(created.json["game"]["cut"]))
    assert len(cuts) > 10  # drawn at random
    keyed = [
        call(
            "POST",
            "/api/v1/games",
            json={"players": ["Ana", "Ben"]},
            headers={"Idempotency-Key": f"cut-{n % 8}"},
        )
        for n in range(16)
    ]
    assert [r.status_code for r in keyed] == [201] * 16
    # a repeat draws the same cut, so it is the same request: the first answer again
    assert [r.json for r in keyed[:8]] == [r.json for r in keyed[8:]]
    assert len({tuple(r.json["game"]["cut"]) for r in keyed}) > 1
    named = call("POST", "/api/v1/games", json={"players": ["Ana", "Ben"], "dealer": 1}).json
    assert named["game"]["dealer"] == 1 and "cut" not in named["game"]  # its shape as before
    lot = call("POST", "/api/v1/games", json={"players": ["Ana", "Ben"], "rules": "oklahoma"})
    assert "cut" not in lot.json["game"]


def test_the_first_dealer_follows_first_dealer(call):
    """RULES.md 3: a cut given decides by first_dealer and is recorded as the game's cut."""

    def create(**body):
        return call("POST", "/api/v1/games", json={"players": ["Ana", "Ben"], **body})

    given = create(cut=["kc", "3D"]).json["game"]
    assert given["cut"] == ["Kc", "3d"]
    assert call("GET", f"/api/v1/games/{given['id']}").json["cut"] == ["Kc", "3d"]
    assert create(cut=["Kc", "3d"]).json["game"]["dealer"] == 1  # low: Ben's 3 deals
    assert create(cut=["3c", "Ad"]).json["game"]["dealer"] == 1  # the ace is low
    high = {"first_dealer": "high"}
    assert create(rules=high, cut=["Kc", "3d"]).json["game"]["dealer"] == 0
    assert create(rules=high, cut=["Kc", "3d"], dealer=1).json["game"]["dealer"] == 1
    four = ["Ana", "Ben", "Cy", "Dan"]
    cut = ["9c", "8d", "2h", "Ks"]  # Cy cuts lowest: her team deals, Cy first
    created = call("POST", "/api/v1/games", json={"players": four, "cut": cut}).json
    assert created["game"]["dealer"] == 2 and created["game"]["next_games"][0]["dealer"] == 0
    error_of(create(cut=["Kc", "Kd"]), 422, "rule", "cut")  # a tie: cut again
    error_of(create(cut=["Kc"]), 422, None, "cut")
    error_of(create(cut=["Kc", "3d", "4d"]), 422, "bad_card", "cut")  # two players, three cards
    error_of(create(cut=["Kc", "Zz"]), 422, "bad_card", "cut")
    error_of(create(rules="oklahoma", cut=["Kc", "3d"]), 422, "rule", "cut")  # random: no cut
    drawn = {create(rules="oklahoma").json["game"]["dealer"] for _ in range(40)}
    assert drawn == {0, 1}  # by lot
    drawn = {
        call("POST", "/api/v1/games", json={"players": four, "rules": "oklahoma"}).json["game"][
            "dealer"
        ]
        for _ in range(60)
    }
    assert drawn == {0, 1, 2, 3}
    keyed = [
        call(
            "POST",
            "/api/v1/games",
            json={"players": ["Ana", "Ben"], "rules": "oklahoma"},
            headers={"Idempotency-Key": f"lot-{n % 20}"},
        )
        for n in range(40)
    ]
    # a repeat draws the same lot, so it is the same request: the first answer again
    assert [r.status_code for r in keyed] == [201] * 40
    assert [r.json["id"] for r in keyed[:20]] == [r.json["id"] for r in keyed[20:]]
    assert {r.json["game"]["dealer"] for r in keyed} == {0, 1}
    error_of(
        call("POST", "/api/v1/games/import", json={"players": ["Ana", "Ben"], "cut": ["Kc", "3d"]}),
        422,
        None,
        "cut",
    )


def test_entering_hands(call, game):
    game_id, auth = game
    url = f"/api/v1/games/{game_id}/hands"
    response = call("POST", url, json=quick(0, 7, 22), headers=auth)
    assert response.status_code == 201
    assert response.json["hand"]["points"] == 15 and response.json["sheet"]["totals"] == [15, 0]
    cards = call(
        "POST",
        url,
        headers=auth,
        json={
            "kind": "cards",
            "knocker": 1,
            "knocker_cards": KNOCK["knocker"],
            "defender_cards": KNOCK["defender"],
        },
    )
    assert cards.status_code == 201 and cards.json["hand"]["winner"] == 1
    assert cards.json["hand"]["detail"]["knocker"]["deadwood"] == 2
    void = call("POST", url, json={"kind": "void"}, headers=auth)
    assert void.json["hand"]["void"] and void.json["sheet"]["next_dealer"] == 1
    sheet = call("GET", f"/api/v1/games/{game_id}").json
    assert [h["kind"] for h in sheet["hands"]] == ["quick", "cards", "void"]
    assert sheet["totals"] == [15, 18] and sheet["boxes"] == [1, 1]


def test_null_means_absent(call, game):
    """A field the document calls nullable, sent as null, counts as left out."""
    game_id, auth = game
    url = f"/api/v1/games/{game_id}/hands"
    void = call(
        "POST",
        url,
        headers=auth,
        json={"kind": "void", "upcard": None, "knocker_melds": None, "layoffs": None},
    )
    assert void.status_code == 201 and void.json["hand"]["input"] == {"kind": "void"}
    quick_hand = call(
        "POST", url, json=quick(0, 7, 22, upcard=None, defender_melds=None), headers=auth
    )
    assert quick_hand.status_code == 201 and quick_hand.json["hand"]["points"] == 15
    created = call(
        "POST",
        "/api/v1/games",
        json={"dealer": 0, "players": ["Ana", "Ben"], "rules": None, "stake": None},
    )
    assert created.status_code == 201 and created.json["game"]["stake"] is None
    assert (
        created.json["game"]["rules"]
        == call("POST", "/api/v1/games", json={"dealer": 0, "players": ["Ana", "Ben"]}).json[
            "game"
        ]["rules"]
    )
    error_of(call("POST", url, json={"kind": None}, headers=auth), 422, field="kind")
    error_of(
        call("POST", url, json={**quick(0, 7, 22), "knocker": None}, headers=auth),
        422,
        field="knocker",
    )
    assert version(call, game_id) == 2


def test_a_record_hand(call):
    record = simulate(5, dealer=0)
    created = call("POST", "/api/v1/games", json={"dealer": 0, "players": record["players"]}).json
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    response = call(
        "POST",
        f"/api/v1/games/{created['id']}/hands",
        headers=auth,
        json={"kind": "record", "record": record},
    )
    assert response.status_code == 201
    assert response.json["hand"]["points"] == response.json["hand"]["detail"]["points"]
    error_of(
        call(
            "POST",
            f"/api/v1/games/{created['id']}/hands",
            headers=auth,
            json={"kind": "record", "record": simulate(6, dealer=1)},
        ),
        422,
        "bad_record",
    )


def test_writes_need_the_edit_token(call, game):
    game_id, auth = game
    url = f"/api/v1/games/{game_id}/hands"
    error = error_of(call("POST", url, json=quick(0, 7, 22)), 401, "unauthorized", "Authorization")
    assert "Bearer" in error["message"]
    error_of(call("POST", url, json={"kind": "nonsense"}), 401)  # the token comes first
    error_of(
        call("POST", url, json=quick(0, 7, 22), headers={"Authorization": "Bearer no"}),
        403,
        "forbidden",
    )
    error_of(call("DELETE", f"{url}/last", headers={"Authorization": "Basic eA=="}), 401)
    error_of(
        call("PUT", f"{url}/1", json=quick(0, 7, 22), headers={"Authorization": "Bearer no"}), 403
    )
    error_of(
        call("POST", "/api/v1/games/no-such-game-id0/hands", json=quick(0, 7, 22), headers=auth),
        404,
    )
    assert version(call, game_id) == 0


@pytest.mark.parametrize(
    ("hand", "code", "field"),
    [
        ({"kind": "quick", "knocker": 0, "knocker_deadwood": 7}, "invalid", "defender_deadwood"),
        (quick(0, 7, 22, layoffs=[]), "invalid", "layoffs"),
        (quick(2, 7, 22), "rule", "knocker"),  # a player index, but Ana and Ben's game has two
        (quick(4, 7, 22), "invalid", "knocker"),  # no table has five
        ({"kind": "deal", "games": [quick(0, 7, 22), quick(1, 7, 22)]}, "rule", "kind"),
        (quick(0, 11, 22), "rule", "knocker_deadwood"),
        (quick(0, 7, 99), "invalid", "defender_deadwood"),
        (quick(0, 7, 22, big_gin=True), "rule", "big_gin"),
        (quick(0, 0, 22, big_gin=0), "invalid", "big_gin"),  # JSON's false only
        (quick(0, 0, 22, big_gin="no"), "invalid", "big_gin"),
        (
            {
                "kind": "cards",
                "knocker": 0,
                "knocker_cards": "As 2s 3s",
                "defender_cards": KNOCK["defender"],
            },
            "bad_card",
            "knocker",
        ),
        (
            {"kind": "record", "record": {"format": "gin-rummy-deal/1"}},
            "bad_record",
            "record.dealer",
        ),
        ({"kind": "undo"}, "invalid", "kind"),
        ({"kind": "void", "points": 3}, "invalid", "points"),
    ],
)
def test_bad_hands_change_nothing(call, game, hand, code, field):
    game_id, auth = game
    call("POST", f"/api/v1/games/{game_id}/hands", json=quick(0, 7, 22), headers=auth)
    error_of(
        call("POST", f"/api/v1/games/{game_id}/hands", json=hand, headers=auth), 422, code, field
    )
    error_of(
        call("PUT", f"/api/v1/games/{game_id}/hands/1", json=hand, headers=auth), 422, code, field
    )
    assert version(call, game_id) == 1


# ----------------------------------------------------------------------------- tables


def new_table(call, players, **settings):
    """A new game of ``players``: (its hands URL, auth headers)."""
    created = call("POST", "/api/v1/games", json={"dealer": 0, "players": players, **settings})
    assert created.status_code == 201, created.json
    return (
        f"/api/v1/games/{created.json['id']}/hands",
        {"Authorization": f"Bearer {created.json['edit_token']}"},
    )


def test_three_player_hands_and_sheets_are_as_documented(call):
    every_option = {**Rules().to_dict(), "three_player_dealer": "rotate"}
    url, auth = new_table(call, ABC, rules=every_option, stake=0.1)
    first = call("POST", url, json=THREE_PLAYERS[0], headers=auth)
    # Ana deals and sits out; Ben knocks 9, Cy undercuts: 29; rotate: Ben deals hand 2
    assert first.status_code == 201
    hand, sheet = first.json["hand"], first.json["sheet"]
    assert (hand["sits_out"], hand["winner"], hand["loser"], hand["points"]) == (0, 2, 1, 29)
    assert sheet["totals"] == [0, 0, 29] and sheet["next_dealer"] == 1
    assert sheet["rules"]["three_player_dealer"] == "rotate"
    error = error_of(
        call("POST", url, json=THREE_PLAYERS[3], headers=auth), 422, "rule", "knocker"
    )  # Ben knocks: he deals hand 2
    assert error["reason"] == "dealer_sits_out" and "Ben" in error["message"]
    error = error_of(
        call("POST", url, json={"kind": "record", "record": simulate(3)}, headers=auth),
        422,
        "rule",
        "kind",
    )
    assert error["reason"] == "record_two_players"
    # Ana's gin against Cy: 55; the whole game rescored from the corrected hand 1
    call("POST", url, json=THREE_PLAYERS[1], headers=auth)
    corrected = call("PUT", f"{url}/1", json=quick(2, 0, 10), headers=auth).json["sheet"]
    assert corrected["totals"] == [55, 0, 35] and len(corrected["hands"]) == 2
    game = call("GET", url.removesuffix("/hands")).json
    assert game["hands"][0]["corrected"] and game["hands"][1]["sits_out"] == 1
    url, auth = new_table(call, ABC, rules={"target": 10}, stake=0.1)
    over = call("POST", url, json=quick(1, 0, 10), headers=auth).json["sheet"]
    # Ben gins Cy: 35; a shutout of both: 35 + 25 + 2 x 100 = 260, each pays 26.00
    assert over["result"]["final"] == [0, 260, 0] and over["result"]["loser"] is None
    assert over["result"]["settlement"] == [
        {"payer": 0, "payee": 1, "amount": 26.0},
        {"payer": 2, "payee": 1, "amount": 26.0},
    ]


@pytest.mark.parametrize(
    ("hand", "code", "field"),
    [
        (quick(0, 5, 20), "rule", "kind"),
        ({"kind": "deal"}, "invalid", "games"),
        (deal(VOID, VOID) | {"knocker": 0}, "invalid", "knocker"),
        ({"kind": "deal", "games": [VOID]}, "invalid", "games"),
        (deal(VOID, {"kind": "record", "record": {}}), "invalid", "games.1.kind"),
        (deal(VOID, quick(7, 5, 20)), "invalid", "games.1.knocker"),
        (deal(VOID, {"kind": "quick", "knocker": 2}), "invalid", "games.1.defender_deadwood"),
        (deal(quick(2, 5, 20), VOID), "rule", "games.0.knocker"),  # Ana and Ben play game 1
        (deal(VOID, quick(0, 5, 20)), "rule", "games.1.knocker"),  # Cy and Dan play game 2
        (deal(VOID, quick(2, 12, 20)), "rule", "games.1.knocker_deadwood"),
    ],
)
def test_bad_deals_change_nothing(call, hand, code, field):
    url, auth = new_table(call, ABCD)
    error = error_of(call("POST", url, json=hand, headers=auth), 422, code, field)
    assert field.split(".")[-1] in error["message"]
    assert version(call, url.split("/")[-2]) == 0


def test_partnership_deals_and_sheets_are_as_documented(call):
    url, auth = new_table(call, ABCD, dealer=1, rules={"partnership_netting": "per_game"})
    sheet = call("GET", url.removesuffix("/hands")).json
    assert sheet["teams"] == [[0, 2], [1, 3]] and sheet["next_games"] == [
        {"game": 1, "players": [0, 1], "dealer": 1},
        {"game": 2, "players": [2, 3], "dealer": 3},
    ]
    first = call("POST", url, json=PARTNERSHIP[0], headers=auth).json
    # Ana 20, Dan's gin 35: per game both teams score and box
    assert first["hand"]["team_points"] == [20, 35] and first["hand"]["dealer_team"] == 1
    assert [g["winner"] for g in first["hand"]["games"]] == [0, 3]
    assert first["sheet"]["totals"] == [20, 35] and first["sheet"]["boxes"] == [1, 1]
    assert first["sheet"]["next_games"][0] == {"game": 1, "players": [0, 3], "dealer": 0}
    void = call("POST", url, json=VOID, headers=auth).json
    assert void["hand"]["void"] and [g["void"] for g in void["hand"]["games"]] == [True, True]
    fixed = call("PUT", f"{url}/2", json=PARTNERSHIP[1], headers=auth).json
    assert fixed["sheet"]["totals"] == [50, 35]  # Ana's undercut of Dan: 30


def test_a_hand_after_the_end_is_409(call):
    created = call(
        "POST",
        "/api/v1/games",
        json={"dealer": 0, "players": ["Ana", "Ben"], "rules": {"target": 30}},
    ).json
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    url = f"/api/v1/games/{created['id']}/hands"
    over = call("POST", url, json=quick(1, 0, 10), headers=auth).json["sheet"]
    assert over["status"] == "over" and over["result"]["winner"] == 1
    assert over["result"]["shutout"] and over["result"]["game_bonus"] == 200
    error_of(call("POST", url, json=quick(0, 5, 20), headers=auth), 409, "game_over")
    assert version(call, created["id"]) == 1


def test_idempotency_key(call, game):
    game_id, auth = game
    url = f"/api/v1/games/{game_id}/hands"
    headers = {**auth, "Idempotency-Key": "hand-1"}
    first = call("POST", url, json=quick(0, 7, 22), headers=headers)
    again = call("POST", url, json=quick(0, 7, 22), headers=headers)
    assert first.status_code == 201 and again.status_code == 201  # the first answer again
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json["hand"] == first.json["hand"] and again.json["sheet"]["version"] == 1
    assert again.data == first.data  # the first answer's very bytes, key order included
    error_of(
        call("POST", url, json=quick(0, 8, 22), headers=headers),
        422,
        "idempotency_key_reused",
        "Idempotency-Key",
    )
    error_of(
        call("POST", url, json=quick(0, 8, 22), headers={**auth, "Idempotency-Key": "k" * 201}),
        422,
        field="Idempotency-Key",
    )
    assert version(call, game_id) == 1


def test_a_replay_is_the_first_answer_byte_for_byte(call, game):
    """Cards, a correction and an undo, each sent twice with its key: the same bytes
    (the hand's input in the order sent, its detail as scored), after later changes too."""
    game_id, auth = game
    url = f"/api/v1/games/{game_id}"
    cards = {"defender_cards": KNOCK["defender"], "knocker_cards": KNOCK["knocker"]}
    writes = [
        ("POST", "/hands", {**cards, "kind": "cards", "knocker": 0}),
        ("PUT", "/hands/1", {"defender_deadwood": 30, "knocker": 1, **quick(1, 5, 30)}),
        ("POST", "/hands", quick(0, 7, 22)),
        ("DELETE", "/hands/last", None),
    ]
    firsts = []
    for i, (method, path, body) in enumerate(writes):
        headers = {**auth, "Idempotency-Key": f"write-{i}"}
        first = call(method, url + path, json=body, headers=headers)
        again = call(method, url + path, json=body, headers=headers)
        assert first.status_code in (200, 201) and again.headers["Idempotent-Replayed"] == "true"
        assert again.data == first.data
        firsts.append((method, path, body, headers, first.data))
    for method, path, body, headers, data in firsts:  # after every later change
        assert call(method, url + path, json=body, headers=headers).data == data


def test_etag_and_if_match(call, game):
    game_id, auth = game
    url = f"/api/v1/games/{game_id}"
    assert call("GET", url).headers["ETag"] == '"0"'
    first = call(
        "POST",
        f"{url}/hands",
        json=quick(0, 7, 22),
        headers={**auth, "If-Match": '"0"', "Idempotency-Key": "a"},
    )
    assert first.status_code == 201 and first.headers["ETag"] == '"1"'
    stale = call("POST", f"{url}/hands", json=quick(1, 7, 22), headers={**auth, "If-Match": '"0"'})
    error = error_of(stale, 409, "stale", "If-Match")
    assert "version 1" in error["message"] and stale.headers["ETag"] == '"1"'
    error_of(
        call("PUT", f"{url}/hands/1", json=quick(0, 5, 22), headers={**auth, "If-Match": "0"}),
        409,
        "stale",
    )
    error_of(call("DELETE", f"{url}/hands/last", headers={**auth, "If-Match": '"7"'}), 409, "stale")
    for bad in ('W/"1"', "abc", '"1', "-1"):
        error_of(
            call("DELETE", f"{url}/hands/last", headers={**auth, "If-Match": bad}),
            422,
            "invalid",
            "If-Match",
        )
    assert version(call, game_id) == 1
    retry = call(
        "POST",
        f"{url}/hands",
        json=quick(0, 7, 22),
        headers={**auth, "If-Match": '"0"', "Idempotency-Key": "a"},
    )
    assert retry.status_code == 201 and retry.json["hand"] == first.json["hand"]
    fixed = call("PUT", f"{url}/hands/1", json=quick(0, 5, 22), headers={**auth, "If-Match": "1"})
    assert fixed.status_code == 200 and fixed.headers["ETag"] == '"2"'
    undone = call("DELETE", f"{url}/hands/last", headers={**auth, "If-Match": "*"})
    assert undone.status_code == 200 and undone.json["sheet"]["version"] == 3
    assert call("GET", url).headers["ETag"] == '"3"'


def test_if_none_match_an_unchanged_sheet_is_304(call, game, backend):
    """A poller sending the ETag it has gets 304 (no body) until the game changes."""
    game_id, auth = game
    url = f"/api/v1/games/{game_id}"
    assert call("POST", f"{url}/hands", json=quick(0, 7, 22), headers=auth).status_code == 201
    same = call("GET", url, headers={"If-None-Match": '"1"'})
    assert same.status_code == 304 and same.data == b"" and same.headers["ETag"] == '"1"'
    for also in ('W/"1"', '"0", "1"', "*"):
        assert call("GET", url, headers={"If-None-Match": also}).status_code == 304
    call("POST", f"{url}/hands", json=quick(1, 5, 30), headers=auth)
    changed = call("GET", url, headers={"If-None-Match": '"1"'})
    assert changed.status_code == 200 and changed.headers["ETag"] == '"2"'
    assert changed.json["version"] == 2 and len(changed.json["hands"]) == 2
    # the 304 reads the game's row only: with the log gone (under the app) it still answers
    trigger = "hands_no_delete" if backend.name == "sqlite" else "hands_no_change ON hands"
    backend.sql(f"DROP TRIGGER {trigger}")
    backend.sql("DELETE FROM hands WHERE game_id = ?", (game_id,))
    assert call("GET", url, headers={"If-None-Match": '"2"'}).status_code == 304


def test_prefer_return_minimal_leaves_the_sheet_out(call, game):
    game_id, auth = game
    url = f"/api/v1/games/{game_id}/hands"
    short = call(
        "POST",
        url,
        json=quick(0, 7, 22),
        headers={**auth, "Prefer": "respond-async, return=minimal"},
    )
    assert short.status_code == 201 and short.json["sheet"] is None
    assert short.json["hand"]["points"] == 15 and short.headers["ETag"] == '"1"'
    assert short.headers["Preference-Applied"] == "return=minimal"
    full = call("PUT", f"{url}/1", json=quick(0, 5, 22), headers={**auth, "Prefer": "x=y"})
    assert full.json["sheet"]["totals"] == [17, 0] and "Preference-Applied" not in full.headers


def test_a_full_disk_is_507_and_writes_nothing(call, app, backend, game):
    game_id, auth = game
    store = app.extensions[STORAGE_KEY]  # the test client's thread
    with backend.little_room(store):
        statuses = [
            call(
                "POST",
                f"/api/v1/games/{game_id}/hands",
                json={"kind": "void"},
                headers={**auth, "Idempotency-Key": f"{i:0>150}"},
            )
            for i in range(60)
        ]
        stored = sum(r.status_code == 201 for r in statuses)
        full = [r for r in statuses if r.status_code != 201]
        assert stored and full
        error = error_of(full[0], 507, "storage_full")
        assert "disk is full" in error["message"]
        assert version(call, game_id) == stored
        assert backend.intact(store)


def test_a_database_busy_for_too_long_is_503(call, app, backend, game):
    game_id, auth = game
    backend.shorten_wait(app.extensions[STORAGE_KEY])  # the client's thread
    with backend.writer_holding(game_id):
        busy = call("POST", f"/api/v1/games/{game_id}/hands", json={"kind": "void"}, headers=auth)
    error_of(busy, 503, "busy")
    assert busy.headers["Retry-After"] == "1" and version(call, game_id) == 0


def test_undo_and_correct(call, game):
    game_id, auth = game
    url = f"/api/v1/games/{game_id}/hands"
    error_of(call("DELETE", f"{url}/last", headers=auth), 409, "nothing_to_undo")
    call("POST", url, json=quick(0, 7, 22), headers=auth)
    call("POST", url, json=quick(1, 2, 10), headers=auth)
    undone = call("DELETE", f"{url}/last", headers=auth)
    assert undone.status_code == 200 and undone.json["hand"]["n"] == 2
    assert undone.json["sheet"]["totals"] == [15, 0]
    fixed = call("PUT", f"{url}/1", json=quick(0, 7, 30), headers=auth)
    assert fixed.status_code == 200 and fixed.json["hand"]["corrected"]
    assert fixed.json["sheet"]["totals"] == [23, 0] and fixed.json["sheet"]["version"] == 4
    error_of(call("PUT", f"{url}/2", json=quick(0, 7, 30), headers=auth), 404, "not_found", "n")
    error_of(call("PUT", f"{url}/0", json=quick(0, 7, 30), headers=auth), 404)


def test_a_correction_that_would_end_the_game_early_is_409(call):
    created = call(
        "POST",
        "/api/v1/games",
        json={"dealer": 0, "players": ["Ana", "Ben"], "rules": {"target": 40}},
    ).json
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    url = f"/api/v1/games/{created['id']}/hands"
    call("POST", url, json=quick(0, 5, 20), headers=auth)
    call("POST", url, json=quick(0, 5, 20), headers=auth)
    error_of(call("PUT", f"{url}/1", json=quick(0, 0, 20), headers=auth), 409, "game_over", "n")
    assert version(call, created["id"]) == 2


def test_export_and_import(call, game):
    game_id, auth = game
    call("POST", f"/api/v1/games/{game_id}/hands", json=quick(0, 7, 22), headers=auth)
    call("POST", f"/api/v1/games/{game_id}/hands", json={"kind": "void"}, headers=auth)
    exported = call("GET", f"/api/v1/games/{game_id}/export")
    assert exported.status_code == 200 and len(exported.json["hands"]) == 2
    imported = call("POST", "/api/v1/games/import", json=exported.json)
    assert imported.status_code == 201 and imported.json["id"] != game_id
    assert imported.json["game"]["totals"] == [15, 0] and imported.json["game"]["stake"] == 0.1
    match = call("POST", "/api/v1/games/import", json=simulate_match(4))
    assert match.status_code == 201 and match.json["game"]["status"] == "over"
    bad = {**exported.json, "hands": [quick(0, 7, 22), quick(0, 12, 22)]}
    error_of(
        call("POST", "/api/v1/games/import", json=bad), 422, "rule", "hands.1.knocker_deadwood"
    )
    error_of(
        call("POST", "/api/v1/games/import", json={**exported.json, "hands": [{"kind": "quick"}]}),
        422,
        "invalid",
        "hands.0.defender_deadwood",
    )
    error_of(call("GET", "/api/v1/games/unknown/export"), 404)
    # a key of the other kind is refused by name, not ignored; null is absent
    mixed = {**simulate_match(2), "hands": exported.json["hands"], "stake": None}
    refused = error_of(call("POST", "/api/v1/games/import", json=mixed), 422, "bad_record", "hands")
    assert refused["reason"] == "not_in_match_record"
    assert "a match record (gin-rummy-match/1) has no 'hands'" in refused["message"]
    mixed = {**exported.json, "deals": []}
    refused = error_of(call("POST", "/api/v1/games/import", json=mixed), 422, "bad_record", "deals")
    assert refused["reason"] == "not_in_export"


def test_player_stats(call, game):
    game_id, auth = game
    call("POST", f"/api/v1/games/{game_id}/hands", json=quick(1, 0, 12), headers=auth)
    stats = call("GET", "/api/v1/players/ben/stats")
    assert stats.status_code == 200
    assert (stats.json["name"], stats.json["hands_won"], stats.json["gins"]) == ("Ben", 1, 1)
    assert stats.json["average_hand"] == 37
    assert stats.json["head_to_head"][0]["opponent"] == "Ana"
    error_of(call("GET", "/api/v1/players/nobody/stats"), 404, "not_found", "name")


def test_a_tied_knock_under_no_score_is_a_hand_played(call):
    url, auth = new_table(call, ["Ana", "Ben"], dealer=1, rules="openspiel")
    tie = call("POST", url, json=quick(0, 6, 6), headers=auth)
    assert tie.status_code == 201, tie.json
    hand = tie.json["hand"]
    assert (hand["void"], hand["outcome"], hand["winner"], hand["points"]) == (
        False,
        "tie",
        None,
        0,
    )
    assert tie.json["sheet"]["boxes"] == [0, 0] and tie.json["sheet"]["next_dealer"] == 1
    stats = call("GET", "/api/v1/players/ana/stats").json
    assert (stats["hands"], stats["hands_won"]) == (1, 0)
    assert stats["head_to_head"][0]["hands_lost"] == 0  # a tie is lost by nobody


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Ana\u202eroB", "U+202E"),  # RIGHT-TO-LEFT OVERRIDE: would show "Ana" + "Bor"
        ("Ana\x00", "U+0000"),
        ("Ana\r\nBen", "U+000D"),
        ("A\u200dna", "U+200D"),  # ZERO WIDTH JOINER: looks like "Ana"
        ("An\u00ada", "U+00AD"),  # SOFT HYPHEN: looks like "Ana"
        ("\u3164", "U+3164"),  # HANGUL FILLER: a blank name
        ("Ana\u2800", "U+2800"),  # BRAILLE PATTERN BLANK: looks like "Ana"
        ("Ana\U000e0041", "U+E0041"),  # TAG LATIN CAPITAL LETTER A: hidden text
    ],
)
def test_names_that_could_deceive_are_refused(call, backend, name, shown):
    for path in ("/api/v1/games", "/api/v1/games/import"):
        for players, field in (([name, "Cy"], "players.0"), (["Cy", name], "players.1")):
            error = error_of(call("POST", path, json={"players": players}), 422, None, field)
            assert shown in error["message"]
    assert backend.sql("SELECT count(*) FROM games") == [(0,)]
    assert backend.sql("SELECT count(*) FROM players") == [(0,)]


def test_names_are_one_player_however_written(call):
    for players in (["Ana", "E\u0301mile"], ["ANA ", "\u00e9mile"], ["Straße", "ana"]):
        assert (
            call("POST", "/api/v1/games", json={"dealer": 0, "players": players}).status_code == 201
        )
    for spelling in ("Ana", "ANA", "Ana%20", "%20ana", "\u00c9MILE", "E\u0301mile"):
        stats = call("GET", f"/api/v1/players/{spelling}/stats")
        assert stats.status_code == 200, spelling
        assert stats.json["games"] == (3 if "n" in spelling.lower() else 2)
    assert call("GET", "/api/v1/players/STRASSE/stats").json["name"] == "Straße"
    error_of(
        call("POST", "/api/v1/games", json={"dealer": 0, "players": ["\u00c9mile", "E\u0301MILE"]}),
        422,
        "rule",
        "players",
    )
    error_of(call("GET", "/api/v1/players/Ana%E2%80%AE/stats"), 422, "rule", "name")
    error_of(call("GET", "/api/v1/players/%20%20/stats"), 422, "rule", "name")


def test_an_import_does_not_change_anyones_record(call, game):
    game_id, auth = game
    call("POST", f"/api/v1/games/{game_id}/hands", json=quick(0, 0, 30), headers=auth)
    before = call("GET", "/api/v1/players/Ana/stats").json
    assert (before["games"], before["hands_won"], before["imported_games"]) == (1, 1, 0)
    # anyone may import a game without a token: here a finished loss for Ana
    loss = {
        "players": ["Ana", "Ben"],
        "rules": {"target": 50},
        "hands": [quick(1, 0, 30)],
    }  # Ben gins: 55, over
    imported = call("POST", "/api/v1/games/import", json=loss)
    assert imported.status_code == 201 and imported.json["game"]["status"] == "over"
    after = call("GET", "/api/v1/players/Ana/stats").json
    assert after == {**before, "imported_games": 1}
    ben = call("GET", "/api/v1/players/Ben/stats").json
    assert (ben["wins"], ben["hands_won"], ben["imported_games"]) == (0, 0, 1)


@pytest.mark.one_backend
def test_the_openapi_document(call):
    spec = call.client.get("/api/openapi.json").json
    assert spec["openapi"].startswith("3.")
    assert set(spec["paths"]) == {
        "/api/v1/melds",
        "/api/v1/verify",
        "/api/v1/replay",
        "/api/v1/analyse",
        "/api/v1/games",
        "/api/v1/games/import",
        "/api/v1/games/{game_id}",
        "/api/v1/games/{game_id}/hands",
        "/api/v1/games/{game_id}/hands/last",
        "/api/v1/games/{game_id}/hands/{n}",
        "/api/v1/games/{game_id}/export",
        "/api/v1/games/{game_id}/events",
        "/api/v1/games/{game_id}/token",
        "/api/v1/players",
        "/api/v1/players/{name}/stats",
        "/api/v1/players/{name}/rating",
        "/api/v1/ratings",
        "/api/v1/imports/{source}",
        "/api/v1/events",
        "/api/v1/events/{event_id}",
        "/api/v1/events/{event_id}/rounds",
        "/api/v1/events/{event_id}/rounds/{number}",
        "/api/v1/events/{event_id}/matches/{game_id}/end",
        "/api/v1/events/{event_id}/standings",
        "/api/v1/events/{event_id}/export/standings.csv",
        "/api/v1/events/{event_id}/export/results.csv",
        "/api/v1/events/{event_id}/export/results.json",
        "/api/v1/events/{event_id}/export/record.json",
        "/api/v1/events/{event_id}/clock",
        "/api/v1/events/{event_id}/withdrawals",
        "/api/v1/events/{event_id}/entries",
        "/api/v1/events/{event_id}/rounds/{number}/swaps",
        "/api/v1/seasons",
        "/api/v1/seasons/{season_id}",
        "/api/v1/seasons/{season_id}/table",
        "/api/v1/seasons/{season_id}/table.csv",
    }
    director_posts = ("rounds", "matches/{game_id}/end", "withdrawals", "entries")
    for director_only in (*director_posts, "rounds/{number}/swaps"):
        operation = spec["paths"][f"/api/v1/events/{{event_id}}/{director_only}"]["post"]
        assert operation["security"] == [{"directorAuth": []}]
    withdraw = spec["paths"]["/api/v1/events/{event_id}/rounds/{number}"]["delete"]
    assert withdraw["operationId"] == "withdrawRound"
    assert withdraw["security"] == [{"directorAuth": []}]
    assert {"204", "401", "403", "404", "409"} <= set(withdraw["responses"])
    hands = spec["paths"]["/api/v1/games/{game_id}/hands"]["post"]
    assert {"201", "401", "403", "404", "409", "422"} <= set(hands["responses"])
    assert hands["security"] == [{"bearerAuth": []}]
    assert {"Idempotency-Key", "If-Match", "Prefer"} <= {p["name"] for p in hands["parameters"]}
    assert "ETag" in hands["responses"]["201"]["headers"]
    stats = spec["components"]["schemas"]["Stats"]
    assert "imported_games" in stats["required"]
    players = spec["components"]["schemas"]["GameRequest"]["properties"]["players"]["items"]
    assert players["maxLength"] == MAX_NAME_LENGTH and "\u202e" in players["pattern"]
    assert all(
        "default" not in op["responses"]
        for path in spec["paths"].values()
        for op in path.values()
        if isinstance(op, dict)
    )
