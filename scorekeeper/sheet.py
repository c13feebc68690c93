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
:func:`~scorekeeper.match_scoring.deal_entry` gives); its ``to_dict()`` is the
entry to pass in.

Hand entries
------------
* ``{"void": True}``: a void hand (the stock ran out); nobody scores, it is
  no box, and the same dealer deals again.
* ``{"outcome": "tie"}`` (``points`` 0 or left out, no ``winner`` or
  ``loser``): a tied knock under ``tie: no_score`` (section 6). It is a hand
  played, not a void hand: nobody scores, it is no box, and the same dealer
  deals again unless ``next_dealer`` is ``alternate`` (three players: under
  ``three_player_dealer: rotate`` the deal moves on). Under ``tie:
  undercut`` a tie is an undercut and this entry is refused.
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
margin. The deal passes from team to team after every deal (a void deal
included), whatever ``next_dealer`` says (section 8: in each pairing a
player of the dealing team deals). In the sheet, a deal's ``dealer`` and
``next_dealer`` are the player dealing game 1, and ``next_games`` gives the
next deal's pairings and dealers.

Hollywood
---------
Two players only (RuleError otherwise). See the sheet's JSON below.

The sheet's JSON
----------------
:func:`score_sheet`'s result is typed (:class:`Sheet`,
:class:`HollywoodSheet` or :class:`PartnershipSheet`); its ``to_dict()``
(two players, single scoring)::

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

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .entries import check_players, check_seat, check_stake
from .errors import InvalidValueError, RuleViolation
from .paper import (
    COLUMNS,
    OUTCOMES,
    TEAMS,
    AnyHandRecord,
    AnySheet,
    Column,
    Entry,
    GameRecord,
    GameResult,
    GameSeat,
    HandBase,
    HandRecord,
    HollywoodHandRecord,
    HollywoodResult,
    HollywoodSheet,
    PartnershipHandRecord,
    PartnershipSheet,
    Payment,
    Sheet,
    SheetHead,
    ThreePlayerHandRecord,
)
from .rules import Rules
from .settle import check_index, next_dealer
from .tally import GameState, advance

__all__ = [
    "COLUMNS",
    "OUTCOMES",
    "TEAMS",
    "AnyHandRecord",
    "AnySheet",
    "Column",
    "Entry",
    "GameRecord",
    "GameResult",
    "GameSeat",
    "HandBase",
    "HandRecord",
    "HollywoodHandRecord",
    "HollywoodResult",
    "HollywoodSheet",
    "PartnershipHandRecord",
    "PartnershipSheet",
    "Payment",
    "Sheet",
    "SheetHead",
    "ThreePlayerHandRecord",
    "check_dealer",
    "check_seat",
    "check_start",
    "next_dealer",
    "score_sheet",
    "summary",
]
"""The sheet's vocabulary (:mod:`scorekeeper.paper`) is read from here too."""


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
    :class:`PartnershipSheet`); its ``to_dict()`` is described in the module
    docs (the sheet's JSON).
    """
    rules = Rules.from_dict(rules)
    names = check_players(players)
    check_dealer(dealer, len(names))
    stake = check_stake(stake)
    if isinstance(hands, (str, bytes, Mapping)) or not isinstance(hands, Sequence):
        raise InvalidValueError(
            "hands must be a list of hand entries", code="bad_value", option="hands"
        )
    _check_scoring(rules, len(names))
    if after is None:
        state = GameState.start(rules, names, dealer, stake)
    else:
        state = GameState.resume(after, names, stake)
    records = []
    for entry in hands:
        record, state = advance(rules, state, entry)
        records.append(record)
    return state.sheet(rules, records)


def check_start(players: Sequence[str], rules: Rules, dealer: Any, stake: Any) -> None:
    """Refuse a new game's settings as :func:`score_sheet` would (same errors, same order)
    without scoring its empty sheet."""
    check_dealer(dealer, len(check_players(players)))
    check_stake(stake)
    _check_scoring(rules, len(players))


def check_dealer(dealer: Any, count: int) -> None:
    """Refuse a first ``dealer`` that is not a player index of a game of ``count``."""
    check_index(dealer, count, "dealer", "a player index")


def _check_scoring(rules: Rules, count: int) -> None:
    if rules.scoring == "hollywood" and count != 2:
        raise RuleViolation(
            "Hollywood scoring is for two players only",
            code="hollywood_two_players",
            option="scoring",
        )


def summary(sheet: AnySheet, count: int) -> dict[str, Any]:
    """``sheet.to_dict()`` with ``hands`` replaced by ``count`` (the game's number of hands).

    What :func:`score_sheet` takes as ``after`` to go on scoring that game.
    """
    return {**sheet.to_dict(), "hands": count}
