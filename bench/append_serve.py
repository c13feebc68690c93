"""Server CPU per appended hand through ``scorekeeper serve``, two checkouts side by side.

Starts ``scorekeeper serve`` (SQLite, 2 workers) from each checkout (its
folder is the server's ``PYTHONPATH``), both at once, then runs
``bench/http.py``'s append clients against one, then the other, in short
phases (``--seconds``), ``--rounds`` times, who goes first alternating: on a
shared machine both see the same load. A phase's figure is the CPU time of
the server's process group (gunicorn's master and workers, from ``/proc``:
``bench/http.py``'s count) over the hands it stored. Printed: each phase's
pair, each checkout's mean and median, and the ratio of the means and the
median of the paired phases' ratios.

Run: ``.venv/bin/python bench/append_serve.py OTHER_CHECKOUT [--rounds 20] [--seconds 2]``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import statistics
import sys
import tempfile
from typing import Any

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != BENCH]  # http.py: see there
HERE = os.path.dirname(BENCH)


def bench_http() -> Any:
    """``bench/http.py`` as a module (its name would shadow the standard library's)."""
    spec = importlib.util.spec_from_file_location("bench_http", os.path.join(BENCH, "http.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_http"] = module  # its clients run in a pool: pickled by this name
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("other", help="the checkout to compare with")
    parser.add_argument("--rounds", type=int, default=20, help="phases per checkout")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of a phase")
    args = parser.parse_args()
    http = bench_http()
    from api.limits import NO_LIMITS_ENV

    os.environ.update(NO_LIMITS_ENV)
    checkouts = [HERE, os.path.abspath(args.other)]
    servers = []
    try:
        for checkout in checkouts:
            os.environ["PYTHONPATH"] = checkout
            folder = tempfile.mkdtemp()
            servers.append(http.spawn(os.path.join(folder, "bench.db"), workers=2))
        spent: list[list[float]] = [[], []]
        for turn in range(args.rounds):
            for k in (0, 1) if turn % 2 == 0 else (1, 0):
                process, url = servers[k]
                before = http.server_cpu(process.pid)
                with contextlib.redirect_stdout(io.StringIO()):  # run_phase's own line
                    results, _ = http.run_phase(
                        "append", http.append_client, url, 2, args.seconds, False
                    )
                stored = sum(len(result["latencies"]) for result in results)
                spent[k].append((http.server_cpu(process.pid) - before) * 1000 / stored)
            print(f"round {turn}: {spent[0][-1]:.3f} ms  {spent[1][-1]:.3f} ms", flush=True)
    finally:
        for process, _ in servers:
            http.stop(process)
    for checkout, figures in zip(checkouts, spent, strict=True):
        mean, median = statistics.mean(figures), statistics.median(figures)
        print(f"{checkout}: {mean:.3f} ms server CPU per append (median {median:.3f})")
    ratios = [b / a for a, b in zip(*spent, strict=True)]
    print(
        f"second / first: {statistics.mean(spent[1]) / statistics.mean(spent[0]):.3f} (means),"
        f" {statistics.median(ratios):.3f} (median of paired phases)"
    )


if __name__ == "__main__":
    main()
