"""The club's ratings: the fold of :mod:`scorekeeper.ratings` over the store's finished games.

Rated: every game whose sheet has ended (``status`` ``over``), imported
games too, except those created with a bot key (``scorekeeper keys create
NAME --bot``) and a club night's match its director ended ("time called",
even if its sheet ends after), in the order they ended (``games.finished``),
then by id.
The ratings are exactly that fold (:func:`recompute`); to answer quickly the
store keeps the fold's result (:mod:`scorekeeper.store.sql_ratings`) with the
fingerprint of the games it folded: each game's id, end and version (the
version counts its log, so a correction or an undo changes it), and the count of
changes to the rated games the database keeps by triggers
(:mod:`scorekeeper.store.sql_rating_changes`) as it read them. Before a read
:func:`refresh` compares that count with today's (one row): equal, nothing changed
and the cache is read as it is, at the same cost for any number of games. Else it
compares the fingerprint with the games' (a read of every rated game's id, end and
version): equal, the cache is read as it is (and the count saved); the stored games a
prefix of today's (games
ended since), only the new games are folded, from the cached skills; else
(a correction, an undo, an import of an older game, a key made a bot) the
whole fold is done again. The skills are stored as the floats they are, so
folding on from them gives the same bits as folding from scratch.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from ..ratings import NEW, Folded, RatedGame, fold, placing
from ..results import Result
from .access import check_limit, decode_value, encode_value, stored_time
from .games import load_sheet
from .protocol import Store
from .sql_ratings import LadderRow, RatingInputs, RatingLine

DEFAULT_PAGE = 50
MAX_PAGE = 200
"""Lines on one page of the ladder: by default, and at most."""

ATTEMPTS = 3
"""How often :func:`refresh` reads again when games changed between its two reads."""

UNCHANGED = Folded({}, ())
"""The fold of no game, saved when only the count of changes is new."""


@dataclass(frozen=True, slots=True)
class Rated(Result):
    """A line of the ladder: the player's name, rating and the games behind it."""

    player: str
    """The name as first written here."""
    rating: int
    """1000 + 25 x (mu - 3 sigma): 1000 for a new player."""
    games: int
    """The rated games the rating rests on."""


@dataclass(frozen=True, slots=True)
class Point(Result):
    """A point of a player's rating history: the game, when it ended, the rating after."""

    game_id: str
    finished: str
    """When the game ended (ISO 8601, UTC)."""
    rating: int
    """The player's rating after this game."""


@dataclass(frozen=True, slots=True)
class PlayerRating(Result):
    """A player's rating with the games behind it and its history, oldest first."""

    player: str
    rating: int
    games: int
    history: tuple[Point, ...]


def fingerprints(games: list[tuple[str, str, int]], at: int) -> tuple[str, str | None]:
    """The fingerprint of the rated ``games`` (``(id, finished, version)`` in order) and
    of their first ``at`` (``None`` when there are fewer); ``""`` for none."""
    lines = [f"{game_id} {finished} {version}\n" for game_id, finished, version in games]
    digest = hashlib.sha256("".join(lines[:at]).encode())
    prefix = "" if at == 0 else digest.hexdigest() if at <= len(games) else None
    digest.update("".join(lines[at:]).encode())
    return (digest.hexdigest() if games else ""), prefix


def recompute(store: Store) -> Folded:
    """The fold of every rated game from scratch (what the cache must equal)."""
    return fold(_rated(store, store.rating_inputs(details=True), 0))


def refresh(store: Store) -> None:
    """Bring the store's cached ratings up to the games (see the module docs)."""
    saved, now = store.rating_changes()
    if saved == now:
        return
    for _ in range(ATTEMPTS):
        inputs = store.rating_inputs()
        count = inputs.state[0]
        current, prefix = fingerprints(inputs.games, count)
        if (len(inputs.games), current) == inputs.state:  # the same games: keep the count
            store.save_ratings(
                inputs.state, inputs.state, UNCHANGED, scratch=False, changes=inputs.changes
            )
            return
        scratch = prefix != inputs.state[1]
        after = None if scratch or count == 0 else _end_of(inputs.games[count - 1])
        found = store.rating_inputs(after, details=True)
        current, prefix = fingerprints(found.games, 0 if scratch else count)
        if found.state != inputs.state or prefix != ("" if scratch else inputs.state[1]):
            continue  # changed between the reads: read again
        start = 0 if scratch else count
        folded = fold(_rated(store, found, start), None if scratch else found.skills)
        state = (len(found.games), current)
        store.save_ratings(inputs.state, state, folded, scratch=scratch, changes=found.changes)
        return


def _end_of(game: tuple[str, str, int]) -> tuple[str, str]:
    """The place of a rated game ``(id, finished, version)`` in the fold: ``(finished, id)``."""
    return game[1], game[0]


def _rated(store: Store, inputs: RatingInputs, start: int) -> Iterator[RatedGame]:
    """The rated games of ``inputs`` from the ``start``-th on, as the fold takes them."""
    for game_id, finished, _ in inputs.games[start:]:
        result = inputs.results[game_id]
        if result is None:  # a game scored before the scored state was kept
            sheet_result = load_sheet(store, game_id).result
            assert sheet_result is not None  # the game is over
            result = sheet_result.to_dict()
        seats = inputs.seats[game_id]
        sides, ranks = placing(result, len(seats))
        players = tuple(tuple(seats[s] for s in side) for side in sides)
        yield RatedGame(game_id, finished, players, ranks)


def ladder(
    store: Store,
    *,
    limit: int = DEFAULT_PAGE,
    cursor: str | None = None,
    min_games: int = 1,
    active_since: datetime | None = None,
) -> tuple[list[Rated], str | None]:
    """One page of the ladder, highest rating first: ``(lines, next cursor)``.

    Players with at least ``min_games`` rated games, the last ended at or after
    ``active_since`` (default: any time). The cursor (``None`` on the last page) is the
    last line's ``(rating, player)``, so pages neither repeat nor skip a player.
    """
    check_limit(limit, MAX_PAGE)
    refresh(store)
    rows = store.ladder_rows(
        limit=limit + 1,
        min_games=min_games,
        active_since="" if active_since is None else stored_time(active_since),
        after=None if cursor is None else _decode(cursor),
    )
    page = rows[:limit]
    lines = [Rated(row.name, row.rating, row.games) for row in page]
    return lines, _encode(page[-1]) if len(rows) > limit else None


def player_rating(store: Store, name: str) -> PlayerRating:
    """The rating of player ``name`` (matched by name key; raises ``NotFound``) with its
    history; a player with no rated game shows the rating of a new player, 0 games."""
    player = store.player(name)
    refresh(store)
    found, steps = store.rating_steps(player.id)
    rating, games = found or (NEW.rating, 0)
    history = tuple(Point(s.game_id, s.finished, s.rating) for s in steps)
    return PlayerRating(player.name, rating, games, history)


def player_line(store: Store, name: str, columns: int) -> RatingLine | None:
    """The rating of player ``name`` (matched by name key; raises ``NotFound``) and its
    history as a chart of ``columns`` columns draws it (``None`` before the first rated
    game): the first and last game and, in each column of the games, the first, last,
    lowest and highest rating, picked by the database (at most four per column, whatever
    the number of games)."""
    player = store.player(name)
    refresh(store)
    return store.rating_line(player.id, columns)


def _encode(row: LadderRow) -> str:
    """The cursor of the page after ``row``: its ``(rating, player id)``."""
    return encode_value([row.rating, row.player_id])


def _decode(cursor: str) -> tuple[int, int]:
    """The ``(rating, player id)`` of a cursor of :func:`_encode`."""
    rating, player_id = decode_value(cursor, int)
    return rating, player_id
