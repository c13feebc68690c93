"""Cross-origin requests (api.cors): the JSON API answers the origins of ``CORS_ORIGINS``.

Through Flask's test client on a real SQLite file: none by default, the
listed origins only, the API only (never the scorepad), preflights that let
the API's methods and headers through and expose its ETag, and the setting
read from the environment as every setting is.
"""

from __future__ import annotations

import pytest

from api import STORAGE_KEY, create_app, settings

CLUB = "https://club.example"
EVERY_HEADER = "authorization, content-type, idempotency-key, if-match, if-none-match, prefer"


def new_app(tmp_path, **config):
    return create_app({"DB": str(tmp_path / "cors.db"), "TESTING": True, **config})


@pytest.fixture(scope="module")
def club_app(tmp_path_factory):
    """An app that lets two origins in, one for the module's tests (each makes its own games)."""
    app = new_app(tmp_path_factory.mktemp("club"), CORS_ORIGINS=[CLUB, "http://localhost:8080"])
    yield app
    app.extensions[STORAGE_KEY].close()


@pytest.fixture
def club(club_app):
    return club_app.test_client()


def new_game(client, origin=CLUB):
    made = client.post(
        "/api/v1/games", json={"players": ["Ana", "Ben"], "dealer": 0}, headers={"Origin": origin}
    )
    assert made.status_code == 201
    return made


def preflight(client, path, method, origin=CLUB, headers=EVERY_HEADER):
    return client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": headers,
        },
    )


def allowed(value: str | None) -> set[str]:
    return {part.strip().lower() for part in (value or "").split(",") if part.strip()}


def test_no_origin_is_allowed_by_default(tmp_path):
    client = new_app(tmp_path).test_client()
    made = new_game(client)
    assert "Access-Control-Allow-Origin" not in made.headers
    answer = preflight(client, made.json["url"] + "/hands", "POST")
    assert not any(name.startswith("Access-Control-") for name, _ in answer.headers)


def test_a_listed_origin_reads_the_api_and_its_headers(club):
    made = new_game(club)
    assert made.headers["Access-Control-Allow-Origin"] == CLUB
    exposed = allowed(made.headers["Access-Control-Expose-Headers"])
    assert {"etag", "location", "idempotent-replayed", "retry-after"} <= exposed
    assert "Origin" in made.headers["Vary"]
    assert "Access-Control-Allow-Credentials" not in made.headers
    read = club.get(made.json["url"], headers={"Origin": "http://localhost:8080"})
    assert read.headers["Access-Control-Allow-Origin"] == "http://localhost:8080"
    assert (
        club.get("/api/openapi.json", headers={"Origin": CLUB}).headers[
            "Access-Control-Allow-Origin"
        ]
        == CLUB
    )
    # a refusal carries the header too, so the page's script can read why
    refused = club.post(made.json["url"] + "/hands", json={}, headers={"Origin": CLUB})
    assert refused.status_code == 401 and refused.headers["Access-Control-Allow-Origin"] == CLUB


@pytest.mark.parametrize(
    ("path", "method"),
    [
        ("/hands", "POST"),
        ("/hands/1", "PUT"),
        ("/hands/last", "DELETE"),
        ("", "GET"),
    ],
)
def test_a_preflight_lets_the_apis_methods_and_headers_through(club, path, method):
    game = new_game(club).json["url"]
    answer = preflight(club, game + path, method)
    assert answer.status_code == 200
    assert answer.headers["Access-Control-Allow-Origin"] == CLUB
    assert method.lower() in allowed(answer.headers["Access-Control-Allow-Methods"])
    assert allowed(EVERY_HEADER) <= allowed(answer.headers["Access-Control-Allow-Headers"])
    assert int(answer.headers["Access-Control-Max-Age"]) > 0


def test_a_preflight_for_a_create_is_not_counted_as_a_create(tmp_path):
    client = new_app(tmp_path, CORS_ORIGINS=[CLUB], CREATE_LIMIT="1 per minute").test_client()
    for _ in range(3):
        assert preflight(client, "/api/v1/games", "POST").status_code == 200
    new_game(client)


def test_other_origins_and_the_scorepad_get_no_cors(club):
    made = new_game(club, origin="https://evil.example")
    assert "Access-Control-Allow-Origin" not in made.headers
    answer = preflight(club, made.json["url"] + "/hands", "POST", origin="https://evil.example")
    assert "Access-Control-Allow-Origin" not in answer.headers
    for path in ("/", "/games/" + made.json["id"]):
        page = club.get(path, headers={"Origin": CLUB})
        assert page.status_code == 200 and "Access-Control-Allow-Origin" not in page.headers


def test_the_origins_come_from_the_environment_like_every_setting(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_CORS_ORIGINS", f"{CLUB}, http://localhost:8080")
    assert settings(instance_path=str(tmp_path))["CORS_ORIGINS"] == (
        f"{CLUB}, http://localhost:8080"
    )
    client = new_app(tmp_path).test_client()
    assert new_game(client).headers["Access-Control-Allow-Origin"] == CLUB
    monkeypatch.setenv("SCOREKEEPER_CORS_ORIGINS", f'["{CLUB}"]')  # JSON, as any setting
    assert new_game(new_app(tmp_path).test_client()).headers["Access-Control-Allow-Origin"] == CLUB


@pytest.mark.parametrize(
    "value", ["club.example", "https://club.example/path", "ftp://club.example", 7, [CLUB, 7]]
)
def test_a_setting_that_is_no_origin_stops_the_app_naming_it(tmp_path, value):
    with pytest.raises(ValueError, match="CORS_ORIGINS"):
        new_app(tmp_path, CORS_ORIGINS=value)
