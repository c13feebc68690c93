"""An event's rounds: their results read from the games, the guard on a change to a
knockout's match, and the director withdrawing a round.

:func:`rounds_of` reads each paired round's results from its games' scored
state (:func:`scorekeeper.store.events.played_rounds` reads them from the
store; a write reads them inside its transaction). :func:`check_change` is
what an undo or a correction on a game asks before it is written: a change
that would change the winner of a knockout's match whose result decided a
later round's pairing (:func:`scorekeeper.event_changes.unmade_round`) is
refused with a :class:`~scorekeeper.errors.Conflict` ``decided_later_pairing``
naming the match and the later round, until the director withdraws that
round (:func:`withdraw_round`). A match the director
ended keeps its result whatever its game does, so a change to its game is
never refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import Conflict
from ..event_changes import KNOCKOUTS, unmade_round
from ..events import Event, MatchResult, PlayedRound
from .base import StoredGame, Summary
from .event_types import MatchEvent, StoredEvent
from .protocol import Store

GameData = tuple[tuple[str, str], Mapping[str, Any]]
"""A match's game as its result needs it: its two players and its sheet's JSON (``over``
and ``result`` read)."""


def event_of(stored: StoredEvent) -> Event:
    """The core event of a stored one (its late entries and withdrawals too)."""
    return Event(stored.players, stored.format, stored.rounds, stored.entered, stored.withdrawn)


def result_of(players: tuple[str, str], data: Mapping[str, Any]) -> MatchResult:
    """A match's result from its game's sheet JSON: the winner and the final totals
    (bonuses included) once the game is over, else no winner."""
    result = data.get("result")
    if not data.get("over") or not result:
        return MatchResult(players)
    final = result["final"]
    return MatchResult(players, (final[0], final[1]), players[result["winner"]])


def rounds_of(stored: StoredEvent, data_of: Callable[[str], GameData]) -> list[PlayedRound]:
    """The event's paired rounds as played, each match's game read by ``data_of(id)``; a
    match the director ended counts as ended, whatever its game does after."""
    played: list[PlayedRound] = []
    for paired in stored.paired:
        results = []
        for _, game_id in paired.matches:
            players, data = data_of(game_id)
            end = stored.ended.get(game_id)
            if end is not None:
                results.append(MatchResult(players, end.totals, end.winner, ended_by_director=True))
            else:
                results.append(result_of(players, data))
        played.append(PlayedRound(tuple(results), paired.byes, paired.walkovers))
    return played


def _data(game: StoredGame) -> GameData:
    return (game.players[0], game.players[1]), game.scored.data if game.scored else {}


def check_change(match: MatchEvent | None, game: StoredGame, scored: Summary) -> None:
    """Refuse (``decided_later_pairing``) a write leaving ``game`` with the summary
    ``scored`` when it would unmake a later pairing of its knockout (see the module
    docs); ``match`` is the event the game is a match of (``None``: no event)."""
    if match is None or game.id in match.event.ended:
        return
    stored = match.event
    if stored.format not in KNOCKOUTS:
        return
    number, index, table = next(
        (paired.number, i, t)
        for paired in stored.paired
        for i, (t, game_id) in enumerate(paired.matches)
        if game_id == game.id
    )
    if number == len(stored.paired):  # no round after it
        return
    played = rounds_of(
        stored, lambda other: _data(game) if other == game.id else _data(match.game(other))
    )
    old = played[number - 1].matches[index]
    later = unmade_round(
        event_of(stored), played, number, index, result_of(old.players, scored.data)
    )
    if later is None:
        return
    first, second = old.players
    raise Conflict(
        f"round {number}, table {table} ({first!r} v {second!r}): {old.winner!r} won this"
        f" match and round {later} was paired on that result; before it can change, the"
        f" director must withdraw round {later} (and any round after it)",
        code="decided_later_pairing",
        params={
            "round": number,
            "table": table,
            "players": [first, second],
            "winner": old.winner,
            "later_round": later,
        },
    )


def withdraw_round(store: Store, event_id: str, number: int) -> None:
    """The director withdraws the event's last paired round ``number``, so that it can be
    paired again (after a result before it was corrected, say): its games are no longer
    the event's (they stay as ordinary games).

    Allowed while none of its games has a hand on its sheet and the director ended
    none of its matches; else :class:`~scorekeeper.errors.Conflict` ``round_started``
    naming the table. A round before the last: ``round_not_last``; no such round:
    :class:`~scorekeeper.store.refusals.NotFound`.
    """

    def check(stored: StoredEvent, games: Sequence[StoredGame]) -> None:
        last = stored.paired[-1].number
        if number != last:
            raise Conflict(
                f"round {number} is not the last round paired (round {last} is):"
                " withdraw the rounds after it first",
                code="round_not_last",
                params={"round": number, "last_round": last},
            )
        tables = stored.paired[-1].matches
        for (table, game_id), game in zip(tables, games, strict=True):
            if game_id in stored.ended or game.scored is None or game.scored.count:
                raise Conflict(
                    f"round {number}, table {table} ({game.players[0]!r} v"
                    f" {game.players[1]!r}) has begun: a round can be withdrawn only while"
                    " none of its tables has a hand",
                    code="round_started",
                    params={"round": number, "table": table, "players": list(game.players)},
                )

    store.withdraw_round(event_id, number, check)
