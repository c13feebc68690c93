"""Security headers on every response of the app: the JSON API, the scorepad, static files, errors.

One ``after_request`` hook (:func:`api.lifecycle.add_security_headers`) sets
them, so no blueprint can forget them:

* ``Content-Security-Policy``: only this origin's scripts, styles, images
  and fetches; no inline script or style, no plugins, no framing, forms
  post only here. JSON responses are not rendered, so the policy costs the
  API nothing and protects a JSON body opened in a browser tab.
* ``X-Content-Type-Options: nosniff``: browsers trust the Content-Type.
* ``Referrer-Policy: same-origin``: game links (which are the read-only
  share links) never leak to other sites through the Referer header.
* ``X-Frame-Options: DENY``: no framing, for browsers without CSP level 2.
"""

from __future__ import annotations

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " connect-src 'self'; font-src 'self'; form-action 'self'; frame-ancestors 'none';"
    " base-uri 'none'; object-src 'none'"
)

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
"""The headers every response carries."""
