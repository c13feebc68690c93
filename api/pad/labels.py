"""Names, dates and domain errors as the scorepad writes them for people.

An error from the domain is worded for the player who caused it from its code and
params (:func:`worded`, :data:`api.pad.wordings.WORDINGS`), never by rewriting its
English message; cards are written by :mod:`api.pad.terms`. The other scorepad modules
write cards and errors only through these.

Player names are written isolated, so that a name in a right-to-left
script (or any name) can never reorder the text around it: in HTML in a
``<bdi>`` element (:func:`bdi`, also the templates' ``bdi`` filter), in
displayed plain text (a page title, a tooltip) between U+2068 FIRST STRONG
ISOLATE and U+2069 POP DIRECTIONAL ISOLATE (:func:`isolated`, the
``isolated`` filter). Text that is read out but never laid out (an
``aria-label``, an SVG ``<desc>``) keeps the bare name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from markupsafe import Markup, escape

from scorekeeper.errors import ScorekeeperError
from scorekeeper.sheet import TEAMS

from ..i18n import _, format_datetime, format_number, ngettext
from .terms import both, chained, term_label, term_labels
from .wordings import WORDINGS, original


def bdi(name: str) -> Markup:
    """A name for HTML: ``<bdi>name</bdi>``, the name escaped."""
    return Markup(f"<bdi>{escape(name)}</bdi>")


def html(text: str, **params: Any) -> Markup:
    """A translated sentence for HTML: ``text`` escaped, its ``%(name)s`` placeholders
    filled with ``params`` (escaped unless already :class:`~markupsafe.Markup`, such as
    a :func:`bdi` name)."""
    return Markup.escape(text) % params


def isolated(name: str) -> str:
    """A name for plain text: between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE."""
    return f"\u2068{name}\u2069"


def side_names(names: Sequence[str]) -> list[str]:
    """The sides of a game in plain text: the players, or with four the two
    partnerships (``Ana & Cy``, :data:`~scorekeeper.sheet.TEAMS`)."""
    if len(names) != 4:
        return list(names)
    return [" & ".join(names[p] for p in team) for team in TEAMS]


def sides_html(names: Sequence[str]) -> list[Markup]:
    """:func:`side_names` for HTML, each name in its own ``<bdi>``."""
    if len(names) != 4:
        return [bdi(name) for name in names]
    return [Markup(" &amp; ").join(bdi(names[p]) for p in team) for team in TEAMS]


def matchup(names: Sequence[str]) -> Markup:
    """Who plays whom, for a heading: ``Ana vs Bor``, ``Ana vs Bor vs Cy``, ``Ana & Cy
    vs Bor & Dan`` (HTML, names isolated; also the templates' ``matchup`` filter)."""
    return Markup(_versus(sides_html(names)))  # the names escaped in <bdi>, the words ours


def game_title(names: Sequence[str]) -> str:
    """A game's plain-text title (a page's ``<title>``): ``Ana vs Bor``, names isolated."""
    if len(names) == 4:
        return _versus(" & ".join(isolated(names[p]) for p in team) for team in TEAMS)
    return _versus(isolated(name) for name in names)


def _versus(sides: Iterable[str]) -> str:
    # Translators: who plays whom, in a heading or a page title ("Ana vs Bor").
    return chained(list(sides), lambda a, b: _("%(first)s vs %(second)s", first=a, second=b))


def game_pair(first: str, second: str) -> Markup:
    """The two players of one game of a partnership deal: ``Ana v Cy`` (HTML, names in
    ``<bdi>``)."""
    # Translators: the two players of one game of a partnership deal ("Ana v Cy").
    return html(_("%(first)s v %(second)s"), first=bdi(first), second=bdi(second))


def moment(iso: str) -> Markup:
    """A stored time (ISO 8601, UTC) for HTML: ``<time datetime="...">`` (the page's script
    shows it in the phone's time zone) around the time in the locale's form, in UTC
    (also the templates' ``moment`` filter)."""
    shown = format_datetime(datetime.fromisoformat(iso), "short")
    return Markup('<time datetime="{}">{}</time>').format(iso, _("%(time)s UTC", time=shown))


def point_count(n: int) -> str:
    """``1 point``, ``12 points``, the number in the locale's form."""
    return ngettext("%(count)s point", "%(count)s points", n, count=format_number(n))


_CARD_KEYS = ("card", "upcard")
_CARDS_KEYS = ("cards", "meld")


def _shown(params: Mapping[str, Any]) -> dict[str, Any]:
    shown = dict(params)
    for key in _CARD_KEYS:
        if isinstance(shown.get(key), str):
            shown[key] = term_label(shown[key])
    for key in _CARDS_KEYS:
        if isinstance(shown.get(key), list):
            shown[key] = term_labels(shown[key])
    if isinstance(shown.get("players"), list):
        shown["players"] = both(shown["players"])
    return shown


def worded(error: BaseException) -> str:
    """An error in words a player understands, as one sentence.

    A domain error is worded from its ``code`` and ``params`` (:data:`WORDINGS`);
    an error whose code has no wording there keeps the message of the error
    it restates (:func:`~api.pad.wordings.original`; the scorepad's own errors are already
    worded). Either way the sentence starts with a
    capital and ends with a full stop.
    """
    wording = WORDINGS.get(getattr(error, "code", None) or "")
    if wording is not None and isinstance(error, ScorekeeperError):
        message = (
            wording(error.params, error)
            if callable(wording)
            else str(wording) % _shown(error.params)
        )
    else:
        message = str(original(error))
    message = message[:1].upper() + message[1:]
    return message if message.endswith((".", "!", "?")) else message + "."
