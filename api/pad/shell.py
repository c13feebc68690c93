"""The scorepad as an installable web app that works offline: its service worker and manifest.

Both are static files (``api/static/sw.js``, ``api/static/pad.webmanifest``)
served from the site's root: a service worker controls only the pages under
the path it is served from, so ``/sw.js`` covers every page of the pad
(``/static/sw.js`` would cover only ``/static/``). The worker is sent with
``Cache-Control: no-cache`` so a new version reaches the phones at their next
visit. Both responses carry the app's security headers like any other.
The worker and the page's own queue of unsent hands (``pad-offline.js``)
need a secure context: HTTPS, or ``localhost`` (see ``scorekeeper serve
--certfile/--keyfile``).

Both speak the request's language (issue 20): the manifest's name, short name and
description are translated and it carries ``lang``; ``/offline`` is the worker's page for
an address it has no copy of, which it keeps at install and fetches again when a page
tells it the phone's language changed (its ``Content-Language``, see ``sw.js``). Pages
themselves are kept by address: the worker fetches every page from the network first,
so after the language switch the next page opened online is in the new language.
"""

from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, current_app, make_response, render_template, send_from_directory
from werkzeug.wrappers import Response

from ..i18n import _, current_language

bp = Blueprint("shell", __name__)


def _static(filename: str, mimetype: str) -> Response:
    folder = current_app.static_folder
    assert folder is not None  # the app is created with its static folder (api/static)
    response = send_from_directory(folder, filename, mimetype=mimetype, max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, from the root so that its scope is the whole site."""
    return _static("sw.js", "text/javascript")


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest (name, icons, start URL): installable to the home screen, its
    words in the request's language."""
    folder = current_app.static_folder
    assert folder is not None
    shape = json.loads((Path(folder) / "pad.webmanifest").read_text(encoding="utf-8"))
    shape.update(
        lang=current_language(),
        name=_("Gin Rummy scorepad"),
        # Translators: the name under the icon on a phone's home screen: 12 characters at most.
        short_name=_("Gin scorepad"),
        description=_("Keep the score of a Gin Rummy game at the table."),
    )
    response = make_response(json.dumps(shape, ensure_ascii=False, indent=2))
    response.mimetype = "application/manifest+json"
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Language"] = current_language()
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


@bp.get("/offline")
def offline() -> Response:
    """The service worker's page for an address it kept no copy of (sent by it with 503)."""
    response = make_response(render_template("pad/offline.html", lang=current_language()))
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Language"] = current_language()
    return response
