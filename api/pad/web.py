"""Web plumbing of the scorepad pages: CSRF tokens, cookies and form keys.

CSRF: a signed double-submit token. Each browser gets a random nonce in an
HttpOnly, SameSite=Lax cookie (``sk_csrf``); every form carries the nonce
signed with the app's ``SECRET_KEY`` (itsdangerous), and a POST is accepted
only when the signature is valid and the signed nonce is the cookie's. A
page on another site can neither read the cookie nor forge the signature,
and SameSite keeps the cookie off its cross-site POSTs anyway. This needs no
server-side session state and survives gunicorn workers and restarts (as
long as ``SECRET_KEY`` is shared); it is a few lines, so no flask-wtf.

Cookies are few and small whatever a phone has played: ``sk_csrf``, the
device id ``sk_device`` (a random id signed with ``SECRET_KEY``, HttpOnly)
and, if chosen, ``sk_deck`` (a director's phone made before the director's
right was kept server-side may still send ``sk_director``, which is then
dropped: :func:`drop_director`). Each lives
:data:`COOKIE_AGE` (a season, 120 days) after the last page that used it: the
device cookie is sent again with every page that read it. What a device may edit is kept server-side
(:mod:`api.pad.rights`), by the hash of its id, and so is what it may direct
(:mod:`api.pad.directors`). The security headers of
every response are :mod:`api.security`'s.

Form keys: every form that changes a sheet carries an idempotency key and
the sheet version it was built from (:func:`change_fields`), read back by
:func:`change_options` for the store's ``idempotency_key`` and
``expected_version``.
"""

from __future__ import annotations

import hmac
import re
import secrets
from typing import Any
from urllib.parse import urlsplit

from flask import abort, after_this_request, current_app, g, request
from itsdangerous import BadSignature, URLSafeSerializer
from markupsafe import Markup, escape
from werkzeug.wrappers import Response

from ..i18n import _

CSRF_COOKIE = "sk_csrf"
CSRF_FIELD = "csrf_token"
DEVICE_COOKIE = "sk_device"
DECK_COOKIE = "sk_deck"
DIRECTOR_COOKIE = "sk_director"
KEY_FIELD = "form_key"
VERSION_FIELD = "version"
COOKIE_AGE = 120 * 24 * 3600
"""Lifetime of the scorepad's cookies: a season of club evenings (120 days), not the
400 days browsers allow; a device that has not been back in a season starts afresh."""
_NONCE = re.compile(r"[A-Za-z0-9_-]{32,64}")
_FORM_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")


def _serializer(salt: str = "scorepad-csrf") -> URLSafeSerializer | None:
    key = current_app.config.get("SECRET_KEY") or current_app.secret_key
    return URLSafeSerializer(key, salt=salt) if key else None


def _cookie(response: Response, name: str, value: str, path: str = "/") -> None:
    response.set_cookie(
        name,
        value,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
        path=path,
    )


def _nonce() -> str:
    nonce: str | None = g.get("_csrf_nonce")
    if nonce is None:
        nonce = request.cookies.get(CSRF_COOKIE, "")
        if not _NONCE.fullmatch(nonce):
            nonce = secrets.token_urlsafe(32)
            g._csrf_new = True
        g._csrf_nonce = nonce
    return nonce


def csrf_token() -> str:
    """The token to put in a form (the nonce, signed when a secret key is set)."""
    serializer = _serializer()
    nonce = _nonce()
    return serializer.dumps(nonce) if serializer else nonce


def csrf_field() -> Markup:
    """The hidden form field carrying the CSRF token (for templates)."""
    return Markup(f'<input type="hidden" name="{CSRF_FIELD}" value="{escape(csrf_token())}">')


def origin_is_here() -> bool | None:
    """Whether the request's ``Origin`` header names this site (``None``: absent or ``null``).

    Browsers send ``Origin`` with every POST and a page cannot choose it: a
    form on another site (even another port of this host) posts with that
    site's origin, or ``null`` when it hides it.
    """
    origin = request.headers.get("Origin")
    if not origin or origin == "null":
        return None
    return urlsplit(origin).netloc == request.host


def csrf_ok() -> bool:
    """True when this POST carries a token matching the browser's nonce cookie.

    Also refuses a request whose ``Origin`` header names another site.
    """
    if origin_is_here() is False:
        return False
    cookie = request.cookies.get(CSRF_COOKIE, "")
    token = request.form.get(CSRF_FIELD, "")
    if not _NONCE.fullmatch(cookie) or not token:
        return False
    serializer = _serializer()
    if serializer is None:
        return hmac.compare_digest(token, cookie)
    try:
        signed = serializer.loads(token)
    except BadSignature:
        return False
    return isinstance(signed, str) and hmac.compare_digest(signed, cookie)


def device_id() -> str | None:
    """This browser's device id, from its signed cookie.

    A missing, forged or unreadable cookie counts as no device id.
    """
    if "_device" not in g:
        serializer = _serializer("scorepad-device")
        signed = request.cookies.get(DEVICE_COOKIE, "")
        try:
            found = serializer.loads(signed) if serializer else signed
        except BadSignature:
            found = None
        g._device = found if isinstance(found, str) and _NONCE.fullmatch(found) else None
    device: str | None = g._device
    return device


def ensure_device_id() -> str:
    """This browser's device id, a new one if it has none (sent as a cookie by
    :func:`finish`).

    Every page whose form gives a right (the start page, a new event, a hand-over
    or director's link, the director-token form) calls it on GET, so the phone holds
    its id before it sends the form. Were the id first given with the form's answer,
    a request the browser sent meanwhile without it (the service worker keeping its
    first pages) would come back with another id and replace it: the right would go
    to an id the phone no longer holds."""
    found = device_id()
    if found is None:
        found = g._device = secrets.token_urlsafe(32)
    return found


def finish(response: Response) -> Response:
    """After every scorepad response: the CSRF cookie if new, the device cookie if
    used (so it lives a season after the last visit); pages are ``no-store`` unless
    they set their own ``Cache-Control`` (the hand form does, see its route)."""
    if g.get("_csrf_new"):
        _cookie(response, CSRF_COOKIE, g._csrf_nonce)
    if g.get("_device"):
        serializer = _serializer("scorepad-device")
        _cookie(response, DEVICE_COOKIE, serializer.dumps(g._device) if serializer else g._device)
    if response.mimetype == "text/html":
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def drop_director(path: str) -> None:
    """Delete, with this request's response, the ``sk_director`` cookie of the event at
    ``path`` (``/events/<id>``): before the director's right was kept server-side
    (:mod:`api.pad.directors`) it held the event's director token."""

    @after_this_request
    def dropped(response: Response) -> Response:
        response.delete_cookie(
            DIRECTOR_COOKIE, path=path, secure=request.is_secure, httponly=True, samesite="Lax"
        )
        return response


def director_token() -> str | None:
    """The director token this phone's old cookie holds for the event of the request's
    path, if any (see :func:`drop_director`)."""
    return request.cookies.get(DIRECTOR_COOKIE) or None


def change_fields(version: int | None = None, key: str | None = None) -> Markup:
    """The hidden fields of a form that changes a sheet: its idempotency key (a new
    random one unless ``key``) and the sheet ``version`` it was built from (none for
    a form that starts a game)."""
    key = key or secrets.token_urlsafe(18)
    fields = f'<input type="hidden" name="{KEY_FIELD}" value="{escape(key)}">'
    if version is not None:
        fields += f'<input type="hidden" name="{VERSION_FIELD}" value="{int(version)}">'
    return Markup(fields)


def kept_for_back(response: Response) -> Response:
    """A page with a form that makes something, sent ``private, no-cache`` (the others are
    ``no-store``, see :func:`finish`): Back then shows it from the browser's cache as it
    was built, with its own key, so sending it again is recognised. With ``no-store``
    chromium fetches a new form (a new key) and refills it with what was typed, and the
    same thing would be stored twice."""
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def change_options() -> dict[str, Any]:
    """The store options of a posted sheet change: ``{"idempotency_key",
    "expected_version"}``, each ``None`` when the form lacks it (a form from before
    keys existed, or a hand the offline queue sends without its page's version) or
    the version is malformed. A key that is not one this pad or its offline queue
    makes (16 to 64 letters, digits, ``-`` or ``_``) is refused (400): a damaged form
    must not be saved as if it had none, where a resend would store it twice."""
    key = request.form.get(KEY_FIELD, "")
    version = request.form.get(VERSION_FIELD, "")
    if key and not _FORM_KEY.fullmatch(key):
        abort(
            400,
            _(
                "This form's key is damaged (it must be 16 to 64 letters, digits, - or _):"
                " reload the page and enter the hand again."
            ),
        )
    return {
        "idempotency_key": key or None,
        "expected_version": int(version) if version.isdigit() and len(version) < 10 else None,
    }


def four_colour() -> bool:
    """True when this browser asked for the four-colour deck."""
    return request.cookies.get(DECK_COOKIE) == "4"


_BROWSER_STRIPS = re.compile(r"[\t\r\n]")
"""What browsers remove anywhere in a URL before parsing it (WHATWG URL standard)."""


def has_controls(text: str) -> bool:
    """True when ``text`` holds a control character (C0, DEL or C1)."""
    return any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in text)


def safe_next(target: str | None, default: str) -> str:
    """A same-site path to go back to: ``target`` when it is one, else ``default``.

    The check is on the parsed URL, after the normalisation browsers apply
    to a ``Location``: leading and trailing controls and spaces stripped,
    tab, CR and LF removed anywhere, backslashes read as slashes. What is
    left must have no scheme and no host and a path starting with a single
    ``/``; then the normalised path is returned, so the browser and this
    check read the same thing. (No string-prefix test: ``/<tab>/evil.example``
    becomes ``//evil.example``, a host.)
    """
    if not target:
        return default
    text = _BROWSER_STRIPS.sub("", target.strip("".join(map(chr, range(0x21)))))
    text = text.replace("\\", "/")
    parts = urlsplit(text)
    if (
        parts.scheme
        or parts.netloc
        or not parts.path.startswith("/")
        or parts.path.startswith("//")
        or has_controls(text)
    ):
        return default
    return text
