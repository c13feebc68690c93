"""The production server: the front and gunicorn running the app, as ``scorekeeper serve``
starts them.

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

Migrations run once before the workers start. gunicorn's control socket is
off (it is not used, and servers on one machine would share its default
path).

:func:`spawn` starts a server in a child process on a free loopback port,
for the tests and the HTTP benchmarks; :func:`stop` stops it gracefully and
:func:`crash` kills it outright.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from gunicorn.app.base import BaseApplication

from scorekeeper.store.sqlite import Storage

from . import front


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
    """Serve on ``host:port`` until interrupted: the front there, gunicorn behind it.

    ``db`` sets ``SCOREKEEPER_DB``. The address is bound here (a busy port
    fails at once) and handed to the front (:mod:`api.front`, its own
    process), which passes whole requests to gunicorn on a unix socket in a
    private temporary folder (mode 0700: nobody else can go round the
    front). Workers are gunicorn's ``gthread`` kind with ``threads`` threads,
    each with its own SQLite connection. gunicorn's request limits are
    looser than the front's, so it never writes an error page of its own;
    it reads the client's address from the front's PROXY protocol line.
    """
    if db is not None:
        os.environ["SCOREKEEPER_DB"] = db
    Storage()
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.create_server((host, port), family=family, backlog=2048)
    folder = tempfile.mkdtemp(prefix="scorekeeper-")
    upstream = os.path.join(folder, "gunicorn.sock")
    front_process = subprocess.Popen(
        [sys.executable, "-m", "api.front", "--fd", str(listener.fileno()), "--upstream",
         upstream], pass_fds=[listener.fileno()])
    listener.close()
    master = os.getpid()
    try:
        Server({"bind": f"unix:{upstream}", "workers": workers, "worker_class": "gthread",
                "threads": threads, "proc_name": "scorekeeper", "control_socket_disable": True,
                "proxy_protocol": "v1", "limit_request_line": 8190,
                "limit_request_fields": 2 * front.MAX_FIELDS,
                "limit_request_field_size": 0}).run()
    finally:
        if os.getpid() == master:  # a gunicorn worker leaves through here too
            front_process.terminate()
            try:
                front_process.wait(front.GRACE + 5)
            except subprocess.TimeoutExpired:
                front_process.kill()
                front_process.wait()
            shutil.rmtree(folder, ignore_errors=True)


def spawn(db: str | os.PathLike, *, workers: int = 2, wsgi: bool = False,
          timeout: float = 30.0, port: int = 0, wrapper: Sequence[str] = ()
          ) -> tuple[subprocess.Popen, str]:
    """Start a server on a loopback port: ``(process, base URL)``, once it answers.

    By default it runs ``scorekeeper serve --port 0``; with ``wsgi`` it runs
    ``gunicorn wsgi:app`` with ``SCOREKEEPER_DB`` set instead. The port is
    read from gunicorn's log (kept in a temporary file); ``port`` asks for
    that port instead of a free one (to restart a server where it was);
    ``wrapper`` is a command the server is run under (e.g. ``setpriv ...``,
    which runs it with fewer privileges and so must exec it). The server
    runs in a process group of its own. Stop it with :func:`stop`.
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
        process = subprocess.Popen([*wrapper, *argv], stdout=log, stderr=log, env=env,
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
