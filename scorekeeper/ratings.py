"""Players' ratings: a fold of the club's finished games with a Weng-Lin model.

The model is openskill's Plackett-Luce (Weng and Lin, "A Bayesian
Approximation Method for Online Ranking", 2011): each player's skill is a
normal belief, mean ``mu`` (25 to start) and deviation ``sigma`` (25/3 to
start), and each finished game moves its players' beliefs by the order they
finished in. A game is a :class:`RatedGame`: its sides (one player each, or
the two partners of a team) and each side's rank (1 the best; equal ranks a
tie), made from a stored sheet's result by :func:`placing`:

* two players: the winner above the loser (a Hollywood match with equal
  finals: a tie);
* three players: the winner first, then the two losers by their finals
  (equal finals: a tie between them);
* four players (partnerships): team 0 (seats 0 and 2) against team 1
  (seats 1 and 3), the winning team above.

:func:`fold` rates the games in the order given (the store gives them in the
order they finished, then by game id): the same games in the same order give
the same ratings, to the bit, so a correction or an undo after a game's end
is taken in by folding again, and the result equals any other full fold.

A rating is shown as one number (:func:`shown`): the conservative estimate
``mu - 3 sigma`` (the model is 99.7 % sure the skill is above it) on a chess
rating's scale, ``1000 + 25 x (mu - 3 sigma)``. A new player shows 1000 and
rises as the games make the belief surer; an average regular settles near
1500 (``mu`` 25, ``sigma`` about 1.7 after a hundred games or so). One point
of ``mu`` is about 27 Elo points between two established players (the
Plackett-Luce chance of a win is a logistic curve in ``mu`` difference over
``sqrt(2 beta^2 + sigma_1^2 + sigma_2^2)``, about 6.4), so 25 per point keeps
the familiar reading: 200 points apart, the higher wins about three games in
four.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from .results import Result

if TYPE_CHECKING:
    from openskill.models import PlackettLuce, PlackettLuceRating

BASE = 1000
"""The rating a player shows before any game (``mu - 3 sigma`` = 0)."""
SCALE = 25
"""Rating points per unit of ``mu - 3 sigma``."""

MU = 25.0
SIGMA = MU / 3
"""A new player's belief: openskill's defaults."""


@cache
def model() -> PlackettLuce:
    """The rating model, with openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300).

    Imported on first use: openskill takes tens of milliseconds to import, which every
    process that opens a store would pay otherwise.
    """
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


TEAMS = ((0, 2), (1, 3))
"""The seats of the two teams of a partnership game."""


def shown(mu: float, sigma: float) -> int:
    """The rating a player sees: ``1000 + 25 x (mu - 3 sigma)``, rounded."""
    return round(BASE + SCALE * (mu - 3 * sigma))


@dataclass(frozen=True, slots=True)
class RatedGame(Result):
    """A finished game as the fold takes it: its id, when it finished, its ``sides`` (each
    a tuple of player numbers) and each side's ``ranks`` (1 the best, equal: a tie)."""

    game_id: str
    finished: str
    sides: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Skill(Result):
    """A player's belief after some games: ``mu``, ``sigma``, the ``games`` behind it and
    when the last of them finished (``None`` before the first)."""

    mu: float
    sigma: float
    games: int = 0
    last: str | None = None

    @property
    def rating(self) -> int:
        """The number shown (:func:`shown`)."""
        return shown(self.mu, self.sigma)


NEW = Skill(MU, SIGMA)
"""A player before the first rated game."""


@dataclass(frozen=True, slots=True)
class Step(Result):
    """A point of a player's history: the rating after game ``game_id`` (finished then),
    the player's ``games``-th rated game."""

    player: int
    games: int
    game_id: str
    finished: str
    rating: int


@dataclass(frozen=True, slots=True)
class Folded(Result):
    """What :func:`fold` gives: each player's :class:`Skill` and the history steps, in
    the order of the games."""

    skills: Mapping[int, Skill]
    steps: tuple[Step, ...]


def placing(
    result: Mapping[str, Any], seats: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The sides (seats) and their ranks of a finished game of ``seats`` players, from its
    sheet's ``result`` (``winner``, ``final``; see :mod:`~scorekeeper.sheet`)."""
    winner = result["winner"]
    if seats == 4:
        ranks = (1, 1) if winner is None else tuple(1 if t == winner else 2 for t in (0, 1))
        return TEAMS, ranks
    final = result["final"]
    keys = [(seat != winner, -final[seat]) for seat in range(seats)]
    ranks = tuple(1 + sum(other < key for other in keys) for key in keys)
    return tuple((seat,) for seat in range(seats)), ranks


def fold(games: Iterable[RatedGame], start: Mapping[int, Skill] | None = None) -> Folded:
    """The players' skills after ``games`` in their order, from ``start`` (everybody
    :data:`NEW` without), and each rated player's history steps.

    A game whose sides name one player twice is left out (two seats whose names
    fold together in an old store: nobody plays against themself).
    """
    skills = dict(start or {})
    steps: list[Step] = []
    for game in games:
        players = [p for side in game.sides for p in side]
        if len(set(players)) != len(players):
            continue
        after = _rate(game, [[skills.get(p, NEW) for p in side] for side in game.sides])
        for player, skill in zip(players, after, strict=True):
            skills[player] = skill
            steps.append(Step(player, skill.games, game.game_id, game.finished, skill.rating))
    return Folded(skills, tuple(steps))


def _rate(game: RatedGame, sides: Sequence[Sequence[Skill]]) -> list[Skill]:
    """The new skills of ``game``'s players (in side order) after it."""
    rate = model()
    teams = [[rate.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    rated: list[list[PlackettLuceRating]] = rate.rate(teams, ranks=list(game.ranks))
    return [
        Skill(new.mu, new.sigma, old.games + 1, game.finished)
        for side, olds in zip(rated, sides, strict=True)
        for new, old in zip(side, olds, strict=True)
    ]
