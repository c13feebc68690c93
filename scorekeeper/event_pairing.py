"""Pairing an event's next round: a round robin by the circle method, a Swiss by
maximum-weight matching, an elimination bracket (:mod:`.event_brackets`).

>>> from scorekeeper.events import Event, Format, MatchResult
>>> event = Event(("Ana", "Bor", "Cy"), Format.ROUND_ROBIN)
>>> first = next_round(event, [])
>>> first.to_dict()  # doctest: +NORMALIZE_WHITESPACE
{'number': 1, 'matches': [{'table': 1, 'players': ['Bor', 'Cy']}], 'bye': 'Ana',
 'byes': ['Ana'], 'walkovers': []}
>>> played = [first.played([MatchResult(("Bor", "Cy"), (100, 40), "Bor")])]
>>> [(s.rank, s.player, s.won, s.net_points) for s in standings(event, played)]
[(1, 'Bor', 1, 60), (2, 'Ana', 1, 0), (3, 'Cy', 0, -60)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import networkx as nx

from .errors import Conflict
from .event_brackets import elimination_round
from .event_standings import standings
from .events import Event, Format, PlayedRound, Round, tabled


def next_round(event: Event, played: Sequence[PlayedRound]) -> Round | None:
    """The next round of ``event`` after the rounds ``played``, or ``None`` when it is over.

    Raises :class:`~scorekeeper.errors.Conflict` while a match of the last
    round has no winner.

    >>> event = Event(("A", "B", "C", "D"), Format.SINGLE_ELIMINATION)
    >>> [m.players for m in next_round(event, []).matches]
    [('A', 'D'), ('B', 'C')]
    """
    for number, round_ in enumerate(played, 1):
        if not round_.finished:
            raise Conflict(
                f"round {number} is still being played",
                code="round_unfinished",
                params={"round": number},
            )
    pairer = _PAIRERS[event.format]
    return pairer(event, played)


def circle_rounds(players: Sequence[str]) -> list[tuple[list[tuple[str, str]], str | None]]:
    """Every round of a round robin by the circle method: its pairs and its bye.

    The first player stays put, the others turn one place a round; with an
    odd roster the empty seat's partner has the bye.

    >>> circle_rounds(["A", "B", "C", "D"])[0]
    ([('A', 'D'), ('B', 'C')], None)
    >>> len(circle_rounds(["A", "B", "C"]))
    3
    """
    seats: list[str | None] = [*players, None] if len(players) % 2 else list(players)
    count = len(seats)
    schedule: list[tuple[list[tuple[str, str]], str | None]] = []
    for turn in range(count - 1):
        pairs: list[tuple[str, str]] = []
        bye = None
        for i in range(count // 2):
            a, b = seats[i], seats[count - 1 - i]
            if turn % 2 and i == 0:
                a, b = b, a  # the fixed player alternates sides
            if a is None or b is None:
                bye = a if b is None else b
            else:
                pairs.append((a, b))
        schedule.append((pairs, bye))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return schedule


def _round_robin(event: Event, played: Sequence[PlayedRound]) -> Round | None:
    schedule = circle_rounds(event.players)
    if len(played) >= len(schedule):
        return None
    number = len(played) + 1
    pairs, bye = schedule[len(played)]
    playing = set(event.playing(number))
    kept = [pair for pair in pairs if set(pair) <= playing]
    walkovers = [
        (a, b) if a in playing else (b, a) for a, b in pairs if (a in playing) ^ (b in playing)
    ]
    return tabled(number, kept, [bye] if bye in playing else [], walkovers)


def _swiss(event: Event, played: Sequence[PlayedRound]) -> Round | None:
    assert event.rounds is not None  # Event checks it
    if len(played) >= event.rounds:
        return None
    number = len(played) + 1
    met: set[frozenset[str]] = {frozenset(m.players) for r in played for m in r.matches}
    had_bye = {name for r in played for name in r.byes}
    table = standings(event, played)
    playing = set(event.playing(number))
    order = [line.player for line in table if line.player in playing]
    wins = {line.player: line.won for line in table}
    byes: list[str] = []
    pool = order
    if len(order) % 2:
        for candidate in reversed(order):  # the lowest score group first
            if candidate in had_bye:
                continue
            rest = [name for name in order if name != candidate]
            if _pairing(rest, wins, met) is not None:
                byes, pool = [candidate], rest
                break
        else:
            raise Conflict(
                f"round {number}: no bye is left that allows a pairing without rematches",
                code="no_pairing",
                params={"round": number},
            )
    pairs = _pairing(pool, wins, met)
    if pairs is None:
        raise Conflict(
            f"round {number}: no pairing without rematches is left",
            code="no_pairing",
            params={"round": number},
        )
    return tabled(number, pairs, byes)


def _pairing(
    order: Sequence[str], wins: Mapping[str, int], met: set[frozenset[str]]
) -> list[tuple[str, str]] | None:
    """Everyone in ``order`` (best first) paired with someone not met, or ``None``.

    A maximum-cardinality matching of the largest weight: the weight of a
    pair falls with the square of the difference of wins, so players meet
    within their score groups wherever possible; a small term prefers
    partners near in the standings. Pairs come best first, the better
    player first.
    """
    place = {name: i for i, name in enumerate(order)}
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(order)
    spread = len(order) ** 2
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            if frozenset((a, b)) not in met:
                weight = spread * (spread - (wins[a] - wins[b]) ** 2) - abs(place[a] - place[b])
                graph.add_edge(a, b, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(order):
        return None
    pairs = [(a, b) if place[a] < place[b] else (b, a) for a, b in matching]
    return sorted(pairs, key=lambda pair: place[pair[0]])


_PAIRERS: dict[Format, Callable[[Event, Sequence[PlayedRound]], Round | None]] = {
    Format.ROUND_ROBIN: _round_robin,
    Format.SWISS: _swiss,
    Format.SINGLE_ELIMINATION: elimination_round,
    Format.DOUBLE_ELIMINATION: elimination_round,
}
