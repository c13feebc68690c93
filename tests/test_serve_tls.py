"""``scorekeeper serve --certfile/--keyfile``: real nginx (before gunicorn) serving HTTPS and
HTTP/2 on loopback.

The certificate is made by the test (``openssl``), for 127.0.0.1, and the
client trusts exactly it: the TLS handshake is verified, not skipped (but for
the browser's phones, which accept it as a phone's user does). The server
names itself ``--server-name 127.0.0.1:<port>``: its links, QR codes and
cookies follow the TLS nginx served and that name, whatever a client's
headers say.
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import socket
import ssl
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
import requests
import segno
from links_kit import links, qr_modules
from playwright.sync_api import expect
from serve_kit import make_certificate, spawn, stop_soon
from test_deploy import free_port
from test_pad_browser import start_game
from test_pad_rights_browser import make_handover_link, take_over

pytestmark = [
    pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl CLI"),
    pytest.mark.slow,  # each test starts scorekeeper serve
]


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tls")
    cert, key = make_certificate(folder)
    port = free_port()
    process, url = spawn(
        folder / "tls.db",
        workers=1,
        port=port,
        args=["--certfile", str(cert), "--keyfile", str(key), "--server-name", f"127.0.0.1:{port}"],
    )
    yield url, cert
    stop_soon(process, f"{__name__}'s server", status=None)


FORGED = {
    "Host": "evil.example",
    "X-Forwarded-Host": "evil.example",
    "Forwarded": "proto=http;host=evil.example",
    "X-Url-Scheme": "http",
}
"""What a client may send to make the links point elsewhere (and the scheme ones, below)."""

NOT_TLS = {"X-Forwarded-Proto": "http", "X-Forwarded-Ssl": "off", "X-Forwarded-Protocol": "http"}
TLS = {"X-Forwarded-Proto": "https", "X-Forwarded-Ssl": "on", "X-Forwarded-Protocol": "ssl"}


def the_qr_code_is(svg: str, link: str) -> bool:
    """Whether the QR code drawn (``svg``) is the one encoding ``link``, module for module
    (segno draws it with a 4-module quiet zone)."""
    code = segno.make(link, error="m")
    expected = {
        (x + 4, y + 4) for y, row in enumerate(code.matrix) for x, dark in enumerate(row) if dark
    }
    return qr_modules(svg) == expected


def test_links_and_qr_codes_are_https_and_name_the_server(tls_server):
    url, cert = tls_server
    share, handover, svg = links(url, {**FORGED, **NOT_TLS}, verify=str(cert))
    assert re.fullmatch(re.escape(url) + r"/games/[\w-]+", share), share
    assert re.fullmatch(re.escape(url) + r"/games/[\w-]+/join\?key=[\w-]+", handover), handover
    assert url.startswith("https://127.0.0.1:")
    assert the_qr_code_is(svg, handover)


def test_a_client_cannot_make_plain_http_links_https(tmp_path):
    port = free_port()
    process, url = spawn(
        tmp_path / "plain.db", workers=1, port=port, args=["--server-name", f"127.0.0.1:{port}"]
    )
    try:
        share, handover, _ = links(url, {**FORGED, **TLS})
        assert share.startswith(f"http://127.0.0.1:{port}/games/"), share
        assert handover.startswith(f"http://127.0.0.1:{port}/games/"), handover
        page = requests.get(url + "/", headers=TLS, timeout=10)
        assert all(not cookie.secure for cookie in page.cookies)
    finally:
        stop_soon(process, "test_a_client_cannot_make_plain_http_links_https", status=None)


def test_a_phone_joins_by_the_qr_code_over_https(tls_server, browser):
    """Ana's phone makes a hand-over link; Bor's phone opens the link its QR code encodes
    and takes the right, kept in a Secure cookie."""
    url, _ = tls_server
    phones = [browser.new_context(ignore_https_errors=True, is_mobile=True) for _ in range(2)]
    try:
        ana, bor = (context.new_page() for context in phones)
        start_game(ana, url, stake="")
        ana.get_by_role("button", name="Start the game").click()
        expect(ana).to_have_url(re.compile(r"/games/[\w-]+$"))
        link = make_handover_link(ana, ana.url)
        assert link.startswith(url + "/games/") and url.startswith("https://")
        assert the_qr_code_is(ana.locator(".qr-box svg").evaluate("svg => svg.outerHTML"), link)
        take_over(bor, link, "Bor's phone")
        cookies = {cookie["name"]: cookie for cookie in phones[1].cookies(url)}
        assert cookies["sk_device"]["secure"] and cookies["sk_device"]["httpOnly"]
        assert all(cookie["secure"] for cookie in cookies.values()), cookies
    finally:
        for context in phones:
            context.close()


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
