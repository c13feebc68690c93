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

import grp
import os
import shlex
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import requests
from links_kit import links
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


class Deployed:
    """The printed site and units running: nginx (HTTPS on ``https``, plain HTTP on
    ``http``) before gunicorn, their sockets in ``run``, the certificate ``cert``."""

    def __init__(self, folder: Path) -> None:
        self.cert, key = make_certificate(folder)
        # The sockets' folder as systemd makes it, where any account could get to it.
        base = Path(tempfile.mkdtemp(prefix="scorekeeper-run-"))
        base.chmod(0o711)
        self.run = base / "scorekeeper"
        self.https, self.http = free_port(), free_port()
        self.site = printed("nginx", "--server-name", NAME)
        self.units = units(printed("systemd", "--workers", "1", "--threads", "2"))
        server = self.units["scorekeeper.service"]
        self.run.mkdir(mode=int(server["RuntimeDirectoryMode"][0], 8))
        self.run.chmod(int(server["RuntimeDirectoryMode"][0], 8))
        os.chown(self.run, -1, _gid(server["Group"][0]))
        local = (
            self.site.replace(f"/etc/letsencrypt/live/{NAME}/fullchain.pem", str(self.cert))
            .replace(f"/etc/letsencrypt/live/{NAME}/privkey.pem", str(key))
            .replace(nginx.RUN_DIR, str(self.run))
            .replace("listen 443 ", f"listen 127.0.0.1:{self.https} ")
            .replace("listen 80;", f"listen 127.0.0.1:{self.http};")
        )
        local = "".join(line for line in local.splitlines(True) if "listen [::]" not in line)
        prefix = folder / "nginx"
        prefix.mkdir(mode=0o700)
        user = "root" if os.geteuid() == 0 else None
        conf = prefix / "nginx.conf"
        conf.write_text(nginx.main_config(local, str(prefix), user=user))
        self.nginx = ["/usr/sbin/nginx", "-p", f"{prefix}/", "-c", str(conf)]
        self.nginx += ["-e", str(prefix / "e.log")]
        self.env = {**os.environ, "SCOREKEEPER_DB": str(folder / "club.db")}
        self.env["SCOREKEEPER_SECRET_KEY"] = "test-secret"
        for pair in server["Environment"]:
            name, _, value = pair.partition("=")
            self.env[name] = value.replace(nginx.RUN_DIR, str(self.run))
        self.folder = folder
        self.processes: list[subprocess.Popen] = []

    def command(self, line: str) -> list[str]:
        """A unit's command line, run here: its paths moved to the test's folders."""
        return shlex.split(line.replace(nginx.RUN_DIR, str(self.run)))

    def start(self) -> None:
        """The migration unit's command, the server unit's, then nginx, checked (``nginx
        -t``) and started (as systemd orders them: nginx binds the publisher's socket in
        the folder the server unit makes)."""
        (migrate,) = self.units["scorekeeper-migrate.service"]["ExecStart"]
        subprocess.run(self.command(migrate), env=self.env, check=True, timeout=60, cwd=self.folder)
        server = self.units["scorekeeper.service"]
        group = ["setpriv", f"--regid={_gid(server['Group'][0])}", "--clear-groups"]
        for line in (*server.get("ExecStartPre", []), *server["ExecStart"]):
            started = subprocess.Popen(
                [*group, *self.command(line)],
                env=self.env,
                cwd=self.folder,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            self.processes.append(started)
        if "ExecStartPre" in server:
            self.processes[0].wait(30)
        checked = subprocess.run([*self.nginx, "-t"], capture_output=True, text=True, timeout=60)
        assert checked.returncode == 0, checked.stderr
        proxy = subprocess.Popen(self.nginx, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.processes.append(proxy)
        trusted = ssl.create_default_context(cafile=str(self.cert))
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/api/openapi.json", context=trusted):
                    return
            except (urllib.error.URLError, ConnectionError):
                assert all(process.poll() is None for process in self.processes[1:])
                assert time.monotonic() < deadline, "no answer through the deployed site"
                time.sleep(0.1)

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https}"

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.terminate()
            process.wait(30)
        shutil.rmtree(self.run.parent, ignore_errors=True)


def _gid(name: str) -> int:
    """The group ``name``'s id on this machine, else one no account here has."""
    try:
        return grp.getgrnam(name).gr_gid
    except KeyError:
        return 54321


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    site = Deployed(tmp_path_factory.mktemp("deploy"))
    site.start()
    try:
        yield site
    finally:
        site.stop()


def test_the_printed_site_and_units_serve_the_app(deployed):
    assert f"/etc/letsencrypt/live/{NAME}/fullchain.pem" in deployed.site
    assert nginx.RUN_DIR in deployed.site
    assert set(deployed.units) == {
        "scorekeeper-migrate.service",
        "scorekeeper.service",
        "scorekeeper-live.service",
    }
    (listen,) = deployed.units["scorekeeper-live.service"]["ExecStart"]
    assert "-m api.live" in listen and nginx.PUBLISH_SOCKET in listen
    assert deployed.units["scorekeeper.service"]["Requires"] == ["scorekeeper-migrate.service"]
    url = deployed.url
    with urllib.request.urlopen(
        f"{url}/api/openapi.json", context=ssl.create_default_context(cafile=str(deployed.cert))
    ) as r:
        assert r.status == 200
        for name, value in HEADERS.items():
            assert r.headers[name] == value
        assert r.headers["Server"] == "nginx"
        assert r.headers["Strict-Transport-Security"] == f"max-age={nginx.HSTS_AGE}"
        assert nginx.HSTS_AGE >= 365 * 24 * 3600
    created = requests.post(
        f"{url}/api/v1/games",
        json={"dealer": 0, "players": ["Ana", "Ben"]},
        verify=str(deployed.cert),
        timeout=10,
    )
    assert created.status_code == 201
    big = requests.post(f"{url}/api/v1/games", data=b"x" * 2_000_000, verify=str(deployed.cert))
    assert big.status_code == 413 and big.json()["error"]["code"] == "too_large"


def test_port_80_only_redirects_to_the_site(deployed):
    plain = f"http://127.0.0.1:{deployed.http}"
    for path in ("/games", "/api/v1/games", "/games/abc/join?key=secret"):
        moved = requests.get(
            plain + path, headers={"Host": "evil.example"}, allow_redirects=False, timeout=10
        )
        assert moved.status_code == 301 and not moved.cookies
        assert moved.headers["Location"] == f"https://{NAME}{path}"


def test_links_name_the_site_whatever_a_client_sends(deployed):
    url = deployed.url
    forged = {"Host": "evil.example", "X-Forwarded-Proto": "http", "X-Forwarded-Ssl": "off"}
    share, handover, _ = links(url, forged, verify=str(deployed.cert))
    assert share.startswith(f"https://{NAME}/games/"), share
    assert handover.startswith(f"https://{NAME}/games/"), handover


def test_tls_is_mozillas_intermediate_profile(deployed):
    """Every TLS 1.2 suite this machine's OpenSSL knows, offered alone: nginx takes only
    suites of Mozilla's intermediate list (27 of them were taken before)."""
    probe = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    probe.set_ciphers("ALL:@SECLEVEL=0")
    known = {c["name"] for c in probe.get_ciphers() if c["protocol"] != "TLSv1.3"}
    accepted = {name for name in known if _handshake(deployed.https, name)}
    assert "ECDHE-RSA-AES128-GCM-SHA256" in accepted  # the certificate is RSA
    assert accepted <= set(nginx.CIPHERS), sorted(accepted - set(nginx.CIPHERS))
    assert {"AES128-SHA", "ECDHE-RSA-AES128-SHA", "AES256-GCM-SHA384"} <= known - accepted


def _handshake(port: int, cipher: str) -> bool:
    """Whether a TLS 1.2 handshake offering only ``cipher`` succeeds."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.minimum_version = context.maximum_version = ssl.TLSVersion.TLSv1_2
    context.set_ciphers(f"{cipher}:@SECLEVEL=0")
    try:
        with (
            socket.create_connection(("127.0.0.1", port), timeout=10) as raw,
            context.wrap_socket(raw) as tls,
        ):
            return tls.cipher()[0] == cipher
    except ssl.SSLError:
        return False


def test_a_www_data_group_process_cannot_reach_the_sockets(deployed):
    """The sockets as the units make them: an account of the ``www-data`` group (not of
    the units' group) connects to neither gunicorn's socket nor the live publisher's; one
    of the units' group (nginx's workers) reaches gunicorn's alone."""
    app = deployed.run / "gunicorn.sock"
    publisher = Path(deployed.env["SCOREKEEPER_LIVE_PUBLISH_SOCKET"])
    assert app.is_socket() and publisher.is_socket()
    www_data = grp.getgrnam("www-data").gr_gid
    assert _connect_as(www_data, app) == _connect_as(www_data, publisher) == "PermissionError"
    web = _gid(deployed.units["scorekeeper.service"]["Group"][0])
    assert (_connect_as(web, app), _connect_as(web, publisher)) == ("connected", "PermissionError")


def _connect_as(gid: int, path: Path) -> str:
    """What connecting to the unix socket ``path`` gives the account ``nobody`` with
    ``gid`` its only group: ``connected`` or the error's name."""
    code = (
        "import socket, sys\n"
        "s = socket.socket(socket.AF_UNIX)\n"
        "try:\n"
        "    s.connect(sys.argv[1])\n"
        "    print('connected')\n"
        "except OSError as e:\n"
        "    print(type(e).__name__)\n"
    )
    setpriv = ["setpriv", "--reuid=65534", f"--regid={gid}", "--clear-groups"]
    done = subprocess.run(
        [*setpriv, "/usr/bin/python3", "-c", code, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.stdout.strip() or done.stderr
