"""Elimination brackets: single and double elimination, seeded by roster order.

A bracket of the roster padded to a power of two (the byes go to the top
seeds) is a graph of matches, each fed by a seed or an earlier match's
winner or loser; it is resolved against the rounds played. Double
elimination adds a losers' bracket and a grand final, replayed once (the
reset) when the losers' side wins it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import InvalidValueError
from .events import Event, Format, PlayedRound, Round, tabled


def seed_order(size: int) -> list[int]:
    """The seeds (from 1) of a bracket of ``size`` slots, a power of two, in bracket order.

    The top seeds meet the bottom ones, and seeds 1 and 2 meet only in the final.

    >>> seed_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


@dataclass(frozen=True, slots=True)
class _Source:
    """Where a bracket slot's player comes from: a seed or a match's winner or loser."""

    seed: int | None = None
    match: int | None = None
    winner: bool = True


@dataclass(slots=True)
class _Node:
    """A bracket match: its two sources; ``reset`` marks the grand final's replay."""

    sources: tuple[_Source, _Source]
    reset: bool = False


@dataclass(slots=True)
class _Outcome:
    """A bracket match as resolved: the round by whose end its result is known
    (``None`` while pending), its winner and loser (``None``: nobody, a bye)."""

    done: int | None
    winner: str | None = None
    loser: str | None = None
    round: int | None = None
    players: tuple[str, str] | None = None
    bye: str | None = None
    walkover: bool = False


@dataclass(slots=True)
class _Bracket:
    """An elimination bracket as a graph of matches, resolved against the rounds played."""

    event: Event
    played: Sequence[PlayedRound]
    nodes: list[_Node] = field(default_factory=list)
    final: int = 0

    def build(self) -> None:
        size = 1 << math.ceil(math.log2(len(self.event.players)))
        slots = [_Source(seed=s) for s in seed_order(size)]
        winners_losers: list[list[_Source]] = []
        while len(slots) > 1:
            ids = [self._add(slots[i], slots[i + 1]) for i in range(0, len(slots), 2)]
            winners_losers.append([_Source(match=m, winner=False) for m in ids])
            slots = [_Source(match=m) for m in ids]
        self.final = slots[0].match or 0
        if self.event.format is Format.SINGLE_ELIMINATION:
            return
        survivors = winners_losers[0]
        for depth, dropped in enumerate(winners_losers[1:], 1):
            if len(survivors) > len(dropped):  # the survivors first meet among themselves
                survivors = self._halve(survivors)
            arriving = dropped if depth % 2 else dropped[::-1]  # avoid early rematches
            survivors = [
                _Source(match=self._add(s, d)) for s, d in zip(survivors, arriving, strict=True)
            ]
        if len(survivors) > 1:
            survivors = self._halve(survivors)
        grand = self._add(_Source(match=self.final), survivors[0])
        self.final = self._add(_Source(match=grand), _Source(match=grand, winner=False))
        self.nodes[self.final].reset = True

    def _halve(self, slots: list[_Source]) -> list[_Source]:
        return [_Source(match=self._add(slots[i], slots[i + 1])) for i in range(0, len(slots), 2)]

    def _add(self, a: _Source, b: _Source) -> int:
        self.nodes.append(_Node((a, b)))
        return len(self.nodes) - 1

    def resolve(self) -> list[_Outcome]:
        outcomes: list[_Outcome] = []
        seeds = self.event.players
        for node in self.nodes:
            sides: list[tuple[int, str | None]] = []
            for source in node.sources:
                if source.seed is not None:
                    name = seeds[source.seed - 1] if source.seed <= len(seeds) else None
                    sides.append((0, name))
                    continue
                assert source.match is not None
                earlier = outcomes[source.match]
                if earlier.done is None:
                    break
                sides.append((earlier.done, earlier.winner if source.winner else earlier.loser))
            if len(sides) < 2:
                outcomes.append(_Outcome(None))
                continue
            ready = max(done for done, _ in sides)
            (_, a), (_, b) = sides
            if node.reset:
                grand = outcomes[node.sources[0].match or 0]
                if grand.players is not None and (
                    grand.winner == grand.players[0] or grand.walkover
                ):
                    # no reset: the winners' side won, or the grand final was a walkover
                    outcomes.append(_Outcome(ready, winner=a, loser=None))
                    continue
            walkover = self._walkover(ready + 1, a, b)
            if walkover is not None:
                outcomes.append(walkover)
                continue
            a, b = self._present(a, ready + 1), self._present(b, ready + 1)
            if a is None and b is None:
                outcomes.append(_Outcome(ready))
                continue
            if a is None or b is None:  # a bye: the player sits out one round
                present = a if b is None else b
                outcomes.append(_Outcome(ready + 1, winner=present, bye=present))
                continue
            outcomes.append(self._play(ready + 1, (a, b)))
        return outcomes

    def _present(self, name: str | None, number: int) -> str | None:
        """``name``, or ``None`` when nobody is there or the player withdrew by round ``number``."""
        gone = None if name is None else self.event.withdrawn_from(name)
        return None if gone is not None and gone <= number else name

    def _walkover(self, number: int, a: str | None, b: str | None) -> _Outcome | None:
        """The match of round ``number`` as a walkover when exactly one of two players
        withdrew by then (the other goes through), else ``None``."""
        if (
            a is None
            or b is None
            or (self._present(a, number) is None) is (self._present(b, number) is None)
        ):
            return None
        winner, gone = (a, b) if self._present(a, number) is not None else (b, a)
        return _Outcome(number, winner=winner, loser=gone, players=(a, b), walkover=True)

    def _play(self, number: int, players: tuple[str, str]) -> _Outcome:
        if number > len(self.played):
            return _Outcome(None, round=number, players=players)
        for match in self.played[number - 1].matches:
            if set(match.players) == set(players):
                return _Outcome(number, match.winner, match.loser, round=number, players=players)
        raise InvalidValueError(
            f"round {number}: {players[0]!r} v {players[1]!r} is missing from the results",
            option="rounds",
        )


def elimination_round(event: Event, played: Sequence[PlayedRound]) -> Round | None:
    bracket = _Bracket(event, played)
    bracket.build()
    outcomes = bracket.resolve()
    number = len(played) + 1
    decided = outcomes[bracket.final].done
    if decided is not None and decided <= len(played):  # a final's walkover is paired too
        return None
    pairs = [o.players for o in outcomes if o.round == number and o.players is not None]
    byes = [o.bye for o in outcomes if o.bye is not None and o.done == number]
    walkovers = [
        (o.winner, o.loser)
        for o in outcomes
        if o.walkover and o.done == number and o.winner is not None and o.loser is not None
    ]
    return tabled(number, pairs, byes, walkovers)


def champion(event: Event, played: Sequence[PlayedRound]) -> str | None:
    """The winner of an elimination event once its final is decided, else ``None``.

    >>> from scorekeeper.events import MatchResult
    >>> event = Event(("A", "B"), Format.DOUBLE_ELIMINATION)
    >>> rounds = [PlayedRound((MatchResult(("A", "B"), winner="A"),))] * 2
    >>> champion(event, rounds)
    'A'
    """
    if event.format not in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION):
        return None
    bracket = _Bracket(event, played)
    bracket.build()
    return bracket.resolve()[bracket.final].winner
