"""The store interface's part of a club: events, their directors, ratings and seasons.

:class:`ClubStore` is a :class:`typing.Protocol` that
:class:`~scorekeeper.store.protocol.Store` extends: every backend implements both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from ..events import Format
from ..ratings import Folded, Step
from ..rules import Rules
from ..seasons import CasualGames, Night, Season
from .access_types import DeviceEvent, EditRight, Handover
from .base import StoredGame
from .event_types import (
    Adjudicate,
    ChangeRoster,
    CheckWithdrawal,
    MatchEnd,
    NewMatch,
    StoredClock,
    StoredEvent,
    SwapMatches,
)
from .season_results import StoredSeason
from .sql_ratings import LadderRow, RatingInputs, RatingLine


class ClubStore(Protocol):
    """The store's methods of a club: events, their directors' rights, the ratings and the
    seasons (see :class:`~scorekeeper.store.protocol.Store`)."""

    def grant_director(
        self,
        event_id: str,
        device_hash: str,
        label: str,
        *,
        link: tuple[str, str] | None = None,
        revive: bool = True,
    ) -> bool:
        """Let a scorepad device direct the event (as :meth:`grant_edit`; without ``revive`` a
        revoked right stays revoked; ``link`` is ``(kind, secret hash)``): True when it may."""

    def has_director(self, event_id: str, device_hash: str) -> bool:
        """True while that device holds an unrevoked right to direct the event."""

    def director_rights(self, event_id: str) -> list[EditRight]:
        """The event's unrevoked director rights, oldest first."""

    def revoke_director(self, event_id: str, right_id: int) -> bool:
        """Revoke director right ``right_id``, ending the event's director hand-over link in
        the same transaction; False when there is no such unrevoked right."""

    def set_director_link(self, event_id: str, kind: str, secret_hash: str | None) -> None:
        """Replace the event's director link of ``kind`` (``None``: no such link)."""

    def director_link(self, event_id: str, kind: str) -> Handover | None:
        """The event's director link of ``kind``, or ``None``."""

    def card_generation(self, game_id: str) -> int:
        """How many times a right to change the game was revoked (0: never)."""

    def game_event(self, game_id: str) -> str | None:
        """The id of the event the game is a match of (``None``: no event)."""

    def device_events(self, device_hash: str, limit: int) -> list[DeviceEvent]:
        """The events the device directs or may change a match of, newest first."""

    def create_event(
        self,
        *,
        event_id: str,
        name: str,
        players: Sequence[str],
        format: Format,
        rounds: int | None,
        rules: Rules,
        stake: float | None,
        token_hash: str,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
    ) -> StoredEvent:
        """Store a new event (as :meth:`SqlStore.create_event`)."""

    def event(self, event_id: str) -> StoredEvent:
        """The event ``event_id`` with its paired rounds; raises :class:`NotFound`."""

    def event_games(self, event_id: str) -> list[StoredGame]:
        """The games of the event's paired matches, read in one query (any order)."""

    def add_round(
        self,
        event_id: str,
        number: int,
        byes: Sequence[str],
        matches: Sequence[NewMatch],
        *,
        rules: Rules,
        stake: float | None,
        walkovers: Sequence[tuple[str, str]] = (),
        check: Callable[[StoredEvent], None] | None = None,
    ) -> bool:
        """Store round ``number`` of the event in one transaction that locks the event: its
        byes, its walkovers, and each match a new game (first dealer seat 0, under
        ``rules`` and ``stake``) linked to the event; False (nothing written) when that
        round is already paired. ``check(event)``, given the event as the transaction
        reads it, may refuse (it raises: nothing is written)."""

    def change_roster(self, event_id: str, change: ChangeRoster) -> None:
        """Add a late entry or a withdrawal to the event in one transaction that locks the
        event (as :meth:`add_round` does): ``change(event)`` gives it or raises."""

    def swap_matches(self, event_id: str, number: int, swap: SwapMatches) -> None:
        """Replace matches of the event's round ``number`` by new games in one transaction
        that locks the event and the round's games: ``swap(event, games)`` gives the
        new matches and the round's byes, or raises (nothing is written)."""

    def end_match(self, event_id: str, game_id: str, decide: Adjudicate) -> MatchEnd:
        """End the event's match ``game_id`` in one transaction that locks its game:
        ``decide`` gives the winner and totals (or raises: nothing is written). Raises
        :class:`NotFound` when the game is no match of the event."""

    def withdraw_round(self, event_id: str, number: int, check: CheckWithdrawal) -> None:
        """Withdraw the event's paired round ``number`` in one transaction that locks its
        games: ``check(event, games)`` may refuse (it raises: nothing is written); then
        the round and its links are deleted, its games kept as ordinary games. Raises
        :class:`NotFound` when the event has no such round."""

    def rating_inputs(
        self, after: tuple[str, str] | None = None, *, details: bool = False
    ) -> RatingInputs:
        """The rated games and the ratings cache's state, with ``details`` the results of
        the games after ``after`` (see :meth:`~.sql_ratings.RatingRows.rating_inputs`)."""

    def rating_changes(self) -> tuple[int, int]:
        """The count of changes to the rated games as the ratings cache last read it, and
        now (see :mod:`~.sql_rating_changes`)."""

    def save_ratings(
        self,
        base: tuple[int, str],
        state: tuple[int, str],
        folded: Folded,
        *,
        scratch: bool,
        changes: tuple[int, int],
    ) -> bool:
        """Store a fold in the ratings cache if it still holds ``base`` (see
        :meth:`~.sql_ratings.RatingRows.save_ratings`)."""

    def ladder_rows(
        self,
        *,
        limit: int,
        min_games: int,
        active_since: str,
        after: tuple[int, int] | None = None,
    ) -> list[LadderRow]:
        """The cached ratings, highest first (see :meth:`~.sql_ratings.RatingRows.ladder_rows`)."""

    def rating_steps(self, player_id: int) -> tuple[tuple[int, int] | None, list[Step]]:
        """A player's cached rating and history (see
        :meth:`~.sql_ratings.RatingRows.rating_steps`)."""

    def rating_line(self, player_id: int, columns: int) -> RatingLine | None:
        """A player's cached rating and history as a chart of ``columns`` columns draws it
        (see :meth:`~.sql_ratings.RatingRows.rating_line`)."""

    def set_round_clock(self, event_id: str, number: int, clock: StoredClock) -> bool:
        """Set the clock of the event's round ``number`` (replacing any); False (nothing
        written) when the event has no such round."""

    def create_season(
        self,
        season_id: str,
        season: Season,
        *,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
    ) -> StoredSeason:
        """Store a new season, once per ``idempotency_key`` (:mod:`~.sql_seasons`)."""

    def season(self, season_id: str) -> StoredSeason:
        """The season ``season_id``; raises :class:`NotFound`."""

    def seasons(self, day: str | None = None) -> list[StoredSeason]:
        """Every season (or those holding the ISO date ``day``), the latest first day first."""

    def season_nights(self, first_day: str, last_day: str) -> list[Night]:
        """The events created on those days (both counted), with their rounds as played."""

    def casual_games(self, first_day: str, last_day: str) -> list[CasualGames]:
        """The finished two-player games of no event (not imported) created on those days."""
