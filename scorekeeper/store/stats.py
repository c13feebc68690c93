"""A player's record over every stored game: games, wins, hands, gins, head-to-head.

Counted from each game's sheet (derived from its log), so corrections and
undos are always taken into account. Definitions: ``hands`` are the
non-void hands the player played; ``gins`` the hands won by gin or big
gin; ``undercuts`` the hands won by undercutting the knocker; ``points``
what the won hands scored (before bonuses) and ``average_hand`` their
mean (``None`` before the first win); ``wins``/``losses`` count finished
games (a tied Hollywood match is neither).

Games of three and four players count too (RULES.md section 8). A "hand"
is always two players' hand: with three players the two who played it
(not the dealer, who sat out), with four players each game of a deal (so a
deal is one hand for each of the four), its points those of that game
before the teams' netting. A partnership game is won (or lost) by both
partners. Head-to-head lists the opponents the player actually played a
hand against (void hands included; a partner is never an opponent; in a
two-player game the other player, even before the first hand): per
opponent the games they met in, the hands won and lost between the two,
and the games won against them (the player's side won) and lost to them
(their side won; a three-player game lost to somebody else is neither).

Only games whose hands were entered under the game's edit token count:
an imported game (``games.import_game``, which anyone may call with any
hands) is left out, and ``imported_games`` says how many were. Players
are matched by :func:`~scorekeeper.names.name_key` ("Ana", "ANA" and
"Ana " are one player); a game whose two seats are the same player (two
names that only folded together in the store's migration 2) counts from
its first seat.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..names import fold
from ..results import Outcome
from ..sheet import (
    TEAMS,
    AnySheet,
    GameRecord,
    HandBase,
    HollywoodHandRecord,
    PartnershipHandRecord,
    PartnershipSheet,
    ThreePlayerHandRecord,
)
from .base import Store
from .games import load_sheet, score_log

Played = HandBase | HollywoodHandRecord | GameRecord
"""A two-player hand of some sheet: ``void``, ``winner``, ``outcome`` and ``points``."""


def player_stats(store: Store, name: str) -> dict:
    """The record of player ``name`` (matched by name key); raises ``NotFound``.

    ``{"name", "games", "finished", "wins", "losses", "hands", "hands_won",
    "gins", "undercuts", "points", "average_hand", "imported_games",
    "head_to_head": [{"opponent", "games", "wins", "losses", "hands_won",
    "hands_lost"}, ...]}``, opponents in order of first meeting.
    """
    player = store.player(name)
    key = fold(player["name"])
    totals = dict.fromkeys(
        (
            "games",
            "finished",
            "wins",
            "losses",
            "hands",
            "hands_won",
            "gins",
            "undercuts",
            "points",
        ),
        0,
    )
    imported = 0
    rivals: dict[str, dict] = {}
    for game, log in store.games_of(name):
        if game["imported"]:
            imported += 1
            continue
        names = game["players"]
        seat = [fold(p) for p in names].index(key)
        sheet = score_log(game, log)
        met = {1 - seat: _rival(rivals, names[1 - seat])} if len(names) == 2 else {}
        totals["games"] += 1
        for players, hand in _hands(sheet):
            if seat not in players:
                continue
            other = players[1 - players.index(seat)]
            rival = met.setdefault(other, _rival(rivals, names[other]))
            if hand.void:
                continue
            totals["hands"] += 1
            if hand.winner == seat:
                totals["hands_won"] += 1
                totals["points"] += hand.points
                totals["gins"] += hand.outcome in (Outcome.GIN, Outcome.BIG_GIN)
                totals["undercuts"] += hand.outcome == Outcome.UNDERCUT
                rival["hands_won"] += 1
            elif hand.winner is not None:  # a tie (tie: no_score) is neither
                rival["hands_lost"] += 1
        for rival in met.values():
            rival["games"] += 1
        if sheet.result is not None:
            totals["finished"] += 1
        if sheet.result is None or sheet.result.winner is None:
            continue
        side = _side_of(sheet)
        won = side[seat] == sheet.result.winner
        totals["wins" if won else "losses"] += 1
        for other, rival in met.items():
            if won or side[other] == sheet.result.winner:
                rival["wins" if won else "losses"] += 1
    average = round(totals["points"] / totals["hands_won"], 2) if totals["hands_won"] else None
    return {
        "name": player["name"],
        **totals,
        "average_hand": average,
        "imported_games": imported,
        "head_to_head": list(rivals.values()),
    }


def _rival(rivals: dict[str, dict], opponent: str) -> dict:
    """The head-to-head line against ``opponent`` (added, empty, at the first meeting)."""
    return rivals.setdefault(
        fold(opponent),
        {"opponent": opponent, "games": 0, "wins": 0, "losses": 0, "hands_won": 0, "hands_lost": 0},
    )


def _hands(sheet: AnySheet) -> Iterator[tuple[tuple[int, ...], Played]]:
    """Every two-player hand of a sheet with its two players, in order."""
    for hand in sheet.hands:
        if isinstance(hand, PartnershipHandRecord):
            for game in hand.games:
                yield game.players, game
        elif isinstance(hand, ThreePlayerHandRecord):
            yield tuple(p for p in range(3) if p != hand.sits_out), hand
        else:
            yield (0, 1), hand


def _side_of(sheet: AnySheet) -> list[int]:
    """Per player, the side a result's ``winner`` names: the team with four, else the player."""
    if isinstance(sheet, PartnershipSheet):
        return [next(t for t, team in enumerate(TEAMS) if p in team) for p in range(4)]
    return list(range(len(sheet.players)))


def rematch_tally(store: Store, game_id: str) -> dict:
    """The running tally of the games of two or three players chained by rematch up to ``game_id``.

    Raises ``NotFound`` for an unknown game, ``ValueError`` for a partnership
    game (its results are per team, and partners may swap between games: the
    tally follows players, so it is kept for two and three players).

    The chain is ``game_id``, the game it ``follows``, the game that one
    follows, and so on back to a game started afresh (or to a game with
    other players: a chain only joins games of the same players, matched
    by name key, seats mapped to ``game_id``'s). ``{"players": [game_id's
    names], "stake" (game_id's, or None), "games": [oldest first: {"id",
    "number" (1, 2, ...), "over", "winner" (seat or None), "final" (per
    seat or None), "nets" (points won (+) or paid (-) per seat, zeros while
    unfinished), "settlement" (the payments, ``[{"payer", "payee", "amount"}]``
    with seats; empty without a stake), "points"
    and "money" (the running totals per seat after this game; money is None
    while no game so far had a stake)}]}``. A game still
    being played counts nothing yet; money adds each game's settlement as it
    was rounded.
    """
    game = store.game(game_id)
    if len(game["players"]) == 4:
        raise ValueError("the rematch tally is for games of two or three players")
    keys = [fold(p) for p in game["players"]]
    chain: list[tuple[dict, list[int]]] = []
    current: dict | None = game
    while current is not None:
        seen = [fold(p) for p in current["players"]]
        if sorted(seen) != sorted(keys):
            break
        chain.append((current, [keys.index(k) for k in seen]))
        current = store.game(current["follows"]) if current["follows"] else None
    games = []
    points = [0] * len(keys)
    money: list[float] | None = None
    for number, (row, seats) in enumerate(reversed(chain), 1):
        result = load_sheet(store, row["id"]).result
        nets = [0] * len(keys)
        settlement: list[dict] = []
        if result is not None:
            for seat, net in zip(seats, result.nets, strict=True):
                nets[seat] = net
                points[seat] += net
            paid = result.settlement or ()
            settlement = [
                {"payer": seats[p.payer], "payee": seats[p.payee], "amount": p.amount}
                for p in (paid if isinstance(paid, tuple) else (paid,))
            ]
            for payment in settlement:
                money = money or [0.0] * len(keys)
                money[payment["payer"]] -= payment["amount"]
                money[payment["payee"]] += payment["amount"]
        games.append(
            {
                "id": row["id"],
                "number": number,
                "over": result is not None,
                "winner": None if result is None or result.winner is None else seats[result.winner],
                "final": None
                if result is None
                else [result.final[seats.index(s)] for s in range(len(keys))],
                "nets": nets,
                "settlement": settlement,
                "points": list(points),
                "money": None if money is None else [round(m, 2) for m in money],
            }
        )
    return {"players": list(game["players"]), "stake": game["stake"], "games": games}
