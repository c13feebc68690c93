"""The server's CPU for a season's table at a club's size, beside a one-night baseline, on
SQLite and on PostgreSQL (issue 29, item 5).

Each store is filled through the store's own services, as the API fills it: ``--nights``
club nights (default 40), each a Swiss of ``--players`` players (40) over ``--rounds``
rounds (5: 100 matches a night), every round paired by
:func:`~scorekeeper.store.events.pair_round` and every match played to its end by
:func:`~scorekeeper.store.games.add_hand` (the events' and games' rules have a target of
50, so one gin ends a game: the results are what a season reads, the hands are not);
then ``--casual`` casual games (5,000) between the same players, each created and
finished the same way. Night ``i`` is moved to day ``i * 7`` after the first (its
creation time, what places it in a season; the casual games are spread over the same
days): a season holds them all, a one-day season only the first night and the casual
games of its day.

Timed, as the server answers them (Flask's test client in this process, so the CPU is
this process's: :func:`time.process_time`; PostgreSQL's own work is its server's, not
counted), each ``--repeat`` times (median and p90 of CPU ms):

* ``standings``: ``GET /api/v1/events/{id}/standings`` of one night (40 players, 5 rounds);
* ``season (1 night)``: ``GET /api/v1/seasons/{id}/table`` of the one-day season;
* ``season (N nights)``: the same for the whole season, casual games counted;
* ``season page``: the season's page on the scorepad (``/seasons/{id}``).

Target: each under 50 ms of server CPU. Exit status 1 if one is missed.
Run: ``.venv/bin/python bench/season.py [--nights 40] [--casual 5000] [--no-postgres]``.
"""

from __future__ import annotations

import os
import sys

# bench/http.py would shadow the standard library's http package (werkzeug imports it):
# keep this folder off the import path.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
sys.path.append(os.path.join(os.path.dirname(_HERE), "tests"))  # pg: a throwaway server

import argparse  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from datetime import date, timedelta  # noqa: E402
from pathlib import Path  # noqa: E402

from pg import PostgresServer  # noqa: E402

from api import STORAGE_KEY, create_app  # noqa: E402
from scorekeeper.store import events, games, open_store, seasons  # noqa: E402

TARGET_MS = 50.0
"""Issue 29: server CPU milliseconds per request, at most."""

RULES = {"target": 50}
"""A gin (25 plus the deadwood of 30) ends a game at once: one hand per match."""

FIRST_DAY = date(2026, 1, 8)
"""The first night's day."""


def _gin(rng: random.Random) -> dict:
    return {
        "kind": "quick",
        "knocker": rng.randrange(2),
        "knocker_deadwood": 0,
        "defender_deadwood": rng.randint(26, 40),
    }


def _on_day(store, table: str, ids: list[str], day: date) -> None:
    """Move rows of ``table`` to ``day`` (their creation time places them in a season)."""
    with store._write() as conn:  # the bench's own setting of the clock, no service has it
        for row_id in ids:
            store._run(
                conn,
                f"UPDATE {table} SET created = ? WHERE id = ?",
                (f"{day.isoformat()}T19:30:00.000Z", row_id),
            )


def fill(store, args, rng: random.Random) -> list[str]:
    """The nights and the casual games (see the module docs); the nights' ids."""
    players = [f"Player {n:02d}" for n in range(args.players)]
    nights = []
    started = time.perf_counter()
    for night in range(args.nights):
        stored, _ = events.create_event(
            store,
            f"Night {night + 1}",
            rng.sample(players, len(players)),
            "swiss",
            args.rounds,
            RULES,
        )
        for _ in range(args.rounds):
            for match in events.pair_round(store, stored.id).matches:
                games.add_hand(store, match.game_id, _gin(rng), full=False)
        _on_day(store, "events", [stored.id], FIRST_DAY + timedelta(days=7 * night))
        nights.append(stored.id)
    by_day: dict[int, list[str]] = {}
    for _ in range(args.casual):
        sheet, _ = games.create_game(store, rng.sample(players, 2), RULES)
        games.add_hand(store, sheet.id, _gin(rng), full=False)
        by_day.setdefault(7 * rng.randrange(args.nights), []).append(sheet.id)
    for offset, ids in by_day.items():
        _on_day(store, "games", ids, FIRST_DAY + timedelta(days=offset))
    print(
        f"  filled in {time.perf_counter() - started:.0f} s: {args.nights} nights of"
        f" {args.players} players x {args.rounds} rounds, {args.casual} casual games"
    )
    return nights


def _cpu(client, path: str, repeat: int) -> list[float]:
    """CPU milliseconds of this process per ``GET path`` (the server's, in process)."""
    client.get(path)  # the first read warms the caches (rules parsed, statements prepared)
    took = []
    for _ in range(repeat):
        start = time.process_time()
        response = client.get(path)
        took.append((time.process_time() - start) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    return took


def measure(address: str, name: str, args) -> bool:
    """Fill the store at ``address``, time the four reads; whether each met the target."""
    store = open_store(address)
    try:
        nights = fill(store, args, random.Random(args.seed))
        last = FIRST_DAY + timedelta(days=7 * (args.nights - 1))
        one = seasons.create_season(
            store, "One night", str(FIRST_DAY), str(FIRST_DAY), "wins", True
        )
        whole = seasons.create_season(store, "Season", str(FIRST_DAY), str(last), "wins", True)
    finally:
        store.close()
    app = create_app({"DB": address, "SECRET_KEY": "bench"})
    client = app.test_client()
    reads = {
        "standings (1 night)": f"/api/v1/events/{nights[0]}/standings",
        "season (1 night)": f"/api/v1/seasons/{one.id}/table",
        f"season ({args.nights} nights)": f"/api/v1/seasons/{whole.id}/table",
        "season page": f"/seasons/{whole.id}",
    }
    table = client.get(reads[f"season ({args.nights} nights)"]).get_json()
    print(
        f"{name}: server CPU ms per request, median / p90 ({args.repeat} requests;"
        f" the season counts {table['nights']} nights and {table['casual_games']}"
        f" casual games, {len(table['table'])} players)"
    )
    met = True
    for label, path in reads.items():
        took = sorted(_cpu(client, path, args.repeat))
        median, p90 = statistics.median(took), took[int(len(took) * 0.9)]
        ok = median <= TARGET_MS
        met &= ok
        print(
            f"  {label:22} {median:7.1f} / {p90:7.1f}"
            f"   (target <= {TARGET_MS:g}: {'met' if ok else 'MISSED'})"
        )
    app.extensions[STORAGE_KEY].close()
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nights", type=int, default=40)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--casual", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", help="a postgresql:// address (an empty database)")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        ok &= measure(str(Path(folder) / "bench.db"), "SQLite", args)
    if not args.no_postgres:
        server = None if args.postgres else PostgresServer()
        try:
            url = args.postgres if server is None else server.new_database()
            ok &= measure(url, "PostgreSQL", args)
        finally:
            if server is not None:
                server.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
