"""Live sheets: every change to a game reaches the phones watching it, through nginx's nchan.

``GET /api/v1/games/<id>/events`` is a Server-Sent Events stream served by
nginx itself (the pub/sub module nchan, Debian's ``libnginx-mod-nchan``),
never by the app: a viewer is an idle connection nginx holds, not a
gunicorn thread. nginx's configuration (``api/nginx/site.conf.j2``) has two
pieces of it, filled in from this module's figures: the public subscriber
location and a server on a private unix socket (the setting
``LIVE_PUBLISH_SOCKET``) where the app publishes.

One event per change (every write that bumps the sheet's ``version``):
nchan numbers the events itself (its ``id:``, which ``Last-Event-ID``
resumes from: a reconnecting client gets what it missed from the channel's
buffer), so the data carries the version: ``{"version": 7, "sheet":
{...}}``, the sheet without ``hands`` (as ``Prefer: return=minimal``
answers it); ``sheet`` is left out when the game has moved on before the
event went out, or was stored before the scored state was kept. A comment
line every :data:`HEARTBEAT` seconds keeps proxies from closing the stream.

Who publishes (:func:`install`), with the setting ``LIVE_PUBLISH_SOCKET``
(unset: nothing is published, as under plain ``gunicorn wsgi:app``, and
the pad polls instead):

* SQLite (one machine, one ``serve``): the worker that wrote publishes to
  its nginx, after the commit, from a thread of its own
  (:class:`Publisher`): a write never waits on nginx, and a failure is
  logged, not raised. Two writes committed within a moment by two
  workers may go out in either order: the version says which is newer.
* PostgreSQL (several servers, each with its own nginx, over one
  database): the write runs ``NOTIFY`` in its transaction (so the news
  goes out exactly when, and only if, it commits, in commit order), and
  one listener per server (``python -m api.live --db URL --publish-socket
  PATH``, :func:`listen`) ``LISTEN``\\s and publishes to its own nginx.
  PostgreSQL is already the one thing every server shares: no Redis (or
  nchan's Redis mode) to run, secure and watch, one moving part less.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import queue
import socket
import threading
import time
from typing import Any

from flask import Flask
from werkzeug.routing import Map, Rule

from scorekeeper.store import Store, open_store
from scorekeeper.store.base import StoredGame, is_postgres
from scorekeeper.store.games import minimal_sheet
from scorekeeper.store.sql import SqlStore

from . import streams

log = logging.getLogger(__name__)

CHANNEL = "scorekeeper_games"
"""The PostgreSQL ``NOTIFY`` channel of appends (payload ``"<game id> <version>"``)."""

HEARTBEAT = 15
"""Seconds between the stream's heartbeat comments (proxies close streams idle for 30-60 s)."""

BUFFER = 100
"""The events a game's channel keeps for reconnecting clients (``Last-Event-ID``) ..."""

KEPT = "10m"
"""... for at most this long."""

TIMEOUT = 0.5
"""Seconds a publish may take before it is given up (and logged)."""


NOT_ACCEPTABLE = json.dumps(
    {
        "error": {
            "code": "not_acceptable",
            "message": "this is a stream of Server-Sent Events: send Accept: text/event-stream",
            "field": "Accept",
        }
    },
    separators=(",", ":"),
)
"""The 406 body of a request for the stream that does not ask for ``text/event-stream``."""


def document(api: Any, app: Flask) -> None:
    """Describe the stream (nginx's, not a view of the app) in ``api``'s OpenAPI document."""
    rule = Rule(streams.STREAM_RULE, defaults={})
    rule.bind(Map(converters=app.url_map.converters))
    api.spec.path(
        rule=rule,
        operations={
            "get": {
                "operationId": "gameEvents",
                "tags": ["api_v1"],
                "summary": "Live changes of the sheet, as Server-Sent Events.",
                "description": (
                    "One event per change of the game (a hand added, undone, corrected or"
                    ' voided); its data is JSON: {"version": <the new sheet version>, "sheet":'
                    " <the sheet without hands, as Prefer: return=minimal answers; left out if"
                    " the game moved on before the event went out>}. The event id is the"
                    " stream's own: reconnecting with Last-Event-ID replays what was missed"
                    " (up to 100 events, 10 minutes). A comment line every 15 s keeps the"
                    " connection open. Served by the server's nginx; 404 where live updates"
                    " are off (poll the sheet with If-None-Match instead)."
                ),
                "parameters": [
                    {
                        "in": "header",
                        "name": "Last-Event-ID",
                        "required": False,
                        "schema": {"type": "string", "maxLength": 200},
                        "description": "The id of the last event received: resume after it.",
                    }
                ],
                "responses": {
                    "200": {
                        "description": "The stream (it stays open).",
                        "content": {"text/event-stream": {"schema": {"type": "string"}}},
                    },
                    **{
                        status: {
                            "description": description,
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/Error"}
                                }
                            },
                        }
                        for status, description in (
                            ("404", "Live updates are off on this server."),
                            ("406", "Not asked for as text/event-stream."),
                        )
                    },
                },
            }
        },
    )


def event(game: StoredGame | None, version: int) -> bytes:
    """The data of the event of ``game``'s change to ``version`` (see the module docs);
    without the sheet where ``game`` (as read back) is gone or has moved on."""
    data: dict[str, Any] = {"version": version}
    sheet = minimal_sheet(game) if game is not None and game.version == version else None
    if sheet is not None:
        data["sheet"] = sheet
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


def publish(publish_socket: str, game_id: str, data: bytes) -> bool:
    """Publish ``data`` as the next event of game ``game_id``; False (and logged) if it failed.

    One short HTTP/1.0 request on the unix socket, at most :data:`TIMEOUT` s.
    """
    head = (
        f"POST /games/{game_id} HTTP/1.0\r\nHost: live\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
    )
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(TIMEOUT)
            conn.connect(publish_socket)
            conn.sendall(head.encode() + data)
            status = conn.recv(64).split(b" ", 2)[1:2]
    except OSError as error:
        log.warning("live: publishing to %s failed: %s", publish_socket, error)
        return False
    if status not in ([b"201"], [b"202"]):
        log.warning("live: publishing to %s answered %r", publish_socket, status)
        return False
    return True


class Publisher:
    """Publishes the changes of this process's writes, in order, from one thread of its own.

    :meth:`changed` (the store's ``on_append``) only queues the game: the
    writing request neither builds the event nor waits on nginx. The thread starts on the first
    change in each process (gunicorn forks the workers after the app is built).
    """

    def __init__(self, publish_socket: str):
        self.publish_socket = publish_socket
        self._queue: queue.SimpleQueue[StoredGame] = queue.SimpleQueue()
        self._pid: int | None = None
        self._lock = threading.Lock()

    def changed(self, game: StoredGame) -> None:
        """Queue ``game``'s change (the game as the write left it)."""
        with self._lock:
            if self._pid != os.getpid():
                self._queue = queue.SimpleQueue()
                threading.Thread(target=self._run, name="live-publisher", daemon=True).start()
                self._pid = os.getpid()
            self._queue.put(game)

    def _run(self) -> None:
        """Publish the queued changes, one after the other, for as long as the process lives."""
        mine = self._queue
        while True:
            game = mine.get()
            try:
                data = event(game, game.version)
            except Exception:  # a bad event is logged and skipped; the next one goes out
                log.exception("live: no event for game %s", game.id)
                continue
            publish(self.publish_socket, game.id, data)


def install(app: Flask, store: Store) -> None:
    """Publish every change of ``store``'s games, if ``LIVE_PUBLISH_SOCKET`` is set.

    SQLite: this process publishes (:class:`Publisher`). PostgreSQL: writes
    ``NOTIFY`` :data:`CHANNEL` and the server's listener (:func:`listen`) publishes.
    """
    publish_socket = app.config.get("LIVE_PUBLISH_SOCKET")
    if not publish_socket or not isinstance(store, SqlStore):
        return
    if is_postgres(app.config["DB"]):
        store.notify_channel = CHANNEL
    else:
        store.on_append = Publisher(publish_socket).changed


def listen(url: str, publish_socket: str, *, ready: threading.Event | None = None) -> None:
    """Publish every append ``NOTIFY``'d on :data:`CHANNEL` to this server's nginx, forever.

    One per server (not per worker: each event goes out once). A lost
    connection is opened again after a second; appends committed in
    between are not announced (pages catch up at their next event or poll).
    """
    import psycopg  # only with PostgreSQL

    store = open_store(url)
    while True:
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f"LISTEN {CHANNEL}")
                log.info("live: listening for changes, publishing to %s", publish_socket)
                if ready is not None:
                    ready.set()
                for note in conn.notifies():
                    game_id, _, version = note.payload.partition(" ")
                    _republish(store, publish_socket, game_id, int(version))
        except psycopg.Error as error:
            log.warning("live: listening failed (%s); again in 1 s", error)
            time.sleep(1)


def _republish(store: Store, publish_socket: str, game_id: str, version: int) -> None:
    """Publish the event of game ``game_id``'s change to ``version`` (read back for its sheet)."""
    game: StoredGame | None = None
    try:
        game = store.game(game_id)
    except Exception as error:  # the event goes out without the sheet
        log.warning("live: reading game %s failed: %s", game_id, error)
    publish(publish_socket, game_id, event(game, version))


def main(argv: list[str] | None = None) -> None:
    """``python -m api.live --db URL --publish-socket PATH``: a server's listener (PostgreSQL)."""
    parser = argparse.ArgumentParser(prog="python -m api.live", description=main.__doc__)
    parser.add_argument("--db", required=True, help="the postgresql:// URL")
    parser.add_argument("--publish-socket", required=True, help="nginx's live publisher socket")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    if not is_postgres(args.db):  # systemd's unit runs whatever the database: nothing to do
        log.info("live: nothing to listen to: with SQLite the app publishes its changes itself")
        return
    listen(args.db, args.publish_socket)


if __name__ == "__main__":
    main()
