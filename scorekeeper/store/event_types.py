"""The types of events as stored (club nights, tournaments): rounds, matches, their ends,
the roster's changes, and the decisions a write of an event takes inside its transaction."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..events import Format
from ..rules import Rules
from .base import StoredGame, Summary


@dataclass(frozen=True, slots=True)
class StoredClock:
    """A round's clock as its director set it: when the round started (ISO 8601 UTC) and
    how many minutes it lasts."""

    started: str
    minutes: int


@dataclass(frozen=True, slots=True)
class StoredRound:
    """A paired round of an event: its number, its byes, its matches as
    ``(table, game id)``, in table order, its clock (``None``: none set) and its
    walkovers."""

    number: int
    byes: tuple[str, ...]
    matches: tuple[tuple[int, str], ...]
    clock: StoredClock | None = None
    walkovers: tuple[tuple[str, str], ...] = ()
    """Who went through by walkover: (player, withdrawn opponent)."""


@dataclass(frozen=True, slots=True)
class NewMatch:
    """A match of a round being paired, as :meth:`Store.add_round` stores it: its table
    and its new game (id, players, the SHA-256 hash of its edit token, the summary of
    its empty sheet)."""

    table: int
    game_id: str
    players: tuple[str, ...]
    token_hash: str
    scored: Summary


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """A match its event's director ended before its game was over: the winner, the two
    totals as they stood (in the game's seat order) and when."""

    winner: str
    totals: tuple[int, int]
    ended: str


Adjudicate = Callable[[StoredGame, MatchEnd | None], tuple[str, tuple[int, int]]]
"""How :meth:`Store.end_match` decides a match's end: given its game (locked) and the
end the director gave it before (``None``: none), the winner and the two totals, or it
raises (nothing is written)."""


CheckWithdrawal = Callable[["StoredEvent", Sequence[StoredGame]], None]
"""How :meth:`Store.withdraw_round` checks a round may go: given the event and the round's
games (locked, in table order), it returns, or raises to refuse (nothing is written)."""


@dataclass(frozen=True, slots=True)
class RosterChange:
    """A change to an event's roster: a ``kind`` (:data:`ENTRY` or :data:`WITHDRAWAL`), the
    player and the round it takes effect from."""

    kind: str
    player: str
    round: int


ENTRY = "entry"
WITHDRAWAL = "withdrawal"

ChangeRoster = Callable[["StoredEvent"], RosterChange]
"""How :meth:`Store.change_roster` decides a change: given the event (locked), the change,
or it raises (nothing is written)."""

SwapMatches = Callable[
    ["StoredEvent", Sequence[StoredGame]], tuple[Sequence[NewMatch], Sequence[str]]
]
"""How :meth:`Store.swap_matches` decides a swap: given the event (locked) and the
round's games (locked, in table order), the round's new matches (each replacing the
match at its table) and its byes, or it raises (nothing is written)."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """A stored event (club night, tournament): its settings, the hash of its director
    token, the rounds paired so far (each match an ordinary stored game) and the
    matches its director ended. ``rules`` are parsed once, when the row is read."""

    id: str
    name: str
    players: tuple[str, ...]
    format: Format
    rounds: int | None
    rules: Rules
    stake: float | None
    token_hash: str
    created: str
    paired: tuple[StoredRound, ...]
    ended: Mapping[str, MatchEnd]
    """The matches the director ended, by game id."""
    entered: tuple[tuple[str, int], ...] = ()
    """Late entries (on ``players`` too): each player and the first round they play."""
    withdrawn: tuple[tuple[str, int], ...] = ()
    """Withdrawals: each player and the first round they no longer play."""


@dataclass(frozen=True)
class MatchEvent:
    """The event a game is a match of, as a write reads it inside its transaction: the
    event and ``game(id)``, a reader of its other games."""

    event: StoredEvent
    game: Callable[[str], StoredGame]
