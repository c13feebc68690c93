"""Servers for the tests and the HTTP benchmarks: ``scorekeeper serve`` (or ``gunicorn
wsgi:app``) in a child process on a loopback port.

:func:`spawn` starts one and waits until it answers; :func:`serving_together`
starts several over one database at the same moment; :func:`stop` stops it
gracefully (:func:`stop_soon` in the background) and :func:`crash` kills it
outright; :func:`make_certificate` makes a self-signed certificate for
127.0.0.1; :class:`Stream` reads a game's live event stream as a browser's
EventSource does. bench/ scripts import this
module through ``sys.path`` (the wheel ships no test harness).
"""

from __future__ import annotations

import http.client
import json
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
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from api.server import started_at


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
    app: str = "wsgi:app",
    python: str | os.PathLike | None = None,
) -> tuple[subprocess.Popen, str]:
    """Start a server on a loopback port: ``(process, base URL)``, once it answers.

    By default it runs ``scorekeeper serve --port 0`` (plus ``args``); with ``wsgi``
    it runs ``gunicorn wsgi:app`` (plus ``args``; ``app`` names another app) with
    ``SCOREKEEPER_DB`` set instead. The port is read from the server's log
    ("Listening at"), kept in the file ``log`` (standard output and error together;
    a temporary file by default); ``port`` asks for that port instead of a free one
    (to restart a server where it was, or for a log level that hides the "Listening
    at" line). ``installed`` is the ``bin`` folder of another installation (a venv
    the wheel went into): its ``scorekeeper`` runs from the database's folder
    without ``PYTHONPATH``, so that only the installed files are used (``python``: that
    installation's interpreter, for ``wsgi``). ``wrapper``
    is a command the server is run under (e.g. ``setpriv ...``, which runs it with
    fewer privileges and so must exec it). With ``--certfile`` among ``args`` the
    URL is ``https://`` (the certificate is not verified while waiting for the
    server to answer). The server runs in a process group of its own. Stop it with
    :func:`stop`.
    """
    bin_dir = Path(installed) if installed is not None else Path(sys.executable).parent
    env = {**os.environ, "SCOREKEEPER_DB": str(db)}
    cwd = None
    if installed is not None or python is not None:
        env.pop("PYTHONPATH", None)
        cwd = Path(db).parent
    if wsgi:
        argv = [
            str(python or sys.executable),
            "-m",
            "gunicorn",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--no-control-socket",
            *args,
            app,
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


def children(pid: int) -> list[tuple[int, str]]:
    """The processes whose parent is ``pid``: ``(pid, command name)``, from ``/proc``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:  # gone meanwhile
            continue
        name, _, rest = stat[stat.index("(") + 1 :].rpartition(")")
        if int(rest.split()[1]) == pid:
            found.append((int(entry), name))
    return found


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    return started_at(pid) is not None


def wait_gone(pid: int, timeout: float) -> bool:
    """Wait up to ``timeout`` s for process ``pid`` to end; whether it did."""
    deadline = time.monotonic() + timeout
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


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


_STOPPING: list[tuple[str, Future[int], int | None]] = []
"""The servers :func:`stop_soon` is stopping: (what, its stop, the status it must end with)."""

_STOPPER = ThreadPoolExecutor(4, thread_name_prefix="stop_soon")


def stop_soon(process: subprocess.Popen, what: str, status: int | None = 0) -> None:
    """:func:`stop` a server in the background, for a module's fixture whose tests are
    done: the process goes on with its next tests while the server ends (a graceful stop
    waits seconds: for gunicorn's kept-alive connections, nginx's open streams, the
    workers' interpreters). :func:`stopped` waits for them all; ``status`` is the exit
    status it must end with (``None``: any)."""
    _STOPPING.append((what, _STOPPER.submit(stop, process), status))


def stopped() -> list[str]:
    """Wait for every server :func:`stop_soon` stopped: the ones that did not end with the
    status asked (``what`` and the status), none if all did."""
    wrong = []
    while _STOPPING:
        what, stopping, status = _STOPPING.pop()
        ended = stopping.result()
        if status is not None and ended != status:
            wrong.append(f"{what}: exit status {ended}")
    return wrong


@contextmanager
def serving_together(
    db: str | os.PathLike, count: int = 2, workers: int = 2
) -> Iterator[list[str]]:
    """``count`` servers over one database ``db``, started at the same moment (so they
    migrate it together), for the block: their base URLs. They are stopped gracefully
    at the end, together, and each must exit with status 0."""
    with ThreadPoolExecutor(count) as pool:
        starting = [pool.submit(spawn, db, workers=workers) for _ in range(count)]
    servers = [start.result() for start in starting if start.exception() is None]
    try:
        if len(servers) != count:
            raise RuntimeError(f"not every server started: {[s.exception() for s in starting]}")
        yield [url for _, url in servers]
    finally:
        with ThreadPoolExecutor(count) as pool:
            statuses = list(pool.map(stop, [process for process, _ in servers]))
        assert statuses == [0] * len(servers), statuses


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate and key for 127.0.0.1 (PEM files)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


class Stream:
    """One EventSource-like connection to game ``game_id``'s live stream on server ``base``:
    :meth:`events` reads ``(id, data)`` pairs, :meth:`comments` the comment lines seen so far."""

    def __init__(self, base: str, game_id: str, last_event_id: str | None = None):
        host = base.split("//", 1)[1]
        self.conn = http.client.HTTPConnection(host, timeout=5)
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.conn.request("GET", f"/api/v1/games/{game_id}/events", headers=headers)
        self.sock = self.conn.sock  # the response keeps reading it (no length: to the end)
        self.response = self.conn.getresponse()
        self.seen_comments: list[str] = []

    def events(self, count: int, timeout: float = 5.0) -> list[tuple[str, dict]]:
        """The next ``count`` events (``(id, data as JSON)``), waiting at most ``timeout`` s."""
        found: list[tuple[str, dict]] = []
        event_id, data = "", []
        deadline = time.monotonic() + timeout
        while len(found) < count:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{len(found)} of {count} events came")
            self.sock.settimeout(left)
            line = self.response.fp.readline().decode().rstrip("\n")
            if line.startswith(":"):
                self.seen_comments.append(line[1:].strip())
            elif line.startswith("id:"):
                event_id = line[3:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
            elif not line and data:
                found.append((event_id, json.loads("\n".join(data))))
                data = []
        return found

    def comments(self, seconds: float) -> list[str]:
        """The comment lines that came within ``seconds`` (no event may come meanwhile)."""
        try:
            self.events(1, timeout=seconds)
        except (TimeoutError, OSError):
            pass
        else:
            raise AssertionError("an event came")
        return self.seen_comments

    def close(self) -> None:
        self.response.close()
        self.conn.close()
