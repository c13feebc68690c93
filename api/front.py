"""The front: reads each request whole, within deadlines, before gunicorn sees it.

``scorekeeper serve`` puts this small asyncio HTTP/1.1 server (one process,
parsing with h11) on the public address and gunicorn on a unix socket in a
private folder behind it. A gunicorn ``gthread`` thread reads a request
from its client with blocking reads and no deadline, so a few clients that
trickle their requests byte by byte held every thread and the server
stopped answering (issue 13). Here a waiting client costs a coroutine and a
file descriptor, never a thread: gunicorn only gets requests that have
arrived in full, over a local socket, and its whole answer is read at once
and then sent on, however slowly the client reads it.

Choices (figures in README and bench/slowloris.py):

* Deadlines: a request's head must be complete :data:`HEAD_TIMEOUT` s after
  the connection opened or the previous response was sent (an idle
  kept-alive connection is closed then, silently; a partial request gets
  408); its body must follow within :data:`BODY_TIMEOUT` s; each response
  must be taken by the client within :data:`SEND_TIMEOUT` s.
* Limits, each refused here with the JSON error format and the security
  headers of :mod:`api.security`, then the connection closed: a request
  line over :data:`MAX_LINE` bytes (414, as gunicorn), a head over
  :data:`MAX_HEAD` bytes or with over :data:`MAX_FIELDS` fields (431), a
  body over :data:`MAX_BODY` bytes (413; the app's own ``MAX_CONTENT_LENGTH``
  is lower and answers first), anything h11 cannot parse, a method that is
  not 3-20 capital letters or a target not starting with ``/`` (400), more
  than :data:`MAX_CONNECTIONS` open connections (503). gunicorn's own limits
  are set looser than these, so gunicorn never writes an error page itself.
* What gunicorn gets: the request re-encoded (body with a Content-Length,
  hop-by-hop headers dropped, ``Expect: 100-continue`` answered here) after
  a PROXY protocol v1 line carrying the client's address, so the app's
  ``REMOTE_ADDR`` is the real client. One unix connection per request.
* What the client gets: gunicorn's response with its ``Server`` header
  dropped and any missing security header added, framed by h11 (keep-alive
  as the client asked). 503 with ``Retry-After`` if gunicorn cannot be
  reached (starting or stopping), 502 if it answers nothing (a killed
  worker), 504 after :data:`UPSTREAM_TIMEOUT` s.

Run by :func:`api.server.serve` as ``python -m api.front --fd N --upstream
PATH``: it inherits the listening socket (bound by ``serve``, so a busy
port fails there), stops on SIGTERM (finishing requests under way for up to
:data:`GRACE` s; a kept-alive connection waiting for its next request is
closed at once, as nginx does) and when its parent (the gunicorn master) is
gone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import ssl
import sys

import h11

from .security import HEADERS

HEAD_TIMEOUT = 10.0
"""Seconds for a request's head, from the connection opening or the previous response."""

BODY_TIMEOUT = 30.0
"""Seconds for a request's body, after its head."""

SEND_TIMEOUT = 30.0
"""Seconds a client has to take each response."""

UPSTREAM_TIMEOUT = 120.0
"""Seconds gunicorn has to answer (its workers are killed after 30 s of silence anyway)."""

MAX_LINE = 4094
"""Longest request line in bytes (gunicorn's default ``limit_request_line``)."""

MAX_HEAD = 16 * 1024
"""Longest request head (line and header fields) in bytes."""

MAX_FIELDS = 100
"""Most header fields in a request (gunicorn's default ``limit_request_fields``)."""

MAX_BODY = 8 * 1024 * 1024
"""Largest request body in bytes."""

MAX_CONNECTIONS = 4000
"""Most client connections open at once (each costs a file descriptor)."""

GRACE = 5.0
"""Seconds the front lets requests under way finish after SIGTERM."""

DROPPED = {
    b"connection",
    b"keep-alive",
    b"proxy-connection",
    b"te",
    b"trailer",
    b"transfer-encoding",
    b"upgrade",
    b"expect",
    b"content-length",
}
"""Request headers not passed to gunicorn (hop-by-hop, or re-done here)."""

DROPPED_FROM_RESPONSES = {b"server", b"connection", b"keep-alive", b"transfer-encoding"}
"""Response headers not passed to the client (the banner, and h11 frames the answer)."""

STATUSES = {
    400: ("bad_request", "Bad Request"),
    408: ("timeout", "Request Timeout"),
    413: ("too_large", "Content Too Large"),
    414: ("uri_too_long", "URI Too Long"),
    431: ("headers_too_large", "Request Header Fields Too Large"),
    502: ("bad_gateway", "Bad Gateway"),
    503: ("busy", "Service Unavailable"),
    504: ("timeout", "Gateway Timeout"),
}
"""The front's own refusals: status -> (the error ``code`` in the API's format, reason)."""

_METHOD = re.compile(rb"[A-Z]{3,20}")
_SECURITY = [(name.lower().encode(), value.encode()) for name, value in HEADERS.items()]


class Refusal(Exception):
    """A request the front answers itself (status, message) and then closes the connection."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def error_page(status: int, message: str) -> bytes:
    """A whole HTTP/1.1 error response in the API's JSON format, closing the connection."""
    code, reason = STATUSES[status]
    body = json.dumps({"error": {"code": code, "message": message, "field": None}}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", b"%d" % len(body)),
        (b"connection", b"close"),
        *_SECURITY,
    ]
    if status == 503:
        headers.append((b"retry-after", b"1"))
    head = f"HTTP/1.1 {status} {reason}\r\n".encode() + b"".join(
        name + b": " + value + b"\r\n" for name, value in headers
    )
    return head + b"\r\n" + body


class Front:
    """The connections of one front process, passed to gunicorn at ``upstream``."""

    def __init__(self, upstream: str):
        self.upstream = upstream
        self.tasks: set[asyncio.Task] = set()
        self.idle: set[asyncio.Task] = set()  # waiting for a request's first byte
        self.stopping = False

    def stop(self) -> None:
        """Stop taking requests: idle connections close now, the others after their request."""
        self.stopping = True
        for task in self.idle:
            task.cancel()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Serve one client connection: request after request until it closes or fails."""
        task = asyncio.current_task()
        assert task is not None  # asyncio runs each connection's handler as a task
        self.tasks.add(task)
        try:
            if len(self.tasks) > MAX_CONNECTIONS:
                raise Refusal(503, "the server has too many open connections; try again")
            conn = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD)
            peer = writer.get_extra_info("peername")
            while await self._exchange(conn, reader, writer, peer):
                conn.start_next_cycle()
        except Refusal as refusal:
            with contextlib.suppress(OSError, TimeoutError):
                writer.write(error_page(refusal.status, str(refusal)))
                await asyncio.wait_for(writer.drain(), SEND_TIMEOUT)
        except (OSError, TimeoutError, h11.LocalProtocolError):
            pass  # the client went away or would not read: nothing to tell it
        finally:
            writer.close()
            self.tasks.discard(task)

    async def _exchange(
        self, conn: h11.Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, peer
    ) -> bool:
        """Read one request, pass it on, send the answer; whether the connection goes on."""
        request = await self._head(conn, reader)
        if request is None:
            return False
        body = await self._body(conn, reader, writer, request)
        response, content = await self._forward(request, body, peer)
        # head, body and end in one write: one system call and one segment, not three
        answer = conn.send(response)
        if content:
            answer += conn.send(h11.Data(data=content))
        await _send(writer, answer + conn.send(h11.EndOfMessage()))
        return conn.our_state is h11.DONE and conn.their_state is h11.DONE

    async def _head(self, conn: h11.Connection, reader: asyncio.StreamReader) -> h11.Request | None:
        """The next request's head (``None`` when the client closed or stayed idle)."""
        start = bytearray(conn.trailing_data[0][: MAX_LINE + 2])  # to tell 414 from 431
        task = asyncio.current_task()
        assert task is not None  # asyncio runs each connection's handler as a task
        if not start:
            if self.stopping:
                return None
            self.idle.add(task)
        try:
            async with asyncio.timeout(HEAD_TIMEOUT):
                while (event := conn.next_event()) is h11.NEED_DATA:
                    data = await reader.read(65536)
                    self.idle.discard(task)
                    start += data[: max(0, MAX_LINE + 2 - len(start))]
                    conn.receive_data(data)
        except TimeoutError:
            if not start:
                return None
            raise Refusal(408, f"the request did not arrive within {HEAD_TIMEOUT:g} s") from None
        except h11.RemoteProtocolError as error:
            if len(start) > MAX_LINE and b"\n" not in start:
                raise Refusal(414, f"the request line is longer than {MAX_LINE} bytes") from None
            if error.error_status_hint == 431:
                raise Refusal(431, f"the request head is larger than {MAX_HEAD} bytes") from None
            raise Refusal(400, f"malformed request: {error}") from None
        finally:
            self.idle.discard(task)
        if isinstance(event, h11.ConnectionClosed):
            return None
        if not isinstance(event, h11.Request):  # h11 gives a request first, or refuses
            raise Refusal(400, "malformed request: no request line")
        return _checked(event)

    async def _body(
        self,
        conn: h11.Connection,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        request: h11.Request,
    ) -> bytes:
        """The request's whole body (answering ``Expect: 100-continue`` first)."""
        declared = dict(request.headers).get(b"content-length")
        if declared is not None and int(declared) > MAX_BODY:
            raise Refusal(413, f"the request body is larger than {MAX_BODY} bytes")
        body = bytearray()
        try:
            async with asyncio.timeout(BODY_TIMEOUT):
                while True:
                    event = conn.next_event()
                    if event is h11.NEED_DATA:
                        if conn.they_are_waiting_for_100_continue:
                            await _send(
                                writer,
                                conn.send(h11.InformationalResponse(status_code=100, headers=[])),
                            )
                        conn.receive_data(await reader.read(65536))
                    elif isinstance(event, h11.Data):
                        body += event.data
                        if len(body) > MAX_BODY:
                            raise Refusal(413, f"the request body is larger than {MAX_BODY} bytes")
                    elif isinstance(event, h11.EndOfMessage):
                        return bytes(body)
                    else:  # ConnectionClosed mid-body
                        raise OSError("the client closed the connection mid-request")
        except TimeoutError:
            raise Refusal(
                408, f"the request body did not arrive within {BODY_TIMEOUT:g} s"
            ) from None
        except h11.RemoteProtocolError as error:
            raise Refusal(400, f"malformed request body: {error}") from None

    async def _forward(self, request: h11.Request, body: bytes, peer) -> tuple[h11.Response, bytes]:
        """gunicorn's answer to the request: the response (headers as the client gets them)
        and its whole body."""
        client = h11.Connection(h11.CLIENT)
        headers = [(name, value) for name, value in request.headers if name not in DROPPED]
        if not any(name == b"host" for name, _ in headers):
            headers.append((b"host", b"localhost"))
        headers += [(b"content-length", b"%d" % len(body)), (b"connection", b"close")]
        message = (
            _proxy_line(peer)
            + client.send(
                h11.Request(method=request.method, target=request.target, headers=headers)
            )
            + client.send(h11.Data(data=body))
            + client.send(h11.EndOfMessage())
        )
        try:
            reader, writer = await asyncio.open_unix_connection(self.upstream)
        except OSError:
            raise Refusal(503, "the server is starting or stopping; try again") from None
        try:
            async with asyncio.timeout(UPSTREAM_TIMEOUT):
                try:
                    writer.write(message)
                    response, content = None, bytearray()
                    while True:
                        event = client.next_event()
                        if event is h11.NEED_DATA:
                            client.receive_data(await reader.read(65536))
                        elif isinstance(event, h11.Response):
                            response = event
                        elif isinstance(event, h11.Data):
                            content += event.data
                        elif isinstance(event, h11.EndOfMessage):
                            break
                        else:
                            raise h11.RemoteProtocolError("closed without an answer")
                finally:
                    writer.close()
        except TimeoutError:
            raise Refusal(504, f"the server did not answer within {UPSTREAM_TIMEOUT:g} s") from None
        except (OSError, h11.RemoteProtocolError):
            raise Refusal(502, "the server could not answer; try again") from None
        if response is None:  # an end of message before any answer
            raise Refusal(502, "the server could not answer; try again")
        return _for_client(request, response, len(content)), bytes(content)


def _checked(request: h11.Request) -> h11.Request:
    """The request, if gunicorn would take it as it is (else a :class:`Refusal`).

    h11 bounds a head only while it is incomplete: one that arrived whole in
    one read is measured here.
    """
    line = len(request.method) + len(request.target) + len(b"  HTTP/1.1")
    if line > MAX_LINE:
        raise Refusal(414, f"the request line is longer than {MAX_LINE} bytes")
    if line + sum(len(name) + len(value) + 4 for name, value in request.headers) > MAX_HEAD:
        raise Refusal(431, f"the request head is larger than {MAX_HEAD} bytes")
    if len(request.headers) > MAX_FIELDS:
        raise Refusal(431, f"the request has more than {MAX_FIELDS} header fields")
    if not _METHOD.fullmatch(request.method):
        raise Refusal(400, "the request method must be 3 to 20 capital letters")
    if not request.target.startswith(b"/"):
        raise Refusal(400, "the request target must be a path starting with /")
    return request


def _for_client(request: h11.Request, response: h11.Response, length: int) -> h11.Response:
    """gunicorn's response head as the client gets it (its body ``length`` bytes long).

    No banner, every security header, and a Content-Length (the body is all
    here) except where there is no body to measure (HEAD, 204, 304).
    """
    bodiless = request.method == b"HEAD" or response.status_code in (204, 304)
    headers = [
        (name, value)
        for name, value in response.headers
        if name not in DROPPED_FROM_RESPONSES and (bodiless or name != b"content-length")
    ]
    if not bodiless:
        headers.append((b"content-length", b"%d" % length))
    present = {name for name, _ in headers}
    headers += [(name, value) for name, value in _SECURITY if name not in present]
    return h11.Response(status_code=response.status_code, headers=headers, reason=response.reason)


def _proxy_line(peer) -> bytes:
    """The PROXY protocol v1 line telling gunicorn who the client is."""
    if not isinstance(peer, tuple):
        return b"PROXY UNKNOWN\r\n"
    family = "TCP6" if ":" in peer[0] else "TCP4"
    local = "::1" if family == "TCP6" else "127.0.0.1"
    return f"PROXY {family} {peer[0]} {local} {peer[1]} 0\r\n".encode()


async def _send(writer: asyncio.StreamWriter, data: bytes) -> None:
    writer.write(data)
    await asyncio.wait_for(writer.drain(), SEND_TIMEOUT)


async def run(
    listener: socket.socket, upstream: str, tls: ssl.SSLContext | None = None, quiet: bool = False
) -> None:
    """Serve on ``listener`` (over TLS with ``tls``) until SIGTERM or the parent is gone.

    Says where it listens (an info line, gunicorn's format) unless ``quiet``.
    """
    front = Front(upstream)
    server = await asyncio.start_server(
        front.handle,
        sock=listener,
        ssl=tls,
        ssl_handshake_timeout=HEAD_TIMEOUT if tls is not None else None,
    )
    host, port = listener.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    scheme = "https" if tls is not None else "http"
    if not quiet:
        print(
            f"[{os.getpid()}] [INFO] Listening at: {scheme}://{shown}:{port}"
            f" (the front; gunicorn at unix:{upstream})",
            file=sys.stderr,
            flush=True,
        )
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stopping.set)
    parent = os.getppid()
    while not stopping.is_set() and os.getppid() == parent:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), 1.0)
    server.close()
    front.stop()
    if front.tasks:
        await asyncio.wait(front.tasks, timeout=GRACE)


def main(argv: list[str] | None = None) -> None:
    """``python -m api.front --fd N --upstream PATH [--certfile F [--keyfile K]]``.

    As :func:`api.server.serve` runs it; with a certificate the front speaks
    HTTPS (TLS ends here; gunicorn behind it is on a private unix socket).
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fd", type=int, required=True, help="the listening socket")
    parser.add_argument("--upstream", required=True, help="gunicorn's unix socket")
    parser.add_argument("--certfile", help="the TLS certificate (PEM): serve HTTPS")
    parser.add_argument("--keyfile", help="its private key (PEM; default: in the certfile)")
    parser.add_argument("--quiet", action="store_true", help="no info line (log level above)")
    args = parser.parse_args(argv)
    tls = None
    if args.certfile:
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls.load_cert_chain(args.certfile, args.keyfile)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops gunicorn, which stops us
    asyncio.run(run(socket.socket(fileno=args.fd), args.upstream, tls, args.quiet))


if __name__ == "__main__":
    main()
