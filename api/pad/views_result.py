"""A finished game's result as the sheet shows it: the bonuses itemised, who pays whom.

The settling sentences (``Bor pays Ana 16.00 (320 points).``) are shared with
the rematch tally (:mod:`api.pad.views_tally`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from scorekeeper.rules import Rules
from scorekeeper.sheet import GameResult, HollywoodResult, Payment

from ..i18n import _, format_decimal, lazy_gettext
from .labels import bdi, html, point_count, side_names, sides_html

_NAME = "%(name)s"


def winner_line(name: Markup) -> Markup:
    """The winner on a finished game's board (HTML; also the templates' ``winner_line``
    filter): the catalog's ``Winner: %(name)s`` with ``name`` (its link) in its place and
    the words round it marked ``winner-word`` (``pad-provisional.js`` writes it alike)."""
    # Translators: the winner's name on a finished game's board ("Winner: Ana"); put the
    # name where your language says it (Polish "Wygrywa Ana").
    sentence = _("Winner: %(name)s")
    before, _name, after = sentence.partition(_NAME)
    words = [
        Markup('<span class="winner-word">{}</span>').format(w) if w else ""
        for w in (before, after)
    ]
    return Markup("").join((words[0], name, words[1]))


def game_result_view(
    result: GameResult, names: Sequence[str], rules: Rules, boxes: Sequence[int]
) -> dict[str, Any]:
    """One finished game's bonuses itemised (a ``score_sheet`` result, the boxes won).

    Rows are per side (players, or partnerships with four). ``pays`` says
    who pays whom with two players (:func:`game_over_line`); with three or
    four players ``payments`` words the settlement: each loser against the
    winner, on their own difference of final totals (x stake when there is
    one; a negative difference, from box bonuses, runs the other way).
    ``finals`` are the finals winner first (a Hollywood column's result).
    """
    winner = result.winner
    sides = side_names(names)
    rows = []
    for p, (name, side_html) in enumerate(zip(sides, sides_html(names), strict=True)):
        items = [(_("Hand points"), result.totals[p])]
        items.append((_("Box bonus (%(bonus)s a box)", bonus=rules.box_bonus), result.box_bonus[p]))
        if p == winner:
            label = (
                _("Game bonus (doubled: shutout)")
                if result.shutout and rules.shutout == "double_bonus"
                else _("Game bonus")
            )
            items.append((label, result.game_bonus))
            if result.shutout and rules.shutout == "double_total":
                subtotal = sum(v for __, v in items)
                items.append((_("Shutout: total doubled"), subtotal))
        rows.append(
            {
                "name": name,
                "html": side_html,
                "items": items,
                "final": result.final[p],
                "winner": p == winner,
                "boxes": boxes[p],
            }
        )
    loser = result.loser
    two = len(names) == 2
    return {
        "winner": sides[winner],
        "winner_html": sides_html(names)[winner],
        "loser": None if loser is None else sides[loser],
        "rows": rows,
        "table": table(rows),
        "shutout": result.shutout,
        "net": result.net,
        "pays": game_over_line(result, names) if two else None,
        "payments": None if two else _payments(result, names),
        "finals": [result.final[winner]]
        + [final for p, final in enumerate(result.final) if p != winner],
    }


def _payments(result: GameResult, names: Sequence[str]) -> list[Markup]:
    """The settlement of a three-player or partnership game, one sentence per loser
    (:func:`loser_line`), with the shutout of a loser who won no hand."""
    sides = sides_html(names)
    lines = []
    for loser in result.losers:
        line = loser_line(result.winner, result.nets, result.settlement, loser, names)
        if loser in result.shut_out and not result.shutout:
            line += Markup(" ") + html(
                _("%(side)s won no hand: shutout, doubled against %(side)s only."),
                side=sides[loser],
            )
        lines.append(line)
    return lines


def table(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per-player items as table rows: ``{"label", "values": [per player, None if absent]}``."""
    labels: list[str] = []
    for row in rows:
        labels += [label for label, __ in row["items"] if label not in labels]
    return [
        {"label": label, "values": [dict(row["items"]).get(label) for row in rows]}
        for label in labels
    ]


def amount_text(amount: float) -> str:
    """Money to 2 decimals with the locale's separators (``21.00``, in French ``21,00``),
    no currency named."""
    return format_decimal(amount, format="#,##0.00")


_PAYS = {
    "pays": (
        lazy_gettext("%(payer)s pays %(payee)s %(points)s."),
        lazy_gettext("%(payer)s pays %(payee)s %(amount)s (%(points)s)."),
        lazy_gettext("All square: nobody pays anything."),
    ),
    "pay": (
        # Translators: a partnership (two players) pays the other partnership.
        lazy_gettext("%(payer)s pay %(payee)s %(points)s."),
        lazy_gettext("%(payer)s pay %(payee)s %(amount)s (%(points)s)."),
        lazy_gettext("All square: nobody pays anything."),
    ),
    "owes": (
        # Translators: a running total over games: what one player owes the other so far.
        lazy_gettext("%(payer)s owes %(payee)s %(points)s."),
        lazy_gettext("%(payer)s owes %(payee)s %(amount)s (%(points)s)."),
        lazy_gettext("All square: nobody owes anything."),
    ),
}
"""The settling sentences by verb: in points, at a stake, all square."""


def payment_line(
    nets: Sequence[int], names: Sequence[str], amount: float | None = None, verb: str = "pays"
) -> Markup:
    """Who pays whom how much, from the points each seat won (+) or paid (-).

    ``Bor pays Ana 320 points.``, or at a stake ``Bor pays Ana 16.00 (320
    points).`` (``amount`` is the settlement as the sheet rounded it); all
    square: ``All square: nobody pays anything.`` ``verb`` is ``pays`` for a game,
    ``owes`` for a running total.
    """
    payer = min(range(len(nets)), key=lambda p: nets[p])
    payee = max(range(len(nets)), key=lambda p: nets[p])
    points = nets[payee]
    if points <= 0:
        return html(str(_PAYS[verb][2]))
    return _pays(bdi(names[payer]), verb, bdi(names[payee]), points, amount)


def _pays(payer: Markup, verb: str, payee: Markup, points: int, amount: float | None) -> Markup:
    """``Bor pays Ana 320 points.``, at a stake ``Bor pays Ana 16.00 (320 points).``"""
    count = point_count(points)
    if amount is None:
        return html(str(_PAYS[verb][0]), payer=payer, payee=payee, points=count)
    return html(
        str(_PAYS[verb][1]), payer=payer, payee=payee, amount=amount_text(amount), points=count
    )


def game_over_line(result: GameResult | HollywoodResult, names: Sequence[str]) -> Markup:
    """The settling line under a finished game: who pays whom, in points and money.

    The winner normally collects; when the loser's box bonuses outweigh the
    game (the net is negative) the line says so and has the winner pay,
    never "-28 points to Ana". A tied Hollywood match pays nothing.
    """
    settlement = result.settlement
    line = payment_line(
        result.nets, names, settlement.amount if isinstance(settlement, Payment) else None
    )
    winner = result.winner
    if winner is not None and result.nets[winner] < 0:
        line = html(
            _("%(winner)s wins the game, but the box bonuses count for more: %(line)s"),
            winner=bdi(names[winner]),
            line=line,
        )
    return line


def loser_line(
    winner: int,
    nets: Sequence[int],
    settlement: Payment | Sequence[Payment] | None,
    loser: int,
    names: Sequence[str],
) -> Markup:
    """What one loser of a finished game of three players, or the losing partnership,
    settles with the winner: one sentence for the sheet's payments and the rematch tally.

    From a sheet's result or a tally's game: its ``winner``, ``nets`` per side (the
    loser's own difference of finals, negative when the loser's box bonuses outweigh
    the game: the winner pays) and ``settlement`` (``None`` without a stake, a
    partnership's one payment, or several). ``Bor pays Ana 21.00 (210 points).``, without
    a stake ``Bor pays Ana 210 points.`` (a finished game pays, as with two players: a
    running total owes); partners ``Bor & Dan pay Ana & Cy ...``. Nothing to settle:
    ``Ana and Bor are even: nobody pays.``, naming the pair, since a game of three has two
    settlements and the two-player ``All square`` would not say whose.
    """
    sides = sides_html(names)
    difference = -nets[loser]
    if difference == 0:
        return html(
            _("%(winner)s and %(loser)s are even: nobody pays."),
            winner=sides[winner],
            loser=sides[loser],
        )
    payer, payee = (loser, winner) if difference > 0 else (winner, loser)
    paid = [settlement] if isinstance(settlement, Payment) else settlement or []
    amount = next((p.amount for p in paid if loser in (p.payer, p.payee)), None)
    return _pays(
        sides[payer], "pay" if len(names) == 4 else "pays", sides[payee], abs(difference), amount
    )
