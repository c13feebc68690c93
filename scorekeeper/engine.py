"""The digital engine: one deal of two-player Gin Rummy, played exactly by RULES.md 3-6.

A :class:`Deal` owns the state of one deal: whose turn it is, the phase
(``upcard_offer``, ``draw``, ``discard``, ``showdown``, ``over``), both
hands, the first upcard, the stock and the discard pile. At every point
:meth:`Deal.legal_actions` lists what the player to act may do and
:meth:`Deal.apply` plays one action or raises :class:`RuleError` with a
message naming the rule (``cannot discard Js: it was just taken from the
discard pile``). The showdown is scored by :func:`~scorekeeper.knock.verify_knock`.

Actions are text, as in deal records (RULES.md and issue 3): ``pass``
(decline the upcard), ``draw stock``, ``draw discard`` (also takes the
upcard during the offer), ``discard Xx``, ``knock Xx`` (discard Xx face down
and knock; with deadwood 0 it is gin), ``gin Xx`` and ``big gin``. Players
are indexes 0 and 1; ``dealer`` is one of them.

Choices made where RULES.md is silent (what a careful tournament director
expects):

* **Upcard offer.** The non-dealer may ``draw discard`` (take the upcard) or
  ``pass``; then the dealer likewise; after two passes the non-dealer must
  ``draw stock``. Drawing from the stock is not allowed while the upcard is
  on offer. Whoever takes the upcard may not discard it in that turn, and
  may knock or go gin in that very turn (RULES.md 5: "any turn, the first
  included").
* **The card just taken** from the discard pile may not be put back in the
  same turn, neither as a plain discard nor as the face-down knock discard
  (``discard_taken: forbidden``, the default; ``allowed`` lifts both, as
  OpenSpiel plays).
* **A cap on discard draws** (``max_discard_draws`` = n): the n-th
  ``draw discard`` of the deal is not made and the deal ends void there.
  Counted as OpenSpiel counts them: draws from the discard pile in the draw
  phase, not the taking of the first upcard during the upcard offer, nor a
  take at the wall (``knock_only_at_two``), which can only end the deal.
* **A repeated discard** (``repeated_discard: void``, possible only with
  ``discard_taken: allowed``): a player takes the top discard (the upcard
  on offer included) and discards it straight back, and the other player
  does the same with it on the very next turn: the deal ends void at that
  second discard, as OpenSpiel ends it.
* **Knock legality** uses the best arrangement of the 10 cards kept; the
  knocker may still lay out another legal arrangement at the showdown. A
  knock with deadwood 0 is gin; a gin hand laid out with deadwood (declared
  knocker melds that leave some) is scored as the knock it is (RULES.md 5). Under a
  knock limit of 0 (straight gin, Oklahoma ace) only gin and big gin end
  the hand. Big gin needs ``big_gin_bonus`` set and all 11 cards melded;
  the 11th card may come from the discard pile.
* **Wall, ``void_at_two``** (the default): a plain discard that leaves 2
  cards in the stock ends the hand void. A knock on that turn is allowed.
* **Wall, ``knock_only_at_two``**: after such a discard the next player may
  take the discard only to knock (knock, gin or big gin with it; the card
  taken cannot be the knock discard). If that player cannot knock with it
  the hand is void at once; if they can, the legal actions are
  ``draw discard`` and ``pass``, and ``pass`` voids the hand. The last two
  stock cards are never drawn.
* **A partial stock**: a deal may know only the stock cards that were
  drawn (``stock_complete=False``: fewer than 31 listed, top first, e.g. a
  record from another system). The stock still holds 31 cards for the wall;
  drawing past the listed cards raises :class:`RuleError` naming the stock.
* A void hand scores nothing and the same dealer deals again; a tied knock
  under ``tie: no_score`` scores nothing and is a hand played; who deals
  next follows :func:`scorekeeper.sheet.next_dealer`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import DECK, FULL_DECK_MASK, Card, cards_mask, mask_cards, parse_card, parse_cards
from .errors import CardError, InvalidValueError, RuleError, RuleViolation
from .knock import (
    Breakdown,
    DefenderHand,
    KnockerHand,
    KnockResult,
    over_limit,
    verify_knock,
)
from .melds import mask_codes, mask_deadwood, mask_discards
from .results import Outcome, Result, Side
from .rules import Rules
from .sheet import next_dealer


class Phase(StrEnum):
    """The phases of a deal, in the order they first occur."""

    UPCARD_OFFER = "upcard_offer"
    DRAW = "draw"
    DISCARD = "discard"
    SHOWDOWN = "showdown"
    OVER = "over"


class Verb(StrEnum):
    """The kind of an action; ``discard``, ``knock`` and ``gin`` take a card."""

    PASS = "pass"
    DRAW_STOCK = "draw stock"
    DRAW_DISCARD = "draw discard"
    DISCARD = "discard"
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big gin"


VERBS = tuple(Verb)
"""Every action verb; ``discard``, ``knock`` and ``gin`` take a card."""


@dataclass(frozen=True, slots=True)
class DealResult(Result):
    """A deal once over (:attr:`Deal.result`): the showdown and how the deal went.

    The showdown fields are those of a
    :class:`~scorekeeper.knock.KnockResult`; a void hand has ``outcome``,
    ``winner``, ``knocker``, ``defender`` and ``breakdown`` ``None`` and
    ``points`` 0. ``dealt`` and ``hands`` are by player (as dealt, at the
    end), ``actions`` how many were played.
    """

    outcome: Outcome | None
    winner: Side | None
    points: int
    knocker: KnockerHand | None
    defender: DefenderHand | None
    breakdown: Breakdown | None
    void: bool
    knocker_player: int | None
    winner_player: int | None
    next_dealer: int
    stock_left: int
    dealer: int
    upcard: str
    knock_limit: int
    discard: str | None
    dealt: tuple[tuple[str, ...], ...]
    """Each player's 10 cards as dealt."""
    hands: tuple[tuple[str, ...], ...]
    """Each player's cards at the end."""
    actions: int
    """Actions played."""

    @property
    def showdown(self) -> KnockResult | None:
        """The showdown part as a :class:`~scorekeeper.knock.KnockResult` (``None`` if void)."""
        if (
            self.outcome is None
            or self.knocker is None
            or self.defender is None
            or self.breakdown is None
        ):
            return None
        return KnockResult(
            outcome=self.outcome,
            winner=self.winner,
            points=self.points,
            knocker=self.knocker,
            defender=self.defender,
            breakdown=self.breakdown,
        )


WALL = 2
"""Cards left in the stock when the hand ends void (RULES.md 4)."""

STOCK = 31
"""Cards in the stock after the deal (52 - 2 x 10 - the upcard)."""

ACTION_HELP = "use pass, draw stock, draw discard, discard Xx, knock Xx, gin Xx or big gin"

_ACTIONS: dict[str, tuple[Verb, Card | None]] = {}
_BARE = {
    "pass": Verb.PASS,
    "draw stock": Verb.DRAW_STOCK,
    "draw discard": Verb.DRAW_DISCARD,
    "big gin": Verb.BIG_GIN,
}
_WITH_CARD = (Verb.DISCARD, Verb.KNOCK, Verb.GIN)


def parse_action(text: str) -> tuple[Verb, Card | None]:
    """An action's text as ``(verb, card)``; ``card`` is ``None`` for bare verbs.

    Case and spacing are free and cards take any notation of
    :func:`~scorekeeper.cards.parse_card`. Raises :class:`RuleError` for
    anything that is not an action.

    >>> parse_action("Knock 10s")
    (<Verb.KNOCK: 'knock'>, Card('Ts'))
    """
    found = _ACTIONS.get(text) if isinstance(text, str) else None
    if found is not None:
        return found
    if not isinstance(text, str):
        raise InvalidValueError(
            f"an action must be text such as 'discard Qs', not {text!r}",
            code="bad_action",
            params={"action": repr(text)},
            option="actions",
        )
    words = text.split()
    key = " ".join(words).lower()
    if key in _BARE:
        found = (_BARE[key], None)
    elif len(words) == 2 and words[0].lower() in _WITH_CARD:
        try:
            found = (Verb(words[0].lower()), parse_card(words[1]))
        except CardError as error:
            raise RuleError.restating(
                error, f"{error} (in action {text!r})", option="actions"
            ) from error
    else:
        raise InvalidValueError(
            f"unknown action {text!r}: {ACTION_HELP}",
            code="bad_action",
            params={"action": text},
            option="actions",
        )
    if len(_ACTIONS) < 4096:
        _ACTIONS[text] = found
    return found


def format_action(verb: str, card: Card | None = None) -> str:
    """The canonical text of an action: ``"discard Qs"``, ``"pass"``."""
    return str(verb) if card is None else f"{verb} {card.code}"


def deal_cards(
    deck: Sequence[Card], dealer: int
) -> tuple[list[tuple[Card, ...]], Card, list[Card]]:
    """Deal a 52-card deck (RULES.md 3): ``(hands by player, upcard, stock top first)``.

    One card at a time, alternately, non-dealer first; the 21st card is the
    upcard and the rest the stock.
    """
    hands: list[tuple[Card, ...]] = [(), ()]
    hands[1 - dealer] = tuple(deck[0:20:2])
    hands[dealer] = tuple(deck[1:20:2])
    return hands, deck[20], list(deck[21:])


def _check_dealer(dealer: Any) -> None:
    if dealer not in (0, 1) or isinstance(dealer, bool):
        raise InvalidValueError(
            f"dealer must be 0 or 1, not {dealer!r}",
            params={"value": repr(dealer)},
            option="dealer",
        )


class Deal:
    """One deal from the deal to the showdown (see the module docs for the rules).

    ``hands`` are the two players' 10 cards (by player index), ``upcard``
    the card turned up, ``stock`` the other 31 cards, top first; cards may
    be codes or :class:`Card`. ``names`` only label messages. ``hands`` holds
    the two current hands as 52-bit masks (:meth:`hand` gives the cards);
    ``dealt`` and ``initial_stock`` keep the cards as dealt. Raises
    :class:`CardError` unless the 52 cards are the deck; with
    ``stock_complete=False`` the stock may list only its first cards (the
    ones drawn), which must then be distinct cards of the deck.
    """

    __slots__ = (
        "_discard_draws",
        "_ending",
        "_history",
        "_knock_discard",
        "_knocker",
        "_passes",
        "_pile",
        "_repeated",
        "_result",
        "_stock",
        "_stock_size",
        "_taken",
        "_void_kind",
        "_void_reason",
        "_wall",
        "big_gin_allowed",
        "dealer",
        "dealt",
        "hands",
        "initial_stock",
        "knock_limit",
        "names",
        "phase",
        "rules",
        "stock_complete",
        "turn",
        "upcard",
    )

    def __init__(
        self,
        hands: Sequence[str | Iterable[str | Card]],
        upcard: str | Card,
        stock: str | Iterable[str | Card],
        *,
        dealer: int = 0,
        rules: Rules | Mapping[str, Any] | str | None = None,
        names: Sequence[str] = ("player 0", "player 1"),
        stock_complete: bool = True,
    ):
        self.rules = Rules.from_dict(rules)
        _check_dealer(dealer)
        if isinstance(hands, str) or not isinstance(hands, Sequence) or len(hands) != 2:
            raise CardError("hands must be two hands of 10 cards", code="bad_cards", field="hands")
        held = [parse_cards(hand, count=10, field=f"hands[{p}]") for p, hand in enumerate(hands)]
        up = parse_card(upcard)
        rest = parse_cards(stock, count=31 if stock_complete else range(32), field="stock")
        masks = [cards_mask(held[0]), cards_mask(held[1])]
        known = masks[0] | masks[1] | up.bit | cards_mask(rest)
        if known != FULL_DECK_MASK and (stock_complete or known.bit_count() != 21 + len(rest)):
            raise CardError(
                "the hands, the upcard and the stock must be the 52 cards of one deck"
                if stock_complete
                else "the hands, the upcard and the stock must be distinct cards of one deck",
                code="not_a_deck",
                field="hands",
            )
        self.stock_complete = stock_complete
        self.dealer = dealer
        self.names = tuple(names)
        self.upcard = up
        self.dealt = (held[0], held[1])
        self.hands = masks
        self.initial_stock = rest
        self._stock = list(reversed(rest))
        self._stock_size = STOCK
        self._void_kind = ""
        self._void_reason = ""
        self._discard_draws = 0
        self._pile = [up]
        self.knock_limit = self.rules.knock_limit_for(up)
        self.big_gin_allowed = self.rules.big_gin_bonus is not None
        self.turn = 1 - dealer
        self.phase = Phase.UPCARD_OFFER
        self._passes = 0
        self._taken: Card | None = None
        self._repeated = False
        self._wall = False
        self._history: list[str] = []
        self._ending: str | None = None
        self._knocker: int | None = None
        self._knock_discard: Card | None = None
        self._result: DealResult | None = None

    # ----------------------------------------------------------------- constructors

    @classmethod
    def from_deck(
        cls,
        deck: str | Iterable[str | Card],
        *,
        dealer: int = 0,
        rules: Rules | Mapping[str, Any] | str | None = None,
        names: Sequence[str] = ("player 0", "player 1"),
    ) -> Deal:
        """A deal from 52 cards in dealing order (see :func:`deal_cards`)."""
        cards = parse_cards(deck, count=52, field="deck")
        _check_dealer(dealer)
        hands, upcard, stock = deal_cards(cards, dealer)
        return cls(hands, upcard, stock, dealer=dealer, rules=rules, names=names)

    @classmethod
    def shuffled(
        cls,
        seed: Any,
        *,
        dealer: int | None = None,
        rules: Rules | Mapping[str, Any] | str | None = None,
        names: Sequence[str] = ("player 0", "player 1"),
    ) -> Deal:
        """A deal of a deck shuffled by ``random.Random(seed)``.

        ``seed`` may also be a ``random.Random``, which is then used (and
        advanced) as it is, so a caller can go on drawing from it. Without
        ``dealer`` the same generator then cuts for the dealer.
        """
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deck = list(DECK)
        rng.shuffle(deck)
        if dealer is None:
            dealer = rng.randrange(2)
        return cls.from_deck(deck, dealer=dealer, rules=rules, names=names)

    # ----------------------------------------------------------------- state

    @property
    def over(self) -> bool:
        """True once the hand is void or the showdown has been scored."""
        return self.phase == Phase.OVER

    @property
    def stock_left(self) -> int:
        """Cards left in the stock."""
        return self._stock_size

    @property
    def stock(self) -> list[str]:
        """The stock's known cards, top first, as codes (all of them unless a partial stock)."""
        return [card.code for card in reversed(self._stock)]

    @property
    def discard_pile(self) -> list[str]:
        """The discard pile, bottom first (the last code is the top card)."""
        return [card.code for card in self._pile]

    @property
    def top(self) -> Card | None:
        """The top card of the discard pile (``None`` if empty)."""
        return self._pile[-1] if self._pile else None

    @property
    def taken(self) -> Card | None:
        """The card taken from the discard pile this turn, which may not be discarded."""
        return self._taken

    @property
    def must_draw_stock(self) -> bool:
        """True when both players passed the upcard and the non-dealer must draw from stock."""
        return self._passes == 2 and self.phase == Phase.DRAW

    @property
    def wall(self) -> bool:
        """True under ``knock_only_at_two`` once the stock is down to 2 cards."""
        return self._wall

    @property
    def actions(self) -> list[str]:
        """The actions played so far, in canonical text."""
        return list(self._history)

    @property
    def knocker(self) -> int | None:
        """The player who knocked (or went gin), once somebody has."""
        return self._knocker

    @property
    def void(self) -> bool:
        """True when the hand ended void at the wall."""
        return self._ending == "void"

    @property
    def void_kind(self) -> str:
        """Why the hand ended void, as a code (``""`` unless :attr:`void`): ``wall`` (the
        stock is down to :data:`WALL` cards), ``discard_draws`` (the rules'
        ``max_discard_draws``) or ``repeated_discard`` (the top discard thrown straight
        back by both players in turn)."""
        return self._void_kind

    @property
    def void_reason(self) -> str:
        """Why the hand ended void (``""`` unless :attr:`void`): the wall or the draw cap."""
        return self._void_reason

    @property
    def result(self) -> DealResult | None:
        """The scored deal once :attr:`over` (see :meth:`showdown`), else ``None``."""
        return self._result

    def hand(self, player: int) -> tuple[Card, ...]:
        """A player's cards, in index order."""
        return mask_cards(self.hands[player])

    def hand_mask(self, player: int) -> int:
        """A player's cards as a 52-bit mask."""
        return self.hands[player]

    # ----------------------------------------------------------------- actions

    def legal_actions(self) -> list[str]:
        """Every action the player to act may take now, in canonical text.

        Empty in the ``showdown`` and ``over`` phases. In the discard phase:
        each plain discard, then each knock or gin (by its discard), then big gin.
        """
        phase = self.phase
        if phase == Phase.UPCARD_OFFER:
            return [Verb.PASS, Verb.DRAW_DISCARD]
        if phase == Phase.DRAW:
            if self._wall:
                return [Verb.DRAW_DISCARD, Verb.PASS]
            if self._passes == 2:
                return [Verb.DRAW_STOCK]
            return [Verb.DRAW_STOCK, Verb.DRAW_DISCARD] if self._pile else [Verb.DRAW_STOCK]
        if phase != Phase.DISCARD:
            return []
        hand = self.hands[self.turn]
        taken = self._taken_bit()
        limit = self.knock_limit
        plain, going_out = [], []
        for bit, left in mask_discards(hand, taken):
            code = DECK[bit.bit_length() - 1].code
            if not self._wall:
                plain.append("discard " + code)
            if left == 0:
                going_out.append("gin " + code)
            elif left <= limit:
                going_out.append("knock " + code)
        if self.big_gin_allowed and mask_deadwood(hand) == 0:
            going_out.append(Verb.BIG_GIN)
        return plain + going_out

    def apply(self, action: str | tuple[str, Card | None]) -> None:
        """Play one action (text or ``(verb, card)``) for the player to act.

        Raises :class:`RuleError` naming the rule when the action is not
        legal now; the deal is then unchanged.
        """
        verb: str
        if isinstance(action, str):
            verb, card = parse_action(action)
        else:
            verb, card = action if type(action) is tuple and len(action) == 2 else ("", None)
            if (
                verb not in VERBS
                or (card is None) != (verb not in _WITH_CARD)
                or (card is not None and type(card) is not Card)
            ):
                raise InvalidValueError(
                    f"not an action: {action!r}: {ACTION_HELP}",
                    code="bad_action",
                    params={"action": repr(action)},
                    option="actions",
                )
        phase = self.phase
        player = self.turn
        if phase == Phase.DISCARD:
            self._discard_phase(player, verb, card)
        elif phase == Phase.DRAW:
            self._draw_phase(player, verb)
        elif phase == Phase.UPCARD_OFFER:
            self._offer_phase(player, verb)
        else:
            raise RuleViolation(
                f"the hand is over: {self._ended()}", code="hand_over", option="actions"
            )
        self._history.append(format_action(verb, card))

    def _name(self, player: int) -> str:
        return self.names[player] if player < len(self.names) else f"player {player}"

    def _ended(self) -> str:
        if self._ending == "void":
            return f"it is void ({self._void_reason})"
        # only asked once somebody has ended the hand, so both are set
        assert self._ending is not None and self._knocker is not None
        what = {"knock": "knocked", "gin": "went gin", "big_gin": "went big gin"}[self._ending]
        tail = "" if self.phase == Phase.OVER else "; only the showdown is left"
        return f"{self._name(self._knocker)} {what}{tail}"

    def _offer_phase(self, player: int, verb: str) -> None:
        if verb == Verb.DRAW_DISCARD:
            self._take(player)
        elif verb == Verb.PASS:
            self._passes += 1
            if self._passes == 1:
                self.turn = self.dealer
            else:
                self.turn = 1 - self.dealer
                self.phase = Phase.DRAW
        elif verb == Verb.DRAW_STOCK:
            raise RuleViolation(
                f"cannot draw from the stock during the upcard offer: "
                f"{self._name(player)} may take the upcard (draw discard) or"
                " pass",
                code="upcard_offer",
                params={"player": self._name(player), "action": verb},
                option="actions",
            )
        else:
            raise RuleViolation(
                f"cannot {verb} now: {self._name(player)} must first take the"
                " upcard (draw discard) or pass",
                code="upcard_offer",
                params={"player": self._name(player), "action": verb},
                option="actions",
            )

    def _draw_phase(self, player: int, verb: str) -> None:
        name = self._name(player)
        if verb == Verb.DRAW_STOCK:
            self._draw_stock(player, name)
        elif verb == Verb.DRAW_DISCARD:
            self._draw_discard(player, name)
        elif verb == Verb.PASS:
            if not self._wall:
                raise RuleViolation(
                    f"cannot pass: the upcard offer is over; {name} must draw"
                    " from the stock or the discard pile",
                    code="cannot_pass",
                    params={"player": name},
                    option="actions",
                )
            self._end_void()
        else:
            raise RuleViolation(
                f"cannot {verb} now: {name} must draw first",
                code="must_draw",
                params={"player": name, "action": verb},
                option="actions",
            )

    def _draw_stock(self, player: int, name: str) -> None:
        """``player`` (``name``) draws the stock's next card."""
        if self._wall:
            raise RuleViolation(
                f"cannot draw from the stock: it is down to {WALL} cards;"
                f" {name} may only take the discard to knock, or pass"
                " (the hand is void)",
                code="stock_exhausted",
                params={"player": name, "left": WALL},
                option="actions",
            )
        if not self._stock:
            raise RuleViolation(
                f"cannot draw from the stock: the record lists only"
                f" {len(self.initial_stock)} stock cards and this draw"
                " needs the next one",
                code="stock_not_listed",
                params={"listed": len(self.initial_stock)},
                option="stock",
            )
        card = self._stock.pop()
        self._stock_size -= 1
        self.hands[player] |= card.bit
        self._taken = None
        self._passes = 0
        self.phase = Phase.DISCARD

    def _draw_discard(self, player: int, name: str) -> None:
        """``player`` (``name``) takes the discard pile's top card (or voids the hand: the
        draw ``max_discard_draws`` forbids)."""
        if self._passes == 2:
            raise RuleViolation(
                "cannot draw from the discard pile: both players passed"
                f" the upcard, so {name} must draw from the stock",
                code="must_draw_stock",
                params={"player": name},
                option="actions",
            )
        if not self._pile:
            raise RuleViolation(
                "cannot draw from the discard pile: it is empty",
                code="discard_pile_empty",
                option="actions",
            )
        cap = self.rules.max_discard_draws
        if not self._wall and cap is not None:
            self._discard_draws += 1
            if self._discard_draws == cap:
                self._end_void(
                    "discard_draws",
                    f"this would be draw {cap} from the discard pile (max_discard_draws)",
                )
                return
        self._take(player)

    def _take(self, player: int) -> None:
        card = self._pile.pop()
        self.hands[player] |= card.bit
        self._taken = card
        self.phase = Phase.DISCARD

    def _discard_phase(self, player: int, verb: str, card: Card | None) -> None:
        if verb == Verb.BIG_GIN:
            self._big_gin(player)
            return
        name = self._name(player)
        if card is None:
            what = "draw" if verb in (Verb.DRAW_STOCK, Verb.DRAW_DISCARD) else verb
            raise RuleViolation(
                f"cannot {what} now: {name} has drawn and must discard, knock or go gin",
                code="must_discard",
                params={"player": name, "action": what},
                option="actions",
            )
        if not self.hands[player] & card.bit:
            raise RuleViolation(
                f"cannot {verb} {card}: {name} does not hold it",
                code="card_not_held",
                params={"player": name, "action": verb, "card": card.code},
                option="actions",
            )
        if card.bit & self._taken_bit():
            raise RuleViolation(
                f"cannot {verb} {card}: it was just taken from the discard pile",
                code="card_just_taken",
                params={"player": name, "action": verb, "card": card.code},
                option="actions",
            )
        if verb == Verb.DISCARD:
            self._discard(player, name, card)
        else:
            self._knock(player, verb, card)

    def _big_gin(self, player: int) -> None:
        """``player`` goes big gin: all 11 cards melded, where the rules allow it."""
        if not self.big_gin_allowed:
            raise RuleViolation(
                "cannot go big gin: big gin is not allowed under these"
                " rules (big_gin_bonus is null)",
                code="big_gin_not_allowed",
                option="actions",
            )
        left = mask_deadwood(self.hands[player])
        if left:
            raise RuleViolation(
                f"cannot go big gin: the 11 cards leave deadwood {left}"
                " (big gin needs all 11 cards melded)",
                code="big_gin_deadwood",
                params={"deadwood": left},
                option="actions",
            )
        self._go_out(player, "big_gin", None)

    def _discard(self, player: int, name: str, card: Card) -> None:
        """``player`` (``name``) discards ``card``, a card they hold and may let go; the turn
        passes, or the hand ends void (a repeated discard, the wall)."""
        if self._wall:
            raise RuleViolation(
                f"cannot discard {card}: with {WALL} cards left in the"
                f" stock, {name} took the discard and may only knock with"
                " it",
                code="must_knock",
                params={"player": name, "card": card.code, "left": WALL},
                option="actions",
            )
        self.hands[player] ^= card.bit
        self._pile.append(card)
        straight_back, self._taken = card == self._taken, None
        other = 1 - player
        self.turn = other
        self.phase = Phase.DRAW
        if straight_back and self._repeated and self.rules.repeated_discard == "void":
            self._end_void(
                "repeated_discard",
                f"{card} was taken and discarded straight back twice in a row (repeated_discard)",
            )
            return
        self._repeated = straight_back
        if self._stock_size <= WALL:
            if self.rules.wall == "knock_only_at_two" and self._can_knock_with(other, card):
                self._wall = True
            else:
                self._end_void()

    def _knock(self, player: int, verb: str, card: Card) -> None:
        """``player`` knocks (or goes gin: ``verb``) discarding ``card``, a card they hold and
        may let go, if what is left is within the knock limit (gin: no deadwood)."""
        left = mask_deadwood(self.hands[player] ^ card.bit)
        if verb == Verb.GIN and left:
            raise RuleViolation(
                f"cannot go gin discarding {card}: deadwood {left} (gin needs all 10 cards melded)",
                code="gin_deadwood",
                params={"card": card.code, "deadwood": left},
                option="actions",
            )
        if left > self.knock_limit:
            message, params = over_limit(left, self.knock_limit, self.rules, self.upcard)
            raise RuleViolation(
                f"cannot knock discarding {card}: {message}",
                code="knock_over_limit",
                params={**params, "card": card.code},
                option="actions",
            )
        self._go_out(player, "gin" if left == 0 else "knock", card)

    def _taken_bit(self) -> int:
        """The bit of the card just taken that may not be discarded (0: none, or allowed)."""
        if self._taken is None or self.rules.discard_taken == "allowed":
            return 0
        return self._taken.bit

    def _can_knock_with(self, player: int, card: Card) -> bool:
        """Could ``player`` take ``card`` from the pile and knock (or go gin) with it?"""
        hand = self.hands[player] | card.bit
        if self.big_gin_allowed and mask_deadwood(hand) == 0:
            return True
        limit = self.knock_limit
        kept = 0 if self.rules.discard_taken == "allowed" else card.bit
        return any(left <= limit for _, left in mask_discards(hand, kept))

    def _go_out(self, player: int, ending: str, card: Card | None) -> None:
        if card is not None:
            self.hands[player] ^= card.bit
        self._ending = ending
        self._knocker = player
        self._knock_discard = card
        self._taken = None
        self._wall = False
        self.phase = Phase.SHOWDOWN

    def _end_void(
        self, kind: str = "wall", reason: str = f"the stock is down to {WALL} cards"
    ) -> None:
        """End the hand void; called while applying the action that voids it.

        The wall or a pass at the wall (``kind`` ``wall``), the capped discard
        draw (``discard_draws``) or a repeated discard (``repeated_discard``),
        in words ``reason``.
        """
        self._ending = "void"
        self._void_kind = kind
        self._void_reason = reason
        self._wall = False
        self._taken = None
        self.phase = Phase.OVER
        self._result = DealResult(
            outcome=None,
            winner=None,
            points=0,
            knocker=None,
            defender=None,
            breakdown=None,
            **self._summary(None, True),
        )

    def _summary(self, winner: int | None, void: bool) -> dict[str, Any]:
        """The :class:`DealResult` fields that tell how the deal went."""
        return {
            "void": void,
            "knocker_player": self._knocker,
            "winner_player": winner,
            "next_dealer": next_dealer(self.rules, self.dealer, winner, void),
            "stock_left": self._stock_size,
            "dealer": self.dealer,
            "upcard": self.upcard.code,
            "knock_limit": self.knock_limit,
            "discard": self._knock_discard.code if self._knock_discard else None,
            "dealt": tuple(tuple(c.code for c in hand) for hand in self.dealt),
            "hands": tuple(tuple(mask_codes(hand)) for hand in self.hands),
            "actions": len(self._history) + (1 if void else 0),
        }

    # ----------------------------------------------------------------- showdown

    def showdown(
        self,
        *,
        knocker_melds: Iterable[Any] | None = None,
        defender_melds: Iterable[Any] | None = None,
        layoffs: Iterable[Any] | None = None,
    ) -> DealResult:
        """Score the showdown after a knock, gin or big gin and end the deal.

        Declared melds and layoffs (as in :func:`verify_knock`) are
        validated; missing ones are chosen optimally. Returns the
        :class:`DealResult`: the ``verify_knock`` result plus ``void``,
        ``knocker_player``, ``winner_player``, ``next_dealer``,
        ``stock_left``, ``dealer``, ``upcard``, ``knock_limit``, ``discard``
        (the knock discard), ``dealt`` and ``hands`` (by player, at the end)
        and ``actions`` (how many were played). Raises :class:`RuleError` or
        :class:`CardError` for bad declarations (the deal stays in the
        showdown phase).
        """
        if self.phase != Phase.SHOWDOWN:
            raise RuleViolation(
                "there is no showdown: nobody has knocked"
                if self.phase != Phase.OVER
                else f"the hand is over: {self._ended()}",
                code="no_showdown" if self.phase != Phase.OVER else "hand_over",
                option="showdown",
            )
        knocker = self._knocker
        assert knocker is not None  # the knock that opened the showdown set it
        defender = 1 - knocker
        result = verify_knock(
            mask_cards(self.hands[knocker]),
            mask_cards(self.hands[defender]),
            rules=self.rules,
            upcard=self.upcard,
            knocker_melds=knocker_melds,
            defender_melds=defender_melds,
            layoffs=layoffs,
        )
        if self._ending == "gin" and result.outcome != Outcome.GIN:
            self._ending = "knock"  # gin laid out as a knock is scored as one (RULES.md 5)
        winner = (
            None
            if result.winner is None
            else {Side.KNOCKER: knocker, Side.DEFENDER: defender}[result.winner]
        )
        self.phase = Phase.OVER
        self._result = DealResult(
            outcome=result.outcome,
            winner=result.winner,
            points=result.points,
            knocker=result.knocker,
            defender=result.defender,
            breakdown=result.breakdown,
            **self._summary(winner, False),
        )
        return self._result
