"""Throughput of the digital engine on one core: replay() and simulate().

Prints deals per second for simulating greedy-vs-greedy deals (and, for
reference, random-vs-random ones) and for replaying the records they
produce (cards, dealer and every action re-checked, showdown scored).
Targets (issue 3): replay at least 2,000 deals/s, greedy-vs-greedy
simulation at least 300 deals/s. Run: ``.venv/bin/python bench/engine.py
[--count N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import time

from scorekeeper import replay, simulate


def rate(label: str, count: int, run) -> float:
    start = time.perf_counter()
    run()
    elapsed = time.perf_counter() - start
    per_second = count / elapsed
    print(f"{label:<40} {per_second:>10,.0f} deals/s  ({count:,} in {elapsed:.2f} s)")
    return per_second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.count)
    greedy: list[dict] = []
    randoms: list[dict] = []

    sim = rate(
        "simulate(), greedy vs greedy",
        len(seeds),
        lambda: greedy.extend(simulate(s) for s in seeds),
    )
    rate(
        "simulate(), random vs random",
        len(seeds),
        lambda: randoms.extend(simulate(s, players=("random", "random")) for s in seeds),
    )
    rep = rate(
        "replay(), greedy-vs-greedy records", len(greedy), lambda: [replay(r) for r in greedy]
    )
    rate("replay(), random-vs-random records", len(randoms), lambda: [replay(r) for r in randoms])
    print(
        f"targets: replay >= 2,000 deals/s ({'met' if rep >= 2000 else 'MISSED'}),"
        f" greedy simulation >= 300 deals/s ({'met' if sim >= 300 else 'MISSED'})"
    )


if __name__ == "__main__":
    main()
