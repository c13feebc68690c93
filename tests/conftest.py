"""Shared fixtures: a real gunicorn on loopback for the tests that need a live server, a
non-durable store in a real SQLite file for unit tests, and one chromium for the browser
tests (Playwright's sync API runs one at a time, so the browser test files share it)."""

from __future__ import annotations

import pytest
import requests
from browser_kit import ARGS, CHROMIUM

from api.server import spawn, stop
from scorekeeper.store.sqlite import Storage

LIVE_WORKERS = 4
"""gunicorn workers of the shared live server (2 threads each)."""


class Live:
    """A running server: its base URL and its SQLite file."""

    def __init__(self, url: str, db):
        self.url = url
        self.db = db

    def new_game(self, session: requests.Session | None = None, **settings) -> tuple[str, dict]:
        """A new game of Ana and Ben: (its API URL, the Authorization header to write)."""
        settings.setdefault("players", ["Ana", "Ben"])
        response = (session or requests).post(f"{self.url}/api/v1/games", json=settings,
                                              timeout=10)
        assert response.status_code == 201, response.text
        body = response.json()
        return f"{self.url}{body['url']}", {"Authorization": f"Bearer {body['edit_token']}"}


@pytest.fixture(scope="session")
def live(tmp_path_factory):
    """``scorekeeper serve`` with 4 workers on a free loopback port and a temporary database."""
    db = tmp_path_factory.mktemp("live") / "live.db"
    process, url = spawn(db, workers=LIVE_WORKERS)
    try:
        yield Live(url, db)
    finally:
        assert stop(process) == 0


@pytest.fixture
def store(tmp_path):
    """A store in a real SQLite file that does not sync (``durable=False``): for unit tests.

    The server and the durability tests open their stores durable (``synchronous = FULL``).
    """
    return Storage(tmp_path / "games.db", durable=False)


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium driven by Playwright (see ``browser_kit``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()
