"""Server CPU per request of the game lists, records and head to head, at 1,000 games and at N.

Fills a store with N games among P players (``--games 100000 --players 10000``) and a
baseline store with 1,000 games among the same number of players, then times each
request of :data:`REQUESTS` on both, side by side, in the same run.

What is measured: ``time.process_time()`` around one request through Flask's test client
on the real app (``api.create_app``, the JSON API and the scorepad's pages, the store
opened by its ``DB`` setting): the server's whole CPU for the request (routing,
validation, the store's queries, the JSON or the page), in this one process, without
the network. Each figure is the median over ``--repeat`` requests (after one untimed
request), in milliseconds.

The fill: :data:`TEMPLATES` games are played through the store's services
(:func:`~scorekeeper.store.games.create_game` and
:func:`~scorekeeper.store.games.write_hand`: random hands, two, three and four players,
some finished, some going on); each of the N games is one of them stored again for
other players by the store's own ``create_game`` with the template's log, scored
summary and sheet rows (what :func:`~scorekeeper.store.games.import_game` stores, but
not marked imported: it counts in the records), one transaction per game, into a SQLite
file. Half the
games belong to an API key (the ``GET /api/v1/games`` figures list its games). SQLite
files are filled without waiting for the disk (``durable=False``), kept in ``--cache``
(default ``~/.cache/scorekeeper-bench``) and reused by the next run with the same sizes;
``--backend postgres`` copies the same file's rows (what the store wrote: both backends
write the same text) with ``COPY`` into a throwaway server (``tests/pg.py``), then runs
``VACUUM ANALYZE`` (what autovacuum does to a live server's tables: statistics, and the
visibility map its index-only scans read): one game at a time through the
store took 68 s per 1,000 games there (round trips on a loaded machine).

A fill stores 60 to 100 games a second on a loaded machine (17 to 25 minutes per
100,000): ``--repeat-of 100000`` makes a 1,000,000-game file from the 100,000-game fill
instead, its games stored ten times over by SQL (the same rows, each copy with new ids
and its times whole days earlier: ten days of games, the same players, ten times their
games), then the players' running totals made again as the migration makes them.

Run (as a module: ``bench/http.py`` would hide the standard library's ``http``):
``PYTHONPATH=. .venv/bin/python -m bench.scale --games 100000 --players 10000
--backend sqlite`` (and ``--backend postgres``).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import shutil
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg

from api import STORAGE_KEY, create_app
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import Store, access, games, open_store, totals_schema
from scorekeeper.store.base import Summary
from scorekeeper.store.scored import effective_hands, kept, scored_rows, start_state
from scorekeeper.store.sqlite import ANALYSIS_LIMIT, Storage

BASELINE = 1000
"""Games in the baseline store."""

TEMPLATES = 60
"""Games played through the services, then stored again for other players."""

REGULAR = "Zora Regular"
REGULAR_EVERY = 100
"""A club regular sits in one game of every :data:`REGULAR_EVERY` (the others are drawn at
random): the record of a player with many games."""
RIVAL = "Yann Rival"
"""Another regular: in every other game of :data:`REGULAR` and as many others (as many
games as she has, half of them against her): head to head of two players with many games."""

FIRST = "Ana Ben Cyril Dana Emil Fran Gita Hugo Iris Jan Kaja Luka Maja Nik Olga Petra".split()
LAST = "Novak Horvat Kranjec Zupan Potocnik Kovac Mlakar Vidmar Golob Turk".split()


def player_names(count: int) -> list[str]:
    """``count`` different names, first names and surnames mixed, numbered beyond them."""
    pairs = len(FIRST) * len(LAST)
    return [
        f"{FIRST[i % len(FIRST)]} {LAST[i // len(FIRST) % len(LAST)]} {i // pairs}"
        for i in range(count)
    ]


def quick(knocker: int, k: int, d: int) -> dict[str, Any]:
    return {"kind": "quick", "knocker": knocker, "knocker_deadwood": k, "defender_deadwood": d}


def _random_hand(rng: random.Random, seats: int) -> dict[str, Any]:
    def one() -> dict[str, Any]:
        if rng.random() < 0.05:
            return {"kind": "void"}
        k = rng.choice([0, 0, *range(1, 11)])
        return quick(rng.randrange(seats), k, rng.randrange(max(k - 3, 0), 70))

    return {"kind": "deal", "games": [one(), one()]} if seats == 4 else one()


@dataclass(frozen=True)
class Template:
    """A game played through the services, as its copies are stored."""

    game: Any
    entries: list[tuple[str, Any, Any]]
    rows: list[Any]


def templates(store: Store, rng: random.Random) -> list[Template]:
    """:data:`TEMPLATES` games played hand by hand through the services."""
    made = []
    for number in range(TEMPLATES):
        seats = 4 if number % 10 == 9 else 3 if number % 10 == 8 else 2
        sheet, _ = games.create_game(store, [f"T{number} {s}" for s in range(seats)])
        length = rng.choice([1, 3, 5, 8, 30])
        while length and store.game(sheet.id).status.value != "over":
            try:
                games.write_hand(store, sheet.id, _random_hand(rng, seats), full=False)
                length -= 1
            except ScorekeeperError:
                continue
        game, log = store.game_and_log(sheet.id)
        rows, _ = scored_rows(game, effective_hands(log), start_state(game))
        entries = [(e.kind, e.payload, e.result) for e in log]
        made.append(Template(game, entries, kept(rows)))
    return made


def fill(store: Store, count: int, players: int, seed: int = 1) -> None:
    """``count`` games among ``players`` players (see the module docs)."""
    rng = random.Random(seed)
    made = templates(store, rng)
    key = store.add_api_key("club", games.hash_token("sk_bench-club"))
    names = player_names(players)
    started = time.monotonic()
    for number in range(count - TEMPLATES):
        template = rng.choice(made)
        game = template.game
        seated = rng.sample(names, len(game.players))
        _seat_regulars(seated, number)
        assert game.scored is not None
        store.create_game(
            game_id=games.new_game_id(),
            players=seated,
            rules=game.rules,
            dealer=game.dealer,
            stake=game.stake,
            token_hash=games.hash_token(games.new_token()),
            status=game.status,
            entries=template.entries,
            scored=Summary({**game.scored.data, "players": seated}),
            rows=template.rows,
            owner=key.id if number % 2 else None,
        )
        if number % 20000 == 19999:
            rate = (number + 1) / (time.monotonic() - started)
            print(f"  {number + 1:,} games stored ({rate:,.0f}/s)", file=sys.stderr)


def _seat_regulars(seated: list[str], number: int) -> None:
    """:data:`REGULAR` and :data:`RIVAL` in game ``number`` of a fill, where they sit: each
    in one game of every :data:`REGULAR_EVERY`, half of them together."""
    every = REGULAR_EVERY
    regulars = {0: [REGULAR, RIVAL], every: [REGULAR], every // 2: [RIVAL]}
    for seat, name in enumerate(regulars.get(number % (2 * every), [])):
        seated[seat] = name


REQUESTS: list[tuple[str, str]] = [
    ("api games", "/api/v1/games"),
    ("api games ?limit=100", "/api/v1/games?limit=100"),
    ("api games ?status=active", "/api/v1/games?status=active"),
    ("api games ?status=over", "/api/v1/games?status=over"),
    ("api games ?player=", "/api/v1/games?player={player}"),
    ("api games ?player=&status=over", "/api/v1/games?player={player}&status=over"),
    ("api games ?q= (one player)", "/api/v1/games?q={player}"),
    ("api games ?q= (the regular's name)", "/api/v1/games?q=zora"),
    ("api games ?q= (a surname: 1 in 10)", "/api/v1/games?q=novak"),
    ("api games ?since= (recent)", "/api/v1/games?since={recent}"),
    ("api games ?from=&to=", "/api/v1/games?from={day}&to={day}"),
    ("api games ?cursor= (middle)", "/api/v1/games?cursor={middle}"),
    ("api stats", "/api/v1/players/{player}/stats"),
    ("api stats (the regular)", f"/api/v1/players/{REGULAR}/stats"),
    ("pad games", "/games"),
    ("pad games ?player=", "/games?player={player}"),
    ("pad games ?q= (a surname)", "/games?q=novak"),
    ("pad games ?status=over&from=", "/games?status=over&from={day}"),
    ("pad player", "/players?name={player}"),
    ("pad player (the regular)", f"/players?name={REGULAR}"),
    ("pad head to head", "/players/vs?name={player}&other={other}"),
    ("pad head to head (the two regulars)", f"/players/vs?name={REGULAR}&other={RIVAL}"),
]
"""What is timed: a label, and the address (filled in by :func:`_values`)."""


def _values(store: Store) -> dict[str, str]:
    """The names, times and cursor the addresses of :data:`REQUESTS` use."""
    newest = store.all_games(limit=1)[0]
    player = newest.players[0]
    oldest = store.all_games(limit=1, player_key="t0 0")[0]  # the first template
    first, last = (datetime.fromisoformat(g.created) for g in (oldest, newest))
    halfway = access.stored_time(first + (last - first) / 2)
    middle = store.all_games(limit=1, created_to=halfway)[0]
    found = store.all_games(limit=1, player_key=player.casefold())
    other = next(p for p in found[0].players if p != player)
    return {
        "player": player,
        "other": other,
        "recent": newest.updated,
        "day": newest.created[:10],
        "middle": access.encode_cursor(middle),
    }


Figures = dict[str, tuple[float, float | None]]
"""Per request: the app's median CPU and the database server's mean CPU (ms; ``None``:
SQLite, whose work is the app's)."""


def server_cpu(server: int) -> float:
    """The CPU seconds used so far by the PostgreSQL server ``server`` (its postmaster's
    pid) and its children (the backends), from ``/proc``."""
    used = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        if server in (int(fields[1]), int(stat.parent.name)):  # fields[1]: the parent
            used += int(fields[11]) + int(fields[12])  # utime, stime
    return used / os.sysconf("SC_CLK_TCK")


def timings(address: str, repeat: int, database: int | None = None) -> Figures:
    """The median CPU (ms) of the app for each request of :data:`REQUESTS` on the store at
    ``address``, and the mean CPU of the PostgreSQL server ``database`` (its pid; clock
    ticks of 10 ms: a mean over the requests)."""
    app = create_app({"DB": address, "SECRET_KEY": "bench", "TESTING": True})
    client = app.test_client()
    values = _values(app.extensions[STORAGE_KEY])
    auth = {"Authorization": "Bearer sk_bench-club"}
    found = {}
    for label, template in REQUESTS:
        url = template.format(**values)
        costs = []
        client.get(url, headers=auth)  # the untimed one
        before = None if database is None else server_cpu(database)
        for _ in range(repeat):
            start = time.process_time()
            response = client.get(url, headers=auth)
            cost = time.process_time() - start
            assert response.status_code == 200, (url, response.status_code, response.data[:300])
            costs.append(cost * 1000)
        spent = None if before is None else (server_cpu(database or 0) - before) / repeat
        found[label] = (statistics.median(costs), None if spent is None else spent * 1000)
    app.extensions[STORAGE_KEY].close()
    return found


@contextmanager
def _postgres() -> Iterator[tuple[Callable[[], str], int]]:
    """New empty databases in a throwaway PostgreSQL server (``tests/pg.py``)."""
    path = Path(__file__).resolve().parent.parent / "tests" / "pg.py"
    spec = importlib.util.spec_from_file_location("bench_pg", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    server = module.PostgresServer()
    try:
        yield server.new_database, server.process.pid
    finally:
        server.stop()


def _sqlite_file(cache: Path, count: int, players: int) -> str:
    """The cached SQLite file of ``count`` games, filled now if there is none."""
    path = cache / f"scale-{count}-{players}.db"
    if path.exists():
        return str(path)
    partial = path.with_suffix(".filling")
    for leftover in cache.glob(partial.name + "*"):
        leftover.unlink()
    started = time.monotonic()
    store = Storage(partial, durable=False)
    fill(store, count, players)
    store.close()
    print(f"filled {count:,} games in {time.monotonic() - started:,.0f} s", file=sys.stderr)
    os.replace(partial, path)
    for suffix in ("-wal", "-shm"):
        Path(str(partial) + suffix).unlink(missing_ok=True)
    return str(path)


GAME_ROWS = {
    "games": ("id", ("created", "updated")),
    "game_players": ("game_id", ()),
    "player_games": ("game_id", ("created",)),
    "hands": ("game_id", ("created",)),
    "sheet_hands": ("game_id", ()),
    "hand_pairs": ("game_id", ()),
    "key_games": ("game_id", ("created",)),
}
"""The tables holding a game's rows: the column of its id, and its times."""


def _repeated(cache: Path, source: str, times: int, count: int, players: int) -> str:
    """The cached SQLite file of ``count`` games made from ``source`` (a fill), its games
    stored ``times`` times: each copy's ids end ``-<copy>``, its times are ``<copy>`` days
    earlier (same players, same rows otherwise)."""
    path = cache / f"scale-{count}-{players}.db"
    if path.exists():
        return str(path)
    started = time.monotonic()
    partial = path.with_suffix(".filling")
    shutil.copyfile(source, partial)
    with closing(sqlite3.connect(partial)) as conn:
        conn.execute("ATTACH ? AS source", (source,))
        for copy in range(1, times):
            for table, (key, times_of) in GAME_ROWS.items():
                columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
                values = [
                    f"{c} || '-{copy}'"
                    if c == key
                    else f"strftime('%Y-%m-%dT%H:%M:%fZ', {c}, '-{copy} days')"
                    if c in times_of
                    else c
                    for c in columns
                ]
                conn.execute(
                    f"INSERT INTO {table} ({', '.join(columns)})"
                    f" SELECT {', '.join(values)} FROM source.{table}"
                )
            conn.commit()
            print(f"  copy {copy + 1} of {times} stored", file=sys.stderr)
        _refill_totals(conn)
        conn.execute(f"PRAGMA analysis_limit = {ANALYSIS_LIMIT}")  # as the store's
        conn.execute("ANALYZE")
        conn.commit()
    os.replace(partial, path)
    print(f"repeated to {count:,} games in {time.monotonic() - started:,.0f} s", file=sys.stderr)
    return str(path)


def _refill_totals(conn: sqlite3.Connection) -> None:
    """The players' running totals of the games now stored, made again as the migration
    makes them (:func:`~scorekeeper.store.totals_schema.fill`), timed."""
    started = time.monotonic(), time.process_time()
    conn.execute("DELETE FROM rival_totals")
    conn.execute("DELETE FROM player_totals")
    totals_schema.fill(conn, str)
    conn.commit()
    took = time.monotonic() - started[0], time.process_time() - started[1]
    print(f"  players' totals filled in {took[0]:,.0f} s ({took[1]:,.0f} s CPU)", file=sys.stderr)


COPIED = (
    "players",
    "player_words",
    "games",
    "game_players",
    "player_games",
    "hands",
    "sheet_hands",
    "hand_pairs",
    "api_keys",
    "key_games",
    "player_totals",
    "rival_totals",
)
"""The tables a fill writes, parents first."""


def _copied(source: str, address: str) -> str:
    """The PostgreSQL database ``address`` (migrated by the store) holding the rows of the
    SQLite file ``source``: the same rows the store wrote there (the backends write the
    same text), by ``COPY``, then ``ANALYZE`` (as after a migration)."""
    started = time.monotonic()
    open_store(address).close()
    with closing(sqlite3.connect(source)) as lite, psycopg.connect(address) as conn:
        for table in COPIED:
            columns = ", ".join(row[1] for row in lite.execute(f"PRAGMA table_info({table})"))
            with conn.cursor().copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in lite.execute(f"SELECT {columns} FROM {table}"):
                    copy.write_row(row)
        for table in ("players", "api_keys"):
            conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), max(id)) FROM {table}"
            )
        conn.commit()
        conn.autocommit = True
        conn.execute("VACUUM ANALYZE")  # as autovacuum leaves a live server's tables
    print(f"copied into PostgreSQL in {time.monotonic() - started:,.0f} s", file=sys.stderr)
    return address


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--repeat", type=int, default=15, help="timed requests per figure")
    parser.add_argument(
        "--repeat-of",
        type=int,
        help="make the --games file by storing the games of this fill again (a divisor)",
    )
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "scorekeeper-bench")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    addresses = [_sqlite_file(args.cache, BASELINE, args.players)]
    if args.repeat_of:
        source = _sqlite_file(args.cache, args.repeat_of, args.players)
        times = args.games // args.repeat_of
        addresses.append(_repeated(args.cache, source, times, args.games, args.players))
    else:
        addresses.append(_sqlite_file(args.cache, args.games, args.players))
    if args.backend == "sqlite":
        small, big = (timings(address, args.repeat) for address in addresses)
    else:
        with _postgres() as (new_database, server):
            copies = [_copied(address, new_database()) for address in addresses]
            small, big = (timings(address, args.repeat, server) for address in copies)
    load = os.getloadavg()
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores,"
        f" load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {args.backend};"
        f" {args.players:,} players; the app's median of {args.repeat} requests"
        + ("" if args.backend == "sqlite" else ", PostgreSQL's mean")
    )
    for line in _table(small, big, args.games):
        print(line)


def _table(small: Figures, big: Figures, games: int) -> list[str]:
    """The figures as a Markdown table: the app's CPU at each size, and PostgreSQL's."""
    postgres = any(db is not None for _, db in small.values())
    sizes = [f"{BASELINE:,}", f"{games:,}"]
    heads = [f"{n} (app + PostgreSQL)" for n in sizes] if postgres else sizes
    lines = [f"| CPU per request (ms) | {' | '.join(heads)} |", "|---|---:|---:|"]
    for label, _ in REQUESTS:
        cells = [_cell(*figures[label]) for figures in (small, big)]
        lines.append(f"| {label} | {' | '.join(cells)} |")
    return lines


def _cell(app: float, database: float | None) -> str:
    return f"{app:.2f}" if database is None else f"{app:.2f} + {database:.1f}"


if __name__ == "__main__":
    main()
