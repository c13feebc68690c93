"""The web layer: the Flask app factory, the JSON API and its OpenAPI document.

:func:`create_app` builds the app (Flask tutorial style): defaults, then
``instance/config.py`` if present (or the ``config`` mapping given, as
tests do), opens the game store (running its migrations) and registers the
``/api/v1`` blueprint, the JSON error handlers and the security headers of
every response (:mod:`api.security`). Other blueprints reach the store
through :func:`get_storage`.

Settings: ``DATABASE`` (default ``$SCOREKEEPER_DB`` or ``./scorekeeper.db``),
``MAX_CONTENT_LENGTH`` (request body limit, default 1 MiB; a larger body is
a 413, with or without a ``Content-Length``), ``BUSY_TIMEOUT`` (default 5 s:
how long a write waits for a lock under which nobody commits before its
503) and
``WAITING_WRITERS`` (default 1: the threads per process that may wait
that long; more writers are refused at once, so with gunicorn's 2 threads
one stays free for reads; at most threads - 1 makes sense) and the
flask-smorest ``API_*`` / ``OPENAPI_*`` keys (the document is served at
``/api/openapi.json``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app, request
from werkzeug.exceptions import RequestEntityTooLarge

from scorekeeper.store.sqlite import Storage, default_path

STORAGE_KEY = "scorekeeper.store.sqlite"
"""Where the app keeps its :class:`Storage` in ``app.extensions``."""


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the scorekeeper web app; ``config`` overrides the defaults."""
    from . import errors, schemas, security, v1

    app = Flask(__name__, instance_relative_config=True)
    app.json.sort_keys = False
    app.config.from_mapping(
        DATABASE=default_path(),
        MAX_CONTENT_LENGTH=1024 * 1024,
        BUSY_TIMEOUT=5.0,
        WAITING_WRITERS=1,
        API_TITLE="scorekeeper",
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={"info": {"description": (
            "Gin Rummy scorekeeping: melds, knock verification, deal replay and score"
            " sheets that last. Errors are {\"error\": {\"code\", \"message\", \"field\"}}.")}},
    )
    if config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(config)
    app.extensions[STORAGE_KEY] = Storage(app.config["DATABASE"],
                                          busy_timeout=app.config["BUSY_TIMEOUT"],
                                          waiting_writers=app.config["WAITING_WRITERS"])
    app.before_request(_refuse_long_streams)
    app.after_request(security.add_security_headers)
    app.url_map.converters["game"] = v1.GameIdConverter
    app.url_map.converters["player"] = v1.PlayerNameConverter
    api = errors.Api(app)
    api.register_converter(v1.GameIdConverter, v1.game_id_schema)
    api.register_converter(v1.PlayerNameConverter, v1.player_name_schema)
    errors.register(app)
    api.spec.components.security_scheme(
        "bearerAuth", {"type": "http", "scheme": "bearer",
                       "description": "The edit token returned when the game was created."})
    for name, schema in schemas.COMPONENTS.items():
        api.spec.components.schema(name, schema=schema)
    api.register_blueprint(v1.blp)
    from .pad import bp as pad_blueprint  # the HTML scorepad (templates/pad/)

    app.register_blueprint(pad_blueprint)
    return app


def _refuse_long_streams() -> None:
    """Refuse (413) a body sent without a length (chunked) that reaches ``MAX_CONTENT_LENGTH``.

    Werkzeug refuses a declared ``Content-Length`` over the limit, but stops
    reading a chunked body at the limit without an error: the view would
    parse a truncated body (a bad-JSON 400, or worse, a valid prefix).
    """
    limit = request.max_content_length
    if (request.content_length is None and limit is not None
            and len(request.get_data(cache=True)) >= limit):
        raise RequestEntityTooLarge()


def get_storage() -> Storage:
    """The current app's game store."""
    return current_app.extensions[STORAGE_KEY]
