"""The optional compiled build (issue 30; docs/contributors/compiled.md).

``HATCH_BUILD_HOOK_ENABLE_MYPYC=true`` turns on the mypyc build hook of
pyproject.toml, which compiles the solver and the verifier (the modules its
``include`` names) into C extensions; the default wheel stays pure Python.
The fast tests check the hook is off by default and what the compiled build
needs of the source: a compiled module defines no class (its result classes
live in modules that stay Python). The soak test builds the compiled wheel from a copy of
the checkout and runs the default run of the suite on the compiled modules
the build leaves in that copy: the compiled build must pass it whole.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from test_wheel import _clean_env, _run

ROOT = Path(__file__).resolve().parent.parent
HOOK = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"][
    "wheel"
]["hooks"]["mypyc"]
COMPILED = [path.removesuffix(".py").replace("/", ".") for path in HOOK["include"]]
"""The modules the compiled build compiles."""


@pytest.mark.parametrize("path", HOOK["include"])
def test_a_compiled_module_defines_no_class(path):
    """mypyc would compile a class there as well, declaring its fields as their runtime
    types (``tuple[str, ...]`` as ``tuple``): Result.from_dict and the API's schemas, which
    read those types, need the result classes in modules that stay Python (knock_results,
    meld_results)."""
    tree = ast.parse((ROOT / path).read_text())
    assert [node.name for node in tree.body if isinstance(node, ast.ClassDef)] == []


def test_the_compiled_build_is_off_by_default():
    assert HOOK["enable-by-default"] is False
    assert set(COMPILED) == {
        "scorekeeper.melds",
        "scorekeeper.arrangements",
        "scorekeeper.packings",
        "scorekeeper.layoffs",
        "scorekeeper.knocker_choice",
        "scorekeeper.showdown_scoring",
        "scorekeeper.knock",
    }


@pytest.mark.soak
def test_the_compiled_build_passes_the_whole_suite(tmp_path):
    """The compiled wheel, built from a copy of the checkout, holds the compiled modules;
    the build leaves them beside the sources of the copy (mypyc builds in place), where
    the default run (the whole suite but the soak tier) then runs on them, the rest of the
    copy being the checkout as it is."""
    copy, dist = tmp_path / "checkout", tmp_path / "dist"
    shutil.copytree(
        ROOT,
        copy,
        symlinks=True,
        ignore=shutil.ignore_patterns(".git", ".venv", "node_modules", "__pycache__", "*.so"),
    )
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(dist), str(copy)],
        capture_output=True,
        text=True,
        timeout=1800,
        env={**_clean_env(), "HATCH_BUILD_HOOK_ENABLE_MYPYC": "true"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (copy / "tests" / "node_modules").symlink_to(ROOT / "tests" / "node_modules")  # browsers'
    (wheel,) = dist.glob("scorekeeper-*.whl")
    assert "-cp3" in wheel.name and "none-any" not in wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    for path in HOOK["include"]:
        stem = path.removesuffix(".py")
        assert any(n.startswith(stem + ".") and n.endswith(".so") for n in names), path
    where = _run(
        sys.executable,
        "-c",
        "import scorekeeper.knock as k; print(k.__file__)",
        cwd=copy,
        env=_clean_env(),
    )
    assert where.strip().endswith(".so"), where
    # the copy has no .git: the bench's reference core (tests/test_fast_paths.py) is read
    # with git show from the checkout's repository
    git_dir = _run("git", "-C", str(ROOT), "rev-parse", "--absolute-git-dir").strip()
    done = subprocess.run(
        # mypy reads the sources, the same in the copy: tests/test_layout.py runs it already
        [
            *(sys.executable, "-m", "pytest", "-n", "3", "--dist", "loadscope"),
            *("--no-loadscope-reorder", "-q", "-p", "no:cacheprovider"),
            "--deselect=tests/test_layout.py::test_mypy_strict_finds_no_type_errors",
            # a compiled module's doctests: pytest would collect them from the .py beside the
            # .so it imports (an "import file mismatch"); the pure run has them
            *(f"--ignore={path}" for path in HOOK["include"]),
        ],
        capture_output=True,
        text=True,
        timeout=3600,
        cwd=copy,
        env={**_clean_env(), "GIT_DIR": git_dir},
    )
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-5000:]
