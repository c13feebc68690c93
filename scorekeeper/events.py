"""Club nights and tournaments: an event, its rounds and its matches.

An :class:`Event` is a roster of players, a :class:`Format` and (Swiss) a
number of rounds. Each match is one two-player game; the event sees only
its two players, its winner and the two final totals (bonuses included), as
a :class:`MatchResult`. Given the rounds played so far,
:func:`~scorekeeper.event_pairing.next_round` pairs the next round (tables
numbered from 1, the byes) or answers ``None`` when the event is over, and
:func:`~scorekeeper.event_standings.standings` ranks the players.

Formats:

* ``round_robin``: the circle method, everyone meets everyone once, a bye
  each round when the roster is odd;
* ``swiss``: ``rounds`` rounds; players meet within their score groups
  where possible, never twice, and at most one bye each, given to the
  lowest score group that leaves a pairing without rematches. The pairing
  is a maximum-weight matching (networkx);
* ``single_elimination`` and ``double_elimination``: a bracket seeded by
  roster order (seed 1 first), padded to a power of two with byes that go to
  the top seeds (:mod:`.event_brackets`). Double elimination adds a losers'
  bracket and a grand final, replayed once (the reset) when the losers' side
  wins it. A result a later round was paired on must not change
  (:mod:`.event_changes`).

The roster may change as the event goes (:mod:`.event_roster` says when): a
player withdrawn from round ``n`` on plays no round from ``n``, and a late
entry plays from the round it entered before. Swiss pairs the players
still playing among themselves (never a rematch); a round robin keeps its
schedule, the withdrawn player's opponent going through by walkover; in a
knockout the opponent goes through by walkover. A walkover counts as a win
with 0 net points for the player who goes through (as a bye does) and as
nothing for the withdrawn player; the standings mark the withdrawn players.

>>> event = Event(("Ana", "Bor", "Cy"), Format.ROUND_ROBIN)
>>> event.playing(1)
['Ana', 'Bor', 'Cy']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .errors import InvalidValueError
from .names import repeated
from .results import Result

MAX_PLAYERS = 128
"""The largest roster an event takes."""


def swiss_rounds_most(count: int) -> int:
    """The most rounds a Swiss event of ``count`` players takes: half the roster, rounded up.

    Each round is paired on its own (no look-ahead), so more rounds could leave a
    remainder no pairing without rematches covers (six players, four rounds: the
    unplayed pairs can be two triangles) and the event could never finish. Up to
    this many, a pairing always exists, whatever the results: with a ghost player
    for the bye when the roster is odd, ``n`` (even) players after ``k`` rounds
    have each ``n - 1 - k`` opponents left, and while that is at least ``n / 2``
    the graph of unplayed pairs is Hamiltonian (Dirac's theorem), so it has a
    perfect matching. Real Swiss events play far fewer rounds (about log2 of the
    roster).

    >>> [swiss_rounds_most(n) for n in (2, 3, 6, 7, 16)]
    [1, 2, 3, 4, 8]
    """
    return (count + 1) // 2


class Format(StrEnum):
    """How an event pairs its rounds."""

    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    SINGLE_ELIMINATION = "single_elimination"
    DOUBLE_ELIMINATION = "double_elimination"


@dataclass(frozen=True, slots=True)
class Event(Result):
    """An event's roster (seeding order), its format and (Swiss only) its rounds.

    Two names are one player when they differ only in letter case or in how an
    accent is encoded (:func:`~scorekeeper.names.fold`), as in a game:

    >>> Event(("Ana", "Ana"), Format.SWISS, 1)
    Traceback (most recent call last):
    ...
    scorekeeper.errors.InvalidValueError: players: 'Ana' is named twice
    >>> Event(("Ana", "Bor", "ANA"), Format.ROUND_ROBIN)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorekeeper.errors.InvalidValueError: players: 'Ana' and 'ANA' are one player (letter case, ...)
    """

    players: tuple[str, ...]
    format: Format
    rounds: int | None = None
    entered: tuple[tuple[str, int], ...] = ()
    """Late entries: a player (on the roster) and the first round they play."""
    withdrawn: tuple[tuple[str, int], ...] = ()
    """Withdrawals: a player and the first round they no longer play."""

    def playing(self, number: int) -> list[str]:
        """The players who play round ``number`` (from 1), in roster order: entered by
        then and not withdrawn by then.

        >>> Event(("A", "B", "C"), Format.SWISS, 2, (("C", 2),), (("A", 2),)).playing(2)
        ['B', 'C']
        """
        entered, withdrawn = dict(self.entered), dict(self.withdrawn)
        return [
            name
            for name in self.players
            if entered.get(name, 1) <= number < withdrawn.get(name, number + 1)
        ]

    def withdrawn_from(self, name: str) -> int | None:
        """The first round ``name`` no longer plays, or ``None``: not withdrawn."""
        return dict(self.withdrawn).get(name)

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= MAX_PLAYERS:
            raise InvalidValueError(
                f"players: an event takes 2 to {MAX_PLAYERS} players, not {len(self.players)}",
                option="players",
                params={"count": len(self.players), "max": MAX_PLAYERS},
            )
        for name in self.players:
            if not name.strip():
                raise InvalidValueError("players: a name is empty", option="players")
        twice = repeated(self.players)
        if twice:
            first, other = twice[0][:2]
            raise InvalidValueError(
                f"players: {first!r} is named twice"
                if first == other
                else f"players: {first!r} and {other!r} are one player (letter case, and how"
                " an accent is encoded, do not count)",
                option="players",
                params={"name": first, "other": other},
            )
        most = swiss_rounds_most(len(self.players))
        if self.format is Format.SWISS:
            if self.rounds is None or not 1 <= self.rounds <= most:
                raise InvalidValueError(
                    f"rounds: a Swiss event of {len(self.players)} players"
                    f" takes 1 to {most} rounds",
                    option="rounds",
                    params={"max": most},
                )
        elif self.rounds is not None:
            raise InvalidValueError(
                f"rounds: only a Swiss event takes rounds, not {self.format}", option="rounds"
            )


@dataclass(frozen=True, slots=True)
class Pairing(Result):
    """One match of a round: its table (from 1) and its two players."""

    table: int
    players: tuple[str, str]


@dataclass(frozen=True, slots=True)
class MatchResult(Result):
    """A match as played: its two players, their final totals (bonuses
    included) and the winner, or ``winner`` ``None`` while it is unfinished.

    A match the director ended before its game was over
    (``ended_by_director``) has the winner the director named, or the
    leader, and the totals as they stood then, with no game bonus: time
    called, the leader wins, points as they stand.
    """

    players: tuple[str, str]
    totals: tuple[int, int] = (0, 0)
    winner: str | None = None
    ended_by_director: bool = False

    def __post_init__(self) -> None:
        if self.winner is not None and self.winner not in self.players:
            raise InvalidValueError(
                f"winner: {self.winner!r} did not play {self.players[0]!r} v {self.players[1]!r}",
                option="winner",
            )

    @property
    def loser(self) -> str | None:
        """The player who lost, or ``None`` while the match is unfinished."""
        if self.winner is None:
            return None
        return self.players[1] if self.winner == self.players[0] else self.players[0]


@dataclass(frozen=True, slots=True)
class PlayedRound(Result):
    """A round paired earlier: its matches (in table order) as played so far, its byes and
    its walkovers (the player who goes through, the withdrawn opponent)."""

    matches: tuple[MatchResult, ...]
    byes: tuple[str, ...] = ()
    walkovers: tuple[tuple[str, str], ...] = ()

    @property
    def finished(self) -> bool:
        """Whether every match of the round has a winner."""
        return all(match.winner is not None for match in self.matches)


@dataclass(frozen=True, slots=True)
class Round(Result):
    """A round :func:`~scorekeeper.event_pairing.next_round` pairs: its number, its
    matches and its byes.

    ``bye`` in the JSON form is the one player sitting out (round robin and
    Swiss have at most one), ``None`` when nobody or several do; ``byes``
    lists them all (an elimination bracket's first round may have several).
    ``walkovers`` are the players who go through because their opponent
    withdrew: ``(player, withdrawn opponent)``.
    """

    number: int
    matches: tuple[Pairing, ...]
    byes: tuple[str, ...] = ()
    walkovers: tuple[tuple[str, str], ...] = ()

    @property
    def bye(self) -> str | None:
        """The one player with a bye this round, else ``None``."""
        return self.byes[0] if len(self.byes) == 1 else None

    def played(self, results: Sequence[MatchResult]) -> PlayedRound:
        """This round with the ``results`` of its matches (in table order)."""
        return PlayedRound(tuple(results), self.byes, self.walkovers)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``number``, ``matches``, ``bye``, ``byes`` and ``walkovers``
        (each ``{"winner", "withdrawn"}``)."""
        return {
            "number": self.number,
            "matches": [match.to_dict() for match in self.matches],
            "bye": self.bye,
            "byes": list(self.byes),
            "walkovers": walkover_dicts(self.walkovers),
        }


def walkover_dicts(walkovers: Iterable[tuple[str, str]]) -> list[dict[str, str]]:
    """Walkovers as JSON: ``{"winner": player who goes through, "withdrawn": opponent}``."""
    return [{"winner": winner, "withdrawn": gone} for winner, gone in walkovers]


def tabled(
    number: int,
    pairs: Iterable[tuple[str, str]],
    byes: Iterable[str] = (),
    walkovers: Iterable[tuple[str, str]] = (),
) -> Round:
    """Round ``number`` with its ``pairs`` at tables numbered from 1, its byes and walkovers."""
    matches = tuple(Pairing(table, pair) for table, pair in enumerate(pairs, 1))
    return Round(number, matches, tuple(byes), tuple(walkovers))
