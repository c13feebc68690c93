"""The OpenSpiel importer (issue 11): a finished gin_rummy history as a deal record.

Input: JSON lines ``{"history": [...], "params": {...}}``, one deal
each: ``history`` as pyspiel's ``state.history()`` gives it for a finished
``gin_rummy`` game, ``params`` the game's parameters (``oklahoma``,
``knock_card``, ``gin_bonus``, ``undercut_bonus``; ``num_ranks``,
``num_suits`` and ``hand_size`` only at 13, 4 and 10; see
:mod:`scorekeeper.openspiel_ids`). One deal record per line, under preset
``openspiel`` with ``knock_limit`` = ``knock_card``
(10 under ``oklahoma``, where OpenSpiel ignores ``knock_card`` and takes the
upcard's value, an ace meaning gin only, with no spade doubling),
``gin_bonus`` and ``undercut_bonus``. OpenSpiel's player 0 acts first, so
player 1 is the dealer; the stock lists the drawn cards only
(``stock_complete: false``). The knocker's and the defender's melds and
the defender's layoffs in the history become the record's declared
showdown (each layoff is put on a knocker meld it fits, by a small search).
At the wall OpenSpiel offers a knock (55) or a pass (54); when the player
could not knock, the engine voids the deal at the discard itself and the
trailing 54 is no action of the record; otherwise 54 is ``pass`` and 55 is
``draw discard`` followed by ``knock`` with the next card. A deal OpenSpiel
ended for a repeated move (the top discard taken and discarded straight
back twice in a row, 0-0) is a void deal: the preset's ``repeated_discard:
void``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypedDict

from .actions import Phase
from .cards import Card, cards_mask, parse_card
from .engine import Deal
from .errors import CardError, RuleError
from .import_faults import ImportFault
from .melds import mask_points, meld_kind
from .openspiel_ids import (
    DRAW_STOCK,
    DRAW_UPCARD,
    KNOCK,
    MELD_BASE,
    OPENSPIEL_MELDS,
    PASS,
    openspiel_card,
    openspiel_rules,
)
from .recording import deal_record
from .rules import Rules


class DeclaredLayoff(TypedDict):
    """A layoff in a deal record's showdown: the card and the knocker meld it goes on."""

    card: str
    meld: list[str]


def openspiel_records(text: str) -> Iterator[dict[str, Any] | ImportFault]:
    """One deal record (or fault) per non-blank line of OpenSpiel JSON lines."""
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            try:
                entry = json.loads(raw)
            except ValueError as error:
                raise ImportFault(f"not valid JSON: {error}", line=number) from None
            yield openspiel_record(entry, line=number)
        except ImportFault as fault:
            yield fault


def openspiel_record(entry: Any, *, line: int = 1) -> dict[str, Any]:
    """The deal record of one ``{"history", "params"}`` entry (see the module docs)."""
    if not isinstance(entry, Mapping) or "history" not in entry:
        raise ImportFault(
            'expected an object {"history": [action ids], "params": {...}}', line=line
        )
    extra = sorted(set(entry) - {"history", "params"})
    if extra:
        raise ImportFault(f"unknown key {extra[0]!r}: an entry has history and params", line=line)
    history = entry["history"]
    if not isinstance(history, list):
        raise ImportFault("history must be a list of action ids", line=line)
    for position, action in enumerate(history):
        if type(action) is not int or not 0 <= action < MELD_BASE + len(OPENSPIEL_MELDS):
            raise ImportFault(
                f"{action!r} is not an action id (0 to {MELD_BASE + len(OPENSPIEL_MELDS) - 1})",
                line=line,
                position=position,
            )
    rules = openspiel_rules(entry.get("params"), line)
    return _OpenSpielDeal(history, rules, line).record()


class _OpenSpielDeal:
    """One OpenSpiel history walked through the engine (see the module docs)."""

    def __init__(self, history: list[int], rules: Rules, line: int):
        self.history = history
        self.line = line
        self.position = 0
        seen: dict[int, int] = {}
        dealt = [self._chance(seen, "the deal (21 cards)") for _ in range(21)]
        stock = []
        for position in range(21, len(history) - 1):
            if history[position] == DRAW_STOCK:
                self.position = position + 1
                stock.append(self._chance(seen, "the card drawn"))
        self.position = 21
        self.deal = Deal(
            [dealt[0:10], dealt[10:20]],
            dealt[20],
            stock,
            dealer=1,
            rules=rules,
            stock_complete=False,
        )

    def fault(self, message: str, position: int | None = None) -> ImportFault:
        return ImportFault(
            message, line=self.line, position=self.position if position is None else position
        )

    def _chance(self, seen: dict[int, int], what: str) -> Card:
        """The card of the chance outcome at ``self.position`` (and move past it)."""
        position = self.position
        if position >= len(self.history):
            raise self.fault(f"the history ends during {what}")
        action = self.history[position]
        if action >= 52:
            raise self.fault(
                f"{what}: a chance outcome (a card id 0-51) was expected, not {action}"
            )
        if action in seen:
            raise self.fault(
                f"{openspiel_card(action)} is dealt twice (also at position {seen[action]})"
            )
        seen[action] = position
        self.position += 1
        return openspiel_card(action)

    def _next(self, what: str) -> int:
        if self.position >= len(self.history):
            raise self.fault(f"the history ends before the deal is over: {what}")
        action = self.history[self.position]
        self.position += 1
        return action

    def _apply(self, action: str, position: int) -> None:
        try:
            self.deal.apply(action)
        except (RuleError, CardError) as error:
            raise self.fault(f"{action} is not legal here: {error}", position) from None

    def _card(self, what: str) -> Card:
        position = self.position
        action = self._next(what)
        if action >= 52:
            raise self.fault(f"{what}: a card id (0-51) was expected, not {action}", position)
        return openspiel_card(action)

    def record(self) -> dict[str, Any]:
        deal = self.deal
        while deal.phase in (Phase.UPCARD_OFFER, Phase.DRAW, Phase.DISCARD):
            position = self.position
            if deal.phase == Phase.DISCARD:
                action = self._next("the player to act must discard or knock")
                if action == KNOCK:
                    card = self._card("the knock discard")
                    self._apply(f"knock {card}", self.position - 1)
                elif action < 52:
                    card = openspiel_card(action)
                    self._apply(f"discard {card}", position)
                    if deal.over:  # the wall (the next player could not knock), or a repeat
                        self._wall_pass()
                else:
                    raise self.fault(
                        f"{action}: a discard (card id) or 55 (knock) was expected", position
                    )
                continue
            action = self._next("the player to act must draw or pass")
            if deal.wall:
                if action == PASS:
                    self._apply("pass", position)
                elif action == KNOCK:
                    self._apply("draw discard", position)
                    card = self._card("the knock discard")
                    self._apply(f"knock {card}", self.position - 1)
                else:
                    raise self.fault(
                        f"{action}: at the wall 54 (pass) or 55 (knock) was expected", position
                    )
            elif action == DRAW_UPCARD:
                self._apply("draw discard", position)
            elif action == DRAW_STOCK:
                if self.position >= len(self.history):
                    raise self.fault("the history ends before the card drawn from the stock")
                self._apply("draw stock", position)
                self.position += 1  # the chance outcome: the card drawn, read already
            elif action == PASS:
                self._apply("pass", position)
            else:
                raise self.fault(
                    f"{action}: 52 (draw upcard), 53 (draw stock) or 54 (pass) was expected",
                    position,
                )
        record = deal_record(deal, comment=f"imported from OpenSpiel gin_rummy, line {self.line}")
        if deal.phase == Phase.SHOWDOWN:
            record["showdown"] = self._showdown()
        if self.position < len(self.history):
            ended = "void" if deal.void else "scored"
            raise self.fault(
                f"the deal is over ({ended}), but the history goes on with"
                f" {self.history[self.position]}"
            )
        return record

    def _wall_pass(self) -> None:
        """OpenSpiel's only legal action at a wall where no knock was possible: 54."""
        if self.position < len(self.history) and self.history[self.position] == PASS:
            self.position += 1

    def _melds(self, left: int) -> list[tuple[Card, ...]]:
        """Meld actions up to the 54 that ends them, checked against the cards ``left``."""
        melds: list[tuple[Card, ...]] = []
        while True:
            position = self.position
            action = self._next("meld actions and 54 were expected")
            if action == PASS:
                return melds
            if action < MELD_BASE:
                raise self.fault(f"{action}: a meld (56 and up) or 54 was expected", position)
            meld = OPENSPIEL_MELDS[action - MELD_BASE]
            if cards_mask(meld) & ~left:
                raise self.fault(
                    f"meld {' '.join(c.code for c in meld)}: the player does not"
                    " hold these cards (or one is in another meld)",
                    position,
                )
            left &= ~cards_mask(meld)
            melds.append(meld)

    def _showdown(self) -> dict[str, Any]:
        """The declared showdown: the knocker's melds, the layoffs, the defender's melds."""
        deal = self.deal
        knocker = deal.knocker
        assert knocker is not None  # the deal is in its showdown
        defender = 1 - knocker
        start = self.position
        knocker_melds = self._melds(deal.hand_mask(knocker))
        laid = sum(cards_mask(meld) for meld in knocker_melds)
        layoffs: list[DeclaredLayoff] = []
        if mask_points(deal.hand_mask(knocker) & ~laid):
            held = deal.hand_mask(defender)
            cards = []
            while True:
                position = self.position
                action = self._next("layoffs (card ids) and 54 were expected")
                if action == PASS:
                    break
                if action >= 52:
                    raise self.fault(f"{action}: a layoff (card id) or 54 was expected", position)
                card = openspiel_card(action)
                if not held & card.bit:
                    raise self.fault(
                        f"layoff {card}: the defender does not hold it (or laid it off already)",
                        position,
                    )
                held &= ~card.bit
                cards.append((card, position))
            layoffs = _assign_layoffs(cards, knocker_melds, self.fault)
        laid_off = sum(parse_card(layoff["card"]).bit for layoff in layoffs)
        defender_melds = self._melds(deal.hand_mask(defender) & ~laid_off)
        showdown: dict[str, Any] = {
            "knocker_melds": _codes(knocker_melds),
            "defender_melds": _codes(defender_melds),
            "layoffs": layoffs,
        }
        try:
            deal.showdown(**showdown)
        except (RuleError, CardError) as error:
            raise self.fault(
                f"the showdown from position {start} is not legal: {error}", self.position - 1
            ) from None
        return showdown


def _codes(melds: Sequence[Sequence[Card]]) -> list[list[str]]:
    return [[card.code for card in meld] for meld in melds]


def _assign_layoffs(
    cards: list[tuple[Card, int]],
    melds: list[tuple[Card, ...]],
    fault: Callable[[str, int | None], ImportFault],
) -> list[DeclaredLayoff]:
    """Each laid card ``(card, position)`` put on a knocker meld it fits.

    A depth-first search in laying order for the first assignment under
    which every knocker meld with the cards put on it is still a meld (a set
    takes its fourth card, a run grows at either end). When there is none,
    the fault names the first card that no assignment can place.
    """

    def place(index: int, grown: list[frozenset[Card]], count: int) -> list[int] | None:
        if index == count:
            return []
        card = cards[index][0]
        for m, meld in enumerate(grown):
            bigger = meld | {card}
            if meld_kind(bigger) is not None:
                rest = place(index + 1, [*grown[:m], bigger, *grown[m + 1 :]], count)
                if rest is not None:
                    return [m, *rest]
        return None

    start = [frozenset(meld) for meld in melds]
    chosen = place(0, start, len(cards))
    if chosen is None:
        count = next(n for n in range(1, len(cards) + 1) if place(0, start, n) is None)
        card, position = cards[count - 1]
        raise fault(
            f"layoff {card} does not fit on the knocker's melds"
            f" {' '.join(str(_codes([m])[0]) for m in melds) or '(none)'}",
            position,
        )
    return [
        DeclaredLayoff(card=card.code, meld=[c.code for c in melds[m]])
        for (card, _), m in zip(cards, chosen, strict=True)
    ]
