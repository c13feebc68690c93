"""Cross-origin requests to the JSON API from the origins named in ``CORS_ORIGINS`` (flask-cors).

A club's own site (``https://club.example``) may call the API from its
pages' scripts when its origin is listed: the API answers with
``Access-Control-Allow-Origin`` for that origin, and a preflight
(``OPTIONS``) lets through the API's methods and the request headers it
reads (:data:`REQUEST_HEADERS`), and exposes the response headers it sets
(:data:`EXPOSED_HEADERS`, ``ETag`` among them). Only the JSON API (``/api/``,
its OpenAPI document included) answers so, never the scorepad's pages, and
no cookies are allowed along (the API is authorised by its ``Authorization``
header alone).

``CORS_ORIGINS`` (``SCOREKEEPER_CORS_ORIGINS``): the origins, as a list or
one string of origins separated by commas or spaces (``*`` allows every
origin); empty, the default: no cross-origin access. Each origin is a
scheme and host, with a port if any and nothing else (``https://club.example:8443``);
anything else stops the app from starting, naming the setting.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask_cors import CORS

API_PATHS = r"/api/.*"
"""The paths that answer cross-origin requests: the JSON API and its document."""

METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS")
"""The API's methods."""

REQUEST_HEADERS = (
    "Authorization",
    "Content-Type",
    "Idempotency-Key",
    "If-Match",
    "If-None-Match",
    "Prefer",
)
"""The request headers the API reads, which a preflight lets through."""

EXPOSED_HEADERS = (
    "ETag",
    "Location",
    "Idempotent-Replayed",
    "Preference-Applied",
    "Retry-After",
    "WWW-Authenticate",
)
"""The response headers the API sets, which a page's script may read."""

MAX_AGE = 600
"""Seconds a browser may keep a preflight's answer."""

_ORIGIN = re.compile(r"https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?|\*")


def origins(value: Any) -> list[str]:
    """The ``CORS_ORIGINS`` setting as a list of origins; raises ValueError naming it."""
    if value is None:
        return []
    listed = re.split(r"[\s,]+", value) if isinstance(value, str) else value
    if not isinstance(listed, list | tuple) or not all(isinstance(o, str) for o in listed):
        raise ValueError(f"CORS_ORIGINS: {value!r} is not a list of origins")
    found = [origin.rstrip("/") for origin in listed if origin]
    for origin in found:
        if not _ORIGIN.fullmatch(origin):
            raise ValueError(
                f"CORS_ORIGINS: {origin!r} is not an origin"
                " (a scheme and a host, with a port if any: https://club.example)"
            )
    return found


def install(app: Flask) -> None:
    """Answer cross-origin requests to the API from the app's ``CORS_ORIGINS``, if any."""
    allowed = origins(app.config.get("CORS_ORIGINS"))
    if not allowed:
        return
    CORS(
        app,
        resources={API_PATHS: {"origins": allowed}},
        methods=list(METHODS),
        allow_headers=list(REQUEST_HEADERS),
        expose_headers=list(EXPOSED_HEADERS),
        supports_credentials=False,
        max_age=MAX_AGE,
        vary_header=True,
    )
