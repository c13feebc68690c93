"""The Neller importer (issue 11): games of Neller's EAAI ``GinRummyGame`` as match records.

Input: the text ``GinRummyGame`` prints with
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
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from .cards import Card, parse_card, parse_cards
from .errors import CardError, RecordError
from .import_faults import ImportFault
from .records import MATCH_FORMAT, replay_match

NELLER_RULES: dict[str, Any] = {
    "preset": "standard",
    "next_dealer": "alternate",
    "first_dealer": "random",
    "box_bonus": 0,
    "game_bonus": 0,
}
"""The options under which Neller's GinRummyGame scores (see the module docs)."""


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
                "knocker_melds": _meld_codes(groups[1], number),
                "defender_melds": [],
                "layoffs": [],
            }
        elif self.knocker is None or player == self.knocker:
            raise ImportFault("the defender's melds and layoffs come after the knock", line=number)
        elif kind == "melds":
            self.record["showdown"]["defender_melds"] = _meld_codes(groups[1], number)
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


def _meld_codes(text: str, number: int) -> list[list[str]]:
    """The melds a log line prints (``[[As, 2s, 3s], ...]``), each as its card codes."""
    return [[card.code for card in _cards_of(inner, number)] for inner in _MELD.findall(text)]


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
