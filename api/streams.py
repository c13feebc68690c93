"""Live streams cannot crowd a server out: their caps, the check before one opens, their end.

A live sheet's stream (:mod:`api.live`) is a connection nginx holds for as
long as the page is open, so an address could hold thousands of them
(7,667 from one address made every request of another fail). nginx's
stream location (``api/nginx/site.conf.j2``, from this module's figures) therefore gets:

* caps: :data:`STREAMS_PER_ADDRESS` streams open at once per client
  address (a club's phones may all share one public address) and
  :data:`STREAMS_TOTAL` in all, in ``limit_conn`` zones of their own, so
  streams and requests do not crowd each other out;
  over them a JSON 429 with ``Retry-After``, and the refused connection
  closes. They fit nginx's connection budget (:data:`api.nginx.HEADROOM`).
* a check before it opens (an ``auth_request`` to the app at the stream's
  own address, :func:`check`: one row read, ~0.5 ms): a game that does
  not exist is a JSON 404, never an open stream; the check failing
  (gunicorn away) is a 503.
* an end: nginx closes a stream after :data:`LIFETIME` seconds (a phone
  gone without a word frees its place); the browser's EventSource
  reconnects with ``Last-Event-ID`` and gets what it missed from the
  channel's buffer, and the scorepad checks its sheet's version on
  every (re)open.
"""

from __future__ import annotations

import json

from flask import Response, current_app, request
from werkzeug.exceptions import NotFound

from . import get_storage

STREAMS_PER_ADDRESS = 256
"""Live streams open at once from one client address."""

STREAMS_TOTAL = 2048
"""Live streams open at once in all."""

LIFETIME = 300
"""Seconds a stream lasts before nginx ends it (the setting ``LIVE_STREAM_LIFETIME``)."""

STREAM_RULE = "/api/v1/games/<game:game_id>/events"
"""The stream's address as the app's URL rule (the app answers it to nginx only: :func:`check`)."""

CHECK_HEADER = "X-Scorekeeper-Live-Check"
"""The header nginx's check sends: without it the app does not answer the stream's address."""

CHECK_PATH = "/.live-check"
"""nginx's internal location asking the app whether a stream may open."""

UNKNOWN_PATH = "/.live-unknown"
"""nginx's internal location answering a stream of a game that does not exist."""

REFUSED = 403
"""What the check location turns the app's 404 into: ``auth_request`` passes on a 401 or
403 (any other status but a 2xx is its 500); the stream's location answers it with the
JSON 404 at :data:`UNKNOWN_PATH`."""

UNKNOWN = json.dumps(
    {
        "error": {
            "code": "not_found",
            "message": "there is no game with this id: no stream to open",
            "field": "id",
        }
    }
)
"""The body of the 404 of a stream of a game that does not exist."""


def check(game_id: str) -> Response:
    """nginx's question before a stream of ``game_id`` opens (it sends :data:`CHECK_HEADER`):
    204 where the game exists, the app's 404 where it does not (the game's row is read).

    Anyone else asking (no nginx before the app, or no live updates) gets the 404 of an
    address the app does not serve, as before: the stream is nginx's.
    """
    if not (current_app.config.get("LIVE_PUBLISH_SOCKET") and request.headers.get(CHECK_HEADER)):
        raise NotFound()
    get_storage().game(game_id)
    return Response(status=204)
