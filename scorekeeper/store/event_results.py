"""A stored event's answers as typed results (:class:`~scorekeeper.results.Result`).

:mod:`scorekeeper.store.events` answers with these frozen dataclasses; each
one's ``to_dict()`` is the JSON the API and the exports give (the API derives
their response schemas from them, :mod:`api.shapes`). The field docstrings
below are the schemas' descriptions.

>>> match = EventMatch.of(1, "g1", MatchResult(("Ana", "Bor"), (130, 20), "Ana"))
>>> match.to_dict()  # doctest: +NORMALIZE_WHITESPACE
{'table': 1, 'players': ['Ana', 'Bor'], 'game_id': 'g1', 'finished': True,
 'winner': 'Ana', 'totals': [130, 20], 'ended_by_director': False}
>>> [row.to_dict()["total_b"] for row in result_rows([EventRound(1, (match,), None, ())])]
[20]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..event_standings import Standing
from ..event_tables import TIME_CALLED
from ..events import Format, MatchResult
from ..results import Result
from .exchange import ExportedGame


@dataclass(frozen=True, slots=True)
class EventMatch(Result):
    """A match of an event: its table, players, game and result (once the game is over, or
    the director ended the match)."""

    table: int
    players: tuple[str, ...]
    game_id: str
    finished: bool
    winner: str | None
    totals: tuple[int, ...] | None
    """The final totals, bonuses included (null until the end); for a match the director
    ended, the totals as they stood then, with no game bonus."""
    ended_by_director: bool
    """Whether the director ended the match before its game was over (its result then
    stays, whatever the game does after)."""

    @classmethod
    def of(cls, table: int, game_id: str, result: MatchResult) -> EventMatch:
        """The match at ``table`` whose game is ``game_id``, as ``result`` has it."""
        finished = result.winner is not None
        return cls(
            table,
            result.players,
            game_id,
            finished,
            result.winner,
            result.totals if finished else None,
            result.ended_by_director,
        )


@dataclass(frozen=True, slots=True)
class Walkover(Result):
    """A match not played: its opponent withdrew, the player goes through (a win, 0 net
    points)."""

    winner: str
    withdrawn: str


def walkover_lines(walkovers: Iterable[tuple[str, str]]) -> tuple[Walkover, ...]:
    """A round's walkovers, ``(player, withdrawn opponent)``, as results."""
    return tuple(Walkover(winner, gone) for winner, gone in walkovers)


@dataclass(frozen=True, slots=True)
class RosterLine(Result):
    """A late entry or a withdrawal: the player and the round it takes effect from."""

    player: str
    round: int


def roster_lines(changes: Iterable[tuple[str, int]]) -> tuple[RosterLine, ...]:
    """An event's entries or withdrawals, ``(player, round)``, as results."""
    return tuple(RosterLine(player, number) for player, number in changes)


@dataclass(frozen=True, slots=True)
class EventRound(Result):
    """A paired round of an event."""

    number: int
    matches: tuple[EventMatch, ...]
    bye: str | None
    byes: tuple[str, ...]
    walkovers: tuple[Walkover, ...] = ()
    """The players who went through because their opponent withdrew."""


@dataclass(frozen=True, slots=True)
class EventSettings(Result):
    """An event's settings, as its exports repeat them."""

    id: str
    name: str
    players: tuple[str, ...]
    format: Format
    round_count: int | None
    """Swiss: the rounds to play."""
    rules: Mapping[str, Any]
    stake: float | None
    created: str
    entries: tuple[RosterLine, ...]
    """The late entries: each player (on ``players`` too) and the first round they play."""
    withdrawals: tuple[RosterLine, ...]
    """The withdrawn players: each marked withdrawn from that round on (they play no round
    from it; their played matches stay and count)."""


@dataclass(frozen=True, slots=True)
class EventExportSettings(EventSettings):
    """An event's settings and whether it is over."""

    over: bool


@dataclass(frozen=True, slots=True)
class RoundClock(Result):
    """The clock of the last paired round, as its director set it."""

    round: int
    started: str
    """When the round started (ISO 8601, UTC)."""
    minutes: int
    """How long the round lasts."""
    ends: str
    """When its time is up (ISO 8601, UTC): ``started`` plus ``minutes``."""


@dataclass(frozen=True, slots=True)
class EventView(EventExportSettings):
    """The whole event: settings, rounds, matches, tables, results and standings."""

    rounds: tuple[EventRound, ...]
    stale_round: int | None
    """A knockout's first round paired on a result that has changed since (it stays as
    paired, and counts, until the director withdraws it: DELETE
    /events/{id}/rounds/{number}); null when every round follows."""
    standings: tuple[Standing, ...]
    clock: RoundClock | None
    """The last paired round's clock (null while its director set none)."""


@dataclass(frozen=True, slots=True)
class EventStandings(Result):
    """An event's standings, computed from its stored games."""

    standings: tuple[Standing, ...]


@dataclass(frozen=True, slots=True)
class EventResult(Result):
    """A match of an event as a row of its results (a line of results.csv)."""

    round: int
    table: int
    player_a: str
    player_b: str
    finished: bool
    winner: str | None
    total_a: int | None
    """player_a's final total, bonuses included (null until the end)."""
    total_b: int | None
    game_id: str
    ended: str | None
    """time_called when the director ended the match before its game was over (the totals
    as they stood then, with no game bonus); else null."""


def result_rows(rounds: Iterable[EventRound]) -> list[EventResult]:
    """One row per match of the event's ``rounds``: ``winner``, ``total_a`` and ``total_b``
    ``None`` while the match is unfinished; ``ended``
    :data:`~scorekeeper.event_tables.TIME_CALLED` for a match the director ended."""
    rows = []
    for round_ in rounds:
        for match in round_.matches:
            total_a, total_b = match.totals or (None, None)
            first, second = match.players
            ended = TIME_CALLED if match.ended_by_director else None
            rows.append(
                EventResult(
                    round_.number,
                    match.table,
                    first,
                    second,
                    match.finished,
                    match.winner,
                    total_a,
                    total_b,
                    match.game_id,
                    ended,
                )
            )
    return rows


@dataclass(frozen=True, slots=True)
class EventExport(Result):
    """An event's settings, standings and every match's result."""

    event: EventExportSettings
    standings: tuple[Standing, ...]
    results: tuple[EventResult, ...]


@dataclass(frozen=True, slots=True)
class EventRecordRound(Result):
    """A round of an event record: its number, who sat out and who went through by
    walkover."""

    number: int
    byes: tuple[str, ...]
    walkovers: tuple[Walkover, ...] = ()


@dataclass(frozen=True, slots=True)
class DirectorEnd(Result):
    """How the director ended a match: its winner and the totals as they stood then."""

    winner: str
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class EventRecordGame(Result):
    """A match of an event record: its round, table, game id, the game exported and the
    director's end of the match (null: none)."""

    round: int
    table: int
    game_id: str
    game: ExportedGame
    ended_by_director: DirectorEnd | None
    """The match's result as the director ended it (null: none)."""


@dataclass(frozen=True, slots=True)
class EventRecord(Result):
    """An event as a record ``scorekeeper replay`` scores again (format scorekeeper.event)."""

    format: str
    version: int
    event: EventSettings
    rounds: tuple[EventRecordRound, ...]
    games: tuple[EventRecordGame, ...]


@dataclass(frozen=True, slots=True)
class PairedMatch(Result):
    """A match of a newly paired round: its table, players, game and the game's edit token."""

    table: int
    players: tuple[str, ...]
    game_id: str
    edit_token: str
    """The game's edit token (shown only now)."""


@dataclass(frozen=True, slots=True)
class PairedRound(Result):
    """A newly paired round."""

    number: int
    matches: tuple[PairedMatch, ...]
    bye: str | None
    """The one player sitting out, else null."""
    byes: tuple[str, ...]
    """Everyone sitting out (an elimination may have several)."""
    walkovers: tuple[Walkover, ...] = ()
    """The players who go through because their opponent withdrew."""


@dataclass(frozen=True, slots=True)
class NewEvent(Result):
    """A created event: its id, URL and director token (shown only now)."""

    id: str
    url: str
    director_token: str
    """Send as Authorization: Bearer <token> to pair rounds; it is not stored."""
