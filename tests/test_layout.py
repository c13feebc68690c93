"""The architecture's walls: import-linter's contracts hold, and every core module is under them.

And the types agree: ``mypy --strict scorekeeper api`` finds nothing, with no module checked
less (no override in ``[tool.mypy]`` turns a strict option off); flask-smorest and flask-babel,
which ship no types, are typed by the stubs in ``stubs/`` (stubtest holds them to the packages
installed), flask-babel read through ``api.i18n`` alone; a stored sheet declares its
attributes (a typo is a type error, not an ``Any`` forwarded at run time). Its caches in
``.mypy_cache`` keep a second run quick. Every package they import is declared in
pyproject.toml.
No module of ``scorekeeper/`` or ``api/`` is over 400 lines, no function of ``scorekeeper/``
over 60.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from importlib.metadata import packages_distributions
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT = "from importlinter.cli import lint_imports_command; lint_imports_command()"


def test_import_contracts_hold():
    # -c puts the checkout first on sys.path: the code under test, not another install
    run = subprocess.run([sys.executable, "-c", LINT], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def mypy(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m mypy --strict *args`` in the checkout (the stubs in ``stubs/`` on its path)."""
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def test_mypy_strict_finds_no_type_errors():
    run = mypy("scorekeeper", "api")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout


RELAXED: dict[str, set[object]] = {
    "strict": {False},
    "warn_unused_configs": {False},
    "disallow_any_generics": {False},
    "disallow_subclassing_any": {False},
    "disallow_untyped_calls": {False},
    "disallow_untyped_defs": {False},
    "disallow_incomplete_defs": {False},
    "check_untyped_defs": {False},
    "disallow_untyped_decorators": {False},
    "warn_redundant_casts": {False},
    "warn_unused_ignores": {False},
    "warn_return_any": {False},
    "no_implicit_reexport": {False},
    "implicit_reexport": {True},
    "strict_equality": {False},
    "extra_checks": {False},
    "ignore_errors": {True},
    "ignore_missing_imports": {True},
    "follow_imports": {"skip", "silent"},
}
"""A mypy option's values that check less than ``--strict`` (or nothing: errors ignored, a
package read as ``Any``)."""


def relaxations(mypy_config: dict[str, Any]) -> list[str]:
    """Each option of ``[tool.mypy]`` or of one of its overrides that checks less than
    ``--strict``, as ``modules: option = value``."""
    sections = [(["*"], mypy_config)]
    for override in mypy_config.get("overrides", []):
        modules = override["module"]
        sections.append((modules if isinstance(modules, list) else [modules], override))
    found = []
    for modules, section in sections:
        for option, value in section.items():
            loose = isinstance(value, bool | str) and value in RELAXED.get(option, set())
            if loose or option == "disable_error_code":
                found.append(f"{', '.join(modules)}: {option} = {value!r}")
    return found


def test_no_module_is_checked_less_than_strict():
    # mypy's per-module options win over the command line's --strict: none may turn one off
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config.get("strict") is True  # a plain `mypy` is --strict too
    assert relaxations(config) == []


STUBTEST = ("--ignore-missing-stub", "--mypy-config-file", "pyproject.toml")
"""stubtest's options: a name the stubs leave out is fine (not used here), one they give is
checked against the package as installed."""


@pytest.mark.slow  # stubtest imports both packages and type-checks the stubs: ~20 s
def test_the_stubs_say_what_the_installed_packages_do():
    # stubs/: what we use of flask-smorest and flask-babel, each name and signature as installed
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "flask_smorest", "flask_babel", *STUBTEST],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout


def test_only_the_i18n_module_imports_flask_babel():
    # the rest of api/ takes the typed gettext functions from api.i18n, the one seam
    importers = {
        str(path.relative_to(ROOT))
        for path in [*(ROOT / "api").rglob("*.py"), *(ROOT / "scorekeeper").rglob("*.py")]
        if any(name.split(".")[0] == "flask_babel" for name in _absolute_imports(path))
    }
    assert importers == {"api/i18n.py"}


def _absolute_imports(path: Path) -> Iterator[str]:
    """The modules ``path`` imports by their absolute names (``import x``, ``from x import``)."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


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
        for name in _absolute_imports(path):
            top = name.split(".")[0]
            if top in sys.stdlib_module_names or top in ("scorekeeper", "api"):
                continue
            if not {_distribution(d) for d in providers.get(top, [top])} & declared:
                undeclared.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    assert undeclared == {}


MAX_LINES = 400
"""The most lines of a module of ours, the core's, the store's or the web layer's (the
developers' guide; issue 28: sizes a newcomer can hold)."""


def _module_lines() -> dict[str, int]:
    return {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for package in ("scorekeeper", "api")
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def test_no_module_grows_past_400_lines():
    over = {name: n for name, n in _module_lines().items() if n > MAX_LINES}
    assert over == {}, f"over {MAX_LINES} lines: split by idea {over}"


LONGEST = 60
"""The most lines a function of ``scorekeeper/`` may take (issue 28: a newcomer can hold it)."""


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
    too_long = {name: size for name, size in found.items() if size > LONGEST}
    assert too_long == {}, f"longer than {LONGEST} lines, split by idea: {too_long}"
