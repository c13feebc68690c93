"""``serve`` and ``deploy``: running the service, and a club server's files."""

from __future__ import annotations

import os
import sys

import click

from .options import DB_OPTION, options

LISTEN_OPTIONS = options(
    click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on."),
    click.option(
        "--port",
        type=click.IntRange(0, 65535),
        default=8000,
        show_default=True,
        help="Port to listen on.",
    ),
    click.option(
        "--workers",
        type=click.IntRange(min=1),
        default=2,
        show_default=True,
        help="gunicorn worker processes.",
    ),
    click.option(
        "--threads",
        type=click.IntRange(min=1),
        default=2,
        show_default=True,
        help="Threads per worker.",
    ),
)
"""``serve``'s address and port, and gunicorn's processes and threads."""

LOG_OPTIONS = options(
    click.option(
        "--log-level",
        default=None,
        type=click.Choice(["debug", "info", "warning", "error", "critical"], case_sensitive=False),
        help="Level of the application log and gunicorn's error log (standard error)"
        " [default: the LOG_LEVEL setting, else info].",
    ),
    click.option(
        "--access-log/--no-access-log",
        default=False,
        show_default=True,
        help="gunicorn's access log: one line per request on standard output.",
    ),
)
"""``serve``'s logs."""

TLS_OPTIONS = options(
    click.option(
        "--certfile",
        type=click.Path(exists=True, dir_okay=False),
        default=None,
        help="TLS certificate (PEM): serve HTTPS instead of HTTP.",
    ),
    click.option(
        "--keyfile",
        type=click.Path(exists=True, dir_okay=False),
        default=None,
        help="Private key of --certfile (PEM) [default: in the certificate file].",
    ),
    click.option(
        "--server-name",
        default=None,
        help="The host (and port) links and QR codes name, e.g. 192.168.1.20:8443"
        " [default: the SERVER_NAME setting, else the host the browser asked for].",
    ),
)
"""``serve``'s TLS and the host its links name."""


@click.command()
@LISTEN_OPTIONS
@DB_OPTION
@LOG_OPTIONS
@TLS_OPTIONS
def serve(
    host: str,
    port: int,
    workers: int,
    threads: int,
    db: str | None,
    log_level: str | None,
    access_log: bool,
    certfile: str | None,
    keyfile: str | None,
    server_name: str | None,
) -> None:
    """Run the JSON API (and the scorepad): nginx before gunicorn, until interrupted.

    With ``--certfile`` it serves HTTPS and HTTP/2 (nginx's TLS), which the scorepad
    needs to work offline and stay awake on a phone reaching a laptop at a
    LAN address; ``--keyfile`` alone is refused. ``--server-name`` names the host
    (and port) of every absolute link and QR code, whatever ``Host`` a browser sends.
    """
    if keyfile and not certfile:
        raise click.UsageError("--keyfile needs --certfile (the certificate it belongs to).")
    from api import check_server_name  # the web layer, loaded only here
    from api.server import serve as run_server

    try:
        check_server_name(server_name)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--server-name") from None
    given = {"DB": db, "LOG_LEVEL": log_level, "SERVER_NAME": server_name}
    run_server(
        host=host,
        port=port,
        workers=workers,
        threads=threads,
        config={key: value for key, value in given.items() if value is not None},
        access_log=access_log,
        certfile=certfile,
        keyfile=keyfile,
    )


@click.group()
def deploy() -> None:
    """Print the files of a club's server: an nginx site and systemd units (README)."""


@deploy.command("nginx")
@click.option(
    "--server-name", required=True, help="The site's host name (its Let's Encrypt certificate)."
)
def deploy_nginx(server_name: str) -> None:
    """Print the nginx site: HTTPS with Let's Encrypt's certificate, the serve limits."""
    from api.nginx import club_site  # the web layer, loaded only here

    click.echo(club_site(server_name), nl=False)


@deploy.command("systemd")
@click.option("--user", default="scorekeeper", show_default=True, help="The server's account.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--threads", type=click.IntRange(min=1), default=2, show_default=True)
def deploy_systemd(user: str, workers: int, threads: int) -> None:
    """Print the systemd units: the migrations once, then gunicorn behind nginx."""
    from api.systemd import units  # the web layer, loaded only here

    click.echo(units(os.path.dirname(sys.executable), user, workers, threads), nl=False)
