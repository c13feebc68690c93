"""The digital engine: one deal of two-player Gin Rummy, played exactly by RULES.md 3-6.

A :class:`Deal` owns the state of one deal: whose turn it is, the phase
(``upcard_offer``, ``draw``, ``discard``, ``showdown``, ``over``), both
hands, the first upcard, the stock and the discard pile. At every point
:meth:`Deal.legal_actions` lists what the player to act may do and
:meth:`Deal.apply` plays one action or raises :class:`RuleError` with a
message naming the rule (``cannot discard Js: it was just taken from the
discard pile``). The showdown is scored by :func:`~scorekeeper.knock.verify_knock`.

The rules are played in layers, one module each, with the choices made
where RULES.md is silent in each module's docs:
:mod:`~scorekeeper.dealing` (the deal and the table),
:mod:`~scorekeeper.endings` (a void hand, the showdown),
:mod:`~scorekeeper.drawing` (the upcard offer, the draws) and
:mod:`~scorekeeper.discarding` (discards, going out, the wall); the
actions as text are :mod:`~scorekeeper.actions`.
"""

from __future__ import annotations

from .actions import ACTION_HELP, VERBS, WITH_CARD, Phase, Verb, format_action, parse_action
from .cards import DECK, Card
from .discarding import Discarding
from .errors import InvalidValueError, RuleViolation
from .melds import mask_deadwood, mask_discards


class Deal(Discarding):
    """One deal from the deal to the showdown (see the module docs for the rules).

    Built as a :class:`~scorekeeper.dealing.Table` is (or by its
    :meth:`~scorekeeper.dealing.Table.from_deck` and
    :meth:`~scorekeeper.dealing.Table.shuffled`); :meth:`legal_actions` and
    :meth:`apply` play it to the showdown.
    """

    __slots__ = ()

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
                or (card is None) != (verb not in WITH_CARD)
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
