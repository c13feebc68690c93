"""Every request body is read whole before its answer goes out, refusals included.

A view that refuses a request (a form the page does not take, a body that
is no JSON, a rate limit, a missing right) answers without reading the
body. gunicorn then reads at most 64 KiB of what is left and closes the
connection with the rest unread: nginx, still sending a large body (it sends
the whole body, which it read first), sees the connection reset and answers
502 instead of the app's refusal (6 to 8 of 60 tries of a 900 KB body).

:class:`Drained` wraps the WSGI app: once the app has answered, and before
gunicorn sends the answer, it reads what the app left of the body, so the
connection stays clean and nginx gets the app's own answer. Behind nginx a
body is at most 1 MiB and already all there, so this costs a read of memory;
a body declared larger than :data:`MOST` is left to gunicorn (it closes).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

MOST = 1024 * 1024
"""The largest body read to the end for a refusal: nginx's (and the app's) body limit."""

CHUNK = 64 * 1024
"""Bytes read at a time."""


class Drained:
    """A WSGI app that reads the rest of each request's body after ``app`` answers it."""

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
