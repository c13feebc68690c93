"""The front of ``scorekeeper serve`` (api/front.py) against a real server on loopback.

Slow clients do not starve it, every response carries the security headers
(including the errors for requests too malformed or too large for the app),
and no response names the server software.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from urllib.parse import urlsplit

import pytest
import requests

from api.front import GRACE, HEAD_TIMEOUT
from api.security import HEADERS
from api.server import spawn, stop

SLOW = 200
"""Trickling connections held open during the starvation test."""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``scorekeeper serve`` with 2 workers (2 threads each): (host, port, base URL)."""
    process, url = spawn(tmp_path_factory.mktemp("front") / "front.db", workers=2)
    try:
        parts = urlsplit(url)
        yield parts.hostname, parts.port, url
    finally:
        assert stop(process) == 0


def raw(server, data: bytes, timeout: float = 10.0) -> tuple[int, dict, bytes]:
    """Send ``data`` on a new connection; the (status, headers, body) of the answer."""
    host, port, _ = server
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.sendall(data)
        answer = b""
        while b"\r\n\r\n" not in answer or not _complete(answer):
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def _complete(answer: bytes) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(body) >= int(line.split(b":")[1])
    return False


def assert_hardened(headers: dict) -> None:
    """The security headers are all there and nothing names the server software."""
    for name, value in HEADERS.items():
        assert headers.get(name.lower()) == value, name
    assert "server" not in headers


def test_two_hundred_trickling_connections_do_not_starve_normal_requests(server):
    host, port, url = server
    slow = []
    for _ in range(SLOW):
        sock = socket.create_connection((host, port), timeout=5)
        sock.sendall(b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\n")
        slow.append(sock)
    stop_trickling = threading.Event()

    def trickle():  # one more header byte per connection every 0.2 s, for a bounded time
        deadline = time.monotonic() + HEAD_TIMEOUT - 3
        while not stop_trickling.is_set() and time.monotonic() < deadline:
            for sock in slow:
                with contextlib.suppress(OSError):
                    sock.send(b"X")
            time.sleep(0.2)

    trickler = threading.Thread(target=trickle, daemon=True)
    trickler.start()
    try:
        time.sleep(1)  # the slow connections are all in, each holding whatever it holds
        session = requests.Session()
        times = []
        for _ in range(20):
            start = time.monotonic()
            response = session.get(f"{url}/api/openapi.json", timeout=5)
            times.append(time.monotonic() - start)
            assert response.status_code == 200
            assert_hardened({k.lower(): v for k, v in response.headers.items()})
        assert max(times) < 2.0, times
        # Past the deadline each slow request is refused (408) and its connection closed.
        trickler.join()
        answered = 0
        for sock in slow:
            sock.settimeout(5)
            with contextlib.suppress(OSError):
                answered += sock.recv(100).startswith(b"HTTP/1.1 408 ")
        assert answered == SLOW
    finally:
        stop_trickling.set()
        for sock in slow:
            sock.close()


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"GARBAGE\r\n\r\n", 400),
        (b"get /api/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        (b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n", 431),
        (
            b"GET / HTTP/1.1\r\nHost: x\r\n"
            + b"".join(b"X-F%d: 1\r\n" % i for i in range(150))
            + b"\r\n",
            431,
        ),
        (b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n", 413),
        (b"GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", 400),
        (
            b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            400,
        ),
    ],
)
def test_errors_before_the_app_have_the_headers_and_the_error_format(server, request_bytes, status):
    answered, headers, body = raw(server, request_bytes)
    assert answered == status
    assert_hardened(headers)
    assert headers["content-type"] == "application/json"
    assert body.startswith(b'{"error": {"code": ')


def test_app_answers_have_the_headers_and_no_banner(server):
    for request_bytes, status in [
        (b"GET /api/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n", 200),
        (b"GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n", 404),
        (b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n{x}", 400),
        (b"HEAD /api/openapi.json HTTP/1.0\r\n\r\n", 200),
    ]:
        answered, headers, _ = raw(server, request_bytes)
        assert answered == status
        assert_hardened(headers)


def test_a_chunked_body_and_keep_alive_work_through_the_front(server):
    host, port, _ = server
    body = b'{"dealer": 0, "players": ["Ana", "Ben"]}'
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    with socket.create_connection((host, port), timeout=10) as sock:
        for _ in range(2):  # two requests on one connection
            sock.sendall(
                b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type:"
                b" application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked
            )
            answer = b""
            while not _complete(answer):
                answer += sock.recv(65536)
            assert answer.startswith(b"HTTP/1.1 201 ")


def test_stopping_closes_idle_kept_alive_connections_at_once(tmp_path):
    """A phone's kept-alive connection, idle between requests, does not hold a stopping
    server for the grace that requests under way get: the front closes it at once."""
    process, url = spawn(tmp_path / "stop.db", workers=1)
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
        sock.sendall(b"GET /api/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = b""
        while not _complete(answer):
            answer += sock.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200")
        began = time.monotonic()
        process.terminate()  # SIGTERM, as stop() sends
        assert sock.recv(65536) == b""  # the front closed the idle connection
        closed = time.monotonic() - began
    assert stop(process) == 0
    assert closed < GRACE, f"the idle connection was closed after {closed:.1f} s"
