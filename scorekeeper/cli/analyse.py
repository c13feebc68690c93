"""``analyse``: where each deal of a file's records was won or lost."""

from __future__ import annotations

import json
import sys
from typing import IO

import click

from ..analysis import DealAnalysis, MatchAnalysis, analyse
from ..analysis_remarks import remarks
from ..errors import RecordError
from ..records import read_records
from .hands import show_cards


@click.command("analyse")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print one JSON analysis per record (JSON Lines), errors as {"error": ...}.',
)
def analyse_command(file: IO[str], as_json: bool) -> None:
    """Where each deal of FILE's records was won or lost (see scorekeeper.analysis).

    FILE holds deal or match records as for ``replay``. For each player:
    deadwood given away by discards, melds passed up, knocks and gins not
    taken, points the showdown cost; then each costly decision. A record
    that does not replay is reported on standard error (exit status 1).
    """
    bad = 0
    items = read_records(file.read())
    for label, record in items:
        try:
            if isinstance(record, RecordError):
                raise record
            report = analyse(record)
        except RecordError as error:
            bad += 1
            if as_json:
                click.echo(
                    json.dumps(
                        {
                            "record": label,
                            "error": str(error),
                            "step": error.step,
                            "deal": error.deal,
                            "field": error.field,
                        },
                        ensure_ascii=False,
                    )
                )
            click.echo(f"{label}: {error}", err=True)
            continue
        if as_json:
            click.echo(json.dumps(report.to_dict(), ensure_ascii=False))
            continue
        deals = report.deals if isinstance(report, MatchAnalysis) else (report,)
        for number, deal in enumerate(deals, 1):
            where = label if len(deals) == 1 else f"{label}, deal {number}"
            click.echo(
                f"{where}: "
                + (
                    "void"
                    if deal.void or deal.outcome is None
                    else f"{deal.outcome.replace('_', ' ')} for {deal.points}"
                )
            )
            click.echo(format_analysis(deal))
    if bad:
        click.echo(f"{bad} bad record(s) of {len(items)}", err=True)
        sys.exit(1)


def format_analysis(deal: DealAnalysis) -> str:
    """A deal's analysis as lines (:func:`~scorekeeper.analysis_remarks.remarks`' terse words): each
    player's summary, then the decisions that cost (indented further), then the showdown."""
    names = deal.players
    return "\n".join(
        ("    " if said.part == "decision" else "  ")
        + said.words(name=names.__getitem__, card=lambda code: show_cards([code]))
        for said in remarks(deal)
    )
