"""``keys``: a club site's or a bot league's API keys."""

from __future__ import annotations

import click

from ..errors import ScorekeeperError
from ..store import access
from ..store.refusals import NameTaken
from .options import DB_OPTION, BadInput, stored_at


@click.group("keys")
def keys_group() -> None:
    """API keys: a club site's or a bot league's credential (Authorization: Bearer <key>).

    A game created with a key belongs to it, and GET /api/v1/games lists the key's games.
    """


@keys_group.command("create")
@click.argument("name")
@click.option(
    "--bot",
    is_flag=True,
    help="A key for bots and simulations: the games made with it stay out of the ratings.",
)
@DB_OPTION
def keys_create(name: str, bot: bool, db: str | None) -> None:
    """Make a key called NAME and print it: it is shown only now (the store keeps its hash)."""
    try:
        with stored_at(db) as store:
            key = access.create_key(store, name, bot=bot)
    except ScorekeeperError as error:
        raise BadInput(str(error)) from None
    except NameTaken as error:
        raise click.ClickException(f"{error} (revoke it first, or choose another name)") from None
    click.echo(key)
    click.echo(
        f"key {name!r} made: it is shown only now; send it as Authorization: Bearer <key>",
        err=True,
    )


@keys_group.command("list")
@DB_OPTION
def keys_list(db: str | None) -> None:
    """Every key, oldest first: its name, when it was made, its games, if it was revoked, and
    "bot (not rated)" for a key made with --bot."""
    with stored_at(db) as store:
        keys = store.api_keys()
    for key in keys:
        revoked = f"revoked {key.revoked}" if key.revoked else "in use"
        bot = "\tbot (not rated)" if key.bot else ""
        click.echo(f"{key.name}\t{key.created}\t{key.games} game(s)\t{revoked}{bot}")


@keys_group.command("revoke")
@click.argument("name")
@DB_OPTION
def keys_revoke(name: str, db: str | None) -> None:
    """Revoke the key called NAME: it opens nothing from now on (its games stay)."""
    with stored_at(db) as store:
        revoked = store.revoke_api_key(name)
    if not revoked:
        raise click.ClickException(f"there is no key called {name!r} in use")
    click.echo(f"revoked key {name!r}")
