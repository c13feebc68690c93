"""``backup`` and ``restore``: the database copied out and back in."""

from __future__ import annotations

import click

from ..store.backup import BackupError, MissingFolder, backup, restore
from .options import DB_OPTION, BadInput, database


def _summary(result: dict[str, int]) -> str:
    return f"{result['games']} game(s), {result['entries']} log entries"


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False))
@DB_OPTION
def backup_command(path: str, db: str | None) -> None:
    """Copy the database to PATH with SQLite's online backup (the server may be running)."""
    try:
        result = backup(database(db), path)
    except MissingFolder as error:  # a mistyped PATH: bad input, exit status 2
        raise BadInput(str(error)) from None
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"backed up {_summary(result)} to {path}")


@click.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@DB_OPTION
@click.option("--force", is_flag=True, help="Replace a database that already holds games.")
def restore_command(path: str, db: str | None, force: bool) -> None:
    """Replace the database's contents with the backup PATH, after checking it.

    PATH must be a sound scorekeeper database (integrity check, schema
    version, tables); a running server switches to the restored games at
    once (one transaction).
    """
    target = database(db)
    try:
        result = restore(path, target, force=force)
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"restored {_summary(result)} from {path} into {target}")
