"""Club nights and tournaments: pairing the rounds of an event and its standings.

An :class:`Event` is a roster of players, a :class:`Format` and (Swiss) a
number of rounds. Each match is one two-player game; this module sees only
its two players, its winner and the two final totals (bonuses included), as
a :class:`MatchResult`. Given the rounds played so far, :func:`next_round` pairs
the next round (tables numbered from 1, the byes) or answers ``None`` when
the event is over, and :func:`standings` ranks the players: by matches won,
then net points (own final total minus the opponent's, summed over the
finished matches), then (Swiss) the sum of the opponents' wins, then head to
head; a bye counts as a win with 0 net points.

Formats:

* ``round_robin``: the circle method, everyone meets everyone once, a bye
  each round when the roster is odd;
* ``swiss``: ``rounds`` rounds; players meet within their score groups
  where possible, never twice, and at most one bye each, given to the
  lowest score group that leaves a pairing without rematches. The pairing
  is a maximum-weight matching (networkx);
* ``single_elimination`` and ``double_elimination``: a bracket seeded by
  roster order (seed 1 first), padded to a power of two with byes that go to
  the top seeds. Double elimination adds a losers' bracket and a grand
  final, replayed once (the reset) when the losers' side wins it. A result
  a later round was paired on must not change (:mod:`.event_changes`).

The roster may change as the event goes (:mod:`.event_roster` says when): a
player withdrawn from round ``n`` on plays no round from ``n``, and a late
entry plays from the round it entered before. Swiss pairs the players
still playing among themselves (never a rematch); a round robin keeps its
schedule, the withdrawn player's opponent going through by walkover; in a
knockout the opponent goes through by walkover. A walkover counts as a win
with 0 net points for the player who goes through (as a bye does) and as
nothing for the withdrawn player; the standings mark the withdrawn players.

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

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import networkx as nx

from .errors import Conflict, InvalidValueError
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
    """A round :func:`next_round` pairs: its number, its matches and its byes.

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


def _tabled(
    number: int,
    pairs: Iterable[tuple[str, str]],
    byes: Iterable[str] = (),
    walkovers: Iterable[tuple[str, str]] = (),
) -> Round:
    matches = tuple(Pairing(table, pair) for table, pair in enumerate(pairs, 1))
    return Round(number, matches, tuple(byes), tuple(walkovers))


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
    return _tabled(number, kept, [bye] if bye in playing else [], walkovers)


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
    return _tabled(number, pairs, byes)


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


def _elimination(event: Event, played: Sequence[PlayedRound]) -> Round | None:
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
    return _tabled(number, pairs, byes, walkovers)


def champion(event: Event, played: Sequence[PlayedRound]) -> str | None:
    """The winner of an elimination event once its final is decided, else ``None``.

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


_PAIRERS: dict[Format, Callable[[Event, Sequence[PlayedRound]], Round | None]] = {
    Format.ROUND_ROBIN: _round_robin,
    Format.SWISS: _swiss,
    Format.SINGLE_ELIMINATION: _elimination,
    Format.DOUBLE_ELIMINATION: _elimination,
}
