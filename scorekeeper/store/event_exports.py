"""An event's exports: its results (and their CSV) and its record, which
``scorekeeper replay`` scores again."""

from __future__ import annotations

from ..event_tables import RESULTS_COLUMNS, STANDINGS_COLUMNS, csv_text
from ..rescore import EVENT_FORMAT, EVENT_VERSION
from ..results import field_values
from .event_results import (
    DirectorEnd,
    EventExport,
    EventExportSettings,
    EventMatch,
    EventRecord,
    EventRecordGame,
    EventRecordRound,
    result_rows,
)
from .event_types import StoredEvent
from .events import event_body, event_standings, settings
from .games import export_game
from .protocol import Store


def event_export(store: Store, stored: StoredEvent) -> EventExport:
    """The event's results: its settings (and whether it is over), its standings and one
    row per match (:func:`~scorekeeper.store.event_results.result_rows`)."""
    body = event_body(store, stored)
    about = EventExportSettings(**field_values(settings(stored)), over=body.over)
    return EventExport(about, body.standings, tuple(result_rows(body.rounds)))


def event_csv(store: Store, stored: StoredEvent, what: str) -> str:
    """The event's ``standings`` or ``results`` as CSV text
    (:func:`scorekeeper.event_tables.csv_text`)."""
    if what == "standings":
        lines = event_standings(store, stored).standings
        return csv_text(STANDINGS_COLUMNS, (line.to_dict() for line in lines))
    if what == "results":
        rows = event_export(store, stored).results
        return csv_text(RESULTS_COLUMNS, (row.to_dict() for row in rows))
    raise ValueError(f"what: standings or results, not {what!r}")


def event_record(store: Store, stored: StoredEvent) -> EventRecord:
    """The event as a record ``scorekeeper replay`` scores again (:mod:`scorekeeper.rescore`):
    its settings, its rounds' byes and each match's exported game, labelled, with the
    director's end of the match (``{"winner", "totals"}``, else ``None``)."""
    body = event_body(store, stored)
    games = tuple(
        EventRecordGame(
            round_.number,
            match.table,
            match.game_id,
            export_game(store, match.game_id),
            _director_end(match),
        )
        for round_ in body.rounds
        for match in round_.matches
    )
    rounds = tuple(EventRecordRound(r.number, r.byes, r.walkovers) for r in body.rounds)
    return EventRecord(EVENT_FORMAT, EVENT_VERSION, settings(stored), rounds, games)


def _director_end(match: EventMatch) -> DirectorEnd | None:
    """How the director ended the match (``None``: they did not)."""
    if not match.ended_by_director or match.winner is None or match.totals is None:
        return None
    return DirectorEnd(match.winner, match.totals)
