"""Settling a game on paper: who deals next, the end of a game and its settlement.

The arithmetic of RULES.md sections 7 and 8 that :mod:`scorekeeper.game` applies
hand by hand (see :mod:`scorekeeper.sheet` for the choices).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from .errors import InvalidValueError, RuleViolation
from .paper import TEAMS, GameResult, GameSeat, HollywoodResult, Payment
from .rules import Rules, is_whole_number


def next_dealer(
    rules: Rules | Mapping[str, Any] | str | None,
    dealer: int,
    winner: int | None,
    void: bool,
    players: int = 2,
) -> int:
    """Who deals after a hand (RULES.md sections 3, 4 and 8).

    * A void hand: ``dealer`` deals again, whatever the options.
    * Two players, by ``rules.next_dealer``: ``winner`` (the winner deals),
      ``loser`` (the loser deals) or ``alternate`` (the other player).
    * Three players, by ``rules.three_player_dealer`` (whatever
      ``rules.next_dealer`` says): ``loser`` (the seat that is neither
      ``dealer`` nor ``winner`` deals) or ``rotate`` (``(dealer + 1) % 3``).
    * A hand played that nobody won (``winner`` ``None``: a tie under
      ``tie: no_score``): the same dealer deals again, unless the deal moves
      on whoever wins (``alternate``; three players ``rotate``).
    * Four players: ``dealer`` is a **team** index (0 or 1) and the answer
      is the next dealing team: the other team, after every deal (section
      8), whoever won and whatever the options say.

    >>> next_dealer(None, 0, 1, False)
    1
    >>> next_dealer("standard", 0, 1, True)
    0
    >>> next_dealer(None, 2, 0, False, players=3)
    1
    >>> next_dealer({"three_player_dealer": "rotate"}, 2, 0, False, players=3)
    0
    >>> next_dealer("openspiel", 1, None, False)
    1
    """
    read = Rules.from_dict(rules)
    _check_deal(dealer, winner, void, players)
    return deal_after(read, dealer, winner, void, players)


def check_index(value: Any, count: int, option: str, what: str = "an index") -> None:
    """Refuse ``value`` of the option ``option`` unless it is a whole number 0..``count`` - 1
    (``what``: the words for such a number in the message)."""
    if not is_whole_number(value) or not 0 <= value < count:
        raise InvalidValueError(
            f"{option} must be {what} 0..{count - 1}, not {value!r}",
            code="bad_value",
            params={"value": value},
            option=option,
        )


def _check_deal(dealer: int, winner: int | None, void: bool, players: int) -> None:
    """Refuse what :func:`next_dealer` cannot take: a count of players, a dealer or (a hand
    won) a winner out of range, or a three-player dealer who won (the dealer sits out)."""
    sides = 2 if players == 4 else players
    if players not in (2, 3, 4):
        raise InvalidValueError(
            f"players must be 2, 3 or 4, not {players!r}",
            code="bad_value",
            params={"value": players},
            option="players",
        )
    check_index(dealer, sides, "dealer")
    if players == 4 or void or winner is None:
        return
    check_index(winner, sides, "winner")
    if players == 3 and winner == dealer:
        raise RuleViolation(
            "with three players the dealer sits out and cannot win",
            code="dealer_sits_out",
            option="winner",
        )


def deal_after(rules: Rules, dealer: int, winner: int | None, void: bool, players: int) -> int:
    """:func:`next_dealer` under rules already read, for a hand already checked (a scored
    hand's seats: :func:`~scorekeeper.entries.check_seat`)."""
    if players == 4:
        return 1 - dealer
    if void:
        return dealer
    if winner is None:
        if players == 3:
            return (dealer + 1) % 3 if rules.three_player_dealer == "rotate" else dealer
        return 1 - dealer if rules.next_dealer == "alternate" else dealer
    if players == 3:
        if rules.three_player_dealer == "rotate":
            return (dealer + 1) % 3
        return 3 - dealer - winner
    if rules.next_dealer == "winner":
        return winner
    if rules.next_dealer == "loser":
        return 1 - winner
    return 1 - dealer


def game_result(
    rules: Rules, totals: Sequence[int], boxes: Sequence[int], winner: int, stake: float | None
) -> GameResult:
    """The end of a game won by side ``winner``: bonuses, finals, net, settlement."""
    sides = len(totals)
    losers = [p for p in range(sides) if p != winner]
    shut_out = tuple(p for p in losers if boxes[p] == 0)
    shutout = len(shut_out) == len(losers)
    box_bonus = [rules.box_bonus * b for b in boxes]
    final = [t + b for t, b in zip(totals, box_bonus, strict=True)]

    def bonus(doubled: bool) -> int:
        return rules.game_bonus * (2 if doubled and rules.shutout == "double_bonus" else 1)

    def winner_final(doubled: bool) -> int:
        total = final[winner] + bonus(doubled)
        return total * 2 if doubled and rules.shutout == "double_total" else total

    differences = {p: winner_final(p in shut_out) - final[p] for p in losers}
    game_bonus = bonus(shutout)
    final[winner] = winner_final(shutout)
    nets = [-differences.get(p, 0) for p in range(sides)]
    nets[winner] = sum(differences.values())
    settlement: Payment | tuple[Payment, ...] | None = None
    if stake is not None:
        payments = tuple(_payment(winner, p, differences[p], stake) for p in losers)
        settlement = payments[0] if sides == 2 else payments
    return GameResult(
        winner=winner,
        loser=losers[0] if sides == 2 else None,
        losers=tuple(losers),
        totals=tuple(totals),
        game_bonus=game_bonus,
        box_bonus=tuple(box_bonus),
        shutout=shutout,
        final=tuple(final),
        net=nets[winner],
        nets=tuple(nets),
        stake=stake,
        settlement=settlement,
        shut_out=shut_out,
    )


def match_result(columns: Sequence[GameResult], stake: float | None) -> HollywoodResult:
    """The Hollywood match once all three columns are closed (their results given)."""
    final = sum_rows([col.final for col in columns])
    winner = None if final[0] == final[1] else (0 if final[0] > final[1] else 1)
    game_bonuses = [0, 0]
    for col in columns:
        game_bonuses[col.winner] += col.game_bonus
    net = abs(final[0] - final[1])
    settlement = None
    if stake is not None and winner is not None:
        settlement = _payment(winner, 1 - winner, net, stake)
    return HollywoodResult(
        winner=winner,
        loser=None if winner is None else 1 - winner,
        losers=() if winner is None else (1 - winner,),
        totals=sum_rows([col.totals for col in columns]),
        game_bonuses=tuple(game_bonuses),
        box_bonus=sum_rows([col.box_bonus for col in columns]),
        shutouts=tuple(col.shutout for col in columns),
        column_winners=tuple(col.winner for col in columns),
        final=final,
        net=net,
        nets=(final[0] - final[1], final[1] - final[0]),
        stake=stake,
        settlement=settlement,
    )


def _payment(winner: int, loser: int, difference: int, stake: float) -> Payment:
    """What ``loser`` pays ``winner`` for a ``difference`` (the other way if negative)."""
    payer, payee = (loser, winner) if difference >= 0 else (winner, loser)
    amount = (Decimal(abs(difference)) * Decimal(str(stake))).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )
    return Payment(payer=payer, payee=payee, amount=float(amount))


def sum_rows(rows: Sequence[Sequence[int]]) -> tuple[int, int]:
    """Per player, the sum over the columns' rows."""
    return (sum(row[0] for row in rows), sum(row[1] for row in rows))


def needed(rules: Rules, totals: Sequence[int]) -> tuple[int, ...]:
    return tuple(max(0, rules.target - t) for t in totals)


def team_of() -> list[int]:
    team_of = [0] * 4
    for t, team in enumerate(TEAMS):
        for p in team:
            team_of[p] = t
    return team_of


def deal_games(index: int, deal_team: int) -> tuple[GameSeat, ...]:
    """The two games of deal ``index`` (0-based): players and dealer of each."""
    opponents = (1, 3) if index % 2 == 0 else (3, 1)
    return tuple(
        GameSeat(game=number, players=(own, other), dealer=own if deal_team == 0 else other)
        for number, (own, other) in enumerate(zip(TEAMS[0], opponents, strict=True), 1)
    )
