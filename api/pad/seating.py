"""Who plays a hand of a game of two, three or four players (RULES.md section 8)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from scorekeeper.store.sheets import GameSheet


class Seating(NamedTuple):
    """Who plays one two-player hand of a game: the game's ``names``, the two
    ``seats`` (player indexes) of this hand and its ``dealer`` (with three
    players the dealer sits out; with four, the dealer of this game)."""

    names: Sequence[str]
    seats: tuple[int, int]
    dealer: int

    @property
    def sits_out(self) -> int | None:
        """The player who deals and sits out this hand (three players), else ``None``."""
        return self.dealer if len(self.names) == 3 else None

    def other(self, seat: int) -> int:
        """The opponent of ``seat`` in this hand."""
        return self.seats[1] if seat == self.seats[0] else self.seats[0]


def seatings(sheet: GameSheet, n: int | None = None) -> list[Seating]:
    """Who plays hand ``n`` of a game's sheet (``None``: the next hand).

    One seating for two or three players (three: the dealer sits out, the
    other two play), two for a partnership deal (its two games, in the
    sheet's order: ``next_games``, or the deal's ``games`` when correcting).
    """
    names = list(sheet.players)
    if len(names) == 4:
        games = sheet.next_games if n is None else sheet.hands[n - 1].games
        return [Seating(names, (game.players[0], game.players[1]), game.dealer) for game in games]
    dealer = sheet.next_dealer if n is None else sheet.hands[n - 1].dealer
    seats = (0, 1) if len(names) == 2 else tuple(p for p in range(3) if p != dealer)
    return [Seating(names, (seats[0], seats[1]), dealer)]
