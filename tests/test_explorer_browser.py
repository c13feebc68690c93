"""The API explorer in chromium, through ``scorekeeper serve`` (nginx before gunicorn).

``/api/docs`` shows every operation of the OpenAPI document, and try-it-out on
``getGame`` asks this server for a real game and shows its sheet: under the
service's Content-Security-Policy, with no file from elsewhere, no script error,
no console error (a CSP violation is one) and no failed load.
"""

from __future__ import annotations

import os
import re
from urllib.parse import urlsplit

import pytest
import requests
from browser_kit import CHROMIUM, WAIT
from playwright.sync_api import expect
from test_pad_browser import ARTIFACTS

from api.nginx import NCHAN_MODULE

pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(NCHAN_MODULE)),
    reason="chromium or nginx's nchan is not installed (tests/run.sh installs them)",
)


@pytest.fixture
def page(browser, live):
    """A desktop page that notes every error and every request it makes."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(WAIT)
    page.errors, page.asked = [], []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda msg: msg.type == "error" and page.errors.append(msg.text))
    page.on("requestfailed", lambda request: page.errors.append(f"failed: {request.url}"))
    page.on("request", lambda request: page.asked.append(request.url))
    yield page
    context.close()


def test_the_explorer_shows_every_operation_and_tries_one_out(page, live):
    game_url, _ = live.new_game(players=["Ana", "Bor"])
    game_id = game_url.rsplit("/", 1)[1]
    document = requests.get(f"{live.url}/api/openapi.json", timeout=10).json()
    operations = [
        op["operationId"]
        for path in document["paths"].values()
        for method, op in path.items()
        if method in ("get", "post", "put", "delete")
    ]

    page.goto(f"{live.url}/api/docs")
    for operation in operations:
        expect(page.locator(f"[id$='-{operation}']").first).to_be_attached()

    get_game = page.locator("[id$='-getGame']").first
    get_game.locator(".opblock-summary").first.click()
    get_game.locator("input[placeholder='game_id']").fill(game_id)
    get_game.locator("button.execute").click()
    response = get_game.locator(".live-responses-table .response")
    expect(response.locator(".response-col_status")).to_have_text("200")
    expect(response.locator(".microlight").first).to_contain_text(f'"id": "{game_id}"')
    expect(response.locator(".microlight").first).to_contain_text('"Bor"')
    _shot(page, get_game, response.first, "explorer-try-it-out.png")  # docs/images/explorer.png

    assert page.errors == []
    elsewhere = {urlsplit(url).netloc for url in page.asked} - {urlsplit(live.url).netloc}
    assert elsewhere <= {""}, f"the explorer asked other hosts: {elsewhere}"
    assert any(re.search(rf"/api/v1/games/{game_id}$", url) for url in page.asked)


EDGE = "(el, edge) => el.getBoundingClientRect()[edge] + window.scrollY"
"""Where an element's edge is on the page (not in the window)."""


def _shot(page, start, end, name: str) -> None:
    """A picture of the page from the top of ``start`` to the bottom of ``end``."""
    top, bottom = start.evaluate(EDGE, "top"), end.evaluate(EDGE, "bottom")
    width = page.viewport_size["width"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    clip = {"x": 0, "y": top, "width": width, "height": bottom - top}
    page.screenshot(path=str(ARTIFACTS / name), full_page=True, clip=clip)
