"""OpenSpiel's C++ minimum-deadwood solver, timed for ``bench/melds.py``.

Runs inside the bench's own venv (the one with ``open_spiel``), never inside
the project's: it imports nothing from scorekeeper. Reads one JSON line on
standard input, ``{"name": [[code, ...], ...], ...}`` (hands as card codes
like ``"Ts"``), converts every hand to OpenSpiel's card ints once, untimed,
and prints ``{"name": [deadwood, ...], ...}``. Then for each ``[name, start,
stop]`` read on a later line it times ``GinRummyUtils.min_deadwood`` over
those hands of that set and prints ``{"seconds": s}`` (CPU time, like the
parent): the parent alternates these runs with its own, a slice at a time,
so the machine's load falls on all sides alike.
"""

from __future__ import annotations

import json
import sys
import time

import pyspiel


def main() -> None:
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    card_int = {utils.card_string(i): i for i in range(52)}
    sets = {
        name: [[card_int[code] for code in hand] for hand in hands]
        for name, hands in json.loads(sys.stdin.readline()).items()
    }
    solve = utils.min_deadwood
    print(
        json.dumps({name: [solve(hand) for hand in hands] for name, hands in sets.items()}),
        flush=True,
    )
    for line in sys.stdin:
        name, first, stop = json.loads(line)
        hands = sets[name][first:stop]
        start = time.process_time()
        [solve(hand) for hand in hands]
        print(json.dumps({"seconds": time.process_time() - start}), flush=True)


if __name__ == "__main__":
    main()
