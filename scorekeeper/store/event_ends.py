"""The director ends an unfinished match of an event: time called.

The leader (or the player the director names) wins, points as they stand,
with no game bonus. That end is stored with the event
(:class:`~scorekeeper.store.event_types.MatchEnd`) and is the match's result from
then on; the game itself stays an ordinary game (hands may still be
entered, undone or corrected there, but they no longer change the event).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import Conflict, InvalidValueError
from ..events import MatchResult
from ..gamesheet import GameStatus
from ..names import name_key
from .base import StoredGame
from .event_results import EventMatch
from .event_types import MatchEnd
from .protocol import Store


def end_match(store: Store, event_id: str, game_id: str, winner: Any = None) -> EventMatch:
    """The director ends the event's unfinished match ``game_id``; returns the match.

    Time called, the leader wins, points as they stand: the match's result
    is ``winner`` (one of its two players; letter case and spaces around the
    name do not count) or, without one, the player ahead on the sheet's
    current totals, and its totals are the sheet's as they stand, with no
    game bonus. Level totals need a named ``winner`` (an
    :class:`~scorekeeper.errors.InvalidValueError` naming it, as does a
    winner who does not play the match). The game itself stays an ordinary
    game: hands may still be entered, undone and corrected, but the event
    keeps the director's result. Raises :class:`~scorekeeper.errors.Conflict`
    (``match_finished``) when the game is already over or the match already
    ended, :class:`~scorekeeper.store.refusals.NotFound` when the game is no
    match of the event.
    """
    if winner is not None and not isinstance(winner, str):
        raise InvalidValueError("winner: a player's name", option="winner")
    stored = store.event(event_id)

    def decide(game: StoredGame, earlier: MatchEnd | None) -> tuple[str, tuple[int, int]]:
        if earlier is not None:
            raise Conflict(
                "the director already ended this match",
                code="match_finished",
                params={"game_id": game_id, "ended_by_director": True},
            )
        if game.status is GameStatus.OVER:
            raise Conflict(
                "this match's game is already over: its result counts as it is",
                code="match_finished",
                params={"game_id": game_id, "ended_by_director": False},
            )
        assert game.scored is not None  # a match's game is stored with its sheet's summary
        first, second = game.scored.data["totals"]
        totals = (int(first), int(second))
        if winner is not None:
            return _named_winner(game.players, winner), totals
        if first == second:
            raise InvalidValueError(
                f"winner: the totals are level ({first} to {second}): name the winner",
                code="level_totals",
                params={"total": first},
                option="winner",
            )
        return game.players[0 if first > second else 1], totals

    end = store.end_match(event_id, game_id, decide)
    table = next(t for r in stored.paired for t, g in r.matches if g == game_id)
    game = store.game(game_id)
    result = MatchResult((game.players[0], game.players[1]), end.totals, end.winner, True)
    return EventMatch.of(table, game_id, result)


def _named_winner(players: Sequence[str], winner: str) -> str:
    """The one of a match's two ``players`` named ``winner`` (letter case and spaces around
    the name do not count)."""
    named = name_key(winner, field="winner")
    for player in players:
        if name_key(player) == named:
            return player
    raise InvalidValueError(
        f"winner: {winner!r} does not play this match ({players[0]!r} v {players[1]!r})",
        code="not_in_this_game",
        params={"player": winner},
        option="winner",
    )
