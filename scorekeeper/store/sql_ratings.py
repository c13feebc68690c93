"""The club's ratings as both SQL stores keep them (see :mod:`scorekeeper.store.ratings`).

* ``games.finished``: when a game ended: set by the write that ends it
  (an import's finished game: when it was imported), kept through later
  corrections, cleared by an undo that reopens it (set again when it ends
  again). Games that ended before the column was added get their last
  change's time. Index ``games_finished`` on the ended games' ``(finished, id,
  version, status)``: the fold's order, read from the index alone.
* ``api_keys.bot``: a key made for bots and simulations (``scorekeeper keys
  create NAME --bot``); the games created with it are left out of the ratings,
  as is a club night's match its director ended (``event_match_ends``).
* the fold's cache, a function of the rated games: ``rating_state`` (one
  row: how many games were folded and the fingerprint of that list,
  :func:`~scorekeeper.store.ratings.fingerprints`), ``ratings`` (per
  player: ``mu``, ``sigma``, the rating shown, the games and the last one's
  end) and ``rating_steps`` (per player and game number ``n``: the game, its
  end and the rating after it).

:class:`RatingRows` is the part of :class:`~scorekeeper.store.sql.SqlStore` that reads
and writes them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..ratings import Folded, Skill, Step
from .sql_part import SqlPart
from .sql_rating_changes import SELECT_CHANGES
from .tallies import Executes

ADD_BOT = "ALTER TABLE api_keys ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE"
"""The bot keys' mark: the same statement in both backends."""

RATING_TABLES = (
    "ALTER TABLE games ADD COLUMN finished TEXT",
    "UPDATE games SET finished = updated WHERE status = 'over'",
    # the fold's order, covering what a read compares (the finished games' id, end, version)
    "CREATE INDEX games_finished ON games (finished, id, version, status) WHERE status = 'over'",
    "CREATE TABLE rating_state (id INTEGER PRIMARY KEY, games INTEGER NOT NULL,"
    " fingerprint TEXT NOT NULL)",
    "INSERT INTO rating_state (id, games, fingerprint) VALUES (1, 0, '')",
    "CREATE TABLE ratings (player_id BIGINT PRIMARY KEY REFERENCES players (id),"
    " mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL,"
    " rating INTEGER NOT NULL, games INTEGER NOT NULL, last TEXT NOT NULL)",
    "CREATE INDEX ratings_order ON ratings (rating, player_id)",
    "CREATE TABLE rating_steps (player_id BIGINT NOT NULL REFERENCES players (id),"
    " n INTEGER NOT NULL, game_id TEXT NOT NULL, finished TEXT NOT NULL,"
    " rating INTEGER NOT NULL, PRIMARY KEY (player_id, n))",
)
"""The ratings' column, index and cache tables (types valid in both backends)."""

FINISHED = "CASE WHEN ? THEN COALESCE(finished, ?) END"
"""``games.finished`` as a write leaves it: ``(over, the write's time)``."""
SET_FINISHED = "UPDATE games SET finished = ? WHERE id = ?"

_RATED = (
    " FROM games g WHERE g.status = 'over' AND NOT EXISTS (SELECT 1 FROM key_games k"
    " JOIN api_keys a ON a.id = k.key_id WHERE k.game_id = g.id AND a.bot)"
    " AND NOT EXISTS (SELECT 1 FROM event_matches m JOIN event_match_ends x"
    " ON x.game_id = m.game_id WHERE m.game_id = g.id)"
)
"""The rated games: ended, not created with a bot key, and no match of a club night that
its director ended (time called: the night keeps the director's result, whatever the
sheet does after, and the ratings take no other)."""
_AFTER = " AND (g.finished > ? OR (g.finished = ? AND g.id > ?))"
SELECT_RATED = "SELECT g.id, g.finished, g.version" + _RATED + " ORDER BY g.finished, g.id"
SELECT_RESULTS = "SELECT g.id, g.scored" + _RATED
SELECT_SEATS = (
    "SELECT s.game_id, s.seat, s.player_id FROM game_players s WHERE s.game_id IN"
    " (SELECT g.id" + _RATED
)
SELECT_STATE = "SELECT games, fingerprint, changes FROM rating_state WHERE id = 1"
UPDATE_STATE = "UPDATE rating_state SET games = ?, fingerprint = ?, changes = ? WHERE id = 1"
SELECT_SKILLS = "SELECT player_id, mu, sigma, games, last FROM ratings"
UPSERT_SKILL = (
    "INSERT INTO ratings (player_id, mu, sigma, rating, games, last) VALUES (?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (player_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
    " rating = excluded.rating, games = excluded.games, last = excluded.last"
)
INSERT_STEP = (
    "INSERT INTO rating_steps (player_id, n, game_id, finished, rating) VALUES (?, ?, ?, ?, ?)"
)
SELECT_LADDER = (
    "SELECT r.player_id, p.name, r.rating, r.games FROM ratings r"
    " JOIN players p ON p.id = r.player_id WHERE r.games >= ? AND r.last >= ?"
)
LADDER_AFTER = " AND (r.rating < ? OR (r.rating = ? AND r.player_id > ?))"
LADDER_ORDER = " ORDER BY r.rating DESC, r.player_id LIMIT ?"
SELECT_STEPS = "SELECT game_id, finished, rating FROM rating_steps WHERE player_id = ? ORDER BY n"
SELECT_RATING = "SELECT rating, games FROM ratings WHERE player_id = ?"
SELECT_ENDS = (
    "SELECT n, game_id, finished, rating FROM rating_steps WHERE player_id = ? AND n IN (1, ?)"
    " ORDER BY n"
)

LINE_INDEX = "CREATE INDEX rating_steps_line ON rating_steps (player_id, n, rating)"
"""A player's steps with their ratings in order, read from the index alone: what
:data:`SELECT_COLUMNS` reads (the primary key's rows are wider: each step's game and end)."""


def migrate_rating_line(db: Executes) -> None:
    """:data:`LINE_INDEX`: the same step in both backends' migrations."""
    db.execute(LINE_INDEX)


SHIFT, MIDDLE = 1 << 24, 1 << 23
"""How a step's game number and rating are packed into one integer (``n * SHIFT + rating +
MIDDLE``, or the other way round), so that one ``min`` or ``max`` of a column of the
history gives both: a game number below 16,777,216, a rating within 8,388,608 of 0."""
_BY_GAME = f"CAST(n AS BIGINT) * {SHIFT} + rating + {MIDDLE}"
_BY_RATING = f"CAST(rating + {MIDDLE} AS BIGINT) * {SHIFT} + n"
SELECT_COLUMNS = (
    f"SELECT min({_BY_GAME}), max({_BY_GAME}), min({_BY_RATING}), max({_BY_RATING})"
    " FROM rating_steps WHERE player_id = ? GROUP BY (CAST(n AS BIGINT) - 1) * {} / {}"
)
"""Each column's first, last, lowest and highest step (packed) of a player's history drawn
in ``{}`` columns over its games (the second ``{}``: the games less one, at least 1)."""


@dataclass(frozen=True, slots=True)
class RatingInputs:
    """What the ratings are a fold of, read in one snapshot: the rated games in order
    ``(id, finished, version)``, the cache's ``state`` (games folded, fingerprint), the
    count of changes (:mod:`~.sql_rating_changes`) as the cache read it and now, and,
    when asked for, the results of the games after a point (``results``: id -> the
    scored summary's JSON or ``None``; ``seats``: id -> player ids by seat) with the
    cached ``skills``."""

    games: list[tuple[str, str, int]]
    state: tuple[int, str]
    changes: tuple[int, int]
    results: dict[str, Any]
    seats: dict[str, list[int]]
    skills: dict[int, Skill]


@dataclass(frozen=True, slots=True)
class RatingLine:
    """A player's cached rating, rated games and history as a chart draws it: the
    ``(game number, rating)`` steps kept (the game number from 1, in order) and the first
    and last step."""

    rating: int
    games: int
    points: tuple[tuple[int, int], ...]
    first: Step
    last: Step


@dataclass(frozen=True, slots=True)
class LadderRow:
    """A line of the ladder: the player's id (the cursor's tie-break), name, rating, games."""

    player_id: int
    name: str
    rating: int
    games: int


class RatingRows(SqlPart):
    """Reads and writes of the ratings' cache (mixed into :class:`~.sql.SqlStore`)."""

    def rating_inputs(
        self, after: tuple[str, str] | None = None, *, details: bool = False
    ) -> RatingInputs:
        """The rated games and the cache's state; with ``details``, the results and seats of
        the games after ``(finished, id)`` (all of them for ``None``) and the cached skills."""
        with self._snapshot() as conn:
            games = [(i, end, version) for i, end, version in self._run(conn, SELECT_RATED)]
            count, fingerprint, _ = self._run(conn, SELECT_STATE).fetchone()
            state = (count, fingerprint)
            saved, now = self._run(conn, SELECT_CHANGES).fetchone()
            if not details:
                return RatingInputs(games, state, (saved, now), {}, {}, {})
            where, params = ("", []) if after is None else (_AFTER, [after[0], *after])
            results = {
                game_id: None if scored is None else json.loads(scored)["result"]
                for game_id, scored in self._run(conn, SELECT_RESULTS + where, params)
            }
            seats: dict[str, list[int]] = {}
            for game_id, _, player in sorted(self._run(conn, SELECT_SEATS + where + ")", params)):
                seats.setdefault(game_id, []).append(player)
            skills = {
                player: Skill(mu, sigma, games_, last)
                for player, mu, sigma, games_, last in self._run(conn, SELECT_SKILLS)
            }
        return RatingInputs(games, state, (saved, now), results, seats, skills)

    def rating_changes(self) -> tuple[int, int]:
        """The count of changes to the rated games as the cache last read it, and now."""
        with self._read() as conn:
            saved, now = self._run(conn, SELECT_CHANGES).fetchone()
        return saved, now

    def save_ratings(
        self,
        base: tuple[int, str],
        state: tuple[int, str],
        folded: Folded,
        *,
        scratch: bool,
        changes: tuple[int, int],
    ) -> bool:
        """Store ``folded`` as the fold of the games ``state`` describes, read when the
        count of changes was ``changes[1]``, if the cache still holds ``base`` read at
        ``changes[0]`` (else another process refreshed it first: False, nothing written).

        With ``scratch`` ``folded`` is a fold from scratch: every cached rating is
        replaced; otherwise it holds the games after ``base``'s, added to the cache."""
        with self._write() as conn:
            found = self._run(conn, SELECT_STATE + self.LOCK_GAME).fetchone()
            if tuple(found) != (*base, changes[0]):
                return False
            if scratch:
                self._run(conn, "DELETE FROM rating_steps")
                self._run(conn, "DELETE FROM ratings")
            moved = {step.player for step in folded.steps}
            self._run_many(
                conn,
                UPSERT_SKILL,
                [
                    (p, s.mu, s.sigma, s.rating, s.games, s.last)
                    for p, s in folded.skills.items()
                    if p in moved
                ],
            )
            self._run_many(conn, INSERT_STEP, [_step_row(step) for step in folded.steps])
            self._run(conn, UPDATE_STATE, (*state, changes[1]))
            return True

    def ladder_rows(
        self,
        *,
        limit: int,
        min_games: int,
        active_since: str,
        after: tuple[int, int] | None = None,
    ) -> list[LadderRow]:
        """The cached ratings of players with at least ``min_games`` whose last game ended
        at or after ``active_since``, highest first (then by player id), after ``(rating,
        player id)``, at most ``limit``."""
        statement, params = SELECT_LADDER, [min_games, active_since]
        if after is not None:
            statement, params = statement + LADDER_AFTER, [*params, after[0], *after]
        with self._read() as conn:
            found = self._run(conn, statement + LADDER_ORDER, [*params, limit]).fetchall()
        return [LadderRow(*row) for row in found]

    def rating_steps(self, player_id: int) -> tuple[tuple[int, int] | None, list[Step]]:
        """The player's cached ``(rating, games)`` (``None``: never rated) and history."""
        with self._snapshot() as conn:
            row = self._run(conn, SELECT_RATING, (player_id,)).fetchone()
            steps = [
                Step(player_id, n, game_id, finished, rating)
                for n, (game_id, finished, rating) in enumerate(
                    self._run(conn, SELECT_STEPS, (player_id,)), 1
                )
            ]
        return None if row is None else (row[0], row[1]), steps

    def rating_line(self, player_id: int, columns: int) -> RatingLine | None:
        """The player's history as a chart of ``columns`` columns draws it (``None``: never
        rated): the database reads the player's steps and gives each column's first,
        last, lowest and highest, so that at most four a column are read here."""
        with self._snapshot() as conn:
            row = self._run(conn, SELECT_RATING, (player_id,)).fetchone()
            if row is None:
                return None
            rating, games = row
            statement = SELECT_COLUMNS.format(int(columns), max(games - 1, 1))
            points: set[tuple[int, int]] = set()
            for packed in self._run(conn, statement, (player_id,)):
                points |= _column(packed)
            ends = self._run(conn, SELECT_ENDS, (player_id, games)).fetchall()
        first, last = (Step(player_id, *step) for step in (ends[0], ends[-1]))
        return RatingLine(rating, games, tuple(sorted(points)), first, last)


def _column(packed: Sequence[int]) -> set[tuple[int, int]]:
    """The ``(game number, rating)`` steps of a column of :data:`SELECT_COLUMNS`: its first,
    last, lowest and highest (fewer when they coincide)."""
    first, last, low, high = packed
    by_game = {(p // SHIFT, p % SHIFT - MIDDLE) for p in (first, last)}
    return by_game | {(p % SHIFT, p // SHIFT - MIDDLE) for p in (low, high)}


def _step_row(step: Step) -> tuple[int, int, str, str, int]:
    """A history step as its ``rating_steps`` row."""
    return step.player, step.games, step.game_id, step.finished, step.rating
