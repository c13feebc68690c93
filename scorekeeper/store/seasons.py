"""Stored seasons: creating one, its club nights and its table (:mod:`scorekeeper.seasons`).

A season is kept as its settings only. Its nights are the events created on
its days (UTC dates, both days counted) and its casual games the finished
two-player games of no event created on them (imported games left out), read
afresh on each request (:mod:`~scorekeeper.store.sql_seasons`: four queries in
all), so a correction to any game changes the table at once, and a night still
being played counts as its standings stand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import InvalidValueError
from ..event_tables import csv_text
from ..seasons import (
    DEFAULT_PLACEMENT,
    MAX_PLACE_POINTS,
    MAX_PLACES,
    MEASURES,
    CasualGames,
    Night,
    Season,
    TableRule,
    season_table,
)
from .games import hash_request, new_game_id
from .protocol import Store
from .season_results import SeasonNight, SeasonTable, SeasonView, StoredSeason

SEASON_COLUMNS = (
    "rank",
    "player",
    "events",
    "won",
    "net_points",
    "points",
    "played",
    "lost",
    "casual_played",
    "casual_won",
    "head_to_head",
    "tie_break",
)
"""The season table CSV's columns (the keys of a table line)."""


def create_season(
    store: Store,
    name: Any,
    first_day: Any,
    last_day: Any,
    table: Any,
    casual_games: Any = False,
    placement: Any = None,
    *,
    idempotency_key: str | None = None,
) -> StoredSeason:
    """Store a new season; errors name the field (``last_day`` before ``first_day``, an
    unknown ``table`` rule, a ``placement`` list that is not whole points falling). With
    an ``idempotency_key``, a repeat of the same request returns the same season
    (another request with that key: :class:`~scorekeeper.store.refusals.KeyReused`)."""
    if not isinstance(name, str):
        raise InvalidValueError("name: a season's name", option="name")
    try:
        rule = TableRule(table)
    except ValueError:
        raise InvalidValueError(
            f"table: one of {', '.join(r.value for r in TableRule)}, not {table!r}",
            code="unknown_table_rule",
            option="table",
            params={"table": str(table)},
        ) from None
    if not isinstance(casual_games, bool):
        raise InvalidValueError("casual_games: true or false", option="casual_games")
    if placement is not None and not isinstance(placement, list | tuple):
        raise InvalidValueError(
            "placement: a list of points",
            code="bad_placement",
            params={"max": MAX_PLACE_POINTS, "places": MAX_PLACES},
            option="placement",
        )
    points = DEFAULT_PLACEMENT if placement is None else tuple(placement)
    season = Season(name.strip(), first_day, last_day, rule, casual_games, points)
    asked = None if idempotency_key is None else hash_request(season.to_dict())
    return store.create_season(
        new_game_id(), season, idempotency_key=idempotency_key, request_hash=asked
    )


def _nights(store: Store, stored: StoredSeason) -> list[Night]:
    return store.season_nights(stored.first_day, stored.last_day)


def _casual(store: Store, stored: StoredSeason) -> list[CasualGames]:
    if not stored.casual_games:
        return []
    return store.casual_games(stored.first_day, stored.last_day)


def season_view(stored: StoredSeason, nights: Sequence[Night]) -> SeasonView:
    """The season and its club nights (in date order)."""
    listed = tuple(SeasonNight(night.id, night.name, night.day) for night in nights)
    return SeasonView(
        stored.id,
        stored.name,
        stored.first_day,
        stored.last_day,
        stored.table,
        stored.casual_games,
        stored.placement,
        stored.created,
        listed,
    )


def table_of(
    stored: StoredSeason, nights: Sequence[Night], casual: Sequence[CasualGames]
) -> SeasonTable:
    """The season's table from its nights and casual games."""
    lines = season_table(stored.season, nights, casual)
    return SeasonTable(
        stored.id,
        stored.name,
        stored.table,
        MEASURES[stored.table],
        len(nights),
        sum(games.games for games in casual),
        tuple(lines),
    )


def season_parts(store: Store, stored: StoredSeason) -> tuple[SeasonView, SeasonTable]:
    """The season with its nights, and its table, read once (the season's page)."""
    nights = _nights(store, stored)
    return season_view(stored, nights), table_of(stored, nights, _casual(store, stored))


def season_body(store: Store, stored: StoredSeason) -> SeasonView:
    """The season and its club nights."""
    return season_view(stored, _nights(store, stored))


def season_standings(store: Store, stored: StoredSeason) -> SeasonTable:
    """The season's table, read from its nights' and casual games' stored results."""
    return table_of(stored, _nights(store, stored), _casual(store, stored))


def table_csv(table: SeasonTable) -> str:
    """The season's table as CSV text (:data:`SEASON_COLUMNS`)."""
    return csv_text(SEASON_COLUMNS, (line.to_dict() for line in table.table))


def season_of_day(store: Store, day: str) -> StoredSeason | None:
    """The season a club night of the ISO date ``day`` counts in: of the seasons holding
    that day, the one with the latest first day (``None``: no season holds it)."""
    found = store.seasons(day)
    return found[0] if found else None
