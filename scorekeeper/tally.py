"""A game's typed state and how a scored hand moves it on: :class:`GameState`, :func:`advance`.

A :class:`GameState` holds where a game stands (totals, boxes, who deals
next, the next deal's games, the result, the number of hands);
:func:`advance` enters one scored hand (a score-sheet entry) and gives its
record and the state after it, never changing the state it was given.
:func:`~scorekeeper.sheet.score_sheet` is a fold of it, and so is
:func:`~scorekeeper.game.apply`'s (which first scores a hand input). Rules are
read before, at the edge: nothing here parses them.

A state's :meth:`GameState.summary` is the sheet's JSON without its hands
(``hands`` their number), the resume point the store keeps; :meth:`GameState.resume`
reads it back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .entries import parse_deal, parse_entry
from .errors import RuleViolation
from .paper import (
    COLUMNS,
    TEAMS,
    AnyHandRecord,
    AnySheet,
    Column,
    DealEntry,
    Entry,
    GameRecord,
    GameResult,
    GameSeat,
    HandRecord,
    HollywoodHandRecord,
    HollywoodResult,
    HollywoodSheet,
    PartnershipHandRecord,
    PartnershipSheet,
    Sheet,
    ThreePlayerHandRecord,
)
from .results import Result, field_values
from .rules import Rules
from .settle import deal_after, deal_games, game_result, match_result, needed, sum_rows, team_of


@dataclass(frozen=True, slots=True)
class GameState(Result):
    """Where a game stands after ``count`` hands: the resume point of its scoring.

    ``totals`` and ``boxes`` are per player (four players: per team);
    ``dealer`` deals the next hand (four players: the player dealing the next
    deal's game 1); ``result`` is the game's end (Hollywood: the match's, once
    all three ``columns`` are closed). ``players`` and ``stake`` are the
    game's, the same all game long.
    """

    players: tuple[str, ...]
    stake: float | None
    count: int
    totals: tuple[int, ...]
    boxes: tuple[int, ...]
    dealer: int
    result: GameResult | HollywoodResult | None = None
    columns: tuple[Column, ...] = ()

    @classmethod
    def start(
        cls, rules: Rules, players: Sequence[str], dealer: int, stake: float | None
    ) -> GameState:
        """A new game's state, before its first hand (``dealer`` deals first)."""
        sides = 2 if len(players) == 4 else len(players)
        if len(players) == 4:
            dealer = deal_games(0, team_of()[dealer])[0].dealer
        columns: tuple[Column, ...] = ()
        if rules.scoring == "hollywood":
            columns = tuple(
                _column(rules, c, (0, 0), (0, 0), (False, False), None) for c in range(COLUMNS)
            )
        return cls(tuple(players), stake, 0, (0,) * sides, (0,) * sides, dealer, None, columns)

    @classmethod
    def resume(
        cls, summary: Mapping[str, Any], players: Sequence[str], stake: float | None
    ) -> GameState:
        """The state a :meth:`summary` (a sheet's JSON, ``hands`` their number) was made of."""
        hollywood = summary["scoring"] == "hollywood"
        result = summary["result"]
        return cls(
            players=tuple(players),
            stake=stake,
            count=summary["hands"],
            totals=tuple(summary["totals"]),
            boxes=tuple(summary["boxes"]),
            dealer=summary["next_dealer"],
            result=None
            if result is None
            else (HollywoodResult if hollywood else GameResult).from_dict(result),
            columns=tuple(Column.from_dict(col) for col in summary["columns"]) if hollywood else (),
        )

    @property
    def over(self) -> bool:
        """Whether the game has ended (no hand can follow)."""
        return self.result is not None

    @property
    def next_games(self) -> tuple[GameSeat, ...] | None:
        """A four-player game's next deal: its two games (``None`` for two or three players)."""
        if len(self.players) != 4:
            return None
        return deal_games(self.count, team_of()[self.dealer])

    def sheet(self, rules: Rules, hands: Sequence[AnyHandRecord] = ()) -> AnySheet:
        """The typed sheet of this state with ``hands`` as its hand records."""
        head: dict[str, Any] = {
            "players": self.players,
            "rules": rules.to_dict(),
            "scoring": rules.scoring,
            "stake": self.stake,
            "totals": self.totals,
            "boxes": self.boxes,
            "needed": self._needed(rules),
            "next_dealer": self.dealer,
            "over": self.over,
        }
        if self.columns:
            return HollywoodSheet(
                **head,
                hands=tuple(hands),  # type: ignore[arg-type]
                columns=self.columns,
                opened=tuple(
                    tuple(c for c, col in enumerate(self.columns) if col.opened[p]) for p in (0, 1)
                ),
                result=self.result,  # type: ignore[arg-type]
            )
        if len(self.players) == 4:
            return PartnershipSheet(
                **head,
                teams=TEAMS,
                hands=tuple(hands),  # type: ignore[arg-type]
                next_games=self.next_games or (),
                result=self.result,  # type: ignore[arg-type]
            )
        return Sheet(**head, hands=tuple(hands), result=self.result)  # type: ignore[arg-type]

    def _needed(self, rules: Rules) -> tuple[int, ...]:
        if not self.columns:
            return needed(rules, self.totals)
        open_needs = [col.needed for col in self.columns if not col.over]
        return tuple(min(need[p] for need in open_needs) for p in (0, 1)) if open_needs else (0, 0)

    def summary(self, rules: Rules) -> dict[str, Any]:
        """The sheet's JSON without its hands (``hands``: their number): the resume point."""
        return {**self.sheet(rules).to_dict(), "hands": self.count}


ScoredEntry = Entry | DealEntry | Mapping[str, Any]
"""A scored hand's sheet entry: typed (as :func:`~scorekeeper.game.evaluate` made it, taken
as it is) or its JSON (a score sheet's or a log's, checked)."""


def advance(rules: Rules, state: GameState, entry: ScoredEntry) -> tuple[AnyHandRecord, GameState]:
    """A scored hand (a score-sheet ``entry``) after ``state``: its record and the new state.

    A typed entry was made by scoring a hand input at ``state``: it is not checked again.
    """
    n = state.count + 1
    if state.over:
        raise game_over(rules, state, n)
    if state.columns:
        return _hollywood(rules, state, entry)
    if len(state.players) == 4:
        return _partnership(rules, state, entry)
    return _single(rules, state, entry)


def game_over(rules: Rules, state: GameState, n: int) -> RuleViolation:
    """The error of hand ``n`` entered after the end of the game at ``state``."""
    names = state.players
    if state.columns:
        why = "all three Hollywood columns are closed"
    else:
        assert state.result is not None
        winner = state.result.winner
        assert winner is not None
        who = " and ".join(names[p] for p in TEAMS[winner]) if len(names) == 4 else names[winner]
        why = f"{who} reached the target of {rules.target}"
    return RuleViolation(
        f"the game is over after hand {state.count} ({why}); hand {n} cannot be entered",
        code="game_over",
        params={"after": state.count, "hand": n},
        option="hands",
    )


def _single(rules: Rules, state: GameState, entry: ScoredEntry) -> tuple[AnyHandRecord, GameState]:
    """A two- or three-player hand (three: the dealer sits out)."""
    n, dealer, count = state.count + 1, state.dealer, len(state.players)
    seats = (0, 1) if count == 2 else tuple(p for p in range(3) if p != dealer)
    sitting_out = dealer if count == 3 else None
    hand = (
        entry
        if isinstance(entry, Entry)
        else parse_entry(
            entry, f"hand {n}", rules, list(state.players), seats, count == 3, sitting_out
        )
    )
    totals, boxes = list(state.totals), list(state.boxes)
    if hand.winner is not None:
        totals[hand.winner] += hand.points
        boxes[hand.winner] += 1
    over = max(totals) >= rules.target
    result = None
    if over and hand.winner is not None:
        result = game_result(rules, totals, boxes, hand.winner, state.stake)
    record: dict[str, Any] = {
        "n": n,
        "dealer": dealer,
        **field_values(hand),
        "totals": tuple(totals),
        "game_over_after": over,
    }
    made = ThreePlayerHandRecord(**record, sits_out=dealer) if count == 3 else HandRecord(**record)
    after = replace(
        state,
        count=n,
        totals=tuple(totals),
        boxes=tuple(boxes),
        dealer=deal_after(rules, dealer, hand.winner, hand.void, count),
        result=result,
    )
    return made, after


def _hollywood(
    rules: Rules, state: GameState, entry: ScoredEntry
) -> tuple[AnyHandRecord, GameState]:
    """A Hollywood hand: the points go into every open column the winner has opened."""
    n = state.count + 1
    hand = (
        entry
        if isinstance(entry, Entry)
        else parse_entry(entry, f"hand {n}", rules, list(state.players), (0, 1))
    )
    winner, boxes = hand.winner, list(state.boxes)
    columns, opened, entered, closed = list(state.columns), None, [], []
    if winner is not None:
        boxes[winner] += 1
        opened = next(
            (c for c, col in enumerate(columns) if not col.over and not col.opened[winner]), None
        )
        if opened is not None:
            columns[opened] = _opened(rules, columns[opened], winner)
        entered = [c for c, col in enumerate(columns) if not col.over and col.opened[winner]]
        for c in entered:
            columns[c] = _scored(rules, columns[c], winner, hand.points, state.stake)
            if columns[c].over:
                closed.append(c)
    over = all(col.over for col in columns)
    totals = sum_rows([col.totals for col in columns])
    record = HollywoodHandRecord(
        n=n,
        dealer=state.dealer,
        **field_values(hand),
        columns=tuple(entered),
        opened=opened,
        closed=tuple(closed),
        totals=totals,
        column_totals=tuple(col.totals for col in columns),
        game_over_after=over,
    )
    results = [col.result for col in columns if col.result is not None]
    after = replace(
        state,
        count=n,
        totals=totals,
        boxes=tuple(boxes),
        dealer=deal_after(rules, state.dealer, winner, hand.void, 2),
        columns=tuple(columns),
        result=match_result(results, state.stake) if over else None,
    )
    return record, after


def _column(
    rules: Rules,
    c: int,
    totals: tuple[int, ...],
    boxes: tuple[int, ...],
    opened: tuple[bool, ...],
    result: GameResult | None,
) -> Column:
    """Hollywood column ``c`` (0-based) with these totals, boxes, openers and result."""
    return Column(
        game=c + 1,
        totals=totals,
        boxes=boxes,
        opened=opened,
        over=result is not None,
        result=result,
        needed=(0, 0) if result is not None else needed(rules, totals),
    )


def _opened(rules: Rules, col: Column, player: int) -> Column:
    opened = tuple(True if p == player else was for p, was in enumerate(col.opened))
    return _column(rules, col.game - 1, col.totals, col.boxes, opened, col.result)


def _scored(rules: Rules, col: Column, winner: int, points: int, stake: float | None) -> Column:
    """Column ``col`` after ``winner`` won a hand of ``points`` in it (it may close)."""
    totals = tuple(t + points if p == winner else t for p, t in enumerate(col.totals))
    boxes = tuple(b + 1 if p == winner else b for p, b in enumerate(col.boxes))
    result = None
    if totals[winner] >= rules.target:
        result = game_result(rules, totals, boxes, winner, stake)
    return _column(rules, col.game - 1, totals, boxes, col.opened, result)


def _partnership(
    rules: Rules, state: GameState, entry: ScoredEntry
) -> tuple[AnyHandRecord, GameState]:
    """A four-player deal: two games, the teams' points netted by ``partnership_netting``."""
    n, teams = state.count + 1, team_of()
    deal_team = teams[state.dealer]
    games = deal_games(n - 1, deal_team)
    if isinstance(entry, DealEntry):
        parsed = tuple(
            GameRecord(**field_values(game), **field_values(sub))
            for game, sub in zip(games, entry.games, strict=True)
        )
    else:  # a deal's JSON, or a void hand's entry (both games void)
        plain = entry.to_dict() if isinstance(entry, Entry) else entry
        parsed = parse_deal(plain, n, rules, list(state.players), games)
    team_points = [0, 0]
    won = [False, False]
    for game in parsed:
        if game.winner is not None:
            team_points[teams[game.winner]] += game.points
            won[teams[game.winner]] = True
    totals, boxes, scorer, game_winner = _netted(rules, state, team_points, won)
    record = PartnershipHandRecord(
        n=n,
        dealer=games[0].dealer,
        dealer_team=deal_team,
        void=all(game.void for game in parsed),
        winner=scorer,
        loser=None if scorer is None else 1 - scorer,
        outcome=None,
        points=abs(team_points[0] - team_points[1]),
        team_points=tuple(team_points),
        games=parsed,
        totals=totals,
        game_over_after=game_winner is not None,
    )
    result = None
    if game_winner is not None:
        result = game_result(rules, totals, boxes, game_winner, state.stake)
    next_team = deal_after(rules, deal_team, scorer, record.void, 4)
    dealer = deal_games(n, next_team)[0].dealer
    after = replace(state, count=n, totals=totals, boxes=boxes, dealer=dealer, result=result)
    return record, after


def _netted(
    rules: Rules, state: GameState, team_points: list[int], won: list[bool]
) -> tuple[tuple[int, ...], tuple[int, ...], int | None, int | None]:
    """A deal's teams' points on the sheet: (totals, boxes, the deal's scorer, the game's
    winner if it ended), netted per deal or per game (``partnership_netting``)."""
    totals, boxes = list(state.totals), list(state.boxes)
    diff = team_points[0] - team_points[1]
    scorer = None if diff == 0 else (0 if diff > 0 else 1)
    if rules.partnership_netting == "per_game":
        for team in (0, 1):
            totals[team] += team_points[team]
            boxes[team] += int(won[team])
        ahead = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
        game_winner = ahead if max(totals) >= rules.target else None
    else:
        if scorer is not None:
            totals[scorer] += abs(diff)
            boxes[scorer] += 1
        game_winner = scorer if max(totals) >= rules.target else None
    return tuple(totals), tuple(boxes), scorer, game_winner
