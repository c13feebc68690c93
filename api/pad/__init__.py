"""The table-side scorepad: HTML pages for a phone beside the cards.

:mod:`~api.pad.routes` holds the blueprint and its views;
:mod:`~api.pad.forms` reads the forms into hand inputs,
:mod:`~api.pad.views` and :mod:`~api.pad.replay` shape results for the
templates (``templates/pad/``), :mod:`~api.pad.labels` holds the words and
card labels, and :mod:`~api.pad.web` the cookies, CSRF and edit rights.
:mod:`~api.pad.shell` serves the service worker and the web app manifest
from the site's root (the pad offline and on the home screen).
"""

from .routes import bp

__all__ = ["bp"]
