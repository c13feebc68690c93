"""``scorekeeper deploy systemd``'s units as a security reviewer reads them: systemd's own
checks, run on the printed units (Debian's ``systemd`` provides ``systemd-analyze``).

``systemd-analyze verify`` reads each unit as systemd would (a misspelt or unknown
setting is a warning, and would be silently ignored at boot); ``systemd-analyze
security --offline=true`` rates each unit's sandbox, from 0 (locked down) to 10
(unprotected); the printed units were 9.2 ("UNSAFE") before the sandbox.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from test_deploy import printed

ANALYZE = shutil.which("systemd-analyze")

pytestmark = pytest.mark.skipif(ANALYZE is None, reason="needs systemd-analyze (Debian's systemd)")

MOST_EXPOSED = 2.5
"""The highest ``systemd-analyze security`` exposure a printed unit may have."""


@pytest.fixture(scope="module")
def unit_files(tmp_path_factory):
    """The printed units, each in the file its first line names (in a temporary folder)."""
    folder = tmp_path_factory.mktemp("units")
    files = []
    for block in printed("systemd").split("# /etc/systemd/system/")[1:]:
        name, _, text = block.partition("\n")
        (folder / name).write_text(text)
        files.append(folder / name)
    assert len(files) == 3
    return files


def exposure(path) -> float:
    done = subprocess.run(
        [ANALYZE, "security", "--offline=true", "--no-pager", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout + done.stderr)
    assert found, done.stdout + done.stderr
    return float(found.group(1))


def test_each_unit_is_rated_safe_by_systemd_analyze(unit_files):
    rated = {path.name: exposure(path) for path in unit_files}
    assert all(level <= MOST_EXPOSED for level in rated.values()), rated


def test_systemd_reads_every_setting_of_the_units(unit_files):
    done = subprocess.run(
        [ANALYZE, "verify", "--man=no", *map(str, unit_files)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "Unknown" not in done.stderr, done.stderr
    assert "ignoring" not in done.stderr, done.stderr
