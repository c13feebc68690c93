"""The page scripts (``api/static/*.js``) typed with JSDoc, checked by ``tsc --checkJs --strict
--noEmit``: the pages' scripts with the DOM's types (``tests/tsconfig.pad.json``), the service
worker with a worker's (``tests/tsconfig.sw.json``).

Not every script is typed yet (issue 28): :data:`UNTYPED` counts the errors tsc still finds in
each one that is not. A script typed stays typed (0 errors); one not yet may only get fewer,
and its count here comes down with it (a count above what tsc finds fails too, so the list
says where the work is)."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # tsc is node

HERE = Path(__file__).parent
TSC = HERE / "node_modules" / ".bin" / "tsc"

UNTYPED = {
    "pad.js": 88,
}
"""tsc's errors in each script not yet typed (the rest have none)."""


def tsc_errors(config: str) -> Counter[str]:
    """tsc's errors under ``tests/<config>``, counted by script."""
    assert TSC.exists(), "tsc comes from npm: npm ci in tests/ (tests/package.json)"
    run = subprocess.run(
        [str(TSC), "-p", config, "--pretty", "false"],
        cwd=HERE,
        capture_output=True,
        text=True,
    )
    found = re.findall(r"^(.+?)\(\d+,\d+\): error TS\d+", run.stdout, re.MULTILINE)
    assert len(found) == run.stdout.count("error TS"), run.stdout  # every error read
    assert (run.returncode != 0) == bool(found), run.stdout + run.stderr
    return Counter(Path(path).name for path in found)


def test_the_page_scripts_type_check():
    errors = tsc_errors("tsconfig.pad.json") + tsc_errors("tsconfig.sw.json")
    scripts = {path.name for path in (HERE.parent / "api" / "static").glob("*.js")}
    assert set(errors) <= scripts
    assert {name: errors[name] for name in sorted(scripts) if errors[name]} == UNTYPED
