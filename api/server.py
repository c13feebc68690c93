"""The production server: gunicorn running the app, as ``scorekeeper serve`` starts it.

``gunicorn wsgi:app`` works as well; this module only saves typing the
options and lets ``--db`` choose the database (a SQLite file or a
``postgresql://`` URL). Migrations run once in the master before the
workers start. gunicorn's control socket is off (it
is not used, and servers on one machine would share its default path).

:func:`spawn` starts a server in a child process on a free loopback port,
for the tests and the HTTP benchmarks; :func:`stop` stops it gracefully and
:func:`crash` kills it outright.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from gunicorn.app.base import BaseApplication

from scorekeeper.store import open_store
from scorekeeper.store.sqlite import default_path


class Server(BaseApplication):
    """gunicorn with the scorekeeper app and the given settings."""

    def __init__(self, options: dict):
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        """Apply the settings given (gunicorn's own names: bind, workers, ...)."""
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        """Build the app in each worker."""
        from . import create_app

        return create_app()


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int = 2,
          db: str | None = None, threads: int = 2) -> None:
    """Run gunicorn on ``host:port`` until interrupted; ``db`` sets ``SCOREKEEPER_DB``.

    ``db`` is a SQLite file or a ``postgresql://`` URL; the master migrates it
    and lets go of it before the workers fork.

    Workers are gunicorn's ``gthread`` kind: connections are kept alive (no
    new TCP connection per request) and a slow client does not hold a whole
    worker. Each thread has its own SQLite connection; with PostgreSQL each
    worker has its own connection pool.
    """
    if db is not None:
        os.environ["SCOREKEEPER_DB"] = db
    open_store(default_path()).close()
    Server({"bind": f"{host}:{port}", "workers": workers, "worker_class": "gthread",
            "threads": threads, "proc_name": "scorekeeper",
            "control_socket_disable": True}).run()


def spawn(db: str | os.PathLike, *, workers: int = 2, wsgi: bool = False,
          timeout: float = 30.0, port: int = 0) -> tuple[subprocess.Popen, str]:
    """Start a server on a loopback port: ``(process, base URL)``, once it answers.

    By default it runs ``scorekeeper serve --port 0``; with ``wsgi`` it runs
    ``gunicorn wsgi:app`` with ``SCOREKEEPER_DB`` set instead. The port is
    read from gunicorn's log (kept in a temporary file); ``port`` asks for
    that port instead of a free one (to restart a server where it was). The
    server runs in a process group of its own. Stop it with :func:`stop`.
    """
    bin_dir = Path(sys.executable).parent
    if wsgi:
        argv = [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers",
                str(workers), "--no-control-socket", "wsgi:app"]
    else:
        script = shutil.which("scorekeeper", path=str(bin_dir)) or "scorekeeper"
        argv = [script, "serve", "--port", str(port), "--workers", str(workers), "--db",
                str(db)]
    env = {**os.environ, "SCOREKEEPER_DB": str(db)}
    with tempfile.TemporaryFile() as log:  # the child keeps its own handle on it
        process = subprocess.Popen(argv, stdout=log, stderr=log, env=env,
                                   start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            log.seek(0)
            text = log.read().decode(errors="replace")
            found = re.search(r"Listening at: (http://127\.0\.0\.1:\d+)", text)
            if found and _answers(found.group(1)):
                return process, found.group(1)
            if process.poll() is not None:
                raise RuntimeError(f"the server exited with status {process.returncode}:"
                                   f"\n{text}")
            time.sleep(0.05)
    stop(process)
    raise RuntimeError(f"the server did not answer within {timeout} s")


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/api/openapi.json", timeout=5):
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
