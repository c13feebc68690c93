"""CPU time per appended hand in process: the JSON API through Flask's test client on a real
(durable) SQLite file, for one checkout or two side by side.

Each checkout runs in a process of its own (its folder is its ``PYTHONPATH``),
playing games of random quick hands (``POST /api/v1/games/{id}/hands``, each
with an ``Idempotency-Key``, as ``bench/http.py``'s clients send them). The
processes take turns, a block of ``--block`` appends each, ``--blocks`` times,
so both see the same load on a shared machine; a block's figure is the CPU
time (``time.process_time``) of its appends alone (creating a game is not
counted). Printed per checkout: the mean over all blocks and the best block;
with two, the ratio of their sums and the median of the paired blocks'
ratios (the steadiest figure on a loaded machine).

Run: ``.venv/bin/python bench/append_cpu.py [OTHER_CHECKOUT] [--blocks 60] [--block 40]``
(e.g. ``git worktree add /tmp/base main`` for the checkout to compare with).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != BENCH]  # http.py: see there
HERE = os.path.dirname(BENCH)
NO_LIMITS = {"CREATE_LIMIT": "1000000 per minute", "WRONG_TOKEN_LIMIT": "1000000 per minute"}


def serve_blocks() -> None:
    """The child: read a number of appends per line, answer their CPU seconds."""
    from api import create_app

    folder = tempfile.mkdtemp()
    settings = {"DB": os.path.join(folder, "bench.db"), "SECRET_KEY": "bench", **NO_LIMITS}
    client = create_app({**settings, "LOG_LEVEL": "warning"}, instance_path=folder).test_client()
    rng = random.Random(1)
    keys = itertools.count()
    game: dict[str, str] = {}

    def new_game() -> None:
        made = client.post("/api/v1/games", json={"dealer": 0, "players": ["Ana", "Ben"]}).json
        assert made is not None
        game.update(path=f"/api/v1/games/{made['id']}/hands", token=made["edit_token"])

    def appends(count: int) -> float:
        spent = 0.0
        for _ in range(count):
            hand = {"kind": "quick", "knocker": rng.randrange(2)}
            hand.update(knocker_deadwood=rng.randint(0, 10), defender_deadwood=rng.randint(0, 60))
            headers = {"Authorization": f"Bearer {game['token']}"}
            headers["Idempotency-Key"] = f"k{next(keys)}"
            start = time.process_time()
            answer = client.post(game["path"], json=hand, headers=headers)
            spent += time.process_time() - start
            assert answer.status_code == 201, answer.json
            assert answer.json is not None
            if answer.json["sheet"]["status"] != "active":
                new_game()
        return spent

    new_game()
    appends(50)  # warm
    for line in sys.stdin:
        print(repr(appends(int(line))), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("other", nargs="?", help="another checkout to compare with")
    parser.add_argument("--blocks", type=int, default=60, help="blocks per checkout")
    parser.add_argument("--block", type=int, default=40, help="appends per block")
    args = parser.parse_args()
    checkouts = [HERE] + ([os.path.abspath(args.other)] if args.other else [])
    children = [
        subprocess.Popen(
            [sys.executable, __file__, "--child"],
            cwd=checkout,
            env={**os.environ, "PYTHONPATH": checkout},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for checkout in checkouts
    ]
    spent: list[list[float]] = [[] for _ in children]
    for turn in range(args.blocks):
        order = list(enumerate(children))
        for k, child in order[turn % 2 :] + order[: turn % 2]:  # who goes first alternates
            assert child.stdin is not None and child.stdout is not None
            child.stdin.write(f"{args.block}\n")
            child.stdin.flush()
            spent[k].append(float(child.stdout.readline()) * 1000 / args.block)
    for child in children:
        assert child.stdin is not None
        child.stdin.close()
        child.wait()
    for checkout, blocks in zip(checkouts, spent, strict=True):
        mean, best = statistics.mean(blocks), min(blocks)
        print(f"{checkout}: {mean:.3f} ms per append, best block {best:.3f}")
    if len(children) == 2:
        ratios = [b / a for a, b in zip(*spent, strict=True)]
        print(
            f"second / first: {sum(spent[1]) / sum(spent[0]):.3f} (sums),"
            f" {statistics.median(ratios):.3f} (median of paired blocks)"
        )


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        serve_blocks()
    else:
        main()
