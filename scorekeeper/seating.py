"""Who plays a hand: the two players of each two-player game (RULES.md section 8).

Two players play every hand. With three, the dealer sits out and the other
two play; with four, a deal is two games, each with its pair of opponents
and its dealer (the pairings of :func:`~scorekeeper.sheet.score_sheet`'s
``next_games`` and its deals' ``games``). A hand form names only the players
of the hand being entered, and a knocker outside them is refused.

>>> [s.seats for s in seatings(["Ana", "Bor", "Cy"], dealer=1)]
[(0, 2)]
>>> seatings(["Ana", "Bor", "Cy"], dealer=1)[0].sits_out
1
>>> seatings(["Ana", "Bor"], dealer=1)[0].other(0)
1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .sheet import GameSeat


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


def seatings(players: Sequence[str], dealer: int, games: Sequence[GameSeat] = ()) -> list[Seating]:
    """Who plays the hand ``dealer`` deals, or with four players the deal of ``games``.

    One seating for two or three players (three: the dealer sits out, the
    other two play), two for a partnership deal: its two ``games`` (a sheet's
    ``next_games``, or a deal's ``games``), each its pair and its dealer.

    >>> from scorekeeper.sheet import GameSeat
    >>> deal = [GameSeat(1, players=(0, 3), dealer=3), GameSeat(2, players=(2, 1), dealer=1)]
    >>> [(s.seats, s.dealer, s.sits_out) for s in seatings(["A", "B", "C", "D"], 3, deal)]
    [((0, 3), 3, None), ((2, 1), 1, None)]
    """
    names = list(players)
    if len(names) == 4:
        return [Seating(names, (game.players[0], game.players[1]), game.dealer) for game in games]
    seats = (0, 1) if len(names) == 2 else tuple(p for p in range(3) if p != dealer)
    return [Seating(names, (seats[0], seats[1]), dealer)]
