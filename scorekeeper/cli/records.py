"""``simulate`` and ``import``: commands that write records (JSON Lines)."""

from __future__ import annotations

import json
import sys
from contextlib import nullcontext
from typing import IO

import click

from ..bots import make_players, simulate_deal, simulate_match
from ..errors import ScorekeeperError
from ..imports import SOURCES, import_text
from ..rules import Rules
from .options import PROGRESS_AFTER, fail, output_option


@click.command("simulate")
@click.option(
    "--games",
    "-n",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="How many deals (or matches, with --match) to play.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Seed of the first deal; deal k uses seed+k.",
)
@click.option(
    "--players",
    default="greedy,greedy",
    show_default=True,
    help="Two player kinds: greedy or random.",
)
@click.option(
    "--preset",
    default="standard",
    show_default=True,
    type=click.Choice(Rules.preset_names()),
    help="Rule preset.",
)
@click.option(
    "--match",
    "matches",
    is_flag=True,
    help="Write whole match records (one game each) instead of deal records.",
)
@output_option("the records (JSON Lines)")
def simulate_command(
    games: int, seed: int, players: str, preset: str, matches: bool, output: IO[str]
) -> None:
    """Play deals with simulated players and write them as JSON Lines records.

    Each record can be checked with "scorekeeper replay"; a summary goes
    to standard error.
    """
    try:
        make_players(players)
    except ScorekeeperError as error:
        fail(error)
    counts = _simulate(games, seed, players, Rules.preset(preset), matches, output)
    what = "match(es)" if matches else "deal(s)"
    summary = ", ".join(f"{n} {o.replace('_', ' ')}" for o, n in sorted(counts.items()))
    click.echo(f"simulated {games} {what} (seeds {seed}..{seed + games - 1}): {summary}", err=True)


def _simulate(
    games: int, seed: int, players: str, rules: Rules, matches: bool, output: IO[str]
) -> dict[str, int]:
    """Play ``games`` deals (or matches) from ``seed`` on, writing each record to
    ``output`` (a progress bar on standard error for many); how many ended each way."""
    counts: dict[str, int] = {}
    progress = (
        click.progressbar(range(games), label="simulating", file=sys.stderr)
        if games >= PROGRESS_AFTER
        else nullcontext(range(games))
    )
    with progress as bar:
        for k in bar:
            if matches:
                record = simulate_match(seed + k, rules=rules, players=players)
                outcomes = ["match"]
            else:
                record, result = simulate_deal(seed + k, rules=rules, players=players)
                outcomes = [str(result.outcome or "void")]
            for outcome in outcomes:
                counts[outcome] = counts.get(outcome, 0) + 1
            output.write(json.dumps(record, ensure_ascii=False) + "\n")
    return counts


@click.command("import")
@click.option(
    "--from",
    "source",
    required=True,
    type=click.Choice(SOURCES),
    help="The system the input comes from.",
)
@click.argument("file", type=click.File("r", encoding="utf-8"))
@output_option("the records (JSON Lines)")
def import_command(source: str, file: IO[str], output: IO[str]) -> None:
    """Import FILE from another system as records, one per line, in input order.

    openspiel: JSON lines {"history", "params"} of pyspiel gin_rummy games
    (one deal record each); neller: the verbose log of Neller's EAAI
    GinRummyGame (one match record per game). What cannot be imported is
    reported on standard error naming the line (and history position); the
    rest is still written, and the exit status is then 1.
    """
    result = import_text(source, file.read())
    for record in result.records:
        output.write(json.dumps(record, ensure_ascii=False) + "\n")
    for fault in result.errors:
        click.echo(f"{file.name}: {fault}", err=True)
    click.echo(f"imported {len(result.records)} record(s), {len(result.errors)} refused", err=True)
    if result.errors:
        sys.exit(1)
