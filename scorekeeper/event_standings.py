"""An event's standings: the players ranked over the rounds played.

By matches won, then net points (own final total minus the opponent's,
summed over the finished matches), then (Swiss) the sum of the opponents'
wins, then head to head; a bye or a walkover counts as a win with 0 net
points.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from .events import Event, Format, PlayedRound
from .results import Result


@dataclass(frozen=True, slots=True)
class Standing(Result):
    """One line of the standings."""

    rank: int
    player: str
    played: int
    won: int
    """Matches won, byes included."""
    lost: int
    net_points: int
    """Own final total minus the opponent's, over finished matches."""
    byes: int
    opponents_won: int
    """The opponents' wins (Swiss's tie-break)."""
    walkovers: int = 0
    """Matches won by walkover (the opponent withdrew), counted in ``won``."""
    withdrawn: int | None = None
    """The first round the player no longer plays (withdrawn), else null."""


@dataclass(slots=True)
class _Tally:
    """What the standings count per player over the rounds played: wins (byes and
    walkovers among them), losses, net points, opponents and who beat whom."""

    won: Counter[str] = field(default_factory=Counter)
    lost: Counter[str] = field(default_factory=Counter)
    net: Counter[str] = field(default_factory=Counter)
    byes: Counter[str] = field(default_factory=Counter)
    walkovers: Counter[str] = field(default_factory=Counter)
    opponents: defaultdict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    beat: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, round_: PlayedRound) -> None:
        """Count the round: its byes and walkovers, and its finished matches."""
        self.byes.update(round_.byes)
        self.walkovers.update(winner for winner, _ in round_.walkovers)
        self.won.update(round_.byes)
        self.won.update(winner for winner, _ in round_.walkovers)
        for match in round_.matches:
            if match.winner is None or match.loser is None:
                continue
            (a, b), (total_a, total_b) = match.players, match.totals
            self.net[a] += total_a - total_b
            self.net[b] += total_b - total_a
            self.won[match.winner] += 1
            self.lost[match.loser] += 1
            self.beat[match.winner, match.loser] += 1
            self.opponents[a].append(b)
            self.opponents[b].append(a)


def standings(event: Event, played: Sequence[PlayedRound]) -> list[Standing]:
    """The players ranked by matches won, net points, (Swiss) opponents' wins, head to head.

    Only finished matches count; a bye or a walkover is a win with 0 net points.
    Players level on every measure share a rank and stay in roster order.

    >>> from scorekeeper.events import MatchResult
    >>> event = Event(("A", "B"), Format.ROUND_ROBIN)
    >>> rounds = [PlayedRound((MatchResult(("A", "B"), (90, 120), "B"),))]
    >>> standings(event, rounds)[0].to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'rank': 1, 'player': 'B', 'played': 1, 'won': 1, 'lost': 0, 'net_points': 30,
     'byes': 0, 'opponents_won': 0, 'walkovers': 0, 'withdrawn': None}
    """
    tally = _Tally()
    for round_ in played:
        tally.add(round_)
    won, lost, net, byes, walkovers = tally.won, tally.lost, tally.net, tally.byes, tally.walkovers
    opponents, beat = tally.opponents, tally.beat
    opponents_won = {name: sum(won[o] for o in opponents[name]) for name in event.players}
    swiss = event.format is Format.SWISS

    def key(name: str) -> tuple[int, ...]:
        return (won[name], net[name], opponents_won[name] if swiss else 0)

    groups: dict[tuple[int, ...], list[str]] = defaultdict(list)
    for name in event.players:
        groups[key(name)].append(name)
    ordered: list[tuple[tuple[int, ...], str]] = []
    for level, names in groups.items():
        for name in names:
            head_to_head = sum(beat[name, other] for other in names)
            ordered.append(((*level, head_to_head), name))
    ordered.sort(key=lambda item: item[0], reverse=True)  # stable: roster order within a tie
    lines: list[Standing] = []
    for place, (full_key, name) in enumerate(ordered, 1):
        rank = lines[-1].rank if lines and ordered[place - 2][0] == full_key else place
        lines.append(
            Standing(
                rank=rank,
                player=name,
                played=won[name] - byes[name] - walkovers[name] + lost[name],
                won=won[name],
                lost=lost[name],
                net_points=net[name],
                byes=byes[name],
                opponents_won=opponents_won[name],
                walkovers=walkovers[name],
                withdrawn=event.withdrawn_from(name),
            )
        )
    return lines
