"""Club nights (issue 22) on the scorepad: create an event, direct it, watch it.

- ``/events/new`` (``POST /events``): name, format, rounds (Swiss), players
  from the roster known here and new ones, the rules by preset. The form's
  key is the create's idempotency key (a double tap makes one event). This
  phone gets the right to direct the event (:mod:`api.pad.directors`), and
  the answer shows the event's recovery link, once.
- ``/events/<id>/director`` (the director's right needed, else 403): pair the next
  round, every table's state, each table's printable card with a QR code of a
  hand-over link, the round clock (these three in :mod:`.routes_round`), and the
  standings. Pairing here
  gives this phone the edit right of each new game (as the start form gives
  it for a game it starts: no token in any cookie) and creates the games
  keyed by :func:`scorekeeper.store.events.match_key`, so their API edit
  tokens can be derived again from the app's secret key.
- ``/events/<id>`` (read-only, for phones: the round by player name too) and
  ``/events/<id>/wall`` (the big screen: no links, large type; :mod:`.routes_round`).

These three pages follow the event by polling their own URL with
``If-None-Match`` (``static/pad-follow.js``; the wall every second, the
others every 5 s): the page's ETag is a digest of the whole event (every
game's result and score so far, and the page's language), so an unchanged
event is a 304 and a changed one the new page, whose marked parts replace
the old (on the director's page the tables and the standings, so the pair
button turns on as the last table finishes; a part with the focus in a
form field or an open "Time called" form waits until it is left). One
small request per page every few seconds however many tables: simpler
than following every game's live stream, and it works the same with and
without nchan. Without JavaScript the wall reloads every 10 seconds; the
other pages on a reload.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import abort, current_app, redirect, request, url_for
from werkzeug.exceptions import Forbidden
from werkzeug.wrappers import Response

from scorekeeper.errors import Conflict, ScorekeeperError
from scorekeeper.events import MAX_PLAYERS, Format, swiss_rounds_most
from scorekeeper.names import MAX_NAME_LENGTH, clean_name, repeated
from scorekeeper.rules import PRESETS, Rules
from scorekeeper.store import event_ends, event_rounds, events
from scorekeeper.store.event_types import StoredEvent
from scorekeeper.store.refusals import KeyReused, NotFound

from .. import get_storage, limits
from ..i18n import _, ngettext
from . import directors, forms_start, options, rights, views_events, web
from .blueprint import bp, form_errors, render
from .labels import worded
from .routes_find import roster


def _event(event_id: str) -> StoredEvent:
    try:
        return get_storage().event(event_id)
    except NotFound:
        abort(404, _("There is no event at this address. Check the link."))


def _directed(event_id: str) -> StoredEvent:
    """The event, when this phone holds its director token (else a 403 page)."""
    stored = _event(event_id)
    if not directors.directs(stored):
        refusal = Forbidden(
            _(
                "Only the event's director can open this page: it opens on the phone"
                " that created the event and on the phones it was handed to. The"
                " event's own page shows its rounds and standings to everyone."
            )
        )
        links = [
            {
                "url": url_for("pad.event_page", event_id=event_id),
                "label": _("The event's page for the players' phones"),
            },
            {
                "url": url_for("pad.restore_page", event_id=event_id),
                "label": _("I am the director: direct the event on this phone"),
            },
        ]
        page = render(
            "pad/error.html", 403, error=refusal, heading=_("For the director only"), links=links
        )
        abort(page)
    return stored


# ----------------------------------------------------------------------------- creating


def _new_page(form: dict[str, Any], errors: dict[str, str], status: int = 200) -> Response:
    values = {
        "name": "",
        "format": "round_robin",
        "rounds": "",
        "new_players": "",
        "preset": "standard",
    }
    values.update({k: v for k, v in form.items() if k != "players"})
    return render(
        "pad/event_new.html",
        status,
        form=values,
        chosen=set(form.get("players", [])),
        errors=errors,
        roster=roster(),
        formats=views_events.FORMAT_NAMES,
        format_notes=views_events.FORMAT_NOTES,
        presets=list(PRESETS),
        notes=options.PRESET_NOTES,
        preset_names=options.PRESET_NAMES,
        max_name=MAX_NAME_LENGTH,
    )


@bp.get("/events/new")
def new_event() -> Response:
    web.ensure_device_id()  # before the form is sent: see web.ensure_device_id
    return web.kept_for_back(_new_page({}, {}))


def event_from_form(form: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The new event's settings from the form, and every problem found (by field).

    Players: the roster names ticked (``players``), then the new names typed one a
    line (``new_players``), in that order (the seeding). A player named twice (letter
    case does not count: ``Ana``, ``ana``, ``ANA``) is refused, naming the names, as
    the API refuses such a roster.
    """
    errors: dict[str, str] = {}
    name = str(form.get("name", ""))
    if not name.strip():
        errors["name"] = _("Type a name for the event.")
    else:
        try:
            name = clean_name(name)
        except ScorekeeperError as error:
            errors["name"] = worded(error)
    players: list[str] = []
    lines = [*form.get("players", []), *str(form.get("new_players", "")).splitlines()]
    for line in lines:
        if not line.strip():
            continue
        try:
            players.append(clean_name(line, field="new_players"))
        except ScorekeeperError as error:
            errors.setdefault("new_players", worded(error))
    repeated = _named_twice(players)
    if repeated:
        errors.setdefault("new_players", repeated)
    elif "new_players" not in errors and not 2 <= len(players) <= MAX_PLAYERS:
        errors["players"] = _(
            "Choose from 2 to %(max)s players: tick them or type new names.", max=MAX_PLAYERS
        )
    kind = str(form.get("format", ""))
    if kind not in views_events.FORMAT_NAMES:
        errors["format"] = _("Choose one of the formats.")
    rounds = None
    if kind == Format.SWISS.value:
        most = max(swiss_rounds_most(len(players)), 1)
        raw = str(form.get("rounds", "")).strip()
        if not re.fullmatch(r"[0-9]{1,4}", raw) or not 1 <= int(raw) <= most:
            errors["rounds"] = ngettext(
                "A Swiss event of these players takes %(num)d round: type 1.",
                "A Swiss event of these players takes 1 to %(num)d rounds: type how many.",
                most,
            )
        else:
            rounds = int(raw)
    rules: Rules | None = None
    try:
        rules = forms_start.rules_from_form({"preset": form.get("preset")})
    except ScorekeeperError as error:
        errors["preset"] = str(error)
    return {
        "name": name,
        "players": players,
        "format": kind,
        "rounds": rounds,
        "rules": rules,
    }, errors


def _named_twice(players: list[str]) -> str | None:
    """The refusal of a roster naming a player more than once (by
    :func:`~scorekeeper.names.repeated`), every such name shown as typed; ``None``: none."""
    repeats = [" / ".join(names) for names in repeated(players)]
    if not repeats:
        return None
    return _(
        "Each player may be named only once, and capital letters do not count: %(names)s."
        " Remove the repeats, or give each player a different name.",
        names="; ".join(repeats),
    )


@bp.post("/events")
@limits.create_limit
def create_event() -> Response:
    form: dict[str, Any] = request.form.to_dict()
    form["players"] = request.form.getlist("players")
    settings, errors = event_from_form(form)
    if errors:
        return _new_page(form, errors, 422)
    try:
        stored, token = events.create_event(
            get_storage(),
            settings["name"],
            settings["players"],
            settings["format"],
            settings["rounds"],
            settings["rules"].to_dict(),
            idempotency_key=web.change_options()["idempotency_key"],
            secret=current_app.config["SECRET_KEY"],
        )
    except KeyReused:
        abort(409, _("This form was already used. Open the new event page again."))
    except ScorekeeperError as error:
        return _new_page(form, form_errors(error, "form"), 422)
    if not directors.grant(stored.id, directors.CREATOR_LABEL, revive=False):
        return redirect(url_for("pad.director", event_id=stored.id), 303)  # a revoked phone
    link = directors.link_url(stored.id, directors.keep_recovery(stored.id, token))
    return render(
        "pad/event_created.html",
        name=stored.name,
        event_id=stored.id,
        link=link,
        qr=rights.qr_svg(link, _("QR code of the recovery link")),
    )


# ----------------------------------------------------------------------------- directing


@bp.get("/events/<event_id>/director")
def director(event_id: str) -> Response:
    """The director's page: pair the next round, the tables, their cards, the standings
    (304 while the event holds)."""
    stored = _directed(event_id)
    view = views_events.event_view(get_storage(), stored)
    return _followed(view, lambda: _director_page(stored, view=view))


def _director_page(
    stored: StoredEvent,
    error: str | None = None,
    status: int = 200,
    view: dict[str, Any] | None = None,
    clock_errors: dict[str, str] | None = None,
) -> Response:
    view = view or views_events.event_view(get_storage(), stored)
    return render(
        "pad/event_director.html",
        status,
        event=view,
        event_id=stored.id,
        refusal=views_events.pair_refusal(view),
        error=error,
        done=request.args.get("done", type=int),
        withdrawn=request.args.get("withdrawn", type=int),
        clock_errors=clock_errors or {},
        **directors.page_part(stored.id),
    )


@bp.post("/events/<event_id>/rounds")
@limits.wrong_token_limit
def pair(event_id: str) -> Response:
    """Pair the next round (games keyed to derive their tokens), the rights to this phone."""
    stored = _directed(event_id)
    try:
        paired = events.pair_round(get_storage(), event_id, secret=current_app.config["SECRET_KEY"])
    except Conflict as error:
        if error.code in ("round_unfinished", "round_paired", "event_over"):
            # a double tap, or another phone paired it: the page shows where things are
            return redirect(url_for("pad.director", event_id=event_id), 303)
        return _director_page(stored, worded(error), 409)
    for match in paired.matches:
        rights.grant(match.game_id, rights.STARTER_LABEL)
    return redirect(url_for("pad.director", event_id=event_id, done=paired.number), 303)


@bp.post("/events/<event_id>/rounds/<int:number>/withdraw")
@limits.wrong_token_limit
def withdraw(event_id: str, number: int) -> Response:
    """Withdraw the last round while none of its tables has a hand, to pair it again
    (:func:`scorekeeper.store.event_rounds.withdraw_round`)."""
    stored = _directed(event_id)
    try:
        event_rounds.withdraw_round(get_storage(), event_id, number)
    except NotFound:  # a double tap: it is gone already
        return redirect(url_for("pad.director", event_id=event_id), 303)
    except Conflict as error:
        return _director_page(stored, worded(error), 409)
    return redirect(url_for("pad.director", event_id=event_id, withdrawn=number), 303)


@bp.post("/events/<event_id>/tables/<game_id>/end")
@limits.wrong_token_limit
def end_match(event_id: str, game_id: str) -> Response:
    """Time called: end a table's unfinished match, the chosen player (by default the
    leader) winning with the points as they stand
    (:func:`scorekeeper.store.event_ends.end_match`)."""
    stored = _directed(event_id)
    winner = request.form.get("winner") or None
    try:
        event_ends.end_match(get_storage(), event_id, game_id, winner)
    except NotFound:
        abort(404, _("There is no event at this address. Check the link."))
    except Conflict as error:
        if error.code == "match_finished":  # a double tap, or the game ended meanwhile
            return redirect(url_for("pad.director", event_id=event_id), 303)
        return _director_page(stored, worded(error), 409)
    except ScorekeeperError as error:
        return _director_page(stored, worded(error), 422)
    return redirect(url_for("pad.director", event_id=event_id), 303)


# ----------------------------------------------------------------------------- watching


def _followed(view: dict[str, Any], page: Callable[[], Response]) -> Response:
    """An event's page that follows it (see the module docs): an empty 304 while the
    event's ETag holds, else ``page()``; with the ETag either way."""
    response = Response(status=304) if request.if_none_match.contains(view["etag"]) else page()
    response.set_etag(view["etag"])
    return response


@bp.get("/events/<event_id>")
def event_page(event_id: str) -> Response:
    """The event for everyone: rounds, tables, results and standings (read-only; 304
    while the event holds)."""
    view = views_events.event_view(get_storage(), _event(event_id))
    return _followed(view, lambda: render("pad/event.html", event=view, event_id=event_id))
