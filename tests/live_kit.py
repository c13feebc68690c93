"""A server with live sheets for the tests: nginx (with nchan) before gunicorn, on loopback.

Until ``scorekeeper serve`` runs nginx itself this is the smallest such
stack: gunicorn (gthread) on a unix socket in a private temporary folder, an
nginx on a free loopback port that proxies everything to it and holds the
event streams (:func:`api.live.nginx_locations`), and with PostgreSQL the
server's listener (``python -m api.live``). :class:`Stream` reads an event
stream the way a browser's EventSource does.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests
from pg import free_port

from api.live import HEARTBEAT, nginx_locations
from scorekeeper.store.base import is_postgres

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
NCHAN = "/usr/lib/nginx/modules/ngx_nchan_module.so"


class Stack:
    """A running stack: its base ``url``, database ``db`` and private ``folder``."""

    def __init__(self, url: str, db: str, folder: Path):
        self.url, self.db, self.folder = url, db, folder

    def new_game(self, **settings) -> tuple[str, str, dict]:
        """A new game of Ana and Ben: (its id, its API URL, the Authorization header)."""
        settings.setdefault("players", ["Ana", "Ben"])
        response = requests.post(f"{self.url}/api/v1/games", json=settings, timeout=10)
        assert response.status_code == 201, response.text
        body = response.json()
        return (
            body["id"],
            f"{self.url}{body['url']}",
            {"Authorization": f"Bearer {body['edit_token']}"},
        )

    def stream(self, game_id: str, last_event_id: str | None = None) -> Stream:
        """An open event stream of game ``game_id``."""
        return Stream(self.url, game_id, last_event_id)


def _config(folder: Path, port: int, heartbeat: int) -> str:
    locations, publisher = nginx_locations(str(folder / "publish.sock"), heartbeat=heartbeat)
    user = "user root;" if os.geteuid() == 0 else ""  # the folder is root's alone
    temp = " ".join(
        f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    return f"""
load_module {NCHAN};
{user}
daemon off;
worker_processes 1;
pid {folder / "nginx.pid"};
error_log {folder / "nginx.log"} warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    {temp} uwsgi_temp_path {folder / "uwsgi"}; scgi_temp_path {folder / "scgi"};
    upstream app {{ server unix:{folder / "app.sock"}; keepalive 8; }}
    {publisher}
    server {{
        listen 127.0.0.1:{port};
        {locations}
        location / {{
            proxy_pass http://app;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
        }}
    }}
}}
"""


@contextmanager
def serving(
    db: str | os.PathLike, *, workers: int = 2, threads: int = 2, heartbeat: int = HEARTBEAT
) -> Iterator[Stack]:
    """Run the stack over ``db`` (a SQLite file or a PostgreSQL URL) until the block ends."""
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-live-"))
    os.chmod(folder, 0o700)
    port = free_port()
    (folder / "nginx.conf").write_text(_config(folder, port, heartbeat))
    env = {
        **os.environ,
        "SCOREKEEPER_DB": str(db),
        "SCOREKEEPER_SECRET_KEY": "live-tests",
        "SCOREKEEPER_LIVE_PUBLISH_SOCKET": str(folder / "publish.sock"),
    }
    argv = [
        *(sys.executable, "-m", "gunicorn", "--bind", f"unix:{folder / 'app.sock'}"),
        *("--workers", str(workers), "--threads", str(threads), "--worker-class", "gthread"),
        *("--no-control-socket", "wsgi:app"),
    ]
    with open(folder / "processes.log", "wb") as log:
        processes = [
            subprocess.Popen(argv, env=env, stdout=log, stderr=log),
            subprocess.Popen(
                [NGINX, "-c", str(folder / "nginx.conf"), "-p", str(folder)],
                stdout=log,
                stderr=log,
            ),
        ]
        if is_postgres(str(db)):
            listener = [sys.executable, "-m", "api.live", "--db", str(db)]
            listener += ["--publish-socket", str(folder / "publish.sock")]
            processes.append(subprocess.Popen(listener, env=env, stdout=log, stderr=log))
    try:
        url = f"http://127.0.0.1:{port}"
        logs = (folder / "processes.log", folder / "nginx.log")
        _wait(lambda: requests.get(f"{url}/api/openapi.json", timeout=2).status_code == 200, logs)
        if len(processes) == 3:
            _wait(lambda: b"live: listening" in logs[0].read_bytes(), logs)
        yield Stack(url, str(db), folder)
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)


def _wait(ready, logs: tuple[Path, ...], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if ready():
                return
        except (OSError, requests.RequestException):
            pass
        if time.monotonic() > deadline:
            told = "".join(p.read_text()[-2000:] for p in logs if p.exists())
            raise TimeoutError(f"the live stack did not come up:\n{told}")
        time.sleep(0.1)


class Stream:
    """One EventSource-like connection: :meth:`events` reads ``(id, data)`` pairs,
    :meth:`comments` the comment lines seen so far."""

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
