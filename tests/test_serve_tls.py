"""``scorekeeper serve --certfile/--keyfile``: real nginx (before gunicorn) serving HTTPS and
HTTP/2 on loopback.

The certificate is made by the test (``openssl``), for 127.0.0.1, and the
client trusts exactly it: the TLS handshake is verified, not skipped.
"""

from __future__ import annotations

import http.client
import json
import shutil
import socket
import ssl
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from serve_kit import make_certificate, spawn, stop

pytestmark = [
    pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl CLI"),
    pytest.mark.slow,  # each test starts scorekeeper serve
]


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tls")
    cert, key = make_certificate(folder)
    process, url = spawn(
        folder / "tls.db", workers=1, args=["--certfile", str(cert), "--keyfile", str(key)]
    )
    yield url, cert
    stop(process)


def test_serves_https_with_the_given_certificate(tls_server):
    url, cert = tls_server
    assert url.startswith("https://127.0.0.1:")
    trusted = ssl.create_default_context(cafile=str(cert))
    with urllib.request.urlopen(url + "/api/openapi.json", context=trusted, timeout=10) as r:
        assert json.load(r)["info"]["title"]
    with urllib.request.urlopen(url + "/sw.js", context=trusted, timeout=10) as r:
        assert r.headers["Content-Type"].startswith("text/javascript")
        assert "addEventListener" in r.read().decode()
    # The same port does not speak plain HTTP: nginx refuses it in the API's error format.
    plain = http.client.HTTPConnection("127.0.0.1", int(url.rsplit(":", 1)[1]), timeout=10)
    plain.request("GET", "/api/openapi.json")
    refused = plain.getresponse()
    assert refused.status == 400
    assert refused.getheader("X-Frame-Options") == "DENY"
    assert json.load(refused)["error"]["message"] == "this port speaks HTTPS only"
    plain.close()


def test_http2_is_offered_and_answers(tls_server):
    """nginx picks HTTP/2 by ALPN; a request over it (curl) gets the app's answer."""
    url, cert = tls_server
    port = int(url.rsplit(":", 1)[1])
    trusted = ssl.create_default_context(cafile=str(cert))
    trusted.set_alpn_protocols(["h2", "http/1.1"])
    with (
        socket.create_connection(("127.0.0.1", port), timeout=10) as raw,
        trusted.wrap_socket(raw, server_hostname="127.0.0.1") as tls,
    ):
        assert tls.selected_alpn_protocol() == "h2"
    if shutil.which("curl") is None:
        return
    done = subprocess.run(
        ["curl", "-sS", "--http2", "--cacert", str(cert), "-o", "/dev/null", "-D", "-", url],
        capture_output=True,
        text=True,
        timeout=30,
    )
    head = done.stdout.lower()
    assert head.startswith("http/2 200"), done.stdout + done.stderr
    assert "x-frame-options: deny" in head
    assert "\nserver: nginx\n" in head  # no version


def test_an_untrusted_client_is_refused(tls_server):
    url, _ = tls_server
    with pytest.raises(urllib.error.URLError, match="CERTIFICATE_VERIFY_FAILED"):
        urllib.request.urlopen(url + "/", context=ssl.create_default_context(), timeout=10)


def test_keyfile_alone_is_refused(tmp_path):
    _, key = make_certificate(tmp_path)
    done = subprocess.run(
        [str(Path(sys.executable).with_name("scorekeeper")), "serve", "--keyfile", str(key)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "--keyfile needs --certfile" in done.stderr
