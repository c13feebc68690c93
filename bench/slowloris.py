"""Slow clients: normal-request latency with 0 and ``--slow`` trickling connections open.

Starts two servers on temporary databases, both with ``--workers`` workers
of 2 threads: ``scorekeeper serve`` (nginx before gunicorn, api/nginx.py)
and, for comparison, gunicorn alone (``gunicorn wsgi:app`` with the same
gthread workers). For each, it measures
normal requests (``GET`` of a game, one client, one after the other, a
5 s timeout, for ``--seconds``) first with no other traffic, then while
``--slow`` connections each send one more byte of a request head every
0.2 s (and reconnect when the server closes them), and prints the figures
side by side: requests answered, median, p99 and worst latency, and
requests that timed out.

Run: ``.venv/bin/python bench/slowloris.py [--slow 200] [--seconds 8] [--workers 2]``.
"""

from __future__ import annotations

import os
import sys

# bench/http.py would shadow the standard library's http package: keep this
# folder off the import path (as bench/http.py itself does).
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
sys.path.append(os.path.join(os.path.dirname(_HERE), "tests"))  # load_kit, serve_kit

import argparse  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from urllib.parse import urlsplit  # noqa: E402

import requests  # noqa: E402
from load_kit import Trickle  # noqa: E402
from serve_kit import spawn, stop  # noqa: E402

TIMEOUT = 5.0
"""Seconds a normal request may take before it counts as timed out."""


def measure(url: str, game: str, seconds: float) -> dict:
    """Normal requests one after the other for ``seconds``: latencies and timeouts."""
    session = requests.Session()
    times, timeouts = [], 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        start = time.monotonic()
        try:
            response = session.get(url + game, timeout=TIMEOUT)
            response.raise_for_status()
            times.append(time.monotonic() - start)
        except requests.RequestException:
            timeouts += 1
            session = requests.Session()
    return {"times": times, "timeouts": timeouts}


def run(url: str, slow: int, seconds: float) -> tuple[dict, dict]:
    """The figures with no slow connection, then with ``slow`` of them."""
    created = requests.post(
        url + "/api/v1/games", json={"players": ["Ana", "Ben"]}, timeout=10
    ).json()
    quiet = measure(url, created["url"], seconds)
    parts = urlsplit(url)
    trickle = Trickle((parts.hostname, parts.port), slow)
    try:
        time.sleep(1)
        loaded = measure(url, created["url"], seconds)
    finally:
        trickle.close()
    return quiet, loaded


def row(label: str, figures: list[dict]) -> str:
    cells = []
    for f in figures:
        times = sorted(f["times"]) or [float("nan")]
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        cells.append(
            f"{len(f['times']):5d} ok {statistics.median(times) * 1000:7.1f}"
            f" {p99 * 1000:7.1f} {times[-1] * 1000:7.1f} ms {f['timeouts']:3d} t/o"
        )
    return f"{label:<34}" + " | ".join(cells)


def main() -> int:
    """Measure both servers and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--slow", type=int, default=200, help="trickling connections")
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each measure")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, wsgi in [("scorekeeper serve (nginx)", False), ("gunicorn alone", True)]:
            if wsgi:  # the gthread workers serve uses
                os.environ["GUNICORN_CMD_ARGS"] = "--worker-class gthread --threads 2"
            process, url = spawn(Path(folder) / f"{wsgi}.db", workers=args.workers, wsgi=wsgi)
            try:
                results[name] = run(url, args.slow, args.seconds)
            finally:
                stop(process)
                os.environ.pop("GUNICORN_CMD_ARGS", None)
    print(
        f"{args.workers} workers x 2 threads, {os.cpu_count()} CPUs; normal GETs for"
        f" {args.seconds:g} s each: answered, median, p99, worst, timed out ({TIMEOUT:g} s)"
    )
    print(f"{'':<34}{'no slow connection':<43} | {args.slow} slow connections")
    for name, figures in results.items():
        print(row(name, list(figures)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
