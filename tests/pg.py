"""A real PostgreSQL server for the tests, started from Debian's binaries in a temporary folder.

:class:`PostgresServer` runs ``initdb`` into a fresh folder and starts
``postgres`` on a free loopback port (TCP on 127.0.0.1 only, its unix
socket in the same folder), trusting local connections as ``postgres``.
As root (PostgreSQL refuses to run as root) both run as the ``postgres``
user, which Debian's package creates. :meth:`PostgresServer.new_database`
gives each test an empty database of its own: a new schema in the one
database, named in the address (``options=-c search_path=...``), which is
instant where ``CREATE DATABASE`` takes a third of a second;
:meth:`PostgresServer.halt` and :meth:`PostgresServer.start` take it away and bring it
back on its port and data; :meth:`PostgresServer.stop` shuts the server down fast and
removes the folder.

The server keeps PostgreSQL's durable defaults (``fsync`` on): the
crash tests kill the scorekeeper server, and the commits they count on
are the real ones.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import psycopg

USER = "postgres"
"""The database superuser the tests connect as (and, as root, the OS user the server runs as)."""


def bin_dir() -> str:
    """The folder of the newest installed PostgreSQL's ``initdb`` and ``postgres``."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    if found:
        return os.path.dirname(found[-1])
    initdb = shutil.which("initdb")
    if initdb is None:
        raise RuntimeError(
            "PostgreSQL is not installed (no initdb): tests/run.sh installs"
            " Debian's postgresql package"
        )
    return os.path.dirname(initdb)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresServer:
    """One PostgreSQL server in a temporary folder, on a free loopback port."""

    def __init__(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="scorekeeper-pg-")
        self.port = free_port()
        self._names = itertools.count(1)
        as_root = os.geteuid() == 0
        self._user = {"user": USER, "group": USER, "extra_groups": []} if as_root else {}
        if as_root:
            shutil.chown(self.folder, USER, USER)
        data = os.path.join(self.folder, "data")
        bins = bin_dir()
        subprocess.run(
            [
                os.path.join(bins, "initdb"),
                "-D",
                data,
                "-U",
                USER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C.UTF-8",
                "--no-sync",
            ],
            check=True,
            capture_output=True,
            cwd=self.folder,
            **self._user,
        )
        self._data = data
        self._log = open(os.path.join(self.folder, "server.log"), "wb")  # noqa: SIM115
        self.start()

    def start(self) -> None:
        """Start the server on its folder and port (again, after :meth:`halt`); wait for it."""
        self.process = subprocess.Popen(
            [
                os.path.join(bin_dir(), "postgres"),
                "-D",
                self._data,
                "-p",
                str(self.port),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                f"unix_socket_directories={self.folder}",
                "-c",
                "max_connections=200",
                # nothing here outlives the tests: no waiting for the disk (an application
                # killed mid-write is still tested; PostgreSQL itself is never killed)
                "-c",
                "fsync=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "full_page_writes=off",
            ],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            cwd=self.folder,
            start_new_session=True,
            **self._user,
        )
        self._wait_until_ready()

    def url(self, schema: str | None = None) -> str:
        """The ``postgresql://`` address of the server's database (in ``schema``, if named)."""
        url = f"postgresql://{USER}@127.0.0.1:{self.port}/postgres"
        return url if schema is None else f"{url}?options=-c%20search_path%3D{schema}"

    def _wait_until_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                psycopg.connect(self.url(), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("PostgreSQL did not start") from None
                time.sleep(0.05)

    def new_database(self) -> str:
        """The address of a new empty schema (``t1``, ``t2``, ...) that tables go into."""
        name = f"t{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return self.url(name)

    def database_of_its_own(self) -> str:
        """The address of a new empty database (``d1``, ``d2``, ...), for a test that changes
        a database-wide setting (``ALTER DATABASE``), which a schema cannot hold."""
        name = f"d{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url().removesuffix("/postgres") + f"/{name}"

    def halt(self) -> None:
        """Shut the server down (fast), keeping its data: :meth:`start` brings it back."""
        self.process.send_signal(signal.SIGINT)
        self.process.wait(30)

    def stop(self) -> None:
        """Shut the server down (fast: open sessions are ended) and remove its folder."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
        shutil.rmtree(self.folder, ignore_errors=True)
