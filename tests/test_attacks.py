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
"""

from __future__ import annotations

import functools
import http.server
import sqlite3
import threading
from urllib.parse import urljoin, urlsplit

import pytest
import requests
from test_pad_browser import CHROMIUM, browser  # noqa: F401 (the fixture)

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


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


@pytest.mark.parametrize("meta", ["", '<meta name="referrer" content="no-referrer">'],
                         ids=["with-origin", "origin-hidden"])
def test_a_forged_cross_site_post_is_refused_and_never_offered_again(live, browser,  # noqa: F811
                                                                    attacker, meta):
    base, folder = attacker
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        game_id = pad_game(page, live.url)
        (folder / "win.html").write_text(FORGED.format(
            meta=meta, action=f"{live.url}/games/{game_id}/hand"))
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


@pytest.mark.parametrize("target", [
    "/\t/evil.example", "//evil.example", "/\\evil.example", "\\\\evil.example",
    "\\/evil.example", " //evil.example", "/\\/evil.example", "https://evil.example/",
    "http:evil.example", "javascript:alert(1)", "/%09/evil.example", "//evil.example@x",
    "\x00//evil.example", "evil.example", "https:/\\evil.example",
])
def test_settings_never_sends_the_browser_to_another_site(live, target):
    session, token = pad_session(live.url)
    with session:
        response = session.post(f"{live.url}/settings", timeout=10, allow_redirects=False,
                                data={"csrf_token": token, "next": target,
                                      "four_colour": "on"})
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
        response = session.post(f"{live.url}/settings", timeout=10, allow_redirects=False,
                                data={"csrf_token": token, "next": "/check?x=1#y"})
    assert response.status_code == 303 and response.headers["Location"] == "/check?x=1#y"


# ----------------------------------------------------------------------------- no 5xx

def stored_games(live) -> int:
    with sqlite3.connect(f"file:{live.db}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT count(*) FROM games").fetchone()[0]


DEEP = "[" * 1000 + "]" * 1000
LONG = "1" * 5000


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/api/v1/games", f'{{"players": {DEEP}}}', "body"),
    ("/api/v1/games", '{"players": ["Ana", "Ben"], "x": %s}' % ("[" * 40 + "]" * 40),
     "x." + ".".join(["0"] * 31)),
    ("/api/v1/games", '{"players": ["\\ud800", "Ben"]}', "players.0"),
    ("/api/v1/games", f'{{"players": ["Ana", "Ben"], "dealer": {LONG}}}', "dealer"),
    ("/api/v1/games", f'{{"players": ["Ana", "Ben"], "stake": -{LONG}}}', "stake"),
    ("/api/v1/replay", '{"format": "gin-rummy-deal/1", "comment": "a\\udfffb"}', "comment"),
    ("/api/v1/games/import", '{"players": ["Ana", "Ben"], "hands": [{"kind": "record",'
     ' "record": {"format": "gin-rummy-deal/1", "comment": "\\ud800"}}]}',
     "hands.0.record.comment"),
    ("/api/v1/melds", '{"cards": "As", "\\ud800": 1}', "body"),
])
def test_api_input_python_cannot_keep_is_a_422_naming_the_field(live, path, body, field):
    before = stored_games(live)
    response = requests.post(live.url + path, data=body.encode(), timeout=10,
                             headers={"Content-Type": "application/json"})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["field"] == field and error["message"].startswith(f"{field}: ")
    assert stored_games(live) == before


def test_api_hand_with_a_surrogate_or_a_huge_number_is_refused_and_not_stored(live):
    url, auth = live.new_game()
    for body, field in [
        ('{"kind": "record", "record": {"format": "gin-rummy-deal/1", "comment": "\\ud800"}}',
         "record.comment"),
        (f'{{"kind": "quick", "knocker": 0, "knocker_deadwood": {LONG},'
         ' "defender_deadwood": 3}', "knocker_deadwood"),
        (f'{{"kind": "void", "k": {DEEP}}}', "body"),
    ]:
        response = requests.post(f"{url}/hands", data=body.encode(), timeout=10,
                                 headers={**auth, "Content-Type": "application/json"})
        assert response.status_code == 422 and response.json()["error"]["field"] == field
    assert requests.get(url, timeout=10).json()["version"] == 0


def test_pad_input_python_cannot_keep_is_a_message_on_the_page(live):
    session, token = pad_session(live.url)
    with session:
        started = session.post(f"{live.url}/games", timeout=10, data={
            "csrf_token": token, "player_0": "Ana", "player_1": "Ben", "preset": "standard",
            "dealer": "0"})
        assert started.status_code == 200 and "/games/" in started.url
        game = started.url
        for record, words in [
            ('{"format": "gin-rummy-deal/1", "comment": "\\ud800"}', "lone UTF-16 surrogate"),
            (f'{{"format": "gin-rummy-deal/1", "seed": {LONG}}}', "5000 digits"),
            (f'{{"format": "gin-rummy-deal/1", "x": {DEEP}}}', "nesting deeper"),
        ]:
            for path in (f"{game}/hand", f"{live.url}/replay"):
                response = session.post(path, timeout=10, data={
                    "csrf_token": token, "mode": "record", "record": record})
                assert response.status_code == 422, (path, response.status_code)
                assert words in response.text and "record" in response.text
        response = session.post(f"{live.url}/settings", timeout=10, allow_redirects=False,
                                data={"csrf_token": token, "next": "/check\r\nX-Evil: 1"})
        assert response.status_code == 400 and "next:" in response.text
        assert "X-Evil" not in response.headers
        sheet = requests.get(game.replace("/games/", "/api/v1/games/"), timeout=10).json()
        assert sheet["version"] == 0


# ----------------------------------------------------------------------------- cookies


def test_the_pads_cookies_live_for_a_season(live):
    session, token = pad_session(live.url)
    with session:
        response = session.post(f"{live.url}/games", timeout=10, allow_redirects=False, data={
            "csrf_token": token, "player_0": "Ana", "player_1": "Ben", "preset": "standard",
            "dealer": "0"})
        fresh = requests.get(live.url + "/", timeout=10)
    for answer, name in ((response, "sk_edit_"), (fresh, "sk_csrf")):
        cookies = [c for c in answer.raw.headers.getlist("Set-Cookie") if c.startswith(name)]
        assert cookies and all(f"Max-Age={120 * 24 * 3600};" in c for c in cookies), cookies
