"""The page scripts (``api/static/*.js``) typed with JSDoc, checked by ``tsc --checkJs --strict
--noEmit``: the pages' scripts with the DOM's types (``tests/tsconfig.pad.json``), the service
worker with a worker's (``tests/tsconfig.sw.json``).

Every script is typed (issue 28) and stays so: tsc finds no error, and the two configurations
between them check every script there is (a new one is typed from the start)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # tsc is node

HERE = Path(__file__).parent
TSC = HERE / "node_modules" / ".bin" / "tsc"
STATIC = (HERE.parent / "api" / "static").resolve()


def tsc(config: str) -> tuple[set[str], list[str]]:
    """The page scripts tsc checks under ``tests/<config>``, and its errors (lines of them)."""
    assert TSC.exists(), "tsc comes from npm: npm ci in tests/ (tests/package.json)"
    run = subprocess.run(
        [str(TSC), "-p", config, "--pretty", "false", "--listFiles"],
        cwd=HERE,
        capture_output=True,
        text=True,
    )
    lines = run.stdout.splitlines()
    files = [Path(line) for line in lines if Path(line).is_absolute()]  # --listFiles
    errors = [line for line in lines if not Path(line).is_absolute()]
    assert (run.returncode != 0) == bool(errors), run.stdout + run.stderr
    return {path.name for path in files if path.parent == STATIC}, errors


def test_the_page_scripts_type_check():
    pad_scripts, pad_errors = tsc("tsconfig.pad.json")
    sw_scripts, sw_errors = tsc("tsconfig.sw.json")
    assert pad_errors + sw_errors == []
    assert pad_scripts | sw_scripts == {path.name for path in STATIC.glob("*.js")}
