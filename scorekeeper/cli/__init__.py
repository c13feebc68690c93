"""The ``scorekeeper`` command line (click): melds, verify, serve and the other tools.

Human output shows cards with suit symbols; ``--json`` prints the same
result the JSON API returns. Bad input exits with status 2 and a message
naming what is wrong.

This package is the composition root: :data:`main` gathers the command
families, each in a module of its own (:mod:`.hands`, :mod:`.replay`,
:mod:`.analyse`, :mod:`.records`, :mod:`.serve`, :mod:`.backups`,
:mod:`.keys`, :mod:`.events`); only these modules reach up into the web
layer (``api``).
"""

from __future__ import annotations

import click

from .analyse import analyse_command
from .backups import backup_command, restore_command
from .events import event_group
from .hands import melds, verify
from .keys import keys_group
from .records import import_command, simulate_command
from .replay import replay_command
from .serve import deploy, serve


@click.group()
@click.version_option(package_name="scorekeeper")
def main() -> None:
    """Gin Rummy scorekeeping and hand verification."""


COMMANDS: tuple[click.Command, ...] = (
    melds,
    verify,
    replay_command,
    analyse_command,
    simulate_command,
    import_command,
    serve,
    deploy,
    backup_command,
    restore_command,
    keys_group,
    event_group,
)
"""Every command and command group, as ``main`` lists them (by name)."""

for command in COMMANDS:
    main.add_command(command)
