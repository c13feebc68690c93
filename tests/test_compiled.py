"""The optional compiled build (issue 30; docs/contributors/compiled.md).

``HATCH_BUILD_HOOK_ENABLE_MYPYC=true`` turns on the mypyc build hook of
pyproject.toml, which compiles the solver and the verifier (the modules its
``include`` names) into C extensions; the default wheel stays pure Python.
The fast tests check the hook is off by default and what the compiled build
needs of the source: a compiled module defines no class (its result classes
live in modules that stay Python). The soak test builds the compiled wheel from a copy of
the checkout, installs it into a fresh venv, and runs the fast tier of the
suite against it: the compiled build must pass it whole.
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
from test_wheel import SOURCES, _clean_env, _run

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
    assert set(COMPILED) == {"scorekeeper.melds", "scorekeeper.knock"}


@pytest.mark.soak
def test_the_compiled_build_passes_the_fast_tier(tmp_path):
    source, dist, home = tmp_path / "source", tmp_path / "dist", tmp_path / "venv"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(ROOT / name, source / name)
    env = {**_clean_env(), "HATCH_BUILD_HOOK_ENABLE_MYPYC": "true"}
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(dist), str(source)],
        capture_output=True,
        text=True,
        timeout=1800,
        env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = dist.glob("scorekeeper-*.whl")
    assert "-cp3" in wheel.name and "none-any" not in wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    for name in COMPILED:
        stem = name.replace(".", "/")
        assert any(n.startswith(stem + ".") and n.endswith(".so") for n in names), name
    _run(sys.executable, "-m", "venv", "--without-pip", str(home))
    python = home / "bin" / "python"
    _run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        str(python),
        "install",
        "-q",
        "--no-deps",
        str(wheel),
        env=_clean_env(),
    )
    site = _run(str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))")
    lent = {p for p in sys.path if p.endswith("site-packages")}
    Path(site.strip(), "zz_lent_dependencies.pth").write_text("".join(f"{p}\n" for p in lent))
    # -P: the checkout (the working directory) is not put on sys.path; the venv's build is
    where = _run(
        str(python),
        "-P",
        "-c",
        "import scorekeeper.knock as k; print(k.__file__)",
        cwd=ROOT,
        env=_clean_env(),
    )
    assert where.strip().endswith(".so") and str(home) in where
    done = subprocess.run(
        [
            str(python),
            "-P",
            "-m",
            "pytest",
            "tests",
            "-m",
            "fast",
            "-q",
            "-p",
            "no:cacheprovider",
            "-x",
            "-o",
            "addopts=-ra",
        ],
        capture_output=True,
        text=True,
        timeout=3600,
        cwd=ROOT,
        env=_clean_env(),
    )
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-5000:]
