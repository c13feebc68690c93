"""The request's lifecycle: what every request passes through around its view, in order.

Each step is a hook Flask (or the WSGI server) calls for every request; they live
together here so that one request's way in and out reads in one place:

1. :class:`Drained` wraps the WSGI app (outermost): once the app has answered, it
   reads what the app left of the body (see there).
2. :class:`NoSession`: no Flask session is opened or saved.
3. :func:`refuse_long_streams` (``before_request``, every request): a chunked body that
   reaches ``MAX_CONTENT_LENGTH`` is refused (413).
4. :func:`refuse_unless_json` (``before_request`` of the JSON blueprints: ``/api/v1``,
   events, seasons): a body not declared JSON is refused (400 ``not_json``).
5. The view, its decorators (rate limits, credentials, the body's schema).
6. :func:`add_security_headers` (``after_request``, every response): the headers of
   :mod:`api.security`.

:func:`install` puts the app-wide ones in place (the JSON blueprints add step 4).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import Flask, Request, Response, request
from flask.sessions import SessionInterface, SessionMixin
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.middleware.proxy_fix import ProxyFix

from .errors import error_response
from .security import HEADERS

MOST = 1024 * 1024
"""The largest body read to the end for a refusal: nginx's (and the app's) body limit."""

CHUNK = 64 * 1024
"""Bytes read at a time."""


def install(app: Flask, hops: int) -> None:
    """Put the app-wide steps in place: ``hops`` proxies' ``X-Forwarded-*`` trusted
    (werkzeug's ``ProxyFix``, none when 0) inside :class:`Drained`, no session, the
    long-stream refusal and the security headers."""
    app.session_interface = NoSession()
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    app.wsgi_app = Drained(app.wsgi_app)  # type: ignore[method-assign]
    app.before_request(refuse_long_streams)
    app.after_request(add_security_headers)


class Drained:
    """A WSGI app that reads the rest of each request's body after ``app`` answers it.

    A view that refuses a request (a form the page does not take, a body that
    is no JSON, a rate limit, a missing right) answers without reading the
    body. gunicorn then reads at most 64 KiB of what is left and closes the
    connection with the rest unread: nginx, still sending a large body (it sends
    the whole body, which it read first), sees the connection reset and answers
    502 instead of the app's refusal (6 to 8 of 60 tries of a 900 KB body).

    So once the app has answered, and before gunicorn sends the answer, the rest
    of the body is read, so the connection stays clean and nginx gets the app's
    own answer. Behind nginx a body is at most 1 MiB and already all there, so
    this costs a read of memory; a body declared larger than :data:`MOST` is
    left to gunicorn (it closes).
    """

    def __init__(self, app: Any):
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        answer: Iterable[bytes] = self.app(environ, start_response)
        drain(environ)
        return answer


def drain(environ: dict[str, Any]) -> None:
    """Read and drop what is left of the request's body, up to :data:`MOST` bytes."""
    try:
        declared = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return
    if declared > MOST or not (declared or environ.get("wsgi.input_terminated")):
        return  # too large to be worth it, or no body (or no end to its stream) to read
    body = environ["wsgi.input"]
    left = MOST
    while left > 0:
        data = body.read(min(CHUNK, left))
        if not data:
            return
        left -= len(data)


class NoSession(SessionInterface):
    """No Flask session: nothing here uses one (the scorepad signs its own few cookies,
    :mod:`api.pad.web`), and Flask's default opened a signed cookie session on every
    request, a twentieth of a small request's time. ``session`` is Flask's null
    session: reading it finds it empty, writing to it fails loudly."""

    def open_session(self, app: Flask, request: Request) -> None:
        return None

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        return None


def refuse_long_streams() -> None:
    """Refuse (413) a body sent without a length (chunked) that reaches ``MAX_CONTENT_LENGTH``.

    Werkzeug refuses a declared ``Content-Length`` over the limit, but stops
    reading a chunked body at the limit without an error: the view would
    parse a truncated body (a bad-JSON 400, or worse, a valid prefix). Only
    for the methods whose bodies the views read: a GET's is never parsed.
    """
    limit = request.max_content_length
    if (
        request.content_length is None
        and limit is not None
        and request.method not in ("GET", "HEAD", "OPTIONS")
        and len(request.get_data(cache=True)) >= limit
    ):
        raise RequestEntityTooLarge()


def refuse_unless_json() -> Response | None:
    """A request body that is not declared JSON is refused by name (400 ``not_json``): the
    JSON blueprints' ``before_request``.

    Without this, a JSON text sent as ``text/plain`` (or with no Content-Type)
    would be read as no body at all and refused as "missing data".
    """
    has_body = request.content_length or request.headers.get("Transfer-Encoding")
    if request.method in ("POST", "PUT") and has_body and not request.is_json:
        return error_response(
            400,
            "send the request body as JSON, with the header Content-Type: application/json",
            code="not_json",
            field="Content-Type",
        )
    return None


def add_security_headers(response: Response) -> Response:
    """Set :data:`api.security.HEADERS` on ``response`` (the ``after_request`` hook)."""
    response.headers.update(HEADERS)
    return response
