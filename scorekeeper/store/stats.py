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
from .games import score_log


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
