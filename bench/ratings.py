"""The ladder and a player's rating at a club's size, beside one night, on SQLite and PostgreSQL.

A season: ``--games`` finished games (default 6,600: 40 club nights of 40
players, plus casual games), 40 regulars and ``--casual`` occasional players
(most games of two, one in ten of three; one in twenty made with a bot key, so
left out); one night: the first 40 of them. For each size and store the server's
CPU time per request, in milliseconds (the app's process, plus PostgreSQL's
server processes for PostgreSQL, from /proc), median of ``--repeat`` requests
made through the app (Flask's test client: no network, no nginx), of:

* ``GET /api/v1/ratings`` (the first page of 50) and ``GET /ladder`` (the page);
* ``GET /api/v1/players/{name}/rating`` (the busiest regular, with its history),
  the rating panel of the player's page alone, and that whole page
  (``/players?name=``, ``record page``: it also counts the player's record,
  :mod:`scorekeeper.store.stats`, over all the player's games);
* ``refresh: new game``: the first ladder read after one more game ended (the
  cached fold goes on from where it stopped) and ``refresh: correction``: after a
  correction of the season's first game (the whole fold is done again).

Target (issue 29): each read (the refreshes aside) under 50 ms of server CPU on
both stores at the season's size. Exit status 1 if one is missed. PostgreSQL is a throwaway server
(tests/pg.py) unless ``--no-postgres``.
Run: ``.venv/bin/python bench/ratings.py [--games 6600] [--repeat 20]``.
"""

from __future__ import annotations

import os
import sys

# bench/http.py would shadow the standard library's http package (werkzeug needs it)
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from api import STORAGE_KEY, create_app  # noqa: E402
from scorekeeper.store import access, games  # noqa: E402
from scorekeeper.store.games import hash_token  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TARGET = 50.0
"""Server CPU milliseconds per read, at most (issue 29)."""
NIGHT = 40
"""Games in one club night (the baseline)."""
READS = ("ladder API", "ladder page", "rating API", "rating panel", "record page")
ONCE = ("refresh: new game", "refresh: correction")


def _load(name: str, path: Path) -> Any:
    """A module of this checkout loaded by path (tests/pg.py, bench/http.py)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _game(rng: random.Random, players: list[str]) -> dict[str, Any]:
    """A game of ``players`` to 50 ended by one gin (three players: a non-dealer's)."""
    seats = len(players)
    winner = rng.randrange(2) if seats == 2 else rng.choice((1, 2))
    hand = {"kind": "quick", "knocker": winner, "knocker_deadwood": 0, "defender_deadwood": 40}
    return {"players": players, "rules": {"target": 50}, "hands": [hand]}


def season(store: Any, count: int, casual: int, seed: int) -> None:
    """``count`` finished games of 40 regulars and ``casual`` occasional players."""
    rng = random.Random(seed)
    bot = store.api_key(hash_token(access.create_key(store, "simulator", bot=True)))
    regulars = [f"Regular{n:02}" for n in range(40)]
    occasional = [f"Casual{n:03}" for n in range(casual)]
    for n in range(count):
        seats = 3 if n % 10 == 9 else 2
        names = rng.sample(regulars, seats)
        if rng.random() < 0.25:
            names[-1] = rng.choice(occasional)
        owner = bot.id if n % 20 == 19 else None
        games.import_game(store, _game(rng, names), owner=owner)


class Meter:
    """Server CPU time: this process's, plus a PostgreSQL server's process group's."""

    def __init__(self, group: int | None, server_cpu: Callable[[int], float]) -> None:
        self.group = group
        self.server_cpu = server_cpu

    def now(self) -> float:
        database = 0.0 if self.group is None else self.server_cpu(self.group)
        return time.process_time() + database

    def ms(self, call: Callable[[], Any], repeat: int) -> float:
        """The median CPU milliseconds of ``call`` (timed in batches of 5: /proc counts
        in 10 ms ticks)."""
        batches = []
        for _ in range(max(1, repeat // 5)):
            start = self.now()
            for _ in range(5):
                call()
            batches.append((self.now() - start) * 1000 / 5)
        return statistics.median(batches)


def measure(db: str, size: int, args: argparse.Namespace, meter: Meter) -> dict[str, float]:
    """CPU ms per read of :data:`READS` and :data:`ONCE` over a season of ``size`` games."""
    app = create_app({"DB": db, "SECRET_KEY": "bench", "TESTING": True})
    store = app.extensions[STORAGE_KEY]
    started = time.monotonic()
    season(store, size, args.casual if size > NIGHT else 10, args.seed)
    print(f"  {size} games stored in {time.monotonic() - started:.0f} s", flush=True)
    client = app.test_client()
    top = client.get("/api/v1/ratings?limit=1").json["ratings"][0]["player"]

    def get(path: str) -> Callable[[], Any]:
        def call() -> None:
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)

        return call

    reads = {
        "ladder API": get("/api/v1/ratings"),
        "ladder page": get("/ladder?min=5"),
        "rating API": get(f"/api/v1/players/{top}/rating"),
        "rating panel": lambda: _panel(app, top),
        "record page": get(f"/players?name={top}"),
    }
    found = {name: meter.ms(call, args.repeat) for name, call in reads.items()}
    games.import_game(store, _game(random.Random(1), ["Regular00", "Regular01"]))
    found["refresh: new game"] = meter.ms(get("/api/v1/ratings"), 1)
    first = store.rating_inputs().games[0][0]  # a game of two: the other player wins it
    hand = store.log(first)[0].payload
    games.correct_hand(store, first, 1, {**hand, "knocker": 1 - hand["knocker"]})
    found["refresh: correction"] = meter.ms(get("/api/v1/ratings"), 1)
    store.close()
    return found


def _panel(app: Any, name: str) -> None:
    """The rating panel of a player's page alone, rendered in a request of the app."""
    from api.pad.routes_ratings import rating_panel

    with app.test_request_context("/players"):
        rating_panel(name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6600)
    parser.add_argument("--casual", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    server_cpu = _load("bench_http", ROOT / "bench" / "http.py").server_cpu
    folder = tempfile.mkdtemp(prefix="scorekeeper-ratings-")
    stores: list[tuple[str, Callable[[int], str], Meter]] = [
        ("SQLite", lambda n: f"{folder}/season-{n}.db", Meter(None, server_cpu))
    ]
    server = None
    if not args.no_postgres:
        server = _load("bench_pg", ROOT / "tests" / "pg.py").PostgresServer()
        meter = Meter(server.process.pid, server_cpu)
        stores.append(("PostgreSQL", lambda n: server.new_database(), meter))
    results: dict[str, dict[int, dict[str, float]]] = {}
    try:
        for name, address, meter in stores:
            for size in (NIGHT, args.games):
                print(f"{name}: {size} games", flush=True)
                results.setdefault(name, {})[size] = measure(address(size), size, args, meter)
    finally:
        if server is not None:
            server.stop()
    return report(results, args.games)


def report(results: dict[str, dict[int, dict[str, float]]], size: int) -> int:
    """Print the table (server CPU ms per request) and whether each read met the target."""
    ok = True
    print(f"\nserver CPU ms per request: one night ({NIGHT} games) | season ({size:,} games)")
    for name, sizes in results.items():
        print(f"{name}:")
        for read in READS + ONCE:
            night, full = sizes[NIGHT][read], sizes[size][read]
            mark = ""
            if read in READS:
                met = full < TARGET
                ok &= met
                mark = f"  (target < {TARGET:g}: {'met' if met else 'MISSED'})"
            print(f"  {read:<20} {night:8.2f} | {full:8.2f}{mark}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
