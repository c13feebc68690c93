"""The deployment kit: ``scorekeeper deploy nginx`` and ``scorekeeper deploy systemd``.

What they print is run as printed, with only the machine's paths changed:
the Let's Encrypt certificate paths point to a self-signed certificate,
``/run/scorekeeper`` to a temporary folder, ports 443 and 80 to free
loopback ports. nginx checks the site (``nginx -t``) in a temporary prefix
and serves it; the migration unit's command runs once, then the server
unit's gunicorn command, with the units' environment; the app answers
through nginx over HTTPS and HTTP/2, and port 80 redirects to HTTPS.
"""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import requests
from serve_kit import make_certificate

from api import nginx
from api.security import HEADERS

NAME = "scores.example.org"

pytestmark = [
    pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl CLI"),
    pytest.mark.slow,  # each test starts nginx and gunicorn
]


def printed(*args: str) -> str:
    """What ``scorekeeper deploy ...`` prints."""
    script = Path(sys.executable).with_name("scorekeeper")
    done = subprocess.run(
        [str(script), "deploy", *args], capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def units(text: str) -> dict[str, dict[str, list[str]]]:
    """The printed units: {file name: {key: [values]}} (all sections together)."""
    found: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.startswith("# /etc/systemd/system/"):
            current = found.setdefault(line.rsplit("/", 1)[1], {})
        elif "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            current.setdefault(key, []).append(value)
    return found


def test_the_printed_site_and_units_serve_the_app(tmp_path):
    cert, key = make_certificate(tmp_path)
    run = tmp_path / "run"
    run.mkdir(mode=0o750)
    https, http = free_port(), free_port()
    site = printed("nginx", "--server-name", NAME)
    assert f"/etc/letsencrypt/live/{NAME}/fullchain.pem" in site
    assert nginx.RUN_DIR in site
    local = (
        site.replace(f"/etc/letsencrypt/live/{NAME}/fullchain.pem", str(cert))
        .replace(f"/etc/letsencrypt/live/{NAME}/privkey.pem", str(key))
        .replace(nginx.RUN_DIR, str(run))
        .replace("listen 443 ", f"listen 127.0.0.1:{https} ")
        .replace("listen 80;", f"listen 127.0.0.1:{http};")
    )
    local = "".join(line for line in local.splitlines(True) if "listen [::]" not in line)
    prefix = tmp_path / "nginx"
    prefix.mkdir(mode=0o700)
    user = "root" if os.geteuid() == 0 else None
    conf = prefix / "nginx.conf"
    conf.write_text(nginx.main_config(local, str(prefix), user=user))
    command = ["/usr/sbin/nginx", "-p", f"{prefix}/", "-c", str(conf), "-e", str(prefix / "e.log")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr

    found = units(printed("systemd", "--workers", "1", "--threads", "2"))
    assert set(found) == {
        "scorekeeper-migrate.service",
        "scorekeeper.service",
        "scorekeeper-live.service",
    }
    (listen,) = found["scorekeeper-live.service"]["ExecStart"]
    assert "-m api.live" in listen and f"{nginx.RUN_DIR}/publish.sock" in listen
    server = found["scorekeeper.service"]
    assert server["Requires"] == ["scorekeeper-migrate.service"]
    env = {**os.environ, "SCOREKEEPER_DB": str(tmp_path / "club.db")}
    env["SCOREKEEPER_SECRET_KEY"] = "test-secret"
    for pair in server["Environment"]:
        name, _, value = pair.partition("=")
        env[name] = value.replace(nginx.RUN_DIR, str(run))
    (migrate,) = found["scorekeeper-migrate.service"]["ExecStart"]
    subprocess.run(shlex.split(migrate), env=env, check=True, timeout=60, cwd=tmp_path)
    (start,) = server["ExecStart"]
    gunicorn = subprocess.Popen(
        shlex.split(start.replace(nginx.RUN_DIR, str(run))),
        env=env,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    proxy = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"https://127.0.0.1:{https}"
        trusted = ssl.create_default_context(cafile=str(cert))
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/openapi.json", context=trusted) as r:
                    assert r.status == 200
                    for name, value in HEADERS.items():
                        assert r.headers[name] == value
                    assert r.headers["Server"] == "nginx"
                    break
            except (urllib.error.URLError, ConnectionError):
                assert gunicorn.poll() is None and proxy.poll() is None
                assert time.monotonic() < deadline, "no answer through the deployed site"
                time.sleep(0.1)
        created = requests.post(
            f"{url}/api/v1/games", json={"players": ["Ana", "Ben"]}, verify=str(cert), timeout=10
        )
        assert created.status_code == 201
        big = requests.post(f"{url}/api/v1/games", data=b"x" * 2_000_000, verify=str(cert))
        assert big.status_code == 413 and big.json()["error"]["code"] == "too_large"
        moved = requests.get(f"http://127.0.0.1:{http}/games", allow_redirects=False, timeout=10)
        assert moved.status_code == 301
        assert moved.headers["Location"] == "https://127.0.0.1/games"
    finally:
        for process in (proxy, gunicorn):
            process.terminate()
            process.wait(30)
