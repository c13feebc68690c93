"""Throughput of the rules core on one core: deadwood() and verify_knock().

Prints hands per second for deadwood() over random 10-card hands and over
meld-dense hands (10 cards from 3 suits x 7 consecutive ranks), side by side
with OpenSpiel's C++ solver (``pyspiel`` ``GinRummyUtils.min_deadwood``) on
the same hands, and verifications per second for verify_knock() over random
legal knocks. Targets (issue 12): deadwood() faster than OpenSpiel on both
kinds of hands, 30,000 verifications/s.

Both are also timed against the previous implementation, frozen in
``bench/reference/`` (the core before the speed work of issue 12), in the
same rounds: on a loaded machine the absolute figures move with the load, the
ratios much less. The reference must give the same answers (deadwood for
every hand, the whole result of every verification).

OpenSpiel runs in the bench's own venv, ``bench/.venv-openspiel`` (created
with ``pip install open_spiel`` when missing; ``--openspiel-python`` names
another interpreter that has it, ``--no-openspiel`` skips it), in a child
process (``bench/openspiel_deadwood.py``) that is given the hands once. Each
round times our solver and then OpenSpiel's on one set of hands, alternately,
and the best of ``--rounds`` rounds is reported for each side, so the load of
a shared machine falls on both alike; times are CPU time (``process_time``),
so waiting for a busy CPU counts on neither side. Both must find the same deadwood for
every hand. Run: ``.venv/bin/python bench/melds.py [--count N]``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

from reference.knock import verify_knock as previous_verify_knock
from reference.melds import deadwood as previous_deadwood

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
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "open_spiel"], check=True)
    return str(python)


class OpenSpiel:
    """The child process that solves and times hands with OpenSpiel."""

    def __init__(self, python: str, sets: dict[str, list[tuple]]):
        self.process = subprocess.Popen([python, str(HERE / "openspiel_deadwood.py")],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self._send({name: [[c.code for c in hand] for hand in hands]
                    for name, hands in sets.items()})
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

    def seconds(self, name: str) -> float:
        self._send(name)
        return self._receive()["seconds"]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5,
                        help="alternating timing rounds; the best of each side is shown")
    parser.add_argument("--openspiel-python", default=None,
                        help="a Python with open_spiel (default: bench/.venv-openspiel)")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the comparison")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sets = {
        "random 10-card hands": [tuple(rng.sample(DECK, 10)) for _ in range(args.count)],
        "meld-dense hands": [dense_hand(rng) for _ in range(args.count)],
    }
    knocks = legal_knocks(rng, max(args.count // 10, 1000))

    for name, hands in sets.items():
        if [deadwood(h) for h in hands] != [previous_deadwood(h) for h in hands]:
            raise SystemExit(f"{name}: deadwood() and the previous implementation disagree")
    if any(verify_knock(k, d).to_dict() != previous_verify_knock(k, d).to_dict()
           for k, d in knocks):
        raise SystemExit("verify_knock() and the previous implementation disagree")
    spiel = None
    if not args.no_openspiel:
        spiel = OpenSpiel(openspiel_python(args.openspiel_python), sets)
        for name, hands in sets.items():
            ours = [deadwood(h) for h in hands]
            if ours != spiel.answers[name]:
                wrong = next(i for i, (a, b) in enumerate(zip(ours, spiel.answers[name],
                                                              strict=True)) if a != b)
                raise SystemExit(f"{name}: deadwood() and OpenSpiel disagree on hand {wrong}:"
                                 f" {' '.join(c.code for c in hands[wrong])}")
    try:
        for name, hands in sets.items():
            mine = before = theirs = float("inf")
            for _ in range(args.rounds):
                mine = min(mine, timed(lambda hands=hands: [deadwood(h) for h in hands]))
                before = min(before, timed(lambda hands=hands: [previous_deadwood(h)
                                                                for h in hands]))
                if spiel is not None:
                    theirs = min(theirs, spiel.seconds(name))
            print(rate(f"deadwood(), {name}", "hands", len(hands), mine))
            print(rate("  previous deadwood() (reference)", "hands", len(hands), before))
            if spiel is not None:
                print(rate("  OpenSpiel min_deadwood (C++)", "hands", len(hands), theirs))
            print(f"  ratio deadwood() / previous: {before / mine:.2f}x"
                  + (f", / OpenSpiel: {theirs / mine:.2f}x" if spiel is not None else ""))
    finally:
        if spiel is not None:
            spiel.close()
    mine = before = float("inf")
    for _ in range(args.rounds):
        mine = min(mine, timed(lambda: [verify_knock(k, d) for k, d in knocks]))
        before = min(before, timed(lambda: [previous_verify_knock(k, d) for k, d in knocks]))
    print(rate("verify_knock(), random legal knocks", "verifications", len(knocks), mine))
    print(rate("  previous verify_knock() (reference)", "verifications", len(knocks), before))
    print(f"  ratio verify_knock() / previous: {before / mine:.2f}x")

if __name__ == "__main__":
    main()
