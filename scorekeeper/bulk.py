"""Bulk replay beyond one core: a process pool, or a Dask cluster for big archives.

Both take the ``(label, record)`` pairs of :func:`~scorekeeper.records.read_records`
and yield one :data:`Outcome` per record **in input order**, as soon as it
and all before it are done (so a progress bar can follow), whatever order
the workers finish in. An outcome is ``(label, result, None)`` for a record
that replays, ``(label, None, error)`` for one that does not, ``error``
being ``{"error": message, "step", "deal", "field"}`` (plain data: it
crosses process and machine boundaries as it is).

* :func:`replay_in_processes` uses a ``multiprocessing`` pool of ``jobs``
  processes (none when ``jobs`` is 1 or there is at most one record: the
  records are replayed here).
* :func:`replay_on_cluster` runs the replay as a Dask bag on a
  ``distributed`` cluster (``tcp://host:8786``): the records are split into
  partitions of :data:`PARTITION_SIZE` (the shards), each partition is one
  task, and partitions are collected in order. It needs the optional
  ``dask`` extra (``pip install 'scorekeeper[dask]'``) and, on the workers,
  scorekeeper itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from multiprocessing import Pool
from typing import TYPE_CHECKING, Any, TypedDict

from .errors import RecordError
from .rescore import Replayed, replay_any

if TYPE_CHECKING:  # the dask extra may be missing: it is imported when a cluster is used
    from dask.delayed import Delayed
    from distributed import Client


class Refusal(TypedDict):
    """Why a record does not replay: the message, and the step, deal and field it names."""

    error: str
    step: int | None
    deal: int | None
    field: str | None


Outcome = tuple[str, Replayed | None, Refusal | None]
"""``(label, result or None, refusal or None)``."""

PARTITION_SIZE = 100
"""Records per Dask partition: big enough to amortise a task, small enough to spread."""

CONNECT_TIMEOUT = "10s"
"""How long to wait for the Dask scheduler before giving up."""


def all_cores() -> int:
    """The cores this process may run on (the default number of jobs)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def replay_one(item: tuple[str, Any]) -> Outcome:
    """Replay one ``(label, record)`` pair; a record that is a RecordError is reported."""
    label, record = item
    try:
        if isinstance(record, RecordError):
            raise record
        return label, replay_any(record), None
    except RecordError as error:
        return (
            label,
            None,
            Refusal(error=str(error), step=error.step, deal=error.deal, field=error.field),
        )


def replay_partition(items: Sequence[tuple[str, Any]]) -> list[Outcome]:
    """Replay one partition of records, in order (one task on a Dask worker)."""
    return [replay_one(item) for item in items]


def replay_in_processes(items: Sequence[tuple[str, Any]], jobs: int) -> Iterator[Outcome]:
    """Replay the records with ``jobs`` processes, yielding outcomes in input order."""
    jobs = min(jobs, len(items))
    if jobs <= 1:
        yield from map(replay_one, items)
        return
    # a few chunks per process: little pickling overhead, yet the bar moves
    chunk = max(1, min(50, len(items) // (jobs * 4)))
    with Pool(jobs) as pool:
        yield from pool.imap(replay_one, items, chunksize=chunk)


def replay_on_cluster(items: Sequence[tuple[str, Any]], scheduler: str) -> Iterator[Outcome]:
    """Replay the records as a Dask bag on the cluster at ``scheduler``, in input order.

    Connects at once, so that a missing extra raises :class:`ImportError`
    (naming the extra) and an unreachable scheduler :class:`OSError` before
    any output; the outcomes then come as the partitions finish, in order.
    """
    try:
        import dask.bag as bag
        from distributed import Client
    except ImportError as error:
        raise ImportError(
            "replaying on a Dask cluster needs the dask extra: pip install 'scorekeeper[dask]'"
        ) from error
    if not items:
        return iter(())
    client = Client(scheduler, set_as_default=False, timeout=CONNECT_TIMEOUT)
    records = bag.from_sequence(items, partition_size=PARTITION_SIZE)
    return _in_order(client, records.map_partitions(replay_partition).to_delayed())


def _in_order(client: Client, partitions: list[Delayed]) -> Iterator[Outcome]:
    """Compute the partitions on the cluster and yield their outcomes partition by partition."""
    with client:
        for future in client.compute(partitions):
            yield from future.result()
