"""The API explorer at ``/api/docs`` (api/explorer.py), as the app serves it.

Swagger UI's files come from the flask-swagger-ui package, served by this
server; the page keeps the policy of every page (no inline script or style,
nothing from elsewhere); the scorepad's footer links to it in every language.
The explorer running in chromium is ``test_explorer_browser.py``.
"""

from __future__ import annotations

import re
from importlib.resources import files

import pytest
from browser_kit import Words

from api import STORAGE_KEY, create_app, security
from api.i18n import LANGUAGES


def _named(page: str) -> list[str]:
    return re.findall(r'(?:src|href)="([^"]+)"', page)


def _get(client, path: str) -> tuple[int, str, bytes]:
    """The status, type and body of ``path``, its file closed."""
    with client.get(path) as answer:
        return answer.status_code, answer.mimetype, answer.data


def test_the_explorer_page_loads_only_this_servers_files(client):
    page = client.get("/api/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    # flask-smorest's own page (a CDN's files, an inline script) is replaced
    assert "<script>" not in text and "style=" not in text and "<style" not in text
    assert all(path.startswith("/") and not path.startswith("//") for path in _named(text))
    assert 'data-spec="/api/openapi.json"' in text
    assert page.headers["Content-Security-Policy"] == security.CSP
    assert "unsafe" not in security.CSP


def test_swagger_uis_files_are_the_packages(client):
    dist = files("flask_swagger_ui").joinpath("dist")
    for name, kind in (("swagger-ui-bundle.js", "text/javascript"), ("swagger-ui.css", "text/css")):
        assert _get(client, f"/api/docs/assets/{name}") == (
            200,
            kind,
            dist.joinpath(name).read_bytes(),
        ), name
    assert _get(client, "/api/docs/assets/nothing.js")[0] == 404


def test_the_explorer_is_served_without_the_scorepad_too(tmp_path):
    app = create_app({"DB": str(tmp_path / "api.db"), "SECRET_KEY": "x"}, scorepad=False)
    status, _, page = _get(app.test_client(), "/api/docs")
    assert status == 200
    named = _named(page.decode())
    assert "/static/explorer.js" in named
    for path in named:
        assert _get(app.test_client(), path)[0] == 200, path
    app.extensions[STORAGE_KEY].close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pads_footer_links_to_the_explorer_in_each_language(client, lang):
    page = client.get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
    footer = page[page.index("<footer") :]
    words = Words(lang)("API explorer")
    assert f'<a href="/api/docs">{words}</a>' in footer
    assert lang == "en" or words != "API explorer"
