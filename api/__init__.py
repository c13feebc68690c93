"""The web layer: the Flask app factory, the JSON API and its OpenAPI document.

:func:`create_app` builds the app (Flask tutorial style): it reads the
settings once, opens the game store (running its migrations) and registers
the ``/api/v1`` blueprint, the JSON error handlers and the steps of every
request's lifecycle (:mod:`api.lifecycle`: the security headers of every
response among them). Other blueprints reach the store
through :func:`get_storage`.

Settings, read by :func:`settings` for the app and the command line alike,
each source overriding the ones before it: the defaults below,
``instance/config.py`` (Flask's instance folder) if present, the
environment's ``SCOREKEEPER_*`` variables (Flask's ``from_prefixed_env``:
``SCOREKEEPER_DB`` is the setting ``DB``; values that read as JSON, such
as numbers, are taken as such; an empty variable counts as unset, as in
the shell and click), then the ``config`` mapping given (the
command line's options, or a test's). Nothing else in the program reads
the environment or the instance file for settings.

* ``DB``: the database: a SQLite file (default ``./scorekeeper.db``) or a
  ``postgresql://`` URL (see :func:`~scorekeeper.store.open_store`).
* ``LOG_LEVEL``: the application log's level (``debug``, ``info`` (the
  default), ``warning``, ``error`` or ``critical``; any case). The app logs
  the database it opened at ``info``, storage failures and unexpected
  errors at ``error``. Under ``scorekeeper serve`` the lines go where
  gunicorn's error log goes (standard error), in its format.
* ``SECRET_KEY``: signs the scorepad's CSRF tokens and device cookies, and
  derives the edit token an API create repeated with its Idempotency-Key
  gives again (``SCOREKEEPER_SECRET_KEY``; else kept in the instance folder,
  see :func:`ensure_secret_key`). Every app has one, with or without the
  scorepad.
* ``MAX_CONTENT_LENGTH``: the request body limit, default 1 MiB; a larger
  body is a 413, with or without a ``Content-Length``.
* ``BUSY_TIMEOUT`` (default 5 s): how long a write waits for a lock under
  which nobody commits before its 503; ``WAITING_WRITERS`` (default 1): the
  threads per process that may wait that long (SQLite); more writers are
  refused at once, so with gunicorn's 2 threads one stays free for reads
  (at most threads - 1 makes sense).
* ``LIVE_PUBLISH_SOCKET``: the unix socket of nginx's live-sheet publisher
  (:mod:`api.live`; ``scorekeeper serve`` sets it); unset, nothing is published.
  ``LIVE_HEARTBEAT`` (default 15): seconds between the live stream's heartbeat
  comments (``scorekeeper serve``'s nginx; shorter for a proxy that closes
  streams idle for less than 30 s); ``LIVE_STREAM_LIFETIME`` (default 300):
  seconds a stream lasts before nginx ends it (the page reconnects at once).
* ``CREATE_LIMIT`` and ``WRONG_TOKEN_LIMIT``: the rate limits (:mod:`api.limits`).
* ``PROXY_HOPS`` (default 0): the trusted proxies before the app. With 1
  (``scorekeeper serve`` sets it: nginx before gunicorn) the client's
  address is the last ``X-Forwarded-For`` value and the scheme the last
  ``X-Forwarded-Proto`` value, both written by that proxy (werkzeug's
  ``ProxyFix``; nginx replaces what a client sent, :mod:`api.nginx`), so
  links and ``Secure`` cookies follow the TLS nginx served; nothing else of
  the forwarding headers is believed. With 0 they are the connection's, as
  under ``gunicorn wsgi:app`` alone.
* ``SERVER_NAME``: the host (and port, unless the scheme's default) every
  absolute link and QR code names (hand-over links, share links, table
  cards): ``scores.example.org`` or ``192.168.1.20:8443``; ``scorekeeper
  serve --server-name`` gives it. Unset, links name the ``Host`` the request
  came with (a club server's nginx sends its own ``server_name`` there,
  whatever the client sent). Requests for other hosts are still answered
  (Flask's setting, as of Flask 3.1).
* ``CORS_ORIGINS``: the origins whose pages may call the JSON API (:mod:`api.cors`;
  none by default).
* the flask-smorest ``API_*`` / ``OPENAPI_*`` keys (the document at
  ``/api/openapi.json``, its explorer at ``/api/docs``: :mod:`api.explorer`).
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from flask import Config, Flask, current_app
from flask.json.provider import DefaultJSONProvider

from scorekeeper.store import Store, open_store
from scorekeeper.store.sqlite import DEFAULT_PATH

from .folders import TEMPLATES

STORAGE_KEY = "scorekeeper.store.sqlite"
"""Where the app keeps its :class:`~scorekeeper.store.protocol.Store` in ``app.extensions``."""

ENV_PREFIX = "SCOREKEEPER"
"""Environment variables ``SCOREKEEPER_<KEY>`` give the setting ``<KEY>``."""

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def settings(
    config: Mapping[str, Any] | None = None, *, instance_path: str | None = None
) -> dict[str, Any]:
    """Every setting the app reads, each source overriding the ones before it (see the
    module docs): the defaults, ``config.py`` in the instance folder, the environment's
    ``SCOREKEEPER_*`` variables, then ``config``.

    :func:`create_app` builds its config from this, and so does the command line
    (``scorekeeper backup`` uses the ``DB`` the server would open). ``instance_path``
    is the instance folder, as for :func:`create_app`.
    """
    from . import explorer, limits, live, openapi, streams

    folder = instance_path or Flask(__name__).instance_path
    found = Config(folder)
    found.from_mapping(
        limits.defaults(),
        DB=DEFAULT_PATH,
        LOG_LEVEL="INFO",
        MAX_CONTENT_LENGTH=1024 * 1024,
        BUSY_TIMEOUT=5.0,
        WAITING_WRITERS=1,
        PROXY_HOPS=0,
        CORS_ORIGINS=[],
        LIVE_HEARTBEAT=live.HEARTBEAT,
        LIVE_STREAM_LIFETIME=streams.LIFETIME,
        API_TITLE="scorekeeper",
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
        **explorer.SETTINGS,
        API_SPEC_OPTIONS={
            "info": {
                "description": (
                    "Gin Rummy scorekeeping: melds, knock verification, deal replay and score"
                    ' sheets that last. Errors are {"error": {"code", "message", "field"}}.'
                    " In a request, a nullable field sent as null counts as left out."
                )
            },
            "servers": openapi.SERVERS,
        },
    )
    found.from_pyfile("config.py", silent=True)
    environment = Config(folder)
    environment.from_prefixed_env(ENV_PREFIX)
    found.from_mapping({key: value for key, value in environment.items() if value != ""})
    found.from_mapping(config or {})
    return dict(found)


def create_app(
    config: Mapping[str, Any] | None = None,
    *,
    instance_path: str | None = None,
    scorepad: bool = True,
) -> Flask:
    """Build the scorekeeper web app; ``config`` overrides every other source of settings.

    ``instance_path`` is Flask's instance folder (``config.py``, the secret
    key); by default ``instance/`` beside ``api/`` in a checkout, or
    ``<prefix>/var/api-instance`` when installed. ``scorepad=False`` serves
    the JSON API alone, without the scorepad's pages.
    """
    from . import (
        cors,
        credentials,
        errors,
        event_clock,  # noqa: F401  (its route joins events.blp)
        event_roster,  # noqa: F401  (its routes join events.blp)
        events,
        explorer,
        i18n,
        lifecycle,
        limits,
        live,
        openapi,
        paths,
        players,  # noqa: F401  (its routes join v1.blp)
        ratings,  # noqa: F401  (its routes join v1.blp)
        records,  # noqa: F401  (its routes join v1.blp)
        responses,
        seasons,
        streams,
        tools,  # noqa: F401  (its routes join v1.blp)
        v1,
    )

    app = Flask(__name__, instance_path=instance_path, instance_relative_config=True)
    app.template_folder = TEMPLATES  # first: its swagger_ui.html overrides flask-smorest's
    app.json = DefaultJSONProvider(app)
    app.json.sort_keys = False
    app.config.from_mapping(settings(config, instance_path=app.instance_path))
    ensure_secret_key(app)
    app.logger.setLevel(log_level(app.config["LOG_LEVEL"]))
    i18n.install(app)
    open_storage(app)
    check_server_name(app.config.get("SERVER_NAME"))
    lifecycle.install(app, int(app.config["PROXY_HOPS"]))
    app.url_map.converters["game"] = paths.GameIdConverter
    app.url_map.converters["player"] = paths.PlayerNameConverter
    app.url_map.converters["source"] = paths.SourceConverter
    app.url_map.converters["event"] = events.EventIdConverter
    app.url_map.converters["season"] = seasons.SeasonIdConverter
    api = errors.Api(app)
    openapi.install(api)
    api.register_converter(paths.GameIdConverter, paths.game_id_schema)
    api.register_converter(paths.PlayerNameConverter, paths.player_name_schema)
    api.register_converter(paths.SourceConverter, paths.source_schema)
    api.register_converter(events.EventIdConverter, events.event_id_schema)
    api.register_converter(seasons.SeasonIdConverter, seasons.season_id_schema)
    errors.register(app)
    api.spec.components.security_scheme(
        "bearerAuth",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "The edit token returned when the game was created.",
        },
    )
    api.spec.components.security_scheme(
        "directorAuth",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "The director token returned when the event was created.",
        },
    )
    api.spec.components.security_scheme(
        "apiKeyAuth",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "An API key (made by scorekeeper keys create): the games created"
            " with it belong to it, and it lists them.",
        },
    )
    for name, schema in responses.COMPONENTS.items():
        api.spec.components.schema(name, schema=schema)
    for name, component in responses.ALIASES.items():
        api.spec.components.schema(name, component=component)
    from .schemas import COMPONENTS as REQUEST_PARTS

    for name, shown in REQUEST_PARTS.items():
        if isinstance(shown, dict):
            api.spec.components.schema(name, component=shown)
        else:
            api.spec.components.schema(name, schema=shown)
    api.register_blueprint(v1.blp)
    events.register(api, app)
    seasons.register(api, app)
    live.document(api, app)
    app.add_url_rule(streams.STREAM_RULE, "live_check", streams.check)
    app.register_blueprint(explorer.bp)
    holders = [credentials.holds_edit_token]
    if scorepad:
        from .pad import bp as pad_blueprint  # the HTML scorepad (templates/pad/)
        from .pad import directors, rights
        from .pad.shell import bp as shell_blueprint  # its service worker and manifest

        app.register_blueprint(pad_blueprint)
        app.register_blueprint(shell_blueprint)
        holders.extend((rights.holds_right, directors.holds_right))
        from .pad.script_words import page_globals  # the typed cards' grammar, the scripts' words

        app.context_processor(page_globals)
    limits.install(app, holders)
    cors.install(app)
    return app


def open_storage(app: Flask) -> Store:
    """Open the game store over ``app.config["DB"]`` and make it the app's (:func:`get_storage`).

    :func:`create_app` calls it once; a test may call it again, with another
    ``DB``, to serve a fresh database from the same app (the caller closes
    the store it replaces).
    """
    from . import live

    store = open_store(
        app.config["DB"],
        busy_timeout=app.config["BUSY_TIMEOUT"],
        waiting_writers=app.config["WAITING_WRITERS"],
    )
    app.extensions[STORAGE_KEY] = store
    live.install(app, store)
    app.logger.info(
        "database %s (schema version %d)", _shown(app.config["DB"]), store.schema_version()
    )
    return store


def ensure_secret_key(app: Flask) -> None:
    """Give the app a ``SECRET_KEY`` if its settings have none.

    Without one in the settings (``SCOREKEEPER_SECRET_KEY`` among them) the
    key is read from ``secret_key`` in the instance folder, created once with
    a random key (atomically, so gunicorn workers that start together agree
    on it).
    """
    if app.config.get("SECRET_KEY"):
        return
    path = os.path.join(app.instance_path, "secret_key")
    if not os.path.exists(path):
        os.makedirs(app.instance_path, exist_ok=True)
        temp = f"{path}.{os.getpid()}.tmp"
        with open(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.write(secrets.token_urlsafe(32))
        try:
            os.link(temp, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(temp)
    with open(path) as f:
        app.config["SECRET_KEY"] = f.read().strip()


def log_level(value: Any) -> str:
    """The ``LOG_LEVEL`` setting as a logging level name; a clear error for anything else."""
    name = str(value).upper()
    if name not in LOG_LEVELS:
        raise ValueError(
            f"LOG_LEVEL: {value!r} is not one of {', '.join(level.lower() for level in LOG_LEVELS)}"
        )
    return name


_SERVER_NAME = re.compile(
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}"
    r"[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?"
)


def check_server_name(value: Any) -> None:
    """A clear error unless the ``SERVER_NAME`` setting is unset or a host with an
    optional port (no scheme, no path: the links put them around it)."""
    if value is None or (isinstance(value, str) and _SERVER_NAME.fullmatch(value)):
        return
    raise ValueError(
        f"SERVER_NAME: {value!r} is not a host name with an optional port"
        " (scores.example.org, 192.168.1.20:8443): no scheme, no path"
    )


def _shown(address: str) -> str:
    """A database address for the log: a URL's password replaced by ``***``."""
    parts = urlsplit(str(address))
    if parts.password is None:
        return str(address)
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


def get_storage() -> Store:
    """The current app's game store."""
    store: Store = current_app.extensions[STORAGE_KEY]
    return store
