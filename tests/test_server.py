"""A real gunicorn on loopback: hands written survive a restart of the server.

The first server is started as ``scorekeeper serve``, the second as
``gunicorn wsgi:app``; both use the same SQLite file in tmp_path. Without
nginx, ``serve`` says how to install it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import requests
from serve_kit import spawn, stop, stop_soon

from api.server import INSTALL

pytestmark = pytest.mark.slow  # each test starts its own servers


def test_hands_survive_a_restart(tmp_path):
    db = tmp_path / "served.db"
    process, url = spawn(db)
    try:
        created = requests.post(
            f"{url}/api/v1/games", json={"dealer": 0, "players": ["Ana", "Ben"]}, timeout=10
        )
        assert created.status_code == 201
        game = created.json()
        auth = {"Authorization": f"Bearer {game['edit_token']}"}
        for i, (knocker, k, d) in enumerate([(0, 7, 22), (1, 0, 10), (0, 9, 2)]):
            response = requests.post(
                f"{url}/api/v1/games/{game['id']}/hands",
                timeout=10,
                headers={**auth, "Idempotency-Key": f"hand-{i}"},
                json={
                    "kind": "quick",
                    "knocker": knocker,
                    "knocker_deadwood": k,
                    "defender_deadwood": d,
                },
            )
            assert response.status_code == 201, response.text
        before = requests.get(f"{url}{game['url']}", timeout=10).json()
    finally:
        assert stop(process) == 0
    assert before["totals"] == [15, 35 + 32]

    process, url = spawn(db, wsgi=True)
    try:
        after = requests.get(f"{url}{game['url']}", timeout=10).json()
        assert after == before
        retry = requests.post(
            f"{url}/api/v1/games/{game['id']}/hands",
            timeout=10,
            headers={**auth, "Idempotency-Key": "hand-2"},
            json={"kind": "quick", "knocker": 0, "knocker_deadwood": 9, "defender_deadwood": 2},
        )
        assert retry.status_code == 201 and retry.json()["sheet"]["version"] == 3
        refused = requests.post(
            f"{url}/api/v1/games/{game['id']}/hands", timeout=10, json={"kind": "void"}
        )
        assert refused.status_code == 401 and refused.json()["error"]["field"] == "Authorization"
    finally:
        stop_soon(process, "test_hands_survive_a_restart")


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="hides nginx in a mount namespace of its own (root, unshare)",
)
def test_serve_without_nginx_says_in_one_line_how_to_install_it(tmp_path):
    """/usr/sbin/nginx hidden (/dev/null bound over it, in a namespace of its own)."""
    script = Path(sys.executable).with_name("scorekeeper")
    hidden = f"mount --bind /dev/null /usr/sbin/nginx && exec {script} serve --port 0"
    done = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", hidden],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, "PATH": "/usr/sbin:/usr/bin:/bin"},
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [INSTALL]
    assert "apt-get install nginx" in INSTALL
