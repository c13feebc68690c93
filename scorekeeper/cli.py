"""The ``scorekeeper`` command line (click): melds, verify, serve and the other tools.

Human output shows cards with suit symbols; ``--json`` prints the same
result the JSON API returns. Bad input exits with status 2 and a message
naming what is wrong.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from typing import IO, Any

import click
from click.decorators import FC

from .analysis import DealAnalysis, MatchAnalysis, analyse
from .analysis_remarks import remarks
from .bots import make_players, simulate_deal, simulate_match
from .bulk import Outcome as ReplayOutcome
from .bulk import all_cores, replay_in_processes, replay_on_cluster
from .cards import parse_card
from .errors import RecordError, ScorekeeperError
from .imports import SOURCES, import_text
from .knock import KnockResult, verify_knock
from .melds import DiscardReport, meld_report
from .records import ReplayedDeal, ReplayedMatch, read_records
from .rescore import Replayed, RescoredEvent, RescoredGame, TimeCalled
from .results import Outcome
from .rules import Rules
from .sheet import AnyHandRecord, AnySheet, HollywoodSheet, PartnershipSheet
from .store import Store, access, event_exports, open_store
from .store.backup import BackupError, MissingFolder, backup, restore
from .store.base import NameTaken, NotFound


def show_cards(codes: Sequence[str]) -> str:
    """Card codes as people read them: ``A♠ 2♠ 3♠``."""
    return " ".join(parse_card(code).symbol for code in codes) or "-"


def show_melds(melds: Sequence[Sequence[str]]) -> str:
    """Melds as ``[A♠ 2♠ 3♠] [7♣ 7♦ 7♥]``."""
    return " ".join(f"[{show_cards(meld)}]" for meld in melds) or "-"


def fail(error: ScorekeeperError) -> None:
    """Report a bad input the way click reports usage errors (exit status 2)."""
    raise click.UsageError(str(error))


@click.group()
@click.version_option(package_name="scorekeeper")
def main() -> None:
    """Gin Rummy scorekeeping and hand verification."""


@main.command()
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


@main.command()
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


# ------------------------------------------------------------- engine: replay and simulate


def output_option(what: str) -> Callable[[FC], FC]:
    """The ``-o/--output`` option of a command that writes ``what`` (standard output by
    default)."""
    return click.option(
        "-o",
        "--output",
        type=click.File("w", encoding="utf-8"),
        default="-",
        show_default=True,
        help=f"Where to write {what}.",
    )


PROGRESS_AFTER = 200
"""Files with at least this many records show a progress bar (on standard error)."""


@main.command("replay")
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


@main.command("analyse")
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


@main.command("simulate")
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


@main.command("import")
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


DB_OPTION = click.option(
    "--db",
    default=None,
    metavar="PATH",
    help="SQLite database file or postgresql:// URL [default: the DB setting:"
    " $SCOREKEEPER_DB, else instance/config.py, else ./scorekeeper.db].",
)
"""The ``--db`` option of the commands that use the game store: it overrides the app's
``DB`` setting, which the app's own loader reads (:func:`api.settings`) when it is not given."""


def database(db: str | None) -> str:
    """The database a store command uses: ``--db``, else the ``DB`` setting ``serve`` opens."""
    from api import settings  # the web layer's settings loader

    return str(settings({"DB": db} if db else None)["DB"])


@contextmanager
def stored_at(db: str | None) -> Iterator[Store]:
    """The store of :func:`database` for a command, closed when it is done (a PostgreSQL
    pool's threads are stopped, not left to the garbage collector)."""
    store = open_store(database(db))
    try:
        yield store
    finally:
        store.close()


def options(*decorators: Callable[[FC], FC]) -> Callable[[FC], FC]:
    """One decorator of several options, listed in the order ``--help`` shows them."""

    def apply(command: FC) -> FC:
        for decorator in reversed(decorators):
            command = decorator(command)
        return command

    return apply


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


@main.command()
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


@main.group()
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


class _BadInput(click.ClickException):
    """A refusal of bad input: click's plain "Error: ..." message, exit status 2."""

    exit_code = 2


def _summary(result: dict[str, int]) -> str:
    return f"{result['games']} game(s), {result['entries']} log entries"


@main.command("backup")
@click.argument("path", type=click.Path(dir_okay=False))
@DB_OPTION
def backup_command(path: str, db: str | None) -> None:
    """Copy the database to PATH with SQLite's online backup (the server may be running)."""
    try:
        result = backup(database(db), path)
    except MissingFolder as error:  # a mistyped PATH: bad input, exit status 2
        raise _BadInput(str(error)) from None
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"backed up {_summary(result)} to {path}")


@main.command("restore")
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


@main.group("keys")
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
        raise _BadInput(str(error)) from None
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


@main.group("event")
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
            raise _BadInput(f"there is no event {event_id!r} in this database") from None
        if what == "record":
            text = (
                json.dumps(event_exports.event_record(store, stored).to_dict(), ensure_ascii=False)
                + "\n"
            )
        else:
            text = event_exports.event_csv(store, stored, what)
    output.write(text)


def _verb(outcome: Outcome) -> str:
    return {
        Outcome.KNOCK: "knocks",
        Outcome.UNDERCUT: "knocks",
        Outcome.GIN: "goes gin",
        Outcome.BIG_GIN: "goes big gin",
    }[outcome]


def deal_line(result: ReplayedDeal) -> str:
    """One deal result in one line: who went out, who scored, who deals next."""
    names = result.players
    showdown = result.showdown
    if showdown is None or result.knocker_player is None or result.winner_player is None:
        return (
            f"void hand (the stock is down to {result.stock_left} cards);"
            f" {names[result.next_dealer]} deals again"
        )
    knocker = names[result.knocker_player]
    winner = names[result.winner_player]
    undercut = " and is undercut" if showdown.outcome == Outcome.UNDERCUT else ""
    return (
        f"{knocker} {_verb(showdown.outcome)}{undercut}: {winner} scores {result.points};"
        f" {names[result.next_dealer]} deals next"
    )


def format_deal(result: ReplayedDeal) -> str:
    """A replayed deal for people: the hands dealt, the ending and the showdown."""
    names = result.players
    width = max(len(name) for name in names)
    lines = [
        f"{names[result.dealer]} deals; upcard {show_cards([result.upcard])};"
        f" knock limit {result.knock_limit}"
    ]
    for player, name in enumerate(names):
        dealt = sorted(result.dealt[player], key=lambda code: parse_card(code).index)
        lines.append(f"  {name:<{width}}  dealt {show_cards(dealt)}")
    showdown = result.showdown
    if showdown is None or result.knocker_player is None or result.winner_player is None:
        lines.append(
            f"after {result.actions} actions the stock is down to"
            f" {result.stock_left} cards: the hand is void"
        )
        for player, name in enumerate(names):
            lines.append(f"  {name:<{width}}  holds {show_cards(result.hands[player])}")
        lines.append(f"nobody scores; {names[result.next_dealer]} deals again")
        return "\n".join(lines)
    knocker = names[result.knocker_player]
    discard = f", discarding {show_cards([result.discard])}" if result.discard else ""
    lines.append(
        f"{knocker} {_verb(showdown.outcome)}{discard} after {result.actions} actions"
        f" ({result.stock_left} cards left in the stock)"
    )
    lines.append(format_showdown(showdown))
    lines.append(
        f"{names[result.winner_player]} scores {result.points};"
        f" {names[result.next_dealer]} deals next"
    )
    return "\n".join(lines)


def format_match(result: ReplayedMatch, label: str = "match") -> str:
    """A replayed match: one line per deal, then the totals and the result."""
    sheet = result.sheet
    names = sheet.players
    lines = [_sheet_head(sheet, label)]
    hands: Sequence[AnyHandRecord] = sheet.hands
    for index, (deal, hand) in enumerate(zip(result.deals, hands, strict=True)):
        lines.append(f"  deal {index}: {deal_line(deal)}  [{_pair(names, hand.totals)}]")
    return "\n".join([*lines, *_sheet_end(sheet)])


def format_game(result: RescoredGame, label: str = "game") -> str:
    """An exported game scored again: its hands' count, then the totals and the result."""
    sheet = result.sheet
    return "\n".join(
        [_sheet_head(sheet, label), f"  {len(sheet.hands)} hand(s)", *_sheet_end(sheet)]
    )


def format_event(result: RescoredEvent, label: str = "event") -> str:
    """An event record scored again: one line per match, then the standings."""
    lines = [f"{label}: event {result.event.get('name')!r} ({result.event.get('format')})"]
    for match in result.matches:
        names = match.game.players
        where = f"round {match.round}, table {match.table}: {' vs '.join(names)}"
        if match.ended_by_director is not None:
            lines.append(f"  {where}: {time_called(match.ended_by_director, names)}")
        elif match.winner is None or match.final is None:
            lines.append(f"  {where}: not over yet [{_pair(names, match.game.sheet.totals)}]")
        else:
            lines.append(f"  {where}: {match.winner} wins, final {_pair(names, match.final)}")
    lines.append("  standings:")
    for line in result.standings:
        lines.append(
            f"    {line['rank']}. {line['player']}: won {line['won']}, lost {line['lost']},"
            f" net {line['net_points']}"
        )
    return "\n".join(lines)


def time_called(end: TimeCalled, names: Sequence[str]) -> str:
    """A match the director ended, the winner's score first:
    ``time called: Bor wins, Bor 60, Ana 40``."""
    first = 0 if end.winner == names[0] else 1
    order = (first, 1 - first)
    shown = _pair([names[i] for i in order], [end.totals[i] for i in order])
    return f"time called: {end.winner} wins, {shown}"


def _sheet_head(sheet: AnySheet, label: str) -> str:
    names = sheet.players
    return (
        f"{label}: {' vs '.join(names)} ({sheet.scoring} scoring, target {sheet.rules['target']})"
    )


def _sheet_end(sheet: AnySheet) -> list[str]:
    """A sheet's last lines: the totals and boxes, (Hollywood) the columns, the result."""
    names = (
        [" & ".join(sheet.players[seat] for seat in team) for team in sheet.teams]
        if isinstance(sheet, PartnershipSheet)
        else sheet.players
    )
    lines = [f"  totals {_pair(names, sheet.totals)}; boxes {_pair(names, sheet.boxes)}"]
    if isinstance(sheet, HollywoodSheet):
        for column in sheet.columns:
            state = "closed" if column.over else "open"
            lines.append(f"  game {column.game} ({state}): {_pair(names, column.totals)}")
    final = sheet.result
    if final is None:
        lines.append("  not over yet")
    elif final.winner is None:
        lines.append(f"  a tie: final {_pair(names, final.final)}")
    else:
        lines.append(
            f"  {names[final.winner]} wins: final {_pair(names, final.final)}, net {final.net}"
        )
    return lines


def _pair(names: Sequence[str], values: Sequence[object]) -> str:
    return ", ".join(f"{name} {value}" for name, value in zip(names, values, strict=True))
