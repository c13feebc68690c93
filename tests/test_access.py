"""Access control through a real gunicorn on loopback.

Writes need the game's edit token (``Authorization: Bearer`` in the API,
the HttpOnly edit cookie in the scorepad); without it or with a wrong one
they are refused (401 / 403) and nothing changes in the SQLite file. The
store keeps only the token's SHA-256, compared in constant time. Share
links read, never write. Scorepad forms need their CSRF token. Every
response carries the security headers. Game ids are random.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import os
import re
import sqlite3
from types import SimpleNamespace

import pytest
import requests

from api.security import HEADERS
from scorekeeper.store import games

QUICK = {"kind": "quick", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 12}


def row_counts(db) -> tuple[int, int]:
    """(games, log rows) in the SQLite file."""
    with sqlite3.connect(db) as conn:
        return (
            conn.execute("SELECT count(*) FROM games").fetchone()[0],
            conn.execute("SELECT count(*) FROM hands").fetchone()[0],
        )


def log_of(db, game_id: str) -> list:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT * FROM hands WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()


def test_api_writes_need_the_games_edit_token(live):
    url, auth = live.new_game()
    other_url, other_auth = live.new_game()
    requests.post(f"{url}/hands", json=QUICK, headers=auth, timeout=10)
    game_id = url.rsplit("/", 1)[1]
    before = log_of(live.db, game_id)
    attempts = [
        ("POST", "/hands", QUICK),
        ("PUT", "/hands/1", QUICK),
        ("DELETE", "/hands/last", None),
    ]
    for method, path, body in attempts:
        for headers, status in [
            ({}, 401),
            ({"Authorization": "Bearer"}, 401),
            ({"Authorization": "Basic QW5hOkJlbg=="}, 401),
            ({"Authorization": "Bearer wrong"}, 403),
            (other_auth, 403),  # another game's token
            ({"Authorization": auth["Authorization"][:-1]}, 403),
        ]:
            response = requests.request(method, url + path, json=body, headers=headers, timeout=10)
            assert response.status_code == status, (method, path, headers)
            error = response.json()["error"]
            assert error["field"] == "Authorization" and error["message"]
            if status == 401:
                assert response.headers["WWW-Authenticate"] == "Bearer"
    assert log_of(live.db, game_id) == before
    assert requests.get(other_url, timeout=10).json()["version"] == 0


def test_the_store_keeps_only_a_hash_of_the_token(live):
    response = requests.post(
        f"{live.url}/api/v1/games", json={"dealer": 0, "players": ["Ana", "Ben"]}, timeout=10
    ).json()
    token = response["edit_token"]
    with sqlite3.connect(live.db) as conn:
        stored = conn.execute(
            "SELECT token_hash FROM games WHERE id = ?", (response["id"],)
        ).fetchone()[0]
        conn.execute("PRAGMA wal_checkpoint(FULL)")
    assert stored == hashlib.sha256(token.encode()).hexdigest()
    for path in (live.db, f"{live.db}-wal"):
        if os.path.exists(path):
            with open(path, "rb") as f:
                assert token.encode() not in f.read()
    assert "edit_token" not in requests.get(f"{live.url}{response['url']}", timeout=10).text


def test_tokens_are_compared_in_constant_time(monkeypatch):
    compared = []
    compare_digest = hmac.compare_digest

    def spy(a, b):
        compared.append((a, b))
        return compare_digest(a, b)

    game = SimpleNamespace(token_hash=games.hash_token("right"))  # a stored game's one field
    monkeypatch.setattr(hmac, "compare_digest", spy)  # the module tokens.token_matches calls
    assert games.token_matches(game, "right") and not games.token_matches(game, "wrong!!")
    assert not games.token_matches(game, None)
    # both sides are SHA-256 digests: equal length, whatever the token's length
    assert [(len(a), len(b)) for a, b in compared] == [(64, 64), (64, 64)]


def test_game_ids_are_random_not_sequential(live):
    ids = [
        requests.post(
            f"{live.url}/api/v1/games", json={"dealer": 0, "players": ["Ana", "Ben"]}, timeout=10
        ).json()["id"]
        for _ in range(30)
    ]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{16}", i) for i in ids)
    for a, b in itertools.pairwise(ids):  # consecutive ids share next to nothing
        assert sum(x == y for x, y in zip(a, b, strict=True)) <= 6
    assert len({c for i in ids for c in i}) > 40  # drawn from the whole alphabet


def pad_token(session: requests.Session, url: str) -> str:
    html = session.get(url, timeout=10).text
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


@pytest.fixture
def pad_game(live):
    """A game started in the scorepad by one browser: (that browser's session, sheet URL)."""
    owner = requests.Session()
    response = owner.post(
        f"{live.url}/games",
        allow_redirects=False,
        timeout=10,
        data={
            "csrf_token": pad_token(owner, f"{live.url}/"),
            "player_0": "Ana",
            "player_1": "Bor",
            "preset": "standard",
            "options_for": "standard",
            "dealer": "0",
        },
    )
    assert response.status_code == 303
    sheet = live.url + response.headers["Location"]
    hand = owner.post(
        f"{sheet}/hand",
        timeout=10,
        data={
            "csrf_token": pad_token(owner, sheet),
            "mode": "quick",
            "knocker": "0",
            "kind": "knock",
            "knocker_deadwood": "3",
            "defender_deadwood": "12",
        },
    )
    assert hand.status_code == 200 and hand.url.startswith(sheet)
    yield owner, sheet
    owner.close()


def test_share_links_are_read_only(live, pad_game):
    _, sheet = pad_game
    game_id = sheet.rsplit("/", 1)[1]
    before = log_of(live.db, game_id)
    with requests.Session() as guest:
        page = guest.get(sheet, timeout=10)
        assert page.status_code == 200 and "read-only" in page.text
        assert "Undo the last hand" not in page.text
        token = pad_token(guest, sheet)  # a valid CSRF token of the guest's own browser
        for path, data in [
            ("/undo", {}),
            ("/hand", {"mode": "quick", "knocker": "1", "kind": "gin", "defender_deadwood": "5"}),
            ("/hands/1/void", {}),
            ("/rematch", {}),
        ]:
            response = guest.post(sheet + path, data={"csrf_token": token, **data}, timeout=10)
            assert response.status_code == 403, path
            assert "read-only" in response.text
        assert guest.get(f"{sheet}/hand", timeout=10).status_code == 403
        api = guest.get(f"{live.url}/api/v1/games/{game_id}", timeout=10)
        assert api.status_code == 200 and api.json()["version"] == 1
    assert log_of(live.db, game_id) == before


def test_forms_need_their_csrf_token(live, pad_game):
    owner, sheet = pad_game
    game_id = sheet.rsplit("/", 1)[1]
    games_before, _ = row_counts(live.db)
    before = log_of(live.db, game_id)
    forged = pad_token(owner, sheet)[:-2] + "xx"
    for data, headers in [
        ({}, {}),
        ({"csrf_token": ""}, {}),
        ({"csrf_token": forged}, {}),
        ({"csrf_token": pad_token(owner, sheet)}, {"Origin": "https://evil.example"}),
    ]:
        for path in ("/undo", "/hands/1/void", "/rematch"):
            response = owner.post(sheet + path, data=data, headers=headers, timeout=10)
            assert response.status_code == 400, (path, data, headers)
            # no Origin of this site: refused, and nothing offered to send again
            assert "Nothing was saved" in response.text and "Send again" not in response.text
    refused = owner.post(f"{live.url}/games", data={"player_0": "X", "player_1": "Y"}, timeout=10)
    assert refused.status_code == 400
    assert log_of(live.db, game_id) == before and row_counts(live.db)[0] == games_before
    undo = owner.post(sheet + "/undo", data={"csrf_token": pad_token(owner, sheet)}, timeout=10)
    assert undo.status_code == 200 and len(log_of(live.db, game_id)) == len(before) + 1


def test_every_response_carries_the_security_headers(live, pad_game):
    owner, sheet = pad_game
    url, auth = live.new_game()
    responses = [
        requests.get(f"{live.url}/api/openapi.json", timeout=10),
        requests.get(url, timeout=10),
        requests.post(f"{url}/hands", json=QUICK, headers=auth, timeout=10),
        requests.post(f"{url}/hands", json=QUICK, timeout=10),  # 401
        requests.post(f"{url}/hands", json={"kind": "x"}, headers=auth, timeout=10),  # 422
        requests.get(f"{live.url}/api/v1/verify", timeout=10),  # 405
        requests.get(f"{live.url}/api/v1/nowhere", timeout=10),  # 404
        requests.post(
            f"{live.url}/api/v1/melds",
            data="{",
            timeout=10,
            headers={"Content-Type": "application/json"},
        ),  # 400
        owner.get(f"{live.url}/", timeout=10),
        owner.get(sheet, timeout=10),
        owner.get(f"{live.url}/games/nowhere-at-all", timeout=10),  # 404 page
        owner.post(sheet + "/undo", timeout=10),  # CSRF 400
        owner.get(f"{live.url}/static/pad.css", timeout=10),
        owner.get(f"{live.url}/pad/melds?cards=As+2s+3s", timeout=10),
    ]
    assert {r.status_code for r in responses} >= {200, 201, 400, 401, 404, 405, 422}
    for response in responses:
        for name, value in HEADERS.items():
            assert response.headers.get(name) == value, (response.url, name)
    assert HEADERS["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'self'" in HEADERS["Content-Security-Policy"]
    assert HEADERS["Referrer-Policy"] in ("no-referrer", "same-origin")
