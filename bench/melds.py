"""Throughput of the rules core on one core: deadwood() and verify_knock().

Prints hands per second for deadwood() over random 10-card hands and over
meld-dense hands (10 cards from 3 suits x 7 consecutive ranks), side by side
with OpenSpiel's C++ solver (``pyspiel`` ``GinRummyUtils.min_deadwood``) on
the same hands, and verifications per second for verify_knock() over random
legal knocks. Targets (issue 12): deadwood() faster than OpenSpiel on both
kinds of hands, 30,000 verifications/s.

Both are also timed against the previous implementation, read from git by
``bench/reference.py`` (the core before the speed work of issue 12), in the
same rounds: on a loaded machine the absolute figures move with the load, the
ratios much less. The reference must give the same answers (deadwood for
every hand, the whole result of every verification).

OpenSpiel runs in the bench's own venv, ``bench/.venv-openspiel`` (created
with ``pip install open_spiel`` when missing; ``--openspiel-python`` names
another interpreter that has it, ``--no-openspiel`` skips it), in a child
process (``bench/openspiel_deadwood.py``) that is given the hands once. The
sets are timed a slice at a time (``--slice`` hands, a tenth as many knocks):
each side runs the slice in turn, ``--rounds`` times, and a side's figure is
the sum over slices of its best time on each, so the load of a shared machine
(which changes from second to second) falls on all sides alike; times are CPU
time (``process_time``), so waiting for a busy CPU counts on no side. Both
must find the same deadwood for every hand. Run: ``.venv/bin/python
bench/melds.py [--count N]``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

from scorekeeper import deadwood, verify_knock
from scorekeeper.cards import DECK

HERE = Path(__file__).resolve().parent
OPENSPIEL_VENV = HERE / ".venv-openspiel"


def dense_hand(rng: random.Random, size: int = 10) -> tuple:
    """``size`` cards from 3 random suits x 7 consecutive ranks."""
    suits = rng.sample(range(4), 3)
    low = rng.randrange(0, 7)
    pool = [DECK[s * 13 + r] for s in suits for r in range(low, low + 7)]
    return tuple(rng.sample(pool, size))


def legal_knocks(rng: random.Random, count: int) -> list[tuple[tuple, tuple]]:
    """``count`` (knocker, defender) pairs whose knocker may knock (deadwood <= 10)."""
    knocks = []
    while len(knocks) < count:
        if rng.random() < 0.5:
            knocker = dense_hand(rng)
            rest = [c for c in DECK if c not in knocker]
            defender = tuple(rng.sample(rest, 10))
        else:
            cards = rng.sample(DECK, 20)
            knocker, defender = tuple(cards[:10]), tuple(cards[10:])
        if deadwood(knocker) <= 10:
            knocks.append((knocker, defender))
    return knocks


def timed(run) -> float:
    """CPU seconds of ``run()`` (process time: waiting for a busy CPU is not counted)."""
    start = time.process_time()
    run()
    return time.process_time() - start


def sliced_best(sides: list, items: list, size: int, rounds: int) -> list[float]:
    """Each side's sum over slices of its best time (``side(items, start, stop)``: CPU seconds)."""
    totals = [0.0] * len(sides)
    for start in range(0, len(items), size):
        stop = min(start + size, len(items))
        best = [float("inf")] * len(sides)
        for round_ in range(rounds):
            # every other round in reverse order: no side always runs first (on colder caches)
            for i in range(len(sides)) if round_ % 2 == 0 else reversed(range(len(sides))):
                best[i] = min(best[i], sides[i](items, start, stop))
        totals = [total + b for total, b in zip(totals, best, strict=True)]
    return totals


def each_hand(solve):
    """A side for :func:`sliced_best`: ``solve(hand)`` for each hand of a slice, timed."""

    def side(hands: list, start: int, stop: int) -> float:
        part = hands[start:stop]
        return timed(lambda: [solve(hand) for hand in part])

    return side


def each_knock(verify):
    """A side for :func:`sliced_best`: ``verify(knocker, defender)`` for each knock of a slice."""

    def side(knocks: list, start: int, stop: int) -> float:
        part = knocks[start:stop]
        return timed(lambda: [verify(k, d) for k, d in part])

    return side


def rate(label: str, unit: str, count: int, seconds: float) -> str:
    return f"{label:<36} {count / seconds:>12,.0f} {unit}/s  ({count:,} in {seconds:.2f} s)"


def openspiel_python(given: str | None) -> str:
    """The interpreter that runs OpenSpiel: ``given``, else the bench's venv (made if missing)."""
    if given:
        return given
    python = OPENSPIEL_VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {OPENSPIEL_VENV} with open_spiel (once)", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(OPENSPIEL_VENV)], check=True)
        subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "-q",
                "--disable-pip-version-check",
                "open_spiel",
            ],
            check=True,
        )
    return str(python)


class OpenSpiel:
    """The child process that solves and times hands with OpenSpiel."""

    def __init__(self, python: str, sets: dict[str, list[tuple]]):
        self.process = subprocess.Popen(
            [python, str(HERE / "openspiel_deadwood.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self._send(
            {name: [[c.code for c in hand] for hand in hands] for name, hands in sets.items()}
        )
        self.answers: dict[str, list[int]] = self._receive()

    def _send(self, message) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def _receive(self):
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit("the OpenSpiel process ended early (see its error above)")
        return json.loads(line)

    def seconds(self, name: str, start: int, stop: int) -> float:
        """CPU seconds of OpenSpiel on hands ``start:stop`` of the set ``name``."""
        self._send([name, start, stop])
        return self._receive()["seconds"]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def main() -> None:
    # here, not at the top: bench/http.py loads this file for legal_knocks() alone
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from reference import knock as previous_knock
    from reference import melds as previous_melds

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rounds", type=int, default=5, help="timing rounds per slice; each side's best is kept"
    )
    parser.add_argument(
        "--slice",
        type=int,
        default=1000,
        help="hands timed at a time, in turn by each side (knocks: a tenth)",
    )
    parser.add_argument(
        "--openspiel-python",
        default=None,
        help="a Python with open_spiel (default: bench/.venv-openspiel)",
    )
    parser.add_argument("--no-openspiel", action="store_true", help="skip the comparison")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sets = {
        "random 10-card hands": [tuple(rng.sample(DECK, 10)) for _ in range(args.count)],
        "meld-dense hands": [dense_hand(rng) for _ in range(args.count)],
    }
    knocks = legal_knocks(rng, max(args.count // 10, 1000))

    for name, hands in sets.items():
        if [deadwood(h) for h in hands] != [previous_melds.deadwood(h) for h in hands]:
            raise SystemExit(f"{name}: deadwood() and the previous implementation disagree")
    if any(
        verify_knock(k, d).to_dict() != previous_knock.verify_knock(k, d).to_dict()
        for k, d in knocks
    ):
        raise SystemExit("verify_knock() and the previous implementation disagree")
    spiel = None
    if not args.no_openspiel:
        spiel = OpenSpiel(openspiel_python(args.openspiel_python), sets)
        for name, hands in sets.items():
            ours = [deadwood(h) for h in hands]
            if ours != spiel.answers[name]:
                wrong = next(
                    i
                    for i, (a, b) in enumerate(zip(ours, spiel.answers[name], strict=True))
                    if a != b
                )
                raise SystemExit(
                    f"{name}: deadwood() and OpenSpiel disagree on hand {wrong}:"
                    f" {' '.join(c.code for c in hands[wrong])}"
                )
    try:
        for name, hands in sets.items():
            sides = [each_hand(deadwood), each_hand(previous_melds.deadwood)]
            if spiel is not None:
                sides.append(lambda _, start, stop, name=name: spiel.seconds(name, start, stop))
            mine, before, *theirs = sliced_best(sides, hands, args.slice, args.rounds)
            print(rate(f"deadwood(), {name}", "hands", len(hands), mine))
            print(rate("  previous deadwood() (reference)", "hands", len(hands), before))
            if theirs:
                print(rate("  OpenSpiel min_deadwood (C++)", "hands", len(hands), theirs[0]))
            print(
                f"  ratio deadwood() / previous: {before / mine:.2f}x"
                + (f", / OpenSpiel: {theirs[0] / mine:.2f}x" if theirs else "")
            )
    finally:
        if spiel is not None:
            spiel.close()
    mine, before = sliced_best(
        [each_knock(verify_knock), each_knock(previous_knock.verify_knock)],
        knocks,
        max(args.slice // 10, 1),
        args.rounds,
    )
    print(rate("verify_knock(), random legal knocks", "verifications", len(knocks), mine))
    print(rate("  previous verify_knock() (reference)", "verifications", len(knocks), before))
    print(f"  ratio verify_knock() / previous: {before / mine:.2f}x")


if __name__ == "__main__":
    main()
