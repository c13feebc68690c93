"""HTTP throughput of the JSON API: gunicorn (2 workers) on loopback, several clients.

Starts ``scorekeeper serve`` on a temporary database (see
:func:`api.server.spawn`), then runs two phases, each with ``--clients``
client processes for ``--seconds`` seconds:

* **verify**: ``POST /api/v1/verify`` with random legal knocks;
* **append**: each client creates a game and ``POST``s quick hands (random
  deadwood, each with its own ``Idempotency-Key``; every tenth is sent
  twice, as a client retrying) until the game is over, then starts another.

It prints requests/s with p50 and p99 latency for each phase, then reads
every game back and checks that its sheet holds exactly the hands the
client was told were stored, in order, and nothing else: no hand lost, none
duplicated. Targets (issue 4): verify >= 1,500 requests/s with p99 < 50 ms;
appends >= 400/s. Exit status 1 if the check fails.
Run: ``.venv/bin/python bench/http.py [--clients 4] [--seconds 5]``.
"""

from __future__ import annotations

import os
import sys

# This file is called http.py: keep its folder off the import path, or it
# would shadow the standard library's http package.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import argparse  # noqa: E402
import http.client  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import multiprocessing  # noqa: E402
import random  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from urllib.parse import urlsplit  # noqa: E402

from api.limits import NO_LIMITS_ENV  # noqa: E402
from api.server import spawn, stop  # noqa: E402

TARGETS = {"verify": (1500, 50.0), "append": (400, None)}
"""Per phase: (requests/s at least, p99 in ms below)."""

RETRY_EVERY = 10
"""Every this many stored hands a client sends the same request again (a retry)."""


def _legal_knocks():
    """``legal_knocks`` of bench/melds.py (loaded by path: see the note at the top)."""
    spec = importlib.util.spec_from_file_location("bench_melds", Path(_HERE) / "melds.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.legal_knocks


class Connection:
    """One keep-alive-if-possible HTTP connection that sends JSON and times each request."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        self.latencies: list[float] = []

    def request(self, method: str, path: str, body=None, headers=None) -> tuple[int, dict]:
        """Send one request; returns (status, decoded JSON body)."""
        data = json.dumps(body) if body is not None else None
        start = time.perf_counter()
        self.conn.request(method, path, data, {"Content-Type": "application/json",
                                               **(headers or {})})
        response = self.conn.getresponse()
        payload = response.read()
        self.latencies.append(time.perf_counter() - start)
        if response.will_close:
            self.conn.close()
        return response.status, json.loads(payload)


def verify_client(url: str, seconds: float, seed: int) -> dict:
    """POST random legal knocks to /verify until the time is up."""
    rng = random.Random(seed)
    knocks = [{"knocker": [c.code for c in k], "defender": [c.code for c in d]}
              for k, d in _legal_knocks()(rng, 200)]
    conn = Connection(url)
    errors = 0
    start = time.monotonic()
    i = 0
    while time.monotonic() < start + seconds:
        status, _ = conn.request("POST", "/api/v1/verify", knocks[i % len(knocks)])
        errors += status != 200
        i += 1
    return {"latencies": conn.latencies, "errors": errors, "games": [],
            "window": (start, time.monotonic())}


def random_hand(rng: random.Random) -> dict:
    """A quick hand as a table would enter it."""
    return {"kind": "quick", "knocker": rng.randrange(2), "knocker_deadwood": rng.randint(0, 10),
            "defender_deadwood": rng.randint(0, 60)}


def append_client(url: str, seconds: float, seed: int) -> dict:
    """Play games of quick hands until the time is up; report what was stored."""
    rng = random.Random(seed)
    setup = Connection(url)
    conn = Connection(url)
    games: list[dict] = []
    errors = stored = 0
    start = time.monotonic()
    game = None
    while time.monotonic() < start + seconds:
        if game is None:
            _, created = setup.request("POST", "/api/v1/games", {"players": ["Ana", "Ben"]})
            game = {"id": created["id"], "hands": [],
                    "auth": {"Authorization": f"Bearer {created['edit_token']}"}}
            games.append(game)
        hand = random_hand(rng)
        headers = {**game["auth"], "Idempotency-Key": f"{seed}-{len(game['hands'])}"}
        path = f"/api/v1/games/{game['id']}/hands"
        status, body = conn.request("POST", path, hand, headers)
        if status != 201:
            errors += 1
            continue
        game["hands"].append(hand)
        stored += 1
        if stored % RETRY_EVERY == 0:
            again, _ = conn.request("POST", path, hand, headers)
            errors += again != 201  # a replay answers as the first time
        if body["sheet"]["over"]:
            game = None
    return {"latencies": conn.latencies, "errors": errors,
            "games": [{"id": g["id"], "hands": g["hands"]} for g in games],
            "window": (start, time.monotonic())}


def run_phase(name: str, client, url: str, clients: int, seconds: float) -> list[dict]:
    """Run ``clients`` processes of ``client``; print throughput and latency.

    The rate is over the span from the first client's start to the last one's
    end (client set-up, such as dealing the knocks, is not counted).
    """
    with multiprocessing.Pool(clients) as pool:
        results = pool.starmap(client, [(url, seconds, 1000 * k + 1) for k in range(clients)])
    elapsed = (max(r["window"][1] for r in results) - min(r["window"][0] for r in results))
    latencies = sorted(x for r in results for x in r["latencies"])
    rate = len(latencies) / elapsed
    p50 = latencies[len(latencies) // 2] * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    errors = sum(r["errors"] for r in results)
    least, p99_below = TARGETS[name]
    met = rate >= least and (p99_below is None or p99 < p99_below)
    target = f">= {least}/s" + (f", p99 < {p99_below:.0f} ms" if p99_below else "")
    print(f"{name:7} {len(latencies):7d} requests  {rate:7.0f} req/s  p50 {p50:6.2f} ms"
          f"  p99 {p99:6.2f} ms  errors {errors}  (target {target}: {'met' if met else 'MISSED'})")
    return results


def check(url: str, results: list[dict]) -> bool:
    """Every game holds exactly the hands its client was told were stored, in order."""
    conn = Connection(url)
    games = [g for r in results for g in r["games"]]
    bad = 0
    for game in games:
        _, sheet = conn.request("GET", f"/api/v1/games/{game['id']}")
        stored = [hand["input"] for hand in sheet["hands"]]
        if stored != game["hands"] or sheet["version"] != len(game["hands"]):
            bad += 1
            print(f"  game {game['id']}: {len(game['hands'])} hands sent,"
                  f" {len(stored)} on the sheet, {sheet['version']} log entries")
    hands = sum(len(g["hands"]) for g in games)
    print(f"check   {len(games)} games, {hands} hands read back:"
          f" {'none lost or duplicated' if not bad else f'{bad} games WRONG'}")
    return not bad


def main() -> int:
    """Start the server, run both phases, check the stored hands."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=4, help="client processes")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each phase")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ.update(NO_LIMITS_ENV)  # all clients are one address: no rate limits
        process, url = spawn(Path(folder) / "bench.db", workers=args.workers)
        try:
            print(f"gunicorn ({args.workers} workers) at {url}, {args.clients} client"
                  f" processes, {args.seconds:g} s per phase, {os.cpu_count()} CPUs")
            run_phase("verify", verify_client, url, args.clients, args.seconds)
            results = run_phase("append", append_client, url, args.clients, args.seconds)
            ok = check(url, results)
        finally:
            stop(process)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
