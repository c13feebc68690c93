"""An event as its pages show it: rounds, tables (playing, score so far, winner) and
standings, in players' words (:mod:`api.pad.routes_events` renders them)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from scorekeeper.events import Format
from scorekeeper.store import events
from scorekeeper.store.event_clock import round_clock
from scorekeeper.store.event_types import StoredEvent
from scorekeeper.store.protocol import Store

from ..i18n import _, get_locale, lazy_gettext, ngettext
from . import views_roster
from .views_games import game_line
from .views_round import clock_view, pairings

FORMAT_NAMES = {
    Format.ROUND_ROBIN.value: lazy_gettext("Round robin"),
    Format.SWISS.value: lazy_gettext("Swiss"),
    Format.SINGLE_ELIMINATION.value: lazy_gettext("Single elimination"),
    Format.DOUBLE_ELIMINATION.value: lazy_gettext("Double elimination"),
}
"""The four formats' names (the create form's choices, every event page's subtitle)."""

# Translators: each note follows its format's name ("Swiss: a set number of rounds..."):
# say what the format does without naming it again.
FORMAT_NOTES = {
    Format.ROUND_ROBIN.value: lazy_gettext("Everyone plays everyone once."),
    Format.SWISS.value: lazy_gettext(
        "A set number of rounds; each round pairs players with like scores."
    ),
    Format.SINGLE_ELIMINATION.value: lazy_gettext("Whoever loses a match is out."),
    Format.DOUBLE_ELIMINATION.value: lazy_gettext("A player is out after losing two matches."),
}
"""Each format's note, after its name on the create form."""


def winner_first(match: dict[str, Any]) -> str:
    """A finished match's totals, the winner's first: ``130 – 20``."""
    first, second = match["totals"]
    if match["winner"] != match["players"][0]:
        first, second = second, first
    return f"{first} – {second}"


def event_view(store: Store, stored: StoredEvent) -> dict[str, Any]:
    """The event for a page: the JSON of :func:`~scorekeeper.store.events.event_body`
    plus ``format_name``, ``current`` (the last paired round, or ``None``), ``playing``
    (its tables still playing), each match's ``score`` (a finished match's totals, the
    winner's first: :func:`winner_first`; else the running totals, ``120 – 85``)
    and ``leader`` (the unfinished match's player ahead; ``None`` when level or finished),
    an unfinished match's ``hands``, ``withdrawable`` (the number of the current round
    while no table of it has a hand or a result, else ``None``), ``clock`` (the round
    clock with the time left: :func:`~.views_round.clock_view`), ``pairings`` (the
    current round by player name: :func:`~.views_round.pairings`), ``roster`` (the
    director's roster forms: :func:`api.pad.views_roster.roster_view`) and ``etag`` (a
    digest of all of it, whether time is up and the page's language: the wall page answers
    304 while it holds)."""
    body = events.event_body(store, stored).to_dict()
    for round_ in body["rounds"]:
        for match in round_["matches"]:
            match["leader"] = None
            if match["finished"]:
                match["score"] = winner_first(match)
                continue
            game = store.game(match["game_id"])
            match["score"] = game_line(game)["score"]
            match["hands"] = game.scored.count if game.scored is not None else None
            totals = game.scored.data["totals"] if game.scored is not None else None
            if totals and totals[0] != totals[1]:
                match["leader"] = match["players"][0 if totals[0] > totals[1] else 1]
    current = body["rounds"][-1] if body["rounds"] else None
    untouched = current is not None and all(
        not m["finished"] and m["hands"] == 0 for m in current["matches"]
    )
    clock = clock_view(body["clock"])
    text = json.dumps(
        [str(get_locale()), body, clock is not None and clock["over"]], sort_keys=True, default=str
    )
    return {
        **body,
        "clock": clock,
        "pairings": pairings(current),
        "format_name": FORMAT_NAMES[body["format"]],
        "current": current,
        "playing": [m for m in current["matches"] if not m["finished"]] if current else [],
        "swiss": body["format"] == Format.SWISS.value,
        "withdrawable": current["number"] if current is not None and untouched else None,
        "roster": views_roster.roster_view(stored, body),
        "etag": hashlib.sha256(text.encode()).hexdigest()[:24],
    }


def match_place(store: Store, game_id: str, players: tuple[str, ...]) -> dict[str, Any] | None:
    """Where a game is an event's match, for its sheet: ``event_id``, ``name``, ``round``,
    ``table``, ``end`` (the director's time called: ``winner`` and ``score``, the
    winner's first; else ``None``) and ``clock`` (the round clock while it is this
    match's round's and the director has not ended the match:
    :func:`~.views_round.clock_view`; else ``None``); ``None`` for a game of no event."""
    event_id = store.game_event(game_id)
    if event_id is None:
        return None
    stored = store.event(event_id)
    number, table = next(
        (r.number, t) for r in stored.paired for t, match in r.matches if match == game_id
    )
    end = stored.ended.get(game_id)
    clock = round_clock(stored)
    return {
        "clock": clock_view(clock.to_dict())
        if clock and clock.round == number and not end
        else None,
        "event_id": event_id,
        "name": stored.name,
        "round": number,
        "table": table,
        "end": None
        if end is None
        else {
            "winner": end.winner,
            "score": winner_first({"players": players, "winner": end.winner, "totals": end.totals}),
        },
    }


def pair_refusal(view: dict[str, Any]) -> str | None:
    """Why the next round cannot be paired now (``None``: it can)."""
    if view["stale_round"] is not None:
        stale = _(  # the wording of the pairing's refusal (wordings.WORDINGS)
            "Round %(round)s was paired on a result that has changed since: withdraw it"
            " (and any round after it), then pair again",
            round=view["stale_round"],
        )
        return f"{stale}."
    if view["over"]:
        return _("The event is over: every round is played.")
    if view["playing"]:
        return ngettext(
            "%(num)d table is still playing this round.",
            "%(num)d tables are still playing this round.",
            len(view["playing"]),
        )
    return None
