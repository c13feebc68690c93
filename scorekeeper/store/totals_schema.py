"""The players' running totals' tables (:mod:`.totals`) and their first filling from the
games stored: the migration that made them, on either backend."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .totals import (
    COUNTS,
    FIRST,
    INSERT_LINE,
    INSERT_TOTALS,
    RIVAL_COUNTS,
    Run,
    numbers,
    shares,
)


def tables(player_id: str, rowid: str) -> tuple[str, ...]:
    """The statements making the tables, ``player_id`` the backend's type of a player's id,
    ``rowid`` what ends a table without its own row ids (SQLite's ``WITHOUT ROWID``)."""
    counts = ", ".join(f"{name} INTEGER NOT NULL DEFAULT 0" for name in COUNTS)
    rivals = ", ".join(f"{name} INTEGER NOT NULL" for name in RIVAL_COUNTS)
    return (
        f"CREATE TABLE player_totals (player_id {player_id} PRIMARY KEY"
        f" REFERENCES players (id), {counts})",
        f"CREATE TABLE rival_totals (player_id {player_id} NOT NULL REFERENCES players (id),"
        " rival TEXT NOT NULL, name TEXT NOT NULL, first_created TEXT NOT NULL,"
        " first_game TEXT NOT NULL, first_n INTEGER NOT NULL, first_seat INTEGER NOT NULL,"
        f" {rivals}, PRIMARY KEY (player_id, rival)){rowid}",
        f"CREATE INDEX rival_totals_first ON rival_totals (player_id, {', '.join(FIRST)})",
    )


BATCH = 2000
"""Games a migration reads at a time."""
ADD_LINE = (
    INSERT_LINE
    + " ON CONFLICT (player_id, rival) DO UPDATE SET "
    + ", ".join(f"{c} = rival_totals.{c} + excluded.{c}" for c in RIVAL_COUNTS)
)
"""A meeting added to its line (the first one met, oldest game first, stays first)."""
ALL_GAMES = "SELECT created, id FROM games{} ORDER BY created, id LIMIT {}"


def fill(conn: Any, sql: Callable[[str], str]) -> None:
    """Fill ``player_totals`` and ``rival_totals`` from the games stored (the migration, on
    ``conn``; ``sql`` puts a statement in the backend's placeholder style): every game's
    share, oldest game first, :data:`BATCH` games at a time."""

    def run(statement: str, params: Sequence[Any]) -> Any:
        return conn.execute(sql(statement), params)

    players: dict[int, list[int]] = {}
    for ids in _game_batches(run):
        lines = []
        batch = shares(run, ids)
        for game_id in ids:
            found = batch[game_id]
            for player_id, counts in found.players.items():
                total = players.setdefault(player_id, [0] * len(COUNTS))
                players[player_id] = [t + c for t, c in zip(total, numbers(counts), strict=True)]
            for key, met in found.rivals.items():
                first = (met.name, found.game.created, game_id, *met.at)
                lines.append([*first, *numbers(met.counts), *key])
        conn.cursor().executemany(sql(ADD_LINE), lines)
    conn.cursor().executemany(
        sql(INSERT_TOTALS), [[player_id, *counts] for player_id, counts in players.items()]
    )


def _game_batches(run: Run) -> Iterator[list[str]]:
    """The ids of every game, oldest first, :data:`BATCH` at a time."""
    after: Sequence[Any] = ()
    while True:
        where = " WHERE (created, id) > (?, ?)" if after else ""
        rows = run(ALL_GAMES.format(where, BATCH), after).fetchall()
        if rows:
            yield [row[1] for row in rows]
        if len(rows) < BATCH:
            return
        after = rows[-1]
