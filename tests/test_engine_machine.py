"""The deal engine (scorekeeper.engine.Deal) driven by hypothesis's state machine.

Each example shuffles a deal under one of several rule sets and plays random
actions taken from ``legal_actions()`` (one step plays carefully until a
knock, another carelessly towards the wall), tries actions that are not
legal, scores the showdown and deals again with the next dealer.

Next to the engine runs a plain model of the table written from RULES.md
3-5 alone, dealt by itself from the deck ``Deal.shuffled`` documents
(``random.Random(seed)`` shuffling the deck in index order): where each card
is (two hands, the stock top first, the discard pile, the knock discard face
down), whose turn it is, the phase, the passes of the upcard offer and the
wall. After every step the engine must agree with the model, the 52 cards
must all be somewhere exactly once, hands must hold 10 cards (11 for the
player who has drawn, or who went big gin), and the legal actions outside
the discard phase must be exactly the model's. In the discard phase the
plain discards are checked every time, and the going-out actions (knock,
gin, big gin) against the brute-force oracle of ``brute_force.py`` whenever
a step goes out or plays a single action (the oracle is too slow for every
step). An illegal action must raise :class:`RuleError` and change nothing.
The showdown's result is re-scored from its cards with the oracle
(``engine_kit.check_result`` and ``brute_force.verify_knock``), and the next
dealer follows the rule book.
"""

from __future__ import annotations

import random

import brute_force as bf
import pytest
from conftest import examples
from engine_kit import check_result
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from scorekeeper import Deal, RuleError, Rules, deadwood

RULE_SETS = [
    "standard",
    "modern",
    "oklahoma",
    "straight",
    "classic",
    {"wall": "knock_only_at_two"},
    {"preset": "modern", "next_dealer": "alternate"},
    {"next_dealer": "loser", "knock_limit": 5},
]
"""The rules deals are played under: every wall, dealer rotation and knock limit kind."""

ALL_ACTIONS = ["pass", "draw stock", "draw discard", "big gin"] + [
    f"{verb} {code}" for verb in ("discard", "knock", "gin") for code in bf.ALL_CODES
]

GOING_OUT = ("knock ", "gin ", "big gin")
PLAYING = ("upcard_offer", "draw", "discard")


def codes(cards) -> set[str]:
    return {card.code if hasattr(card, "code") else card for card in cards}


class DealMachine(RuleBasedStateMachine):
    """One table: a deal, then the next one, each followed by the model."""

    @initialize(
        seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 1), rules=st.sampled_from(RULE_SETS)
    )
    def first_deal(self, seed, dealer, rules):
        self.rules = Rules.from_dict(rules).to_dict()
        self.start(seed, dealer)

    def start(self, seed: int, dealer: int) -> None:
        """A shuffled deal and the model of its table as dealt."""
        self.seed = seed
        self.deal = Deal.shuffled(seed, dealer=dealer, rules=self.rules)
        deck = list(bf.ALL_CODES)  # the deck in the core's order, shuffled as documented
        random.Random(seed).shuffle(deck)
        self.dealer = dealer
        # RULES.md 3: one card at a time, non-dealer first; the 21st card is the upcard
        self.hands = [set(), set()]
        self.hands[1 - dealer], self.hands[dealer] = set(deck[0:20:2]), set(deck[1:20:2])
        self.stock = deck[21:]  # top first
        self.pile = [deck[20]]
        self.down = None  # the knock discard, face down
        self.limit = bf.knock_limit(self.rules, deck[20])
        self.phase, self.turn, self.passes = "upcard_offer", 1 - dealer, 0
        self.taken, self.wall, self.knocker, self.played = None, False, None, []
        assert [codes(hand) for hand in self.deal.dealt] == self.hands

    # ------------------------------------------------------------------ the model

    def can_go_out_with(self, player: int, card: str) -> bool:
        """RULES.md 5: could ``player`` take ``card`` and knock (or go gin / big gin)?"""
        hand = self.hands[player] | {card}
        if self.rules["big_gin_bonus"] is not None and bf.deadwood(hand) == 0:
            return True
        return any(bf.deadwood(hand - {c}) <= self.limit for c in hand - {card})

    def follow(self, action: str) -> None:
        """Play ``action`` on the model (RULES.md 3-5 and the engine's documented choices)."""
        verb, _, card = (
            action.rpartition(" ") if action[-2:] in bf.ALL_CODES else (action, "", None)
        )
        player = self.turn
        if action == "pass" and self.phase == "upcard_offer":
            self.passes += 1
            self.turn = self.dealer if self.passes == 1 else 1 - self.dealer
            self.phase = "upcard_offer" if self.passes == 1 else "draw"
        elif action == "pass":  # at the wall: the hand is void
            self.phase, self.wall = "over", False
        elif action == "draw stock":
            self.hands[player].add(self.stock.pop(0))
            self.phase, self.taken, self.passes = "discard", None, 0
        elif action == "draw discard":
            self.taken = self.pile.pop()
            self.hands[player].add(self.taken)
            self.phase = "discard"
        elif verb == "discard":
            self.hands[player].remove(card)
            self.pile.append(card)
            self.turn, self.phase, self.taken = 1 - player, "draw", None
            if len(self.stock) <= 2:
                if self.rules["wall"] == "knock_only_at_two" and self.can_go_out_with(
                    1 - player, card
                ):
                    self.wall = True
                else:
                    self.phase = "over"
        else:  # knock, gin or big gin
            if card is not None:
                self.hands[player].remove(card)
            self.down, self.knocker, self.phase = card, player, "showdown"
            self.taken, self.wall = None, False
        self.played.append(action)

    def expected_plain(self) -> set[str] | None:
        """The legal actions outside going out (``None``: the discard phase lists more)."""
        if self.phase == "upcard_offer":
            return {"pass", "draw discard"}
        if self.phase == "draw":
            if self.wall:
                return {"draw discard", "pass"}
            return {"draw stock"} if self.passes == 2 else {"draw stock", "draw discard"}
        if self.phase == "discard":
            return (
                set()
                if self.wall
                else {f"discard {c}" for c in self.hands[self.turn] - {self.taken}}
            )
        return set()

    def expected_going_out(self) -> set[str]:
        """The oracle's knocks, gins and big gin for the player who has drawn."""
        hand = self.hands[self.turn]
        found = set()
        for card in hand - {self.taken}:
            left = bf.deadwood(hand - {card})
            if left == 0:
                found.add(f"gin {card}")
            elif left <= self.limit:
                found.add(f"knock {card}")
        if self.rules["big_gin_bonus"] is not None and bf.deadwood(hand) == 0:
            found.add("big gin")
        return found

    def next_dealer(self, winner: int | None) -> int:
        """RULES.md 3: a void hand is dealt again by the same dealer, else by the option."""
        if winner is None:
            return self.dealer
        return {"winner": winner, "loser": 1 - winner, "alternate": 1 - self.dealer}[
            self.rules["next_dealer"]
        ]

    def snapshot(self) -> tuple:
        deal = self.deal
        return (
            deal.phase,
            deal.turn,
            list(deal.hands),
            deal.stock,
            deal.discard_pile,
            deal.actions,
            deal.taken,
            deal.wall,
            deal.must_draw_stock,
            deal.result,
        )

    # ------------------------------------------------------------------ steps

    def play_one(self, action: str) -> None:
        self.deal.apply(action)
        self.follow(action)

    def careful(self, legal: list[str]) -> list[str]:
        """The plain discards that keep the least deadwood (a player building melds)."""
        hand = self.hands[self.turn]
        left = {a: deadwood(hand - {a[-2:]}) for a in legal if a.startswith("discard ")}
        return [a for a in left if left[a] == min(left.values())] or legal

    def advance(self, data, *, going_out: bool = True, careful: bool = False) -> None:
        """The next step of the table: a legal action, the showdown, or the next deal.

        Without ``going_out`` the player does not knock when another action is
        legal; ``careful`` discards keep the least deadwood.
        """
        if self.deal.phase in PLAYING:
            legal = self.deal.legal_actions()
            if not going_out:
                legal = [a for a in legal if not a.startswith(GOING_OUT)] or legal
            if careful:
                legal = self.careful(legal)
            self.play_one(data.draw(st.sampled_from(legal), label="action"))
        elif self.deal.phase == "showdown":
            self.showdown()
        else:
            self.deal_again()

    def going_out(self) -> list[str]:
        """The listed ways to go out, which must be the oracle's."""
        options = [a for a in self.deal.legal_actions() if a.startswith(GOING_OUT)]
        assert set(options) == self.expected_going_out()
        return options

    @rule(data=st.data())
    def play(self, data):
        """One step, any legal action (in the discard phase the ways out are audited first)."""
        if self.deal.phase == "discard":
            self.going_out()
        self.advance(data)

    @rule(data=st.data(), steps=st.integers(5, 40), careful=st.booleans())
    def play_on(self, data, steps, careful):
        """Several steps without going out (the model checked after each).

        Careless play reaches the wall; careful play builds hands that can knock.
        """
        for _ in range(steps):
            self.advance(data, going_out=False, careful=careful)
            self.check()

    @rule(data=st.data())
    def go_out(self, data):
        """Careful play until the player to act can go out, then knock, gin or big gin."""
        while self.deal.phase in PLAYING:
            if any(a.startswith(GOING_OUT) for a in self.deal.legal_actions()):
                options = self.going_out()
                self.play_one(data.draw(st.sampled_from(options), label="action"))
                return
            self.advance(data, going_out=False, careful=True)
            self.check()

    @rule(action=st.sampled_from(ALL_ACTIONS))
    def illegal(self, action):
        """An action that is not legal now is refused and changes nothing."""
        legal = self.deal.legal_actions()
        # "knock Xx" with deadwood 0 is accepted as gin; only "gin Xx" is listed
        if action in legal or f"gin {action[6:]}" in legal:
            return
        before = self.snapshot()
        with pytest.raises(RuleError):
            self.deal.apply(action)
        assert self.snapshot() == before

    def showdown(self) -> None:
        """Score the showdown: the oracle re-scores it from the cards."""
        typed = self.deal.showdown()
        result = typed.to_dict()
        self.phase = "over"
        knocker, defender = self.knocker, 1 - self.knocker
        check_result(typed, self.rules)
        oracle = bf.verify_knock(
            self.hands[knocker], self.hands[defender], self.rules, self.deal.upcard.code
        )
        assert (result["outcome"], result["points"]) == (oracle.outcome, oracle.points)
        assert (result["knocker"]["deadwood"], result["defender"]["deadwood"]) in (
            oracle.optimal_pairs
        )
        winner = knocker if oracle.winner == "knocker" else defender
        assert (result["void"], result["knocker_player"], result["winner_player"]) == (
            False,
            knocker,
            winner,
        )
        assert result["discard"] == self.down
        assert [set(hand) for hand in result["hands"]] == self.hands
        assert result["next_dealer"] == self.next_dealer(winner)
        assert result["stock_left"] == len(self.stock)
        assert result["actions"] == len(self.played)
        event(f"showdown: {result['outcome']}")

    def deal_again(self) -> None:
        """The next deal, dealt by whoever the finished one names."""
        result = self.deal.result.to_dict()
        if result["void"]:
            assert (result["winner_player"], result["points"]) == (None, 0)
            assert result["next_dealer"] == self.next_dealer(None)
            assert result["stock_left"] == len(self.stock) == 2
            event("void deal")
        self.start(self.seed + 1, result["next_dealer"])

    def check(self) -> None:
        """The invariants, within a step that plays several actions."""
        self.engine_agrees_with_the_model()
        self.cards_are_conserved_and_hands_sized()

    @invariant()
    def engine_agrees_with_the_model(self):
        deal = self.deal
        assert deal.phase == self.phase
        assert deal.actions == self.played
        assert [codes(deal.hand(p)) for p in (0, 1)] == self.hands
        assert deal.stock == self.stock
        assert deal.discard_pile == self.pile
        if self.phase in PLAYING:
            assert deal.turn == self.turn
            assert deal.wall == self.wall
            assert (deal.taken.code if deal.taken else None) == self.taken
        legal = deal.legal_actions()
        assert len(set(legal)) == len(legal)
        plain = {a for a in legal if not a.startswith(GOING_OUT)}
        assert plain == self.expected_plain()
        if self.phase != "discard":
            assert plain == set(legal)

    @invariant()
    def cards_are_conserved_and_hands_sized(self):
        places = [*self.hands[0], *self.hands[1], *self.stock, *self.pile]
        if self.down is not None:
            places.append(self.down)
        assert sorted(places) == sorted(bf.ALL_CODES)
        sizes = [len(hand) for hand in self.hands]
        if self.phase == "discard":
            assert sizes[self.turn] == 11 and sizes[1 - self.turn] == 10
        elif self.knocker is not None:  # after going out: 11 only after big gin
            assert sizes[1 - self.knocker] == 10
            assert sizes[self.knocker] == (11 if self.down is None else 10)
        else:
            assert sizes == [10, 10]


DealMachine.TestCase.settings = settings(
    max_examples=examples(15),
    stateful_step_count=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestDealMachine = DealMachine.TestCase
