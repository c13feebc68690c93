"""The architecture's walls: import-linter's contracts hold, and every core module is under them.

And the types agree: mypy (``[tool.mypy]`` in pyproject.toml) finds nothing in ``scorekeeper/``
and ``api/``, the web layer checked with ``check_untyped_defs`` and ``disallow_any_generics``
(its override), and ``mypy --strict`` nothing in the whole of ``scorekeeper/`` (the core, the
store and the CLI); a stored sheet declares its attributes (a typo is a type error, not an
``Any`` forwarded at run time). Its caches in ``.mypy_cache`` keep a second run quick. Every
package they import is declared in pyproject.toml. No function of ``scorekeeper/`` takes
more than 60 lines but those listed, and those do not grow.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT = "from importlinter.cli import lint_imports_command; lint_imports_command()"


def test_import_contracts_hold():
    # -c puts the checkout first on sys.path: the code under test, not another install
    run = subprocess.run([sys.executable, "-c", LINT], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


@pytest.mark.slow  # type-checks the whole tree: tens of seconds after a change
def test_mypy_finds_no_type_errors():
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "scorekeeper", "api"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout


def test_mypy_checks_the_web_layer_with_its_two_flags():
    # the run above reads them from here: function bodies checked, generics given arguments
    overrides = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["overrides"]
    web = next(o for o in overrides if o["module"] == ["api", "api.*"])
    assert web["check_untyped_defs"] is True and web["disallow_any_generics"] is True


def mypy(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m mypy --strict *args`` in the checkout, with a cache of its own (--strict's
    options would invalidate the default run's every time)."""
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", ".mypy_cache/strict", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


@pytest.mark.slow  # type-checks the whole tree: tens of seconds after a change
def test_mypy_strict_finds_no_type_errors_in_the_package():
    run = mypy("scorekeeper")
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
    run = mypy(str(probe))
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


def _distribution(name: str) -> str:
    """A distribution's name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_package_the_code_imports_is_declared():
    """A package imported by ``scorekeeper/`` or ``api/`` is a dependency (or an extra's),
    not something another dependency happens to bring along."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = [*project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        requirements += extra
    declared = {
        _distribution(re.split(r"[\[<>=!~; ]", line, maxsplit=1)[0]) for line in requirements
    }
    providers = packages_distributions()
    undeclared: dict[str, set[str]] = {}
    for path in sorted([*(ROOT / "scorekeeper").rglob("*.py"), *(ROOT / "api").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top in ("scorekeeper", "api"):
                    continue
                if not {_distribution(d) for d in providers.get(top, [top])} & declared:
                    undeclared.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    assert undeclared == {}


LONGEST = 60
"""The most lines a function of ``scorekeeper/`` may take (issue 28: a newcomer can hold it)."""

LONG_FUNCTIONS = {
    "scorekeeper/analysis.py:review_knock": 62,
    "scorekeeper/cards.py:parse_cards": 81,
    "scorekeeper/cli.py:replay_command": 96,
    "scorekeeper/cli.py:serve": 94,
    "scorekeeper/cli.py:simulate_command": 69,
    "scorekeeper/engine.py:Deal._discard_phase": 91,
    "scorekeeper/engine.py:Deal._draw_phase": 69,
    "scorekeeper/events.py:standings": 64,
    "scorekeeper/knock.py:verify_knock": 128,
    "scorekeeper/records.py:load_deal": 115,
    "scorekeeper/records.py:play_steps": 61,
    "scorekeeper/store/events.py:create_event": 72,
    "scorekeeper/store/events.py:end_match": 63,
    "scorekeeper/store/sql.py:SqlStore.create_game": 80,
    "scorekeeper/store/sqlite.py:Storage._begin": 62,
    "scorekeeper/store/stats.py:player_stats": 63,
    "scorekeeper/store/stats.py:rematch_tally": 68,
}
"""The functions still longer than :data:`LONGEST`, each with its length: none may grow, and
one shortened to the limit leaves the list (so the list only shrinks)."""


def _function_sizes(path: Path) -> dict[str, int]:
    """Each function of ``path`` (methods and nested functions by their dotted name), with the
    lines it takes from its first decorator to its last line."""
    sizes: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                sizes[prefix + child.name] = (child.end_lineno or first) - first + 1
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")

    visit(ast.parse(path.read_text(), str(path)), "")
    return sizes


def test_no_function_of_the_core_grows_past_sixty_lines():
    found = {
        f"{path.relative_to(ROOT).as_posix()}:{name}": size
        for path in sorted((ROOT / "scorekeeper").rglob("*.py"))
        for name, size in _function_sizes(path).items()
    }
    too_long = {
        name: size
        for name, size in found.items()
        if size > LONGEST and size > LONG_FUNCTIONS.get(name, 0)
    }
    assert too_long == {}, f"longer than {LONGEST} lines (or than listed): {too_long}"
    shortened = {name for name, size in LONG_FUNCTIONS.items() if found.get(name, 0) <= LONGEST}
    assert shortened == set(), f"no longer over {LONGEST} lines: leave LONG_FUNCTIONS {shortened}"
