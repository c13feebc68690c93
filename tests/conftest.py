"""Shared fixtures: a real gunicorn on loopback for the tests that need a live server, and
one chromium (Playwright) for the browser tests (one per session: Playwright's sync API
cannot run twice at once)."""

from __future__ import annotations

import os
import shutil
from unittest import mock

import pytest
import requests

from api.limits import NO_LIMITS_ENV
from api.server import spawn, stop

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
"""Debian's chromium: the browser tests never download one."""

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

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
    # no rate limits: its tests create games and send wrong tokens by the hundred
    # (schemathesis); test_attacks.py proves the default limits on a server of its own
    with mock.patch.dict(os.environ, NO_LIMITS_ENV):
        process, url = spawn(db, workers=LIVE_WORKERS)
    try:
        yield Live(url, db)
    finally:
        assert stop(process) == 0


@pytest.fixture(scope="session")
def browser():
    """Chromium driven by Playwright (sync API), for every browser test of the session."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
