"""API keys, the listing of a key's games, edit token rotation and the limits that know them.

``scorekeeper keys`` on a real SQLite file; the JSON API through Flask's test
client (each response checked against the OpenAPI document) on each backend;
the rate limits on a real SQLite file with its counter file.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner
from test_api import Client, error_of, quick
from test_pad_rights import page, start

from api import create_app
from scorekeeper.cli import main
from scorekeeper.store import access, games, open_store

ANA_BEN = {"players": ["Ana", "Ben"], "dealer": 0}  # first_dealer low: the dealer is named


@pytest.fixture
def call(app):
    return Client(app)


def key_for(app, name="club-site") -> dict:
    """The Authorization header of a new API key called ``name``."""
    key = access.create_key(app.extensions["scorekeeper.store.sqlite"], name)
    return {"Authorization": f"Bearer {key}"}


def created(call, headers=None, **body) -> dict:
    response = call("POST", "/api/v1/games", json={**ANA_BEN, **body}, headers=headers or {})
    assert response.status_code == 201, response.json
    time.sleep(0.002)  # distinct creation times
    return response.json


def listed(call, headers, query="") -> dict:
    response = call("GET", f"/api/v1/games{query}", headers=headers)
    assert response.status_code == 200, response.json
    return response.json


# ----------------------------------------------------------------------------- the CLI


@pytest.mark.one_backend
def test_keys_are_created_shown_once_listed_and_revoked_from_the_command_line(tmp_path):
    db = str(tmp_path / "games.db")
    runner = CliRunner()
    made = runner.invoke(main, ["keys", "create", "club-site", "--db", db])
    assert made.exit_code == 0, made.output
    key = made.stdout.strip()
    assert key.startswith("sk_") and "shown only now" in made.stderr
    with open(db, "rb") as stored:
        assert key.encode() not in stored.read()  # only its hash is stored
    store = open_store(db)
    assert access.find_key(store, key).name == "club-site"

    again = runner.invoke(main, ["keys", "create", "club-site", "--db", db])
    assert again.exit_code == 1 and "already a key called 'club-site'" in again.output
    bad = runner.invoke(main, ["keys", "create", "club site", "--db", db])
    assert bad.exit_code == 2 and "'club site' is not" in bad.output

    listing = runner.invoke(main, ["keys", "list", "--db", db])
    assert listing.exit_code == 0
    [line] = listing.stdout.splitlines()
    assert line.startswith("club-site\t") and line.endswith("\t0 game(s)\tin use")
    assert key not in listing.output

    revoked = runner.invoke(main, ["keys", "revoke", "club-site", "--db", db])
    assert revoked.exit_code == 0 and "revoked key 'club-site'" in revoked.output
    assert access.find_key(store, key) is None
    gone = runner.invoke(main, ["keys", "revoke", "club-site", "--db", db])
    assert gone.exit_code == 1 and "no key called 'club-site'" in gone.output
    [line] = runner.invoke(main, ["keys", "list", "--db", db]).stdout.splitlines()
    assert "\trevoked 20" in line


# ----------------------------------------------------------------------------- listing


def test_a_key_lists_only_the_games_created_with_it(call, app):
    mine, theirs = key_for(app, "mine"), key_for(app, "theirs")
    own = [created(call, mine, players=[f"P{i}", "Q"])["id"] for i in range(3)]
    created(call, theirs)
    created(call)  # no key's
    page_ = listed(call, mine)
    assert [g["id"] for g in page_["games"]] == own[::-1] and page_["next"] is None
    first = page_["games"][-1]
    assert first == {
        "url": f"/api/v1/games/{own[0]}",
        "id": own[0],
        "players": ["P0", "Q"],
        "status": "active",
        "created": first["created"],
        "updated": first["created"],
        "hands": 0,
        "totals": [0, 0],
    }
    assert len(listed(call, theirs)["games"]) == 1


def test_listing_pages_with_a_cursor_and_filters(call, app):
    mine = key_for(app)
    ids = [created(call, mine, players=[f"P{i}", "Q"])["id"] for i in range(5)]
    pages, query = [], "?limit=2"
    while True:
        found = listed(call, mine, query)
        pages.append([g["id"] for g in found["games"]])
        if found["next"] is None:
            break
        query = f"?limit=2&cursor={found['next']}"
    assert pages == [ids[4:2:-1], ids[2:0:-1], ids[:1]]

    over = created(call, mine, players=["Émile", "Q"], rules={"target": 10})
    auth = {"Authorization": f"Bearer {over['edit_token']}"}
    assert (
        call("POST", f"{over['url']}/hands", json=quick(0, 0, 20), headers=auth).status_code == 201
    )
    since = datetime.now(UTC).isoformat()
    time.sleep(0.002)
    late = created(call, mine, players=["Ana", "Q"])["id"]

    def ids_of(query):
        return [g["id"] for g in listed(call, mine, query)["games"]]

    assert ids_of("?player=%20%C3%A9MILE%20") == [over["id"]]
    assert ids_of("?status=over") == [over["id"]]
    assert listed(call, mine, "?status=over")["games"][0]["totals"][0] > 10
    assert ids_of(f"?since={since.replace('+', '%2B')}") == [late]
    assert ids_of("?player=Q&status=active&limit=1") == [late]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?status=done", "status"),
        ("?since=yesterday", "since"),
        ("?limit=0", "limit"),
        ("?limit=101", "limit"),
        ("?cursor=bm90IGEgY3Vyc29y", "cursor"),
        ("?player=%00", "player"),
    ],
)
def test_a_bad_listing_query_is_refused_naming_it(call, app, query, field):
    error_of(call("GET", f"/api/v1/games{query}", headers=key_for(app)), 422, field=field)


def test_listing_needs_a_valid_key(call, app):
    game = created(call)
    key = key_for(app)
    for headers in (
        {},
        {"Authorization": f"Bearer {game['edit_token']}"},
        {"Authorization": f"Bearer {key['Authorization'][7:]}x"},
        {"Authorization": "Basic YTpi"},
    ):
        response = call("GET", "/api/v1/games", headers=headers)
        error_of(response, 401, code="unauthorized", field="Authorization")
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
    app.extensions["scorekeeper.store.sqlite"].revoke_api_key("club-site")
    error_of(call("GET", "/api/v1/games", headers=key), 401, field="Authorization")


def test_a_create_with_a_key_that_is_none_stores_nothing(call, app, backend):
    for body, path in (
        (ANA_BEN, "/api/v1/games"),
        ({**ANA_BEN, "hands": []}, "/api/v1/games/import"),
    ):
        response = call("POST", path, json=body, headers={"Authorization": "Bearer sk_nope"})
        error_of(response, 401, code="unauthorized", field="Authorization")
    assert backend.sql("SELECT count(*) FROM games") == [(0,)]


def test_an_import_with_a_key_belongs_to_it_and_a_repeat_finds_the_same_game(call, app):
    mine = key_for(app)
    game = created(call)
    exported = call("GET", f"{game['url']}/export").json
    imported = call("POST", "/api/v1/games/import", json=exported, headers=mine)
    assert imported.status_code == 201
    repeat = {**mine, "Idempotency-Key": "create-1"}
    first = call("POST", "/api/v1/games", json=ANA_BEN, headers=repeat).json
    again = call("POST", "/api/v1/games", json=ANA_BEN, headers=repeat).json
    assert (again["id"], again["edit_token"]) == (first["id"], first["edit_token"])
    other = {**key_for(app, "other"), "Idempotency-Key": "create-1"}
    reused = call("POST", "/api/v1/games", json=ANA_BEN, headers=other)
    error_of(reused, 422, code="idempotency_key_reused")
    assert [g["id"] for g in listed(call, mine)["games"]] == [first["id"], imported.json["id"]]


# ----------------------------------------------------------------------------- rotation


def test_rotating_the_edit_token_answers_a_new_one_and_the_old_one_gets_401(call, app):
    game = created(call)
    old = {"Authorization": f"Bearer {game['edit_token']}"}
    rotated = call("POST", f"{game['url']}/token", headers=old)
    assert rotated.status_code == 200
    assert list(rotated.json) == ["id", "edit_token"] and rotated.json["id"] == game["id"]
    new = {"Authorization": f"Bearer {rotated.json['edit_token']}"}
    assert new != old
    refused = call("POST", f"{game['url']}/hands", json={"kind": "void"}, headers=old)
    error_of(refused, 401, code="unauthorized", field="Authorization")
    assert "replaced" in refused.json["error"]["message"]
    assert refused.headers["WWW-Authenticate"] == 'Bearer error="invalid_token"'
    error_of(call("POST", f"{game['url']}/token", headers=old), 401, field="Authorization")
    added = call("POST", f"{game['url']}/hands", json={"kind": "void"}, headers=new)
    assert added.status_code == 201
    wrong = {"Authorization": "Bearer not-the-token"}
    error_of(call("POST", f"{game['url']}/token", headers=wrong), 403, code="forbidden")
    error_of(call("POST", f"{game['url']}/token"), 401, code="unauthorized")
    error_of(call("POST", "/api/v1/games/AAAAAAAAAAAAAAAA/token", headers=new), 404)
    assert games.token_matches(
        app.extensions["scorekeeper.store.sqlite"].game(game["id"]),
        rotated.json["edit_token"],
    )


@pytest.mark.one_backend
def test_the_document_names_the_new_operations_and_their_security(call):
    document = call.client.get("/api/openapi.json").json
    paths = document["paths"]
    assert paths["/api/v1/games"]["get"]["operationId"] == "listGames"
    assert paths["/api/v1/games"]["get"]["security"] == [{"apiKeyAuth": []}]
    assert paths["/api/v1/games"]["post"]["security"] == [{}, {"apiKeyAuth": []}]
    rotate = paths["/api/v1/games/{game_id}/token"]["post"]
    assert rotate["operationId"] == "rotateToken" and rotate["security"] == [{"bearerAuth": []}]
    assert {"200", "401", "403", "404", "429"} <= set(rotate["responses"])
    assert {"200", "401", "422", "429"} <= set(paths["/api/v1/games"]["get"]["responses"])
    assert document["components"]["securitySchemes"]["apiKeyAuth"]["scheme"] == "bearer"


# ----------------------------------------------------------------------------- limits


def limited_app(tmp_path, **limits):
    return create_app(
        {"DB": str(tmp_path / "limited.db"), "SECRET_KEY": "test", "TESTING": True, **limits}
    )


@pytest.mark.one_backend
def test_creates_are_counted_per_key_when_a_key_is_sent_else_per_address(tmp_path):
    app = limited_app(tmp_path, CREATE_LIMIT="2 per minute")
    client = app.test_client()
    league = [key_for(app, f"bot-{i}") for i in range(3)]

    def create(headers=None):
        return client.post("/api/v1/games", json=ANA_BEN, headers=headers or {})

    for headers in (*league, None):  # one address: each key, and the address, has its own 2
        assert [create(headers).status_code for _ in range(2)] == [201, 201]
    refused = create(league[0])
    assert refused.status_code == 429 and "this API key" in refused.json["error"]["message"]
    by_address = create()
    assert by_address.status_code == 429 and "this address" in by_address.json["error"]["message"]
    assert create({"Authorization": "Bearer sk_not-a-key"}).status_code == 429  # the address'


@pytest.mark.one_backend
def test_wrong_tokens_lock_guessers_but_never_a_holder_of_a_valid_right(tmp_path):
    app = limited_app(tmp_path, WRONG_TOKEN_LIMIT="3 per minute")
    client = app.test_client()
    key = key_for(app)
    game = client.post("/api/v1/games", json=ANA_BEN, headers=key).json
    hands, right = f"{game['url']}/hands", {"Authorization": f"Bearer {game['edit_token']}"}
    wrong = [
        client.post(hands, json={"kind": "void"}, headers={"Authorization": f"Bearer w{i}"})
        for i in range(3)
    ]
    assert [r.status_code for r in wrong] == [403] * 3
    assert (
        client.post(hands, json={"kind": "void"}, headers={"Authorization": "Bearer w"}).status_code
        == 429
    )
    assert client.get("/api/v1/games").status_code == 429  # a listing without a key: over
    # the same address, bearing valid rights: never counted, never refused
    for _ in range(5):
        assert client.post(hands, json={"kind": "void"}, headers=right).status_code == 201
        assert client.get("/api/v1/games", headers=key).status_code == 200
    rotated = client.post(f"{game['url']}/token", headers=right)
    assert rotated.status_code == 200
    assert client.post(hands, json={"kind": "void"}, headers=right).status_code == 429  # retired


@pytest.mark.one_backend
def test_wrong_tokens_from_an_address_do_not_lock_its_own_scorepad(tmp_path):
    app = limited_app(tmp_path, WRONG_TOKEN_LIMIT="2 per minute")
    phone = app.test_client()
    game = start(phone)
    stranger = app.test_client()  # the same address (the test client's), no right
    for _ in range(2):
        assert stranger.get(game + "/hand").status_code == 403
    assert stranger.get(game + "/hand").status_code == 429
    for _ in range(4):
        assert "<form" in page(phone, game + "/hand")
