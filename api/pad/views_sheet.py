"""What the score sheet page shows, computed here so the web layer only renders.

The sides with their totals, the hand list, who plays next, the Hollywood
columns, the final result once the game is over (:mod:`api.pad.views_result`),
the running-totals chart and the line of the rules played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from scorekeeper.gamesheet import GameSheet, StoredHand
from scorekeeper.rules import Rules
from scorekeeper.sheet import (
    TEAMS,
    Entry,
    HollywoodHandRecord,
    HollywoodResult,
    HollywoodSheet,
    PartnershipHandRecord,
    PartnershipSheet,
    ThreePlayerHandRecord,
    summary,
)
from scorekeeper.store.base import LogEntry
from scorekeeper.store.games import effective_hands

from ..i18n import _, format_decimal, ngettext
from .labels import bdi, game_pair, game_title, html, matchup, side_names, sides_html
from .options import OPTION_NAMES, PRESET_NAMES
from .terms import both, card_info
from .views_hand import OUTCOME_LABELS, badge, deal_scored, describe_hand
from .views_result import game_over_line, game_result_view, table


def cut_view(sheet: GameSheet) -> dict[str, Any] | None:
    """Who cut what for the first deal, and who deals first by it (RULES.md 3): ``{"cuts":
    [{"name", "card" (:func:`~api.pad.terms.card_info`)}], "dealer"}``; ``None`` when
    the first dealer was named or drawn by lot."""
    if sheet.cut is None:
        return None
    cuts = [
        {"name": name, "card": card_info(code)}
        for name, code in zip(sheet.players, sheet.cut, strict=True)
    ]
    return {"cuts": cuts, "dealer": sheet.players[sheet.dealer]}


def sheet_view(sheet: GameSheet, voided: Mapping[int, Entry] | None = None) -> dict[str, Any]:
    """Everything the score sheet page shows, from a ``game_sheet`` (a core
    :func:`~scorekeeper.sheet.score_sheet` reads the same, its hands without
    ``kind`` and ``corrected``).

    The sides (players, or with four players the two partnerships) with
    totals, boxes, points still needed and who deals next; the hand list
    with badges and one-line summaries (three players: who sat out; four:
    each deal's two games and what the deal scored for whom); who plays the
    next hand; the chart; the Hollywood columns; and, once over, the bonuses
    itemised with the final totals and who pays whom. ``voided`` maps the
    hands a correction made void to what they scored before
    (:func:`voided_originals`): their line keeps it, struck through.
    """
    voided = voided or {}
    names = list(sheet.players)
    count = len(names)
    sides = side_names(names)
    rules = sheet.rules
    hollywood = sheet.scoring == "hollywood"
    dealing = TEAMS_OF[sheet.next_dealer] if count == 4 else sheet.next_dealer
    players = []
    for p, name in enumerate(sides):
        players.append(
            {
                "index": p,
                "name": name,
                "html": sides_html(names)[p],
                "total": sheet.totals[p],
                "boxes": sheet.boxes[p],
                "needed": sheet.needed[p],
                "deals_next": dealing == p and not sheet.over,
            }
        )
    view: dict[str, Any] = {
        "names": names,
        "sides": sides,
        "sides_html": sides_html(names),
        "count": count,
        "unit": "deal" if count == 4 else "hand",
        "players": players,
        "hands": _hand_rows(sheet, voided),
        "rules": rules,
        "hollywood": hollywood,
        "over": sheet.over,
        "target": rules.target,
        "next_dealer": names[sheet.next_dealer],
        "next": _next_line(sheet),
        "chart": chart(sheet),
        "stake": None if sheet.stake is None else format_decimal(sheet.stake, format="#,##0.####"),
        "result": None,
        "columns": [],
        "title": game_title(names),
        "heading": matchup(names),
        "rules_line": rules_summary(rules),
        "cut": cut_view(sheet),
    }
    if isinstance(sheet.scored, HollywoodSheet):
        for col in sheet.scored.columns:
            view["columns"].append(
                {
                    "game": col.game,
                    "totals": col.totals,
                    "boxes": col.boxes,
                    "needed": col.needed,
                    "opened": col.opened,
                    "over": col.over,
                    "winner": names[col.result.winner] if col.result else None,
                    "result": (
                        game_result_view(col.result, names, rules, col.boxes)
                        if col.result
                        else None
                    ),
                }
            )
    result = sheet.result
    if result:
        if isinstance(result, HollywoodResult):
            winner = result.winner
            result_view: dict[str, Any] = {
                "winner": names[winner] if winner is not None else None,
                "rows": [
                    {
                        "name": name,
                        "final": result.final[p],
                        "items": [
                            (_("Hand points, three games"), result.totals[p]),
                            (_("Box bonuses"), result.box_bonus[p]),
                            (_("Game bonuses"), result.game_bonuses[p]),
                        ],
                        "winner": p == winner,
                    }
                    for p, name in enumerate(names)
                ],
                "net": result.net,
                "shutout": any(result.shutouts),
                "table": None,
                "payments": None,
                "pays": game_over_line(result, names),
                "shutouts": [
                    names[w] if w is not None and shut else None
                    for w, shut in zip(result.column_winners, result.shutouts, strict=True)
                ],
            }
            result_view["table"] = table(result_view["rows"])
            view["result"] = result_view
        else:
            view["result"] = game_result_view(result, names, rules, sheet.boxes)
    _score_cards(view)
    return view


def sheet_state(sheet: GameSheet) -> dict[str, Any]:
    """The sheet as the page's scorer takes it (``#sheet-state``, read by
    ``pad-provisional.js``): the core sheet's :func:`~scorekeeper.sheet.summary`,
    ``hands`` their number, so that the hands waiting on the phone are scored after it
    (``provisional`` of ``pad-score.js``)."""
    return summary(sheet.scored, len(sheet.hands))


TEAMS_OF = {p: t for t, team in enumerate(TEAMS) for p in team}
"""The partnership (0 or 1) of each of four players."""


def _hand_rows(sheet: GameSheet, voided: Mapping[int, Entry]) -> list[dict[str, Any]]:
    """The hand list of a sheet: per hand its badge, summary, dealer and totals.

    Three players add ``sat_out``; a partnership deal has ``games`` (each
    game's players, badge and summary) and ``scored`` (what the deal gave
    each team, from the running totals, so both nettings read the same).
    ``was`` is what a hand made void by a correction had scored (``voided``).
    """
    names = list(sheet.players)
    rows = []
    before = [0] * len(sheet.totals)
    for hand in sheet.hands:
        core = hand.record
        row = {
            "n": hand.n,
            "badge": badge(hand),
            "label": OUTCOME_LABELS[badge(hand)],
            "text": None if isinstance(core, PartnershipHandRecord) else describe_hand(hand, names),
            "dealer": names[hand.dealer],
            "totals": hand.totals,
            "winner": hand.winner,
            "corrected": hand.corrected,
            "kind": hand.kind,
            "columns": [c + 1 for c in core.columns]
            if isinstance(core, HollywoodHandRecord)
            else [],
            "sat_out": names[core.sits_out] if isinstance(core, ThreePlayerHandRecord) else None,
            "games": None,
            "scored": None,
            "was": (describe_hand(voided[hand.n], names) if hand.n in voided else None),
        }
        if isinstance(core, PartnershipHandRecord):
            row["games"] = [
                {
                    "players": game_pair(*(names[p] for p in g.players)),
                    "badge": badge(g),
                    "label": OUTCOME_LABELS[badge(g)],
                    "text": describe_hand(g, names, against=True),
                }
                for g in core.games
            ]
            row["scored"] = deal_scored(before, hand.totals, names)
        before = list(hand.totals)
        rows.append(row)
    return rows


def _next_line(sheet: GameSheet) -> Markup:
    """Who deals the next hand, and with three or four players who plays whom."""
    names = list(sheet.players)
    scored = sheet.scored
    if len(names) == 4:
        games = [
            html(
                _("%(dealer)s deals to %(other)s"),
                dealer=bdi(names[g.dealer]),
                other=bdi(names[g.players[0] + g.players[1] - g.dealer]),
            )
            for g in (scored.next_games if isinstance(scored, PartnershipSheet) else ())
        ]
        return html(_("Next deal: %(first)s; %(second)s."), first=games[0], second=games[1])
    dealer = sheet.next_dealer
    if len(names) == 3:
        a, b = (p for p in range(3) if p != dealer)
        return Markup(_("Next hand: <b>%(dealer)s</b> deals and sits out; %(a)s plays %(b)s.")) % {
            "dealer": bdi(names[dealer]),
            "a": bdi(names[a]),
            "b": bdi(names[b]),
        }
    return Markup(_("Next hand: <b>%(dealer)s</b> deals.")) % {"dealer": bdi(names[dealer])}


def _score_cards(view: dict[str, Any]) -> None:
    """What each player's score card adds: Hollywood's three games, and the shutouts.

    A Hollywood card shows each game's (column's) total, ``None`` where the
    player has not opened it, not the sum of the three (which no target
    applies to). ``shutout`` labels the card of the player who shut the
    other out: ``Shutout!`` for a game, ``Shutout in game 2`` (or ``games
    1 and 3``) for Hollywood columns, shown as soon as the column closes.
    ``needed_in`` is the Hollywood game the card's ``needed`` points would close.
    """
    for player in view["players"]:
        p = player["index"]
        player["games"] = [
            {
                "game": col["game"],
                "won": col["winner"] == player["name"],
                "total": col["totals"][p] if col["opened"][p] else None,
            }
            for col in view["columns"]
        ]
        player["needed_in"] = next(
            (
                col["game"]
                for col in view["columns"]
                if not col["over"] and col["needed"][p] == player["needed"]
            ),
            None,
        )
        if view["hollywood"]:
            shut = [
                str(col["game"])
                for col in view["columns"]
                if col["result"] and col["result"]["shutout"] and col["winner"] == player["name"]
            ]
            player["shutout"] = (
                ngettext(
                    "Shutout in game %(games)s",
                    "Shutout in games %(games)s",
                    len(shut),
                    games=both(shut),
                )
                if shut
                else None
            )
        else:
            result = view["result"]
            player["shutout"] = (
                _("Shutout!")
                if result and result["shutout"] and result["winner"] == player["name"]
                else None
            )


def rules_summary(current: Rules) -> str:
    """A short line naming the preset and what differs from it."""
    changed = current.differences()
    preset = PRESET_NAMES.get(current.based_on, current.based_on)
    if not changed:
        return _("%(preset)s rules", preset=preset)
    return _(
        "%(preset)s rules with %(changes)s",
        preset=preset,
        changes=", ".join(f"{OPTION_NAMES[k]} {_show(v)}" for k, v in changed.items()),
    )


def _show(value: Any) -> str:
    if value is None:
        # Translators: an optional rule (big gin, a cap on discard draws) that is not played.
        return _("not allowed")
    if isinstance(value, bool):
        return _("on") if value else _("off")
    return str(value).replace("_", " ")


def voided_originals(log: Sequence[LogEntry], hands: Sequence[StoredHand]) -> dict[int, Entry]:
    """What each hand a correction made void had scored before: ``{n: score-sheet entry}``.

    ``hands`` are the sheet's hand records (with ``seq``, the log entry that
    gave each its content), ``log`` the game's whole log. The sheet as it
    stood just before the voiding entry says what the hand was; a hand voided
    twice over goes back further, and a hand entered void has nothing to keep.
    """
    found = {}
    for hand in hands:
        if not (hand.void and hand.corrected):
            continue
        seq = hand.seq
        while True:
            before = effective_hands(log[: seq - 1])[hand.n - 1]
            if before.entry.get("winner") is not None:  # it scored (not a deal of four)
                found[hand.n] = Entry.from_dict(before.entry)
                break
            if not (before.entry.get("void") and before.corrected):
                break
            seq = before.seq
    return found


def chart(sheet: GameSheet, width: int = 320, height: int = 140) -> dict[str, Any]:
    """Geometry of the running-totals line chart (inline SVG).

    ``{"width", "height", "lines": [{"player", "points" (SVG polyline),
    "last": (x, y), "total"}], "target_y", "top"}``; x is the hand number,
    y the total (0 at the bottom), scaled into a ``width`` x ``height`` box
    with a small margin. Totals are per player (per team with four). Under
    Hollywood scoring the totals are the three games summed, which no single
    target applies to: ``target`` and ``target_y`` are then ``None``.
    """
    hands = sheet.hands
    series_count = len(sheet.totals)
    rows = [[0] * series_count] + [list(h.totals) for h in hands]
    target = None if sheet.rules.scoring == "hollywood" else sheet.rules.target
    top = max([target or 1] + [t for row in rows for t in row])
    pad_x, pad_top, pad_bottom = 8, 8, 8
    span_x = max(len(rows) - 1, 1)

    def x(i: int) -> float:
        return round(pad_x + i * (width - 2 * pad_x) / span_x, 1)

    def y(v: int) -> float:
        return round(height - pad_bottom - v * (height - pad_top - pad_bottom) / top, 1)

    lines = []
    for p in range(series_count):
        coords = [(x(i), y(row[p])) for i, row in enumerate(rows)]
        lines.append(
            {
                "player": p,
                "points": " ".join(f"{a},{b}" for a, b in coords),
                "last": coords[-1],
                "total": rows[-1][p],
            }
        )
    return {
        "width": width,
        "height": height,
        "lines": lines,
        "target_y": None if target is None else y(target),
        "top": top,
        "target": target,
    }
