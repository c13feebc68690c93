"""For load tests (test_concurrency.py, bench/soak.py, bench/slowloris.py): hands that never
end a game, and slow clients."""

from __future__ import annotations

import contextlib
import random
import socket
import threading
import time

TARGET = 10_000
"""A game target far enough that voids and small knocks never end the game."""


def hand_for(rng: random.Random) -> dict:
    """A void (one in three) or a knock of k against k + 1..4 (never gin, never undercut)."""
    if rng.random() < 1 / 3:
        return {"kind": "void"}
    k = rng.randint(1, 10)
    return {
        "kind": "quick",
        "knocker": rng.randrange(2),
        "knocker_deadwood": k,
        "defender_deadwood": k + rng.randint(1, 4),
    }


SLOW_HEAD = b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\n"
"""What a trickling connection sends first: a request head, then one byte at a time."""

SLOW_BODY = SLOW_HEAD + b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
"""The same for a slow body: the whole head, then the body one byte at a time."""


class Trickle:
    """``count`` connections to ``(host, port)`` sending ``start`` (a request head by
    default: :data:`SLOW_BODY` for slow bodies), then one more byte every 0.2 s.

    A connection the server closes (its deadline passed) is opened again, so
    ``count`` stay open until :meth:`close`. ``source`` is the loopback address they
    come from (another than the normal requests', whose connections nginx counts apart).
    """

    def __init__(
        self,
        address: tuple[str, int],
        count: int,
        start: bytes = SLOW_HEAD,
        source: str = "127.0.0.1",
    ):
        self.address = address
        self.start = start
        self.source = source
        self.socks = [self._open() for _ in range(count)]
        self.rounds = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _open(self) -> socket.socket:
        sock = socket.create_connection(self.address, timeout=5, source_address=(self.source, 0))
        sock.sendall(self.start)
        return sock

    def _run(self) -> None:
        while not self.stopping.wait(0.2):
            for i, sock in enumerate(self.socks):
                try:
                    sock.send(b"X")
                except OSError:  # closed by the server (408): come back
                    sock.close()
                    with contextlib.suppress(OSError):
                        self.socks[i] = self._open()
            self.rounds += 1

    def holding(self, rounds: int = 3, timeout: float = 30) -> None:
        """Wait until every connection has trickled ``rounds`` more bytes (all in and
        holding what they hold); fail after ``timeout`` seconds."""
        wanted = self.rounds + rounds
        deadline = time.monotonic() + timeout
        while self.rounds < wanted:
            assert time.monotonic() < deadline, f"{self.rounds} rounds trickled, not {wanted}"
            time.sleep(0.05)

    def close(self) -> None:
        """Stop trickling and close every connection."""
        self.stopping.set()
        self.thread.join()
        for sock in self.socks:
            sock.close()
