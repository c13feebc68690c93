"""What the commands share: grouped options, the output and database options, refusals."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click
from click.decorators import FC

from ..errors import ScorekeeperError
from ..store import Store, open_store


def fail(error: ScorekeeperError) -> None:
    """Report a bad input the way click reports usage errors (exit status 2)."""
    raise click.UsageError(str(error))


class BadInput(click.ClickException):
    """A refusal of bad input: click's plain "Error: ..." message, exit status 2."""

    exit_code = 2


def options(*decorators: Callable[[FC], FC]) -> Callable[[FC], FC]:
    """One decorator of several options, listed in the order ``--help`` shows them."""

    def apply(command: FC) -> FC:
        for decorator in reversed(decorators):
            command = decorator(command)
        return command

    return apply


def output_option(what: str) -> Callable[[FC], FC]:
    """The ``-o/--output`` option of a command that writes ``what`` (standard output by
    default)."""
    return click.option(
        "-o",
        "--output",
        type=click.File("w", encoding="utf-8"),
        default="-",
        show_default=True,
        help=f"Where to write {what}.",
    )


PROGRESS_AFTER = 200
"""Files with at least this many records show a progress bar (on standard error)."""


DB_OPTION = click.option(
    "--db",
    default=None,
    metavar="PATH",
    help="SQLite database file or postgresql:// URL [default: the DB setting:"
    " $SCOREKEEPER_DB, else instance/config.py, else ./scorekeeper.db].",
)
"""The ``--db`` option of the commands that use the game store: it overrides the app's
``DB`` setting, which the app's own loader reads (:func:`api.settings`) when it is not given."""


def database(db: str | None) -> str:
    """The database a store command uses: ``--db``, else the ``DB`` setting ``serve`` opens."""
    from api import settings  # the web layer's settings loader

    return str(settings({"DB": db} if db else None)["DB"])


@contextmanager
def stored_at(db: str | None) -> Iterator[Store]:
    """The store of :func:`database` for a command, closed when it is done (a PostgreSQL
    pool's threads are stopped, not left to the garbage collector)."""
    store = open_store(database(db))
    try:
        yield store
    finally:
        store.close()
