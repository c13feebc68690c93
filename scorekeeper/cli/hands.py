"""``melds`` and ``verify``: a hand's melds and a knock checked, cards shown as people read them."""

from __future__ import annotations

import json
from collections.abc import Sequence

import click

from ..arrangements import meld_report
from ..cards import parse_card
from ..errors import ScorekeeperError
from ..knock import KnockResult, verify_knock
from ..melds import DiscardReport
from ..rules import Rules
from .options import fail


def show_cards(codes: Sequence[str]) -> str:
    """Card codes as people read them: ``A♠ 2♠ 3♠``."""
    return " ".join(parse_card(code).symbol for code in codes) or "-"


def show_melds(melds: Sequence[Sequence[str]]) -> str:
    """Melds as ``[A♠ 2♠ 3♠] [7♣ 7♦ 7♥]``."""
    return " ".join(f"[{show_cards(meld)}]" for meld in melds) or "-"


@click.command()
@click.argument("cards")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def melds(cards: str, as_json: bool) -> None:
    """Optimal melds of CARDS (e.g. "As 2s 3s 7c 7d 7h ..."); with 11, the best discards."""
    try:
        report = meld_report(cards)
    except ScorekeeperError as error:
        fail(error)
    if as_json:
        click.echo(json.dumps(report.to_dict(), ensure_ascii=False))
        return
    found = report.arrangements
    click.echo(f"deadwood {found[0].deadwood}; {len(found)} optimal arrangement(s)")
    for arrangement in found:
        click.echo(
            f"  melds {show_melds(arrangement.melds)}"
            f"  deadwood {show_cards(arrangement.deadwood_cards)}"
        )
    if isinstance(report, DiscardReport) and report.discards:
        click.echo(
            "discards: "
            + ", ".join(f"{parse_card(d.discard).symbol} -> {d.deadwood}" for d in report.discards)
        )


@click.command()
@click.option("--knocker", required=True, help="The knocker's 10 cards (11 for big gin).")
@click.option("--defender", required=True, help="The defender's 10 cards.")
@click.option(
    "--preset",
    default="standard",
    show_default=True,
    type=click.Choice(Rules.preset_names()),
    help="Rule preset.",
)
@click.option("--upcard", default=None, help="The deal's first upcard (Oklahoma).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def verify(knocker: str, defender: str, preset: str, upcard: str | None, as_json: bool) -> None:
    """Check a knock and score the hand."""
    try:
        result = verify_knock(knocker, defender, rules=Rules.preset(preset), upcard=upcard)
    except ScorekeeperError as error:
        fail(error)
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
        return
    click.echo(format_showdown(result))


def format_showdown(result: KnockResult) -> str:
    """A verify_knock result as a few lines for people."""
    k, d, b = result.knocker, result.defender, result.breakdown
    lines = [
        f"knocker   melds {show_melds(k.melds)}  deadwood {show_cards(k.deadwood_cards)}"
        f" = {k.deadwood}",
        f"defender  melds {show_melds(d.melds)}  deadwood {show_cards(d.deadwood_cards)}"
        f" = {d.deadwood}",
    ]
    if d.layoffs:
        lines.append(
            "layoffs   "
            + ", ".join(f"{parse_card(x.card).symbol} on [{show_cards(x.meld)}]" for x in d.layoffs)
        )
    factor = f" x {b.multiplier}" if b.multiplier != 1 else ""
    lines.append(
        f"{result.outcome.replace('_', ' ')}: {result.winner} scores"
        f" {result.points} ({b.difference} + bonus {b.bonus}{factor})"
    )
    return "\n".join(lines)
