"""HTTP throughput of the JSON API: gunicorn on loopback, SQLite and PostgreSQL, 2 and 4 workers.

For each store (a temporary SQLite file; a throwaway PostgreSQL server
started from Debian's binaries, as the tests do, unless ``--no-postgres``)
and each number of gunicorn workers (``--workers``, default 2 and 4), it
starts ``scorekeeper serve`` (see :func:`api.server.spawn`) and runs three
phases in turn, each with ``--clients`` client processes for ``--seconds``
seconds:

* **floor**: each client ``GET``s one game's sheet with ``If-None-Match``
  (a 304: no log read, nothing scored), what the server costs a request
  that does nearly nothing: the ceiling for the other two phases;
* **verify**: ``POST /api/v1/verify`` with random legal knocks;
* **append**: each client creates a game and ``POST``s quick hands (random
  deadwood, each with its own ``Idempotency-Key``; every tenth is sent
  twice, as a client retrying) until the game is over, then starts another.

Each phase prints requests/s with p50 and p99 latency; then every game is
read back and checked: its sheet holds exactly the hands the client was
told were stored, in order, and nothing else (no hand lost, none
duplicated). At the end one table puts every configuration side by side
(the same run, the same machine: compare across its rows). Targets (issues
4 and 12): verify >= 1,500 requests/s with p99 < 50 ms; appends >= 800/s on
SQLite with 2 workers. Exit status 1 if a check fails.
Run: ``.venv/bin/python bench/http.py [--clients 4] [--seconds 5] [--workers 2 4]``.
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

TARGETS = {"verify": (1500, 50.0), "append": (800, None)}
"""Per phase: (requests/s at least, p99 in ms below); judged for SQLite with 2 workers."""

RETRY_EVERY = 10
"""Every this many stored hands a client sends the same request again (a retry)."""


def _bench(name: str):
    """Another script of this folder, loaded by path (see the note at the top)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", Path(_HERE) / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _legal_knocks():
    """``legal_knocks`` of bench/melds.py."""
    return _bench("melds").legal_knocks


class Connection:
    """One keep-alive-if-possible HTTP connection that sends JSON and times each request."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        self.latencies: list[float] = []

    def send(
        self, method: str, path: str, body=None, headers=None
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        """Send one request (``body`` as JSON), timed; returns (status, headers, payload)."""
        data = json.dumps(body) if body is not None else None
        start = time.perf_counter()
        self.conn.request(
            method, path, data, {"Content-Type": "application/json", **(headers or {})}
        )
        response = self.conn.getresponse()
        payload = response.read()
        self.latencies.append(time.perf_counter() - start)
        if response.will_close:
            self.conn.close()
        return response.status, response.headers, payload

    def request(self, method: str, path: str, body=None, headers=None) -> tuple[int, dict]:
        """Send one request; returns (status, decoded JSON body)."""
        status, _, payload = self.send(method, path, body, headers)
        return status, json.loads(payload)


def verify_client(url: str, seconds: float, seed: int) -> dict:
    """POST random legal knocks to /verify until the time is up."""
    rng = random.Random(seed)
    knocks = [
        {"knocker": [c.code for c in k], "defender": [c.code for c in d]}
        for k, d in _legal_knocks()(rng, 200)
    ]
    conn = Connection(url)
    errors = 0
    start = time.monotonic()
    i = 0
    while time.monotonic() < start + seconds:
        status, _ = conn.request("POST", "/api/v1/verify", knocks[i % len(knocks)])
        errors += status != 200
        i += 1
    return {
        "latencies": conn.latencies,
        "errors": errors,
        "games": [],
        "window": (start, time.monotonic()),
    }


def floor_client(url: str, seconds: float, seed: int) -> dict:
    """GET one game's unchanged sheet with ``If-None-Match`` until the time is up (304s)."""
    conn = Connection(url)
    _, created = conn.request("POST", "/api/v1/games", {"dealer": 0, "players": ["Ana", "Ben"]})
    path = f"/api/v1/games/{created['id']}"
    _, sheet, _ = conn.send("GET", path)
    unchanged = {"If-None-Match": sheet["ETag"]}
    conn.latencies.clear()
    errors = 0
    start = time.monotonic()
    while time.monotonic() < start + seconds:
        status, _, _ = conn.send("GET", path, headers=unchanged)
        errors += status != 304
    return {
        "latencies": conn.latencies,
        "errors": errors,
        "games": [],
        "window": (start, time.monotonic()),
    }


def random_hand(rng: random.Random) -> dict:
    """A quick hand as a table would enter it."""
    return {
        "kind": "quick",
        "knocker": rng.randrange(2),
        "knocker_deadwood": rng.randint(0, 10),
        "defender_deadwood": rng.randint(0, 60),
    }


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
            _, created = setup.request(
                "POST", "/api/v1/games", {"dealer": 0, "players": ["Ana", "Ben"]}
            )
            game = {
                "id": created["id"],
                "hands": [],
                "auth": {"Authorization": f"Bearer {created['edit_token']}"},
            }
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
    return {
        "latencies": conn.latencies,
        "errors": errors,
        "games": [{"id": g["id"], "hands": g["hands"]} for g in games],
        "window": (start, time.monotonic()),
    }


def run_phase(
    name: str, client, url: str, clients: int, seconds: float, targeted: bool
) -> tuple[list[dict], dict]:
    """Run ``clients`` processes of ``client``; print and return throughput and latency.

    The rate is over the span from the first client's start to the last one's
    end (client set-up, such as dealing the knocks, is not counted). With
    ``targeted`` the line says whether the phase met its target.
    """
    with multiprocessing.Pool(clients) as pool:
        results = pool.starmap(client, [(url, seconds, 1000 * k + 1) for k in range(clients)])
    elapsed = max(r["window"][1] for r in results) - min(r["window"][0] for r in results)
    latencies = sorted(x for r in results for x in r["latencies"])
    figures = {
        "rate": len(latencies) / elapsed,
        "p50": latencies[len(latencies) // 2] * 1000,
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        "errors": sum(r["errors"] for r in results),
    }
    verdict = ""
    if targeted:
        least, p99_below = TARGETS[name]
        met = figures["rate"] >= least and (p99_below is None or figures["p99"] < p99_below)
        target = f">= {least}/s" + (f", p99 < {p99_below:.0f} ms" if p99_below else "")
        verdict = f"  (target {target}: {'met' if met else 'MISSED'})"
    print(
        f"  {name:7} {len(latencies):7d} requests  {figures['rate']:7.0f} req/s"
        f"  p50 {figures['p50']:6.2f} ms  p99 {figures['p99']:6.2f} ms"
        f"  errors {figures['errors']}{verdict}"
    )
    return results, figures


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
            print(
                f"  game {game['id']}: {len(game['hands'])} hands sent,"
                f" {len(stored)} on the sheet, {sheet['version']} log entries"
            )
    hands = sum(len(g["hands"]) for g in games)
    print(
        f"  check   {len(games)} games, {hands} hands read back:"
        f" {'none lost or duplicated' if not bad else f'{bad} games WRONG'}"
    )
    return not bad


def measure(db: str, workers: int, args: argparse.Namespace, targeted: bool) -> dict:
    """One configuration: serve ``db`` with ``workers``, run the three phases and the check."""
    process, url = spawn(db, workers=workers)
    try:
        _, floor = run_phase("floor", floor_client, url, args.clients, args.seconds, False)
        _, verify = run_phase("verify", verify_client, url, args.clients, args.seconds, targeted)
        results, append = run_phase(
            "append", append_client, url, args.clients, args.seconds, targeted
        )
        return {"floor": floor, "verify": verify, "append": append, "ok": check(url, results)}
    finally:
        stop(process)


def main() -> int:
    """Serve each store with each number of workers, run the phases, check, compare."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=4, help="client processes")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each phase")
    parser.add_argument(
        "--workers",
        type=int,
        nargs="+",
        default=[2, 4],
        help="gunicorn workers (one configuration each)",
    )
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args()
    os.environ.update(NO_LIMITS_ENV)  # all clients are one address: no rate limits
    print(f"{args.clients} client processes, {args.seconds:g} s per phase, {os.cpu_count()} CPUs")
    rows = []
    server = None if args.no_postgres else _bench("writes")._postgres_server()
    try:
        with tempfile.TemporaryDirectory() as folder:
            for workers in args.workers:
                stores = [("SQLite", str(Path(folder) / f"bench-{workers}.db"))]
                if server is not None:
                    stores.append(("PostgreSQL", server.new_database()))
                for name, db in stores:
                    print(f"{name}, gunicorn with {workers} workers")
                    figures = measure(db, workers, args, name == "SQLite" and workers == 2)
                    rows.append((name, workers, figures))
    finally:
        if server is not None:
            server.stop()
    print("side by side (requests/s, p99 ms; floor: a 304 that does nearly nothing):")
    print(
        f"  {'store':11} {'workers':>7}  {'floor/s':>8} {'p99':>7}  {'verify/s':>8} {'p99':>7}"
        f"  {'append/s':>8} {'p99':>7}  check"
    )
    for name, workers, figures in rows:
        cells = "".join(
            f"  {figures[phase]['rate']:8.0f} {figures[phase]['p99']:7.2f}"
            for phase in ("floor", "verify", "append")
        )
        print(f"  {name:11} {workers:7d}{cells}  {'ok' if figures['ok'] else 'WRONG'}")
    return 0 if all(figures["ok"] for *_, figures in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
