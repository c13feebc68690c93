"""``event``: club nights and tournaments stored in the database, exported."""

from __future__ import annotations

import json
from typing import IO

import click

from ..store.event_exports import event_csv, event_record
from ..store.refusals import NotFound
from .options import DB_OPTION, BadInput, output_option, stored_at


@click.group("event")
def event_group() -> None:
    """Club nights and tournaments stored in the database."""


@event_group.command("export")
@click.argument("event_id")
@click.option(
    "--what",
    type=click.Choice(["standings", "results", "record"]),
    default="standings",
    show_default=True,
    help="standings or results (CSV, as the API's export/*.csv), or record (the event"
    ' record "scorekeeper replay" scores again, as export/record.json).',
)
@output_option("the standings, results or record")
@DB_OPTION
def event_export(event_id: str, what: str, output: IO[str], db: str | None) -> None:
    """Write the stored event EVENT_ID's standings, results or record."""
    with stored_at(db) as store:
        try:
            stored = store.event(event_id)
        except NotFound:
            raise BadInput(f"there is no event {event_id!r} in this database") from None
        if what == "record":
            text = json.dumps(event_record(store, stored).to_dict(), ensure_ascii=False) + "\n"
        else:
            text = event_csv(store, stored, what)
    output.write(text)
