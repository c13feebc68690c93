"""The rules core's solver and verifier as they were before the speed work of issue 12.

``melds`` and ``knock`` here are ``scorekeeper/melds.py`` and
``scorekeeper/knock.py`` read from git at :data:`REFERENCE` (the last commit
before that work) and run with only their imports changed: they use today's
cards, errors, results and rules, so their answers compare equal to today's.
They are the same-run reference of ``bench/melds.py`` (the speedup is shown
with the machine's load falling on both alike) and the exact-output oracle
of ``tests/test_fast_paths.py`` (the fast paths must give the very same
results, tie-breaking included). Nothing is copied into the tree: a
checkout without that history (a shallow clone) raises ``ImportError``
saying so. The package never imports this.
"""

from __future__ import annotations

import re
import subprocess
import sys
import types
from pathlib import Path

REFERENCE = "3f0d9b7a28d012e27008155cef20dbe850471d6e"
"""The commit whose melds.py and knock.py are the reference."""

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str) -> types.ModuleType:
    """``scorekeeper/<name>.py`` at :data:`REFERENCE` as the module ``reference.<name>``."""
    shown = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{REFERENCE}:scorekeeper/{name}.py"],
        capture_output=True,
        text=True,
        check=False,
    )
    if shown.returncode:
        raise ImportError(
            f"the reference core (commit {REFERENCE[:7]}) is not in this"
            f" checkout's history: {shown.stderr.strip()}"
        )
    source = re.sub(
        r"^from \.melds import", "from reference.melds import", shown.stdout, flags=re.M
    )
    source = re.sub(r"^from \.", "from scorekeeper.", source, flags=re.M)
    module = types.ModuleType(f"reference.{name}")
    module.__file__ = f"{REFERENCE[:7]}:scorekeeper/{name}.py"
    sys.modules[module.__name__] = module
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module


melds = _load("melds")
knock = _load("knock")
