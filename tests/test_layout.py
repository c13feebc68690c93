"""The architecture's walls: import-linter's contracts hold, and every core module is under them.

And the types agree: mypy (``[tool.mypy]`` in pyproject.toml) finds nothing in ``scorekeeper/``
and ``api/``, and ``mypy --strict`` nothing in the whole of ``scorekeeper/`` (the core, the
store and the CLI); a stored sheet declares its attributes (a typo is a type error, not an
``Any`` forwarded at run time). Its cache in ``.mypy_cache`` keeps a second run quick.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT = "from importlinter.cli import lint_imports_command; lint_imports_command()"


def test_import_contracts_hold():
    # -c puts the checkout first on sys.path: the code under test, not another install
    run = subprocess.run([sys.executable, "-c", LINT], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_mypy_finds_no_type_errors():
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "scorekeeper", "api"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout


def mypy(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m mypy *args`` in the checkout."""
    return subprocess.run(
        [sys.executable, "-m", "mypy", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_mypy_strict_finds_no_type_errors_in_the_package():
    run = mypy("--strict", "scorekeeper")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout


def test_a_stored_sheet_forwards_no_attribute(tmp_path):
    # a reader's typo on the store-to-web seam is caught before it runs
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from scorekeeper.gamesheet import GameSheet, StoredHand\n"
        "\n"
        "\n"
        "def totals(sheet: GameSheet, hand: StoredHand) -> object:\n"
        "    return sheet.totalz, hand.sits_out, sheet.rules.target, hand.record.n\n"
    )
    run = mypy("--strict", str(probe))
    assert run.returncode == 1, run.stdout + run.stderr
    assert '"GameSheet" has no attribute "totalz"' in run.stdout
    assert '"StoredHand" has no attribute "sits_out"' in run.stdout
    assert "Found 2 errors" in run.stdout


def test_every_core_module_is_bound_by_the_purity_contract():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    pure = next(c for c in config["contracts"] if c["name"].startswith("The rules core is pure"))
    modules = {f"scorekeeper.{p.stem}" for p in (ROOT / "scorekeeper").glob("*.py")}
    modules -= {"scorekeeper.__init__", "scorekeeper.cli"}
    assert modules == set(pure["source_modules"])
