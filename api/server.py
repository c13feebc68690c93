"""The production server: the front and gunicorn running the app, as ``scorekeeper serve``
starts them.

``gunicorn wsgi:app`` works as well; this module only saves typing the
options and hands the command line's settings (``--db``: a SQLite file
or a ``postgresql://`` URL) to the app: to
:func:`api.create_app` in the master, which reads the settings and runs the
migrations once before the workers start (a bad setting stops the server
there), and again in each worker's :meth:`Server.load`. Nothing goes
through the environment. gunicorn's control socket is off (it
is not used, and servers on one machine would share its default path).

Slow clients (issue 13): gunicorn's ``gthread`` workers read a request with
blocking reads and no deadline, so a client that trickles its request
holds a thread; 64 such connections made 19 of 20 normal requests time out
on 4 workers, 3 or 4 were enough on 2. Three ways out were weighed:

* an async worker class (gevent, eventlet): waiting clients cost nothing,
  but every sqlite3 call, an fsync and above all a busy-timeout wait for
  the write lock block the whole worker's event loop, every request in it;
* read timeouts in gunicorn: it has none for a request under way (gunicorn
  27 only waits 5 s for the first byte), and a thread would still be held
  for the length of any timeout, so 200 slow clients still win;
* a buffering front: requests are read whole, with deadlines, by an
  asyncio server where a waiting client is only a coroutine, and only then
  passed to gunicorn over a local socket; nginx does this, but the project
  ships its own small one so ``scorekeeper serve`` alone is safe on a phone
  network (0.0.0.0). Chosen: :mod:`api.front` (h11, one process).

Measured with ``bench/slowloris.py`` (2 workers x 2 threads, 2 busy cores,
normal GETs one after the other for 8 s; median / p99 / timed out):

=========================  ======================  ==========================
server                     no slow connection      200 slow connections
=========================  ======================  ==========================
scorekeeper serve (front)  16.0 / 37.9 ms / 0      20.0 / 62.7 ms / 0
gunicorn alone (gthread)   13.6 / 30.2 ms / 0      nothing answered, 2 x 5 s
=========================  ======================  ==========================

The front costs about 2 ms a request; a slow client costs it a file
descriptor for at most :data:`api.front.HEAD_TIMEOUT` (10 s) before its
408. The front also answers the requests too malformed or too large for
the app itself (so every response has the security headers, and none has
a ``Server`` banner). ``gunicorn wsgi:app`` still works, without the front:
put it behind a buffering proxy (nginx) if slow clients can reach it.


:func:`spawn` starts a server in a child process on a free loopback port,
for the tests and the HTTP benchmarks; :func:`stop` stops it gracefully and
:func:`crash` kills it outright.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gunicorn import glogging
from gunicorn.app.base import BaseApplication

from . import create_app, front, log_level


class Server(BaseApplication):
    """gunicorn with the scorekeeper app and the given settings."""

    def __init__(self, options: dict, config: Mapping[str, Any] | None = None):
        self.options = options
        self.app_config = dict(config or {})
        super().__init__()

    def load_config(self) -> None:
        """Apply the settings given (gunicorn's own names: bind, workers, ...)."""
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        """Build the app in each worker, with the settings given."""
        return create_app(self.app_config)


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
    """Serve on ``host:port`` until interrupted: the front there, gunicorn behind it.

    ``config`` overrides the app's settings (``DB``: a SQLite file or a
    ``postgresql://`` URL); the master builds the app once (settings checked,
    migrations run) before the workers fork. The address is bound here (a
    busy port fails at once) and handed to the front (:mod:`api.front`, its
    own process), which passes whole requests to gunicorn on a unix socket
    in a private temporary folder (mode 0700: nobody else can go round the
    front). Workers are gunicorn's ``gthread`` kind with ``threads`` threads,
    each with its own SQLite connection (with PostgreSQL each worker has its
    own connection pool). gunicorn's request limits are looser than the
    front's, so it never writes an error page of its own; it reads the
    client's address from the front's PROXY protocol line.

    Logs: the app's log and gunicorn's error log go to standard error in
    gunicorn's format, at one level, the app's ``LOG_LEVEL`` setting (which
    ``--log-level`` gives); with ``access_log``, gunicorn's access log
    writes one line per request (its default format) to standard output.
    Off by default: a busy table does not fill a disk with lines, and
    the benchmarks measure the service, not the log.

    With ``certfile`` (and ``keyfile``, unless the key is in the same PEM
    file) the front serves HTTPS only (TLS ends there): the scorepad's service worker, its
    installing to the home screen and the wake lock need a secure context,
    which plain http to a LAN address is not.
    """
    _log_like_gunicorn()
    app = create_app(config)  # settings checked, migrations run: once, before the workers
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.create_server((host, port), family=family, backlog=2048)
    folder = tempfile.mkdtemp(prefix="scorekeeper-")
    upstream = os.path.join(folder, "gunicorn.sock")
    tls = [
        *(["--certfile", certfile] if certfile else []),
        *(["--keyfile", keyfile] if certfile and keyfile else []),
    ]
    level = log_level(app.config["LOG_LEVEL"])
    quiet = [] if level in ("DEBUG", "INFO") else ["--quiet"]  # its one line is at info
    front_process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "api.front",
            "--fd",
            str(listener.fileno()),
            "--upstream",
            upstream,
            *tls,
            *quiet,
        ],
        pass_fds=[listener.fileno()],
    )
    listener.close()
    master = os.getpid()
    try:
        Server(
            {
                "bind": f"unix:{upstream}",
                "workers": workers,
                "worker_class": "gthread",
                "threads": threads,
                "proc_name": "scorekeeper",
                "control_socket_disable": True,
                "proxy_protocol": "v1",
                "limit_request_line": 8190,
                "limit_request_fields": 2 * front.MAX_FIELDS,
                "limit_request_field_size": 0,
                "loglevel": level.lower(),
                "accesslog": "-" if access_log else None,
            },
            config,
        ).run()
    finally:
        if os.getpid() == master:  # a gunicorn worker leaves through here too
            front_process.terminate()
            try:
                front_process.wait(front.GRACE + 5)
            except subprocess.TimeoutExpired:
                front_process.kill()
                front_process.wait()
            shutil.rmtree(folder, ignore_errors=True)


def _log_like_gunicorn() -> None:
    """Give the app's logger gunicorn's error log format on standard error.

    Set in the master, so that the workers inherit it (their apps keep the
    handler: Flask adds its own only to a logger that has none). The
    logger's name is the app's, the package's name.
    """
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(glogging.Logger.error_fmt, glogging.Logger.datefmt))
    logging.getLogger(__package__).handlers[:] = [handler]


def spawn(
    db: str | os.PathLike,
    *,
    workers: int = 2,
    wsgi: bool = False,
    timeout: float = 30.0,
    port: int = 0,
    args: Sequence[str] = (),
    log: str | os.PathLike | None = None,
    installed: str | os.PathLike | None = None,
    wrapper: Sequence[str] = (),
) -> tuple[subprocess.Popen, str]:
    """Start a server on a loopback port: ``(process, base URL)``, once it answers.

    By default it runs ``scorekeeper serve --port 0`` (plus ``args``); with
    ``wsgi`` it runs ``gunicorn wsgi:app`` with ``SCOREKEEPER_DB`` set
    instead. The port is read from the server's log ("Listening at"), kept
    in the file ``log`` (standard output and error together; a temporary
    file by default); ``port`` asks for that port instead of a free one (to
    restart a server where it was, or for a log level that hides the
    "Listening at" line). ``installed`` is the ``bin`` folder of another
    installation (a venv the wheel went into): its ``scorekeeper`` runs from
    the database's folder without ``PYTHONPATH``, so that only the installed
    files are used. ``wrapper`` is a command the server is run under (e.g.
    ``setpriv ...``, which runs it with fewer privileges and so must exec
    it). With ``--certfile`` among ``args`` the URL is ``https://`` (the
    certificate is not verified while waiting for the server to answer). The
    server runs in a process group of its own. Stop it with :func:`stop`.
    """
    bin_dir = Path(installed) if installed is not None else Path(sys.executable).parent
    env = {**os.environ, "SCOREKEEPER_DB": str(db)}
    cwd = None
    if installed is not None:
        env.pop("PYTHONPATH", None)
        cwd = Path(db).parent
    if wsgi:
        argv = [
            sys.executable,
            "-m",
            "gunicorn",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--no-control-socket",
            "wsgi:app",
        ]
    else:
        script = shutil.which("scorekeeper", path=str(bin_dir)) or "scorekeeper"
        argv = [
            script,
            "serve",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--db",
            str(db),
            *args,
        ]
    scheme = "https" if "--certfile" in args else "http"
    given = f"{scheme}://127.0.0.1:{port}" if port else None
    with open(log, "w+b") if log is not None else tempfile.TemporaryFile() as out:
        process = subprocess.Popen(
            [*wrapper, *argv], stdout=out, stderr=out, env=env, cwd=cwd, start_new_session=True
        )  # the child keeps its own handle
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            out.seek(0)
            text = out.read().decode(errors="replace")
            found = re.search(r"Listening at: (https?://127\.0\.0\.1:\d+)", text)
            url = found.group(1) if found else given
            if url and _answers(url):
                return process, url
            if process.poll() is not None:
                raise RuntimeError(f"the server exited with status {process.returncode}:\n{text}")
            time.sleep(0.05)
    stop(process)
    raise RuntimeError(f"the server did not answer within {timeout} s")


def _answers(url: str) -> bool:
    # A test server's certificate is made for the test: whether it answers is what counts here.
    context = ssl._create_unverified_context() if url.startswith("https:") else None
    try:
        with urllib.request.urlopen(url + "/api/openapi.json", timeout=5, context=context):
            return True
    except OSError:
        return False


def crash(process: subprocess.Popen) -> None:
    """Kill a server started by :func:`spawn`, master and workers at once (SIGKILL).

    No handler runs and nothing is flushed, as when the machine's OOM killer
    or ``kill -9`` strikes; for the crash-safety test and the soak benchmark.
    """
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def stop(process: subprocess.Popen, timeout: float = 30.0) -> int:
    """Stop a server started by :func:`spawn` (SIGTERM: gunicorn's graceful stop)."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return process.returncode
