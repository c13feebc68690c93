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
"""

from __future__ import annotations

from flask import Blueprint, current_app, send_from_directory
from werkzeug.wrappers import Response

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
    """The web app manifest (name, icons, start URL): installable to the home screen."""
    return _static("pad.webmanifest", "application/manifest+json")
