"""What the scorepad's pages show, computed here so the web layer only renders.

The score sheet (totals, hand list, Hollywood columns, the bonuses once the
game is over, the running-totals chart), one hand with its one-line
summary, a verified showdown (with what the defender could have laid off)
and the live read-out of the tap grid. Cards in them are
:func:`~api.pad.labels.card_info` dicts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from scorekeeper.cards import mask_cards, parse_cards
from scorekeeper.knock import KnockResult, layoff_options
from scorekeeper.melds import arrangements, hand_mask
from scorekeeper.records import ReplayedDeal
from scorekeeper.results import Outcome, Side
from scorekeeper.rules import Rules
from scorekeeper.store.hands import DeadwoodResult, HandEvaluation

from .labels import bdi, capfirst, card_info, cards_info, game_title

OUTCOME_LABELS = {"knock": "knock", "gin": "gin", "big_gin": "big gin",
                  "undercut": "undercut", "tie": "tie", "void": "void"}


def sheet_view(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """Everything the score sheet page shows, from a two-player ``game_sheet``.

    Players with totals, boxes, points still needed and who deals next;
    the hand list with badges and one-line summaries; the chart; the
    Hollywood columns; and, once over, the bonuses itemised with the final
    totals, net and settlement.
    """
    names = list(sheet["players"])
    rules = sheet["rules"]
    hollywood = sheet.get("scoring") == "hollywood"
    players = []
    for p, name in enumerate(names):
        players.append({"index": p, "name": name, "total": sheet["totals"][p],
                        "boxes": sheet["boxes"][p], "needed": sheet["needed"][p],
                        "deals_next": sheet["next_dealer"] == p and not sheet["over"]})
    hands = []
    for hand in sheet["hands"]:
        hands.append({"n": hand["n"], "badge": badge(hand), "label":
                      OUTCOME_LABELS[badge(hand)], "text": describe_hand(hand, names),
                      "dealer": names[hand["dealer"]], "totals": hand["totals"],
                      "winner": hand.get("winner"), "corrected": hand.get("corrected", False),
                      "kind": hand.get("kind"),
                      "columns": [c + 1 for c in hand.get("columns", [])]})
    view: dict[str, Any] = {
        "names": names, "players": players, "hands": hands, "rules": rules,
        "hollywood": hollywood, "over": sheet["over"], "target": rules["target"],
        "next_dealer": names[sheet["next_dealer"]], "chart": chart(sheet),
        "stake": None if sheet.get("stake") is None else f"{sheet['stake']:g}",
        "result": None, "columns": [],
        "title": game_title(names),
        "rules_line": rules_summary(rules),
    }
    if hollywood:
        for col in sheet["columns"]:
            view["columns"].append({
                "game": col["game"], "totals": col["totals"], "boxes": col["boxes"],
                "needed": col["needed"], "opened": col["opened"], "over": col["over"],
                "winner": names[col["result"]["winner"]] if col["result"] else None,
                "result": (_result_view(col["result"], names, rules, col["boxes"])
                           if col["result"] else None),
            })
    result = sheet.get("result")
    if result:
        if hollywood:
            winner = result["winner"]
            view["result"] = result_view = {
                "winner": names[winner] if winner is not None else None,
                "rows": [{"name": name, "final": result["final"][p],
                          "items": [("Hand points, three games", result["totals"][p]),
                                    ("Box bonuses", result["box_bonus"][p]),
                                    ("Game bonuses", result["game_bonuses"][p])],
                          "winner": p == winner} for p, name in enumerate(names)],
                "net": result["net"], "shutout": any(result["shutouts"]),
                "table": None,
                "settlement": _settlement(result.get("settlement"), names),
            }
            result_view["table"] = _table(result_view["rows"])
        else:
            view["result"] = _result_view(result, names, rules, sheet["boxes"])
    return view


def _result_view(result: Mapping[str, Any], names: Sequence[str], rules: Mapping[str, Any],
                 boxes: Sequence[int]) -> dict[str, Any]:
    """One finished game's bonuses itemised (a ``score_sheet`` result, the boxes won)."""
    winner = result["winner"]
    rows = []
    for p, name in enumerate(names):
        items = [("Hand points", result["totals"][p])]
        items.append((f"Box bonus ({rules['box_bonus']} a box)", result["box_bonus"][p]))
        if p == winner:
            label = "Game bonus"
            if result["shutout"] and rules["shutout"] == "double_bonus":
                label += " (doubled: shutout)"
            items.append((label, result["game_bonus"]))
            if result["shutout"] and rules["shutout"] == "double_total":
                subtotal = sum(v for _, v in items)
                items.append(("Shutout: total doubled", subtotal))
        rows.append({"name": name, "items": items, "final": result["final"][p],
                     "winner": p == winner, "boxes": boxes[p]})
    return {"winner": names[winner], "loser": names[1 - winner], "rows": rows,
            "table": _table(rows), "shutout": result["shutout"], "net": result["net"],
            "settlement": _settlement(result.get("settlement"), names)}


def _table(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per-player items as table rows: ``{"label", "values": [per player, None if absent]}``."""
    labels: list[str] = []
    for row in rows:
        labels += [label for label, _ in row["items"] if label not in labels]
    return [{"label": label, "values": [dict(row["items"]).get(label) for row in rows]}
            for label in labels]


def _settlement(settlement: Mapping[str, Any] | None, names: Sequence[str]
                ) -> Markup | None:
    if not settlement:
        return None
    if settlement["amount"] == 0:
        return Markup("Nobody pays anything.")
    return Markup("{} pays {} {}.").format(bdi(names[settlement["payer"]]),
                                           bdi(names[settlement["payee"]]),
                                           _money(settlement["amount"]))


def _money(amount: float) -> str:
    return f"{amount:.2f}"


def rules_summary(rules: Mapping[str, Any]) -> str:
    """A short line naming the preset and what differs from it."""
    current = Rules.from_dict(dict(rules))
    changed = current.differences()
    text = f"{current.based_on} rules"
    if changed:
        text += " with " + ", ".join(f"{k.replace('_', ' ')} {_show(v)}"
                                     for k, v in changed.items())
    return text


def _show(value: Any) -> str:
    if value is None:
        return "not allowed"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value).replace("_", " ")


def hand_view(record: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """One hand of the sheet as its page shows it: summary, input and showdown."""
    given = record.get("input") or {}
    kind = given.get("kind", "quick")
    view: dict[str, Any] = {"n": record["n"], "badge": badge(record),
                            "label": OUTCOME_LABELS[badge(record)],
                            "text": describe_hand(record, names), "kind": kind,
                            "dealer": names[record["dealer"]], "totals": record["totals"],
                            "corrected": record.get("corrected", False), "showdown": None,
                            "counts": None, "upcard": None, "replay": kind == "record"}
    detail = record.get("detail")
    if given.get("upcard"):
        view["upcard"] = card_info(given["upcard"])
    if kind in ("cards", "record") and detail and detail.get("knocker"):
        knocker = given.get("knocker", detail.get("knocker_player"))
        showdown = (ReplayedDeal.from_dict(detail).showdown if kind == "record"
                    else KnockResult.from_dict(detail))
        if showdown is not None:
            view["showdown"] = showdown_view(showdown, [names[knocker], names[1 - knocker]])
        if detail.get("upcard"):
            view["upcard"] = card_info(detail["upcard"])
    elif kind == "quick":
        knocker = given["knocker"]
        view["counts"] = {"knocker": names[knocker], "defender": names[1 - knocker],
                          "knocker_deadwood": given["knocker_deadwood"],
                          "defender_deadwood": given["defender_deadwood"],
                          "breakdown": (_breakdown_line(DeadwoodResult.from_dict(detail))
                                        if detail else None)}
    return view


def quick_preview(result: HandEvaluation, names: Sequence[str]) -> dict[str, Any]:
    """A quick hand's score before it is saved (``evaluate_hand``'s result) for the page."""
    entry = result.entry.to_dict()
    return {"badge": badge(entry), "label": OUTCOME_LABELS[badge(entry)],
            "text": describe_hand(entry, names),
            "breakdown": (_breakdown_line(result.detail)
                          if isinstance(result.detail, DeadwoodResult) else None)}


def _breakdown_line(detail: DeadwoodResult | KnockResult) -> str:
    """How a hand's points add up, as one line.

    ``(9 deadwood difference + 25 undercut bonus) x 2 for the spade upcard = 68``
    """
    b = detail.breakdown
    line = f"{b.difference} deadwood difference"
    if b.bonus:
        line += f" + {b.bonus} {OUTCOME_LABELS[detail.outcome]} bonus"
    if b.multiplier != 1:
        line = f"({line}) x {b.multiplier} for the spade upcard"
    return f"{line} = {detail.points}"


def showdown_view(showdown: KnockResult, names: Sequence[str]) -> dict[str, Any]:
    """A verified showdown as the pages show it (cards as :func:`~.pad_labels.card_info`)."""
    k, d = showdown.knocker, showdown.defender
    knocker, defender = names
    outcome = showdown.outcome
    winner = (None if showdown.winner is None
              else {Side.KNOCKER: knocker, Side.DEFENDER: defender}[showdown.winner])
    if outcome == Outcome.UNDERCUT:
        headline = Markup("Undercut! {} scores {}.").format(bdi(capfirst(defender)),
                                                            showdown.points)
    elif outcome in (Outcome.GIN, Outcome.BIG_GIN):
        headline = Markup("{}! {} scores {}.").format(OUTCOME_LABELS[outcome].capitalize(),
                                                      bdi(capfirst(knocker)), showdown.points)
    elif outcome == Outcome.TIE:
        headline = Markup("A tie: {} and {} have the same deadwood; nobody scores.").format(
            bdi(capfirst(knocker)), bdi(defender))
    else:
        headline = Markup("{} knocks and scores {}.").format(bdi(capfirst(knocker)),
                                                             showdown.points)
    laid = [{"card": card_info(x.card), "meld": cards_info(x.meld)} for x in d.layoffs]
    laid_codes = {x.card for x in d.layoffs}
    possible = could_lay_off(showdown)
    return {
        "outcome": outcome.value, "label": OUTCOME_LABELS[outcome], "winner": winner,
        "points": showdown.points, "headline": headline,
        "breakdown": _breakdown_line(showdown),
        "knocker": {"name": knocker, "melds": [cards_info(m) for m in k.melds],
                    "deadwood_cards": cards_info(k.deadwood_cards), "deadwood": k.deadwood},
        "defender": {"name": defender, "melds": [cards_info(m) for m in d.melds],
                     "deadwood_cards": cards_info(d.deadwood_cards),
                     "deadwood": d.deadwood, "best_deadwood": d.best_deadwood,
                     "layoffs": laid},
        "could_lay_off": possible,
        "missed": [x for x in possible if x["card"]["code"] not in laid_codes],
        "gin": outcome in (Outcome.GIN, Outcome.BIG_GIN),
    }


def could_lay_off(showdown: KnockResult) -> list[dict[str, Any]]:
    """Every defender card that fits on a knocker meld, with the meld.

    This ignores the defender's own melds (a card used in one could still
    have been laid off instead) and whether layoffs were allowed (none
    against gin), so the page can show what was possible.
    """
    return layoff_fits(showdown.knocker.melds, showdown.defender.cards)


def layoff_fits(melds: Sequence[Sequence[str]], defender: Sequence[str]) -> list[dict[str, Any]]:
    """Every card of ``defender`` that fits on one of the knocker's ``melds``, with the meld
    (cards that extend a run one after another included)."""
    held = hand_mask(list(defender))
    found = []
    for meld_codes in melds:
        fits = 0
        for _, laid in layoff_options((hand_mask(meld_codes),), held):
            fits |= laid[-1]
        for card in mask_cards(fits):
            found.append({"card": card_info(card), "meld": cards_info(meld_codes)})
    return found


def describe_hand(hand: Mapping[str, Any], names: Sequence[str]) -> Markup:
    """One line for the hand list: ``Ana knocked: 12`` / ``Bor undercut Ana: 29`` (HTML)."""
    if hand.get("void"):
        return Markup("Void hand: nobody scores")
    verb = {"knock": "{w} knocked", "gin": "{w} went gin", "big_gin": "{w} went big gin",
            "undercut": "{w} undercut {l}"}
    return Markup(verb.get(hand["outcome"], "{w}") + ": {points}").format(
        w=bdi(names[hand["winner"]]), l=bdi(names[hand["loser"]]), points=hand["points"])


def badge(hand: Mapping[str, Any]) -> str:
    """The outcome badge of a hand record: knock, gin, big_gin, undercut or void."""
    return "void" if hand.get("void") else hand.get("outcome") or "void"


def chart(sheet: Mapping[str, Any], width: int = 320, height: int = 140) -> dict[str, Any]:
    """Geometry of the running-totals line chart (inline SVG).

    ``{"width", "height", "lines": [{"player", "points" (SVG polyline),
    "last": (x, y), "total"}], "target_y", "top"}``; x is the hand number,
    y the total (0 at the bottom), scaled into a ``width`` x ``height`` box
    with a small margin. Totals are per player (per team with four). Under
    Hollywood scoring the totals are the three games summed, which no single
    target applies to: ``target`` and ``target_y`` are then ``None``.
    """
    hands = sheet["hands"]
    series_count = len(sheet["totals"])
    rows = [[0] * series_count] + [list(h["totals"]) for h in hands]
    target = None if sheet["rules"]["scoring"] == "hollywood" else sheet["rules"]["target"]
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
        lines.append({"player": p, "points": " ".join(f"{a},{b}" for a, b in coords),
                      "last": coords[-1], "total": rows[-1][p]})
    return {"width": width, "height": height, "lines": lines,
            "target_y": None if target is None else y(target), "top": top, "target": target}


def live_melds(cards: Any) -> dict[str, Any]:
    """The live read-out while cards are tapped: deadwood and the best melds.

    ``{"count", "deadwood", "melds", "deadwood_cards", "ties"}``; the cards
    are lists of :func:`~.pad_labels.card_info`. Raises :class:`CardError` for bad cards.
    """
    codes = parse_cards(cards)
    if not codes:
        return {"count": 0, "deadwood": 0, "melds": [], "deadwood_cards": [], "ties": 0}
    found = arrangements(codes)
    best = found[0]
    return {"count": len(codes), "deadwood": best["deadwood"],
            "melds": [cards_info(meld) for meld in best["melds"]],
            "deadwood_cards": cards_info(best["deadwood_cards"]), "ties": len(found) - 1}
