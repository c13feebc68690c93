"""nginx before gunicorn: the configuration text, for ``scorekeeper serve`` and a club's server.

Pure string building from a :class:`Site` (no files, no processes:
:mod:`api.server` runs nginx, ``scorekeeper deploy nginx`` prints a site).
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
  language (issue 20), written from the gettext catalogs when the configuration is
  written and chosen by nginx ``map``s like the app chooses (:func:`language_maps`);
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
* The live sheets' locations (nchan): :func:`api.live.nginx_locations`, their caps
  (:mod:`api.streams`: zones of their own, within the connection budget, :data:`HEADROOM`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from babel.numbers import format_decimal
from babel.support import Translations

from . import live, streams
from .i18n import LANG_COOKIE, LANGUAGES, N_, NORWEGIAN, TRANSLATIONS
from .security import HEADERS

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

PAGE_WORDS = {
    400: N_("The request could not be read."),
    408: N_("The page took too long to arrive: nothing was saved. Try again."),
    413: N_("That form is too large (over %(bytes)s bytes): nothing was saved."),
    414: N_("That address is too long."),
    494: N_("The request's header fields are too large."),
    497: N_("This address speaks HTTPS only: open it with https://."),
    429: N_("Too many connections at once from this address: try again in a moment."),
    502: N_("The server is not answering: nothing was saved. Try again in a moment."),
    503: N_("The server is busy: nothing was saved. Try again in a moment."),
    504: N_("The server took too long to answer: look at the sheet before sending again."),
}
"""What the scorepad's pages say for each of :data:`ERRORS` (its paths are not the API's),
in English; each language's page says it from that language's catalog."""

ERROR_PATH = "/.nginx-error/"
"""Where nginx's error pages are (internal locations: a client asking for them gets a 404):
``<status>`` the API's JSON, ``page-<lang>-<status>`` the scorepad's HTML in a language."""

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

TLS = (
    "ssl_protocols TLSv1.2 TLSv1.3;\n"
    f"ssl_ciphers {':'.join(CIPHERS)};\n"
    "ssl_prefer_server_ciphers off;\n"
    "ssl_ecdh_curve X25519:prime256v1:secp384r1;\n"
    "ssl_session_timeout 1d;\n"
    "ssl_session_cache shared:scorekeeper_tls:10m;\n"
    "ssl_session_tickets off;\n"
    f'add_header Strict-Transport-Security "max-age={HSTS_AGE}" always;\n'
)
"""A TLS server's settings after its certificate: Mozilla's "intermediate" profile
(TLS 1.2 with :data:`CIPHERS`, and 1.3; the client picks its preferred suite; sessions
resumed from nginx's cache, no tickets, whose key would live as long as nginx) and HSTS.
nginx gives the header to the locations without ``add_header`` of their own: the app's
pages and API (its error pages and the live streams set their own headers)."""


@dataclass(frozen=True)
class Site:
    """What differs between one nginx site for the app and another."""

    listen: tuple[str, ...]
    """nginx ``listen`` addresses (``127.0.0.1:8000``, ``[::]:443``)."""
    app_socket: str
    """gunicorn's unix socket (a path)."""
    publish_socket: str
    """The live sheets' publisher socket (a path; see :func:`api.live.nginx_locations`)."""
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


def _quoted(text: str) -> str:
    """``text`` as an nginx single-quoted string."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _indented(text: str, spaces: int) -> str:
    pad = " " * spaces
    return "".join(pad + line if line.strip() else line for line in text.splitlines(True))


def _error_pages(prefix: str) -> str:
    """``error_page`` lines sending each of :data:`ERRORS` to ``ERROR_PATH + prefix + status``."""
    pages = ""
    for status, (sent, *_) in ERRORS.items():
        changed = f"={sent} " if sent != status else ""
        pages += f"error_page {status} {changed}{ERROR_PATH}{prefix}{status};\n"
    return pages


def _page(status: int, lang: str) -> str:
    """The scorepad's error page for ``status`` in ``lang`` (the pad's style sheet, no script),
    its words from the language's catalog (English where it has none)."""
    words = Translations.load(str(TRANSLATIONS), [lang])
    message = words.gettext(PAGE_WORDS[status]) % {"bytes": format_decimal(MAX_BODY, locale=lang)}
    back = words.gettext("Back to the start")
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{message}</title><link rel="stylesheet" href="/static/pad.css"></head>'
        f'<body><main id="main"><h1>{message}</h1>'
        f'<p><a href="/">{back}</a></p></main></body></html>'
    )


def language_maps() -> str:
    """The ``map``s (``http`` level) that set :data:`PAGE_LANGUAGE` as the app chooses a
    page's language (:func:`api.i18n.chosen_language`): the ``sk_lang`` cookie if it names
    one of :data:`~api.i18n.LANGUAGES`, else the first language of ``Accept-Language`` (in
    the header's order, q-values aside) that the pad speaks, Norwegian ``no``/``nn`` as
    ``nb``, else English."""
    tags = "|".join((*LANGUAGES, *NORWEGIAN))
    first = rf"~*^(?:[^,]*,)*?\s*({tags})(?:-[^,;]*)?\s*(?:;[^,]*)?(?:,|$)"
    chosen = "".join(f"    ~^{lang}: {lang};\n" for lang in LANGUAGES)
    asked = "".join(f"    ~*:{lang}$ {lang};\n" for lang in LANGUAGES)
    norwegian = "".join(f"    ~*:{tag}$ nb;\n" for tag in NORWEGIAN)
    return (
        "map $http_accept_language $scorekeeper_accept_lang {\n"
        '    default "";\n'
        f'    "{first}" $1;\n'
        "}\n"
        f'map "$cookie_{LANG_COOKIE}:$scorekeeper_accept_lang" {PAGE_LANGUAGE} {{\n'
        f"    default {LANGUAGES[0]};\n"
        f"{chosen}{asked}{norwegian}"
        "}\n"
    )


def error_locations() -> str:
    """``error_page`` lines (the API's JSON, the server's default) and the internal locations
    answering them: the API's JSON error, and the scorepad's HTML page in each language (its
    locations send their errors there: :func:`_error_pages` with ``page-$lang-``), each
    with the headers."""
    security = "".join(
        f"    add_header {name} {_quoted(value)} always;\n" for name, value in HEADERS.items()
    )
    locations = ""
    for status, (sent, code, message, field) in ERRORS.items():
        body = json.dumps({"error": {"code": code, "message": message, "field": field}})
        retry = "    add_header Retry-After 1 always;\n" if sent in RETRY_AFTER else ""
        pages = [
            (f"page-{lang}-", '"text/html; charset=utf-8"', _page(status, lang))
            for lang in LANGUAGES
        ]
        for prefix, kind, text in (("", "application/json", body), *pages):
            locations += (
                f"location = {ERROR_PATH}{prefix}{status} {{\n"
                "    internal;\n"
                "    client_max_body_size 0;\n"  # HTTP/2 would refuse an oversize body again
                "    keepalive_timeout 0;\n"  # a refused connection is not kept
                f"    default_type {kind};\n"
                f"{security}{retry}"
                f"    return {sent} {_quoted(text)};\n"
                "}\n"
            )
    return _error_pages("") + locations


def site(settings: Site) -> str:
    """The ``http``-level text of the site: zones, the gunicorn upstream, the servers.

    Every other directive is inside the public ``server`` block, so the text
    fits in any ``http`` block (Debian's ``sites-enabled/`` as well).
    """
    public, publisher = live.nginx_locations(
        settings.publish_socket,
        heartbeat=settings.heartbeat,
        lifetime=settings.stream_lifetime,
        error_pages=_error_pages("") + f"error_page 500 =503 {ERROR_PATH}503;\n",
    )
    tls = settings.certfile is not None
    listen = "".join(
        f"listen {address}{' ssl http2' if tls else ''};\n" for address in settings.listen
    )
    certificate = ""
    if tls:
        certificate = (
            f"ssl_certificate {settings.certfile};\n"
            f"ssl_certificate_key {settings.keyfile or settings.certfile};\n"
            f"{TLS}"
        )
    host = "$http_host" if settings.server_name == "_" else settings.server_name
    cleared = "".join(f'    proxy_set_header {name} "";\n' for name in CLEARED)
    proxied = (
        f"    limit_conn scorekeeper_address {PER_ADDRESS};\n"
        f"    limit_conn scorekeeper_total {TOTAL};\n"
        "    proxy_pass http://scorekeeper;\n"
        "    proxy_http_version 1.1;\n"
        '    proxy_set_header Connection "";\n'
        f"    proxy_set_header Host {host};\n"
        "    proxy_set_header X-Forwarded-For $remote_addr;\n"
        "    proxy_set_header X-Forwarded-Proto $scheme;\n"
        f"{cleared}"
        "    proxy_connect_timeout 5s;\n"
        "    proxy_read_timeout 120s;\n"
    )
    server = (
        f"{listen}"
        f"server_name {settings.server_name};\n"
        f"{certificate}"
        "server_tokens off;\n"
        "underscores_in_headers off;\n"
        "ignore_invalid_headers on;\n"
        f"client_header_timeout {HEAD_TIMEOUT}s;\n"
        f"client_body_timeout {BODY_TIMEOUT}s;\n"
        f"send_timeout {SEND_TIMEOUT}s;\n"
        f"keepalive_timeout {HEAD_TIMEOUT}s;\n"
        f"client_max_body_size {MAX_BODY};\n"
        "client_body_buffer_size 64k;\n"
        "large_client_header_buffers 4 8k;\n"
        "limit_conn_status 429;\n"
        "limit_conn_log_level warn;\n"
        f"{error_locations()}"
        f"location /api/ {{\n{proxied}}}\n"
        f"location / {{\n{_indented(_error_pages(f'page-{PAGE_LANGUAGE}-'), 4)}{proxied}}}\n"
        f"{public}"
    )
    return (
        f"{language_maps()}"
        "limit_conn_zone $binary_remote_addr zone=scorekeeper_address:10m;\n"
        "limit_conn_zone $server_name zone=scorekeeper_total:1m;\n"
        f"{streams.ZONES}"
        "upstream scorekeeper {\n"
        f"    server unix:{settings.app_socket};\n"
        f"    keepalive {UPSTREAM_KEEPALIVE};\n"
        "    keepalive_timeout 60s;\n"
        "}\n"
        "server {\n"
        f"{_indented(server, 4)}"
        "}\n"
        f"{publisher}"
    )


RUN_DIR = "/run/scorekeeper"
"""A club server's sockets (gunicorn's, the live publisher's): systemd's ``RuntimeDirectory``
(who may reach them: :mod:`api.systemd`)."""

APP_SOCKET = f"{RUN_DIR}/gunicorn.sock"
"""gunicorn's socket on a club server: nginx's workers and the app reach it."""

PUBLISH_SOCKET = f"{RUN_DIR}/live/publish.sock"
"""The live publisher's socket on a club server, in a folder only the app's account enters."""


def club_site(server_name: str) -> str:
    """The nginx site of a club's server (``scorekeeper deploy nginx``), for Debian's
    ``/etc/nginx/sites-available/``: HTTPS and HTTP/2 on port 443 with Let's Encrypt's
    certificate for ``server_name`` (certbot's paths), port 80 only for certbot's
    challenges and a redirect to ``https://server_name`` (no app there: no cookie, no
    hand-over key crosses plain http), gunicorn and the live publisher in :data:`RUN_DIR`."""
    live_dir = f"/etc/letsencrypt/live/{server_name}"
    settings = Site(
        listen=("443", "[::]:443"),
        app_socket=APP_SOCKET,
        publish_socket=PUBLISH_SOCKET,
        certfile=f"{live_dir}/fullchain.pem",
        keyfile=f"{live_dir}/privkey.pem",
        server_name=server_name,
    )
    return (
        f"# scorekeeper at https://{server_name}/ (scorekeeper deploy nginx): put in\n"
        "# /etc/nginx/sites-available/scorekeeper, link from sites-enabled/, nginx -t.\n"
        "server {\n"
        "    listen 80;\n"
        "    listen [::]:80;\n"
        f"    server_name {server_name};\n"
        "    server_tokens off;\n"
        "    location /.well-known/acme-challenge/ {\n"
        "        root /var/www/html;\n"
        "    }\n"
        "    location / {\n"
        f"        return 301 https://{server_name}$request_uri;\n"
        "    }\n"
        "}\n"
        f"{site(settings)}"
    )


def main_config(http: str, folder: str, *, user: str | None = None) -> str:
    """A whole ``nginx.conf`` for ``scorekeeper serve`` around ``http`` (a :func:`site`):
    in the foreground, all its files in ``folder`` (pid, temporary bodies), errors on
    standard error, nchan loaded.

    ``user`` is the account nginx's workers run as when started by root
    (they must reach gunicorn's socket in the private folder).
    """
    temp = "".join(
        f"{kind}_temp_path {folder}/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{'user ' + user + ';' + chr(10) if user else ''}"
        "daemon off;\n"
        "worker_processes 1;\n"
        f"worker_rlimit_nofile {2 * WORKER_CONNECTIONS + 64};\n"
        f"pid {folder}/nginx.pid;\n"
        "error_log stderr error;\n"
        f"worker_shutdown_timeout {SHUTDOWN_TIMEOUT}s;\n"
        f"load_module {NCHAN_MODULE};\n"
        "events {\n"
        f"    worker_connections {WORKER_CONNECTIONS};\n"
        "}\n"
        "http {\n"
        "    access_log off;\n"
        "    default_type application/octet-stream;\n"
        f"{_indented(temp, 4)}"
        f"{_indented(http, 4)}"
        "}\n"
    )
