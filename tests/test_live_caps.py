"""Live streams cannot crowd a server out: through ``scorekeeper serve`` (real nginx with
nchan before real gunicorn) on loopback.

Streams are capped per client address and in all, in zones of their own
inside nginx's connection budget: one address holding 2,000 streams (or
many addresses filling every place) leaves another address's requests, and
its streams while there is room, working. A stream of a game that does not
exist is a JSON 404 before it opens; a stream ends after its lifetime and a
reconnect with ``Last-Event-ID`` misses nothing. The many streams are held
cheaply (asyncio, one socket each) from loopback addresses 127.0.0.x.
"""

from __future__ import annotations

import asyncio
import os
import resource
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import requests
from test_api import quick
from test_live import Served, serving

from api import streams
from api.nginx import NCHAN_MODULE
from api.security import HEADERS

pytestmark = [
    pytest.mark.skipif(
        not os.path.exists(NCHAN_MODULE),
        reason="nginx's nchan module is not installed (tests/run.sh installs libnginx-mod-nchan)",
    ),
    pytest.mark.slow,  # each test starts nginx and gunicorn
]

FLOOD = 2000
"""Streams one address asks for at once."""


@pytest.fixture(autouse=True)
def enough_files():
    """Room in this process for the streams it holds (each a socket)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, 8192)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    if wanted < 3000:
        pytest.skip(f"this process may open {hard} files: too few for the streams")
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.fixture
def served(tmp_path) -> Iterator[Served]:
    with serving(tmp_path / "caps.db") as running:
        yield running


class Opened:
    """Streams asked for at once: the answers' statuses, the open streams' writers."""

    def __init__(self) -> None:
        self.statuses: Counter[int] = Counter()
        self.refusals: list[bytes] = []
        self.held: list[asyncio.StreamWriter] = []

    def close(self) -> None:
        for writer in self.held:
            writer.close()


async def ask(url: str, game_id: str, source: str, count: int, opened: Opened) -> None:
    """Ask for ``count`` streams of ``game_id`` at once from ``source``: a stream that opens
    (200) is held, a refusal is read whole (the server closes its connection)."""
    host, port = url.split("//", 1)[1].split(":")
    head = (
        f"GET /api/v1/games/{game_id}/events HTTP/1.1\r\n"
        "Host: x\r\nAccept: text/event-stream\r\n\r\n"
    )

    async def one() -> None:
        reader, writer = await asyncio.open_connection(host, int(port), local_addr=(source, 0))
        writer.write(head.encode())
        status_line = await asyncio.wait_for(reader.readline(), 30)
        status = int(status_line.split()[1])
        opened.statuses[status] += 1
        if status == 200:
            opened.held.append(writer)
        else:  # the whole answer, up to the close
            opened.refusals.append(status_line + await asyncio.wait_for(reader.read(), 30))
            writer.close()

    await asyncio.gather(*(one() for _ in range(count)))


@contextmanager
def holding(url: str, game_id: str, asks: list[tuple[str, int]]) -> Iterator[Opened]:
    """The streams of ``asks`` (source address, count; each address's at once, one address
    after the other), held open in a thread of their own for the block (its event loop
    there: a test process whose main thread runs Playwright's loop may run no other)."""
    opened = Opened()
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="streams", daemon=True)
    thread.start()

    def run(coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(120)

    try:
        for source, count in asks:
            run(ask(url, game_id, source, count, opened))
        yield opened
    finally:
        loop.call_soon_threadsafe(opened.close)
        run(asyncio.sleep(0.1))  # the closes go out
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()


def assert_429(refusal: bytes) -> None:
    """A refused stream: nginx's JSON 429 with ``Retry-After`` and the headers, closed."""
    head, _, body = refusal.partition(b"\r\n\r\n")
    lines = head.decode().lower().split("\r\n")
    assert lines[0].startswith("http/1.1 429 "), refusal
    assert "retry-after: 1" in lines and "connection: close" in lines
    for name, value in HEADERS.items():
        assert f"{name.lower()}: {value.lower()}" in lines
    assert b'"code": "too_many_requests"' in body


def assert_served(served: Served, game_id: str, url: str, auth: dict, *, stream: bool) -> None:
    """127.0.0.1's requests are answered (each within 1 s), and its stream, if ``stream``,
    opens and carries the next change."""
    with requests.Session() as session:
        for _ in range(10):
            started = time.monotonic()
            assert session.get(url, timeout=5).status_code == 200
            assert time.monotonic() - started < 1
    if not stream:
        return
    viewer = served.stream(game_id)
    assert viewer.response.status == 200
    version = requests.get(url, timeout=5).json()["version"]
    assert requests.post(f"{url}/hands", json=quick(0, 5, 30), headers=auth, timeout=5).ok
    assert [data["version"] for _, data in viewer.events(1)] == [version + 1]
    viewer.close()


def test_one_address_with_2000_streams_does_not_lock_out_another(served):
    game_id, url, auth = served.new_game()
    with holding(served.url, game_id, [("127.0.0.2", FLOOD)]) as flood:
        assert flood.statuses == {
            200: streams.STREAMS_PER_ADDRESS,
            429: FLOOD - streams.STREAMS_PER_ADDRESS,
        }
        for refusal in flood.refusals:
            assert_429(refusal)
        assert_served(served, game_id, url, auth, stream=True)


def test_streams_are_capped_in_all_and_requests_keep_their_room(served):
    """Enough addresses to fill every place: streams over :data:`~api.streams.STREAMS_TOTAL`
    are refused, another address's stream too while they are held, never its requests."""
    game_id, url, auth = served.new_game()
    addresses = streams.STREAMS_TOTAL // streams.STREAMS_PER_ADDRESS + 1
    asks = [(f"127.0.1.{n}", streams.STREAMS_PER_ADDRESS) for n in range(1, addresses + 1)]
    with holding(served.url, game_id, asks) as crowd:
        assert crowd.statuses == {
            200: streams.STREAMS_TOTAL,
            429: addresses * streams.STREAMS_PER_ADDRESS - streams.STREAMS_TOTAL,
        }
        refused = requests.get(
            f"{url}/events", headers={"Accept": "text/event-stream"}, stream=True, timeout=5
        )
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_requests"
        assert_served(served, game_id, url, auth, stream=False)
    deadline = time.monotonic() + 10  # the places free as the streams close
    while True:
        answer = requests.get(
            f"{url}/events", headers={"Accept": "text/event-stream"}, stream=True, timeout=5
        )
        answer.close()
        if answer.status_code == 200:
            break
        assert time.monotonic() < deadline, answer.status_code


def test_a_stream_of_a_game_that_does_not_exist_is_a_404_before_it_opens(served):
    answer = requests.get(
        f"{served.url}/api/v1/games/{'x' * 16}/events",
        headers={"Accept": "text/event-stream"},
        stream=True,
        timeout=5,
    )
    assert answer.status_code == 404
    assert answer.headers["Content-Type"] == "application/json"
    for name, value in HEADERS.items():
        assert answer.headers[name] == value
    assert answer.json()["error"]["code"] == "not_found"
    assert answer.json()["error"]["field"] == "id"


def test_a_stream_ends_after_its_lifetime_and_a_reconnect_misses_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_LIVE_STREAM_LIFETIME", "2")  # the setting (default 300 s)
    with serving(tmp_path / "short.db") as short:
        game_id, url, auth = short.new_game()
        stream = short.stream(game_id)
        opened = time.monotonic()
        requests.post(f"{url}/hands", json=quick(0, 5, 30), headers=auth, timeout=5)
        [(last_id, first)] = stream.events(1)
        assert first["version"] == 1
        stream.sock.settimeout(10)
        assert stream.response.read() is not None  # to the end: nginx closed the stream
        assert 1.5 < time.monotonic() - opened < 8
        stream.close()
        for n in range(2):  # while the viewer reconnects
            requests.post(f"{url}/hands", json=quick(n, 2, 40), headers=auth, timeout=5)
        back = short.stream(game_id, last_event_id=last_id)
        assert [data["version"] for _, data in back.events(2)] == [2, 3]
        back.close()
