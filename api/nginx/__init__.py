"""nginx before gunicorn: the configuration text, for ``scorekeeper serve`` and a club's server.

The text is the templates beside this module (Jinja2: ``site.conf.j2`` the site,
``club.conf.j2`` a club's around it, ``nginx.conf.j2`` a whole ``nginx.conf`` for
``serve``) filled in from a :class:`Site` and this module's figures; nginx's error pages
are static files beside them (``errors/``, :mod:`api.nginx.pages`). No processes:
:mod:`api.server` runs nginx, ``scorekeeper deploy nginx`` prints a site.
Both get the same protections (issue 18):

* Requests are read whole by nginx, with deadlines, before gunicorn sees
  them: a head within :data:`HEAD_TIMEOUT`, a body within
  :data:`BODY_TIMEOUT` (bodies over the app's own limit, 1 MiB, refused
  with 413), each response taken within :data:`SEND_TIMEOUT`. A trickling
  client costs nginx a connection, never a gunicorn thread.
* Connection caps: requests to gunicorn under way per client address
  (:data:`PER_ADDRESS`) and in all (:data:`TOTAL`), over which nginx
  answers 429 (live viewers, held by nginx alone, have caps of their own:
  :mod:`api.streams`); open connections are bounded by nginx's
  ``worker_connections`` (idle and half-sent ones close at their deadline),
  so one address cannot lock the others out.
* One trusted hop: nginx replaces ``X-Forwarded-For`` with the address it
  sees and ``X-Forwarded-Proto`` with the scheme it served (``https`` under
  TLS), and clears the other forwarding and scheme headers a client may send
  (:data:`CLEARED`: ``X-Forwarded-Host/Port/Prefix``, ``Forwarded``,
  ``X-Real-IP``, ``X-Forwarded-Ssl``, ``X-Forwarded-Protocol``, ...: gunicorn
  would believe the scheme ones on its unix socket); header names with an
  underscore (``SCRIPT_NAME``, which gunicorn would believe) are dropped
  (``underscores_in_headers off``). The app, told ``PROXY_HOPS = 1``, takes
  the client's address and the scheme from those two headers (werkzeug's
  ``ProxyFix``): its links, QR codes and ``Secure`` cookies follow the TLS
  nginx served. A site with a ``server_name`` (a club's) sends that name as
  ``Host``, so the app's links name it whatever ``Host`` a client sent.
* nginx's own refusals (400, 408, 413, 414, 431, 429, 502, 503, 504) are in
  the API's JSON error format with the security headers of
  :mod:`api.security`; outside ``/api/`` they are the scorepad's HTML pages, one per
  language (issue 20), files written from the gettext catalogs (:mod:`api.nginx.pages`)
  and chosen by nginx ``map``s like the app chooses (``site.conf.j2``);
  no ``Server`` version (``server_tokens off``; the word ``nginx`` remains, the stock
  build cannot drop the header).
* An error page reads no body (over HTTP/2 the 413 of a body declared too large
  was refused again there, with nginx's plain page) and the connection closes
  after it (a refused client holds none of nginx's connections).
* Keep-alive connections to gunicorn (an ``upstream`` with ``keepalive``),
  TLS and HTTP/2 at nginx when a certificate is given: Mozilla's
  "intermediate" profile (:data:`TLS`: TLS 1.2 and 1.3, forward-secret AEAD
  suites only, no session tickets) and HSTS (:data:`HSTS_AGE`) on the app's
  answers.
* The live sheets' locations (nchan, :mod:`api.live`: each game's stream, and a server
  on the publisher's socket), their caps and check (:mod:`api.streams`: zones of their
  own, within the connection budget, :data:`HEADROOM`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from .. import live, streams
from ..i18n import LANG_COOKIE, LANGUAGES, NORWEGIAN
from ..paths import GAME_ID
from ..security import HEADERS

HEAD_TIMEOUT = 10
"""Seconds for a request's head (nginx's ``client_header_timeout``)."""

BODY_TIMEOUT = 30
"""Seconds between two reads of a request's body (``client_body_timeout``)."""

SEND_TIMEOUT = 30
"""Seconds between two writes of a response to a client (``send_timeout``)."""

MAX_BODY = 1024 * 1024
"""Largest request body in bytes: the app's own ``MAX_CONTENT_LENGTH`` default."""

PER_ADDRESS = 64
"""Requests under way at once from one client address (nginx's ``limit_conn``)."""

TOTAL = 2048
"""Requests under way at once in all (a global ``limit_conn`` zone)."""

WORKER_CONNECTIONS = 8192
"""Connections each nginx worker holds open (clients, gunicorn, live viewers); ``serve``
runs one worker. Its budget: :data:`TOTAL` requests under way hold two each (the client's
and gunicorn's), :data:`api.streams.STREAMS_TOTAL` live streams one each, and
:data:`HEADROOM` is left for connections no cap counts (a head or the next request
awaited, a stream's check)."""

HEADROOM = WORKER_CONNECTIONS - 2 * TOTAL - streams.STREAMS_TOTAL
"""The connections the caps leave free (2,048)."""

NCHAN_MODULE = "/usr/lib/nginx/modules/ngx_nchan_module.so"
"""Where Debian's ``libnginx-mod-nchan`` puts the module."""

SHUTDOWN_TIMEOUT = 5
"""Seconds a stopping ``serve`` gives nginx's open connections (live viewers' included)."""

UPSTREAM_KEEPALIVE = 32
"""Idle keep-alive connections to gunicorn each nginx worker keeps."""

ERRORS = {
    400: (400, "bad_request", "the request is malformed", None),
    408: (408, "timeout", "the request did not arrive in time", None),
    413: (413, "too_large", f"the request body is larger than {MAX_BODY} bytes", "body"),
    414: (414, "uri_too_long", "the request line is too long", None),
    494: (431, "headers_too_large", "the request's header fields are too large", None),
    497: (400, "bad_request", "this port speaks HTTPS only", None),
    429: (429, "too_many_requests", "too many requests at once from this address", None),
    502: (502, "bad_gateway", "the server is not answering; try again", None),
    503: (503, "busy", "the server is busy; try again", None),
    504: (504, "timeout", "the server took too long to answer", None),
}
"""nginx's own refusals, as :mod:`api.errors` answers: nginx's status -> (the status sent,
the error ``code``, the message, the field). nginx's 494 (header fields too large) is sent
as 431, its 497 (plain HTTP to an HTTPS port) as 400."""

ERROR_PATH = "/.nginx-error/"
"""Where nginx's error pages are (an internal location: a client asking for them gets a 404):
``<status>.json`` the API's JSON, ``<lang>/<status>.html`` the scorepad's HTML in a language."""

ERROR_PAGES = Path(__file__).resolve().parent / "errors"
"""The folder of nginx's error pages (static files of the package: :mod:`api.nginx.pages`)."""

PAGE_LANGUAGE = "$scorekeeper_lang"
"""The nginx variable naming the language of the scorepad's error pages (:func:`language_maps`)."""

RETRY_AFTER = (429, 502, 503)
"""The refusals worth retrying soon: they carry ``Retry-After: 1``."""

CLEARED = (
    "X-Forwarded-Host",
    "X-Forwarded-Port",
    "X-Forwarded-Prefix",
    "X-Forwarded-Server",
    "X-Real-IP",
    "Forwarded",
    "X-Forwarded-Ssl",
    "X-Forwarded-Protocol",
    "X-Forwarded-Scheme",
    "X-Scheme",
    "X-Url-Scheme",
    "Front-End-Https",
)
"""Forwarding and scheme headers a client may send and gunicorn never sees
(``X-Forwarded-For`` and ``X-Forwarded-Proto`` it gets from nginx)."""

CIPHERS = (
    "ECDHE-ECDSA-AES128-GCM-SHA256",
    "ECDHE-RSA-AES128-GCM-SHA256",
    "ECDHE-ECDSA-AES256-GCM-SHA384",
    "ECDHE-RSA-AES256-GCM-SHA384",
    "ECDHE-ECDSA-CHACHA20-POLY1305",
    "ECDHE-RSA-CHACHA20-POLY1305",
)
"""The TLS 1.2 suites offered: Mozilla's "intermediate" list (guideline 5.7) less its DHE
suites, which would need a Diffie-Hellman parameter file and which every client that
offers them can replace with ECDHE. TLS 1.3's own suites are all AEAD (OpenSSL's default)."""

HSTS_AGE = 2 * 365 * 24 * 3600
"""Strict-Transport-Security ``max-age`` (two years, as Mozilla's profile): a browser
that once had the site over trusted TLS asks for it over https only."""


@dataclass(frozen=True)
class Site:
    """What differs between one nginx site for the app and another."""

    listen: tuple[str, ...]
    """nginx ``listen`` addresses (``127.0.0.1:8000``, ``[::]:443``)."""
    app_socket: str
    """gunicorn's unix socket (a path)."""
    publish_socket: str
    """The live sheets' publisher socket (a path): ``POST /games/<id>`` there publishes."""
    certfile: str | None = None
    """TLS certificate (PEM, absolute path): HTTPS and HTTP/2 on every address."""
    keyfile: str | None = None
    """Its key (PEM, absolute path; default: in the certificate file)."""
    server_name: str = "_"
    """The ``server_name`` (the site's host name; ``_``: any)."""
    heartbeat: int = live.HEARTBEAT
    """Seconds between the live streams' heartbeat comments."""
    stream_lifetime: int = streams.LIFETIME
    """Seconds a live stream lasts before nginx ends it."""


RUN_DIR = "/run/scorekeeper"
"""A club server's sockets (gunicorn's, the live publisher's): systemd's ``RuntimeDirectory``
(who may reach them: :mod:`api.systemd`)."""

APP_SOCKET = f"{RUN_DIR}/gunicorn.sock"
"""gunicorn's socket on a club server: nginx's workers and the app reach it."""

PUBLISH_SOCKET = f"{RUN_DIR}/live/publish.sock"
"""The live publisher's socket on a club server, in a folder only the app's account enters."""


def _quoted(text: object) -> str:
    """``text`` as an nginx single-quoted string."""
    return "'" + str(text).replace("\\", "\\\\").replace("'", "\\'") + "'"


TEMPLATES = Environment(
    loader=FileSystemLoader(Path(__file__).resolve().parent),
    undefined=StrictUndefined,
    autoescape=False,  # nginx's configuration, not HTML: values are quoted by the templates
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)
TEMPLATES.filters["quoted"] = _quoted


def _figures() -> dict[str, Any]:
    """What the templates fill in besides a :class:`Site`: this module's figures and the
    live sheets' (:mod:`api.live`, :mod:`api.streams`)."""
    return {
        "nginx": sys.modules[__name__],
        "live": live,
        "streams": streams,
        "headers": HEADERS,
        "game_id": GAME_ID,
        "languages": LANGUAGES,
        "norwegian": NORWEGIAN,
        "lang_cookie": LANG_COOKIE,
    }


def site(settings: Site) -> str:
    """The ``http``-level text of the site (``site.conf.j2``): zones, the gunicorn upstream,
    the public server, the live publisher's server.

    Every other directive is inside the public ``server`` block, so the text
    fits in any ``http`` block (Debian's ``sites-enabled/`` as well).
    """
    return TEMPLATES.get_template("site.conf.j2").render(site=settings, **_figures())


def club_site(server_name: str) -> str:
    """The nginx site of a club's server (``scorekeeper deploy nginx``, ``club.conf.j2``), for
    Debian's ``/etc/nginx/sites-available/``: HTTPS and HTTP/2 on port 443 with Let's
    Encrypt's certificate for ``server_name`` (certbot's paths), port 80 only for certbot's
    challenges and a redirect to ``https://server_name`` (no app there: no cookie, no
    hand-over key crosses plain http), gunicorn and the live publisher in :data:`RUN_DIR`,
    the error pages from the installed package."""
    live_dir = f"/etc/letsencrypt/live/{server_name}"
    settings = Site(
        listen=("443", "[::]:443"),
        app_socket=APP_SOCKET,
        publish_socket=PUBLISH_SOCKET,
        certfile=f"{live_dir}/fullchain.pem",
        keyfile=f"{live_dir}/privkey.pem",
        server_name=server_name,
    )
    return TEMPLATES.get_template("club.conf.j2").render(site=settings, **_figures())


def main_config(http: str, folder: str, *, user: str | None = None) -> str:
    """A whole ``nginx.conf`` for ``scorekeeper serve`` around ``http`` (a :func:`site`,
    ``nginx.conf.j2``): in the foreground, all its files in ``folder`` (pid, temporary
    bodies), errors on standard error, nchan loaded.

    ``user`` is the account nginx's workers run as when started by root
    (they must reach gunicorn's socket in the private folder).
    """
    return TEMPLATES.get_template("nginx.conf.j2").render(
        http=http, folder=folder, user=user, **_figures()
    )
