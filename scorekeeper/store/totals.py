"""Each player's record kept as running totals, so reading it costs the same however many
games the player has.

* ``player_totals``: per player, the counts of their record (``games``, ``finished``,
  ``wins``, ``losses``, ``hands``, ``hands_won``, ``gins``, ``undercuts``, ``points``,
  ``imported_games``) and ``legacy``: their games stored before the scored state was kept
  (``games.scored`` NULL), which the totals leave out.
* ``rival_totals``: per player and opponent (``rival``: the opponent's name folded, as
  :func:`~scorekeeper.store.stats.player_stats` matches them), the head-to-head counts,
  the opponent's ``name`` as written where they first met, and where that was
  (``first_created``, ``first_game``, ``first_n``, ``first_seat``: the game's time and
  id, the hand and its first seat; hand 0 for a two-player game, where they meet before
  the first hand): the order of the head-to-head lines (the index
  ``rival_totals_first``).

Every write of a game changes them in its transaction by the difference between the
game's :class:`Share` of its players' records before the write and after it
(:func:`~.sql_totals.apply`), each game's share added up in SQL from its ``hand_pairs``
(one row per pair of seats): so they always equal the record counted game by game
(:func:`~scorekeeper.store.stats.recount`). A player with ``legacy`` games is counted
game by game, as before, until those games are written again.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple, TypeVar

from ..gamesheet import GameStatus
from ..names import fold
from ..results import Outcome
from ..sheet import TEAMS
from .base import Player, StoredGame
from .tallies import pair_sums, won_by

Run = Callable[[str, Sequence[Any]], Any]
"""Run one statement (``?`` placeholders) with its parameters; returns its cursor."""


@dataclass(slots=True)
class Counts:
    """A player's totals (the columns of ``player_totals`` after its key)."""

    games: int = 0
    finished: int = 0
    wins: int = 0
    losses: int = 0
    hands: int = 0
    hands_won: int = 0
    gins: int = 0
    undercuts: int = 0
    points: int = 0
    imported_games: int = 0
    legacy: int = 0


@dataclass(slots=True)
class RivalCounts:
    """A head-to-head line's counts (columns of ``rival_totals``)."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    hands_won: int = 0
    hands_lost: int = 0


def numbers(counts: Counts | RivalCounts) -> list[int]:
    """The counts in the order of their fields (their columns)."""
    return [getattr(counts, name) for name in counts.__slots__]


COUNTS = tuple(f.name for f in fields(Counts))
RIVAL_COUNTS = tuple(f.name for f in fields(RivalCounts))
FIRST = ("first_created", "first_game", "first_n", "first_seat")
"""Where a player first met a rival: the order of the head-to-head lines."""


def _side(seat: str) -> str:
    """The sums of a pair of seats' hands for one of its seats: won, lost, points won,
    gins, undercuts (void hands left out)."""
    won = f"void = 0 AND winner = {seat}"
    gins = f"'{Outcome.GIN.value}', '{Outcome.BIG_GIN.value}'"
    return (
        f"sum(CASE WHEN {won} THEN 1 ELSE 0 END),"
        f" sum(CASE WHEN void = 0 AND winner <> {seat} THEN 1 ELSE 0 END),"
        f" sum(CASE WHEN {won} THEN points ELSE 0 END),"
        f" sum(CASE WHEN {won} AND outcome IN ({gins}) THEN 1 ELSE 0 END),"
        f" sum(CASE WHEN {won} AND outcome = '{Outcome.UNDERCUT.value}' THEN 1 ELSE 0 END)"
    )


SELECT_GROUPS = (
    f"SELECT game_id, seat_a, seat_b, min(n), sum(1 - void), {_side('seat_a')},"
    f" {_side('seat_b')} FROM hand_pairs WHERE game_id IN ({{}}) AND n >= ?"
    " GROUP BY game_id, seat_a, seat_b"
)
"""Per game (of the ids filled in) and pair of seats, its hands from one on added up."""
SELECT_MET = (
    f"SELECT game_id, seat_a, seat_b, min(n), {', '.join('0' * 11)} FROM hand_pairs"
    " WHERE game_id IN ({}) AND n < ? GROUP BY game_id, seat_a, seat_b"
)
"""Per game and pair of seats, where they first met in the hands before one (the hands
themselves left out)."""
SELECT_FACTS = (
    "SELECT id, created, players, imported, status, won_by, scored IS NULL FROM games"
    " WHERE id IN ({})"
)
SELECT_SEATS = (
    "SELECT game_id, player_id, min(seat) FROM game_players WHERE game_id IN ({})"
    " GROUP BY game_id, player_id"
)
"""Each player's first seat (a second seat of the same player is not another game)."""


class Side(NamedTuple):
    """What one seat of a pair of seats did in the hands between them."""

    won: int
    lost: int
    points: int
    gins: int
    undercuts: int


class Group(NamedTuple):
    """The hands of a game between two seats: where they first met (hand ``first``), the
    hands not void, and each seat's :class:`Side`."""

    seats: tuple[int, int]
    first: int
    played: int
    sides: tuple[Side, Side]


class Facts(NamedTuple):
    """What a game's share depends on, besides its seats and hands."""

    id: str
    created: str
    players: tuple[str, ...]
    imported: bool
    over: bool
    won_by: int | None
    legacy: bool
    folded: tuple[str, ...]
    """The players' names folded (:func:`~scorekeeper.names.fold`): their rival keys."""


@dataclass(slots=True)
class Meeting:
    """A player's meeting with a rival in one game: the rival's name as written there,
    where in the game they first met (hand, seat) and the counts."""

    name: str
    at: tuple[int, int]
    counts: RivalCounts = field(default_factory=RivalCounts)


@dataclass(slots=True)
class Share:
    """A game's share of its players' totals (by player id) and head to head (by player id
    and rival)."""

    game: Facts
    players: dict[int, Counts] = field(default_factory=dict)
    rivals: dict[tuple[int, str], Meeting] = field(default_factory=dict)

    def meet(self, player_id: int, seat: int, at: tuple[int, int]) -> Meeting:
        """The player's meeting with the player in ``seat`` (made at ``at`` when it is the
        first)."""
        key, name = (player_id, self.game.folded[seat]), self.game.players[seat]
        return self.rivals.setdefault(key, Meeting(name, at))


def share(game: Facts, seats: Sequence[tuple[int, int]], groups: Sequence[Group]) -> Share:
    """The share of ``game`` with its players' ``seats`` (player id, first seat) and its
    hands' ``groups``, counted as :func:`~scorekeeper.store.stats.recount` counts a game."""
    found = Share(game)
    ordered = sorted(groups, key=lambda group: (group.first, group.seats[0]))
    for player_id, seat in seats:
        counts = found.players.setdefault(player_id, Counts())
        if game.imported:
            counts.imported_games += 1
        elif game.legacy:
            counts.legacy += 1
        else:
            _count_game(found, player_id, seat, ordered, counts)
    return found


def _count_game(
    found: Share, player_id: int, seat: int, groups: Sequence[Group], counts: Counts
) -> None:
    names = found.game.players
    met = {1 - seat: found.meet(player_id, 1 - seat, (0, 0))} if len(names) == 2 else {}
    counts.games += 1
    for group in groups:
        if seat not in group.seats:
            continue
        other = group.seats[1 - group.seats.index(seat)]
        rival = met.get(other) or met.setdefault(
            other, found.meet(player_id, other, (group.first, group.seats[0]))
        )
        mine = group.sides[group.seats.index(seat)]
        counts.hands += group.played
        counts.hands_won += mine.won
        counts.points += mine.points
        counts.gins += mine.gins
        counts.undercuts += mine.undercuts
        rival.counts.hands_won += mine.won
        rival.counts.hands_lost += mine.lost
    for rival in met.values():
        rival.counts.games += 1
    counts.finished += found.game.over
    if found.game.won_by is not None:
        side = _side_of(len(names))
        won = side[seat] == found.game.won_by
        counts.wins += won
        counts.losses += not won
        for other, rival in met.items():
            rival.counts.wins += won
            rival.counts.losses += not won and side[other] == found.game.won_by


def _side_of(players: int) -> list[int]:
    """Per seat, the side a game's winner names: the team with four, else the player."""
    if players == 4:
        return [next(t for t, team in enumerate(TEAMS) if p in team) for p in range(4)]
    return list(range(players))


def marks(count: int) -> str:
    return ", ".join("?" * count)


def shares(run: Run, ids: Sequence[str], start: int = 1) -> dict[str, Share]:
    """The shares of the games ``ids`` as stored now, their hands from hand ``start`` on
    (with where their seats first met in the hands before): what a write that replaces
    those hands changes, the hands before adding the same before and after it."""
    if not ids:  # (a round of walkovers only): no game to read, and SQL has no ``IN ()``
        return {}
    facts = {row[0]: _facts(row) for row in run(SELECT_FACTS.format(marks(len(ids))), ids)}
    return counted(run, facts, layout(run, facts, start))


@dataclass(frozen=True, slots=True)
class Layout:
    """What a write of games replacing their hands from hand ``start`` on leaves as it was:
    each game's ``seats`` (player id, first seat) and ``met``, where its seats first met in
    the hands before (three or four players)."""

    start: int
    seats: dict[str, list[tuple[int, int]]]
    met: dict[str, list[Group]]


def layout(run: Run, facts: Mapping[str, Facts], start: int) -> Layout:
    """The :class:`Layout` of the games ``facts`` names, read as stored now."""
    seats: dict[str, list[tuple[int, int]]] = {game_id: [] for game_id in facts}
    for game_id, player_id, seat in run(SELECT_SEATS.format(marks(len(facts))), list(facts)):
        seats[game_id].append((player_id, seat))
    # two players meet before their first hand: no need to look
    more = [i for i in _counted(facts) if len(facts[i].players) > 2] if start > 1 else []
    return Layout(start, seats, _groups(run, SELECT_MET, more, start))


def counted(
    run: Run,
    facts: Mapping[str, Facts],
    layout: Layout,
    hands: bool = True,
    put: Sequence[Sequence[Any]] | None = None,
) -> dict[str, Share]:
    """The shares of the games ``facts`` names in ``layout``, their hands from its start on
    read as stored now (none: ``hands`` False, a write appending past its game's hands), or
    added up from ``put``, the hand pairs a write put from there on (not read back)."""
    some = _counted(facts) if hands else []
    if put is None:
        groups = _groups(run, SELECT_GROUPS, some, layout.start)
    else:
        groups = _grouped(row for row in pair_sums(put) if row[0] in some)
    return {
        game_id: share(game, layout.seats[game_id], [*groups[game_id], *layout.met[game_id]])
        for game_id, game in facts.items()
    }


def _counted(facts: Mapping[str, Facts]) -> list[str]:
    """The games whose hands count (not imported, not stored before the scored state)."""
    return [i for i, game in facts.items() if not (game.imported or game.legacy)]


def _groups(run: Run, select: str, ids: Sequence[str], start: int) -> defaultdict[str, list[Group]]:
    """Per game of ``ids``, the :class:`Group` rows of ``select`` (:data:`SELECT_GROUPS`,
    :data:`SELECT_MET`) from hand ``start``."""
    return _grouped(run(select.format(marks(len(ids))), [*ids, start]) if ids else ())


def _grouped(rows: Iterable[Sequence[Any]]) -> defaultdict[str, list[Group]]:
    """Per game, the :class:`Group` of each row of :data:`SELECT_GROUPS` (or :data:`SELECT_MET`)."""
    groups: defaultdict[str, list[Group]] = defaultdict(list)
    for row in rows:
        game_id, a, b, first, played, *sums = (row[0], *(int(v) for v in row[1:]))
        sides = (Side(*sums[:5]), Side(*sums[5:]))
        groups[game_id].append(Group((a, b), first, played, sides))
    return groups


def facts_of(game: StoredGame) -> Facts:
    """A stored game's :class:`Facts`, as its row holds them (``won_by`` from its scored
    state, as every write of the row sets it)."""
    scored = None if game.scored is None else game.scored.data
    over, names = game.status is GameStatus.OVER, game.players
    folded = tuple(map(fold, names))
    return Facts(
        game.id, game.created, names, game.imported, over, won_by(scored), scored is None, folded
    )


def _facts(row: Sequence[Any]) -> Facts:
    """A game's :class:`Facts` from its row of :data:`SELECT_FACTS`."""
    game_id, created, players, imported, status, won, legacy = row
    over = status == GameStatus.OVER.value
    names = tuple(json.loads(players))
    folded = tuple(map(fold, names))
    return Facts(game_id, created, names, bool(imported), over, won, bool(legacy), folded)


T = TypeVar("T", Counts, RivalCounts)

Key = tuple[int, str]
"""A head-to-head line: the player's id and the rival (folded name)."""


@dataclass(slots=True)
class Difference:
    """What a write changes: per player the counts to add; per head-to-head line where
    the first meeting stays, the counts to add; the other lines' meetings (before, after)."""

    players: dict[int, list[int]] = field(default_factory=dict)
    counts: list[tuple[Key, list[int]]] = field(default_factory=list)
    moved: list[tuple[Key, Meeting | None, Meeting | None, Facts]] = field(default_factory=list)


def difference(changes: Sequence[tuple[Share | None, Share]]) -> Difference:
    """Each game's share after a write less its share before (``None``: a new game)."""
    found = Difference()
    for before, after in changes:
        old = before or Share(after.game)
        for player_id in after.players.keys() | old.players.keys():
            change = _less(after.players.get(player_id), old.players.get(player_id), Counts)
            if any(change):
                total = found.players.get(player_id, [0] * len(COUNTS))
                found.players[player_id] = [t + c for t, c in zip(total, change, strict=True)]
        for key in after.rivals.keys() | old.rivals.keys():
            was, met = old.rivals.get(key), after.rivals.get(key)
            if was == met:
                continue
            found.players.setdefault(key[0], [0] * len(COUNTS))  # locked first
            if was is not None and met is not None and was.at == met.at:
                found.counts.append((key, _less(met.counts, was.counts, RivalCounts)))
            else:
                found.moved.append((key, was, met, after.game))
    return found


def _less(now: T | None, was: T | None, empty: type[T]) -> list[int]:
    """The counts ``now`` less the counts it ``was`` (``None``: none)."""
    pairs = zip(numbers(now or empty()), numbers(was or empty()), strict=True)
    return [n - w for n, w in pairs]


Line = tuple[str, int, int, int, int, int]
"""A head-to-head line: the rival's name as first written, then :data:`RIVAL_COUNTS`."""


@dataclass(frozen=True, slots=True)
class KeptRecord:
    """A player's record as kept: the ``player``, their ``counts`` and head-to-head
    ``lines`` (all of them, or the one asked for)."""

    player: Player
    counts: Counts
    lines: list[Line]


LINE = ("name", *FIRST, *RIVAL_COUNTS)
INSERT_LINE = (
    f"INSERT INTO rival_totals ({', '.join(LINE)}, player_id, rival)"
    f" VALUES ({marks(len(LINE) + 2)})"
)
INSERT_TOTALS = (
    f"INSERT INTO player_totals (player_id, {', '.join(COUNTS)}) VALUES ({marks(len(COUNTS) + 1)})"
)
