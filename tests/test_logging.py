"""``scorekeeper serve``'s log switches, against real gunicorn servers on loopback.

The first server runs with ``--no-access-log --log-level info``, the second
with ``--access-log --log-level warning`` (on a port given, as no line names
it at that level), both at once: each switch is seen both ways, and the
access log does not hang on the log level.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from pg import free_port
from serve_kit import spawn, stop

from api import create_app

PATHS = ("/check", "/api/openapi.json")


def _serve_and_read(tmp_path, name: str, args: list[str], port: int = 0) -> str:
    """Start a server with ``args``, fetch :data:`PATHS`, stop it: its log."""
    log = tmp_path / f"{name}.log"
    process, url = spawn(tmp_path / f"{name}.db", workers=1, args=args, log=log, port=port)
    try:
        for path in PATHS:
            assert requests.get(url + path, timeout=10).status_code == 200
    finally:
        assert stop(process) == 0
    return log.read_text()


def _access_lines(text: str, path: str) -> list[str]:
    """The access log lines of the test's requests (not of spawn's readiness probe)."""
    return re.findall(
        rf'^127\.0\.0\.1 .*"GET {re.escape(path)} HTTP/1\.1" 200 .*'
        r'"python-requests/[^"]*"$',
        text,
        re.MULTILINE,
    )


@pytest.mark.slow
def test_the_log_level_and_the_access_log_switch_on_and_off(tmp_path):
    with ThreadPoolExecutor(2) as both:
        quiet = both.submit(
            _serve_and_read, tmp_path, "info", ["--no-access-log", "--log-level", "info"]
        )
        loud = both.submit(
            _serve_and_read,
            tmp_path,
            "warning",
            ["--access-log", "--log-level", "warning"],
            port=free_port(),
        )
    quiet_access, loud_access = quiet.result(), loud.result()
    database = re.compile(
        r"^\[[^]]+\] \[\d+\] \[INFO\] database (\S+) \(schema version \d+\)$", re.MULTILINE
    )
    opened = database.findall(quiet_access)
    assert len(opened) == 2, quiet_access  # the master, then the worker
    assert set(opened) == {str(tmp_path / "info.db")}
    assert "[INFO] Booting worker with pid" in quiet_access
    assert not any(_access_lines(quiet_access, path) for path in PATHS), quiet_access

    for path in PATHS:
        assert len(_access_lines(loud_access, path)) == 1, loud_access
    assert "[INFO]" not in loud_access and not database.search(loud_access), loud_access


def test_an_unknown_log_level_is_refused_by_name(tmp_path):
    with pytest.raises(ValueError, match="LOG_LEVEL: 'loud' is not one of debug, info, warn"):
        create_app({"DB": str(tmp_path / "x.db"), "LOG_LEVEL": "loud"})
    assert not (tmp_path / "x.db").exists()
