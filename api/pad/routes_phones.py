"""Phones and edit rights: who may change a game, the hand-over link, revoking, joining.

The rights themselves are kept by :mod:`api.pad.rights`; a hand-over link
opens a page with a button (:func:`join_page`), so that a link preview in a
chat app cannot use the link up.
"""

from __future__ import annotations

from typing import Any

from flask import redirect, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.errors import ScorekeeperError

from . import labels as pad_labels
from . import rights, web
from .blueprint import bp, form_errors, load, render, require_edit


@bp.get("/games/<game_id>/phones")
def phones(game_id: str) -> Response:
    """Who may change the game, and the hand-over link (shown once, just after it is made)."""
    require_edit(game_id)
    sheet = load(game_id)
    key = request.args.get("key", "")
    link = rights.handover_url(game_id, key) if rights.handover_matches(game_id, key) else None
    return render(
        "pad/phones.html",
        sheet=sheet,
        game_id=game_id,
        title=pad_labels.game_title(sheet.players),
        phones=rights.phones(game_id),
        handover=rights.handover(game_id),
        link=link,
        qr=rights.qr_svg(link) if link else None,
        done=request.args.get("done"),
    )


@bp.post("/games/<game_id>/handover")
def handover(game_id: str) -> Response:
    """Make a new hand-over link (the old one stops working), or turn it off."""
    require_edit(game_id)
    if request.form.get("action") == "off":
        rights.end_handover(game_id)
        return redirect(url_for("pad.phones", game_id=game_id, done="off"), 303)
    secret = rights.new_handover(game_id)
    return redirect(url_for("pad.phones", game_id=game_id, key=secret, _anchor="link"), 303)


@bp.post("/games/<game_id>/phones/<int:right_id>/revoke")
def revoke(game_id: str, right_id: int) -> Response:
    require_edit(game_id)
    rights.revoke(game_id, right_id)
    if not rights.can_edit(game_id):  # this phone gave its own right up
        return redirect(url_for("pad.sheet", game_id=game_id), 303)
    return redirect(url_for("pad.phones", game_id=game_id, done="revoked"), 303)


def _join_page(game_id: str, key: str, errors: dict[str, Any], status: int = 200) -> Response:
    sheet = load(game_id)
    valid = rights.handover_matches(game_id, key)
    return render(
        "pad/join.html",
        status if valid else 403,
        sheet=sheet,
        game_id=game_id,
        title=pad_labels.game_title(sheet.players),
        key=key if valid else "",
        valid=valid,
        already=rights.can_edit(game_id),
        revoked=not valid and rights.revoked_here(game_id),
        errors=errors,
        label=request.form.get("label", ""),
    )


@bp.get("/games/<game_id>/join")
def join_page(game_id: str) -> Response:
    """What a hand-over link opens: a button to take the right (a GET changes nothing,
    so a link preview in a chat app cannot use the link up)."""
    web.ensure_device_id()  # before the form is sent: see web.ensure_device_id
    return _join_page(game_id, request.args.get("key", ""), {})


@bp.post("/games/<game_id>/join")
def join(game_id: str) -> Response:
    key = request.form.get("key", "")
    if not rights.handover_matches(game_id, key):
        return _join_page(game_id, key, {})
    try:
        label = rights.clean_label(request.form.get("label"))
    except ScorekeeperError as error:
        return _join_page(game_id, key, form_errors(error, "label"), 422)
    if not rights.join(game_id, key, label):  # the link ended meanwhile
        return _join_page(game_id, key, {})
    return redirect(url_for("pad.sheet", game_id=game_id, done="joined"), 303)
