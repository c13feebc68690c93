"""For load tests (test_concurrency.py, bench/soak.py, bench/slowloris.py): hands that never
end a game, and slow clients."""

from __future__ import annotations

import contextlib
import random
import socket
import threading

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


class Trickle:
    """``count`` connections to ``(host, port)`` sending a request head one byte every 0.2 s.

    A connection the server closes (its deadline passed) is opened again, so
    ``count`` stay open until :meth:`close`.
    """

    def __init__(self, address: tuple[str, int], count: int):
        self.address = address
        self.socks = [self._open() for _ in range(count)]
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _open(self) -> socket.socket:
        sock = socket.create_connection(self.address, timeout=5)
        sock.sendall(b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\n")
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

    def close(self) -> None:
        """Stop trickling and close every connection."""
        self.stopping.set()
        self.thread.join()
        for sock in self.socks:
            sock.close()
