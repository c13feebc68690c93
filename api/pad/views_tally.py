"""What the rematch tally and a player's record show, computed here so the web layer
only renders."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from scorekeeper.store.stats import PlayerStats, RematchTally

from .labels import bdi, game_title
from .views_result import amount_text, loser_line, payment_line


def tally_view(tally: RematchTally) -> dict[str, Any]:
    """The running tally of the games chained by rematch, for its page.

    From :func:`~scorekeeper.store.stats.rematch_tally`. Each game: its
    number, who won, its payment line and the running total after it
    (``Bor owes Ana 2.15 (43 points).``); ``standing`` is the latest running
    total, ``count`` the number of games.
    """
    names = tally.players
    games = []
    for game in tally.games:
        winner = game.winner
        if not game.over:
            result = Markup("Being played.")
        elif winner is None:
            result = Markup("A tie: nobody pays.")
        elif len(names) == 3:
            result = Markup("{} won. {}").format(
                bdi(names[winner]),
                Markup(" ").join(
                    loser_line(winner, game.nets, game.settlement, p, names)
                    for p in range(3)
                    if p != winner
                ),
            )
        else:
            paid = game.settlement
            result = Markup("{} won. {}").format(
                bdi(names[winner]),
                payment_line(game.nets, names, paid[0].amount if len(paid) == 1 else None),
            )
        money = game.money
        running = (
            _standing(game.points, names, money)
            if len(names) == 3
            else payment_line(
                game.points, names, None if money is None else max(money), verb="owes"
            )
        )
        games.append(
            {
                "id": game.id,
                "number": game.number,
                "over": game.over,
                "winner": None if winner is None else names[winner],
                "result": result,
                "running": running,
            }
        )
    return {
        "names": names,
        "games": games,
        "count": len(games),
        "standing": games[-1]["running"] if games else None,
        "title": game_title(names),
    }


def _standing(points: Sequence[int], names: Sequence[str], money: Sequence[float] | None) -> Markup:
    """Three players' running totals: who is up and who is down, in points (and money).

    ``Ana is up 274 points (27.40); Bor is down 190 (19.00); Cy is down 84 (8.40).``
    """
    parts = []
    for p, name in enumerate(names):
        cash = "" if money is None else f" ({amount_text(abs(money[p]))})"
        if points[p] == 0:
            parts.append(Markup("{} is even").format(bdi(name)))
        else:
            parts.append(
                Markup("{} is {} {} points{}").format(
                    bdi(name), "up" if points[p] > 0 else "down", abs(points[p]), cash
                )
            )
    return Markup("; ").join(parts) + "."


def record_view(stats: PlayerStats) -> dict[str, Any]:
    """A player's record (:func:`~scorekeeper.store.stats.player_stats`) as the page lists it.

    ``rows`` are ``(label, value)`` in players' words; ``rivals`` the head to
    head lines; ``imported`` the note on imported games, which are not
    counted (their hands were not entered under the game's scorekeeping).
    """
    average = stats.average_hand
    rows = [
        ("Games", stats.games),
        ("Games finished", stats.finished),
        ("Games won", stats.wins),
        ("Games lost", stats.losses),
        ("Hands played", stats.hands),
        ("Hands won", stats.hands_won),
        ("Gins", stats.gins),
        ("Undercuts", stats.undercuts),
        ("Average hand won", "no hand won yet" if average is None else f"{average:g} points"),
    ]
    imported = stats.imported_games
    note = (
        "Imported games are not counted; there are none for this player."
        if not imported
        else f"{imported} imported game{'s are' if imported != 1 else ' is'} left out:"
        " only games scored here count."
    )
    return {"name": stats.name, "rows": rows, "imported": note, "rivals": stats.head_to_head}
