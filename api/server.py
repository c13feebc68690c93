"""The production server: nginx before gunicorn running the app, as ``scorekeeper serve``
starts them.

``gunicorn wsgi:app`` works as well, for development on 127.0.0.1: this
module saves typing the options, hands the command line's settings
(``--db``: a SQLite file or a ``postgresql://`` URL) to the app: to
:func:`api.create_app` in the master, which reads the settings and runs the
migrations once before the workers start (a bad setting stops the server
there), and again in each worker's :meth:`Server.load`. Nothing goes
through the environment. gunicorn's control socket is off (it
is not used, and servers on one machine would share its default path).

Slow clients (issues 13 and 18): gunicorn's ``gthread`` workers read a
request with blocking reads and no deadline, so a client that trickles its
request holds a thread (64 such connections made 19 of 20 normal requests
time out on 4 workers). gunicorn alone and waitress answered nothing under
slow heads, granian starved under slow bodies, gevent workers had 1.1-1.4 s
p99 tails and broke the store's per-thread SQLite connections; the
hand-written asyncio front that served before (``api/front.py``) was safe
but cost 0.6-0.8 ms of CPU a request and let one address lock everyone
out. So ``serve`` runs Debian's nginx before gunicorn: it reads requests
whole, within deadlines, and passes them to gunicorn on a unix socket in a
private folder (mode 0700: nobody else can go round nginx). Its
configuration is :mod:`api.nginx`'s; the figures are in the README.

Processes (issue 26): the master builds the app once (settings checked,
migrations run), then closes its store, so that no database connection
crosses gunicorn's fork; each worker opens its own. ``serve``'s children end
with it: nginx, the PostgreSQL listener and gunicorn's workers get the
kernel's parent-death signal (``PR_SET_PDEATHSIG``: SIGTERM, their graceful
stop) should ``serve`` die without a word (SIGKILL, the OOM killer), so the
port is free again at once; nginx runs in a process group of its own, so
that workers left by a killed nginx master are ended with it, and ``serve``
stops when its nginx ends. The private folder of a run that died is removed
by the next ``serve`` (its ``serve.pid`` names a process that no longer
runs). A port another program holds is one line, no traceback.
"""

from __future__ import annotations

import errno
import functools
import logging
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Mapping
from typing import Any

from gunicorn import glogging
from gunicorn.app.base import BaseApplication
from gunicorn.arbiter import Arbiter

from scorekeeper.store.base import is_postgres

from . import STORAGE_KEY, create_app, log_level, nginx
from .processes import (
    RUN_PREFIX,
    die_with_parent,
    find_nginx,
    mark_run,
    remove_dead_runs,
    start_nginx,
    stop_front,
    stop_nginx,
    stop_without,
)

BEHIND_NGINX = {
    "worker_class": "gthread",
    "proc_name": "scorekeeper",
    "control_socket_disable": True,
    "umask": "0o117",  # its unix socket 0660: its owner and group (api.systemd), nobody else
    "keepalive": 75,  # longer than nginx keeps its idle connections to gunicorn (60 s)
    "limit_request_line": 8190,
    "limit_request_fields": 32768,
    "limit_request_field_size": 0,
}
"""gunicorn's settings behind nginx (``serve``'s, and a club server's systemd unit's): its
request limits are looser than nginx's, so it never writes an error page of its own."""


class FrontFirst(Arbiter):
    """gunicorn's master, which runs ``before_stop`` before a graceful stop of its workers:
    ``serve`` closes its front door (nginx) there, before the app behind it."""

    def __init__(self, app: BaseApplication, before_stop: Callable[[], None]) -> None:
        super().__init__(app)
        self.before_stop = before_stop

    def stop(self, graceful: bool = True) -> None:
        if graceful:
            self.before_stop()
        super().stop(graceful)


class Server(BaseApplication):
    """gunicorn with the scorekeeper app and the given settings; ``before_stop`` runs in the
    master when it is asked to stop gracefully, before its workers stop."""

    def __init__(
        self,
        options: dict[str, Any],
        config: Mapping[str, Any] | None = None,
        before_stop: Callable[[], None] = lambda: None,
    ):
        self.options = options
        self.app_config = dict(config or {})
        self.before_stop = before_stop
        super().__init__()

    def run(self) -> None:
        """gunicorn's own ``run``, with :class:`FrontFirst` as its master."""
        try:
            FrontFirst(self, self.before_stop).run()
        except RuntimeError as error:
            sys.exit(f"\nError: {error}\n")

    def load_config(self) -> None:
        """Apply the settings given (gunicorn's own names: bind, workers, ...)."""
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:  # a Flask app (gunicorn's stubs type start_response unlike Flask's)
        """Build the app in each worker, with the settings given."""
        return create_app(self.app_config)


def _worker_dies_with_master(server: Any, worker: Any) -> None:
    """gunicorn's ``post_fork`` hook: a worker gets SIGTERM (a graceful stop) when its
    master dies, rather than noticing it a second later."""
    die_with_parent(server.pid)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int = 2,
    threads: int = 2,
    config: Mapping[str, Any] | None = None,
    access_log: bool = False,
    certfile: str | None = None,
    keyfile: str | None = None,
) -> None:
    """Serve on ``host:port`` until interrupted: nginx there, gunicorn behind it.

    ``config`` overrides the app's settings (``DB``: a SQLite file or a
    ``postgresql://`` URL); the master builds the app once (settings checked,
    migrations run) before the workers fork. A private temporary folder
    (mode 0700) holds nginx's configuration (:func:`api.nginx.main_config`),
    its pid and temporary files, gunicorn's unix socket and the live sheets'
    publisher socket; it goes when the server stops. nginx runs as a child
    process in the foreground; asked to stop (SIGTERM), ``serve`` stops nginx
    first (gracefully: it listens no more, closes idle kept-alive connections
    at once and lets the requests under way finish through gunicorn), then
    gunicorn; if nginx exits by itself, gunicorn is stopped too (``serve``
    ends). The app is told
    it is behind one proxy (``PROXY_HOPS``) and where to publish live
    updates (``LIVE_PUBLISH_SOCKET``); with PostgreSQL one listener process
    (:func:`api.live.listen`) republishes every server's changes to this
    nginx. Port 0 picks a free port; a busy port
    fails at once. Without nginx it exits with one line saying how to
    install it.

    Workers are gunicorn's ``gthread`` kind with ``threads`` threads, each
    with its own SQLite connection (with PostgreSQL each worker has its own
    connection pool). gunicorn's request limits are looser than nginx's, so
    it never writes an error page of its own.

    Logs: the app's log and gunicorn's error log go to standard error in
    gunicorn's format, at one level, the app's ``LOG_LEVEL`` setting (which
    ``--log-level`` gives); nginx writes its errors there too. With
    ``access_log``, gunicorn's access log writes one line per request (its
    default format) to standard output. Off by default: a busy table does
    not fill a disk with lines, and the benchmarks measure the service, not
    the log.

    With ``certfile`` (and ``keyfile``, unless the key is in the same PEM
    file) nginx serves HTTPS only, HTTP/2 included: the scorepad's service
    worker, its installing to the home screen and the wake lock need a
    secure context, which plain http to a LAN address is not.
    """
    binary = find_nginx()
    _log_like_gunicorn()
    remove_dead_runs()
    folder = tempfile.mkdtemp(prefix=RUN_PREFIX)  # mode 0700
    master = os.getpid()
    mark_run(folder)
    proxy: subprocess.Popen[bytes] | None = None
    listener: subprocess.Popen[bytes] | None = None
    stopping = threading.Event()
    try:
        app_socket = os.path.join(folder, "gunicorn.sock")
        publish_socket = os.path.join(folder, "publish.sock")
        settings = {
            **(config or {}),
            "PROXY_HOPS": 1,
            "LIVE_PUBLISH_SOCKET": publish_socket,
        }
        app = create_app(settings)  # settings checked, migrations run: once, before the workers
        app.extensions[STORAGE_KEY].close()  # no connection crosses the workers' fork
        port = _free_port(host, port)
        address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        site = nginx.Site(
            listen=(address,),
            app_socket=app_socket,
            publish_socket=publish_socket,
            certfile=os.path.abspath(certfile) if certfile else None,
            keyfile=os.path.abspath(keyfile) if keyfile else None,
            heartbeat=app.config["LIVE_HEARTBEAT"],
            stream_lifetime=app.config["LIVE_STREAM_LIFETIME"],
        )
        conf = os.path.join(folder, "nginx.conf")
        root = pwd.getpwuid(os.geteuid()).pw_name if os.geteuid() == 0 else None
        with open(conf, "w", encoding="utf-8") as out:
            out.write(nginx.main_config(nginx.site(site), folder, user=root))
        proxy = start_nginx(binary, folder, conf, host, port)
        threading.Thread(target=stop_without, args=(proxy, stopping), daemon=True).start()
        if is_postgres(app.config["DB"]):  # one listener per server republishes every change
            listener = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "api.live",
                    "--db",
                    app.config["DB"],
                    "--publish-socket",
                    publish_socket,
                ],
                preexec_fn=functools.partial(die_with_parent, master),
            )
        level = log_level(app.config["LOG_LEVEL"])
        if level in ("DEBUG", "INFO"):
            scheme = "https" if certfile else "http"
            print(
                f"[{master}] [INFO] Listening at: {scheme}://{address}"
                f" (nginx; gunicorn at unix:{app_socket})",
                file=sys.stderr,
                flush=True,
            )
        Server(
            {
                **BEHIND_NGINX,
                "bind": f"unix:{app_socket}",
                "workers": workers,
                "threads": threads,
                "loglevel": level.lower(),
                "accesslog": "-" if access_log else None,
                "post_fork": _worker_dies_with_master,
            },
            settings,
            before_stop=functools.partial(stop_front, proxy, stopping),
        ).run()
    finally:
        if os.getpid() == master:  # a gunicorn worker leaves through here too
            stopping.set()
            if listener is not None:
                listener.terminate()
                listener.wait(10)
            if proxy is not None:
                stop_nginx(proxy)
            shutil.rmtree(folder, ignore_errors=True)


def _free_port(host: str, port: int) -> int:
    """``port``, checked free on ``host`` (a busy one exits with one line); a free one for 0."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.create_server((host, port), family=family) as probe:
            found: int = probe.getsockname()[1]
            return found
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            sys.exit(f"scorekeeper serve: port {port} on {host} is in use by another program")
        sys.exit(f"scorekeeper serve: cannot listen on {host}:{port}: {error.strerror}")


def _log_like_gunicorn() -> None:
    """Give the app's logger gunicorn's error log format on standard error.

    Set in the master, so that the workers inherit it (their apps keep the
    handler: Flask adds its own only to a logger that has none). The
    logger's name is the app's, the package's name.
    """
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(glogging.Logger.error_fmt, glogging.Logger.datefmt))
    logging.getLogger(__package__).handlers[:] = [handler]
