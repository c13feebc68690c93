"""Live sheets: the event stream of a game, through ``scorekeeper serve`` (real nginx with
nchan before real gunicorn).

Each test runs ``scorekeeper serve`` (:func:`serve_kit.spawn`; over
PostgreSQL it starts its listener too) and reads the stream as a browser's
EventSource does (:class:`serve_kit.Stream`): one event per change, in
order, carrying the new version; a reconnect with ``Last-Event-ID`` gets
what it missed; heartbeat comments; a write on one server reaches viewers
of another over one PostgreSQL database; idle viewers hold no gunicorn
thread.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from serve_kit import Stream, spawn, stop_soon
from test_api import quick

from api import create_app
from api.nginx import NCHAN_MODULE
from api.security import HEADERS
from api.streams import CHECK_HEADER

pytestmark = [
    pytest.mark.skipif(
        not os.path.exists(NCHAN_MODULE),
        reason="nginx's nchan module is not installed (tests/run.sh installs libnginx-mod-nchan)",
    ),
    pytest.mark.slow,  # each test starts nginx and gunicorn
]


class Served:
    """A running ``scorekeeper serve``: its base ``url``."""

    def __init__(self, url: str):
        self.url = url

    def new_game(self, **settings) -> tuple[str, str, dict]:
        """A new game of Ana and Ben: (its id, its API URL, the Authorization header)."""
        settings.setdefault("players", ["Ana", "Ben"])
        settings.setdefault("dealer", 0)  # first_dealer low: the dealer is named
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


@contextmanager
def serving(db, *, workers: int = 2, threads: int = 2, log=None) -> Iterator[Served]:
    """``scorekeeper serve`` over ``db`` (a SQLite file or a PostgreSQL URL) for the block;
    over PostgreSQL once its listener listens (``log``: the server's log file)."""
    process, url = spawn(db, workers=workers, args=("--threads", str(threads)), log=log)
    try:
        if log is not None:
            deadline = time.monotonic() + 30
            while b"live: listening" not in Path(log).read_bytes():
                assert time.monotonic() < deadline, Path(log).read_text()
                time.sleep(0.05)
        yield Served(url)
    finally:
        stop_soon(process, "test_live.py's serving")


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("live") / "live.db") as running:
        yield running


def test_one_event_per_change_in_order_with_the_version(stack):
    game_id, url, auth = stack.new_game()
    stream = stack.stream(game_id)
    assert stream.response.status == 200
    assert stream.response.getheader("Content-Type").startswith("text/event-stream")
    for name, value in HEADERS.items():
        assert stream.response.getheader(name) == value
    writes = [
        ("POST", "/hands", quick(0, 5, 30)),
        ("POST", "/hands", quick(1, 2, 40)),
        ("DELETE", "/hands/last", None),
        ("PUT", "/hands/1", quick(0, 3, 30)),
        ("POST", "/hands", {"kind": "void"}),
    ]
    answers = []
    for method, path, body in writes:
        answer = requests.request(method, url + path, json=body, headers=auth, timeout=10)
        assert answer.ok, answer.text
        answers.append(answer)
    events = stream.events(len(writes))
    assert [data["version"] for _, data in events] == [1, 2, 3, 4, 5]
    assert len({event_id for event_id, _ in events}) == 5
    for (_, data), answer in zip(events, answers, strict=True):
        sheet = answer.json()["sheet"]
        assert data["sheet"] == {
            key: value for key, value in sheet.items() if key not in ("url", "hands")
        }
    # a repeated request (same Idempotency-Key) changes nothing and sends nothing
    keyed = {**auth, "Idempotency-Key": "same-one"}
    for _ in range(2):
        requests.post(f"{url}/hands", json=quick(0, 0, 10), headers=keyed, timeout=10)
    assert [data["version"] for _, data in stream.events(1)] == [6]
    with pytest.raises(TimeoutError):
        stream.events(1, timeout=1)
    stream.close()


def test_a_reconnecting_viewer_catches_up_from_last_event_id(stack):
    game_id, url, auth = stack.new_game()
    stream = stack.stream(game_id)
    requests.post(f"{url}/hands", json=quick(0, 5, 30), headers=auth, timeout=10)
    [(last_id, first)] = stream.events(1)
    assert first["version"] == 1
    stream.close()
    for n in range(3):  # while the viewer is away
        requests.post(f"{url}/hands", json=quick(n % 2, 1, 20), headers=auth, timeout=10)
    back = stack.stream(game_id, last_event_id=last_id)
    assert [data["version"] for _, data in back.events(3)] == [2, 3, 4]
    back.close()
    fresh = stack.stream(game_id)  # a new viewer gets only what comes after it
    requests.post(f"{url}/hands", json={"kind": "void"}, headers=auth, timeout=10)
    assert [data["version"] for _, data in fresh.events(1)] == [5]
    fresh.close()


def test_a_heartbeat_keeps_an_idle_stream_talking(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_LIVE_HEARTBEAT", "1")  # the setting (default 15 s)
    with serving(tmp_path / "beat.db") as quick_beat:
        game_id, _, _ = quick_beat.new_game()
        stream = quick_beat.stream(game_id)
        assert stream.comments(3.5).count("heartbeat") >= 2
        stream.close()


def test_a_request_that_is_no_event_source_gets_406(stack):
    game_id, _, _ = stack.new_game()
    answer = requests.get(f"{stack.url}/api/v1/games/{game_id}/events", timeout=5)
    assert answer.status_code == 406
    assert answer.json()["error"]["field"] == "Accept"
    for name, value in HEADERS.items():
        assert answer.headers[name] == value


def test_idle_viewers_hold_no_gunicorn_thread(tmp_path):
    with serving(tmp_path / "idle.db", workers=1, threads=2) as small:
        game_id, url, auth = small.new_game()
        viewers = [small.stream(game_id) for _ in range(50)]
        assert all(viewer.response.status == 200 for viewer in viewers)
        with requests.Session() as session:
            started = time.monotonic()
            for _ in range(20):
                assert session.get(url, timeout=5).status_code == 200
            assert time.monotonic() - started < 5
            saved = time.monotonic()
            session.post(f"{url}/hands", json=quick(0, 5, 30), headers=auth, timeout=5)
        with ThreadPoolExecutor(10) as pool:
            got = list(pool.map(lambda viewer: viewer.events(1, timeout=2)[0][1], viewers))
        assert [data["version"] for data in got] == [1] * 50
        assert time.monotonic() - saved < 2
        for viewer in viewers:
            viewer.close()


def test_a_write_on_one_server_reaches_viewers_of_another(postgres, tmp_path):
    db = postgres.new_database()
    with (
        serving(db, log=tmp_path / "a.log") as first,
        serving(db, log=tmp_path / "b.log") as second,
    ):
        game_id, url, auth = first.new_game()
        here, there = first.stream(game_id), second.stream(game_id)
        other_url = url.replace(first.url, second.url)
        requests.post(f"{url}/hands", json=quick(0, 5, 30), headers=auth, timeout=10)
        requests.post(f"{other_url}/hands", json=quick(1, 2, 40), headers=auth, timeout=10)
        requests.delete(f"{url}/hands/last", headers=auth, timeout=10)
        for stream in (here, there):
            events = stream.events(3)
            assert [data["version"] for _, data in events] == [1, 2, 3]
            assert events[-1][1]["sheet"]["version"] == 3
            with pytest.raises(TimeoutError):  # each server publishes each change once
                stream.events(1, timeout=1)
            stream.close()


def test_a_write_never_fails_for_live_updates(tmp_path):
    app = create_app(
        {"DB": str(tmp_path / "away.db"), "LIVE_PUBLISH_SOCKET": str(tmp_path / "none.sock")}
    )
    client = app.test_client()
    game = client.post("/api/v1/games", json={"dealer": 0, "players": ["Ana", "Ben"]}).json
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    started = time.monotonic()
    for _ in range(5):
        assert (
            client.post(f"{game['url']}/hands", json={"kind": "void"}, headers=auth).status_code
            == 201
        )
    assert time.monotonic() - started < 1
    # and the app itself does not serve the stream: nginx does; the app answers only
    # nginx's question before a stream opens (does the game exist?)
    assert client.get(f"{game['url']}/events").status_code == 404
    asked = {CHECK_HEADER: "stream"}
    assert client.get(f"{game['url']}/events", headers=asked).status_code == 204
    unknown = client.get(f"/api/v1/games/{'x' * 16}/events", headers=asked)
    assert unknown.status_code == 404 and unknown.json["error"]["field"] == "id"
    document = client.get("/api/openapi.json").json
    operation = document["paths"]["/api/v1/games/{game_id}/events"]["get"]
    assert operation["operationId"] == "gameEvents"
    assert "text/event-stream" in operation["responses"]["200"]["content"]
