"""Soak: many clients write hands for a long while through gunicorn; nothing acknowledged is lost.

The long version of tests/test_concurrency.py and tests/test_crash.py.
Starts ``scorekeeper serve`` (``--workers``) on a temporary database and
runs ``--clients`` client processes for ``--seconds``. Each client plays
its own games (a new one every ``--hands-per-game`` hands: voids and small
knocks under a target of 10,000) and also writes every fifth hand into a
game it shares with three other clients, so writers race on the same
game. Every hand has its own ``Idempotency-Key``; every tenth is sent
twice (the retry must answer as a replay, ``Idempotent-Replayed: true``); every twentieth
write to an own game is first sent with a stale ``If-Match`` (it must be
refused with 409 and store nothing). With ``--crashes N`` the server is
killed with SIGKILL N times during the run (master and workers at once)
and restarted on the same port; clients resend a request whose answer
they did not get, with the same key, until it is answered.

With ``--abuse`` three more processes run beside the clients for the whole
run: ``--slow`` connections trickling request heads (reopened when the
server closes them), bursts of ``--burst`` game imports at once (a game of
40 hands, every second), and writes with wrong edit tokens as fast as one
client can send them (each must be refused, 403 or 429, and the target
game must stay empty). The clients' requests are timed: the script prints
their median, p99 (goal: under 100 ms) and worst latency, from the third
second of each client's run (:data:`UNTIMED`: the harness's own processes
start in the first two, on the same cores as the server). By default each
client sends its next request as soon as it has an answer, so the server
is always saturated and the latencies measure its capacity; with
``--pace N`` each client enters at most N hands a second, as tables do,
and the latencies show whether the abuse starves them.

The server is warmed up first (untimed writes from 8 connections at once:
each worker thread's first requests cost tens of milliseconds once). The
server keeps its default rate limits, and every client process and
every abuser connects from a loopback address of its own (127.0.1.x,
127.0.2.x), so the limits count them apart as they would count phones and
an abuser on a network: the abusers' excess is refused with a cheap 429,
the clients are never limited.

At the end the SQLite file is read directly and the script prints:

* written: hands the clients tried to store (distinct keys sent);
* acknowledged: hands the server answered 201 for (a first answer or a replay);
* found: those keys in the log; lost: acknowledged but not found (must be 0);
* extra: found but never acknowledged (a request cut off by a crash whose
  client gave up); recovered: requests cut off by a crash, resent with the
  same key and answered as a replay (already stored: not stored twice);
  duplicated keys (must be 0);
* requests/s over the run, and the checks: ``PRAGMA integrity_check``,
  each game's sequence numbers 1..n without a gap, each game's served
  totals equal to totals recomputed from its log.

Exit status 1 if anything was lost, duplicated or inconsistent.
Run: ``.venv/bin/python bench/soak.py [--seconds 60] [--clients 16] [--crashes 2]
[--pace N] [--abuse [--slow 200] [--burst 10]]``.
"""

from __future__ import annotations

import os
import sys

# bench/http.py would shadow the standard library's http package: keep this
# folder off the import path (as bench/http.py itself does).
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
sys.path.append(os.path.join(os.path.dirname(_HERE), "tests"))  # load_kit: the hands

import argparse  # noqa: E402
import json  # noqa: E402
import multiprocessing  # noqa: E402
import random  # noqa: E402
import sqlite3  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from concurrent.futures import ThreadPoolExecutor  # noqa: E402
from pathlib import Path  # noqa: E402
from urllib.parse import urlsplit  # noqa: E402

import requests  # noqa: E402
from load_kit import TARGET, Trickle, hand_for  # noqa: E402
from serve_kit import crash, spawn, stop  # noqa: E402

SHARE = 4
"""Clients per shared game."""


class _FromAddress(requests.adapters.HTTPAdapter):
    """Connections opened from a given local address."""

    def __init__(self, address: str):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)


def from_address(address: str) -> requests.Session:
    """A session whose connections come from loopback ``address``: the server's rate limits
    count per client address, so each client and each abuser has its own, as phones and
    abusers on a network would."""
    session = requests.Session()
    session.mount("http://", _FromAddress(address))
    return session


UNTIMED = 2.0
"""Seconds at the start of a client's run whose requests are not timed: every client and
abuser process starts then, and their own start-up shares the machine with the server."""

SETUP_ADDRESS = "127.0.0.1"
ABUSER_ADDRESSES = {"imports": "127.0.2.1", "tokens": "127.0.2.2", "slow": "127.0.2.3"}


def client_address(seed: int) -> str:
    """Client ``seed``'s own loopback address."""
    return f"127.0.{1 + seed // 250}.{1 + seed % 250}"


class Client:
    """One client process's session, retrying through crashes until its deadline."""

    def __init__(self, url: str, deadline: float, address: str = SETUP_ADDRESS):
        self.url = url
        self.deadline = deadline
        self.timed_from = 0.0  # requests sent before this (monotonic) time are not timed
        self.address = address
        self.session = from_address(address)
        self.requests = 0
        self.latencies: list[float] = []
        self.busy = 0
        self.resent = False
        self.unexpected: list[str] = []

    def send(self, method: str, path: str, **kwargs) -> requests.Response | None:
        """One request, resent while the server is down or busy; ``None`` once the time is up.

        ``resent`` tells whether the request had to be sent again because it
        was cut off; a 503 (busy: nothing written) is sent again after its
        ``Retry-After``, as clients should, and counted in ``busy``.
        """
        self.resent = False
        while time.monotonic() < self.deadline + 30:  # grace to finish the last request
            try:
                self.requests += 1
                start = time.monotonic()
                response = self.session.request(method, self.url + path, timeout=30, **kwargs)
                if start >= self.timed_from:
                    self.latencies.append(time.monotonic() - start)
                if response.status_code == 503 and "Retry-After" in response.headers:
                    self.busy += 1
                    time.sleep(float(response.headers["Retry-After"]))
                    continue
                return response
            except requests.ConnectionError:
                self.resent = True
                self.session.close()
                self.session = from_address(self.address)
                time.sleep(0.05)
        return None

    def new_game(self) -> dict | None:
        response = self.send(
            "POST", "/api/v1/games", json={"players": ["Ana", "Ben"], "rules": {"target": TARGET}}
        )
        if response is None or response.status_code != 201:
            return None
        body = response.json()
        return {"url": body["url"], "auth": f"Bearer {body['edit_token']}"}


def replayed(response: requests.Response) -> bool:
    """True when the server answered a repeated Idempotency-Key (nothing stored)."""
    return response.headers.get("Idempotent-Replayed") == "true"


def run_client(
    url: str, seconds: float, seed: int, shared: dict, per_game: int, pace: float = 0.0
) -> dict:
    """Write hands until the time is up (``pace`` hands a second at most, as a table
    would; 0: as fast as the server answers); report the keys sent and acknowledged."""
    rng = random.Random(seed)
    client = Client(url, time.monotonic() + seconds, client_address(seed))
    client.timed_from = time.monotonic() + UNTIMED
    due = time.monotonic() + (rng.random() / pace if pace else 0.0)  # tables are not in step
    sent: list[str] = []
    acked: list[str] = []
    recovered: list[str] = []
    games = []
    own = None
    i = 0
    while time.monotonic() < client.deadline:
        if own is None or own["hands"] >= per_game:
            own = client.new_game()
            if own is None:
                break
            own["hands"] = 0
            games.append(own["url"])
        game = shared if i % 5 == 4 else own
        hand, key = hand_for(rng), f"c{seed}-{i}"
        headers = {
            "Authorization": game["auth"],
            "Idempotency-Key": key,
            "Prefer": "return=minimal",
        }
        if game is own and i % 20 == 0 and own["hands"]:
            stale = client.send(
                "POST",
                f"{game['url']}/hands",
                json=hand,
                headers={**headers, "If-Match": str(own["hands"] - 1)},
            )
            if stale is not None and stale.status_code != 409:
                client.unexpected.append(f"stale write answered {stale.status_code}")
        sent.append(key)
        tries = 2 if i % 10 == 0 else 1
        for attempt in range(tries):
            response = client.send("POST", f"{game['url']}/hands", json=hand, headers=headers)
            if response is None:
                break
            if response.status_code != 201:
                client.unexpected.append(f"{response.status_code}: {response.text[:200]}")
                break
            if attempt == 0:
                acked.append(key)
                if client.resent and replayed(response):
                    recovered.append(key)  # stored before the crash cut the answer off
            elif not replayed(response) and key in acked:
                client.unexpected.append(f"retry of {key} answered {response.status_code}")
        if game is own:
            own["hands"] += 1
        i += 1
        if pace:
            due += 1 / pace
            time.sleep(max(0.0, due - time.monotonic()))
    return {
        "sent": sent,
        "acked": acked,
        "recovered": recovered,
        "games": games,
        "requests": client.requests,
        "latencies": client.latencies,
        "busy": client.busy,
        "unexpected": client.unexpected,
    }


def warm_up(url: str, threads: int = 8, writes: int = 5) -> None:
    """Writes from ``threads`` connections at once into a game of their own, untimed: each
    worker thread's first request (its connections, the interpreter's warming) costs tens
    of milliseconds once, which a server that has run for a minute no longer pays."""
    client = Client(url, time.monotonic() + 60, SETUP_ADDRESS)
    game = client.new_game()
    assert game is not None, "the server did not create the warm-up game"

    def write(t: int) -> None:
        session = from_address(SETUP_ADDRESS)
        for _ in range(writes):
            session.post(
                url + game["url"] + "/hands",
                json={"kind": "void"},
                timeout=30,
                headers={"Authorization": game["auth"]},
            )
            session.get(url + game["url"], timeout=30)

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(write, range(threads)))


EXPECTED = {"imports": {201, 429, 503}, "tokens": {403, 429}}
"""The answers each abuse may get (a 503 is a busy server refusing an import whole)."""


def abuse(
    kind: str, url: str, seconds: float, target: str, record: dict, slow: int, burst: int
) -> dict:
    """One abuser for ``seconds``: ``slow`` clients, import bursts or wrong tokens.

    Returns the count of each answer (and unexpected ones under "unexpected").
    """
    os.nice(19)  # an abuser's own work runs on its machine, not the server's: here, last
    deadline = time.monotonic() + seconds
    counts: Counter = Counter()
    if kind == "slow":
        parts = urlsplit(url)
        trickle = Trickle((parts.hostname, parts.port), slow)
        time.sleep(seconds)
        trickle.close()
        return {"connections": slow}
    address = ABUSER_ADDRESSES[kind]
    session = from_address(address)
    while time.monotonic() < deadline:
        if kind == "imports":
            with ThreadPoolExecutor(burst) as pool:
                statuses = list(
                    pool.map(
                        lambda _: (
                            from_address(address)
                            .post(url + "/api/v1/games/import", json=record, timeout=60)
                            .status_code
                        ),
                        range(burst),
                    )
                )
            time.sleep(1)
        else:
            statuses = [
                session.post(
                    f"{url}{target}/hands",
                    json={"kind": "void"},
                    timeout=60,
                    headers={"Authorization": "Bearer not-the-token"},
                ).status_code
            ]
        counts.update(statuses)
    counts["unexpected"] = sum(n for status, n in counts.items() if status not in EXPECTED[kind])
    return dict(counts)


def abuse_setup(client: Client) -> tuple[str, dict]:
    """The wrong tokens' target game (empty) and the record the import bursts send."""
    target = client.new_game()
    source = client.new_game()
    rng = random.Random(0)
    for _ in range(40):
        client.send(
            "POST",
            f"{source['url']}/hands",
            json=hand_for(rng),
            headers={"Authorization": source["auth"]},
        )
    record = client.send("GET", f"{source['url']}/export").json()
    return target["url"], record


def check_store(db: Path, url: str, game_urls: list[str]) -> list[str]:
    """Integrity, gap-free sequences and served totals equal to totals from the log."""
    problems = []
    with sqlite3.connect(db) as conn:
        if conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            problems.append("integrity_check failed")
        for game_url in game_urls:
            game_id = game_url.rsplit("/", 1)[1]
            rows = conn.execute(
                "SELECT seq, kind, payload FROM hands WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
            if [r[0] for r in rows] != list(range(1, len(rows) + 1)):
                problems.append(f"game {game_id}: sequence numbers with gaps")
            totals = [0, 0]
            for _, kind, payload in rows:
                if kind == "quick":
                    hand = json.loads(payload)
                    totals[hand["knocker"]] += hand["defender_deadwood"] - hand["knocker_deadwood"]
            served = requests.get(url + game_url, timeout=60).json()
            if served["totals"] != totals or served["version"] != len(rows):
                problems.append(
                    f"game {game_id}: served {served['totals']}"
                    f" (version {served['version']}), log gives {totals}"
                    f" ({len(rows)} entries)"
                )
    return problems


def main() -> int:
    """Start the server, run the clients (and the crashes), then count and check."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the run")
    parser.add_argument("--clients", type=int, default=16, help="client processes")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument(
        "--crashes", type=int, default=0, help="times the server is killed (SIGKILL) and restarted"
    )
    parser.add_argument(
        "--hands-per-game",
        type=int,
        default=100,
        help="hands in a client's own game before it starts another",
    )
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help="hands a second per client at most (0: as fast as answered)",
    )
    parser.add_argument(
        "--abuse",
        action="store_true",
        help="slow clients, import bursts and wrong tokens beside the clients",
    )
    parser.add_argument("--slow", type=int, default=200, help="slow connections (--abuse)")
    parser.add_argument("--burst", type=int, default=10, help="imports at once (--abuse)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "soak.db"
        process, url = spawn(db, workers=args.workers)
        port = urlsplit(url).port
        print(
            f"gunicorn ({args.workers} workers, default rate limits) at {url},"
            f" {args.clients} client processes (each its own address), {args.seconds:g} s,"
            f" {args.crashes} crash(es), {os.cpu_count()} CPUs,"
            f" {f'{args.pace:g} hands/s per client' if args.pace else 'unpaced clients'}"
        )
        try:
            setup = Client(url, time.monotonic())
            warm_up(url)
            shared = [setup.new_game() for _ in range(-(-args.clients // SHARE))]
            kinds = ["slow", "imports", "tokens"] if args.abuse else []
            target, record = abuse_setup(setup) if args.abuse else ("", {})
            start = time.monotonic()
            with multiprocessing.Pool(args.clients + len(kinds)) as pool:
                abusers = {
                    kind: pool.apply_async(
                        abuse, (kind, url, args.seconds, target, record, args.slow, args.burst)
                    )
                    for kind in kinds
                }
                pending = pool.starmap_async(
                    run_client,
                    [
                        (url, args.seconds, c, shared[c // SHARE], args.hands_per_game, args.pace)
                        for c in range(args.clients)
                    ],
                )
                for k in range(1, args.crashes + 1):
                    time.sleep(
                        max(0.0, start + args.seconds * k / (args.crashes + 1) - time.monotonic())
                    )
                    crash(process)
                    process, _ = spawn(db, workers=args.workers, port=port)
                    print(f"  killed (SIGKILL) and restarted at {time.monotonic() - start:.1f} s")
                results = pending.get()
                abused = {kind: result.get() for kind, result in abusers.items()}
            elapsed = time.monotonic() - start
            sent = {k for r in results for k in r["sent"]}
            acked = {k for r in results for k in r["acked"]}
            game_urls = [g["url"] for g in shared] + [g for r in results for g in r["games"]]
            with sqlite3.connect(db) as conn:
                keys = [
                    row[0]
                    for row in conn.execute(
                        "SELECT idempotency_key FROM hands WHERE idempotency_key IS NOT NULL"
                    )
                ]
            found = set(keys) & sent
            lost = acked - found
            duplicated = len(keys) - len(set(keys))
            problems = check_store(db, url, game_urls)
            if args.abuse:
                problems += [
                    f"{kind}: {counts['unexpected']} unexpected answers ({counts})"
                    for kind, counts in abused.items()
                    if counts.get("unexpected")
                ]
                if requests.get(url + target, timeout=60).json()["version"] != 0:
                    problems.append("a write with a wrong token was stored")
            problems += [u for r in results for u in r["unexpected"]][:10]
            requests_made = sum(r["requests"] for r in results)
            latencies = sorted(t for r in results for t in r["latencies"])
            recovered = sum(len(r["recovered"]) for r in results)
        finally:
            stop(process)
    print(f"written      {len(sent):7d} hands in {len(game_urls)} games")
    print(f"acknowledged {len(acked):7d}")
    print(f"found        {len(found):7d}")
    print(f"lost         {len(lost):7d}   (must be 0)")
    print(f"extra        {len(found - acked):7d}   (stored, never answered)")
    print(
        f"recovered    {recovered:7d}   (answer cut off by a crash; the resend with the"
        " same key found it stored: a replay)"
    )
    print(f"duplicated   {duplicated:7d}   (must be 0)")
    print(
        f"busy         {sum(r['busy'] for r in results):7d}   (503: nothing written; sent"
        " again after Retry-After)"
    )
    print(
        f"requests     {requests_made:7d}   {requests_made / elapsed:.0f} requests/s"
        f" over {elapsed:.1f} s"
    )
    p50, p99 = (latencies[int(len(latencies) * q)] * 1000 for q in (0.5, 0.99))
    print(
        f"latency      median {p50:.1f} ms, p99 {p99:.1f} ms (goal: under 100 ms), worst"
        f" {latencies[-1] * 1000:.1f} ms"
    )
    if args.abuse:
        print(
            f"abuse        {abused['slow']['connections']} slow connections held open;"
            f" imports {_answers(abused['imports'])}; wrong tokens"
            f" {_answers(abused['tokens'])}"
        )
    for problem in problems:
        print(f"PROBLEM: {problem}")
    print(
        "checks: integrity ok, no gaps, served totals = totals from the log"
        if not problems
        else f"{len(problems)} problem(s)"
    )
    return 1 if lost or duplicated or problems else 0


def _answers(counts: dict) -> str:
    """``201 x 230, 429 x 4`` from an abuser's answer counts."""
    return ", ".join(
        f"{status} x {n}" for status, n in sorted(counts.items(), key=str) if status != "unexpected"
    )


if __name__ == "__main__":
    sys.exit(main())
