"""Write latency at hand 10 and at hand 1,000, side by side, on SQLite and on PostgreSQL.

For each store a short game (9 hands) and a long one (999 hands, imported;
target 10,000 so it never ends) are written to in turns: enter a hand (the
10th or the 1,000th), correct it, undo it, so both games keep their
length; the two games alternate write by write, so noise on the machine
falls on both alike. Writes are timed through :mod:`scorekeeper.store.games`
as the API makes them with ``Prefer: return=minimal`` (``full=False``: no
sheet of hands in the answer); ``add (sheet)`` is an add answered with the
whole sheet, which grows with the game by nature. The SQLite file is
durable (``synchronous = FULL``: every write waits for its fsync). Prints
the median and p90 per write kind and the ratio long/short (goal: the
median within 1.5x for add, correct and undo). PostgreSQL is a throwaway
server started from the installed binaries (tests/pg.py, with PostgreSQL's
durable defaults: every commit waits for its WAL's fsync), or the one named
by ``--postgres``; ``--no-postgres`` skips it.
Run: ``.venv/bin/python bench/writes.py [--rounds 200]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from scorekeeper.store import games, open_store

GOAL = 1.5
"""Latency at hand 1,000 over latency at hand 10, at most (medians)."""

KINDS = ("add", "correct", "undo", "add (sheet)")
"""The writes timed, in the order they are made in each round."""

RULES = {"target": 10000}
"""Rules under which 1,000 hands do not end the game."""


def _postgres_server():
    """A throwaway PostgreSQL server (tests/pg.py, loaded by path)."""
    path = Path(__file__).resolve().parent.parent / "tests" / "pg.py"
    spec = importlib.util.spec_from_file_location("bench_pg", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PostgresServer()


def _hand(rng: random.Random) -> dict:
    """A quick hand worth a few points (so 1,000 of them stay under the target)."""
    return {
        "kind": "quick",
        "knocker": rng.randrange(2),
        "knocker_deadwood": rng.randint(0, 3),
        "defender_deadwood": rng.randint(3, 9),
    }


def _game(store, hands: int, rng: random.Random) -> str:
    """A game with ``hands`` hands (imported: linear), its id."""
    sheet, _ = games.import_game(
        store,
        {"players": ["Ana", "Ben"], "rules": RULES, "hands": [_hand(rng) for _ in range(hands)]},
    )
    return sheet.id


def _timed(times: list[float], write, *args, **options) -> None:
    start = time.perf_counter()
    write(*args, **options)
    times.append(time.perf_counter() - start)


def measure(store, rounds: int, seed: int) -> dict[str, dict[str, list[float]]]:
    """Per game length ("10", "1000"), per write kind: the latencies in seconds."""
    rng = random.Random(seed)
    ids = {"10": _game(store, 9, rng), "1000": _game(store, 999, rng)}
    times: dict[str, dict[str, list[float]]] = {
        length: {kind: [] for kind in KINDS} for length in ids
    }
    for _ in range(rounds):
        for kind in KINDS:
            for length, game_id in ids.items():
                took = times[length][kind]
                n = int(length)
                if kind == "add":
                    _timed(took, games.add_hand, store, game_id, _hand(rng), full=False)
                elif kind == "correct":
                    _timed(took, games.correct_hand, store, game_id, n, _hand(rng), full=False)
                elif kind == "undo":
                    _timed(took, games.undo_last, store, game_id, full=False)
                else:
                    _timed(took, games.add_hand, store, game_id, _hand(rng))
                    games.undo_last(store, game_id, full=False)
    return times


def report(name: str, times: dict[str, dict[str, list[float]]]) -> bool:
    """Print one store's table; whether every constant-cost write met the goal."""
    met = True
    print(f"{name}: median / p90 in ms, hand 10 vs hand 1,000")
    for kind in KINDS:
        row = []
        medians = []
        for length in ("10", "1000"):
            took = sorted(times[length][kind])
            median = statistics.median(took) * 1000
            p90 = took[int(len(took) * 0.9)] * 1000
            medians.append(median)
            row.append(f"{median:6.2f} / {p90:6.2f}")
        ratio = medians[1] / medians[0]
        goal = (
            ""
            if kind == "add (sheet)"
            else (f"(goal <= {GOAL}x: {'met' if ratio <= GOAL else 'MISSED'})")
        )
        met = met and (kind == "add (sheet)" or ratio <= GOAL)
        print(f"  {kind:12} {row[0]}   {row[1]}   x{ratio:4.2f} {goal}")
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200, help="writes of each kind per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--postgres",
        help="a postgresql:// address to use (its tables are"
        " created if missing); default: a throwaway server",
    )
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(str(Path(folder) / "bench.db"))
        ok &= report("SQLite (durable)", measure(store, args.rounds, args.seed))
        store.close()
    if not args.no_postgres:
        server = None if args.postgres else _postgres_server()
        try:
            url = args.postgres if server is None else server.new_database()
            store = open_store(url)
            ok &= report("PostgreSQL (durable)", measure(store, args.rounds, args.seed))
            store.close()
        finally:
            if server is not None:
                server.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
