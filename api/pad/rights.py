"""Scorepad edit rights: which phones may change a game, and handing them over.

Rights are kept server-side, per device: the store's ``edit_rights`` table
holds (game, SHA-256 of the device id, label, created, revoked), and a
browser carries only its signed device id (:func:`api.pad.web.device_id`),
so a phone sends the same few cookies after 1,000 games as after one. The
phone that starts a game gets the right; any phone holding it may:

* make a **hand-over link** (``/games/<id>/join?key=<secret>``, shown with a
  QR code drawn as SVG by ``segno``): another phone that opens it and
  confirms gets the right too. The store keeps only the secret's SHA-256,
  so the link is shown once, when made; it works until a new one replaces
  it or it is turned off. Kept somewhere safe (a photo of the QR code, a
  message to oneself), it is the way back for a phone that lost its rights
  (new phone, cleared cookies, a new ``SECRET_KEY``).
* see the phones holding the right and revoke any of them (itself included).
  Revoking a phone also ends the hand-over link, which that phone could have
  kept to join again; a new link is made for the phones still to join.

An event's table card (:mod:`api.pad.routes_events`) carries a hand-over link
whose secret is derived, not random (:func:`card_handover`): HMAC-SHA256 under
the app's ``SECRET_KEY`` of the game id and the card's generation, so the
director can print the card again at any time while the store still keeps
only the secret's hash. The generation is how many times a phone's right to
the game was revoked (:meth:`~scorekeeper.store.protocol.Store.card_generation`):
after a revoke a card printed before never works again, not even when the
director opens the card's page again (that prints a new card, which a phone
must scan anew). The director's own right is :mod:`api.pad.directors`'.

The API's Bearer edit token is separate and unchanged: it is the game's
editor's token, shown once when a game is made through the API.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

import segno
from flask import current_app, request, url_for
from markupsafe import Markup

from scorekeeper.names import clean_name
from scorekeeper.store.access_types import DeviceEvent, EditRight, Handover
from scorekeeper.store.base import StoredGame
from scorekeeper.store.games import hash_token, new_token

from .. import get_storage
from ..i18n import N_, _
from . import web

STARTER_LABEL = N_("The phone that started the game")
JOINED_LABEL = N_("A phone that joined by the hand-over link")
"""The default labels of phones holding the right: stored in English, shown translated."""


def device_hash() -> str | None:
    """The SHA-256 hash of this browser's device id (``None``: it has none)."""
    device = web.device_id()
    return hash_token(device) if device else None


def can_edit(game_id: str) -> bool:
    """True while this browser's device holds an unrevoked right to change the game."""
    device = device_hash()
    return device is not None and get_storage().has_edit(game_id, device)


def revoked_here(game_id: str) -> bool:
    """True when this browser's device had its right to change the game revoked."""
    device = device_hash()
    return device is not None and get_storage().edit_revoked(game_id, device)


def holds_right() -> bool:
    """Whether this browser's device holds the right to change the game in the request's
    path (the scorepad's holder check for the wrong-token limit, :mod:`api.limits`)."""
    game_id = (request.view_args or {}).get("game_id")
    return game_id is not None and can_edit(game_id)


def grant(game_id: str, label: str) -> None:
    """Give this browser's device (a new one if it has none) the right to change the game."""
    get_storage().grant_edit(game_id, hash_token(web.ensure_device_id()), label)


def join(game_id: str, secret: str, label: str) -> bool:
    """Give this browser's device the right by the hand-over ``secret``: False (nothing
    granted) unless it is still the game's link when the right is written."""
    device = hash_token(web.ensure_device_id())
    return get_storage().grant_edit(game_id, device, label, handover=hash_token(secret))


def clean_label(text: str | None, default: str = JOINED_LABEL) -> str:
    """A phone's label as typed on a join page, or ``default`` when left empty.

    Cleaned like a player's name (:func:`~scorekeeper.names.clean_name`: a
    refused character or an overlong label raises its error, naming ``label``).
    """
    if not (text or "").strip():
        return default
    return clean_name(text, field="label")


def recent_games(limit: int = 8) -> list[StoredGame]:
    """The games this device may change, last changed first."""
    device = device_hash()
    return get_storage().device_games(device, limit) if device else []


def recent_events(limit: int = 8) -> list[DeviceEvent]:
    """The events this device directs or keeps a table's score in, newest first."""
    device = device_hash()
    return get_storage().device_events(device, limit) if device else []


def phones(game_id: str) -> list[dict[str, Any]]:
    """The phones holding the right, oldest first: ``{"id", "label", "created", "this"}``."""
    return listed(get_storage().edit_rights(game_id), (STARTER_LABEL, JOINED_LABEL))


def listed(found: list[EditRight], defaults: tuple[str, ...]) -> list[dict[str, Any]]:
    """Rights as a page lists them: ``{"id", "label", "created", "this"}``, a label that is
    one of the ``defaults`` translated."""
    mine = device_hash()
    return [
        {
            "id": r.id,
            "label": _(r.label) if r.label in defaults else r.label,
            "created": r.created,
            "this": r.device_hash == mine,
        }
        for r in found
    ]


def revoke(game_id: str, right_id: int) -> bool:
    """Take the right ``right_id`` back and end the hand-over link (the revoked phone
    could join again by it); False when no phone held it."""
    return get_storage().revoke_edit(game_id, right_id)


def new_handover(game_id: str) -> str:
    """A new hand-over secret for the game (the previous link stops working)."""
    secret = new_token()
    get_storage().set_handover(game_id, hash_token(secret))
    return secret


def card_handover(game_id: str) -> str:
    """The hand-over secret of the game's table card, made the game's link unless it is
    already: derived from the app's secret key, the game id and the card's generation
    (see the module docs)."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    generation = get_storage().card_generation(game_id)
    text = f"table-card\0{game_id}" + (f"\0{generation}" if generation else "")
    digest = hmac.new(key, text.encode(), hashlib.sha256).digest()
    secret = base64.urlsafe_b64encode(digest[:24]).decode()
    if not handover_matches(game_id, secret):
        get_storage().set_handover(game_id, hash_token(secret))
    return secret


def end_handover(game_id: str) -> None:
    """Turn the game's hand-over link off."""
    get_storage().set_handover(game_id, None)


def handover(game_id: str) -> Handover | None:
    """The game's hand-over link if there is one."""
    return get_storage().handover(game_id)


def handover_matches(game_id: str, secret: str) -> bool:
    """True when ``secret`` is the game's current hand-over secret (constant-time)."""
    current = handover(game_id)
    if not secret or current is None:
        return False
    return hmac.compare_digest(hash_token(secret), current.secret_hash)


def handover_url(game_id: str, secret: str) -> str:
    """The full hand-over link."""
    return url_for("pad.join_page", game_id=game_id, key=secret, _external=True)


def qr_svg(url: str, title: str | None = None) -> Markup:
    """The link as a QR code, inline SVG (error correction M, the standard quiet zone),
    its ``title`` by default the hand-over link's."""
    code = segno.make(url, error="m")
    return Markup(
        code.svg_inline(
            scale=1,
            omitsize=True,
            dark="#000",
            light="#fff",
            svgclass="qr",
            title=title or _("QR code of the hand-over link"),
        )
    )
