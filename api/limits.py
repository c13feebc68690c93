"""Bounds on what clients can make the server do: rate limits (Flask-Limiter) on creates
and wrong edit tokens, and one heavy request at a time per worker process.

Two limits, declared on the views they guard (:func:`create_limit`,
:func:`wrong_token_limit`):

* ``CREATE_LIMIT`` (default ``30 per minute``): games created, shared by
  ``POST /api/v1/games``, ``POST /api/v1/games/import`` and the scorepad's
  start form (and events: ``POST /api/v1/events``, the scorepad's new event
  form). Counted per API key for a request that sends a valid one
  (``Authorization: Bearer <key>``, :mod:`api.credentials`), so each club
  site or bot of a league has its own budget whatever address it shares;
  per client address otherwise. A club evening starts a game every few
  minutes per table; a whole club behind one address stays far below 30 a
  minute.
* ``WRONG_TOKEN_LIMIT`` (default ``20 per minute``): answers 401 or 403
  (no edit token, a wrong one, a scorepad without the game's edit right, a
  listing without a valid API key) of the views that need a right. Counted
  per client address, and only those answers count; once an address is over
  the limit every request to those views without a valid right is refused
  until the minute is over, so guessing gains nothing from the refusals. A
  request bearing a valid right (the game's edit token, a valid API key for
  a listing, a scorepad device holding the game's edit right: the holder
  checks given to :func:`install`) is never counted nor refused: a wrong
  guess from a shared address never locks out the players at the table.

Addresses are ``request.remote_addr``: behind a reverse proxy the
``PROXY_HOPS`` setting makes it the client's, through werkzeug's
``ProxyFix``, as ``scorekeeper serve`` sets it for its nginx; else every
player shares the proxy's budget.

Both are Flask-Limiter limit strings (``"30 per minute"``, ``"100/hour"``),
settable in the app config, or from ``$SCOREKEEPER_CREATE_LIMIT`` and
``$SCOREKEEPER_WRONG_TOKEN_LIMIT``. Over a limit: 429 with ``Retry-After``
(seconds to the end of the window), the JSON error body (code
``too_many_requests``) in the API and an error page in the scorepad; the
request did nothing. Windows are fixed (the minute starts at the first
counted request).

Counters must be shared by all gunicorn workers (Flask-Limiter's memory
storage is per process: 4 workers would allow 4 times the limit), and this
service needs no other server, so they live in a small SQLite file beside
the database, ``<database>-limits`` (:class:`SQLiteStorage`, a ``limits``
storage registered as ``sqlite://``; ``RATELIMIT_STORAGE_URI`` may name
another, e.g. ``redis://...``). It is a separate file so that counting
never waits for the games' writer; WAL mode, and no fsync (a counter lost
in a power cut costs nothing). An in-memory database (tests) counts in
memory. If the counter file fails, requests go through (logged): a limit
is not worth refusing a hand.

Heavy requests (a game import, a records import, an analysis, a replay:
their cost grows with the body) run one at a time in each worker process
(:func:`one_heavy_at_a_time`); one that arrives meanwhile gets 503 (code
``busy``, ``Retry-After: 1``) at once and did nothing.
"""

from __future__ import annotations

import functools
import math
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar, TypeVar, cast

from flask import Flask, Response, current_app, g
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits.storage import Storage
from werkzeug.exceptions import ServiceUnavailable

from scorekeeper.store.base import is_postgres

from . import credentials

LIMITER_KEY = "scorekeeper.limits"
"""Where the app keeps its :class:`AppLimits` in ``app.extensions``."""

CREATE = "create"
WRONG_TOKEN = "wrong-token"
HOLDS_RIGHT = "scorekeeper_holds_right"
"""Where a request keeps in ``flask.g`` whether it bears a valid right (see
:meth:`AppLimits.holds_right`)."""
SCOPE_ATTRIBUTE = "rate_limit_scope"
"""The attribute by which a view declared with :func:`create_limit` or
:func:`wrong_token_limit` names its limit (``create`` or ``wrong-token``)."""

View = TypeVar("View", bound=Callable[..., Any])


def create_limit(view: View) -> View:
    """Declare that ``view`` creates a game without any token: its requests count
    against ``CREATE_LIMIT`` (one budget shared by every view so declared)."""
    return _limited(view, CREATE)


def wrong_token_limit(view: View) -> View:
    """Declare that ``view`` needs the game's edit token or edit right (or an API key): its
    401 and 403 answers count against ``WRONG_TOKEN_LIMIT``, and over it every request to a
    view so declared is refused, but for one bearing a valid right (put it above the
    decorator that checks the token)."""
    return _limited(view, WRONG_TOKEN)


def _limited(view: View, scope: str) -> View:
    """``view`` guarded by the current app's limit ``scope`` (see :class:`AppLimits`)."""

    @functools.wraps(view)
    def limited(*args: Any, **kwargs: Any) -> Any:
        limits: AppLimits = current_app.extensions[LIMITER_KEY]
        if scope == WRONG_TOKEN and limits.holds_right():
            return view(*args, **kwargs)  # exempt: neither counted nor refused
        return limits.guard(view, scope)(*args, **kwargs)

    setattr(limited, SCOPE_ATTRIBUTE, scope)
    return cast(View, limited)


def scope_of(view: Callable[..., Any] | None, method: str) -> str | None:
    """The limit guarding ``view`` (a view function as routed) for ``method``, or ``None``.

    A class-based view (flask-smorest's) declares it on its method's function.
    """
    handler = getattr(getattr(view, "view_class", None), method.lower(), view)
    return getattr(handler, SCOPE_ATTRIBUTE, None)


NO_LIMITS_ENV = {
    "SCOREKEEPER_CREATE_LIMIT": "1000000 per minute",
    "SCOREKEEPER_WRONG_TOKEN_LIMIT": "1000000 per minute",
}
"""Environment for a server loaded from one address on purpose (the tests' shared server,
the benchmarks): limits that never bite."""


def defaults() -> dict[str, str]:
    """The limits' config defaults (``SCOREKEEPER_CREATE_LIMIT`` etc. override them, as any
    setting: see :func:`api.create_app`)."""
    return {"CREATE_LIMIT": "30 per minute", "WRONG_TOKEN_LIMIT": "20 per minute"}


def storage_uri(database: str) -> str:
    """The counters' storage for a game database: a SQLite file beside it, or memory.

    A PostgreSQL database is shared by servers on several machines, which a
    file cannot serve: the counters are then per process (``memory://``)
    unless the ``RATELIMIT_STORAGE_URI`` setting names a shared store that
    Flask-Limiter knows (a ``redis://`` or ``memcached://`` URL).
    """
    if (
        not database
        or database == ":memory:"
        or database.startswith("file:")
        or is_postgres(database)
    ):
        return "memory://"
    return f"sqlite://{os.path.abspath(database)}-limits"


_heavy = threading.Lock()


class Busy(ServiceUnavailable):
    """503 with ``Retry-After: 1`` (code ``busy``): nothing was done; send it again."""


@contextmanager
def one_heavy_at_a_time(what: str) -> Iterator[None]:
    """Run a heavy request alone in this worker process, or refuse it with :class:`Busy`
    at once. Heavy: the API's operations whose cost grows with the body (up to its 1 MB):
    ``importGame``, ``importRecords``, ``analyseRecord`` and ``replayRecord``.

    A game import of 1,000 hands costs about 0.6 s of CPU, a long record
    to analyse more: ten sent at once (an abuser's burst, or an eager
    script) held every thread of both workers and normal writes waited
    hundreds of milliseconds. With one at a time per process, another is
    refused at once (it holds no thread waiting; a client retries after
    ``Retry-After``), and each process keeps a thread for the tables' own
    requests. The scorepad never sends these requests.
    """
    if not _heavy.acquire(blocking=False):
        raise Busy(
            f"the server is busy with another {what} just now: nothing was done;"
            " send it again in a second"
        )
    try:
        yield
    finally:
        _heavy.release()


def _refused(response: Response) -> bool:
    return response.status_code in (401, 403)


def _client() -> str:
    """Whom a create counts against: the API key the request sends, if valid; else its
    address."""
    key = credentials.api_key()
    return f"key:{key.id}" if key is not None else get_remote_address()


Holder = Callable[[], bool]
"""A check that the current request bears a valid right to the view it asks for."""


class AppLimits:
    """One app's limiter and its two shared limits, each applied to a declared view on
    the view's first request (a module's views serve every app built in the process, each
    counting with its own limiter and counter storage). ``holders``: the checks of a
    valid right, which the wrong-token limit lets through."""

    def __init__(self, app: Flask, holders: Sequence[Holder]):
        app.config.setdefault("RATELIMIT_STORAGE_URI", storage_uri(str(app.config["DB"])))
        self.limiter = Limiter(
            get_remote_address,
            app=app,
            strategy="fixed-window",
            swallow_errors=True,
            key_prefix="scorekeeper",
        )
        # The limits are checked in the declared views only: the limiter's own check before
        # every request looks for app-wide limits, and there are none (it cost a tenth of a
        # small request's time in the worker, and as much again in each guarded view).
        app.before_request_funcs[None].remove(self.limiter._check_request_limit)
        self.holders = tuple(holders)
        self._limits = {
            CREATE: self.limiter.shared_limit(
                app.config["CREATE_LIMIT"], scope=CREATE, key_func=_client
            ),
            WRONG_TOKEN: self.limiter.shared_limit(
                app.config["WRONG_TOKEN_LIMIT"],
                scope=WRONG_TOKEN,
                deduct_when=_refused,
                exempt_when=self.holds_right,
            ),
        }
        self._guarded: dict[tuple[Callable[..., Any], str], Callable[..., Any]] = {}

    def holds_right(self) -> bool:
        """Whether the current request bears a valid right (one of the holder checks; asked
        once per request)."""
        if HOLDS_RIGHT not in g:
            setattr(g, HOLDS_RIGHT, any(holds() for holds in self.holders))
        held: bool = getattr(g, HOLDS_RIGHT)
        return held

    def guard(self, view: Callable[..., Any], scope: str) -> Callable[..., Any]:
        """``view`` under this app's limit ``scope`` (wrapped once, then kept)."""
        guarded = self._guarded.get((view, scope))
        if guarded is None:
            guarded = self._guarded[(view, scope)] = self._limits[scope](view)
        return guarded


def install(app: Flask, holders: Sequence[Holder] = ()) -> None:
    """Count the app's creates and wrong tokens in the views declared to (:func:`create_limit`,
    :func:`wrong_token_limit`); a request that one of ``holders`` says bears a valid right
    passes the wrong-token limit."""
    app.extensions[LIMITER_KEY] = AppLimits(app, holders)


def retry_after() -> int:
    """Whole seconds until the limit this request broke lets requests through again."""
    limit = current_app.extensions[LIMITER_KEY].limiter.current_limit
    return max(1, math.ceil(limit.reset_at - time.time())) if limit else 60


def refusal_message(description: str) -> str:
    """What a 429 says: whose budget (an API key's or the address'), which limit, and when
    to try again."""
    limit = current_app.extensions[LIMITER_KEY].limiter.current_limit
    keyed = (
        limit is not None
        and len(limit.request_args) > 1
        and limit.request_args[1].startswith("key:")
    )
    return (
        f"too many requests from {'this API key' if keyed else 'this address'} (at most"
        f" {description}); try again in {retry_after()} s"
    )


class SQLiteStorage(Storage):
    """A ``limits`` storage in one SQLite file, shared by every process that opens it.

    One table ``counters (key, count, expires)``; each increment is one
    ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING`` statement, atomic
    across processes, which restarts an expired window. Expired rows are
    deleted when a new window starts. Only the fixed-window strategy's
    operations are provided.
    """

    # limits annotates it as an instance variable, yet reads it from the class to register it
    STORAGE_SCHEME: ClassVar[list[str]] = ["sqlite"]  # type: ignore[misc]

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options: float | str | bool):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.path = uri.removeprefix("sqlite://")
        self._local = threading.local()

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def _db(self) -> sqlite3.Connection:
        """This thread's connection (a new one after a fork)."""
        local = self._local
        if getattr(local, "pid", None) != os.getpid():
            conn = sqlite3.connect(
                self.path, timeout=5, isolation_level=None, check_same_thread=False
            )
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = OFF")
            conn.execute(
                "CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY,"
                " count INTEGER NOT NULL, expires REAL NOT NULL)"
            )
            local.conn, local.pid = conn, os.getpid()
        mine: sqlite3.Connection = local.conn
        return mine

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        conn = self._db()
        count: int = conn.execute(
            "INSERT INTO counters (key, count, expires) VALUES (?1, ?2, ?3)"
            " ON CONFLICT (key) DO UPDATE SET"
            " count = CASE WHEN expires <= ?4 THEN ?2 ELSE count + ?2 END,"
            " expires = CASE WHEN expires <= ?4 THEN ?3 ELSE expires END"
            " RETURNING count",
            (key, amount, now + expiry, now),
        ).fetchone()[0]
        if count == amount:  # a new window: forget the expired ones
            conn.execute("DELETE FROM counters WHERE expires <= ?", (now,))
        return count

    def _read(self, key: str, column: str, default: Callable[[], float]) -> float:
        row = (
            self._db()
            .execute(
                f"SELECT {column} FROM counters WHERE key = ? AND expires > ?", (key, time.time())
            )
            .fetchone()
        )
        return float(row[0]) if row else default()

    def get(self, key: str) -> int:
        return int(self._read(key, "count", lambda: 0))

    def get_expiry(self, key: str) -> float:
        return self._read(key, "expires", time.time)

    def check(self) -> bool:
        return bool(self._db().execute("SELECT 1").fetchone() == (1,))

    def reset(self) -> int | None:
        return self._db().execute("DELETE FROM counters").rowcount

    def clear(self, key: str) -> None:
        self._db().execute("DELETE FROM counters WHERE key = ?", (key,))
