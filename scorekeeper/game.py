"""The game model's one move: :func:`apply` a hand input to a game's state.

As python-chess's ``Board.push(Move)``: a :class:`~scorekeeper.tally.GameState`
and a hand input (:data:`~scorekeeper.handinput.HandInput`, parsed once at
the edge) give the hand's record and the state after it. The store folds it
to enter hands, replay a log and correct a hand (from a kept state); rules
are read once, at the edge, never on a hand's path.
"""

from __future__ import annotations

from .handinput import HandInput
from .hands import HandEvaluation, evaluate_input
from .paper import AnyHandRecord
from .rules import Rules
from .tally import GameState, advance, game_over


def apply(rules: Rules, state: GameState, hand: HandInput) -> tuple[AnyHandRecord, GameState]:
    """Score ``hand`` as the next hand of the game at ``state``: its record and the new state.

    Raises the domain's errors naming the field at fault (the hand's, or
    ``hands`` with ``game_over`` once the game has ended); ``state`` is never changed.
    """
    if state.over:
        raise game_over(rules, state, state.count + 1)
    return advance(rules, state, evaluate(rules, state, hand).entry)


def evaluate(rules: Rules, state: GameState, hand: HandInput) -> HandEvaluation:
    """``hand`` scored as the next hand at ``state``: its sheet entry and the detail behind it."""
    next_games = state.next_games
    games = None if next_games is None else [game.to_dict() for game in next_games]
    return evaluate_input(hand, rules, players=state.players, dealer=state.dealer, games=games)
