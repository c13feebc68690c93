"""verify_knock() side by side with the core of commit 0607bed (issue 30, item 4).

The baseline is ``scorekeeper``'s core modules (cards, errors, results, rules,
melds, knock) as they were at :data:`BASELINE`, read with ``git show`` into a
temporary package (``core_0607bed``) and imported from there: nothing is
copied into the tree, and the baseline runs as it ran then, its own cards,
results and tables. Each side verifies the same seeded random legal knocks
(``legal_knocks`` of bench/melds.py: half random deals, half meld-dense
knockers), each given its own cards, and every result must be the same JSON
(``to_dict()``) as the baseline's, else the bench stops.

The sides are

* the baseline (0607bed, pure Python);
* this checkout's core in pure Python: the ``scorekeeper`` imported, or, when
  the one imported is the compiled build, this checkout's source files loaded
  into a second temporary package (``core_pure``);
* the compiled build (mypyc), when the ``scorekeeper`` imported is one
  (run this script with the interpreter of a venv that has it installed,
  docs/contributors/compiled.md).

Timing is that of bench/melds.py: the knocks are timed a slice at a time,
each side in turn, ``--rounds`` times, and a side's figure is the sum over
slices of its best CPU time, so a shared machine's load falls on all sides
alike; the ratios are the figures to quote. Run from the checkout:
``PYTHONPATH=. .venv/bin/python bench/core.py [--count N]`` (pure), or
``/tmp/mypyc-venv/bin/python bench/core.py`` (compiled, see the docs).
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import subprocess
import sys
import tempfile
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from melds import each_knock, legal_knocks, rate, sliced_best  # noqa: E402

import scorekeeper  # noqa: E402
from scorekeeper import knock as imported_knock  # noqa: E402

BASELINE = "0607bed"
"""The commit whose core is the baseline (main when issue 30 was filed)."""

CORE = ("errors", "cards", "results", "rules", "melds", "knock")
"""The modules verify_knock() ran on at :data:`BASELINE`; they import nothing else of the
package."""

CORE_NOW = (*CORE, "meld_results", "knock_results", "packings")
"""The modules verify_knock() runs on in this checkout (the results moved out of melds and
knock, to stay Python in the compiled build; the knocker's packings found apart)."""


def load_core(name: str, folder: Path, read, modules: tuple[str, ...]) -> types.ModuleType:
    """The core ``modules`` (``read(module)`` gives each one's source) as the package ``name``."""
    package = folder / name
    package.mkdir()
    (package / "__init__.py").write_text('"""A copy of scorekeeper\'s core for bench/core.py."""\n')
    for module in modules:
        (package / f"{module}.py").write_text(read(module))
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    return importlib.import_module(f"{name}.knock")


def at_baseline(module: str) -> str:
    """``scorekeeper/<module>.py`` at :data:`BASELINE`, from git."""
    shown = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{BASELINE}:scorekeeper/{module}.py"],
        capture_output=True,
        text=True,
        check=False,
    )
    if shown.returncode:
        raise SystemExit(f"commit {BASELINE} is not in this checkout: {shown.stderr.strip()}")
    return shown.stdout


def in_checkout(module: str) -> str:
    """``scorekeeper/<module>.py`` of this checkout."""
    return (ROOT / "scorekeeper" / f"{module}.py").read_text()


def is_compiled(module: types.ModuleType) -> bool:
    """Whether a module is an extension (mypyc's build) rather than Python source."""
    return not str(module.__file__).endswith(".py")


def own_cards(knock: types.ModuleType, knocks: list) -> list:
    """The knocks as tuples of that side's own card objects (each side reads its own)."""
    cards = sys.modules[knock.__name__.rsplit(".", 1)[0] + ".cards"]
    return [
        (
            tuple(cards.DECK[c.index] for c in knocker),
            tuple(cards.DECK[c.index] for c in defender),
        )
        for knocker, defender in knocks
    ]


def own_side(knock: types.ModuleType, own: list):
    """A side for ``sliced_best``: that side's verify_knock() on its own copy of the slice."""
    run = each_knock(knock.verify_knock)
    return lambda _knocks, start, stop: run(own, start, stop)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000, help="random legal knocks")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rounds", type=int, default=5, help="timing rounds per slice; each side's best is kept"
    )
    parser.add_argument("--slice", type=int, default=200, help="knocks timed at a time")
    args = parser.parse_args()
    knocks = legal_knocks(random.Random(args.seed), args.count)

    with tempfile.TemporaryDirectory(prefix="bench-core-") as folder:
        sides = {
            f"{BASELINE} (baseline, pure Python)": load_core(
                "core_0607bed", Path(folder), at_baseline, CORE
            )
        }
        if is_compiled(imported_knock):
            sides["this checkout, pure Python"] = load_core(
                "core_pure", Path(folder), in_checkout, CORE_NOW
            )
            sides["this checkout, compiled (mypyc)"] = imported_knock
        else:
            sides["this checkout, pure Python"] = imported_knock
        inputs = {label: own_cards(knock, knocks) for label, knock in sides.items()}
        (baseline_label, baseline), *others = sides.items()
        expected = [baseline.verify_knock(k, d).to_dict() for k, d in inputs[baseline_label]]
        for label, knock in others:
            answers = [knock.verify_knock(k, d).to_dict() for k, d in inputs[label]]
            if answers != expected:
                pairs = enumerate(zip(answers, expected, strict=True))
                wrong = next(i for i, (a, b) in pairs if a != b)
                raise SystemExit(f"{label} and {BASELINE} disagree on knock {wrong}")
        seconds = sliced_best(
            [own_side(knock, inputs[label]) for label, knock in sides.items()],
            knocks,
            args.slice,
            args.rounds,
        )
    print(
        f"scorekeeper from {Path(scorekeeper.__file__).parent}; {os.cpu_count()} CPUs,"
        f" load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(f"{len(knocks):,} random legal knocks (seed {args.seed}), answers identical on all sides")
    base = seconds[0]
    for label, spent in zip(sides, seconds, strict=True):
        print(rate(f"verify_knock(), {label}", "knocks", len(knocks), spent))
        if spent is not base:
            print(f"  ratio to {BASELINE}: {base / spent:.2f}x")


if __name__ == "__main__":
    main()
