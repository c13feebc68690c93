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
JSON-ready dict; :func:`next_dealer` is the dealer rotation on its own.

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
``winner`` and a ``loser``, neither of them the dealer. The loser deals the
next hand whatever the ``next_dealer`` option says (section 8); after a void
hand the same dealer deals again. Each player keeps an own total and boxes;
the first to reach the target wins the game and gets the game bonus;
everybody gets the box bonus for each hand won. The game is a shutout only
if neither loser won a hand. Each loser settles with the winner on their own
difference (``winner final - loser final``): ``result["loser"]`` is ``None``,
``result["losers"]`` lists both, ``result["net"]`` is the sum of the two
differences and ``result["settlement"]`` (with a stake) a list of two
payments.

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
team won are added up and the team with more scores the difference (both
games won: the sum; equal: nobody scores); a void game counts 0. A deal
the team scores in is one **box** for it. The next dealing team follows
``next_dealer`` at team level (``winner``: the team that scored,
``loser``: the other, ``alternate``: the other team); when nobody scored
(both games void, or equal results) the same team deals again. In the sheet,
a deal's ``dealer`` and ``next_dealer`` are the player dealing game 1, and
``next_games`` gives the next deal's pairings and dealers.

Hollywood
---------
Two players only (RuleError otherwise). See :func:`score_sheet`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from .errors import InvalidValueError, RuleViolation
from .rules import Rules, is_whole_number

OUTCOMES = ("knock", "gin", "big_gin", "undercut")
"""The ``outcome`` values a hand entry may carry."""

TEAMS = ((0, 2), (1, 3))
"""The four-player partnerships: team 0 and team 1, as player indexes."""

COLUMNS = 3
"""The number of games scored at once with Hollywood scoring."""


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
    * Three players: the loser deals (the seat that is neither ``dealer``
      nor ``winner``), whatever ``rules.next_dealer`` says.
    * Four players: ``dealer`` and ``winner`` are **team** indexes (0 or 1)
      and the answer is the next dealing team; ``winner`` is the team that
      scored the deal, ``None`` when nobody did (then the same team deals).

    >>> next_dealer(None, 0, 1, False)
    1
    >>> next_dealer("standard", 0, 1, True)
    0
    >>> next_dealer(None, 2, 0, False, players=3)
    1
    """
    rules = Rules.from_dict(rules)
    sides = 2 if players == 4 else players
    if players not in (2, 3, 4):
        raise InvalidValueError(f"players must be 2, 3 or 4, not {players!r}",
                                code="bad_value", params={"value": players}, option="players")
    if not is_whole_number(dealer) or not 0 <= dealer < sides:
        raise InvalidValueError(f"dealer must be an index 0..{sides - 1}, not {dealer!r}",
                                code="bad_value", params={"value": dealer}, option="dealer")
    if void:
        return dealer
    if players == 4 and winner is None:
        return dealer
    if not is_whole_number(winner) or not 0 <= winner < sides:
        raise InvalidValueError(f"winner must be an index 0..{sides - 1}, not {winner!r}",
                                code="bad_value", params={"value": winner}, option="winner")
    if players == 3:
        if winner == dealer:
            raise RuleViolation("with three players the dealer sits out and cannot win",
                                code="dealer_sits_out", option="winner")
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
) -> dict[str, Any]:
    """Score a game (or a Hollywood match) from its hand entries.

    ``players`` is a list of 2, 3 or 4 distinct names; ``rules`` a
    :class:`Rules` or anything :meth:`Rules.from_dict` accepts; ``dealer``
    the index of the first dealer; ``stake`` a per-point stake (a number
    >= 0) or ``None``. Hand entries are described in the module docstring.
    An entry after the game is over raises ``RuleError("the game is over
    after hand N ...")``.

    The result (two players, single scoring)::

        {"players", "rules": rules.to_dict(), "scoring", "stake",
         "hands": [{"n", "dealer", "void", "winner", "loser", "outcome",
                    "points", "totals", "game_over_after"}, ...],
         "totals", "boxes", "needed", "next_dealer", "over", "result"}

    ``totals`` are running totals without bonuses, ``boxes`` hands won,
    ``needed`` the points each still needs to reach the target (min 0).
    ``result`` is ``None`` until the game ends, then ``{"winner", "loser",
    "losers", "totals", "game_bonus", "box_bonus" (per player), "shutout",
    "final" (per player), "net", "nets" (per player, zero-sum: what each
    gains (+) or pays (-) in points), "stake", "settlement"}`` with
    ``settlement`` ``None`` or ``{"payer", "payee", "amount"}``.

    Three players: the same shape, hand records add ``sits_out`` (the
    dealer) and ``result["settlement"]`` is ``None`` or a list of two
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
        raise InvalidValueError(f"dealer must be a player index 0..{count - 1}, not {dealer!r}",
                                code="bad_value", params={"value": dealer}, option="dealer")
    stake = _check_stake(stake)
    if isinstance(hands, (str, bytes, Mapping)) or not isinstance(hands, Sequence):
        raise InvalidValueError("hands must be a list of hand entries",
                                code="bad_value", option="hands")
    if rules.scoring == "hollywood" and count != 2:
        raise RuleViolation("Hollywood scoring is for two players only",
                            code="hollywood_two_players", option="scoring")
    head = {"players": names, "rules": rules.to_dict(), "scoring": rules.scoring,
            "stake": stake}
    if count == 4:
        return head | _score_partnership(hands, names, rules, dealer, stake)
    if rules.scoring == "hollywood":
        return head | _score_hollywood(hands, names, rules, dealer, stake)
    return head | _score_single(hands, names, rules, dealer, stake)


# --------------------------------------------------------------------------- scoring


def _score_single(hands, names, rules, dealer, stake):
    count = len(names)
    totals = [0] * count
    boxes = [0] * count
    records = []
    result = None
    ended = None
    for n, entry in enumerate(hands, 1):
        if ended is not None:
            who = names[result["winner"]]
            raise RuleViolation(
                f"the game is over after hand {ended} ({who} reached the target of"
                f" {rules.target}); hand {n} cannot be entered",
                code="game_over", params={"after": ended, "hand": n}, option="hands")
        seats = (0, 1) if count == 2 else tuple(p for p in range(3) if p != dealer)
        hand = _parse_hand(entry, f"hand {n}", rules, names, seats,
                           need_loser=count == 3, sitting_out=dealer if count == 3 else None)
        if not hand["void"]:
            totals[hand["winner"]] += hand["points"]
            boxes[hand["winner"]] += 1
        over = max(totals) >= rules.target
        record = {"n": n, "dealer": dealer, **hand, "totals": list(totals),
                  "game_over_after": over}
        if count == 3:
            record["sits_out"] = dealer
        records.append(record)
        if over:
            ended = n
            result = _result(rules, totals, boxes, hand["winner"], stake)
        dealer = next_dealer(rules, dealer, hand["winner"], hand["void"], players=count)
    return {"hands": records, "totals": totals, "boxes": boxes,
            "needed": _needed(rules, totals), "next_dealer": dealer,
            "over": result is not None, "result": result}


def _score_hollywood(hands, names, rules, dealer, stake):
    columns = [{"game": c + 1, "totals": [0, 0], "boxes": [0, 0], "opened": [False, False],
                "over": False, "result": None} for c in range(COLUMNS)]
    boxes = [0, 0]
    records = []
    ended = None
    for n, entry in enumerate(hands, 1):
        if ended is not None:
            raise RuleViolation(
                f"the game is over after hand {ended} (all three Hollywood columns are"
                f" closed); hand {n} cannot be entered",
                code="game_over", params={"after": ended, "hand": n}, option="hands")
        hand = _parse_hand(entry, f"hand {n}", rules, names, (0, 1))
        entered, opened, closed = [], None, []
        winner = hand["winner"]
        if not hand["void"]:
            boxes[winner] += 1
            opened = next((c for c, col in enumerate(columns)
                           if not col["over"] and not col["opened"][winner]), None)
            if opened is not None:
                columns[opened]["opened"][winner] = True
            entered = [c for c, col in enumerate(columns)
                       if not col["over"] and col["opened"][winner]]
            for c in entered:
                col = columns[c]
                col["totals"][winner] += hand["points"]
                col["boxes"][winner] += 1
                if col["totals"][winner] >= rules.target:
                    col["over"] = True
                    col["result"] = _result(rules, col["totals"], col["boxes"], winner, stake)
                    closed.append(c)
        over = all(col["over"] for col in columns)
        records.append({"n": n, "dealer": dealer, **hand, "columns": entered, "opened": opened,
                        "closed": closed, "totals": _sum_columns(columns, "totals"),
                        "column_totals": [list(col["totals"]) for col in columns],
                        "game_over_after": over})
        if over:
            ended = n
        dealer = next_dealer(rules, dealer, winner, hand["void"])
    for col in columns:
        col["needed"] = [0, 0] if col["over"] else _needed(rules, col["totals"])
    open_needs = [col["needed"] for col in columns if not col["over"]]
    needed = [min(need[p] for need in open_needs) for p in (0, 1)] if open_needs else [0, 0]
    result = _match_result(columns, stake) if ended is not None else None
    return {"hands": records, "columns": columns,
            "opened": [[c for c, col in enumerate(columns) if col["opened"][p]] for p in (0, 1)],
            "totals": _sum_columns(columns, "totals"), "boxes": boxes, "needed": needed,
            "next_dealer": dealer, "over": result is not None, "result": result}


def _score_partnership(hands, names, rules, dealer, stake):
    team_of = _team_of()
    deal_team = team_of[dealer]
    totals = [0, 0]
    boxes = [0, 0]
    records = []
    result = None
    ended = None
    for n, entry in enumerate(hands, 1):
        if ended is not None:
            who = " and ".join(names[p] for p in TEAMS[result["winner"]])
            raise RuleViolation(
                f"the game is over after hand {ended} ({who} reached the target of"
                f" {rules.target}); hand {n} cannot be entered",
                code="game_over", params={"after": ended, "hand": n}, option="hands")
        games = _deal_games(n - 1, deal_team)
        parsed = _parse_deal(entry, n, rules, names, games)
        team_points = [0, 0]
        for game in parsed:
            if not game["void"]:
                team_points[team_of[game["winner"]]] += game["points"]
        diff = team_points[0] - team_points[1]
        scorer = None if diff == 0 else (0 if diff > 0 else 1)
        if scorer is not None:
            totals[scorer] += abs(diff)
            boxes[scorer] += 1
        over = max(totals) >= rules.target
        records.append({
            "n": n, "dealer": games[0]["dealer"], "dealer_team": deal_team,
            "void": all(game["void"] for game in parsed),
            "winner": scorer, "loser": None if scorer is None else 1 - scorer,
            "outcome": None, "points": abs(diff), "team_points": team_points,
            "games": parsed, "totals": list(totals), "game_over_after": over})
        if over:
            ended = n
            result = _result(rules, totals, boxes, scorer, stake)
        deal_team = next_dealer(rules, deal_team, scorer, False, players=4)
    upcoming = _deal_games(len(records), deal_team)
    return {"teams": [list(team) for team in TEAMS], "hands": records, "totals": totals,
            "boxes": boxes, "needed": _needed(rules, totals),
            "next_dealer": upcoming[0]["dealer"], "next_games": upcoming,
            "over": result is not None, "result": result}


def _result(rules, totals, boxes, winner, stake):
    """The end of a game won by side ``winner``: bonuses, finals, net, settlement."""
    sides = len(totals)
    losers = [p for p in range(sides) if p != winner]
    shutout = all(boxes[p] == 0 for p in losers)
    game_bonus = rules.game_bonus
    if shutout and rules.shutout == "double_bonus":
        game_bonus *= 2
    box_bonus = [rules.box_bonus * b for b in boxes]
    final = [t + b for t, b in zip(totals, box_bonus, strict=True)]
    final[winner] += game_bonus
    if shutout and rules.shutout == "double_total":
        final[winner] *= 2
    differences = {p: final[winner] - final[p] for p in losers}
    nets = [-differences.get(p, 0) for p in range(sides)]
    nets[winner] = sum(differences.values())
    settlement = None
    if stake is not None:
        payments = [_payment(winner, p, differences[p], stake) for p in losers]
        settlement = payments[0] if sides == 2 else payments
    return {"winner": winner, "loser": losers[0] if sides == 2 else None, "losers": losers,
            "totals": list(totals), "game_bonus": game_bonus, "box_bonus": box_bonus,
            "shutout": shutout, "final": final, "net": nets[winner], "nets": nets,
            "stake": stake, "settlement": settlement}


def _match_result(columns, stake):
    """The Hollywood match once all three columns are closed."""
    final = _sum_columns(columns, "final", key="result")
    winner = None if final[0] == final[1] else (0 if final[0] > final[1] else 1)
    game_bonuses = [0, 0]
    for col in columns:
        game_bonuses[col["result"]["winner"]] += col["result"]["game_bonus"]
    net = abs(final[0] - final[1])
    settlement = None
    if stake is not None and winner is not None:
        settlement = _payment(winner, 1 - winner, net, stake)
    return {"winner": winner, "loser": None if winner is None else 1 - winner,
            "losers": [] if winner is None else [1 - winner],
            "totals": _sum_columns(columns, "totals"), "game_bonuses": game_bonuses,
            "box_bonus": _sum_columns(columns, "box_bonus", key="result"),
            "shutouts": [col["result"]["shutout"] for col in columns],
            "column_winners": [col["result"]["winner"] for col in columns],
            "final": final, "net": net,
            "nets": [final[0] - final[1], final[1] - final[0]],
            "stake": stake, "settlement": settlement}


def _payment(winner, loser, difference, stake):
    """What ``loser`` pays ``winner`` for a ``difference`` (the other way if negative)."""
    payer, payee = (loser, winner) if difference >= 0 else (winner, loser)
    amount = (Decimal(abs(difference)) * Decimal(str(stake))).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP)
    return {"payer": payer, "payee": payee, "amount": float(amount)}


def _sum_columns(columns, field, key=None):
    rows = [col[key][field] if key else col[field] for col in columns]
    return [sum(row[p] for row in rows) for p in (0, 1)]


def _needed(rules, totals):
    return [max(0, rules.target - t) for t in totals]


def _team_of():
    team_of = [0] * 4
    for t, team in enumerate(TEAMS):
        for p in team:
            team_of[p] = t
    return team_of


def _deal_games(index, deal_team):
    """The two games of deal ``index`` (0-based): players and dealer of each."""
    opponents = (1, 3) if index % 2 == 0 else (3, 1)
    games = []
    for own, other in zip(TEAMS[0], opponents, strict=True):
        dealer = own if deal_team == 0 else other
        games.append({"game": len(games) + 1, "players": [own, other], "dealer": dealer})
    return games


# --------------------------------------------------------------------------- validation


def _check_players(players):
    if isinstance(players, (str, bytes, Mapping)) or not isinstance(players, Sequence):
        raise InvalidValueError("players must be a list of 2, 3 or 4 names",
                                code="bad_players", option="players")
    names = list(players)
    if len(names) not in (2, 3, 4):
        raise InvalidValueError(f"players must be a list of 2, 3 or 4 names, not {len(names)}",
                                code="bad_players", option="players")
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise InvalidValueError(f"player {i} must have a non-empty name, not {name!r}",
                                    code="bad_players", option="players")
    if len(set(names)) != len(names):
        raise InvalidValueError("player names must be distinct",
                                code="bad_players", option="players")
    return names


def _check_stake(stake):
    if stake is None:
        return None
    if not isinstance(stake, (int, float)) or isinstance(stake, bool) or not math.isfinite(
            stake) or stake < 0:
        raise InvalidValueError(f"stake must be a number >= 0 or null, not {stake!r}",
                                code="bad_value", params={"value": stake}, option="stake")
    return stake


def _parse_deal(entry, n, rules, names, games):
    """The two games of a four-player deal entry, each parsed and annotated."""
    label = f"hand {n}"
    if not isinstance(entry, Mapping):
        raise InvalidValueError(f"{label}: an entry must be an object",
                                code="bad_value", option="hands")
    raw = entry.get("games")
    if raw is None:
        if entry.get("void") is True:
            raw = [{"void": True}, {"void": True}]
        else:
            raise InvalidValueError(f"{label}: a four-player entry needs games: [game 1, game 2]"
                                    " (or void: true)",
                                    code="missing_value", option="games")
    if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence) or len(raw) != 2:
        raise InvalidValueError(f"{label}: games must be a list of two entries, one per game",
                                code="bad_value", option="games")
    parsed = []
    for game, sub in zip(games, raw, strict=True):
        hand = _parse_hand(sub, f"{label}, game {game['game']}", rules, names,
                           tuple(game["players"]))
        parsed.append({**game, **hand})
    if entry.get("void") is True and not all(g["void"] for g in parsed):
        raise InvalidValueError(f"{label}: a void deal cannot have a game result",
                                code="bad_value", option="void")
    return parsed


def _parse_hand(entry, label, rules, names, seats, need_loser=False, sitting_out=None):
    """One two-player hand entry: ``{"void", "winner", "loser", "outcome", "points"}``.

    ``seats`` are the two players of the hand; ``sitting_out`` the three-player dealer.
    """
    if not isinstance(entry, Mapping):
        raise InvalidValueError(f"{label}: an entry must be an object",
                                code="bad_value", option="hands")
    if entry.get("games") is not None:
        raise InvalidValueError(f"{label}: only a four-player deal entry has games",
                                code="bad_value", option="games")
    void = entry.get("void", False)
    if not isinstance(void, bool):
        raise InvalidValueError(f"{label}: void must be true or false, not {void!r}",
                                code="bad_value", params={"value": void}, option="void")
    if void:
        for key in ("winner", "loser", "outcome"):
            if entry.get(key) is not None:
                raise InvalidValueError(f"{label}: a void hand has no {key}",
                                        code="bad_value", option=key)
        if entry.get("points") not in (None, 0):
            raise InvalidValueError(f"{label}: a void hand scores no points",
                                    code="bad_value", option="points")
        return {"void": True, "winner": None, "loser": None, "outcome": None, "points": 0}

    def seat(key):
        if key not in entry or entry[key] is None:
            raise InvalidValueError(f"{label}: {key} is missing",
                                    code="missing_value", option=key)
        value = entry[key]
        if not is_whole_number(value) or not 0 <= value < len(names):
            raise InvalidValueError(f"{label}: {key} must be a player index 0..{len(names) - 1},"
                                    f" not {value!r}",
                                    code="bad_value", params={"value": value}, option=key)
        if value == sitting_out:
            raise RuleViolation(f"{label}: {key} {names[value]} deals this hand and sits out",
                                code="dealer_sits_out", params={"player": names[value]}, option=key)
        if value not in seats:
            raise RuleViolation(f"{label}: {key} must be {names[seats[0]]} ({seats[0]}) or"
                                f" {names[seats[1]]} ({seats[1]}), who play this game",
                                code="not_in_this_game", params={"player": names[value]},
                                option=key)
        return value

    winner = seat("winner")
    other = seats[1] if winner == seats[0] else seats[0]
    if entry.get("loser") is None and not need_loser:
        loser = other
    else:
        loser = seat("loser")
        if loser == winner:
            raise InvalidValueError(f"{label}: loser must not be the winner",
                                    code="bad_value", option="loser")
    if "outcome" not in entry or entry["outcome"] is None:
        raise InvalidValueError(f"{label}: outcome is missing",
                                code="missing_value", option="outcome")
    outcome = entry["outcome"]
    if outcome not in OUTCOMES:
        raise InvalidValueError(f"{label}: outcome must be one of {', '.join(OUTCOMES)},"
                                f" not {outcome!r}",
                                code="bad_value", params={"value": outcome}, option="outcome")
    if "points" not in entry or entry["points"] is None:
        raise InvalidValueError(f"{label}: points is missing",
                                code="missing_value", option="points")
    points = entry["points"]
    if not is_whole_number(points) or points < 0:
        raise InvalidValueError(f"{label}: points must be a whole number >= 0, not {points!r}",
                                code="bad_value", params={"value": points}, option="points")
    if outcome == "big_gin" and rules.big_gin_bonus is None:
        raise RuleViolation(f"{label}: big gin is not allowed under these rules (big_gin_bonus"
                            " is null)",
                            code="big_gin_not_allowed", option="outcome")
    if outcome in ("knock", "undercut") and rules.knock_limit == 0:
        raise RuleViolation(f"{label}: with knock limit 0 only gin ends a hand, not {outcome}",
                            code="gin_only", params={"outcome": outcome}, option="outcome")
    least = {"knock": 1, "gin": rules.gin_bonus, "undercut": rules.undercut_bonus,
             "big_gin": rules.big_gin_bonus}[outcome]
    if points < least:
        raise RuleViolation(f"{label}: points {points} are too few for"
                            f" {outcome.replace('_', ' ')} (at least {least})",
                            code="too_few_points",
                            params={"points": points, "least": least, "outcome": outcome},
                            option="points")
    return {"void": False, "winner": winner, "loser": loser, "outcome": outcome,
            "points": points}
