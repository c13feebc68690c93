"""The director's round tools and the wall (issue 29), beside :mod:`.routes_events`.

- ``/events/<id>/tables/<game id>/card``: one table's printable card, and
  ``/events/<id>/rounds/<n>/cards``: every card of round ``n`` on A4, four to a page
  (the print style sheet in ``static/pad.css``), each with the QR code of its table's
  hand-over link (:func:`api.pad.rights.card_handover`: the same link as the single card).
- ``POST /events/<id>/clock``: the round clock's minutes
  (:func:`scorekeeper.store.event_clock.set_clock`), from now.
- ``/events/<id>/wall``: the big screen, its standings and tables paged by
  ``static/pad-wall.js`` every ``?turn=`` seconds (1 to :data:`TURN_MOST`, by default
  :data:`TURN`), with the round clock and the QR code of the event's page for the
  players' phones.
"""

from __future__ import annotations

import re
from contextlib import suppress
from typing import Any

from flask import abort, redirect, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.errors import Conflict
from scorekeeper.store import event_clock
from scorekeeper.store.event_types import StoredEvent

from .. import get_storage, limits
from ..i18n import _
from . import rights, views_events
from .blueprint import bp, render
from .routes_events import _directed, _director_page, _event, _followed

TURN = 10
"""Seconds between two pages of the wall, by default."""
TURN_MOST = 15
"""The longest a page of the wall stays (the shortest is a second)."""


def _card(stored: StoredEvent, number: int, table: int, game_id: str) -> dict[str, Any]:
    """A table card's content: round, table, players, the hand-over link and its QR code."""
    link = rights.handover_url(game_id, rights.card_handover(game_id))
    return {
        "number": number,
        "table": table,
        "players": get_storage().game(game_id).players,
        "link": link,
        "qr": rights.qr_svg(link),
    }


@bp.get("/events/<event_id>/tables/<game_id>/card")
def table_card(event_id: str, game_id: str) -> Response:
    """A table's printable card: the event, round, table, players and the QR code of a
    hand-over link to the table's game."""
    stored = _directed(event_id)
    found = [
        _card(stored, paired.number, table, match_id)
        for paired in stored.paired
        for table, match_id in paired.matches
        if match_id == game_id
    ]
    if not found:
        abort(404, _("This event has no table with that game. Check the link."))
    return render("pad/event_card.html", name=stored.name, event_id=event_id, card=found[0])


@bp.get("/events/<event_id>/rounds/<int:number>/cards")
def round_cards(event_id: str, number: int) -> Response:
    """Every table card of round ``number``, four to an A4 page when printed."""
    stored = _directed(event_id)
    found = [paired for paired in stored.paired if paired.number == number]
    if not found:
        abort(404, _("This event has no round %(number)s. Check the link.", number=number))
    cards = [_card(stored, number, table, game_id) for table, game_id in found[0].matches]
    pages = [cards[i : i + 4] for i in range(0, len(cards), 4)]
    return render(
        "pad/event_cards.html", name=stored.name, event_id=event_id, number=number, pages=pages
    )


@bp.post("/events/<event_id>/clock")
@limits.wrong_token_limit
def set_clock(event_id: str) -> Response:
    """The director starts the current round's clock: its minutes, from now."""
    stored = _directed(event_id)
    raw = request.form.get("minutes", "").strip()
    most = event_clock.MAX_MINUTES
    refusal = _("Type the round's minutes: a whole number from 1 to %(most)s.", most=most)
    if not re.fullmatch(r"[0-9]{1,4}", raw) or not 1 <= int(raw) <= most:
        return _director_page(stored, status=422, clock_errors={"minutes": refusal})
    with suppress(Conflict):  # no round paired (a forged form: the page offers none then)
        event_clock.set_clock(get_storage(), event_id, int(raw))
    return redirect(url_for("pad.director", event_id=event_id), 303)


@bp.get("/events/<event_id>/wall")
def wall(event_id: str) -> Response:
    """The big screen: standings and tables in large type, paged; 304 while the event
    holds (see :mod:`.routes_events`)."""
    view = views_events.event_view(get_storage(), _event(event_id))
    turn = request.args.get("turn", TURN, type=int)
    link = url_for("pad.event_page", event_id=event_id, _external=True)
    return _followed(
        view,
        lambda: render(
            "pad/event_wall.html",
            event=view,
            event_id=event_id,
            turn=min(max(turn, 1), TURN_MOST),
            qr=rights.qr_svg(link, _("QR code of the event's page")),
        ),
    )
