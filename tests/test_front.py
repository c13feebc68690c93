"""What stands before the app under ``scorekeeper serve``: real nginx and gunicorn on loopback.

Slow heads and slow bodies do not starve it, one address cannot lock out
another, oversize bodies are refused in the API's error format, a client's
forwarding headers are not believed (the app counts its rate limits per
real address), every response carries the security headers (nginx's own
error pages included) and none names a server version. One server for the
module; the connections come from several loopback addresses (127.0.0.x).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import time
from pathlib import Path
from unittest import mock
from urllib.parse import urlsplit

import pytest
import requests
from load_kit import SLOW_BODY, Trickle
from serve_kit import alive, children, spawn, stop, stop_soon

from api import nginx
from api.limits import NO_LIMITS_ENV
from api.security import HEADERS

pytestmark = pytest.mark.slow  # each test starts its own server

SLOW = 200
"""Trickling connections of each kind (heads, bodies) held open during the starvation test."""

CREATES = 5
"""The module server's games created per minute per address."""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``scorekeeper serve`` with 2 workers (2 threads each): (host, port, base URL)."""
    env = {key: value for key, value in os.environ.items() if key not in NO_LIMITS_ENV}
    env["SCOREKEEPER_CREATE_LIMIT"] = f"{CREATES} per minute"
    with mock.patch.dict(os.environ, env, clear=True):
        process, url = spawn(tmp_path_factory.mktemp("front") / "front.db", workers=2)
    try:
        parts = urlsplit(url)
        yield parts.hostname, parts.port, url
    finally:
        stop_soon(process, f"{__name__}'s server")


def connect(server, source: str = "127.0.0.1", timeout: float = 10.0) -> socket.socket:
    """A new connection to the server from the loopback address ``source``."""
    host, port, _ = server
    return socket.create_connection((host, port), timeout=timeout, source_address=(source, 0))


def read_answer(sock: socket.socket) -> bytes:
    """One whole response (with a Content-Length) from ``sock``, or what came before EOF."""
    answer = b""
    while b"\r\n\r\n" not in answer or not _complete(answer):
        chunk = sock.recv(65536)
        if not chunk:
            break
        answer += chunk
    return answer


def parse(answer: bytes) -> tuple[int, dict, bytes]:
    """(status, headers by lower-case name, body) of a raw response."""
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def raw(server, data: bytes, source: str = "127.0.0.1") -> tuple[int, dict, bytes]:
    """Send ``data`` on a new connection; the (status, headers, body) of the answer."""
    with connect(server, source) as sock:
        sock.sendall(data)
        return parse(read_answer(sock))


def _complete(answer: bytes) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(body) >= int(line.split(b":")[1])
    return False


def assert_hardened(headers: dict) -> None:
    """The security headers are all there and nothing names a server version."""
    for name, value in HEADERS.items():
        assert headers.get(name.lower()) == value, name
    assert headers.get("server", "nginx") == "nginx"


def normal_requests(url: str, count: int = 20) -> list[float]:
    """Seconds each of ``count`` GETs took, one after the other, each checked."""
    session = requests.Session()
    times = []
    for _ in range(count):
        start = time.monotonic()
        response = session.get(f"{url}/api/openapi.json", timeout=5)
        times.append(time.monotonic() - start)
        assert response.status_code == 200
        assert_hardened({k.lower(): v for k, v in response.headers.items()})
    return times


def test_slow_heads_and_slow_bodies_do_not_starve_normal_requests(server):
    host, port, url = server
    heads = Trickle((host, port), SLOW, source="127.0.0.3")
    bodies = Trickle((host, port), SLOW, SLOW_BODY, source="127.0.0.4")
    try:
        heads.holding()  # the slow connections are all in, each holding whatever it holds
        bodies.holding()
        times = normal_requests(url)
        assert max(times) < 1.0, times
    finally:
        heads.close()
        bodies.close()


def test_one_address_with_a_thousand_connections_does_not_lock_out_another(server):
    """Half the connections idle, half with a request under way (a body never sent):
    the requests over the per-address cap are refused at once (429), the rest wait;
    another address is served meanwhile."""
    _, _, url = server
    crowd = []
    refused = 0
    try:
        for index in range(1000):
            sock = connect(server, "127.0.0.5", timeout=5)
            crowd.append(sock)
            if index % 2:
                sock.sendall(
                    b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n"
                )
        for sock in crowd[1::2]:
            sock.settimeout(0.2)
            with contextlib.suppress(OSError):
                answer = sock.recv(65536)
                if answer.startswith(b"HTTP/1.1 429 "):
                    refused += 1
                    _, headers, body = parse(answer)
                    assert headers["retry-after"] == "1"
                    assert b'"code": "too_many_requests"' in body
        assert refused >= 500 - nginx.PER_ADDRESS
        session = requests.Session()
        session.mount("http://", SourceAdapter("127.0.0.6"))
        for _ in range(10):
            assert session.get(f"{url}/api/openapi.json", timeout=5).status_code == 200
        assert max(normal_requests(url, 10)) < 1.0
    finally:
        for sock in crowd:
            sock.close()


class SourceAdapter(requests.adapters.HTTPAdapter):
    """requests' adapter with the connections' source address set."""

    def __init__(self, source: str):
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.source, 0)
        super().init_poolmanager(*args, **kwargs)


def test_forwarding_headers_from_clients_are_not_believed(server):
    """The rate limit counts the real address: five creates from 127.0.0.7 with five
    different forwarded addresses use its whole budget; another address still creates."""
    _, _, url = server
    lying = requests.Session()
    lying.mount("http://", SourceAdapter("127.0.0.7"))
    body = {"players": ["Ana", "Ben"], "dealer": 0}
    for index in range(CREATES):
        forged = {
            "X-Forwarded-For": f"10.0.0.{index}",
            "X-Real-IP": f"10.0.1.{index}",
            "Forwarded": f"for=10.0.2.{index}",
            "X-Forwarded-Host": "evil.example",
            "X-Forwarded-Prefix": "/evil",
        }
        created = lying.post(f"{url}/api/v1/games", json=body, headers=forged, timeout=10)
        assert created.status_code == 201
        assert "evil" not in created.text
    refused = lying.post(
        f"{url}/api/v1/games", json=body, headers={"X-Forwarded-For": "10.9.9.9"}, timeout=10
    )
    assert refused.status_code == 429
    honest = requests.Session()
    honest.mount("http://", SourceAdapter("127.0.0.8"))
    assert honest.post(f"{url}/api/v1/games", json=body, timeout=10).status_code == 201


def test_a_script_name_header_does_not_reach_gunicorn(server):
    status, headers, body = raw(
        server, b"GET /api/openapi.json HTTP/1.1\r\nHost: x\r\nSCRIPT_NAME: /api\r\n\r\n"
    )
    assert status == 200 and body.startswith(b"{")
    assert_hardened(headers)


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"GARBAGE\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", 400),
        (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n", 431),
        (b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n", 413),
        (
            b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            400,
        ),
    ],
)
def test_nginx_refusals_have_the_headers_and_the_error_format(server, request_bytes, status):
    answered, headers, body = raw(server, request_bytes)
    assert answered == status
    assert_hardened(headers)
    assert headers["content-type"] == "application/json"
    assert body.startswith(b'{"error": {"code": ')


@pytest.mark.parametrize(
    ("asked", "cookie", "lang"),
    [
        ("fr", "", "fr"),
        ("de, pl;q=0.8", "", "pl"),
        ("no", "", "nb"),
        ("fr", "sl", "sl"),
        ("", "", "en"),
    ],
)
def test_nginx_error_pages_speak_the_visitors_language(server, asked, cookie, lang):
    head = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n"
    if asked:
        head += f"Accept-Language: {asked}\r\n".encode()
    if cookie:
        head += f"Cookie: sk_lang={cookie}\r\n".encode()
    answered, headers, body = raw(server, head + b"\r\n")
    assert answered == 413
    assert_hardened(headers)
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert f'<html lang="{lang}">'.encode() in body


def test_an_oversize_body_is_refused_with_413_whether_declared_or_chunked(server):
    _, _, url = server
    big = b"[" + b"1," * 600_000 + b"1]"
    declared = requests.post(f"{url}/api/v1/games", data=big, timeout=10)
    chunked = requests.post(f"{url}/api/v1/games", data=iter([big[:1000], big[1000:]]), timeout=10)
    for refused in (declared, chunked):
        assert refused.status_code == 413
        assert refused.json() == {
            "error": {
                "code": "too_large",
                "message": f"the request body is larger than {nginx.MAX_BODY} bytes",
                "field": "body",
            }
        }


def test_app_answers_have_the_headers_and_no_server_version(server):
    for request_bytes, status in [
        (b"GET /api/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n", 200),
        (b"GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n", 404),
        (b"GET /.nginx-error/413 HTTP/1.1\r\nHost: x\r\n\r\n", 404),
        (b"GET /.nginx-error/413.json HTTP/1.1\r\nHost: x\r\n\r\n", 404),
        (b"GET /.nginx-error/en/413.html HTTP/1.1\r\nHost: x\r\n\r\n", 404),
        (b"POST /api/v1/verify HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n{x}", 400),
        (b"HEAD /api/openapi.json HTTP/1.0\r\n\r\n", 200),
    ]:
        answered, headers, _ = raw(server, request_bytes)
        assert answered == status
        assert_hardened(headers)


def test_a_chunked_body_and_keep_alive_work(server):
    body = b'{"dealer": 0, "players": ["Ana", "Ben"]}'
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    with connect(server, "127.0.0.9") as sock:
        for _ in range(2):  # two requests on one connection
            sock.sendall(
                b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type:"
                b" application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked
            )
            assert read_answer(sock).startswith(b"HTTP/1.1 201 ")


def test_stopping_closes_idle_kept_alive_connections_at_once(tmp_path):
    """A phone's kept-alive connection, idle between requests, does not hold a stopping
    server: nginx, the front door, stops first and closes it at once, while gunicorn's
    workers behind it still run (they stop after it, gracefully)."""
    process, url = spawn(tmp_path / "stop.db", workers=1)
    parts = urlsplit(url)
    workers = [pid for pid, name in children(process.pid) if name != "nginx"]
    assert workers, children(process.pid)
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
            sock.sendall(b"GET /api/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n")
            assert read_answer(sock).startswith(b"HTTP/1.1 200")
            process.terminate()  # SIGTERM, as stop() sends
            assert sock.recv(65536) == b""  # nginx closed the idle connection
            assert all(alive(pid) for pid in workers), "closed only once gunicorn had stopped"
    finally:
        status = stop(process)
    assert status == 0


def test_serve_ends_when_nginx_dies(tmp_path):
    """Without nginx nothing answers: ``serve`` stops gunicorn and exits (a supervisor
    sees it) rather than run on behind nobody."""
    process, _ = spawn(tmp_path / "orphan.db", workers=1)
    try:
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
        (proxy,) = [
            pid
            for pid in map(int, children)
            if Path(f"/proc/{pid}/comm").read_text().strip() == "nginx"
        ]
        os.kill(proxy, signal.SIGKILL)
        process.wait(30)
    finally:
        stop(process)
        with contextlib.suppress(ProcessLookupError):  # nginx's orphaned worker
            os.killpg(process.pid, signal.SIGKILL)
