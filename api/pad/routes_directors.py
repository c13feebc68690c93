"""The director's right on the scorepad (:mod:`api.pad.directors`): handing it over,
revoking it, and the links and the token that give it to a phone.

- the director page's part "Director's phones" (its context:
  :func:`api.pad.directors.page_part`) posts to ``/events/<id>/directors/handover``
  (make a new hand-over link, or turn it off) and
  ``/events/<id>/directors/<right id>/revoke``;
- ``/events/<id>/direct?key=...``: what a director's link (the hand-over link or
  the recovery link) opens: a button to take the right (a GET changes nothing, so
  a link preview in a chat app cannot use the link up);
- ``/events/<id>/restore``: the director pastes the event's director token (the
  API's) and this phone directs the event; the token is posted, never in an address.
"""

from __future__ import annotations

from typing import Any

from flask import redirect, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.errors import ScorekeeperError

from .. import limits
from ..i18n import _
from . import directors, rights, web
from .blueprint import bp, form_errors, render
from .routes_events import _directed, _event


@bp.post("/events/<event_id>/directors/handover")
@limits.wrong_token_limit
def director_handover(event_id: str) -> Response:
    """Make a new director's hand-over link (the old one stops working), or turn it off."""
    _directed(event_id)
    if request.form.get("action") == "off":
        directors.end_handover(event_id)
        return redirect(url_for("pad.director", event_id=event_id, phones="off"), 303)
    secret = directors.new_handover(event_id)
    where = url_for("pad.director", event_id=event_id, key=secret, _anchor="director-link")
    return redirect(where, 303)


@bp.post("/events/<event_id>/directors/<int:right_id>/revoke")
@limits.wrong_token_limit
def revoke_director(event_id: str, right_id: int) -> Response:
    stored = _directed(event_id)
    directors.revoke(event_id, right_id)
    if not directors.directs(stored):  # this phone gave its own right up
        return redirect(url_for("pad.event_page", event_id=event_id), 303)
    return redirect(url_for("pad.director", event_id=event_id, phones="revoked"), 303)


def _direct_page(
    event_id: str, key: str, errors: dict[str, Any], status: int = 200, restore: bool = False
) -> Response:
    """The page of a director's link ``key`` (403 when it opens nothing), or with
    ``restore`` the director token's form (403 with ``errors``)."""
    stored = _event(event_id)
    valid = not restore and directors.link_kind(event_id, key) is not None
    return render(
        "pad/event_direct.html",
        status if valid or (restore and not errors) else 403,
        name=stored.name,
        event_id=event_id,
        key=key if valid else "",
        valid=valid,
        restore=restore,
        already=directors.directs(stored),
        errors=errors,
        label=request.form.get("label", ""),
    )


@bp.get("/events/<event_id>/direct")
def direct_page(event_id: str) -> Response:
    """What a director's link opens: a button to take the right."""
    web.ensure_device_id()  # before the form is sent: see web.ensure_device_id
    return _direct_page(event_id, request.args.get("key", ""), {})


@bp.post("/events/<event_id>/direct")
def direct(event_id: str) -> Response:
    key = request.form.get("key", "")
    kind = directors.link_kind(event_id, key)
    if kind is None:
        return _direct_page(event_id, key, {})
    try:
        label = rights.clean_label(request.form.get("label"), directors.default_label(kind))
    except ScorekeeperError as error:
        return _direct_page(event_id, key, form_errors(error, "label"), 422)
    if not directors.join(event_id, key, label):  # the link ended meanwhile
        return _direct_page(event_id, key, {})
    return redirect(url_for("pad.director", event_id=event_id, phones="joined"), 303)


@bp.get("/events/<event_id>/restore")
def restore_page(event_id: str) -> Response:
    """The form where the director pastes the event's director token."""
    web.ensure_device_id()
    return _direct_page(event_id, "", {}, restore=True)


@bp.post("/events/<event_id>/restore")
@limits.wrong_token_limit
def restore(event_id: str) -> Response:
    """This phone directs the event, when the posted ``token`` is its director token (a
    wrong one is a 403, counted against the wrong-token limit)."""
    if not directors.restore(_event(event_id), request.form.get("token", "").strip()):
        wrong = _("This is not the event's director token. Check that it is whole.")
        return _direct_page(event_id, "", {"token": wrong}, restore=True)
    return redirect(url_for("pad.director", event_id=event_id, phones="joined"), 303)
