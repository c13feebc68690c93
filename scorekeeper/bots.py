"""Simulation players and the simulator: whole deals and matches from a seed.

A player is an object with ``choose(deal, rng) -> action`` that picks one of
``deal.legal_actions()`` for the player to act. Two kinds are built in
(:data:`PLAYERS`):

* ``random``: uniform over the legal actions, with the simulation's
  generator.
* ``greedy``: takes the upcard or the top discard when that lowers its best
  deadwood (it then discards another card); otherwise draws from the stock.
  After drawing it goes big gin when it can (and the rules allow), else it
  keeps the 10 cards with the least deadwood and knocks (or goes gin) as
  soon as that deadwood is within the knock limit; otherwise it discards.
  Ties between discards go to the card worth more, then the higher card
  index. It uses no randomness.

:func:`simulate` is deterministic: ``random.Random(seed)`` shuffles the
deck, cuts for the dealer (unless one is given) and then drives the random
players; the showdown is left to the optimal choice of
:func:`~scorekeeper.knock.verify_knock`, so replaying the record gives the
same result. :func:`simulate_match` plays deals of one game (or Hollywood
match) in the dealer rotation until the score sheet says it is over.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from .actions import Phase, Verb
from .cards import DECK, Card
from .cut import cut_for_dealer
from .deal_result import DealResult
from .engine import Deal
from .errors import InvalidValueError, RuleViolation
from .match_scoring import deal_entry
from .melds import mask_deadwood, mask_discards
from .recording import deal_record, rules_value
from .records import MATCH_FORMAT, ReplayedDeal
from .rules import Rules
from .sheet import score_sheet

MAX_MATCH_DEALS = 1000
"""simulate_match stops after this many deals even if the game is not over."""


class Player(Protocol):
    """What the simulator needs of a player: its kind's name, and a choice of action."""

    kind: str

    def choose(self, deal: Deal, rng: random.Random) -> str | tuple[str, Card | None]:
        """One legal action (text or ``(verb, card)``) for ``deal.turn``."""


class RandomPlayer:
    """Plays uniformly at random among the legal actions."""

    kind = "random"

    def choose(self, deal: Deal, rng: random.Random) -> str:
        """A uniformly random legal action."""
        return rng.choice(deal.legal_actions())


class GreedyPlayer:
    """Minimises deadwood one turn at a time and knocks as soon as it can."""

    kind = "greedy"

    def choose(self, deal: Deal, rng: random.Random) -> tuple[str, Card | None]:
        """The greedy action for the player to act (see the module docs)."""
        phase = deal.phase
        hand = deal.hand_mask(deal.turn)
        if phase == Phase.DISCARD:
            return self._after_draw(deal, hand)
        if phase == Phase.UPCARD_OFFER:
            assert deal.top is not None  # the upcard lies on the pile while it is offered
            return (Verb.DRAW_DISCARD if self._helps(hand, deal.top) else Verb.PASS), None
        if phase == Phase.DRAW:
            if deal.wall:
                return Verb.DRAW_DISCARD, None  # the engine offers it only when a knock follows
            if deal.must_draw_stock or deal.top is None:
                return Verb.DRAW_STOCK, None
            return (Verb.DRAW_DISCARD if self._helps(hand, deal.top) else Verb.DRAW_STOCK), None
        raise RuleViolation(
            f"no action to choose in the {phase} phase", code="hand_over", params={"phase": phase}
        )

    @staticmethod
    def _helps(hand: int, card: Card) -> bool:
        """True when taking ``card`` (and discarding another) lowers the best deadwood."""
        now = mask_deadwood(hand)
        if now == 0:
            return False
        return any(left < now for _, left in mask_discards(hand | card.bit, card.bit))

    @staticmethod
    def _after_draw(deal: Deal, hand: int) -> tuple[str, Card | None]:
        if deal.big_gin_allowed and mask_deadwood(hand) == 0:
            return Verb.BIG_GIN, None
        taken = deal.taken.bit if deal.taken is not None else 0
        # The least deadwood left; among equals the card worth more, then the
        # later card (discards come in index order). Cards are looked at only
        # when they might win, which keeps simulation fast.
        left, card = 1000, None
        for bit, after in mask_discards(hand, taken):
            if after <= left:
                other = DECK[bit.bit_length() - 1]
                if after < left or (card is not None and other.value >= card.value):
                    left, card = after, other
        if left == 0:
            return Verb.GIN, card
        if left <= deal.knock_limit:
            return Verb.KNOCK, card
        return Verb.DISCARD, card


PLAYERS: dict[str, type[Player]] = {"random": RandomPlayer, "greedy": GreedyPlayer}
"""The built-in player kinds by name."""


def make_players(kinds: Sequence[str] | str) -> list[Player]:
    """Two players from their kind names (``"greedy,random"`` or a pair of names)."""
    if isinstance(kinds, str):
        kinds = [k.strip() for k in kinds.split(",")]
    kinds = list(kinds)
    if len(kinds) != 2:
        raise InvalidValueError(
            f"give two player kinds, not {len(kinds)}",
            params={"count": len(kinds)},
            option="players",
        )
    for kind in kinds:
        if kind not in PLAYERS:
            raise InvalidValueError(
                f"unknown player kind {kind!r}: choose {' or '.join(PLAYERS)}",
                code="unknown_player_kind",
                params={"kind": kind},
                option="players",
            )
    return [PLAYERS[kind]() for kind in kinds]


def player_names(kinds: Sequence[str]) -> list[str]:
    """The names a simulated deal gives its players: ``greedy 1``, ``random 2``."""
    return [f"{kind} {seat}" for seat, kind in enumerate(kinds, 1)]


def play(deal: Deal, players: Sequence[Player], rng: random.Random) -> DealResult:
    """Let ``players`` (by player index) play ``deal`` to the end; returns ``deal.result``."""
    while True:
        phase = deal.phase
        if phase == Phase.SHOWDOWN:
            return deal.showdown()
        if deal.result is not None:
            return deal.result
        deal.apply(players[deal.turn].choose(deal, rng))


def simulate_deal(
    seed: Any,
    *,
    rules: Rules | Mapping[str, Any] | str | None = None,
    players: Sequence[str] | str = ("greedy", "greedy"),
    dealer: int | None = None,
) -> tuple[dict[str, Any], ReplayedDeal]:
    """Play one deal from ``seed``: ``(deal record, result)`` (see :func:`simulate`)."""
    rules = Rules.from_dict(rules)
    agents = make_players(players)
    kinds = [agent.kind for agent in agents]
    names = player_names(kinds)
    rng = random.Random(seed)
    deal = Deal.shuffled(rng, dealer=dealer, rules=rules, names=names)
    result = play(deal, agents, rng)
    return deal_record(deal, seed=seed), ReplayedDeal.of(result, names)


def simulate(
    seed: Any,
    *,
    rules: Rules | Mapping[str, Any] | str | None = None,
    players: Sequence[str] | str = ("greedy", "greedy"),
    dealer: int | None = None,
) -> dict[str, Any]:
    """A deterministic deal record played by simulated players.

    ``seed`` is anything ``random.Random`` takes (an int or a string);
    ``players`` two kinds from :data:`PLAYERS`; ``dealer`` fixes the dealer
    instead of cutting for it. The record carries its seed, the players
    are named ``"<kind> 1"`` and ``"<kind> 2"``, and it has no showdown
    part (the optimal showdown is what was played).
    """
    return simulate_deal(seed, rules=rules, players=players, dealer=dealer)[0]


def simulate_match(
    seed: Any,
    *,
    rules: Rules | Mapping[str, Any] | str | None = None,
    players: Sequence[str] | str = ("greedy", "greedy"),
) -> dict[str, Any]:
    """A match record: deals in the dealer rotation until the score sheet is over.

    ``random.Random(seed)`` cuts for the first dealer (by ``first_dealer``,
    :func:`~scorekeeper.cut.cut_for_dealer`) and gives each deal
    its own seed (kept in the deal as ``seed``). Stops after
    :data:`MAX_MATCH_DEALS` deals in any case.
    """
    rules = Rules.from_dict(rules)
    kinds = [agent.kind for agent in make_players(players)]
    names = player_names(kinds)
    rng = random.Random(seed)
    dealer = cut_for_dealer(rules, rng)
    deals: list[dict[str, Any]] = []
    entries: list[dict[str, Any]] = []
    for _ in range(MAX_MATCH_DEALS):
        record, result = simulate_deal(
            rng.getrandbits(32), rules=rules, players=kinds, dealer=dealer
        )
        del record["format"], record["rules"], record["players"]
        deals.append(record)
        entries.append(deal_entry(result).to_dict())
        dealer = result.next_dealer
        if score_sheet(entries, players=names, rules=rules, dealer=deals[0]["dealer"]).over:
            break
    return {
        "format": MATCH_FORMAT,
        "rules": rules_value(rules),
        "players": names,
        "seed": seed,
        "deals": deals,
    }
