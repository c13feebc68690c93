"""What the rematch tally and a player's record show, computed here so the web layer
only renders."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import quote_plus

from flask import url_for
from markupsafe import Markup

from scorekeeper.store.stats import HeadToHead, PlayerStats, RematchTally

from ..i18n import _, format_decimal, format_number, get_translations, ngettext
from .labels import bdi, game_title, html, point_count
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
            result = html(_("Being played."))
        elif winner is None:
            result = html(_("A tie: nobody pays."))
        elif len(names) == 3:
            result = (
                html(_("%(winner)s won."), winner=bdi(names[winner]))
                + Markup(" ")
                + Markup(" ").join(
                    loser_line(winner, game.nets, game.settlement, p, names)
                    for p in range(3)
                    if p != winner
                )
            )
        else:
            paid = game.settlement
            result = (
                html(_("%(winner)s won."), winner=bdi(names[winner]))
                + Markup(" ")
                + payment_line(game.nets, names, paid[0].amount if len(paid) == 1 else None)
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
        if points[p] == 0:
            parts.append(html(_("%(name)s is even"), name=bdi(name)))
            continue
        n = abs(points[p])
        shown = {"name": bdi(name), "count": format_number(n)}
        if money is not None:
            shown["amount"] = amount_text(abs(money[p]))
        parts.append(html(_standing_words(points[p] > 0, money is not None, n), **shown))
    return Markup("; ").join(parts) + "."


def _standing_words(up: bool, cash: bool, n: int) -> str:
    """One player's running total: up or down ``n`` points, with the money or without
    (the message unformatted, for :func:`~api.pad.labels.html`)."""
    if up and cash:
        return get_translations().ngettext(
            "%(name)s is up %(count)s point (%(amount)s)",
            "%(name)s is up %(count)s points (%(amount)s)",
            n,
        )
    if up:
        return get_translations().ngettext(
            "%(name)s is up %(count)s point", "%(name)s is up %(count)s points", n
        )
    if cash:
        return get_translations().ngettext(
            "%(name)s is down %(count)s point (%(amount)s)",
            "%(name)s is down %(count)s points (%(amount)s)",
            n,
        )
    return get_translations().ngettext(
        "%(name)s is down %(count)s point", "%(name)s is down %(count)s points", n
    )


def record_view(stats: PlayerStats) -> dict[str, Any]:
    """A player's record (:func:`~scorekeeper.store.stats.player_stats`) as the page lists it.

    ``rows`` are ``(label, value)`` in players' words; ``rivals`` the head to
    head lines; ``imported`` the note on imported games, which are not
    counted (their hands were not entered under the game's scorekeeping).
    """
    average = stats.average_hand
    rows = [
        (_("Games"), stats.games),
        (_("Games finished"), stats.finished),
        (_("Games won"), stats.wins),
        (_("Games lost"), stats.losses),
        (_("Hands played"), stats.hands),
        (_("Hands won"), stats.hands_won),
        (_("Gins"), stats.gins),
        (_("Undercuts"), stats.undercuts),
        (
            _("Average hand won"),
            _("no hand won yet") if average is None else average_points(average),
        ),
    ]
    imported = stats.imported_games
    note = (
        _("Imported games are not counted; there are none for this player.")
        if not imported
        else ngettext(
            "%(num)d imported game is left out: only games scored here count.",
            "%(num)d imported games are left out: only games scored here count.",
            imported,
        )
    )
    rivals = rival_lines(stats.name, stats.head_to_head)
    return {"name": stats.name, "rows": rows, "imported": note, "rivals": rivals}


URL_SAFE = "!$'()*,/:;?@"
"""What a query value keeps unescaped in a link, as Werkzeug's ``url_for`` writes it."""


def rival_lines(name: str, rivals: Sequence[HeadToHead]) -> list[dict[str, Any]]:
    """The head-to-head lines of a record: each a link to the two players' page
    (``href``), its words (``title``) and the games won and lost (``games``).

    A player may have met thousands of opponents: the catalog and the page's address are
    looked up once for all the lines, not once a line."""
    translations = get_translations()
    vs = translations.gettext("%(name)s vs %(other)s")
    page = url_for("pad.head_to_head", name=name)
    player = bdi(name)
    return [
        {
            "href": f"{page}&other={quote_plus(r.opponent, safe=URL_SAFE)}",
            "title": html(vs, name=player, other=bdi(r.opponent)),
            "games": translations.ngettext(
                "%(num)d game: %(won)s won, %(lost)s lost",
                "%(num)d games: %(won)s won, %(lost)s lost",
                r.games,
            )
            % {"num": r.games, "won": r.wins, "lost": r.losses},
        }
        for r in rivals
    ]


def average_points(average: float) -> str:
    """An average of points: a whole one counted as a count is (``42 točk`` in Slovenian, its
    plural form for 42), one with a fraction with the decimal form (``42,2 točke``)."""
    if float(average).is_integer():
        return point_count(int(average))
    return _("%(points)s points", points=format_decimal(average))
