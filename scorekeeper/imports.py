"""Importers: deal and match records from other Gin Rummy systems (issue 11).

:func:`import_text` reads a whole input and returns the records it could
build, in input order, and an :class:`ImportFault` for every part it could
not (the other parts are still imported). Each record carries the rule
options under which it scores exactly as the source system scored it.

**openspiel**: JSON lines ``{"history": [...], "params": {...}}``, one deal
each: ``history`` as pyspiel's ``state.history()`` gives it for a finished
``gin_rummy`` game, ``params`` the game's parameters (``oklahoma``,
``knock_card``, ``gin_bonus``, ``undercut_bonus``; ``num_ranks``,
``num_suits`` and ``hand_size`` only at 13, 4 and 10). One deal record per
line, under preset ``openspiel`` with ``knock_limit`` = ``knock_card``
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

**neller**: the text Neller's EAAI ``GinRummyGame`` prints with
``setPlayVerbose(true)``, one or more whole games; one match record
(``gin-rummy-match/1``) per game. The framework plays standard rules
(knock limit 10, gin 25, undercut 25 and ties are undercuts, the card just
taken face up may not be discarded, a discard that leaves 2 stock cards
voids the hand, game to 100) but adds no game or box bonus and lets the
first player alternate after every scored hand (the same one starts again
after a void hand, the first chosen at random): :data:`NELLER_RULES`. The
player who starts is the non-dealer. A draw of the card on top of the
discard pile is a ``draw discard``, any other draw a stock card. The
knocker's melds, the defender's melds and its (greedy) layoffs are the
declared showdown; Neller prints a layoff's meld with the cards laid on it
before, which are taken off again to name the knocker's meld. Each game
is replayed, and its running totals must match the ``Player / Score``
lines the log prints, or the game is refused naming the line. A forfeit
(an illegal discard or meld) cannot be imported.

Faults name the input line (1-based) and, for OpenSpiel, the position in
the history (0-based index) of the action at fault (``len(history)`` when
the history stops before the deal is over).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from .actions import Phase
from .cards import RANKS, Card, cards_mask, parse_card, parse_cards
from .engine import Deal
from .errors import CardError, InvalidRecordError, RecordError, RuleError
from .melds import mask_points, meld_kind
from .recording import deal_record
from .records import MATCH_FORMAT, replay_match
from .rules import Rules

SOURCES = ("openspiel", "neller")

NELLER_RULES: dict[str, Any] = {
    "preset": "standard",
    "next_dealer": "alternate",
    "first_dealer": "random",
    "box_bonus": 0,
    "game_bonus": 0,
}
"""The options under which Neller's GinRummyGame scores (see the module docs)."""


class ImportFault(InvalidRecordError):
    """A part of an import that cannot be read: ``line`` (1-based) and ``position``.

    An invalid input (code ``bad_import``), whatever the reason inside: the
    text is not a record this program can score as its source did.

    ``position`` is the index into an OpenSpiel history, ``None`` when the
    fault is not at one action. The message starts with both:
    ``line 3, position 57: ...``.
    """

    def __init__(self, message: str, *, line: int, position: int | None = None):
        where = f"line {line}" if position is None else f"line {line}, position {position}"
        super().__init__(
            f"{where}: {message}",
            code="bad_import",
            params={"line": line, "position": position},
            field="text",
        )
        self.line = line
        self.position = position

    def to_dict(self) -> FaultReport:
        """``{"line", "position", "message"}`` as the API and the CLI report it."""
        return {"line": self.line, "position": self.position, "message": str(self)}


class FaultReport(TypedDict):
    """An :class:`ImportFault` as the API and the CLI report it."""

    line: int
    position: int | None
    message: str


class ImportedReport(TypedDict):
    """An :class:`Imported` as the API serves it."""

    records: list[dict[str, Any]]
    errors: list[FaultReport]


class DeclaredLayoff(TypedDict):
    """A layoff in a deal record's showdown: the card and the knocker meld it goes on."""

    card: str
    meld: list[str]


@dataclass
class Imported:
    """What an import gave: the records in input order and the faults, in input order."""

    records: list[dict[str, Any]] = field(default_factory=list)
    errors: list[ImportFault] = field(default_factory=list)

    def to_dict(self) -> ImportedReport:
        """``{"records": [...], "errors": [{"line", "position", "message"}]}``."""
        return {"records": self.records, "errors": [e.to_dict() for e in self.errors]}


def import_text(source: str, text: str) -> Imported:
    """Import a whole input of ``source`` (``openspiel`` or ``neller``)."""
    readers = {"openspiel": openspiel_records, "neller": neller_records}
    if source not in readers:
        raise InvalidRecordError(
            f"unknown source {source!r}: use {' or '.join(SOURCES)}",
            code="unknown_source",
            params={"source": source},
            field="source",
        )
    result = Imported()
    for item in readers[source](text):
        if isinstance(item, ImportFault):
            result.errors.append(item)
        else:
            result.records.append(item)
    return result


# --------------------------------------------------------------------------- OpenSpiel

DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56
OPENSPIEL_SUITS = "scdh"
OPENSPIEL_PARAMS: dict[str, Any] = {
    "oklahoma": False,
    "knock_card": 10,
    "gin_bonus": 25,
    "undercut_bonus": 25,
    "num_ranks": 13,
    "num_suits": 4,
    "hand_size": 10,
}
"""OpenSpiel's gin_rummy parameters and their defaults."""


def openspiel_card(action: int) -> Card:
    """The card of an OpenSpiel card id (``suit * 13 + rank``, suits ``s c d h``).

    >>> openspiel_card(13), openspiel_card(51)
    (Card('Ac'), Card('Kh'))
    """
    return parse_card(RANKS[action % 13] + OPENSPIEL_SUITS[action // 13])


def _openspiel_melds() -> list[tuple[Card, ...]]:
    """OpenSpiel's 185 meld ids in order: 65 sets, then runs of 3, 4 and 5 cards.

    Sets: ``rank * 5 + s`` is the 3-card set without suit ``s``, ``rank * 5 +
    4`` the 4-card set; runs of n cards: by suit, then by low rank.
    """
    melds: list[tuple[Card, ...]] = []
    for rank in range(13):
        for missing in range(5):
            melds.append(
                tuple(openspiel_card(suit * 13 + rank) for suit in range(4) if suit != missing)
            )
    for size in (3, 4, 5):
        for suit in range(4):
            for low in range(14 - size):
                melds.append(tuple(openspiel_card(suit * 13 + low + i) for i in range(size)))
    return melds


OPENSPIEL_MELDS = _openspiel_melds()


def openspiel_rules(params: Any, line: int = 1) -> Rules:
    """The rules an OpenSpiel game with these parameters is scored under (module docs)."""
    if params is None:
        params = {}
    if not isinstance(params, Mapping):
        raise ImportFault("params must be an object of OpenSpiel game parameters", line=line)
    for key, value in params.items():
        if key not in OPENSPIEL_PARAMS:
            raise ImportFault(
                f"unknown gin_rummy parameter {key!r}; known: {', '.join(OPENSPIEL_PARAMS)}",
                line=line,
            )
        want = type(OPENSPIEL_PARAMS[key])
        if type(value) is not want:
            what = "true or false" if want is bool else "a whole number"
            raise ImportFault(f"parameter {key} must be {what}, not {value!r}", line=line)
    options = {**OPENSPIEL_PARAMS, **params}
    for key in ("num_ranks", "num_suits", "hand_size"):
        if options[key] != OPENSPIEL_PARAMS[key]:
            raise ImportFault(
                f"parameter {key} is {options[key]}: only games of 13 ranks,"
                " 4 suits and hands of 10 cards can be imported",
                line=line,
            )
    try:
        return Rules.preset(
            "openspiel",
            oklahoma=options["oklahoma"],
            knock_limit=10 if options["oklahoma"] else options["knock_card"],
            gin_bonus=options["gin_bonus"],
            undercut_bonus=options["undercut_bonus"],
        )
    except RuleError as error:
        raise ImportFault(f"params: {error}", line=line) from None


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


# --------------------------------------------------------------------------- Neller

_P = r"Player ([01])"
_NELLER_LINES = (
    ("dealt", re.compile(_P + r" is dealt \[([^\]]*)\]\.")),
    ("starts", re.compile(_P + r" starts\.")),
    ("upcard", re.compile(r"The initial face up card is (\w\w)\.")),
    ("declines", re.compile(_P + r" declines (\w\w)\.")),
    ("draws", re.compile(_P + r" draws (\w\w)\.")),
    ("discards", re.compile(_P + r" discards (\w\w)\.")),
    ("holds", re.compile(_P + r" has \[.*\] with \d+ deadwood\.")),
    ("knocks", re.compile(_P + r" melds \[(.*)\] with \d+ deadwood from \[[^\]]*\]\.")),
    ("gin", re.compile(_P + r" goes gin with melds \[(.*)\]\.")),
    ("melds", re.compile(_P + r" melds \[(.*)\]\.")),
    ("layoff", re.compile(_P + r" lays off (\w\w) on \[([^\]]*)\]\.")),
    ("left", re.compile(_P + r" has \d+ deadwood with \[[^\]]*\]")),
    ("scores", re.compile(_P + r" (scores|undercuts and scores) .*\.")),
    (
        "cancelled",
        re.compile(
            r"The draw pile was reduced to two cards without knocking, so the"
            r" hand is cancelled\."
        ),
    ),
    ("forfeit", re.compile(_P + r" .* forfeits\.")),
    ("score_head", re.compile(r"Player\tScore")),
    ("score", re.compile(r"([01])\t(-?\d{1,9})")),
    ("wins", re.compile(_P + r" wins\.")),
)
_MELD = re.compile(r"\[([^\[\]]*)\]")


def neller_records(text: str) -> Iterator[dict[str, Any] | ImportFault]:
    """One match record (or fault) per game of a Neller verbose log.

    A game ends at its ``Player N wins.`` line; after a fault the rest of
    that game is skipped.
    """
    game: _NellerGame | None = None
    fault: ImportFault | None = None
    last = 0
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        last = number
        number, kind, groups = _neller_line(number, raw.rstrip("\r"))
        if game is None:
            game, fault = _NellerGame(number), None
        if fault is None:
            try:
                game.feed(number, kind, groups)
            except ImportFault as error:
                fault = error
        if kind == "wins":
            if fault is None:
                try:
                    yield game.record()
                except ImportFault as error:
                    fault = error
            if fault is not None:
                yield fault
            game = None
    if game is not None:
        yield fault or ImportFault(
            "the log ends before the game is over (no 'Player N wins.' line)", line=last
        )


def _neller_line(number: int, line: str) -> tuple[int, str, tuple[str, ...]]:
    for kind, pattern in _NELLER_LINES:
        match = pattern.fullmatch(line)
        if match:
            return number, kind, match.groups()
    return number, "unknown", (line,)


class _NellerDeal:
    """One hand of a Neller log as a deal record, with the line of each action."""

    def __init__(
        self, hands: Sequence[tuple[Card, ...]], upcard: Card, dealer: int, start: int
    ) -> None:
        self.record: dict[str, Any] = {
            "dealer": dealer,
            "hands": [[c.code for c in hand] for hand in hands],
            "upcard": upcard.code,
            "stock": [],
            "stock_complete": False,
            "actions": [],
        }
        self.lines: list[int] = []  # the line of each action
        self.start = start
        self.pile = [upcard]
        self.knocker: int | None = None
        self.knock_line = start
        self.laid: list[Card] = []
        self.totals_line = start
        self.totals: list[int] = []

    def score(self, total: int, number: int) -> None:
        """A running total as the log prints it after the hand (player 0's, then 1's)."""
        if not self.totals:
            self.totals_line = number
        self.totals.append(total)

    def play(self, number: int, kind: str, groups: tuple[str, ...]) -> None:
        """A line of play: a draw, a discard, the knock, the defender's melds or a layoff."""
        player = int(groups[0])
        actions = self.record["actions"]
        if kind == "declines":
            self._act("pass", number)
        elif kind == "draws":
            card = _cards_of(groups[1], number)[0]
            if self.pile and self.pile[-1] == card:
                self.pile.pop()
                self._act("draw discard", number)
            else:
                if card.code in self._known():
                    raise ImportFault(
                        f"{card} is drawn from the stock, but it was dealt or drawn before",
                        line=number,
                    )
                self.record["stock"].append(card.code)
                self._act("draw stock", number)
        elif kind == "discards":
            card = _cards_of(groups[1], number)[0]
            self.pile.append(card)
            self._act(f"discard {card}", number)
        elif kind in ("knocks", "gin"):
            if not actions or not actions[-1].startswith("discard "):
                raise ImportFault("a knock must follow the knocker's discard", line=number)
            actions[-1] = "knock" + actions[-1][len("discard") :]
            self.knocker, self.knock_line = player, number
            self.record["showdown"] = {
                "knocker_melds": _codes(_melds_of(groups[1], number)),
                "defender_melds": [],
                "layoffs": [],
            }
        elif self.knocker is None or player == self.knocker:
            raise ImportFault("the defender's melds and layoffs come after the knock", line=number)
        elif kind == "melds":
            self.record["showdown"]["defender_melds"] = _codes(_melds_of(groups[1], number))
        else:  # a layoff, on the knocker's meld as extended by the cards laid before
            card = _cards_of(groups[1], number)[0]
            shown = set(_cards_of(groups[2], number)) - set(self.laid)
            showdown = self.record["showdown"]
            meld = next(
                (m for m in showdown["knocker_melds"] if {parse_card(c) for c in m} == shown), None
            )
            if meld is None:
                raise ImportFault(
                    f"{card} is laid off on a meld the knocker did not lay", line=number
                )
            self.laid.append(card)
            showdown["layoffs"].append({"card": card.code, "meld": meld})

    def _known(self) -> set[str]:
        """The cards dealt and drawn from the stock so far."""
        return {
            *self.record["hands"][0],
            *self.record["hands"][1],
            self.record["upcard"],
            *self.record["stock"],
        }

    def _act(self, action: str, line: int) -> None:
        self.record["actions"].append(action)
        self.lines.append(line)

    def line_of(self, error: RecordError) -> int:
        """The log line where a replay fault of this deal lies."""
        if error.field == "showdown":
            return self.knock_line
        if error.step is not None and self.lines:
            return self.lines[min(error.step, len(self.lines) - 1)]
        return self.start


def _cards_of(text: str, number: int) -> tuple[Card, ...]:
    try:
        return parse_cards(text, field="cards")
    except CardError as error:
        raise ImportFault(str(error), line=number) from None


def _melds_of(text: str, number: int) -> list[tuple[Card, ...]]:
    return [_cards_of(inner, number) for inner in _MELD.findall(text)]


class _NellerGame:
    """One game of a Neller log, fed line by line (:meth:`feed`), as a match record."""

    def __init__(self, first_line: int):
        self.first_line = first_line
        self.deals: list[_NellerDeal] = []
        self.current: _NellerDeal | None = None
        self.hands: list[tuple[Card, ...] | None] = [None, None]
        self.starter: tuple[int, int] | None = None  # (player, line of "starts")
        self.winner: tuple[int, int] | None = None  # (player, line of "wins")

    def feed(self, number: int, kind: str, groups: tuple[str, ...]) -> None:
        """Take one classified line (:func:`_neller_line`); raise :class:`ImportFault`."""
        if kind == "unknown":
            raise ImportFault(f"not a line of Neller's verbose log: {groups[0]!r}", line=number)
        if kind == "forfeit":
            raise ImportFault(
                "a forfeited game cannot be imported (RULES.md has no forfeit)", line=number
            )
        if kind in ("holds", "left", "scores", "cancelled", "score_head"):
            return  # stated results: the replay works them out (the totals are checked)
        if kind == "wins":
            self.winner = (int(groups[0]), number)
        elif kind in ("dealt", "starts", "upcard"):
            self._deal(number, kind, groups)
        elif self.current is None:
            raise ImportFault("a line of play before the hand is dealt", line=number)
        elif kind == "score":
            self.current.score(int(groups[1]), number)
        else:
            self.current.play(number, kind, groups)

    def _deal(self, number: int, kind: str, groups: tuple[str, ...]) -> None:
        if self.current is not None and not self.current.totals:
            raise ImportFault(
                "a new hand begins before the last one's scores are printed", line=number
            )
        self.current = None
        if kind == "dealt":
            self.hands[int(groups[0])] = _cards_of(groups[1], number)
        elif kind == "starts":
            self.starter = (int(groups[0]), number)
        else:
            hands = [hand for hand in self.hands if hand is not None]
            if len(hands) < 2 or self.starter is None:
                raise ImportFault(
                    "the upcard is turned before both hands are dealt"
                    " and the starting player is named",
                    line=number,
                )
            player, line = self.starter
            self.current = _NellerDeal(hands, _cards_of(groups[0], number)[0], 1 - player, line)
            self.deals.append(self.current)
            self.hands, self.starter = [None, None], None

    def record(self) -> dict[str, Any]:
        """The match record, replayed and checked against the totals the log printed."""
        last = self.deals[-1] if self.deals else None
        if last is None or not last.totals or self.winner is None:
            raise ImportFault(
                "the game ends before its last hand is scored",
                line=self.winner[1] if self.winner else self.first_line,
            )
        record = {
            "format": MATCH_FORMAT,
            "rules": dict(NELLER_RULES),
            "players": ["player 0", "player 1"],
            "deals": [deal.record for deal in self.deals],
            "comment": f"imported from Neller's GinRummyGame log, line {self.first_line}",
        }
        try:
            sheet = replay_match(record).to_dict()["sheet"]
        except RecordError as error:
            where = (
                self.deals[error.deal].line_of(error) if error.deal is not None else self.first_line
            )
            raise ImportFault(str(error), line=where) from None
        for deal, row in zip(self.deals, sheet["hands"], strict=True):
            if list(row["totals"]) != deal.totals:
                raise ImportFault(
                    f"the log's running totals {deal.totals} differ from the"
                    f" replay's {list(row['totals'])}",
                    line=deal.totals_line,
                )
        player, line = self.winner
        if not sheet["over"] or sheet["result"]["winner"] != player:
            raise ImportFault(
                f"the log says player {player} wins, but the replayed game"
                f" {'has another winner' if sheet['over'] else 'is not over'}",
                line=line,
            )
        return record
