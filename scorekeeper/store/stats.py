"""A player's record over every stored game: games, wins, hands, gins, head-to-head.

Counted from each game's sheet (derived from its log), so corrections and
undos are always taken into account. Definitions: ``hands`` are the
non-void hands the player played; ``gins`` the hands won by gin or big
gin; ``undercuts`` the hands won by undercutting the knocker; ``points``
what the won hands scored (before bonuses) and ``average_hand`` their
mean (``None`` before the first win); ``wins``/``losses`` count finished
games (a tied Hollywood match is neither).

Only games whose hands were entered under the game's edit token count:
an imported game (``games.import_game``, which anyone may call with any
hands) is left out, and ``imported_games`` says how many were. Players
are matched by :func:`~scorekeeper.names.name_key` ("Ana", "ANA" and
"Ana " are one player); a game whose two seats are the same player (two
names that only folded together in the store's migration 2) counts from
its first seat.
"""

from __future__ import annotations

from ..names import fold
from ..results import Outcome
from .base import Store
from .games import load_sheet, score_log


def player_stats(store: Store, name: str) -> dict:
    """The record of player ``name`` (matched by name key); raises ``NotFound``.

    ``{"name", "games", "finished", "wins", "losses", "hands", "hands_won",
    "gins", "undercuts", "points", "average_hand", "imported_games",
    "head_to_head": [{"opponent", "games", "wins", "losses", "hands_won",
    "hands_lost"}, ...]}``, opponents in order of first meeting.
    """
    player = store.player(name)
    key = fold(player["name"])
    totals = dict.fromkeys(("games", "finished", "wins", "losses", "hands", "hands_won",
                            "gins", "undercuts", "points"), 0)
    imported = 0
    rivals: dict[str, dict] = {}
    for game, log in store.games_of(name):
        if game["imported"]:
            imported += 1
            continue
        seat = [fold(p) for p in game["players"]].index(key)
        opponent = game["players"][1 - seat]
        rival = rivals.setdefault(fold(opponent), {
            "opponent": opponent, "games": 0, "wins": 0, "losses": 0, "hands_won": 0,
            "hands_lost": 0})
        sheet = score_log(game, log)
        totals["games"] += 1
        rival["games"] += 1
        for hand in sheet.hands:
            if hand.void:
                continue
            totals["hands"] += 1
            if hand.winner == seat:
                totals["hands_won"] += 1
                totals["points"] += hand.points
                totals["gins"] += hand.outcome in (Outcome.GIN, Outcome.BIG_GIN)
                totals["undercuts"] += hand.outcome == Outcome.UNDERCUT
                rival["hands_won"] += 1
            else:
                rival["hands_lost"] += 1
        if sheet.result is not None:
            totals["finished"] += 1
            winner = sheet.result.winner
            if winner is not None:
                outcome = "wins" if winner == seat else "losses"
                totals[outcome] += 1
                rival[outcome] += 1
    average = round(totals["points"] / totals["hands_won"], 2) if totals["hands_won"] else None
    return {"name": player["name"], **totals, "average_hand": average,
            "imported_games": imported, "head_to_head": list(rivals.values())}


def rematch_tally(store: Store, game_id: str) -> dict:
    """The running tally of the games chained by rematch up to game ``game_id``; ``NotFound``.

    The chain is ``game_id``, the game it ``follows``, the game that one
    follows, and so on back to a game started afresh (or to a game with
    other players: a chain only joins games of the same two players, matched
    by name key, seats mapped to ``game_id``'s). ``{"players": [game_id's
    names], "stake" (game_id's, or None), "games": [oldest first: {"id",
    "number" (1, 2, ...), "over", "winner" (seat or None), "final" (per
    seat or None), "nets" (points won (+) or paid (-) per seat, zeros while
    unfinished), "settlement" (the payments, ``[{"payer", "payee", "amount"}]``
    with seats; empty without a stake; two in a three-player game), "points"
    and "money" (the running totals per seat after this game; money is None
    while no game so far had a stake)}]}``. A game still
    being played counts nothing yet; money adds each game's settlement as it
    was rounded.
    """
    game = store.game(game_id)
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
        result = load_sheet(store, row["id"]).get("result")
        nets = [0] * len(keys)
        settlement: list[dict] = []
        if result is not None:
            for seat, net in zip(seats, result["nets"], strict=True):
                nets[seat] = net
                points[seat] += net
            paid = result.get("settlement") or []
            settlement = [{"payer": seats[p["payer"]], "payee": seats[p["payee"]],
                           "amount": p["amount"]}
                          for p in (paid if isinstance(paid, list) else [paid])]
            for payment in settlement:
                money = money or [0.0] * len(keys)
                money[payment["payer"]] -= payment["amount"]
                money[payment["payee"]] += payment["amount"]
        games.append({
            "id": row["id"], "number": number, "over": result is not None,
            "winner": None if result is None or result["winner"] is None
            else seats[result["winner"]],
            "final": None if result is None else
            [result["final"][seats.index(s)] for s in range(len(keys))],
            "nets": nets, "settlement": settlement, "points": list(points),
            "money": None if money is None else [round(m, 2) for m in money]})
    return {"players": list(game["players"]), "stake": game["stake"], "games": games}
