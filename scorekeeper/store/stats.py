"""A player's record over every stored game: games, wins, hands, gins, head-to-head.

Counted from each game's sheet (derived from its log), so corrections and
undos are always taken into account. Definitions: ``hands`` are the
non-void hands the player played; ``gins`` the hands won by gin or big
gin; ``undercuts`` the hands won by undercutting the knocker; ``points``
what the won hands scored (before bonuses) and ``average_hand`` their
mean (``None`` before the first win); ``wins``/``losses`` count finished
games (a tied Hollywood match is neither).

Games of three and four players count too (RULES.md section 8). A "hand"
is always two players' hand: with three players the two who played it
(not the dealer, who sat out), with four players each game of a deal (so a
deal is one hand for each of the four), its points those of that game
before the teams' netting. A partnership game is won (or lost) by both
partners. Head-to-head lists the opponents the player actually played a
hand against (void hands included; a partner is never an opponent; in a
two-player game the other player, even before the first hand): per
opponent the games they met in, the hands won and lost between the two,
and the games won against them (the player's side won) and lost to them
(their side won; a three-player game lost to somebody else is neither).

Only games whose hands were entered under the game's edit token count:
an imported game (``games.import_game``, which anyone may call with any
hands) is left out, and ``imported_games`` says how many were. Players
are matched by :func:`~scorekeeper.names.name_key` ("Ana", "ANA" and
"Ana " are one player); a game whose two seats are the same player (two
names that only folded together in the store's migration 2) counts from
its first seat.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import astuple, dataclass

from ..names import fold
from ..results import Outcome, Result
from ..sheet import (
    TEAMS,
    AnySheet,
    GameRecord,
    HandBase,
    HollywoodHandRecord,
    PartnershipHandRecord,
    Payment,
    ThreePlayerHandRecord,
)
from .base import StoredGame
from .games import load_sheet, score_log
from .protocol import Store
from .tallies import Pair, RecordGame
from .totals import COUNTS, RIVAL_COUNTS, Counts, KeptRecord, RivalCounts

Played = HandBase | HollywoodHandRecord | GameRecord
"""A two-player hand of some sheet: ``void``, ``winner``, ``outcome`` and ``points``."""


@dataclass(frozen=True, slots=True)
class HeadToHead(Result):
    """A player's record against one ``opponent`` (see the module docs)."""

    opponent: str
    games: int
    wins: int
    losses: int
    hands_won: int
    hands_lost: int


@dataclass(frozen=True, slots=True)
class PlayerStats(Result):
    """A player's record over every stored game (:func:`player_stats`)."""

    name: str
    games: int
    finished: int
    wins: int
    losses: int
    hands: int
    hands_won: int
    gins: int
    undercuts: int
    points: int
    average_hand: float | None
    imported_games: int
    head_to_head: tuple[HeadToHead, ...]


COUNTED = tuple(name for name in COUNTS if name not in ("imported_games", "legacy"))
"""The counts of a record (its other figures are worked out from them)."""


@dataclass(slots=True)
class _Rival(RivalCounts):
    """A head-to-head line as it is being added up."""

    opponent: str = ""

    def frozen(self) -> HeadToHead:
        return HeadToHead(self.opponent, *astuple(self)[: len(RIVAL_COUNTS)])


def player_stats(store: Store, name: str) -> PlayerStats:
    """The record of player ``name`` (matched by name key); raises ``NotFound``.

    Its ``to_dict()``: ``{"name", "games", "finished", "wins", "losses", "hands",
    "hands_won", "gins", "undercuts", "points", "average_hand", "imported_games",
    "head_to_head": [{"opponent", "games", "wins", "losses", "hands_won",
    "hands_lost"}, ...]}``, opponents in order of first meeting.

    Read from the player's running totals (:mod:`~scorekeeper.store.totals`): its cost is
    their head-to-head lines, whatever the store holds and however many games they
    played; counted game by game (:func:`recount`) while some of their games are older
    than the totals.
    """
    kept = store.kept_record(name)
    return recount(store, name) if kept is None else _kept_stats(kept)


def head_to_head(store: Store, name: str, other: str) -> tuple[str, HeadToHead | None]:
    """The name of player ``name`` (raises ``NotFound``) and their head-to-head line
    against ``other`` (matched as the record matches opponents; ``None``: they never met):
    one line of their totals, whatever the number of their opponents."""
    kept = store.kept_record(name, fold(other))
    if kept is None:
        found = recount(store, name)
        lines = [r for r in found.head_to_head if fold(r.opponent) == fold(other)]
        return found.name, next(iter(lines), None)
    return kept.player.name, next((HeadToHead(*line) for line in kept.lines), None)


def _kept_stats(kept: KeptRecord) -> PlayerStats:
    """A record from the player's running totals."""
    counts = kept.counts
    return PlayerStats(
        name=kept.player.name,
        **{name: getattr(counts, name) for name in COUNTED},
        average_hand=_average(counts.points, counts.hands_won),
        imported_games=counts.imported_games,
        head_to_head=tuple(HeadToHead(*line) for line in kept.lines),
    )


def _average(points: int, hands_won: int) -> float | None:
    return round(points / hands_won, 2) if hands_won else None


def recount(store: Store, name: str) -> PlayerStats:
    """The record of player ``name`` (as :func:`player_stats`) counted game by game from the
    hands kept for it (:mod:`~scorekeeper.store.tallies`; a game older than them scored
    from its log): its cost is the player's hands."""
    record = store.player_record(name)
    totals = Counts()
    imported = 0
    rivals: dict[str, _Rival] = {}
    keys: dict[str, str] = {}  # each name as written, folded once
    for game in record.games:
        if game.imported:
            imported += 1
            continue
        names, seat = game.players, game.seat
        pairs, over, winner = _played(store, game, record.pairs.get(game.id, []))
        met = {1 - seat: _rival(rivals, keys, names[1 - seat])} if len(names) == 2 else {}
        totals.games += 1
        for hand in pairs:
            if seat not in hand.seats:
                continue
            other = hand.seats[1 - hand.seats.index(seat)]
            rival = met.get(other) or met.setdefault(other, _rival(rivals, keys, names[other]))
            if hand.void:
                continue
            totals.hands += 1
            if hand.winner == seat:
                totals.hands_won += 1
                totals.points += hand.points
                totals.gins += hand.outcome in (Outcome.GIN, Outcome.BIG_GIN)
                totals.undercuts += hand.outcome == Outcome.UNDERCUT
                rival.hands_won += 1
            elif hand.winner is not None:  # a tie (tie: no_score) is neither
                rival.hands_lost += 1
        for rival in met.values():
            rival.games += 1
        totals.finished += over
        if winner is not None:
            _count_result(totals, met, _side_of(len(names)), seat, winner)
    return PlayerStats(
        name=record.player.name,
        **{name: getattr(totals, name) for name in COUNTED},
        average_hand=_average(totals.points, totals.hands_won),
        imported_games=imported,
        head_to_head=tuple(rival.frozen() for rival in rivals.values()),
    )


def _count_result(
    totals: Counts, met: dict[int, _Rival], side: list[int], seat: int, winner: int
) -> None:
    """Count a game won by side ``winner`` (``side``: each seat's) for the player at ``seat``
    and the rivals they ``met`` in it (by seat)."""
    won = side[seat] == winner
    if won:
        totals.wins += 1
    else:
        totals.losses += 1
    for other, rival in met.items():
        if won:
            rival.wins += 1
        elif side[other] == winner:
            rival.losses += 1


def _played(
    store: Store, game: RecordGame, pairs: list[Pair]
) -> tuple[list[Pair], bool, int | None]:
    """A game's two-player hands, whether it is over and the side that won it (``None``:
    nobody yet, or a tied match): as kept, or for a legacy game scored from its log."""
    if not game.legacy:
        return pairs, game.over, game.won_by
    sheet = score_log(*store.game_and_log(game.id))
    result = sheet.result
    played = [Pair(seats, h.void, h.winner, h.outcome, h.points) for seats, h in _hands(sheet)]
    return played, result is not None, None if result is None else result.winner


def _rival(rivals: dict[str, _Rival], keys: dict[str, str], opponent: str) -> _Rival:
    """The head-to-head line against ``opponent`` (added, empty, at the first meeting);
    ``keys`` are the names folded so far."""
    key = keys.get(opponent) or keys.setdefault(opponent, fold(opponent))
    return rivals.get(key) or rivals.setdefault(key, _Rival(opponent=opponent))


def _hands(sheet: AnySheet) -> Iterator[tuple[tuple[int, int], Played]]:
    """Every two-player hand of a sheet with its two players, in order."""
    for hand in sheet.hands:
        if isinstance(hand, PartnershipHandRecord):
            for game in hand.games:
                first, second = game.players
                yield (first, second), game
        elif isinstance(hand, ThreePlayerHandRecord):
            first, second = (p for p in range(3) if p != hand.sits_out)
            yield (first, second), hand
        else:
            yield (0, 1), hand


def _side_of(players: int) -> list[int]:
    """Per player, the side a result's ``winner`` names: the team with four, else the player."""
    if players == 4:
        return [next(t for t, team in enumerate(TEAMS) if p in team) for p in range(4)]
    return list(range(players))


@dataclass(frozen=True, slots=True)
class TallyGame(Result):
    """One game of a rematch chain (see :func:`rematch_tally`), seats as the last game's."""

    id: str
    number: int
    over: bool
    winner: int | None
    final: tuple[int, ...] | None
    nets: tuple[int, ...]
    settlement: tuple[Payment, ...]
    points: tuple[int, ...]
    money: tuple[float, ...] | None


@dataclass(frozen=True, slots=True)
class RematchTally(Result):
    """The running tally of a chain of rematches (:func:`rematch_tally`)."""

    players: tuple[str, ...]
    stake: float | None
    games: tuple[TallyGame, ...]


def rematch_tally(store: Store, game_id: str) -> RematchTally:
    """The running tally of the games of two or three players chained by rematch up to ``game_id``.

    Raises ``NotFound`` for an unknown game, ``ValueError`` for a partnership
    game (its results are per team, and partners may swap between games: the
    tally follows players, so it is kept for two and three players).

    The chain is ``game_id``, the game it ``follows``, the game that one
    follows, and so on back to a game started afresh (or to a game with
    other players: a chain only joins games of the same players, matched
    by name key, seats mapped to ``game_id``'s). ``players`` are ``game_id``'s
    names, ``stake`` its stake (or None), ``games`` oldest first: each its
    ``id``, ``number`` (1, 2, ...), ``over``, ``winner`` (seat or None),
    ``final`` (per seat or None), ``nets`` (points won (+) or paid (-) per
    seat, zeros while unfinished), ``settlement`` (the payments, with seats;
    empty without a stake), ``points`` and ``money`` (the running totals per
    seat after this game; money is None while no game so far had a stake).
    A game still being played counts nothing yet; money adds each game's
    settlement as it was rounded.
    """
    game = store.game(game_id)
    if len(game.players) == 4:
        raise ValueError("the rematch tally is for games of two or three players")
    keys = [fold(p) for p in game.players]
    games = []
    points = [0] * len(keys)
    money: list[float] | None = None
    for number, (row, seats) in enumerate(_rematch_chain(store, game, keys), 1):
        result = load_sheet(store, row.id).result
        nets = [0] * len(keys)
        settlement: list[Payment] = []
        if result is not None:
            for seat, net in zip(seats, result.nets, strict=True):
                nets[seat] = net
                points[seat] += net
            paid = result.settlement or ()
            settlement = [
                Payment(payer=seats[p.payer], payee=seats[p.payee], amount=p.amount)
                for p in (paid if isinstance(paid, tuple) else (paid,))
            ]
            for payment in settlement:
                money = money or [0.0] * len(keys)
                money[payment.payer] -= payment.amount
                money[payment.payee] += payment.amount
        games.append(
            TallyGame(
                id=row.id,
                number=number,
                over=result is not None,
                winner=None if result is None or result.winner is None else seats[result.winner],
                final=None
                if result is None
                else tuple(result.final[seats.index(s)] for s in range(len(keys))),
                nets=tuple(nets),
                settlement=tuple(settlement),
                points=tuple(points),
                money=None if money is None else tuple(round(m, 2) for m in money),
            )
        )
    return RematchTally(players=game.players, stake=game.stake, games=tuple(games))


def _rematch_chain(
    store: Store, game: StoredGame, keys: list[str]
) -> list[tuple[StoredGame, list[int]]]:
    """The games chained by rematch up to ``game`` (whose players' name keys are
    ``keys``), oldest first, each with its seats mapped to ``game``'s."""
    chain: list[tuple[StoredGame, list[int]]] = []
    current: StoredGame | None = game
    while current is not None:
        seen = [fold(p) for p in current.players]
        if sorted(seen) != sorted(keys):
            break
        chain.append((current, [keys.index(k) for k in seen]))
        current = store.game(current.follows) if current.follows else None
    return chain[::-1]
