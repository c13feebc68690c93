"""A hostile world (issue 13): each attack a reviewer reproduced, replayed against a real server.

The server is the shared live gunicorn (``live`` in conftest); where a
browser is the attacker's tool, Debian's chromium driven by Playwright
visits a page served by a second server on another port (another origin).

* CSRF: another site's page auto-submits a hand to the owner's game; it is
  refused, and the refusal page offers nothing to send again: one click on
  whatever it offers leaves the game unchanged.
* Open redirect: ``/settings`` sends the browser back only to paths of this
  site, whatever the ``next`` field (checked on the parsed URL after the
  browser's own clean-up: tab, CR, LF, backslashes).
* Input that Python's JSON cannot keep (nesting 1,000 deep, integers of
  5,000 digits, lone surrogates, a line break in ``next``): a 4xx naming the
  field, in the API and in the scorepad, never a 500, nothing stored.
* The scorepad's cookies live for a season (120 days).
* Rate limits: creates and wrong tokens per address, shared by all workers; a valid
  token passes the wrong-token limit.
* Idempotency: a repeated write or create gets its first answer exactly.
* Hypothesis fuzzes every POST form of the scorepad (with a valid CSRF token
  and edit rights) and the API's JSON bodies: never a 5xx.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import random
import re
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from unittest import mock
from urllib.parse import urljoin, urlsplit

import pytest
import requests
from browser_kit import CHROMIUM
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from load_kit import TARGET, hand_for
from serve_kit import spawn, stop_soon

from api import create_app, limits
from api.limits import NO_LIMITS_ENV
from api.pad.forms_start import OPTION_LABELS
from scorekeeper.rules import PRESETS

pytestmark = pytest.mark.slow  # each test starts servers (the live one or its own), or chromium


@pytest.fixture(scope="module")
def attacker(tmp_path_factory):
    """Another origin (same host, another port) serving files from a folder: (url, folder)."""
    folder = tmp_path_factory.mktemp("attacker")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", folder
    server.shutdown()
    server.server_close()


FORGED = """<!doctype html><html><head>{meta}</head><body>
<form method="post" action="{action}">
<input name="mode" value="quick"><input name="knocker" value="1"><input name="kind" value="gin">
<input name="knocker_deadwood" value="0"><input name="defender_deadwood" value="98">
</form><script>document.forms[0].submit()</script></body></html>"""
"""A page that, once opened, posts a gin worth 123 for Ben (98 + 25) to the owner's game."""


def pad_game(page, url: str) -> str:
    """Start a game of Ana and Ben in this browser (which gets its edit cookie): its id."""
    page.goto(url + "/")
    page.fill("#player_0", "Ana")
    page.fill("#player_1", "Ben")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/games/*")
    return urlsplit(page.url).path.rsplit("/", 1)[1]


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium is not installed")
@pytest.mark.parametrize(
    "meta",
    ["", '<meta name="referrer" content="no-referrer">'],
    ids=["with-origin", "origin-hidden"],
)
def test_a_forged_cross_site_post_is_refused_and_never_offered_again(live, browser, attacker, meta):
    base, folder = attacker
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        game_id = pad_game(page, live.url)
        (folder / "win.html").write_text(
            FORGED.format(meta=meta, action=f"{live.url}/games/{game_id}/hand")
        )
        with page.expect_navigation(url=f"{live.url}/**"):
            page.goto(f"{base}/win.html")
        page.wait_for_load_state()
        assert page.url.startswith(live.url) and "Nothing was saved" in page.inner_text("main")
        assert 'value="98"' not in page.content()
        offered = page.locator("main button, main input[type=submit]")
        if offered.count():  # the owner clicks what the page offers, once
            offered.first.click()
            page.wait_for_load_state()
        sheet = requests.get(f"{live.url}/api/v1/games/{game_id}", timeout=10).json()
        assert sheet["version"] == 0 and sheet["totals"] == [0, 0]
        assert offered.count() == 0
    finally:
        context.close()


# ----------------------------------------------------------------------------- redirects


def pad_session(url: str) -> tuple[requests.Session, str]:
    """A session holding the scorepad's CSRF cookie, and a token for its forms."""
    session = requests.Session()
    html = session.get(url + "/", timeout=10).text
    token = html.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    return session, token


@pytest.mark.parametrize(
    "target",
    [
        "/\t/evil.example",
        "//evil.example",
        "/\\evil.example",
        "\\\\evil.example",
        "\\/evil.example",
        " //evil.example",
        "/\\/evil.example",
        "https://evil.example/",
        "http:evil.example",
        "javascript:alert(1)",
        "/%09/evil.example",
        "//evil.example@x",
        "\x00//evil.example",
        "evil.example",
        "https:/\\evil.example",
    ],
)
def test_settings_never_sends_the_browser_to_another_site(live, target):
    session, token = pad_session(live.url)
    with session:
        response = session.post(
            f"{live.url}/settings",
            timeout=10,
            allow_redirects=False,
            data={"csrf_token": token, "next": target, "four_colour": "on"},
        )
    assert response.status_code in (303, 400), response.status_code
    if response.status_code == 400:
        assert "next" in response.text and "control character" in response.text
        return
    location = response.headers["Location"]
    assert urlsplit(urljoin(live.url + "/", location)).netloc == urlsplit(live.url).netloc
    assert location.startswith("/") and not location.startswith("//"), location


def test_settings_goes_back_to_the_page_it_came_from(live):
    session, token = pad_session(live.url)
    with session:
        response = session.post(
            f"{live.url}/settings",
            timeout=10,
            allow_redirects=False,
            data={"csrf_token": token, "next": "/check?x=1#y"},
        )
    assert response.status_code == 303 and response.headers["Location"] == "/check?x=1#y"


# ----------------------------------------------------------------------------- no 5xx


def stored_games(db) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT count(*) FROM games").fetchone()[0]


DEEP = "[" * 1000 + "]" * 1000
LONG = "1" * 5000


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/v1/games", f'{{"dealer": 0, "players": {DEEP}}}', "body"),
        (
            "/api/v1/games",
            '{"dealer": 0, "players": ["Ana", "Ben"], "x": %s}' % ("[" * 40 + "]" * 40),
            "x." + ".".join(["0"] * 31),
        ),
        ("/api/v1/games", '{"dealer": 0, "players": ["\\ud800", "Ben"]}', "players.0"),
        ("/api/v1/games", f'{{"players": ["Ana", "Ben"], "dealer": {LONG}}}', "dealer"),
        ("/api/v1/games", f'{{"dealer": 0, "players": ["Ana", "Ben"], "stake": -{LONG}}}', "stake"),
        ("/api/v1/replay", '{"format": "gin-rummy-deal/1", "comment": "a\\udfffb"}', "comment"),
        (
            "/api/v1/games/import",
            '{"players": ["Ana", "Ben"], "hands": [{"kind": "record",'
            ' "record": {"format": "gin-rummy-deal/1", "comment": "\\ud800"}}]}',
            "hands.0.record.comment",
        ),
        ("/api/v1/melds", '{"cards": "As", "\\ud800": 1}', "body"),
    ],
)
def test_api_input_python_cannot_keep_is_a_422_naming_the_field(live, path, body, field):
    before = stored_games(live.db)
    response = requests.post(
        live.url + path,
        data=body.encode(),
        timeout=10,
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["field"] == field and error["message"].startswith(f"{field}: ")
    assert stored_games(live.db) == before


def test_api_hand_with_a_surrogate_or_a_huge_number_is_refused_and_not_stored(live):
    url, auth = live.new_game()
    for body, field in [
        (
            '{"kind": "record", "record": {"format": "gin-rummy-deal/1", "comment": "\\ud800"}}',
            "record.comment",
        ),
        (
            f'{{"kind": "quick", "knocker": 0, "knocker_deadwood": {LONG},'
            ' "defender_deadwood": 3}',
            "knocker_deadwood",
        ),
        (f'{{"kind": "void", "k": {DEEP}}}', "body"),
    ]:
        response = requests.post(
            f"{url}/hands",
            data=body.encode(),
            timeout=10,
            headers={**auth, "Content-Type": "application/json"},
        )
        assert response.status_code == 422 and response.json()["error"]["field"] == field
    assert requests.get(url, timeout=10).json()["version"] == 0


def test_pad_input_python_cannot_keep_is_a_message_on_the_page(live):
    session, token = pad_session(live.url)
    with session:
        started = session.post(
            f"{live.url}/games",
            timeout=10,
            data={
                "csrf_token": token,
                "player_0": "Ana",
                "player_1": "Ben",
                "preset": "standard",
                "dealer": "0",
            },
        )
        assert started.status_code == 200 and "/games/" in started.url
        game = started.url
        for record, words in [
            ('{"format": "gin-rummy-deal/1", "comment": "\\ud800"}', "lone UTF-16 surrogate"),
            (f'{{"format": "gin-rummy-deal/1", "seed": {LONG}}}', "5000 digits"),
            (f'{{"format": "gin-rummy-deal/1", "x": {DEEP}}}', "nesting deeper"),
        ]:
            for path in (f"{game}/hand", f"{live.url}/replay"):
                response = session.post(
                    path, timeout=10, data={"csrf_token": token, "mode": "record", "record": record}
                )
                assert response.status_code == 422, (path, response.status_code)
                assert words in response.text and "record" in response.text
        response = session.post(
            f"{live.url}/settings",
            timeout=10,
            allow_redirects=False,
            data={"csrf_token": token, "next": "/check\r\nX-Evil: 1"},
        )
        assert response.status_code == 400 and "next:" in response.text
        assert "X-Evil" not in response.headers
        sheet = requests.get(game.replace("/games/", "/api/v1/games/"), timeout=10).json()
        assert sheet["version"] == 0


# ----------------------------------------------------------------------------- cookies


def test_the_pads_cookies_live_for_a_season(live):
    session, token = pad_session(live.url)
    with session:
        response = session.post(
            f"{live.url}/games",
            timeout=10,
            allow_redirects=False,
            data={
                "csrf_token": token,
                "player_0": "Ana",
                "player_1": "Ben",
                "preset": "standard",
                "dealer": "0",
            },
        )
        fresh = requests.get(live.url + "/", timeout=10)
    for answer, name in ((response, "sk_device"), (fresh, "sk_csrf")):
        cookies = [c for c in answer.raw.headers.getlist("Set-Cookie") if c.startswith(name)]
        assert cookies and all(f"Max-Age={120 * 24 * 3600};" in c for c in cookies), cookies


# ----------------------------------------------------------------------------- rate limits


def test_the_default_rate_limits_bite_across_workers(tmp_path):
    """30 creates a minute per address (API, import and the scorepad's start form together),
    20 wrong tokens a minute; each request on a new connection, spread over 4 workers."""
    db = tmp_path / "limited.db"
    env = {key: value for key, value in os.environ.items() if key not in NO_LIMITS_ENV}
    with mock.patch.dict(os.environ, env, clear=True):
        process, url = spawn(db, workers=4)
    try:
        created = [
            requests.post(
                f"{url}/api/v1/games", json={"dealer": 0, "players": ["Ana", "Ben"]}, timeout=10
            )
            for _ in range(30)
        ]
        assert [r.status_code for r in created] == [201] * 30
        for path in ("/api/v1/games", "/api/v1/games/import"):
            refused = requests.post(url + path, json={"players": ["Cy", "Di"]}, timeout=10)
            assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 61
            error = refused.json()["error"]
            assert error["code"] == "too_many_requests" and "30 per 1 minute" in error["message"]
        session, token = pad_session(url)
        with session:
            page = session.post(
                f"{url}/games",
                timeout=10,
                allow_redirects=False,
                data={
                    "csrf_token": token,
                    "player_0": "Cy",
                    "player_1": "Di",
                    "preset": "standard",
                    "dealer": "0",
                },
            )
        assert page.status_code == 429 and "Wait" in page.text and page.headers["Retry-After"]
        assert stored_games(db) == 30

        game = created[0].json()
        hands = f"{url}{game['url']}/hands"
        wrong = [
            requests.post(
                hands,
                json={"kind": "void"},
                timeout=10,
                headers={"Authorization": f"Bearer wrong-{i}"},
            ).status_code
            for i in range(20)
        ]
        assert wrong == [403] * 20
        guess = requests.post(
            hands, json={"kind": "void"}, timeout=10, headers={"Authorization": "Bearer wrong"}
        )
        assert guess.status_code == 429 and guess.json()["error"]["code"] == "too_many_requests"
        assert requests.get(f"{url}{game['url']}", timeout=10).json()["version"] == 0
        right = requests.post(  # the same address with the right token: never locked out
            hands,
            json={"kind": "void"},
            timeout=10,
            headers={"Authorization": f"Bearer {game['edit_token']}"},
        )
        assert right.status_code == 201
        assert os.path.exists(f"{db}-limits")  # the counters all workers share
    finally:
        stop_soon(process, "test_the_default_rate_limits_bite_across_workers")


def test_the_limits_guard_the_views_that_declare_them():
    """Each limit is a decorator on the views it guards (api.limits): these and no others;
    a view renamed keeps its limit, a new one that creates or needs rights must say so."""
    app = create_app({"DB": ":memory:", "SECRET_KEY": "test"})
    guarded = {
        (rule.endpoint, method): scope
        for rule in app.url_map.iter_rules()
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"})
        if (scope := limits.scope_of(app.view_functions[rule.endpoint], method))
    }
    edits = ("new_hand", "edit_hand", "add_hand", "correct_hand", "void_hand", "undo", "rematch")
    assert guarded == {
        ("api_v1.Games", "POST"): "create",
        ("api_v1.Import", "POST"): "create",
        ("api_events.Events", "POST"): "create",
        ("api_seasons.Seasons", "POST"): "create",
        ("api_events.EventRounds", "POST"): "wrong-token",
        ("api_events.EndMatch", "POST"): "wrong-token",
        ("api_events.EventRound", "DELETE"): "wrong-token",
        ("api_events.EventClock", "PUT"): "wrong-token",
        ("api_events.Withdrawals", "POST"): "wrong-token",
        ("api_events.Entries", "POST"): "wrong-token",
        ("api_events.Swaps", "POST"): "wrong-token",
        ("pad.start_game", "POST"): "create",
        ("pad.create_event", "POST"): "create",
        ("pad.create_season", "POST"): "create",
        ("pad.pair", "POST"): "wrong-token",
        ("pad.end_match", "POST"): "wrong-token",
        ("pad.withdraw", "POST"): "wrong-token",
        ("pad.set_clock", "POST"): "wrong-token",
        ("pad.withdraw_player", "POST"): "wrong-token",
        ("pad.enter_player", "POST"): "wrong-token",
        ("pad.swap_players", "POST"): "wrong-token",
        ("pad.restore", "POST"): "wrong-token",
        ("pad.director_handover", "POST"): "wrong-token",
        ("pad.revoke_director", "POST"): "wrong-token",
        ("api_v1.Hands", "POST"): "wrong-token",
        ("api_v1.LastHand", "DELETE"): "wrong-token",
        ("api_v1.HandN", "PUT"): "wrong-token",
        ("api_v1.Games", "GET"): "wrong-token",
        ("api_v1.GameToken", "POST"): "wrong-token",
        **{
            (f"pad.{name}", method): "wrong-token"
            for name in edits
            for rule in app.url_map.iter_rules(f"pad.{name}")
            for method in rule.methods - {"HEAD", "OPTIONS"}
        },
    }


def test_an_app_with_only_the_api_counts_its_creates(tmp_path):
    app = create_app(
        {"DB": str(tmp_path / "api.db"), "SECRET_KEY": "test", "CREATE_LIMIT": "2 per minute"},
        scorepad=False,
    )
    client = app.test_client()
    statuses = [
        client.post("/api/v1/games", json={"dealer": 0, "players": ["Ana", "Ben"]}).status_code
        for _ in range(3)
    ]
    assert statuses == [201, 201, 429]
    assert client.get("/api/v1/games/nope").status_code == 404  # reads are not counted


def test_heavy_requests_run_one_at_a_time_and_the_others_are_told_to_retry(tmp_path):
    """Four imports of 1,000 hands sent at once to one worker: one runs, the others that
    arrive meanwhile get 503 busy with Retry-After and store nothing; sent again after it,
    each is stored once."""
    rng = random.Random(7)
    record = {
        "format": "scorekeeper.game",
        "version": 1,
        "players": ["Ana", "Ben"],
        "rules": {"target": TARGET},
        "dealer": 0,
        "hands": [hand_for(rng) for _ in range(1000)],
    }
    db = tmp_path / "heavy.db"
    process, url = spawn(db, workers=1)
    try:
        start = threading.Barrier(4)

        def send(_: int) -> requests.Response:
            start.wait()
            return requests.post(f"{url}/api/v1/games/import", json=record, timeout=60)

        with ThreadPoolExecutor(4) as pool:
            first = list(pool.map(send, range(4)))
        statuses = sorted(r.status_code for r in first)
        assert 201 in statuses and 503 in statuses, statuses
        assert set(statuses) <= {201, 503}
        busy = [r for r in first if r.status_code == 503]
        for refused in busy:
            assert refused.headers["Retry-After"] == "1"
            error = refused.json()["error"]
            assert error["code"] == "busy" and "another import" in error["message"]
        assert stored_games(db) == 4 - len(busy)  # a refused import stored nothing
        for _ in busy:
            for _attempt in range(30):
                again = requests.post(f"{url}/api/v1/games/import", json=record, timeout=60)
                if again.status_code != 503:
                    break
            assert again.status_code == 201
        assert stored_games(db) == 4
        paths = requests.get(f"{url}/api/openapi.json", timeout=10).json()["paths"]
        assert "503" in paths["/api/v1/games/import"]["post"]["responses"]
    finally:
        stop_soon(process, "test_heavy_requests_run_one_at_a_time_and_the_others_are_told_to_retry")


def test_429_is_documented_where_limits_apply(live):
    paths = requests.get(f"{live.url}/api/openapi.json", timeout=10).json()["paths"]
    for path, method in [
        ("/api/v1/games", "post"),
        ("/api/v1/games/import", "post"),
        ("/api/v1/games/{game_id}/hands", "post"),
        ("/api/v1/games/{game_id}/hands/last", "delete"),
        ("/api/v1/games/{game_id}/hands/{n}", "put"),
        ("/api/v1/games", "get"),
        ("/api/v1/games/{game_id}/token", "post"),
    ]:
        assert "429" in paths[path][method]["responses"], (path, method)


# ----------------------------------------------------------------------------- idempotency


def quick_hand(knocker: int, mine: int, theirs: int) -> dict:
    return {
        "kind": "quick",
        "knocker": knocker,
        "knocker_deadwood": mine,
        "defender_deadwood": theirs,
    }


def answer(response: requests.Response) -> tuple:
    """What a client sees of an answer: status, body and the headers that describe it."""
    return (
        response.status_code,
        response.json(),
        {k: response.headers.get(k) for k in ("ETag", "Location", "Content-Type")},
    )


def test_a_repeated_write_gets_its_first_answer_whatever_happened_since(live):
    url, auth = live.new_game()
    send = {
        "hand": lambda: requests.post(
            f"{url}/hands", json=quick_hand(0, 3, 20), headers={**auth, "Idempotency-Key": "hand"}
        ),
        "fix": lambda: requests.put(
            f"{url}/hands/1", json=quick_hand(0, 4, 20), headers={**auth, "Idempotency-Key": "fix"}
        ),
        "undo": lambda: requests.delete(
            f"{url}/hands/last", headers={**auth, "Idempotency-Key": "undo"}
        ),
    }
    first = {name: answer(request()) for name, request in send.items()}
    assert [first[n][0] for n in send] == [201, 200, 200]
    requests.post(f"{url}/hands", json=quick_hand(1, 0, 30), headers=auth, timeout=10)
    for name, request in send.items():  # the hand was corrected, then undone, then another
        again = request()
        assert answer(again) == first[name], name
        assert again.headers["Idempotent-Replayed"] == "true"
    assert first["hand"][1]["hand"]["n"] == 1 and first["undo"][1]["hand"]["seq"] == 2
    assert requests.get(url, timeout=10).json()["version"] == 4  # nothing written again


def test_a_repeated_create_or_import_gives_the_same_game_and_token(live):
    key = "create-7f3c"
    games_before = stored_games(live.db)
    first, again = (
        requests.post(
            f"{live.url}/api/v1/games",
            timeout=10,
            json={"dealer": 0, "players": ["Ana", "Ben"], "stake": 0.1},
            headers={"Idempotency-Key": key},
        )
        for _ in range(2)
    )
    assert answer(first) == answer(again) and first.status_code == 201
    game = first.json()
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    hand = requests.post(
        f"{live.url}{game['url']}/hands", json={"kind": "void"}, headers=auth, timeout=10
    )
    assert hand.status_code == 201  # the token works
    later = requests.post(
        f"{live.url}/api/v1/games",
        timeout=10,
        json={"dealer": 0, "players": ["Ana", "Ben"], "stake": 0.1},
        headers={"Idempotency-Key": key},
    )
    assert answer(later) == answer(first)  # the game as created, not as it is now
    other = requests.post(
        f"{live.url}/api/v1/games",
        json={"dealer": 0, "players": ["Ana", "Cy"]},
        headers={"Idempotency-Key": key},
        timeout=10,
    )
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "idempotency_key_reused"
    export = requests.get(f"{live.url}{game['url']}/export", timeout=10).json()
    imported = [
        requests.post(
            f"{live.url}/api/v1/games/import",
            json=export,
            timeout=10,
            headers={"Idempotency-Key": "import-9d1e"},
        )
        for _ in range(2)
    ]
    assert answer(imported[0]) == answer(imported[1]) and imported[0].status_code == 201
    assert imported[0].json()["game"]["version"] == 1
    assert stored_games(live.db) == games_before + 2
    with sqlite3.connect(f"file:{live.db}?mode=ro", uri=True) as conn:
        rows = conn.execute(
            "SELECT * FROM games WHERE id IN (?, ?)", (game["id"], imported[0].json()["id"])
        ).fetchall()
    stored = repr(rows)  # tokens are kept hashed only
    assert game["edit_token"] not in stored
    assert imported[0].json()["edit_token"] not in stored


# ----------------------------------------------------------------------------- fuzzing

TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)
"""Any text a browser can send (a form is UTF-8: no lone surrogates)."""

DIGITS = st.builds(lambda n, sign: sign + "9" * n, st.integers(1, 6000), st.sampled_from("-"))
"""Whole numbers from 1 to 6,000 digits."""

BIG = "\x00digits:"
"""A leaf standing for an integer literal of that many digits (hypothesis and json.dumps
cannot hold integers past 4,300 digits, so :func:`dumps` writes it into the text)."""

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | TEXT
    | st.text(st.characters(), max_size=5)
    | st.floats(allow_nan=False)
    | st.integers(100, 6000).map(lambda n: f"{BIG}{n}"),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=30,
)
"""JSON values, with huge integers and lone surrogates (written as \\ud800 escapes)."""


def dumps(value) -> str:
    """JSON text of a :data:`JSON` value, its big-integer leaves written out."""
    return re.sub(r'"\\u0000digits:(\d+)"', lambda m: "9" * int(m.group(1)), json.dumps(value))


DEEP_JSON = st.integers(1, 3000).map(lambda n: "[" * n + "]" * n)

RECORDS = st.one_of(
    JSON.map(dumps),
    DEEP_JSON,
    TEXT,
    DIGITS,
    st.builds(
        lambda extra: dumps({"format": "gin-rummy-deal/1", **extra}),
        st.dictionaries(
            st.sampled_from(
                ["dealer", "comment", "seed", "players", "deck", "actions", "rules", "upcard"]
            ),
            JSON,
        ),
    ),
)
"""Deal records as pasted: any JSON, deep nesting, text, and deal-record lookalikes."""

VALUES = {
    "mode": st.sampled_from(["quick", "cards", "record", ""]) | TEXT,
    "kind": st.sampled_from(["knock", "gin", "big_gin", "void", "undercut"]) | TEXT,
    "knocker": st.sampled_from(["0", "1", "2", "-1", ""]) | DIGITS | TEXT,
    "dealer": st.sampled_from(["0", "1", "cut", ""]) | DIGITS | TEXT,
    "action": st.sampled_from(["save", "check", "start", "show_preset"]) | TEXT,
    "preset": st.sampled_from([*PRESETS, ""]) | TEXT,
    "options_for": st.sampled_from([*PRESETS, ""]) | TEXT,
    "record": RECORDS,
    "four_colour": st.sampled_from(["on", "off"]) | TEXT,
    "next": st.sampled_from(["/", "/check", "//evil.example", "/\t/x", "/a\r\nb"]) | TEXT,
}
"""Values for a form field by name; any other field gets numbers or text or card codes."""

CARD_CODES = st.lists(
    st.sampled_from(["As", "Td", "10h", "Kc", "2s", "Zz", "", "♠A"]) | TEXT, max_size=12
)

FORMS = {
    "/games": [
        "player_0",
        "player_1",
        "preset",
        "options_for",
        "dealer",
        "stake",
        "action",
        *OPTION_LABELS,
    ],
    "/games/{game}/undo": [],
    "/games/{game}/rematch": [],
    "/games/{game}/hand": [
        "mode",
        "knocker",
        "kind",
        "knocker_deadwood",
        "defender_deadwood",
        "upcard",
        "record",
        "cards_0",
        "cards_1",
        "action",
    ],
    "/games/{game}/hands/1/edit": [
        "mode",
        "knocker",
        "kind",
        "knocker_deadwood",
        "defender_deadwood",
        "upcard",
        "record",
        "cards_0",
        "cards_1",
        "action",
    ],
    "/games/{game}/hands/1/void": [],
    "/replay": ["record", "step"],
    "/check": ["preset", "upcard", "knocker_cards", "defender_cards"],
    "/settings": ["next", "four_colour"],
}
"""Every POST form of the scorepad (api/pad/routes_*.py) and its fields."""

MULTI = {"cards_0", "cards_1", "knocker_cards", "defender_cards"}


def field_value(name: str) -> st.SearchStrategy:
    if name in MULTI:
        return CARD_CODES
    return VALUES.get(name, DIGITS | TEXT | st.sampled_from(["", "0", "10", "on", "off", "As"]))


@st.composite
def pad_posts(draw) -> tuple[str, dict]:
    path = draw(st.sampled_from(sorted(FORMS)))
    fields = draw(st.lists(st.sampled_from([*FORMS[path], "junk"]), unique=True))
    return path, {name: draw(field_value(name)) for name in fields}


@pytest.fixture(scope="module")
def pad_owner(live):
    """A scorepad session that started a game (edit rights) with two hands: (session, token,
    game id)."""
    session, token = pad_session(live.url)
    started = session.post(
        f"{live.url}/games",
        timeout=10,
        data={
            "csrf_token": token,
            "player_0": "Ana",
            "player_1": "Ben",
            "preset": "standard",
            "dealer": "0",
            "target": "10000",
            "options_for": "standard",
        },
    )
    game = urlsplit(started.url).path.rsplit("/", 1)[1]
    for _ in range(2):
        session.post(
            f"{live.url}/games/{game}/hand",
            timeout=10,
            data={
                "csrf_token": token,
                "mode": "quick",
                "knocker": "0",
                "kind": "knock",
                "knocker_deadwood": "3",
                "defender_deadwood": "20",
            },
        )
    yield session, token, game
    session.close()


@settings(
    max_examples=400, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
@given(pad_posts())
def test_fuzzed_scorepad_forms_never_get_a_5xx(live, pad_owner, post):
    session, token, game = pad_owner
    path, form = post
    response = session.post(
        live.url + path.format(game=game),
        timeout=30,
        data={**form, "csrf_token": token},
        allow_redirects=False,
    )
    assert response.status_code < 500, (path, form, response.status_code)
    if response.status_code == 400:  # refused: the page says which field
        assert "next" in response.text or "Nothing was saved" in response.text


API_POSTS = [
    "/api/v1/games",
    "/api/v1/games/import",
    "/api/v1/melds",
    "/api/v1/verify",
    "/api/v1/replay",
]


@settings(
    max_examples=200, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
@given(
    st.sampled_from(API_POSTS),
    JSON.map(dumps)
    | DEEP_JSON
    | st.dictionaries(
        st.sampled_from(
            [
                "players",
                "cards",
                "knocker",
                "format",
                "hands",
                "rules",
                "stake",
                "dealer",
                "comment",
            ]
        ),
        JSON,
    ).map(dumps),
)
def test_fuzzed_api_json_never_gets_a_5xx(live, path, body):
    response = requests.post(
        live.url + path,
        data=body.encode(),
        timeout=30,
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code < 500, (path, body[:200], response.status_code)
    if response.status_code >= 400:
        assert response.json()["error"]["message"]
