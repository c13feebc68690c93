"""What a player's games and record are read from at any size (SQLite's schema 13,
PostgreSQL's 12): no listing or record reads more than the games it shows or the
player's own games, however many games the store holds.

* ``player_games``: each game of each player, primary key ``(player_id, created,
  game_id)`` and the player's (first) seat: a player's games come newest (or oldest)
  first straight from the index, and a page of them reads only that page.
* ``key_games.created``: each API key's games by when they were made (the index
  ``key_games_created`` on ``(key_id, created, game_id)``), for the same reason.
* ``hand_pairs``: each two-player hand of a game's sheet as the record needs it (the
  two seats, void, winner, outcome, points; a four-player deal is two rows, one per
  game), written with the game's sheet rows (:meth:`SqlStore._put_rows
  <scorekeeper.store.sql.SqlStore._put_rows>`) in the write's transaction, and
  ``games.won_by``: the side (player or team) that won the game (NULL while it goes on
  and after a tied match), written with the game's scored state. A record
  (:func:`~scorekeeper.store.stats.player_stats`) adds these up instead of scoring each
  game's log again: its cost is the player's hands, not the store's.
* ``games_updated``: games by when they last changed (``?since=``).
* ``player_games.key_id`` and its index ``player_games_key`` (a later migration,
  :data:`GAME_KEYS`): the API key that made each player's game.

The migration fills them from what is stored (the sheet rows' records, the scored
summaries); a game stored before the scored state was kept (``games.scored`` NULL, no
sheet rows) keeps being counted from its log until its next write.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from ..gamesheet import GameStatus
from ..results import Outcome
from .base import Player


def tables(player_id: str, rowid: str) -> tuple[str, ...]:
    """The statements making the tables and indexes, ``player_id`` the backend's type of a
    player's id, ``rowid`` what ends a table without its own row ids (SQLite's ``WITHOUT
    ROWID``)."""
    return (
        f"CREATE TABLE player_games (player_id {player_id} NOT NULL REFERENCES players (id),"
        " created TEXT NOT NULL, game_id TEXT NOT NULL REFERENCES games (id),"
        f" seat INTEGER NOT NULL, PRIMARY KEY (player_id, created, game_id)){rowid}",
        "INSERT INTO player_games (player_id, created, game_id, seat)"
        " SELECT p.player_id, g.created, g.id, min(p.seat) FROM game_players p"
        " JOIN games g ON g.id = p.game_id GROUP BY p.player_id, g.created, g.id",
        "ALTER TABLE key_games ADD COLUMN created TEXT",
        "UPDATE key_games SET created = (SELECT g.created FROM games g"
        " WHERE g.id = key_games.game_id)",
        "CREATE INDEX key_games_created ON key_games (key_id, created, game_id)",
        "CREATE TABLE hand_pairs (game_id TEXT NOT NULL REFERENCES games (id),"
        " n INTEGER NOT NULL, seat_a INTEGER NOT NULL, seat_b INTEGER NOT NULL,"
        " void INTEGER NOT NULL, winner INTEGER, outcome TEXT, points INTEGER NOT NULL,"
        f" PRIMARY KEY (game_id, n, seat_a)){rowid}",
        "ALTER TABLE games ADD COLUMN won_by INTEGER",
        "CREATE INDEX games_updated ON games (updated, id)",
    )


_SCORED = "SELECT id, scored FROM games WHERE status = 'over' AND scored IS NOT NULL"
_RECORDS = "SELECT game_id, n, record FROM sheet_hands"
BATCH = 2000
"""Rows a migration reads at a time (a big store's sheet rows never all in memory)."""
SET_WON_BY = "UPDATE games SET won_by = ? WHERE id = ?"
INSERT_PAIR = (
    "INSERT INTO hand_pairs (game_id, n, seat_a, seat_b, void, winner, outcome, points)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
DELETE_PAIRS = "DELETE FROM hand_pairs WHERE game_id = ? AND n >= ?"
INSERT_PLAYER_GAME = (
    "INSERT INTO player_games (player_id, created, game_id, seat, key_id) SELECT id, ?, ?, ?, ?"
    " FROM players WHERE name_key = ? ON CONFLICT DO NOTHING"
)
"""A player's seat in a new game, with the API key that made it (a second seat of the same
player is not another game)."""
GAME_KEYS = (
    "ALTER TABLE player_games ADD COLUMN key_id BIGINT",
    "UPDATE player_games SET key_id = (SELECT k.key_id FROM key_games k"
    " WHERE k.game_id = player_games.game_id) WHERE game_id IN (SELECT game_id FROM key_games)",
    "CREATE INDEX player_games_key ON player_games (player_id, key_id, created, game_id)",
)
"""``player_games.key_id``: the API key that made the game (its ``key_games`` row, written
in the same transaction; NULL for none), so that an API key's games of a player, newest
first, are one range of the index ``player_games_key``: a search on a key's list reads
the key's games of the players it finds, not each of their games."""


class Executes(Protocol):
    """A connection of either backend, as a migration runs a statement on it."""

    def execute(self, statement: str, /) -> Any: ...


def migrate_game_keys(db: Executes) -> None:
    """The API key of each player's game in ``player_games`` (:data:`GAME_KEYS`): the
    same step in both backends' migrations."""
    for statement in GAME_KEYS:
        db.execute(statement)


SELECT_RECORD_GAMES = (
    "SELECT g.id, g.players, pg.seat, g.imported, g.status, g.won_by, g.scored IS NULL"
    " FROM player_games pg JOIN games g ON g.id = pg.game_id"
    " WHERE pg.player_id = ? ORDER BY pg.created, pg.game_id"
)
"""A player's games, oldest first, as a record reads them."""
SELECT_RECORD_PAIRS = (
    "SELECT h.game_id, h.n, h.seat_a, h.seat_b, h.void, h.winner, h.outcome, h.points"
    " FROM player_games pg JOIN hand_pairs h ON h.game_id = pg.game_id WHERE pg.player_id = ?"
    " ORDER BY pg.created, pg.game_id, h.n, h.seat_a"
)
"""The two-player hands of a player's games, in the order of the games and their sheets
(the order of the two primary keys SQLite walks)."""

Execute = Callable[[str, Sequence[Any]], Any]
"""Run one statement with its parameters (returns a cursor)."""


class Pair(NamedTuple):
    """A two-player hand: its two ``seats`` and how it ended (``winner`` a seat or None)."""

    seats: tuple[int, int]
    void: bool
    winner: int | None
    outcome: str | None
    points: int


class RecordGame(NamedTuple):
    """A player's game as their record reads it: the names, the player's seat, whether it
    was imported, is over and which side won (``None``: going on, or a tied match), and
    whether it predates the scored state (``legacy``: counted from its log)."""

    id: str
    players: tuple[str, ...]
    seat: int
    imported: bool
    over: bool
    won_by: int | None
    legacy: bool


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """What a player's record is added up from: the ``player``, their ``games`` oldest
    first, and the two-player hands of each game, by game id (none for a legacy game)."""

    player: Player
    games: list[RecordGame]
    pairs: dict[str, list[Pair]]


def record_game(row: Sequence[Any], players: tuple[str, ...]) -> RecordGame:
    """A :class:`RecordGame` from a row of :data:`SELECT_RECORD_GAMES` (``players``
    decoded)."""
    game_id, _, seat, imported, status, won_by, legacy = row
    over = status == GameStatus.OVER.value
    return RecordGame(game_id, players, seat, bool(imported), over, won_by, bool(legacy))


def pairs_by_game(rows: Iterable[Sequence[Any]]) -> dict[str, list[Pair]]:
    """The rows of :data:`SELECT_RECORD_PAIRS` per game (in their order)."""
    found: dict[str, list[Pair]] = {}
    for game_id, _, a, b, void, winner, outcome, points in rows:
        found.setdefault(game_id, []).append(Pair((a, b), bool(void), winner, outcome, points))
    return found


def pair_rows(game_id: str, n: int, stored: Mapping[str, Any]) -> list[tuple[Any, ...]]:
    """The :data:`INSERT_PAIR` rows of hand ``n`` of a game, ``stored`` its sheet row's record
    (a :class:`~scorekeeper.gamesheet.StoredHand`'s ``to_dict``: the core record's keys and
    more): one per two-player hand (a four-player deal's two games; the two who played a
    three-player hand)."""
    return [
        (game_id, n, a, b, int(hand["void"]), hand["winner"], hand["outcome"], hand["points"])
        for (a, b), hand in _played(stored)
    ]


_GINS = (Outcome.GIN.value, Outcome.BIG_GIN.value)


def pair_sums(pairs: Iterable[Sequence[Any]]) -> list[list[Any]]:
    """The rows :data:`~.totals.SELECT_GROUPS` reads of the hand pairs ``pairs`` (rows of
    :data:`INSERT_PAIR`), added up here as it adds them: per game and pair of seats, the
    first hand and the hands not void, then per seat (``seat_a``'s, then ``seat_b``'s) the
    hands won and lost, the points, gins and undercuts won (void hands left out; a hand
    without a winner, a tie, is neither won nor lost)."""
    sums: dict[tuple[str, int, int], list[Any]] = {}
    for game_id, n, a, b, void, winner, outcome, points in pairs:
        row = sums.setdefault((game_id, a, b), [game_id, a, b, n, *[0] * 11])
        row[3] = min(row[3], n)
        row[4] += 1 - void
        if void or winner is None:
            continue
        for at, seat in ((5, a), (10, b)):
            if winner != seat:
                row[at + 1] += 1
                continue
            row[at] += 1
            row[at + 2] += points
            row[at + 3] += outcome in _GINS
            row[at + 4] += outcome == Outcome.UNDERCUT.value
    return list(sums.values())


def _played(record: Mapping[str, Any]) -> Iterator[tuple[Sequence[int], Mapping[str, Any]]]:
    if "games" in record:  # four players: the deal's two games
        for game in record["games"]:
            yield game["players"], game
    elif "sits_out" in record:
        yield [p for p in range(3) if p != record["sits_out"]], record
    else:
        yield (0, 1), record


def fill(conn: Any, sql: Callable[[str], str]) -> None:
    """Fill ``hand_pairs`` and ``games.won_by`` from the stored sheet rows and summaries (the
    migration, on ``conn``; ``sql`` puts a statement in the backend's placeholder style)."""
    for game_id, scored in _batches(conn, sql, _SCORED, "id", ("id",)):
        conn.execute(sql(SET_WON_BY), (won_by(json.loads(scored)), game_id))
    for game_id, n, stored in _batches(conn, sql, _RECORDS, "game_id, n", ("game_id", "n")):
        for row in pair_rows(game_id, n, json.loads(stored)):
            conn.execute(sql(INSERT_PAIR), row)


def _batches(
    conn: Any, sql: Callable[[str], str], select: str, order: str, key: tuple[str, ...]
) -> Iterator[Sequence[Any]]:
    """The rows of ``select`` in ``order`` (its first ``len(key)`` columns, the ``key``),
    :data:`BATCH` at a time (each batch read whole before it is used)."""
    after: Sequence[Any] | None = None
    where = " AND " if " WHERE " in select else " WHERE "
    columns = ", ".join(key)
    marks = ", ".join("?" * len(key))
    while True:
        more = "" if after is None else f"{where}({columns}) > ({marks})"
        rows = conn.execute(
            sql(f"{select}{more} ORDER BY {order} LIMIT {BATCH}"), tuple(after or ())
        ).fetchall()
        yield from rows
        if len(rows) < BATCH:
            return
        after = rows[-1][: len(key)]


def won_by(summary: Mapping[str, Any] | None) -> int | None:
    """The side that won a game with this scored summary (``None``: not over, or tied)."""
    result = None if summary is None else summary.get("result")
    return None if result is None else result.get("winner")
