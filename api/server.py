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

import contextlib
import ctypes
import errno
import functools
import logging
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from gunicorn import glogging
from gunicorn.app.base import BaseApplication
from gunicorn.arbiter import Arbiter

from scorekeeper.store.base import is_postgres

from . import STORAGE_KEY, create_app, log_level, nginx

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
    _mark_run(folder)
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
        proxy = _start_nginx(binary, folder, conf, host, port)
        threading.Thread(target=_stop_without, args=(proxy, stopping), daemon=True).start()
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
            before_stop=functools.partial(_stop_front, proxy, stopping),
        ).run()
    finally:
        if os.getpid() == master:  # a gunicorn worker leaves through here too
            stopping.set()
            if listener is not None:
                listener.terminate()
                listener.wait(10)
            if proxy is not None:
                _stop_nginx(proxy)
            shutil.rmtree(folder, ignore_errors=True)


INSTALL = (
    "scorekeeper serve needs nginx and its nchan module: apt-get install nginx libnginx-mod-nchan"
)
"""The one line ``serve`` exits with where nginx is missing."""


def find_nginx() -> str:
    """The nginx binary (Debian's ``/usr/sbin/nginx``, else on the ``PATH``), with nchan.

    Exits with :data:`INSTALL` if either is missing.
    """
    found = shutil.which("nginx", path=os.pathsep.join(["/usr/sbin", os.environ.get("PATH", "")]))
    if found is None or not os.path.exists(nginx.NCHAN_MODULE):
        sys.exit(INSTALL)
    return found


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


RUN_PREFIX = "scorekeeper-"
"""The private folders' names in the temporary directory begin so."""

RUN_MARK = "serve.pid"
"""The file in a run's folder naming its ``serve`` process: pid and start time."""


def started_at(pid: int) -> str | None:
    """Process ``pid``'s start time (clock ticks since boot, from ``/proc``), or ``None``
    where no such process runs: with the pid, it names one process for good."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return None
    return None if fields[0] == "Z" else fields[19]


def _mark_run(folder: str) -> None:
    """Write :data:`RUN_MARK` into this run's folder."""
    pid = os.getpid()
    with open(os.path.join(folder, RUN_MARK), "w", encoding="ascii") as mark:
        mark.write(f"{pid} {started_at(pid)}\n")


def remove_dead_runs() -> None:
    """Remove the private folders that ``serve`` runs which died left in the temporary
    directory (their :data:`RUN_MARK` names a process that no longer runs)."""
    top = tempfile.gettempdir()
    for name in os.listdir(top):
        folder = os.path.join(top, name)
        if not name.startswith(RUN_PREFIX):
            continue
        try:
            with open(os.path.join(folder, RUN_MARK), encoding="ascii") as mark:
                pid, started = mark.read().split()
        except (OSError, ValueError):  # not a run's folder, or one not yet marked
            continue
        if started_at(int(pid)) != started:
            shutil.rmtree(folder, ignore_errors=True)


PR_SET_PDEATHSIG = 1
"""prctl(2)'s option: the signal a process gets when its parent (thread) ends."""

_LIBC = ctypes.CDLL(None, use_errno=True)


def die_with_parent(parent: int) -> None:
    """Ask the kernel to send this process SIGTERM when its parent ``parent`` dies (and
    stop at once if it already has)."""
    if _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:  # the parent died before the request took hold
        os.kill(os.getpid(), signal.SIGTERM)


def _start_nginx(
    binary: str, folder: str, conf: str, host: str, port: int
) -> subprocess.Popen[bytes]:
    """Run nginx in the foreground with ``conf``; return once it listens (or exit with why not)."""
    process = subprocess.Popen(
        [binary, "-p", folder + "/", "-c", conf, "-e", os.path.join(folder, "error.log")],
        start_new_session=True,  # its workers in its group: ended together (_end_group)
        preexec_fn=functools.partial(die_with_parent, os.getpid()),
    )
    target = "::1" if host == "::" else "127.0.0.1" if host == "0.0.0.0" else host
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"nginx exited with status {process.returncode} (its reason is above)")
        with contextlib.suppress(OSError), socket.create_connection((target, port), 0.5):
            return process
        time.sleep(0.02)
    _stop_nginx(process)
    sys.exit(f"nginx did not listen on {host}:{port} within 10 s")


def _stop_without(proxy: subprocess.Popen[bytes], stopping: threading.Event) -> None:
    """Stop the server (SIGTERM to this process, gunicorn's master) if nginx exits first:
    without it nothing answers, and a supervisor should see ``serve`` end."""
    status = proxy.wait()
    _end_group(proxy)
    if not stopping.is_set():
        logging.getLogger(__package__).error("nginx exited (status %s): stopping", status)
        os.kill(os.getpid(), signal.SIGTERM)


def _end_group(proxy: subprocess.Popen[bytes]) -> None:
    """Kill what is left of nginx's process group: the workers of a master that was killed
    (they would go on holding the port, answering 502)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proxy.pid, signal.SIGKILL)


def _stop_front(proxy: subprocess.Popen[bytes], stopping: threading.Event) -> None:
    """Stop nginx, as ``serve`` stops (not a crash to stop the server for: ``stopping``)."""
    stopping.set()
    _stop_nginx(proxy)


def _stop_nginx(process: subprocess.Popen[bytes]) -> None:
    """Stop nginx gracefully (SIGQUIT: requests under way finish, idle connections close)."""
    if process.poll() is None:
        process.send_signal(signal.SIGQUIT)
    try:
        process.wait(nginx.SHUTDOWN_TIMEOUT + 5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    _end_group(process)


def _log_like_gunicorn() -> None:
    """Give the app's logger gunicorn's error log format on standard error.

    Set in the master, so that the workers inherit it (their apps keep the
    handler: Flask adds its own only to a logger that has none). The
    logger's name is the app's, the package's name.
    """
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(glogging.Logger.error_fmt, glogging.Logger.datefmt))
    logging.getLogger(__package__).handlers[:] = [handler]
