"""``replay``: deal, match, game and event records checked against the rules, in processes
or on a Dask cluster."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import nullcontext
from typing import IO, Any

import click

from ..bulk import Outcome as ReplayOutcome
from ..bulk import all_cores, replay_in_processes, replay_on_cluster
from ..records import ReplayedMatch, read_records
from ..rescore import Replayed, RescoredEvent, RescoredGame
from .options import PROGRESS_AFTER
from .replay_text import deal_line, format_deal, format_event, format_game, format_match


@click.command("replay")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print one JSON result per record (JSON Lines), errors as {"error": ...}.',
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="Processes to replay with (default: all cores).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Replay on the Dask cluster at this scheduler address (tcp://host:8786)"
    " instead of local processes; needs the dask extra.",
)
def replay_command(file: IO[str], as_json: bool, jobs: int | None, scheduler: str | None) -> None:
    """Replay deal or match records from FILE (- for standard input).

    FILE holds one JSON record, a JSON list of records, or JSON Lines. Every
    card, the dealer and every action are checked against the rules. A bad
    record prints where it is and the step's message ("line 4: step 3:
    cannot discard Js: it was just taken from the discard pile") on
    standard error; the other records are still replayed and the exit
    status is 1. Records are replayed by --jobs processes, or on a Dask
    cluster with --scheduler; the output is the same, in input order.
    """
    if jobs is not None and scheduler is not None:
        raise click.UsageError(
            "--jobs and --scheduler cannot be combined: the cluster's workers do the replaying"
        )
    items = read_records(file.read())
    counts: dict[str, int] = {}
    bad = _echo_outcomes(_replayed(items, jobs, scheduler), len(items), as_json, counts)
    if not as_json and len(items) > 1:
        summary = ", ".join(f"{n} {what.replace('_', ' ')}" for what, n in sorted(counts.items()))
        click.echo(
            f"{len(items) - bad} of {len(items)} record(s) replayed"
            + (f": {summary}" if summary else "")
        )
    if bad:
        click.echo(f"{bad} bad record(s) of {len(items)}", err=True)
        sys.exit(1)


def _replayed(
    items: Sequence[tuple[str, Any]], jobs: int | None, scheduler: str | None
) -> Iterator[ReplayOutcome]:
    """The outcomes of replaying ``items`` in input order: on the Dask cluster at
    ``scheduler``, else by ``jobs`` processes (all cores by default)."""
    if scheduler is None:
        return replay_in_processes(items, jobs or all_cores())
    try:
        return replay_on_cluster(items, scheduler)
    except ImportError as error:
        raise click.UsageError(str(error)) from error
    except OSError as error:
        raise click.UsageError(
            f"cannot reach the Dask scheduler at {scheduler}: {error}"
        ) from error


def _echo_outcomes(
    outcomes: Iterable[ReplayOutcome], total: int, as_json: bool, counts: dict[str, int]
) -> int:
    """Print the outcomes of ``total`` records (a progress bar on standard error for
    many), a refusal on standard error too; how many records were refused."""
    bad = 0
    progress = (
        click.progressbar(length=total, label="replaying", file=sys.stderr)
        if total >= PROGRESS_AFTER
        else nullcontext(None)
    )
    with progress as bar:
        for label, result, refusal in outcomes:
            if bar is not None:
                bar.update(1)
            if refusal is not None:
                bad += 1
                if as_json:
                    click.echo(json.dumps({"record": label, **refusal}, ensure_ascii=False))
                click.echo(f"{label}: {refusal['error']}", err=True)
                continue
            assert result is not None  # a record is either replayed or refused
            if as_json:
                click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
            else:
                _echo_replayed(label, result, total == 1, counts)
    return bad


def _echo_replayed(label: str, result: Replayed, single: bool, counts: dict[str, int]) -> None:
    """Print one replayed record in words (the only record of a file in full); a deal's
    outcomes (each of a match's) are counted in ``counts``."""
    if isinstance(result, RescoredEvent):
        click.echo(format_event(result, label))
        return
    if isinstance(result, RescoredGame):
        click.echo(format_game(result, label))
        return
    deals = result.deals if isinstance(result, ReplayedMatch) else (result,)
    for deal in deals:
        outcome = str(deal.outcome or "void")
        counts[outcome] = counts.get(outcome, 0) + 1
    if isinstance(result, ReplayedMatch):
        click.echo(format_match(result, label))
    elif single:
        click.echo(format_deal(result))
    else:
        click.echo(f"{label}: {deal_line(result)}")
