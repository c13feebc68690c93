"""Hand entry: a new hand, correcting one, voiding one, undo (a hand's page and its replay:
:mod:`~api.pad.routes_hand_detail`).

Every form that changes a sheet carries an idempotency key and the sheet
version it was built from. Sent again (Back then Save, a double tap, a
reload), it stores nothing new and shows the sheet ("already saved"); built
from an older version than the stored one (another phone changed the game
meanwhile), it stores nothing and shows "the sheet changed" with the
current sheet, the hand form keeping what was typed (with a fresh key and
the current version, so saving again is a deliberate second step). When
what was typed scores as a hand saved since the form opened (same winner,
kind and points: two phones typed the same hand), the main button is
*Discard mine* (:func:`_saved_since`). A form
sent again with the same key but other values (Back, an edit, Save) is
treated the same way: that form was already used.

A card form checks the play the table declared
(:func:`~api.pad.hand_checks.declared_hand`) before the hand is stored; the form
itself is built by :mod:`api.pad.hand_page`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import abort, redirect, request, url_for
from marshmallow import ValidationError
from werkzeug.wrappers import Response

from scorekeeper.errors import Conflict, RecordError, ScorekeeperError, Stale
from scorekeeper.gamesheet import GameSheet, StoredHand
from scorekeeper.handinput import HandInput
from scorekeeper.hands import evaluate_hand
from scorekeeper.rules import Rules
from scorekeeper.seating import Seating
from scorekeeper.store import games
from scorekeeper.store.refusals import KeyReused, NotFound

from .. import get_storage, limits
from ..i18n import _
from ..request_fields import check_json_size
from . import forms_hand, views_hand, views_sheet, web
from . import labels as pad_labels
from . import replay as pad_replay
from .blueprint import bp, load, require_edit
from .hand_checks import card_errors, declared_hand
from .hand_page import (
    default_mode,
    hand_defaults,
    hand_page,
    hand_seatings,
    modes_for,
    submitted,
)


@bp.get("/games/<game_id>/hand")
@limits.wrong_token_limit
def new_hand(game_id: str) -> Response:
    require_edit(game_id)
    sheet = load(game_id)
    if sheet.over:
        return redirect(url_for("pad.sheet", game_id=game_id), 303)
    return hand_page(
        game_id, sheet, None, default_mode(sheet, None), hand_defaults(sheet, None), {}
    )


@bp.get("/games/<game_id>/hands/<int:n>/edit")
@limits.wrong_token_limit
def edit_hand(game_id: str, n: int) -> Response:
    require_edit(game_id)
    sheet = load(game_id)
    if not 1 <= n <= len(sheet.hands):
        abort(404, _("There is no hand %(n)s on this sheet.", n=n))
    return hand_page(game_id, sheet, n, default_mode(sheet, n), hand_defaults(sheet, n), {})


def _hand_input(
    rules: Rules, mode: str, values: dict[str, Any], seatings: Sequence[Seating]
) -> HandInput | dict[str, Any]:
    """The hand input of the submitted form (the quick form's typed, read once: the store
    takes it as it is); raises RuleError naming the form field."""
    seating = seatings[0]
    if mode in ("deal", "deal_cards"):
        return forms_hand.deal_input(rules, values, seatings, cards=mode == "deal_cards")
    if mode == "quick":
        return forms_hand.quick_input(
            rules,
            values["knocker"],
            values["kind"],
            values["knocker_deadwood"],
            values["defender_deadwood"],
            values["upcard"],
            seating=seating,
        )
    if mode == "cards":
        return forms_hand.cards_form_input(rules, values, seating)
    hand = forms_hand.record_input(values["record"])
    try:
        check_json_size(hand["record"])
    except ValidationError as error:
        raise RecordError(
            _("This record is too large to keep: %(problem)s.", problem=error.messages[0]),
            field="record",
        ) from None
    return hand


@bp.post("/games/<game_id>/hand")
@limits.wrong_token_limit
def add_hand(game_id: str) -> Response:
    return _save_hand(game_id, None)


@bp.post("/games/<game_id>/hands/<int:n>/edit")
@limits.wrong_token_limit
def correct_hand(game_id: str, n: int) -> Response:
    return _save_hand(game_id, n)


def _save_hand(game_id: str, n: int | None) -> Response:
    require_edit(game_id)
    sheet = load(game_id)
    if n is not None and not 1 <= n <= len(sheet.hands):
        abort(404, _("There is no hand %(n)s on this sheet.", n=n))
    modes = modes_for(len(sheet.players))
    mode = request.form.get("mode", "")
    if mode not in modes:
        mode = modes[0]
    values = submitted(len(sheet.players))
    seatings = hand_seatings(sheet, n)
    change = web.change_options()
    if change["expected_version"] is None:
        change["expected_version"] = sheet.version
    hand = None
    try:
        hand = _hand_input(sheet.rules, mode, values, seatings)
        if mode in ("quick", "deal") and request.form.get("action") == "check":
            previews = views_hand.quick_previews(sheet.rules, hand, seatings)
            return hand_page(
                game_id, sheet, n, mode, values, {}, preview=previews[0], previews=previews
            )
        if isinstance(hand, dict) and mode in ("cards", "deal_cards"):
            hand, showdowns = declared_hand(
                sheet, hand, values, seatings, saving=request.form.get("action") != "check"
            )
            if request.form.get("action") == "check":
                return hand_page(
                    game_id,
                    sheet,
                    n,
                    mode,
                    values,
                    {},
                    preview=showdowns[0],
                    change=change,
                    previews=showdowns,
                )
        store = get_storage()
        if n is None:
            record, __, created = games.add_hand(store, game_id, hand, full=False, **change)
        else:
            record, __, created = games.correct_hand(store, game_id, n, hand, full=False, **change)
    except (Stale, KeyReused) as error:  # before Conflict: Stale is one
        return _changed(game_id, n, mode, values, error, change["expected_version"])
    except Conflict as error:  # before ScorekeeperError: a Conflict is one
        return hand_page(
            game_id, sheet, n, mode, values, {"form": pad_labels.worded(error)}, 409, change=change
        )
    except ScorekeeperError as error:
        if change["expected_version"] < sheet.version:  # typed as another hand was dealt
            return _changed(game_id, n, mode, values, error, change["expected_version"])
        if isinstance(error, RecordError):
            record = hand["record"] if isinstance(hand, dict) else None
            error = pad_replay.record_error(error, record)
        return hand_page(
            game_id,
            sheet,
            n,
            mode,
            values,
            card_errors(error, values, seatings),
            422,
            change=change,
        )
    if not created:  # this form was saved before: show the sheet as it is
        return redirect(
            url_for("pad.sheet", game_id=game_id, done="again", n=record.n if record else None), 303
        )
    number = record.n if record else len(sheet.hands) + 1
    return redirect(  # the sheet's notice links to the showdown of a hand with one
        url_for("pad.sheet", game_id=game_id, done="corrected" if n else "added", n=number), 303
    )


def _changed(
    game_id: str,
    n: int | None,
    mode: str,
    values: dict[str, Any],
    error: Exception,
    opened: int,
) -> Response:
    """The hand form again after a stale or already-used form: "the sheet changed",
    the current sheet above it, what was typed kept, a new key and the current version;
    with the hand saved since version ``opened`` that what was typed matches."""
    sheet = load(game_id)
    if n is not None and n > len(sheet.hands):
        return redirect(url_for("pad.sheet", game_id=game_id, done="changed"), 303)
    used = isinstance(error, KeyReused)
    same = None if used else _saved_since(sheet, n, mode, values, opened)
    return hand_page(
        game_id,
        sheet,
        n,
        mode,
        values,
        {},
        409,
        changed={
            "reason": "used" if used else "changed",
            "view": views_sheet.sheet_view(sheet),
            "same": same.n if same else None,
        },
    )


def _saved_since(
    sheet: GameSheet, n: int | None, mode: str, values: dict[str, Any], opened: int
) -> StoredHand | None:
    """The hand saved since version ``opened`` (hand ``n`` only, for a correction) that
    what was typed (the form's ``values``, read as that hand was dealt: who played, who
    sat out) scores as: the same winner, kind and points (each game of a partnership
    deal); ``None`` when none does."""
    for saved in reversed(sheet.hands):
        if saved.seq <= opened or n not in (None, saved.n):
            continue
        seatings = hand_seatings(sheet, saved.n)
        games = saved.record.to_dict().get("games")
        try:
            typed = _hand_input(sheet.rules, mode, dict(values), seatings)
            if isinstance(typed, dict) and mode in ("cards", "deal_cards"):
                typed, __ = declared_hand(sheet, typed, dict(values), seatings, saving=True)
            mine, theirs = (
                evaluate_hand(
                    one, sheet.rules, players=sheet.players, dealer=saved.dealer, games=games
                ).entry
                for one in (typed, saved.input)
            )
        except ScorekeeperError:  # not a hand this deal could have been
            continue
        if mine.to_dict() == theirs.to_dict():
            return saved
    return None


@bp.post("/games/<game_id>/hands/<int:n>/void")
@limits.wrong_token_limit
def void_hand(game_id: str, n: int) -> Response:
    require_edit(game_id)
    try:
        __, ___, created = games.correct_hand(
            get_storage(), game_id, n, {"kind": "void"}, full=False, **web.change_options()
        )
    except NotFound:
        abort(404, _("There is no hand %(n)s on this sheet.", n=n))
    except (Stale, KeyReused):
        return redirect(url_for("pad.sheet", game_id=game_id, done="changed"), 303)
    except ScorekeeperError as error:  # a Conflict or a bad hand: both 409 here
        abort(409, pad_labels.worded(error))
    return redirect(
        url_for("pad.sheet", game_id=game_id, done="voided" if created else "again", n=n), 303
    )


@bp.post("/games/<game_id>/undo")
@limits.wrong_token_limit
def undo(game_id: str) -> Response:
    require_edit(game_id)
    try:
        undone, __, created = games.undo_last(
            get_storage(), game_id, full=False, **web.change_options()
        )
    except (Stale, KeyReused):
        return redirect(url_for("pad.sheet", game_id=game_id, done="changed"), 303)
    except Conflict as error:
        if error.code == "decided_later_pairing":  # a knockout's result a later round needs
            abort(409, pad_labels.worded(error))
        return redirect(url_for("pad.sheet", game_id=game_id, done="nothing"), 303)
    if not created:
        return redirect(url_for("pad.sheet", game_id=game_id, done="again"), 303)
    return redirect(
        url_for("pad.sheet", game_id=game_id, done="undone", n=undone.n if undone else None), 303
    )
