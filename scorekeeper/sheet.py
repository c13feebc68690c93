"""The score sheet: scoring a game from its hand results (RULES.md sections 6-8).

This module owns everything that happens on paper once each hand's result is
known: running totals, boxes (hands won), the end of a game at the target,
the game, box and shutout bonuses, the net result and its settlement at a
stake, who deals next, and the three table formats of section 8: Hollywood
scoring, three players and four-player partnerships. It does not look at
cards: a hand entry carries the points the hand scored (section 6, already
doubled by an Oklahoma spade upcard), which the verifier or the engine
computes.

:func:`score_sheet` is a pure function from a list of hand entries to a
typed sheet (:class:`Sheet`, :class:`HollywoodSheet` or
:class:`PartnershipSheet`, each a frozen :class:`~scorekeeper.results.Result`
whose ``to_dict()`` is the JSON sheet); :func:`next_dealer` is the dealer
rotation on its own. :class:`Entry` is a hand entry as a result (what
:func:`~scorekeeper.records.deal_entry` gives); its ``to_dict()`` is the
entry to pass in.

Hand entries
------------
* ``{"void": True}``: a void hand (the stock ran out); nobody scores, it is
  no box, and the same dealer deals again.
* ``{"winner": i, "loser": j, "points": n, "outcome": o}``: ``i``/``j`` are
  indexes into ``players``; ``n`` a whole number >= 0 scored by the winner;
  ``o`` one of ``knock``, ``gin``, ``big_gin``, ``undercut`` (the winner of
  an undercut is the defender). With two players ``loser`` may be left out.
  Other keys are ignored, so a hand record of the returned sheet can be fed
  back as an entry.
* Four players: ``{"games": [entry, entry]}``, one two-player entry (or
  ``{"void": True}``) for each of the deal's two games, in the order of the
  sheet's pairings (see below); ``{"void": True}`` alone voids both games.

Every bad entry raises :class:`~scorekeeper.errors.RuleError` whose message
names the hand number (and game) and whose ``option``/``field`` names the
key at fault. Choices made where RULES.md is silent (a careful tournament
director's reading):

* ``points`` must fit the outcome: a knock scores at least 1 (K < D), a gin
  at least ``gin_bonus``, an undercut at least ``undercut_bonus``, a big gin
  at least ``big_gin_bonus``; ``big_gin`` is refused when ``big_gin_bonus``
  is null, and ``knock``/``undercut`` when ``knock_limit`` is 0 (straight
  gin: only gin ends a hand).
* A **shutout** is a loser who won no hand (no box), even a hand worth 0.
* With ``shutout = double_total`` the winner's final (total + boxes + game
  bonus) is doubled; with ``double_bonus`` only the game bonus is.
* The **net** is the winner's final minus the loser's. Box bonuses can make
  it negative; the settlement then runs the other way (the winner pays), so
  ``amount`` is never negative. ``amount`` is ``|net| x stake`` rounded half
  up to cents; ``settlement`` is ``None`` without a stake.
* ``next_dealer`` is also reported once the game is over: who would deal
  the next hand under the option (e.g. the first hand of a rematch).

Three players
-------------
The dealer deals to the other two and sits out; an entry must name both a
``winner`` and a ``loser``, neither of them the dealer. Who deals next
follows ``three_player_dealer``, whatever the ``next_dealer`` option says
(section 8): ``loser`` (the loser of the hand deals the next) or ``rotate``
(the sitting-out seat moves one place round the table: ``(dealer + 1) %
3``); after a void hand the same dealer deals again under either. Each
player keeps an own total and boxes; the first to reach the target wins
the game and gets the game bonus; everybody gets the box bonus for each
hand won. Each loser settles with the winner on their own difference
(``winner final - loser final``): ``result.loser`` is ``None``,
``result.losers`` lists both, ``result.net`` is the sum of the two
differences and ``result.settlement`` (with a stake) a list of two
payments. The shutout doubling applies against each loser who won no hand,
on its own (section 8; ``result.shut_out`` lists them): that loser's
difference is taken from the winner's doubled final. ``result.final``,
``game_bonus`` and ``shutout`` are the winner's against a loser who won a
hand; only when neither did (``shutout`` true) are they the doubled ones.

Four players (partnerships)
---------------------------
Teams are team 0 = players 0 and 2, team 1 = players 1 and 3; totals, boxes,
``needed``, ``winner``/``loser``, ``final``, ``net`` and the settlement are
per **team** (the amount is the team's; splitting it between partners is up
to them). Each deal is two games: game 1 is player 0's, game 2 player 2's.
Partners alternate opponents every deal (Bicycle's partnership rule): deals
1, 3, 5, ... pair 0-1 and 2-3, deals 2, 4, 6, ... pair 0-3 and 2-1. Both
members of one team deal, each in own game; ``dealer`` names any player of
the first dealing team. The deal's result: the points of the games each
team won are added up (``team_points``; a void game counts 0) and, by
``partnership_netting``:

* ``per_deal`` (default): the team with more scores the difference (both
  games won: the sum; equal: nobody scores). A deal the team scores in is
  one **box** for it. The game ends when a team reaches the target.
* ``per_game`` (the Slovenian text): nothing is netted per deal; each team
  adds its ``team_points`` to its total, and each deal in which a team won
  a game is one box for it (both teams can box in one deal; a game won for
  0 points still counts, as a hand worth 0 is a box with two players). The
  game ends when a team's total reaches the target; when both reach it in
  the same deal the higher total wins, and on equal totals play goes on
  until a deal leaves one team ahead. The net is settled once at the end.

Under either, a deal record's ``winner``/``loser`` are the team with more
``team_points`` and the other (``None`` when equal) and ``points`` the
margin, and the next dealing team follows ``next_dealer`` at team level
from that deal winner (``winner``: the team with more, ``loser``: the
other, ``alternate``: the other team); when neither team has more (both
games void, or equal results) the same team deals again. In the sheet, a
deal's ``dealer`` and ``next_dealer`` are the player dealing game 1, and
``next_games`` gives the next deal's pairings and dealers.

Hollywood
---------
Two players only (RuleError otherwise). See :func:`score_sheet`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from .errors import InvalidValueError, RuleViolation
from .results import Outcome, Result, field_values
from .rules import Rules, is_whole_number

OUTCOMES = tuple(outcome for outcome in Outcome if outcome != Outcome.TIE)
"""The ``outcome`` values a hand entry may carry."""

TEAMS = ((0, 2), (1, 3))
"""The four-player partnerships: team 0 and team 1, as player indexes."""

COLUMNS = 3
"""The number of games scored at once with Hollywood scoring."""


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Entry(Result):
    """A two-player hand entry: a win (``winner``, ``loser``, ``points``, ``outcome``) or void.

    ``to_dict()`` is the entry as :func:`score_sheet` takes it:
    ``{"void": true}`` for a void hand, else the four keys of a win.
    """

    winner: int | None = None
    loser: int | None = None
    points: int = 0
    outcome: Outcome | None = None
    void: bool = False

    def to_dict(self) -> dict[str, Any]:
        """``{"void": True}``, or ``{"winner", "loser", "points", "outcome"}``."""
        if self.void:
            return {"void": True}
        return {
            "winner": self.winner,
            "loser": self.loser,
            "points": self.points,
            "outcome": None if self.outcome is None else self.outcome.value,
        }


@dataclass(frozen=True, slots=True)
class Payment(Result):
    """A settlement: ``payer`` pays ``payee`` ``amount`` (rounded half up to cents)."""

    payer: int
    payee: int
    amount: float


@dataclass(frozen=True, slots=True)
class GameResult(Result):
    """The end of one game (see :func:`score_sheet`); sides are players or teams."""

    winner: int
    loser: int | None
    losers: tuple[int, ...]
    totals: tuple[int, ...]
    game_bonus: int
    box_bonus: tuple[int, ...]
    shutout: bool
    final: tuple[int, ...]
    net: int
    nets: tuple[int, ...]
    stake: float | None
    settlement: Payment | tuple[Payment, ...] | None
    """null without a stake; else who pays whom: one payment, or with three players a list of two
    (each loser pays the winner)."""
    shut_out: tuple[int, ...] = ()
    """The losers who won no hand: the shutout doubling applies against each on its own (three
    players: see the sheet's rules).

    (Stored before this field existed, a result reads back with none.)"""


@dataclass(frozen=True, slots=True)
class HollywoodResult(Result):
    """The end of a Hollywood match (all three columns closed); a tie has no winner."""

    winner: int | None
    loser: int | None
    losers: tuple[int, ...]
    totals: tuple[int, ...]
    game_bonuses: tuple[int, ...]
    box_bonus: tuple[int, ...]
    shutouts: tuple[bool, ...]
    column_winners: tuple[int, ...]
    final: tuple[int, ...]
    net: int
    nets: tuple[int, ...]
    stake: float | None
    settlement: Payment | None


@dataclass(frozen=True, slots=True)
class HandBase(Result):
    """The start of every hand record: its number, its dealer and its score."""

    n: int
    dealer: int
    void: bool
    winner: int | None
    loser: int | None
    outcome: Outcome | None
    points: int


@dataclass(frozen=True, slots=True)
class HandRecord(HandBase):
    """A hand of a two-player game: the running totals after it."""

    totals: tuple[int, ...]
    game_over_after: bool


@dataclass(frozen=True, slots=True)
class ThreePlayerHandRecord(HandRecord):
    """A hand of a three-player game: also who sat out (the dealer)."""

    sits_out: int
    """Three players only: the dealer, who sat out."""


@dataclass(frozen=True, slots=True)
class HollywoodHandRecord(HandBase):
    """A Hollywood hand: the columns it went into, opened and closed."""

    columns: tuple[int, ...]
    """Hollywood only: the columns the points went into."""
    opened: int | None
    """Hollywood only: the column this win opened, if any."""
    closed: tuple[int, ...]
    """Hollywood only: the columns this hand closed."""
    totals: tuple[int, ...]
    column_totals: tuple[tuple[int, ...], ...]
    """Hollywood only: each column's totals after the hand."""
    game_over_after: bool


@dataclass(frozen=True, slots=True)
class GameSeat(Result):
    """One of the two games of a four-player deal: its players and its dealer."""

    game: int
    """1 or 2."""
    players: tuple[int, ...]
    dealer: int


@dataclass(frozen=True, slots=True)
class GameRecord(GameSeat):
    """One game of a four-player deal, scored."""

    void: bool
    winner: int | None
    loser: int | None
    outcome: Outcome | None
    points: int


@dataclass(frozen=True, slots=True)
class PartnershipHandRecord(Result):
    """A four-player deal: its two games and what the teams scored."""

    n: int
    dealer: int
    dealer_team: int
    """Four players only: the dealing team."""
    void: bool
    winner: int | None
    loser: int | None
    outcome: Outcome | None
    points: int
    team_points: tuple[int, ...]
    """Four players only: the points of the games each team won."""
    games: tuple[GameRecord, ...]
    """Four players only: the deal's two games."""
    totals: tuple[int, ...]
    game_over_after: bool


@dataclass(frozen=True, slots=True)
class Column(Result):
    """A Hollywood column: a game of its own."""

    game: int
    totals: tuple[int, ...]
    boxes: tuple[int, ...]
    opened: tuple[bool, ...]
    over: bool
    result: GameResult | None
    needed: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SheetHead(Result):
    """What every sheet starts with: players, every rule option, the scoring and the stake."""

    players: tuple[str, ...]
    rules: Mapping[str, Any]
    """Every rule option."""
    scoring: str
    stake: float | None


@dataclass(frozen=True, slots=True)
class Sheet(SheetHead):
    """A two- or three-player sheet (single scoring)."""

    hands: tuple[HandRecord | ThreePlayerHandRecord, ...]
    totals: tuple[int, ...]
    boxes: tuple[int, ...]
    needed: tuple[int, ...]
    next_dealer: int
    over: bool
    result: GameResult | None


@dataclass(frozen=True, slots=True)
class HollywoodSheet(SheetHead):
    """A Hollywood sheet: three columns scored at once."""

    hands: tuple[HollywoodHandRecord, ...]
    columns: tuple[Column, ...]
    """Hollywood only: the three columns, each a game of its own."""
    opened: tuple[tuple[int, ...], ...]
    """Hollywood only: per player, the columns opened."""
    totals: tuple[int, ...]
    boxes: tuple[int, ...]
    needed: tuple[int, ...]
    next_dealer: int
    over: bool
    result: HollywoodResult | None


@dataclass(frozen=True, slots=True)
class PartnershipSheet(SheetHead):
    """A four-player sheet: totals and the result per team."""

    teams: tuple[tuple[int, ...], ...]
    """Four players only: the partnerships, [[0, 2], [1, 3]]; totals, boxes, needed and the
    result are per team."""
    hands: tuple[PartnershipHandRecord, ...]
    totals: tuple[int, ...]
    boxes: tuple[int, ...]
    needed: tuple[int, ...]
    next_dealer: int
    next_games: tuple[GameSeat, ...]
    """Four players only: the next deal's two games, in the order a deal's games are
    entered."""
    over: bool
    result: GameResult | None


AnySheet = Sheet | HollywoodSheet | PartnershipSheet
"""What :func:`score_sheet` returns."""

AnyHandRecord = HandRecord | ThreePlayerHandRecord | HollywoodHandRecord | PartnershipHandRecord
"""A hand record of any sheet (each has ``n``, ``dealer``, ``points`` and ``totals``)."""


# --------------------------------------------------------------------------- public API


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
    * Four players: ``dealer`` and ``winner`` are **team** indexes (0 or 1)
      and the answer is the next dealing team; ``winner`` is the team that
      scored the deal, ``None`` when nobody did (then the same team deals).

    >>> next_dealer(None, 0, 1, False)
    1
    >>> next_dealer("standard", 0, 1, True)
    0
    >>> next_dealer(None, 2, 0, False, players=3)
    1
    >>> next_dealer({"three_player_dealer": "rotate"}, 2, 0, False, players=3)
    0
    """
    rules = Rules.from_dict(rules)
    sides = 2 if players == 4 else players
    if players not in (2, 3, 4):
        raise InvalidValueError(
            f"players must be 2, 3 or 4, not {players!r}",
            code="bad_value",
            params={"value": players},
            option="players",
        )
    if not is_whole_number(dealer) or not 0 <= dealer < sides:
        raise InvalidValueError(
            f"dealer must be an index 0..{sides - 1}, not {dealer!r}",
            code="bad_value",
            params={"value": dealer},
            option="dealer",
        )
    if void:
        return dealer
    if players == 4 and winner is None:
        return dealer
    if not is_whole_number(winner) or not 0 <= winner < sides:
        raise InvalidValueError(
            f"winner must be an index 0..{sides - 1}, not {winner!r}",
            code="bad_value",
            params={"value": winner},
            option="winner",
        )
    if players == 3:
        if winner == dealer:
            raise RuleViolation(
                "with three players the dealer sits out and cannot win",
                code="dealer_sits_out",
                option="winner",
            )
        if rules.three_player_dealer == "rotate":
            return (dealer + 1) % 3
        return 3 - dealer - winner
    if rules.next_dealer == "winner":
        return winner
    if rules.next_dealer == "loser":
        return 1 - winner
    return 1 - dealer


def score_sheet(
    hands: Sequence[Mapping[str, Any]],
    *,
    players: Sequence[str],
    rules: Rules | Mapping[str, Any] | str | None = None,
    dealer: int = 0,
    stake: float | None = None,
    after: Mapping[str, Any] | None = None,
) -> AnySheet:
    """Score a game (or a Hollywood match) from its hand entries.

    With ``after``, the entries continue a game already scored: ``after``
    is that sheet's ``to_dict()`` with ``hands`` replaced by their number
    (what :func:`summary` gives; ``dealer`` is then ignored, the next dealer
    is ``after``'s). The result is the sheet of the whole game except that
    ``hands`` holds only the new hands' records (numbered on from
    ``after``'s): adding hands costs the same however long the game is.

    ``players`` is a list of 2, 3 or 4 distinct names; ``rules`` a
    :class:`Rules` or anything :meth:`Rules.from_dict` accepts; ``dealer``
    the index of the first dealer; ``stake`` a per-point stake (a number
    >= 0) or ``None``. Hand entries are described in the module docstring.
    An entry after the game is over raises ``RuleError("the game is over
    after hand N ...")``.

    The result is typed (:class:`Sheet`, :class:`HollywoodSheet` or
    :class:`PartnershipSheet`); its ``to_dict()`` (two players, single
    scoring)::

        {"players", "rules": rules.to_dict(), "scoring", "stake",
         "hands": [{"n", "dealer", "void", "winner", "loser", "outcome",
                    "points", "totals", "game_over_after"}, ...],
         "totals", "boxes", "needed", "next_dealer", "over", "result"}

    ``totals`` are running totals without bonuses, ``boxes`` hands won,
    ``needed`` the points each still needs to reach the target (min 0).
    ``result`` is ``None`` until the game ends, then ``{"winner", "loser",
    "losers", "totals", "game_bonus", "box_bonus" (per player), "shutout",
    "shut_out" (the losers who won no hand),
    "final" (per player), "net", "nets" (per player, zero-sum: what each
    gains (+) or pays (-) in points), "stake", "settlement"}`` with
    ``settlement`` ``None`` or ``{"payer", "payee", "amount"}``.

    Three players: the same shape, hand records add ``sits_out`` (the
    dealer) and ``result.settlement`` is ``None`` or a list of two
    payments. Four players: totals etc. per team, plus ``teams``,
    ``next_games``, and per hand ``dealer_team``, ``games`` (each with
    ``game``, ``players``, ``dealer``, ``void``, ``winner``, ``loser``,
    ``outcome``, ``points``) and ``team_points``; the hand's ``winner`` /
    ``loser`` are teams and ``outcome`` is ``None``.

    Hollywood (``rules.scoring == "hollywood"``, two players): each hand a
    player wins opens for that player the lowest-numbered open column they
    have not opened yet, and the points go into every open column the
    player has opened; each column is a game of its own (own totals, boxes,
    bonuses and shutout) that closes when a player reaches the target
    there. Adds ``columns`` (three dicts ``{"game", "totals", "boxes",
    "needed", "opened" (per player: has opened it), "over", "result"}``)
    and ``opened`` (per player, the columns opened); hand records add
    ``columns`` (where the points went), ``opened`` (the column this win
    opened, or ``None``), ``closed`` (columns this hand closed) and
    ``column_totals``. Top-level ``totals`` sum the three columns, ``boxes``
    count hands won, ``needed`` is, per player, the fewest points that would
    close some open column. The match is over when all three columns are
    closed; ``result`` then has ``winner``/``loser`` (the better sum of
    finals; both ``None`` on a tie, with no settlement), ``losers``,
    ``totals``, ``game_bonuses`` and ``box_bonus`` (per player, summed over
    columns), ``shutouts`` and ``column_winners`` (per column), ``final``
    (per player sum of the columns' finals), ``net``, ``nets``, ``stake``
    and ``settlement`` (the match net x stake, rounded once).
    """
    rules = Rules.from_dict(rules)
    names = _check_players(players)
    count = len(names)
    if not is_whole_number(dealer) or not 0 <= dealer < count:
        raise InvalidValueError(
            f"dealer must be a player index 0..{count - 1}, not {dealer!r}",
            code="bad_value",
            params={"value": dealer},
            option="dealer",
        )
    stake = _check_stake(stake)
    if isinstance(hands, (str, bytes, Mapping)) or not isinstance(hands, Sequence):
        raise InvalidValueError(
            "hands must be a list of hand entries", code="bad_value", option="hands"
        )
    if rules.scoring == "hollywood" and count != 2:
        raise RuleViolation(
            "Hollywood scoring is for two players only",
            code="hollywood_two_players",
            option="scoring",
        )
    head = {
        "players": tuple(names),
        "rules": rules.to_dict(),
        "scoring": rules.scoring,
        "stake": stake,
    }
    start = _Start.of(after, dealer, count)
    if count == 4:
        return _score_partnership(hands, names, rules, start, stake, head)
    if rules.scoring == "hollywood":
        return _score_hollywood(hands, names, rules, start, stake, head, after)
    return _score_single(hands, names, rules, start, stake, head)


def summary(sheet: AnySheet, count: int) -> dict[str, Any]:
    """``sheet.to_dict()`` with ``hands`` replaced by ``count`` (the game's number of hands).

    What :func:`score_sheet` takes as ``after`` to go on scoring that game.
    """
    return {**sheet.to_dict(), "hands": count}


@dataclass(slots=True)
class _Start:
    """Where scoring starts: hands before, the sides' totals and boxes, the dealer, the end."""

    before: int
    totals: list[int]
    boxes: list[int]
    dealer: int
    result: GameResult | None

    @classmethod
    def of(cls, after: Mapping[str, Any] | None, dealer: int, count: int) -> _Start:
        """The start of a new game (``after`` None) or of hands following ``after``."""
        sides = 2 if count == 4 else count
        if after is None:
            return cls(0, [0] * sides, [0] * sides, dealer, None)
        result = after["result"]
        if after["scoring"] == "hollywood":  # the match result: the columns hold the games'
            result = None
        return cls(
            after["hands"],
            list(after["totals"]),
            list(after["boxes"]),
            after["next_dealer"],
            None if result is None else GameResult.from_dict(result),
        )

    @property
    def ended(self) -> int | None:
        """The hand that ended the game, if it is over (no hand can follow it)."""
        return self.before if self.result is not None else None


# --------------------------------------------------------------------------- scoring


def _score_single(
    hands: Sequence[Any],
    names: list[str],
    rules: Rules,
    start: _Start,
    stake: float | None,
    head: dict[str, Any],
) -> Sheet:
    count = len(names)
    totals, boxes, dealer, result, ended = (
        start.totals,
        start.boxes,
        start.dealer,
        start.result,
        start.ended,
    )
    records: list[HandRecord] = []
    for n, entry in enumerate(hands, start.before + 1):
        if result is not None:
            who = names[result.winner]
            raise RuleViolation(
                f"the game is over after hand {ended} ({who} reached the target of"
                f" {rules.target}); hand {n} cannot be entered",
                code="game_over",
                params={"after": ended, "hand": n},
                option="hands",
            )
        seats = (0, 1) if count == 2 else tuple(p for p in range(3) if p != dealer)
        hand = _parse_hand(
            entry,
            f"hand {n}",
            rules,
            names,
            seats,
            need_loser=count == 3,
            sitting_out=dealer if count == 3 else None,
        )
        winner = hand.winner
        if winner is not None:
            totals[winner] += hand.points
            boxes[winner] += 1
        over = max(totals) >= rules.target
        record = {
            "n": n,
            "dealer": dealer,
            **field_values(hand),
            "totals": tuple(totals),
            "game_over_after": over,
        }
        records.append(
            ThreePlayerHandRecord(**record, sits_out=dealer) if count == 3 else HandRecord(**record)
        )
        if over and winner is not None:
            ended = n
            result = _result(rules, totals, boxes, winner, stake)
        dealer = next_dealer(rules, dealer, winner, hand.void, players=count)
    return Sheet(
        **head,
        hands=tuple(records),
        totals=tuple(totals),
        boxes=tuple(boxes),
        needed=_needed(rules, totals),
        next_dealer=dealer,
        over=result is not None,
        result=result,
    )


def _score_hollywood(
    hands: Sequence[Any],
    names: list[str],
    rules: Rules,
    start: _Start,
    stake: float | None,
    head: dict[str, Any],
    after: Mapping[str, Any] | None,
) -> HollywoodSheet:
    earlier = after["columns"] if after is not None else [None] * COLUMNS
    totals = [list(col["totals"]) if col else [0, 0] for col in earlier]
    col_boxes = [list(col["boxes"]) if col else [0, 0] for col in earlier]
    opened_by = [list(col["opened"]) if col else [False, False] for col in earlier]
    results: list[GameResult | None] = [
        GameResult.from_dict(col["result"]) if col and col["result"] else None for col in earlier
    ]
    boxes, dealer = start.boxes, start.dealer
    records: list[HollywoodHandRecord] = []
    ended = start.before if after is not None and after["over"] else None
    for n, entry in enumerate(hands, start.before + 1):
        if ended is not None:
            raise RuleViolation(
                f"the game is over after hand {ended} (all three Hollywood columns are"
                f" closed); hand {n} cannot be entered",
                code="game_over",
                params={"after": ended, "hand": n},
                option="hands",
            )
        hand = _parse_hand(entry, f"hand {n}", rules, names, (0, 1))
        entered: list[int] = []
        opened = None
        closed: list[int] = []
        winner = hand.winner
        if winner is not None:
            boxes[winner] += 1
            opened = next(
                (c for c in range(COLUMNS) if results[c] is None and not opened_by[c][winner]), None
            )
            if opened is not None:
                opened_by[opened][winner] = True
            entered = [c for c in range(COLUMNS) if results[c] is None and opened_by[c][winner]]
            for c in entered:
                totals[c][winner] += hand.points
                col_boxes[c][winner] += 1
                if totals[c][winner] >= rules.target:
                    results[c] = _result(rules, totals[c], col_boxes[c], winner, stake)
                    closed.append(c)
        over = all(r is not None for r in results)
        records.append(
            HollywoodHandRecord(
                n=n,
                dealer=dealer,
                **field_values(hand),
                columns=tuple(entered),
                opened=opened,
                closed=tuple(closed),
                totals=_sum_rows(totals),
                column_totals=tuple(tuple(row) for row in totals),
                game_over_after=over,
            )
        )
        if over:
            ended = n
        dealer = next_dealer(rules, dealer, winner, hand.void)
    columns = tuple(
        Column(
            game=c + 1,
            totals=tuple(totals[c]),
            boxes=tuple(col_boxes[c]),
            opened=tuple(opened_by[c]),
            over=results[c] is not None,
            result=results[c],
            needed=(0, 0) if results[c] is not None else _needed(rules, totals[c]),
        )
        for c in range(COLUMNS)
    )
    open_needs = [col.needed for col in columns if not col.over]
    needed = tuple(min(need[p] for need in open_needs) for p in (0, 1)) if open_needs else (0, 0)
    finished = [r for r in results if r is not None]
    result = _match_result(finished, stake) if ended is not None else None
    return HollywoodSheet(
        **head,
        hands=tuple(records),
        columns=columns,
        opened=tuple(tuple(c for c in range(COLUMNS) if opened_by[c][p]) for p in (0, 1)),
        totals=_sum_rows(totals),
        boxes=tuple(boxes),
        needed=needed,
        next_dealer=dealer,
        over=result is not None,
        result=result,
    )


def _score_partnership(
    hands: Sequence[Any],
    names: list[str],
    rules: Rules,
    start: _Start,
    stake: float | None,
    head: dict[str, Any],
) -> PartnershipSheet:
    team_of = _team_of()
    deal_team = team_of[start.dealer]
    totals, boxes, result, ended = start.totals, start.boxes, start.result, start.ended
    records: list[PartnershipHandRecord] = []
    for n, entry in enumerate(hands, start.before + 1):
        if result is not None:
            who = " and ".join(names[p] for p in TEAMS[result.winner])
            raise RuleViolation(
                f"the game is over after hand {ended} ({who} reached the target of"
                f" {rules.target}); hand {n} cannot be entered",
                code="game_over",
                params={"after": ended, "hand": n},
                option="hands",
            )
        games = _deal_games(n - 1, deal_team)
        parsed = _parse_deal(entry, n, rules, names, games)
        team_points = [0, 0]
        won = [False, False]
        for game in parsed:
            if game.winner is not None:
                team_points[team_of[game.winner]] += game.points
                won[team_of[game.winner]] = True
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
        records.append(
            PartnershipHandRecord(
                n=n,
                dealer=games[0].dealer,
                dealer_team=deal_team,
                void=all(game.void for game in parsed),
                winner=scorer,
                loser=None if scorer is None else 1 - scorer,
                outcome=None,
                points=abs(diff),
                team_points=tuple(team_points),
                games=parsed,
                totals=tuple(totals),
                game_over_after=game_winner is not None,
            )
        )
        if game_winner is not None:
            ended = n
            result = _result(rules, totals, boxes, game_winner, stake)
        deal_team = next_dealer(rules, deal_team, scorer, False, players=4)
    upcoming = _deal_games(start.before + len(records), deal_team)
    return PartnershipSheet(
        **head,
        teams=TEAMS,
        hands=tuple(records),
        totals=tuple(totals),
        boxes=tuple(boxes),
        needed=_needed(rules, totals),
        next_dealer=upcoming[0].dealer,
        next_games=upcoming,
        over=result is not None,
        result=result,
    )


def _result(
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


def _match_result(columns: Sequence[GameResult], stake: float | None) -> HollywoodResult:
    """The Hollywood match once all three columns are closed (their results given)."""
    final = _sum_rows([col.final for col in columns])
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
        totals=_sum_rows([col.totals for col in columns]),
        game_bonuses=tuple(game_bonuses),
        box_bonus=_sum_rows([col.box_bonus for col in columns]),
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


def _sum_rows(rows: Sequence[Sequence[int]]) -> tuple[int, int]:
    """Per player, the sum over the columns' rows."""
    return (sum(row[0] for row in rows), sum(row[1] for row in rows))


def _needed(rules: Rules, totals: Sequence[int]) -> tuple[int, ...]:
    return tuple(max(0, rules.target - t) for t in totals)


def _team_of() -> list[int]:
    team_of = [0] * 4
    for t, team in enumerate(TEAMS):
        for p in team:
            team_of[p] = t
    return team_of


def _deal_games(index: int, deal_team: int) -> tuple[GameSeat, ...]:
    """The two games of deal ``index`` (0-based): players and dealer of each."""
    opponents = (1, 3) if index % 2 == 0 else (3, 1)
    return tuple(
        GameSeat(game=number, players=(own, other), dealer=own if deal_team == 0 else other)
        for number, (own, other) in enumerate(zip(TEAMS[0], opponents, strict=True), 1)
    )


# --------------------------------------------------------------------------- validation


def _check_players(players: Any) -> list[str]:
    if isinstance(players, (str, bytes, Mapping)) or not isinstance(players, Sequence):
        raise InvalidValueError(
            "players must be a list of 2, 3 or 4 names", code="bad_players", option="players"
        )
    names = list(players)
    if len(names) not in (2, 3, 4):
        raise InvalidValueError(
            f"players must be a list of 2, 3 or 4 names, not {len(names)}",
            code="bad_players",
            option="players",
        )
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise InvalidValueError(
                f"player {i} must have a non-empty name, not {name!r}",
                code="bad_players",
                option="players",
            )
    if len(set(names)) != len(names):
        raise InvalidValueError(
            "player names must be distinct", code="bad_players", option="players"
        )
    return names


def _check_stake(stake: Any) -> float | None:
    if stake is None:
        return None
    if (
        not isinstance(stake, (int, float))
        or isinstance(stake, bool)
        or not math.isfinite(stake)
        or stake < 0
    ):
        raise InvalidValueError(
            f"stake must be a number >= 0 or null, not {stake!r}",
            code="bad_value",
            params={"value": stake},
            option="stake",
        )
    return stake


def check_seat(
    value: Any,
    key: str,
    names: Sequence[str],
    seats: Sequence[int],
    sitting_out: int | None = None,
    *,
    label: str = "",
) -> int:
    """``value`` as the index of a player of a hand, or a :class:`RuleError` naming ``key``.

    It must be a player index (``bad_value``), not the three-player dealer
    ``sitting_out`` (``dealer_sits_out``) and one of the hand's two
    ``seats`` (``not_in_this_game``); ``label`` (``hand 3``) starts the
    message.
    """
    where = f"{label}: " if label else ""
    if not is_whole_number(value) or not 0 <= value < len(names):
        raise InvalidValueError(
            f"{where}{key} must be a player index 0..{len(names) - 1}, not {value!r}",
            code="bad_value",
            params={"value": value},
            option=key,
        )
    if value == sitting_out:
        raise RuleViolation(
            f"{where}{key} {names[value]} deals this hand and sits out",
            code="dealer_sits_out",
            params={"player": names[value]},
            option=key,
        )
    if value not in seats:
        raise RuleViolation(
            f"{where}{key} must be {names[seats[0]]} ({seats[0]}) or"
            f" {names[seats[1]]} ({seats[1]}), who play this game",
            code="not_in_this_game",
            params={"player": names[value]},
            option=key,
        )
    return value


def _parse_deal(
    entry: Any, n: int, rules: Rules, names: list[str], games: Sequence[GameSeat]
) -> tuple[GameRecord, ...]:
    """The two games of a four-player deal entry, each parsed and annotated."""
    label = f"hand {n}"
    if not isinstance(entry, Mapping):
        raise InvalidValueError(
            f"{label}: an entry must be an object", code="bad_value", option="hands"
        )
    raw = entry.get("games")
    if raw is None:
        if entry.get("void") is True:
            raw = [{"void": True}, {"void": True}]
        else:
            raise InvalidValueError(
                f"{label}: a four-player entry needs games: [game 1, game 2] (or void: true)",
                code="missing_value",
                option="games",
            )
    if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence) or len(raw) != 2:
        raise InvalidValueError(
            f"{label}: games must be a list of two entries, one per game",
            code="bad_value",
            option="games",
        )
    parsed = tuple(
        GameRecord(
            **field_values(game),
            **field_values(
                _parse_hand(sub, f"{label}, game {game.game}", rules, names, game.players)
            ),
        )
        for game, sub in zip(games, raw, strict=True)
    )
    if entry.get("void") is True and not all(g.void for g in parsed):
        raise InvalidValueError(
            f"{label}: a void deal cannot have a game result", code="bad_value", option="void"
        )
    return parsed


def _parse_hand(
    entry: Any,
    label: str,
    rules: Rules,
    names: list[str],
    seats: tuple[int, ...],
    need_loser: bool = False,
    sitting_out: int | None = None,
) -> Entry:
    """One two-player hand entry, checked, as an :class:`Entry` (the loser filled in).

    ``seats`` are the two players of the hand; ``sitting_out`` the three-player dealer.
    """
    if not isinstance(entry, Mapping):
        raise InvalidValueError(
            f"{label}: an entry must be an object", code="bad_value", option="hands"
        )
    if entry.get("games") is not None:
        raise InvalidValueError(
            f"{label}: only a four-player deal entry has games", code="bad_value", option="games"
        )
    void = entry.get("void", False)
    if not isinstance(void, bool):
        raise InvalidValueError(
            f"{label}: void must be true or false, not {void!r}",
            code="bad_value",
            params={"value": void},
            option="void",
        )
    if void:
        for key in ("winner", "loser", "outcome"):
            if entry.get(key) is not None:
                raise InvalidValueError(
                    f"{label}: a void hand has no {key}", code="bad_value", option=key
                )
        if entry.get("points") not in (None, 0):
            raise InvalidValueError(
                f"{label}: a void hand scores no points", code="bad_value", option="points"
            )
        return Entry(void=True)

    def seat(key: str) -> int:
        if key not in entry or entry[key] is None:
            raise InvalidValueError(f"{label}: {key} is missing", code="missing_value", option=key)
        return check_seat(entry[key], key, names, seats, sitting_out, label=label)

    winner = seat("winner")
    other = seats[1] if winner == seats[0] else seats[0]
    if entry.get("loser") is None and not need_loser:
        loser = other
    else:
        loser = seat("loser")
        if loser == winner:
            raise InvalidValueError(
                f"{label}: loser must not be the winner", code="bad_value", option="loser"
            )
    if "outcome" not in entry or entry["outcome"] is None:
        raise InvalidValueError(
            f"{label}: outcome is missing", code="missing_value", option="outcome"
        )
    outcome = entry["outcome"]
    if outcome not in OUTCOMES:
        raise InvalidValueError(
            f"{label}: outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}",
            code="bad_value",
            params={"value": outcome},
            option="outcome",
        )
    if "points" not in entry or entry["points"] is None:
        raise InvalidValueError(
            f"{label}: points is missing", code="missing_value", option="points"
        )
    points = entry["points"]
    if not is_whole_number(points) or points < 0:
        raise InvalidValueError(
            f"{label}: points must be a whole number >= 0, not {points!r}",
            code="bad_value",
            params={"value": points},
            option="points",
        )
    if outcome == "big_gin" and rules.big_gin_bonus is None:
        raise RuleViolation(
            f"{label}: big gin is not allowed under these rules (big_gin_bonus is null)",
            code="big_gin_not_allowed",
            option="outcome",
        )
    if outcome in ("knock", "undercut") and rules.knock_limit == 0:
        raise RuleViolation(
            f"{label}: with knock limit 0 only gin ends a hand, not {outcome}",
            code="gin_only",
            params={"outcome": outcome},
            option="outcome",
        )
    least = {
        "knock": 1,
        "gin": rules.gin_bonus,
        "undercut": rules.undercut_bonus,
        "big_gin": rules.big_gin_bonus or 0,
    }[outcome]  # None was refused above
    if points < least:
        raise RuleViolation(
            f"{label}: points {points} are too few for"
            f" {outcome.replace('_', ' ')} (at least {least})",
            code="too_few_points",
            params={"points": points, "least": least, "outcome": outcome},
            option="points",
        )
    return Entry(winner=winner, loser=loser, points=points, outcome=Outcome(outcome))
