"""The production server: gunicorn running the app, as ``scorekeeper serve`` starts it.

``gunicorn wsgi:app`` works as well; this module only saves typing the
options and hands the command line's settings (``--db``) to the app: to
:func:`api.create_app` in the master, which reads the settings and runs the
migrations once before the workers start (a bad setting stops the server
there), and again in each worker's :meth:`Server.load`. Nothing goes
through the environment. gunicorn's control socket is off (it
is not used, and servers on one machine would share its default path).

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

from . import create_app, log_level


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


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int = 2, threads: int = 2,
          config: Mapping[str, Any] | None = None, access_log: bool = False,
          certfile: str | None = None, keyfile: str | None = None) -> None:
    """Run gunicorn on ``host:port`` until interrupted; ``config`` overrides the app's settings.

    Workers are gunicorn's ``gthread`` kind: connections are kept alive (no
    new TCP connection per request) and a slow client does not hold a whole
    worker. Each thread has its own SQLite connection.

    Logs: the app's log and gunicorn's error log go to standard error in
    gunicorn's format, at one level, the app's ``LOG_LEVEL`` setting (which
    ``--log-level`` gives); with ``access_log``, gunicorn's access log
    writes one line per request (its default format) to standard output.
    Off by default: a busy table does not fill a disk with lines, and
    the benchmarks measure the service, not the log.

    With ``certfile`` (and ``keyfile``, unless the key is in the same PEM
    file) gunicorn serves HTTPS only: the scorepad's service worker, its
    installing to the home screen and the wake lock need a secure context,
    which plain http to a LAN address is not.
    """
    _log_like_gunicorn()
    app = create_app(config)  # settings checked, migrations run: once, before the workers
    Server({"bind": f"{host}:{port}", "workers": workers, "worker_class": "gthread",
            "threads": threads, "proc_name": "scorekeeper",
            "control_socket_disable": True,
            "loglevel": log_level(app.config["LOG_LEVEL"]).lower(),
            "accesslog": "-" if access_log else None,
            **({"certfile": certfile, "keyfile": keyfile or certfile} if certfile else {})},
           config).run()


def _log_like_gunicorn() -> None:
    """Give the app's logger gunicorn's error log format on standard error.

    Set in the master, so that the workers inherit it (their apps keep the
    handler: Flask adds its own only to a logger that has none). The
    logger's name is the app's, the package's name.
    """
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(glogging.Logger.error_fmt, glogging.Logger.datefmt))
    logging.getLogger(__package__).handlers[:] = [handler]


def spawn(db: str | os.PathLike, *, workers: int = 2, wsgi: bool = False,
          timeout: float = 30.0, port: int = 0, args: Sequence[str] = (),
          log: str | os.PathLike | None = None,
          installed: str | os.PathLike | None = None) -> tuple[subprocess.Popen, str]:
    """Start a server on a loopback port: ``(process, base URL)``, once it answers.

    By default it runs ``scorekeeper serve --port 0`` (plus ``args``); with
    ``wsgi`` it runs ``gunicorn wsgi:app`` with ``SCOREKEEPER_DB`` set
    instead. The port is read from gunicorn's log, kept in the file ``log``
    (standard output and error together; a temporary file by default);
    ``port`` asks for that port instead of a free one (to restart a server
    where it was, or for a log level that hides gunicorn's "Listening at").
    With ``--certfile`` among ``args`` the URL is ``https://`` (the
    certificate is not verified while waiting for the server to answer).
    ``installed`` is the ``bin`` folder of another installation (a venv the
    wheel went into): its ``scorekeeper`` runs from the database's folder
    without ``PYTHONPATH``, so that only the installed files are used. The
    server runs in a process group of its own. Stop it with :func:`stop`.
    """
    bin_dir = Path(installed) if installed is not None else Path(sys.executable).parent
    env = {**os.environ, "SCOREKEEPER_DB": str(db)}
    cwd = None
    if installed is not None:
        env.pop("PYTHONPATH", None)
        cwd = Path(db).parent
    if wsgi:
        argv = [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers",
                str(workers), "--no-control-socket", "wsgi:app"]
    else:
        script = shutil.which("scorekeeper", path=str(bin_dir)) or "scorekeeper"
        argv = [script, "serve", "--port", str(port), "--workers", str(workers), "--db",
                str(db), *args]
    scheme = "https" if "--certfile" in args else "http"
    given = f"{scheme}://127.0.0.1:{port}" if port else None
    with (open(log, "w+b") if log is not None else tempfile.TemporaryFile()) as out:
        process = subprocess.Popen(argv, stdout=out, stderr=out, env=env, cwd=cwd,
                                   start_new_session=True)  # the child keeps its own handle
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            out.seek(0)
            text = out.read().decode(errors="replace")
            found = re.search(r"Listening at: (https?://127\.0\.0\.1:\d+)", text)
            url = found.group(1) if found else given
            if url and _answers(url):
                return process, url
            if process.poll() is not None:
                raise RuntimeError(f"the server exited with status {process.returncode}:"
                                   f"\n{text}")
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
