"""Playing an event's matches to a chosen end, and its standings recomputed by hand (issue 22).

:func:`seats_to_win` gives the quick hands a table enters so that the player it
names wins the game; :func:`reference_standings` ranks an event's
players from its games' own final totals, written apart from
``scorekeeper.events`` so that the served standings can be checked against it:
by matches won, then net points (own final total minus the opponent's, summed
over the finished matches), then (Swiss) the opponents' wins summed, then head
to head (wins against the players level on all of these); players level on
everything share a rank and stay in roster order.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

Final = tuple[Sequence[str], Sequence[int], int]
"""A finished match as its game tells it: (players, final totals, winner's index)."""


def seats_to_win(winner: int, margin: int, knocks: int = 0) -> list[tuple[int, int, int]]:
    """Hands (knocker, knocker's deadwood, defender's deadwood) after which player
    ``winner`` (0 or 1) has won the game at the latest: unless ``margin`` is a multiple
    of 3 the loser knocks first for a few points, then the winner makes ``knocks``
    (at most 8) small knocks of 4, then gins twice, each worth 25 plus ``40 + margin``
    (``margin`` 0 to 58), over 100 together. Enter them until the game is over."""
    first = [(1 - winner, 2, 3 + margin % 9)] if margin % 3 else []
    return [*first, *[(winner, 1, 5)] * knocks, *[(winner, 0, 40 + margin)] * 2]


def reference_standings(
    players: Sequence[str],
    finals: Sequence[Final],
    *,
    swiss: bool,
    byes: Mapping[str, int] | None = None,
) -> list[tuple[int, str, int, int, int, int]]:
    """The standings of an event of ``players`` (roster order) whose finished matches are
    ``finals``: (rank, player, won, lost, net points, opponents' wins) for each, best first.

    ``byes``: how many byes each player had (each a win worth 0 points, with no opponent)."""
    won: Counter[str] = Counter(byes or {})
    lost: Counter[str] = Counter()
    net: Counter[str] = Counter()
    met: defaultdict[str, list[str]] = defaultdict(list)
    beaten: defaultdict[str, list[str]] = defaultdict(list)
    for (first, second), (total_first, total_second), winner in finals:
        victor, loser = (first, second) if winner == 0 else (second, first)
        won[victor] += 1
        lost[loser] += 1
        beaten[victor].append(loser)
        net[first] += total_first - total_second
        net[second] += total_second - total_first
        met[first].append(second)
        met[second].append(first)
    buchholz = {name: sum(won[other] for other in met[name]) for name in players}

    def level(name: str) -> tuple[int, int, int]:
        return won[name], net[name], buchholz[name] if swiss else 0

    def head_to_head(name: str) -> int:
        return sum(1 for other in beaten[name] if level(other) == level(name))

    keys = {name: (*level(name), head_to_head(name)) for name in players}
    ranked = sorted(players, key=lambda name: keys[name], reverse=True)  # stable
    return [
        (
            1 + sum(1 for other in players if keys[other] > keys[name]),
            name,
            won[name],
            lost[name],
            net[name],
            buchholz[name],
        )
        for name in ranked
    ]


def served_lines(standings: Sequence[dict]) -> list[tuple[int, str, int, int, int, int]]:
    """Served standings (JSON lines) in the form :func:`reference_standings` answers."""
    return [
        (
            line["rank"],
            line["player"],
            line["won"],
            line["lost"],
            line["net_points"],
            line["opponents_won"],
        )
        for line in standings
    ]
