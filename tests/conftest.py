"""Shared fixtures: the storage backends, and real gunicorn servers on loopback.

Storage, API and concurrency tests run on both backends: the ``backend``
fixture is parametrised over :data:`BACKENDS` (a test id ends in
``[sqlite]`` or ``[postgresql]``; ``-k sqlite`` runs one backend) and gives
each test an empty database of its own, ``store`` opens it (a SQLite store
that does not sync, ``durable=False``: the server and the durability tests
open theirs durable). PostgreSQL is a real server (:mod:`pg`) started once
per session, only when a PostgreSQL test runs. One chromium (Playwright,
see ``browser_kit``) serves the browser tests (one per session:
Playwright's sync API cannot run twice at once).

Test tiers: a test is ``fast`` (``python -m pytest -m fast``, the tier to run
while you work) unless it starts a server, a browser, PostgreSQL, Java or
node: it uses a fixture of :data:`SLOW_FIXTURES`, runs on the PostgreSQL
backend, or is marked ``slow`` (itself or its module: it starts one in its
own body, or it works for seconds on a fixed volume). The rule is checked as
the tests run: a fast test that starts one of :data:`SLOW_PROGRAMS` fails,
naming it. The fast tier runs a twentieth of each hypothesis test's examples,
and of the seeds of each seeded loop that asks (:func:`examples`), and the
first of the seeds a test is parametrized with by :func:`fast_first`; the
whole suite, or a file run alone, runs them all.

The ``soak`` tier (``python -m pytest -m soak``, run before a release) holds the
heavy sweeps: a test marked ``soak`` (or a parameter of it: :func:`soak_shares`)
runs only when the ``-m`` expression names ``soak``, never in the default run
nor in ``-m fast``. A test marked ``sweep`` runs in every tier, trying all of its
examples in the soak tier and a quarter of them by default (:func:`sweep_examples`).
"""

from __future__ import annotations

import inspect
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path

import flask
import jinja2
import psycopg
import pytest
import requests
from browser_kit import ARGS, CHROMIUM, PAGE_ERRORS
from pg import USER, PostgresServer
from serve_kit import spawn, stop_soon, stopped

from api import STORAGE_KEY, create_app, open_storage
from api.limits import NO_LIMITS_ENV
from scorekeeper.store import Store, open_store
from scorekeeper.store.base import is_postgres
from scorekeeper.store.sqlite import Storage

# Cache the test modules' compiled code even where PYTHONDONTWRITEBYTECODE is set: pytest
# writes a test module's assertion-rewritten code to __pycache__ only if sys.dont_write_bytecode
# is false when it imports the module, and rewriting every test module again costs about 12 s
# of CPU a run (half of collecting the fast tier). Set before any test module is collected
# (this file is rewritten each time); the programs the tests start keep the variable.
sys.dont_write_bytecode = False

# No rate limits for the servers the tests start: every client is on loopback, and tests
# create games and send wrong tokens by the hundred (schemathesis, 1,000 games from one
# phone); test_attacks.py proves the default limits on a server of its own.
os.environ.update(NO_LIMITS_ENV)

LIVE_WORKERS = 4
"""gunicorn workers of the shared live server (2 threads each)."""

BACKENDS = ("sqlite", "postgresql")
"""The storage backends every store, API and concurrency test runs on."""

DB_ERRORS = (sqlite3.DatabaseError, psycopg.Error)
"""What either database raises for a statement it refuses."""

ROOM = "64k"
"""The size of the tmpfs a PostgreSQL hand log is moved to, to fill it (a few dozen hands)."""

SLOW_FIXTURES = frozenset(
    {
        "postgres",  # PostgreSQL
        "live",  # scorekeeper serve
        "live_postgres",
        "live_server",
        "browser",  # chromium, driven by node (Playwright)
        "generated",  # test_clients.py: openapi-generator (Java)
        "server",  # test_front.py, test_pad_*browser.py: a module's own scorekeeper serve
        "served",  # test_pad_axe.py, test_pad_offline.py: the same
        "tls_server",  # test_serve_tls.py
        "wheel",  # test_wheel.py: a wheel built, installed in a venv and served
    }
)
"""The fixtures that start a server, a browser, PostgreSQL, Java or node (directly or not):
a test that uses one is not ``fast``."""

FAST_SHARE = 20
"""In the fast tier a test tries one in this many of its examples (:func:`examples`)."""

FAST_LEAST = 3
"""In the fast tier a test tries at least this many of its examples (:func:`examples`)."""

SLOW_PROGRAMS = frozenset(
    {
        "gunicorn",
        "nginx",
        "initdb",
        "postgres",
        "chromium",
        "java",
        "openapi-generator-cli",
        "node",
        "npm",
    }
)
"""What a ``fast`` test may not start (nor ``scorekeeper serve``): checked as it runs."""


class CompiledTemplates(jinja2.BytecodeCache):
    """Templates compiled once per test process, for every app the tests create.

    Each test builds an app of its own, and each app's Jinja environment would
    compile every page it renders again (about half the CPU of a scorepad test).
    Jinja's own bytecode cache, keyed by each template's source: a changed
    template is compiled anew. The live servers (other processes) compile their own.
    """

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


flask.Flask.jinja_options = {**flask.Flask.jinja_options, "bytecode_cache": CompiledTemplates()}


def query(address: str | os.PathLike, statement: str, params: tuple = ()) -> list[tuple]:
    """Run one SQL statement on a connection of its own (committed): its rows.

    ``statement`` uses ``?`` placeholders (SQLite's); for PostgreSQL they
    become ``%s``. JSON columns come back as text from both.
    """
    if is_postgres(address):
        with psycopg.connect(str(address), autocommit=True) as conn:
            cursor = conn.execute(statement.replace("?", "%s"), params)
            return cursor.fetchall() if cursor.description else []
    with sqlite3.connect(address, isolation_level=None) as conn:
        return conn.execute(statement, params).fetchall()


class Backend:
    """One backend as a test sees it: its empty database's ``address`` and ways to stress it."""

    def __init__(self, name: str, address: str):
        self.name = name
        self.address = address

    def sql(self, statement: str, params: tuple = ()) -> list[tuple]:
        """:func:`query` on this test's database."""
        return query(self.address, statement, params)

    def shorten_wait(self, store: Store) -> None:
        """Make ``store`` give up on a held lock after 50 ms instead of 30 s."""
        store.busy_timeout = 0.05  # a write's patience (SQLite: Storage._begin)
        if self.name == "sqlite":
            store.db.conn.execute("PRAGMA busy_timeout = 50")  # this thread's reads

    @contextmanager
    def little_room(self, store: Store) -> Iterator[None]:
        """Room for a few more hands only, then a full disk, until the block ends.

        SQLite: the file's page limit (``SQLITE_FULL``, as on a full file
        system; set on this thread's connection). PostgreSQL: the hand log
        (table and indexes) moved to a tablespace on a tmpfs of :data:`ROOM`,
        so writes fail with a real ENOSPC; mounting it needs root (skipped
        otherwise).
        """
        if self.name == "sqlite":
            conn = store.db.conn
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            conn.execute(f"PRAGMA max_page_count = {pages + 2}")
            try:
                yield
            finally:
                conn.execute("PRAGMA max_page_count = 1073741823")
            return
        if os.geteuid() != 0:
            pytest.skip("filling a disk under PostgreSQL mounts a small tmpfs: needs root")
        folder = tempfile.mkdtemp(prefix="scorekeeper_full_")
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={ROOM}", "tmpfs", folder], check=True)
        try:
            shutil.chown(folder, USER, USER)
            space = os.path.basename(folder)
            self.sql(f"CREATE TABLESPACE {space} LOCATION '{folder}'")
            try:
                self._move_hands(space)
                yield
            finally:
                self._move_hands("pg_default")
                self.sql(f"DROP TABLESPACE {space}")
        finally:
            subprocess.run(["umount", folder], check=True)
            os.rmdir(folder)

    def _move_hands(self, space: str) -> None:
        """Move the ``hands`` table and its indexes to tablespace ``space`` (PostgreSQL)."""
        self.sql(f"ALTER TABLE hands SET TABLESPACE {space}")
        for (index,) in self.sql(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'hands'"
            " AND schemaname = current_schema()"
        ):
            self.sql(f"ALTER INDEX {index} SET TABLESPACE {space}")

    def intact(self, store: Store) -> bool:
        """Whether the database checks out whole after a refused write.

        SQLite: ``PRAGMA integrity_check`` and no transaction left open on
        this thread's connection. PostgreSQL: amcheck's ``bt_index_check``
        of every index of ``hands`` against the table's rows (it raises on
        a corrupt one).
        """
        if self.name == "sqlite":
            conn = store.db.conn
            return (
                not conn.in_transaction
                and conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            )
        self.sql("CREATE EXTENSION IF NOT EXISTS amcheck SCHEMA public")  # one per database
        checked = self.sql(
            "SELECT public.bt_index_check(indexrelid, true) FROM pg_index"
            " WHERE indrelid = 'hands'::regclass"
        )
        return len(checked) == 2  # the primary key and the idempotency keys

    @contextmanager
    def writer_holding(self, game_id: str | None = None) -> Iterator[None]:
        """Another connection in the middle of a write to game ``game_id``, holding its lock
        (SQLite's write lock; PostgreSQL's lock of the game's row). With no game: of a
        write that keeps every pairing of an event's round waiting (PostgreSQL: it locks
        the ``event_rounds`` table)."""
        if self.name == "sqlite":
            conn = sqlite3.connect(self.address, isolation_level=None)
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            finally:
                conn.execute("ROLLBACK")
                conn.close()
        else:
            with psycopg.connect(self.address) as conn:
                if game_id is None:
                    conn.execute("LOCK TABLE event_rounds IN EXCLUSIVE MODE")
                else:
                    conn.execute("SELECT id FROM games WHERE id = %s FOR UPDATE", (game_id,))
                try:
                    yield
                finally:
                    conn.rollback()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the whole session (started on first use). At the end it
    waits for the servers stopping in the background (the session's :func:`live_postgres`
    among them: ``serve_kit.stop_soon``) before it stops."""
    server = PostgresServer()
    try:
        yield server
    finally:
        wrong = stopped()
        server.stop()
    assert wrong == [], f"servers stopped in the background: {wrong}"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each test that uses ``backend`` once per backend (SQLite alone if marked
    ``one_backend``: it stores nothing, so the backend cannot matter)."""
    if "backend" in metafunc.fixturenames:
        one = metafunc.definition.get_closest_marker("one_backend") is not None
        metafunc.parametrize("backend", BACKENDS[:1] if one else BACKENDS, indirect=True)


@pytest.fixture
def backend(request, tmp_path) -> Backend:
    """Each backend in turn (see :func:`pytest_generate_tests`), with an empty database."""
    if request.param == "postgresql":
        return Backend("postgresql", request.getfixturevalue("postgres").new_database())
    return Backend("sqlite", str(tmp_path / "games.db"))


@pytest.fixture
def store(backend) -> Iterator[Store]:
    """The store over this test's database (each backend in turn)."""
    opened = (
        Storage(backend.address, durable=False)
        if backend.name == "sqlite"
        else open_store(backend.address)
    )
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def module_app(tmp_path_factory) -> flask.Flask:
    """One app (JSON API and scorepad) for a module's tests, ``TESTING``, secret key ``test``.

    Building an app costs about a tenth of a second of CPU (flask-smorest copies every
    view's documentation as it registers them): a test gives it an empty database of
    its own with :func:`serving_database`. Its first database is left unused.
    """
    folder = tmp_path_factory.mktemp("app")
    app = create_app({"DB": str(folder / "unused.db"), "SECRET_KEY": "test", "TESTING": True})
    app.extensions[STORAGE_KEY].close()
    return app


@contextmanager
def serving_database(app: flask.Flask, address: str | os.PathLike) -> Iterator[flask.Flask]:
    """``app`` (:func:`module_app`) serving the database at ``address`` until the block ends."""
    app.config["DB"] = str(address)
    store = open_storage(app)
    try:
        yield app
    finally:
        store.close()


@pytest.fixture
def db(tmp_path) -> Path:
    """This test's own SQLite file (created when :func:`client` or a store first opens it)."""
    return tmp_path / "pad.db"


@pytest.fixture
def client(module_app, db) -> Iterator[flask.testing.FlaskClient]:
    """A phone: a test client of the module's app over this test's own database (:func:`db`)."""
    with serving_database(module_app, db) as app:
        yield app.test_client()


@pytest.fixture
def app(module_app, backend) -> Iterator[flask.Flask]:
    """The module's app over this test's empty database (each backend in turn)."""
    with serving_database(module_app, backend.address):
        yield module_app


class Live:
    """A running server: its base URL and its database (a SQLite file or a PostgreSQL URL)."""

    def __init__(self, url: str, db):
        self.url = url
        self.db = db
        self.backend = "postgresql" if is_postgres(db) else "sqlite"

    def new_game(self, session: requests.Session | None = None, **settings) -> tuple[str, dict]:
        """A new game of Ana and Ben: (its API URL, the Authorization header to write)."""
        settings.setdefault("players", ["Ana", "Ben"])
        settings.setdefault("dealer", 0)
        response = (session or requests).post(f"{self.url}/api/v1/games", json=settings, timeout=10)
        assert response.status_code == 201, response.text
        body = response.json()
        return f"{self.url}{body['url']}", {"Authorization": f"Bearer {body['edit_token']}"}


@contextmanager
def _serving(db: str | Path) -> Iterator[Live]:
    process, url = spawn(db, workers=LIVE_WORKERS)
    try:
        yield Live(url, db)
    finally:
        stop_soon(process, f"the session's server over {db}")


@pytest.fixture(scope="session")
def live(tmp_path_factory):
    """``scorekeeper serve`` with 4 workers on a free loopback port and a temporary database."""
    with _serving(tmp_path_factory.mktemp("live") / "live.db") as server:
        yield server


@pytest.fixture(scope="session")
def live_postgres(postgres):
    """As :func:`live`, over a PostgreSQL database."""
    with _serving(postgres.new_database()) as server:
        yield server


@pytest.fixture(params=BACKENDS)
def live_server(request) -> Live:
    """:func:`live` and :func:`live_postgres` in turn."""
    return request.getfixturevalue("live" if request.param == "sqlite" else "live_postgres")


@pytest.fixture(scope="session", autouse=True)
def servers_stopped() -> Iterator[None]:
    """At the end of the session (its last teardown), every server a module's fixture
    stopped in the background (``serve_kit.stop_soon``) has ended, with the status asked."""
    yield
    wrong = stopped()
    assert wrong == [], f"servers stopped in the background: {wrong}"


_BROWSERS: list = []
"""The session's browser, once a test has started it (:func:`browser`)."""


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium driven by Playwright (see ``browser_kit``), for every browser test."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        _BROWSERS.append(browser)
        yield browser
        _BROWSERS.remove(browser)
        browser.close()


@pytest.fixture(autouse=True)
def _pages_closed() -> Iterator[None]:
    """Close the browser contexts a test opened (its own or its function-scoped fixtures')
    once it ends.

    A page left open goes on working for the rest of the session: a wall checks its
    event every second and reloads every 10 s, a director's page every 5 s, a live sheet
    keeps its stream. Measured: 9 pages still open after the wall's file. Contexts of
    wider-scoped fixtures, set up before this one, are left to them."""
    before = [context for b in _BROWSERS for context in b.contexts]
    yield
    for b in _BROWSERS:
        for context in b.contexts:
            if not any(context is kept for kept in before):
                context.close()


_fast_tier = False
"""Whether this run is the fast tier (``-m fast``): set when pytest starts."""

_soak_tier = False
"""Whether this run's ``-m`` expression names the soak tier: set when pytest starts."""


RAM_FOLDER = "/dev/shm"
"""Linux's RAM file system: the fast tier's temporary files go there if it has room."""

RAM_ROOM = 1 << 30
"""The free space :data:`RAM_FOLDER` needs for the fast tier to use it (bytes)."""


def pytest_configure(config: pytest.Config) -> None:
    """Note whether this run is the fast tier; if so, keep its temporary files in RAM.
    Order the work longest first (:class:`LongestFirst`).

    The app's SQLite store syncs every commit to the disk (it is durable, as it is
    served), and the fast tier's apps make about 4,000 syncs of throwaway databases,
    2 ms each on a disk, 8 s of a run spent waiting; on a RAM file system a sync
    costs nothing. The whole suite keeps them on the disk (its servers and
    durability tests write there as in production).
    """
    global _fast_tier, _soak_tier
    config.pluginmanager.register(LongestFirst(), "longest_first")
    _fast_tier = config.getoption("markexpr").strip() == "fast"
    _soak_tier = _soak_asked(config)
    if _fast_tier and _has_room(RAM_FOLDER):
        tempfile.tempdir = RAM_FOLDER  # tmp_path's folders too (pytest asks tempfile)


def _has_room(folder: str) -> bool:
    """Whether ``folder`` is there, writable and has :data:`RAM_ROOM` free."""
    try:
        free = os.statvfs(folder)
    except OSError:
        return False
    return os.access(folder, os.W_OK) and free.f_bavail * free.f_frsize >= RAM_ROOM


def examples(full: int) -> int:
    """How many examples a test tries (a hypothesis test's, or the seeds a loop plays):
    ``full`` in the whole suite (or a file run alone); in the fast tier (``-m fast``) a
    twentieth, at least :data:`FAST_LEAST` (or ``full`` if fewer).

    Only for a test whose every example is checked on its own (not for a test that
    counts what its examples found)."""
    least = min(full, FAST_LEAST)
    return max(full // FAST_SHARE, least) if _fast_tier else full


def fast_first(values: Iterable[object]) -> list[object]:
    """``values`` to parametrize a test with (its seeds, say), the first alone in the fast
    tier: the others are marked ``slow``, so the whole suite tries them all."""
    first, *others = values
    return [first, *(pytest.param(value, marks=pytest.mark.slow) for value in others)]


def today() -> date:
    """Today in UTC, read when asked, not when a module is imported: a test that compares it
    with a day the server wrote reads it after the server wrote and allows the day next to
    it (a run that crosses midnight)."""
    return datetime.now(UTC).date()


SOAK_SHARE = 20
"""Outside the ``soak`` tier a heavy sweep tries one in this many of its cases
(:func:`soak_shares`)."""


SWEEP_SHARE = 4
"""Outside the ``soak`` tier a test marked ``sweep`` tries one in this many of its
examples (:func:`sweep_examples`)."""


def sweep_examples(full: int) -> int:
    """How many examples a test marked ``sweep`` tries: ``full`` in the ``soak`` tier, a
    quarter (:data:`SWEEP_SHARE`) in the default run, as :func:`examples` in the fast
    tier."""
    if _soak_tier:
        return full
    return examples(full) if _fast_tier else max(full // SWEEP_SHARE, FAST_LEAST)


def soak_shares() -> list[object]:
    """The shares of a heavy sweep to parametrize it with (``share``: it tries ``full //
    share`` of its cases): a twentieth (:data:`SOAK_SHARE`) in the default run, the whole
    in the ``soak`` tier (``-m soak``)."""
    return [
        pytest.param(SOAK_SHARE, id="twentieth"),
        pytest.param(1, id="whole", marks=pytest.mark.soak),
    ]


def _soak_asked(config: pytest.Config) -> bool:
    """Whether this run's ``-m`` expression names the ``soak`` tier."""
    return re.search(r"\bsoak\b", config.getoption("markexpr")) is not None


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: object):
    """In the fast tier, a test function that asks for a fixture of :data:`SLOW_FIXTURES`
    is not collected at all (schemathesis would generate its cases first, for seconds).

    A wrapper, and the outermost one: schemathesis' own wrapper puts its collector in
    place of whatever the plain hooks answer."""
    made = yield
    if _fast_tier and callable(obj) and collector.funcnamefilter(name):
        try:
            asked = inspect.signature(obj).parameters
        except (TypeError, ValueError):
            return made
        if SLOW_FIXTURES.intersection(asked):
            return []
    return made


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``fast`` every test that starts no server, browser, PostgreSQL, Java or node;
    leave out the ``soak`` tier's tests unless ``-m`` names it."""
    if _soak_asked(config):
        for item in items:
            if item.get_closest_marker("sweep"):
                item.add_marker(pytest.mark.soak)  # all its examples: see sweep_examples
    else:
        soaked = [item for item in items if item.get_closest_marker("soak")]
        if soaked:
            config.hook.pytest_deselected(items=soaked)
            items[:] = [item for item in items if not item.get_closest_marker("soak")]
    for item in items:
        if item.get_closest_marker("soak"):
            continue  # a soak test is never fast
        fixtures = set(getattr(item, "fixturenames", ()))
        params = getattr(item, "callspec", None)
        on_postgres = params is not None and params.params.get("backend") == "postgresql"
        if not (fixtures & SLOW_FIXTURES or on_postgres or item.get_closest_marker("slow")):
            item.add_marker(pytest.mark.fast)


COSTS = {"browser": 15.0, "server": 5.0, "shared": 0.5, "fast": 0.05}
"""A test's guessed cost (seconds) by kind, to order the work (:class:`LongestFirst`): one
driving chromium; one starting servers of its own (a module's ``server``, or marked
``slow``); one on PostgreSQL or a session's shared server, started once per process; a
fast one. A test far off its kind's guess says its own: ``@pytest.mark.cost(seconds)``.
Rough: only how they compare counts."""

OWN_SERVERS = frozenset({"server", "served", "tls_server", "wheel", "generated"})
"""The fixtures of :data:`SLOW_FIXTURES` that start something for one module."""


def _cost(item: pytest.Item) -> float:
    """The guessed cost of ``item``, in seconds (:data:`COSTS`)."""
    said = item.get_closest_marker("cost")
    if said is not None:
        return float(said.args[0])
    fixtures = set(getattr(item, "fixturenames", ()))
    if "browser" in fixtures:
        return COSTS["browser"]
    if fixtures & OWN_SERVERS or item.get_closest_marker("slow"):
        return COSTS["server"]
    return COSTS["fast" if item.get_closest_marker("fast") else "shared"]


def _scope(item: pytest.Item) -> str:
    """The unit of work ``--dist loadscope`` gives one process at a time: the test's class,
    or its module (pytest-xdist's own split of the test's id)."""
    return item.nodeid.rsplit("::", 1)[0]


class LongestFirst:
    """Run the costliest units of work (:func:`_scope`) first, the many quick ones last.

    pytest-xdist hands each free process the next unit in the collection's order
    (``tests/run.sh`` turns its own reordering, by number of tests, off: that put
    the one-test browser walks, two minutes each, at the very end, one process
    finishing them alone). Longest first, the short units fill the gaps at the
    end and the processes finish together. A unit's tests keep their order."""

    @pytest.hookimpl(trylast=True)  # after the tiers are marked and pytest's own grouping
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        cost: dict[str, float] = {}
        for item in items:
            cost[_scope(item)] = cost.get(_scope(item), 0.0) + _cost(item)
        rank = {scope: place for place, scope in enumerate(cost)}
        items.sort(key=lambda item: (-cost[_scope(item)], rank[_scope(item)]))


_running_fast: pytest.Item | None = None
"""The ``fast`` test running now, if one is."""


def _slow_program(argv) -> str | None:
    """What of :data:`SLOW_PROGRAMS` (or ``scorekeeper serve``) command line ``argv`` starts."""
    words = [os.path.basename(os.fsdecode(word)) for word in argv]
    if words[:2] == ["scorekeeper", "serve"]:
        return "scorekeeper serve"
    return next((word for word in words if word in SLOW_PROGRAMS), None)


def _refuse_slow_programs(event: str, args: tuple) -> None:
    if event != "subprocess.Popen" or _running_fast is None:
        return
    argv = args[1]
    program = _slow_program(argv.split() if isinstance(argv, str | bytes) else argv)
    if program is not None:
        raise RuntimeError(
            f"{_running_fast.nodeid} is marked fast but starts {program}: give it a fixture of"
            " SLOW_FIXTURES or mark it slow (tests/conftest.py)"
        )


sys.addaudithook(_refuse_slow_programs)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    """Watch a ``fast`` test (its set-up, call and tear-down) for :data:`SLOW_PROGRAMS`."""
    global _running_fast
    _running_fast = item if item.get_closest_marker("fast") else None
    try:
        return (yield)
    finally:
        _running_fast = None


@pytest.fixture(autouse=True)
def no_page_errors() -> Iterator[None]:
    """A page watched by ``browser_kit.watch_errors`` had no script error during the test."""
    PAGE_ERRORS.clear()
    yield
    assert PAGE_ERRORS == [], f"browser errors: {PAGE_ERRORS}"
