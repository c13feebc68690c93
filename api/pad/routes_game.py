"""The game's own pages: the start page, starting a game, the sheet, a rematch.

Starting a game (the start form, and "new game with the same players")
is idempotent: the form's key is the create's idempotency key, so a
double tap or Back then Start shows the game the form made instead of a
second one. The edit right goes to this phone only while nobody holds one
on that game (a new game): a phone whose right was revoked gets nothing
back by sending its old form again. The start page gives a phone its
device id before the form is sent, so a first answer lost on the way
still leaves the right with the phone that retries.
"""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, redirect, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.errors import ScorekeeperError
from scorekeeper.gamesheet import GameSheet
from scorekeeper.names import MAX_NAME_LENGTH
from scorekeeper.rules import PRESETS
from scorekeeper.sheet import Entry
from scorekeeper.store import games
from scorekeeper.store.refusals import KeyReused

from .. import get_storage, limits
from ..i18n import _
from . import declared as pad_declared
from . import forms_start, options, rights, views_events, views_hand, views_sheet, web
from .blueprint import bp, form_errors, load, render, require_edit
from .routes_find import roster
from .routes_tally import sheet_tally
from .views_games import game_line


@bp.get("/")
def home() -> Response:
    web.ensure_device_id()  # before the form is sent: see the module docs
    return web.kept_for_back(_start_page({}, {}))


def _start_page(form: dict[str, Any], errors: dict[str, Any], status: int = 200) -> Response:
    values = {
        **{f"player_{i}": "" for i in range(forms_start.MAX_PLAYERS)},
        "preset": "standard",
        "dealer": "0",
        "stake": "",
        **form,
    }
    preset = values["preset"] if values["preset"] in PRESETS else "standard"
    try:
        shown = forms_start.rules_from_form(form) if form else PRESETS[preset]
    except ScorekeeperError:
        shown = PRESETS[preset]
    fields = forms_start.rules_form(shown)
    for field in fields:
        if field["name"] in form:
            field["value"] = form[field["name"]]
    return render(
        "pad/start.html",
        status,
        form=values,
        errors=errors,
        fields=fields,
        max_name=MAX_NAME_LENGTH,
        presets=list(PRESETS),
        notes=options.PRESET_NOTES,
        preset_names=options.PRESET_NAMES,
        preset_values=forms_start.preset_values(),
        options_for=preset,
        recent=[game_line(game) for game in rights.recent_games()],
        events=rights.recent_events(),
        roster=roster(),
    )


@bp.post("/games")
@limits.create_limit
def start_game() -> Response:
    form = request.form.to_dict()
    if form.get("action") == "show_preset":
        form.pop("options_for", None)
        for field in forms_start.rules_form():
            form.pop(field["name"], None)
        return _start_page(form, {})
    keyed = _create_options()
    settings, errors = forms_start.game_from_form(
        form, games.lot(keyed["secret"], keyed["idempotency_key"])
    )
    if errors:
        return _start_page(form, errors, 422)
    try:
        sheet, __ = games.create_game(
            get_storage(),
            settings["players"],
            settings["rules"],
            settings["dealer"],
            settings["stake"],
            cut=settings["cut"],
            **keyed,
        )
    except KeyReused:
        return _start_page(
            form,
            {
                "form": _(
                    "This form has already started a game. Check the"
                    " names and options, then press Start the game again for"
                    " a new one."
                )
            },
            409,
        )
    except ScorekeeperError as error:
        errors = form_errors(error, "player_0")
        if "players" in errors:  # about the players together: above the form
            errors["form"] = errors.pop("players")
        return _start_page(form, errors, 422)
    return _started(sheet.id)


def _create_options() -> dict[str, Any]:
    """A start form's create options: its key and the secret a keyed game's token derives from."""
    return {
        "idempotency_key": web.change_options()["idempotency_key"],
        "secret": current_app.config["SECRET_KEY"],
    }


def _started(game_id: str) -> Response:
    """After a start form: the edit right to this phone if nobody holds one (see the
    module docs), and the sheet."""
    if not get_storage().edit_rights(game_id):
        rights.grant(game_id, rights.STARTER_LABEL)
    return redirect(url_for("pad.sheet", game_id=game_id), 303)


@bp.get("/games/<game_id>")
def sheet(game_id: str) -> Response:
    data = load(game_id)
    editable = rights.can_edit(game_id)
    return render(
        "pad/sheet.html",
        sheet=data,
        view=views_sheet.sheet_view(data, voided(data)),
        state=views_sheet.sheet_state(data) if editable else None,
        tally=sheet_tally(data),
        missed=pad_declared.missed_by_hand(data),
        editable=editable,
        game_id=game_id,
        done=request.args.get("done"),
        saved=_saved(data, request.args.get("done"), request.args.get("n", "")),
        share_url=url_for("pad.sheet", game_id=game_id, _external=True),
        match=views_events.match_place(get_storage(), game_id, data.players),
    )


def _saved(sheet: GameSheet, done: str | None, n: str) -> dict[str, Any] | None:
    """The hand a form just added or corrected, as the sheet's notice offers it: its
    number, whether it has a showdown to link to (a card hand, a deal record, a deal
    with a game by its cards), and whether Undo would take back this very hand (the
    last one: another phone may have added one since)."""
    if done not in ("added", "corrected") or not n.isdigit() or not 1 <= int(n) <= len(sheet.hands):
        return None
    number = int(n)
    view = views_hand.hand_view(sheet.hands[number - 1], sheet.players)
    return {
        "n": number,
        "showdown": bool(view["showdown"] or any(g["showdown"] for g in view["games"] or ())),
        "undo": done == "added" and number == len(sheet.hands),
    }


def voided(sheet: GameSheet) -> dict[int, Entry] | None:
    """What the sheet's hands made void by a correction had scored (``voided_originals``).

    Read from the log only when there is such a hand; ``None`` when the log
    moved on since the sheet was loaded (the next load shows them).
    """
    if not any(hand.void and hand.corrected for hand in sheet.hands):
        return None
    log = get_storage().log(sheet.id)
    return views_sheet.voided_originals(log, sheet.hands) if len(log) == sheet.version else None


@bp.post("/games/<game_id>/rematch")
@limits.wrong_token_limit
def rematch(game_id: str) -> Response:
    require_edit(game_id)
    old = load(game_id)
    try:
        sheet, __ = games.create_game(
            get_storage(),
            old.players,
            old.rules,
            old.next_dealer,
            old.stake,
            follows=game_id,
            **_create_options(),
        )
    except KeyReused:  # the same key for another game's rematch: a forged or broken form
        abort(409, _("This form was already used. Open the sheet again to start a new game."))
    return _started(sheet.id)
