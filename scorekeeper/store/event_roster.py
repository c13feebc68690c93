"""The director's roster changes on a stored event: withdrawals, late entries, swaps.

The rules are :mod:`scorekeeper.event_roster`'s; each change is written in one
transaction that locks the event's row (:class:`~scorekeeper.store.sql_roster.EventRoster`),
as pairing a round does, so a change is either before a pairing or after it:
a withdrawal or an entry takes effect from the next round to be paired, as the
transaction sees the rounds.

A swap replaces the games of the two tables concerned by new games (new ids,
new edit tokens, answered as a pairing answers them): the old games are no
longer the event's and stay as ordinary games, as a withdrawn round's do. So
a game's players never change under a phone that shows it; the two tables'
cards are printed again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import Conflict
from ..event_pairing import next_round
from ..event_roster import enter, rounds_in_all, swap, withdraw
from ..results import Result
from .base import StoredGame
from .event_results import PairedMatch
from .event_rounds import event_of
from .event_types import ENTRY, WITHDRAWAL, NewMatch, RosterChange, StoredEvent
from .events import new_match, played_rounds
from .protocol import Store


def _decided(store: Store, stored: StoredEvent) -> bool:
    """Whether a knockout's final is decided (every round paired finished, none left to
    pair); always ``False`` for a Swiss or a round robin (their rounds are counted)."""
    event = event_of(stored)
    if rounds_in_all(event) is not None:
        return False
    played = played_rounds(store, stored)
    return all(r.finished for r in played) and next_round(event, played) is None


def withdraw_player(store: Store, event_id: str, player: object) -> None:
    """Withdraw ``player`` from the next round to be paired on (see
    :func:`scorekeeper.event_roster.withdraw`); 409 ``event_over`` once no round is left
    to pair."""
    decided = _decided(store, store.event(event_id))

    def change(stored: StoredEvent) -> RosterChange:
        event = event_of(stored)
        total = rounds_in_all(event)
        if decided if total is None else len(stored.paired) >= total:
            raise Conflict(
                "the event is over: no round is left to withdraw a player from",
                code="event_over",
            )
        name, number = withdraw(event, len(stored.paired), player).withdrawn[-1]
        return RosterChange(WITHDRAWAL, name, number)

    store.change_roster(event_id, change)


def enter_player(store: Store, event_id: str, player: object) -> str:
    """Add ``player`` as a late entry (see :func:`scorekeeper.event_roster.enter`); returns
    the name as entered."""
    entered: list[str] = []

    def change(stored: StoredEvent) -> RosterChange:
        paired = len(stored.paired)
        name = enter(event_of(stored), paired, player).players[-1]
        entered.append(name)
        return RosterChange(ENTRY, name, paired + 1)

    store.change_roster(event_id, change)
    return entered[-1]


@dataclass(frozen=True, slots=True)
class SwappedRound(Result):
    """A round after a swap: the changed tables' new matches (each a new game, with its
    edit token, shown only now), the round's byes and the pairs that meet again."""

    number: int
    matches: tuple[PairedMatch, ...]
    byes: tuple[str, ...]
    rematches: tuple[tuple[str, ...], ...]
    """Pairs that met in an earlier round (the swap was confirmed)."""


def swap_players(
    store: Store,
    event_id: str,
    number: int,
    players: object,
    *,
    confirm: bool = False,
    secret: str | None = None,
) -> SwappedRound:
    """Swap two players of round ``number`` (the last paired) while neither of their
    tables has a hand (see :func:`scorekeeper.event_roster.swap`). 409 ``rematch``
    without ``confirm`` when a new pair met before; ``swap_started`` when a table
    concerned has a hand (or the director ended its match); ``round_not_last``."""
    before = store.event(event_id)
    met = [
        result.players
        for played in played_rounds(store, before)[: number - 1]
        for result in played.matches
    ]
    made: list[PairedMatch] = []
    outcome: list[tuple[Sequence[str], tuple[tuple[str, str], ...]]] = []

    def decide(
        stored: StoredEvent, games: Sequence[StoredGame]
    ) -> tuple[Sequence[NewMatch], Sequence[str]]:
        last = stored.paired[-1]
        if number != last.number:
            raise Conflict(
                f"only the last round paired (round {last.number}) can be changed",
                code="round_not_last",
                params={"round": number, "last_round": last.number},
            )
        tables = [
            (t, (g.players[0], g.players[1])) for (t, _), g in zip(last.matches, games, strict=True)
        ]
        worked = swap(event_of(stored), met, tables, last.byes, players, confirm=confirm)
        started = {
            t: g
            for (t, game_id), g in zip(last.matches, games, strict=True)
            if game_id in stored.ended or g.scored is None or g.scored.count
        }
        new = []
        for table, pair in worked.tables:
            _refuse_started(number, table, started.get(table))
            shown, kept = new_match(stored, number, table, pair, secret)
            made.append(shown)
            new.append(kept)
        outcome.append((worked.byes, worked.rematches))
        return new, worked.byes

    store.swap_matches(event_id, number, decide)
    byes, rematches = outcome[-1]
    return SwappedRound(number, tuple(made), tuple(byes), rematches)


def _refuse_started(number: int, table: int, game: StoredGame | None) -> None:
    """Refuse (``swap_started``) a swap at a table whose game has begun (``game``)."""
    if game is not None:
        raise Conflict(
            f"round {number}, table {table} ({game.players[0]!r} v {game.players[1]!r})"
            " has begun: players can be swapped only while their tables have no hand",
            code="swap_started",
            params={"round": number, "table": table, "players": list(game.players)},
        )
