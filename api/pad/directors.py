"""An event's director right on the scorepad: which phones may direct it, handing the right
over, the recovery link and the director token.

Kept server-side per device, as a game's edit rights are (:mod:`api.pad.rights`):
the store's ``director_rights`` (:mod:`scorekeeper.store.sql_rights`) hold the
SHA-256 hash of each phone's device id. The phone that creates the event holds
the right; any phone holding it may:

* make a **director's hand-over link** (``/events/<id>/direct?key=<secret>``,
  shown once with its QR code): another phone that opens it and confirms
  directs the event too. It works until a new one replaces it, it is turned
  off or a director phone is revoked.
* see the director phones and revoke any of them (itself included).

The **recovery link** (the same address, its own secret) is made with the
event and shown once, on the page that says the event is made (a card to print
or photograph). Its secret is derived from the director token (HMAC-SHA256),
so the create form sent twice shows the same link; the store keeps only its
hash and no revoke ends it: it is the way back for a lost phone. The **director
token** (the API's) restores the right on a phone through a form
(``/events/<id>/restore``): it is posted, so it stays out of addresses and logs.

Before these rights, the director token lived in the phone's ``sk_director``
cookie: such a phone gets the right server-side on its next visit (unless it
was revoked) and the cookie is dropped (:func:`directs`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

from flask import request, url_for

from scorekeeper.store import events
from scorekeeper.store.access_types import Handover
from scorekeeper.store.event_types import StoredEvent
from scorekeeper.store.games import hash_token, new_token
from scorekeeper.store.sql_rights import HANDOVER, RECOVERY

from .. import get_storage
from ..i18n import N_
from . import rights, web

CREATOR_LABEL = N_("The phone that created the event")
JOINED_LABEL = N_("A phone handed the director's right")
RECOVERED_LABEL = N_("A phone that used the recovery link")
TOKEN_LABEL = N_("A phone that used the director token")
"""The default labels of director phones: stored in English, shown translated."""
_LABELS = (CREATOR_LABEL, JOINED_LABEL, RECOVERED_LABEL, TOKEN_LABEL)


def directs(stored: StoredEvent) -> bool:
    """True while this phone may direct the event; a phone holding the old cookie
    (see the module docs) gets the right now, unless it was revoked."""
    device = rights.device_hash()
    if device is not None and get_storage().has_director(stored.id, device):
        return True
    if not events.token_matches(stored, web.director_token()):
        return False
    web.drop_director(url_for("pad.event_page", event_id=stored.id))
    return grant(stored.id, CREATOR_LABEL, revive=False)


def holds_right() -> bool:
    """Whether this phone may direct the event in the request's path (the scorepad's
    holder check for the wrong-token limit, :mod:`api.limits`: a wrong guess from the
    club's shared address never locks the director out)."""
    event_id = (request.view_args or {}).get("event_id")
    device = rights.device_hash()
    return bool(event_id and device and get_storage().has_director(event_id, device))


def grant(event_id: str, label: str, *, revive: bool = True) -> bool:
    """Give this phone the right to direct the event (a revoked right back only with
    ``revive``); True when it holds it."""
    device = hash_token(web.ensure_device_id())
    return get_storage().grant_director(event_id, device, label, revive=revive)


def restore(stored: StoredEvent, token: str) -> bool:
    """Give this phone the right when ``token`` is the event's director token."""
    return events.token_matches(stored, token) and grant(stored.id, TOKEN_LABEL)


def link_kind(event_id: str, secret: str) -> str | None:
    """Which of the event's director links ``secret`` opens (constant-time), or ``None``."""
    for kind in (HANDOVER, RECOVERY):
        current = get_storage().director_link(event_id, kind)
        if secret and current and hmac.compare_digest(hash_token(secret), current.secret_hash):
            return kind
    return None


def join(event_id: str, secret: str, label: str) -> bool:
    """Give this phone the right by a director link's ``secret``: False (nothing granted)
    unless it is still one of the event's links when the right is written."""
    kind = link_kind(event_id, secret)
    if kind is None:
        return False
    device = hash_token(web.ensure_device_id())
    link = (kind, hash_token(secret))
    return get_storage().grant_director(event_id, device, label, link=link)


def default_label(secret_kind: str) -> str:
    """The label of a phone joining by a link of this kind when none is typed."""
    return RECOVERED_LABEL if secret_kind == RECOVERY else JOINED_LABEL


def phones(event_id: str) -> list[dict[str, Any]]:
    """The director phones, oldest first (as :func:`api.pad.rights.listed`)."""
    return rights.listed(get_storage().director_rights(event_id), _LABELS)


def revoke(event_id: str, right_id: int) -> bool:
    """Take director right ``right_id`` back and end the hand-over link; False when no
    phone held it."""
    return get_storage().revoke_director(event_id, right_id)


def new_handover(event_id: str) -> str:
    """A new director's hand-over secret (the previous link stops working)."""
    secret = new_token()
    get_storage().set_director_link(event_id, HANDOVER, hash_token(secret))
    return secret


def end_handover(event_id: str) -> None:
    """Turn the director's hand-over link off."""
    get_storage().set_director_link(event_id, HANDOVER, None)


def handover(event_id: str) -> Handover | None:
    """The event's director hand-over link if there is one."""
    return get_storage().director_link(event_id, HANDOVER)


def keep_recovery(event_id: str, token: str) -> str:
    """The event's recovery secret, derived from its director ``token`` (see the module
    docs), made its recovery link."""
    digest = hmac.new(token.encode(), b"director-recovery", hashlib.sha256).digest()
    secret = base64.urlsafe_b64encode(digest[:24]).decode()
    get_storage().set_director_link(event_id, RECOVERY, hash_token(secret))
    return secret


def link_url(event_id: str, secret: str) -> str:
    """The full address of a director link."""
    return url_for("pad.direct_page", event_id=event_id, key=secret, _external=True)


def page_part(event_id: str) -> dict[str, Any]:
    """What the director page's part "Director's phones" shows: the phones (``directors``),
    the hand-over link if any (``director_handover``) and, just after it is made (its
    secret in the address), the link itself and its QR code (``director_link``,
    ``director_qr``), and what was just done (``phones_done``: ``revoked``, ``off``,
    ``joined``; the template words only these)."""
    key = request.args.get("key", "")
    link = link_url(event_id, key) if link_kind(event_id, key) == HANDOVER else None
    return {
        "directors": phones(event_id),
        "director_handover": handover(event_id),
        "director_link": link,
        "director_qr": rights.qr_svg(link) if link else None,
        "phones_done": request.args.get("phones"),
    }
