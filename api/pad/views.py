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
from scorekeeper.sheet import TEAMS, Entry, GameResult, HollywoodResult, Payment
from scorekeeper.store.games import effective_hands
from scorekeeper.store.hands import DeadwoodResult, HandEvaluation, evaluate_hand
from scorekeeper.store.sheets import GameSheet, StoredHand

from .labels import (
    bdi,
    capfirst,
    card_info,
    cards_info,
    game_title,
    matchup,
    point_count,
    side_names,
    sides_html,
)

OUTCOME_LABELS = {
    "knock": "knock",
    "gin": "gin",
    "big_gin": "big gin",
    "undercut": "undercut",
    "tie": "tie",
    "void": "void",
    "deal": "deal",
}


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
        "target": rules["target"],
        "next_dealer": names[sheet.next_dealer],
        "next": _next_line(sheet),
        "chart": chart(sheet),
        "stake": None if sheet.stake is None else f"{sheet.stake:g}",
        "result": None,
        "columns": [],
        "title": game_title(names),
        "heading": matchup(names),
        "rules_line": rules_summary(rules),
    }
    if hollywood:
        for col in sheet.columns:
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
                        _result_view(col.result, names, rules, col.boxes) if col.result else None
                    ),
                }
            )
    result = sheet.result
    if result:
        if hollywood:
            winner = result.winner
            view["result"] = result_view = {
                "winner": names[winner] if winner is not None else None,
                "rows": [
                    {
                        "name": name,
                        "final": result.final[p],
                        "items": [
                            ("Hand points, three games", result.totals[p]),
                            ("Box bonuses", result.box_bonus[p]),
                            ("Game bonuses", result.game_bonuses[p]),
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
            result_view["table"] = _table(result_view["rows"])
        else:
            view["result"] = _result_view(result, names, rules, sheet.boxes)
    _score_cards(view)
    return view


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
        row = {
            "n": hand.n,
            "badge": badge(hand),
            "label": OUTCOME_LABELS[badge(hand)],
            "text": None if hasattr(hand, "games") else describe_hand(hand, names),
            "dealer": names[hand.dealer],
            "totals": hand.totals,
            "winner": hand.winner,
            "corrected": getattr(hand, "corrected", False),
            "kind": getattr(hand, "kind", None),
            "columns": [c + 1 for c in getattr(hand, "columns", [])],
            "sat_out": (
                names[hand.sits_out] if getattr(hand, "sits_out", None) is not None else None
            ),
            "games": None,
            "scored": None,
            "was": (describe_hand(voided[hand.n], names) if hand.n in voided else None),
        }
        if hasattr(hand, "games"):
            row["games"] = [
                {
                    "players": Markup(" v ").join(bdi(names[p]) for p in g.players),
                    "badge": badge(g),
                    "label": OUTCOME_LABELS[badge(g)],
                    "text": describe_hand(g, names, against=True),
                }
                for g in hand.games
            ]
            row["scored"] = _deal_scored(before, hand.totals, names)
        before = list(hand.totals)
        rows.append(row)
    return rows


def _deal_scored(before: Sequence[int], after: Sequence[int], names: Sequence[str]) -> Markup:
    """What one deal gave the teams: ``Ana & Cy +12`` (both when both scored)."""
    teams = sides_html(names)
    gains = [(teams[t], after[t] - before[t]) for t in range(2) if after[t] != before[t]]
    if not gains:
        return Markup("Nobody scores")
    return Markup(", ").join(Markup("{} +{}").format(team, gain) for team, gain in gains)


def _next_line(sheet: GameSheet) -> Markup:
    """Who deals the next hand, and with three or four players who plays whom."""
    names = list(sheet.players)
    if len(names) == 4:
        games = [
            Markup("{} deals to {}").format(
                bdi(names[g.dealer]), bdi(names[g.players[0] + g.players[1] - g.dealer])
            )
            for g in sheet.next_games
        ]
        return Markup("Next deal: {}; {}.").format(*games)
    dealer = sheet.next_dealer
    if len(names) == 3:
        a, b = (p for p in range(3) if p != dealer)
        return Markup("Next hand: <b>{}</b> deals and sits out; {} plays {}.").format(
            bdi(names[dealer]), bdi(names[a]), bdi(names[b])
        )
    return Markup("Next hand: <b>{}</b> deals.").format(bdi(names[dealer]))


def _score_cards(view: dict[str, Any]) -> None:
    """What each player's score card adds: Hollywood's three games, and the shutouts.

    A Hollywood card shows each game's (column's) total, ``None`` where the
    player has not opened it, not the sum of the three (which no target
    applies to). ``shutout`` labels the card of the player who shut the
    other out: ``Shutout!`` for a game, ``Shutout in game 2`` (or ``games
    1 and 3``) for Hollywood columns, shown as soon as the column closes.
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
        if view["hollywood"]:
            shut = [
                str(col["game"])
                for col in view["columns"]
                if col["result"] and col["result"]["shutout"] and col["winner"] == player["name"]
            ]
            player["shutout"] = (
                f"Shutout in game{'s' if len(shut) > 1 else ''} {' and '.join(shut)}"
                if shut
                else None
            )
        else:
            result = view["result"]
            player["shutout"] = (
                "Shutout!"
                if result and result["shutout"] and result["winner"] == player["name"]
                else None
            )


def _result_view(
    result: GameResult, names: Sequence[str], rules: Mapping[str, Any], boxes: Sequence[int]
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
    for p, (name, html) in enumerate(zip(sides, sides_html(names), strict=True)):
        items = [("Hand points", result.totals[p])]
        items.append((f"Box bonus ({rules['box_bonus']} a box)", result.box_bonus[p]))
        if p == winner:
            label = "Game bonus"
            if result.shutout and rules["shutout"] == "double_bonus":
                label += " (doubled: shutout)"
            items.append((label, result.game_bonus))
            if result.shutout and rules["shutout"] == "double_total":
                subtotal = sum(v for _, v in items)
                items.append(("Shutout: total doubled", subtotal))
        rows.append(
            {
                "name": name,
                "html": html,
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
        "table": _table(rows),
        "shutout": result.shutout,
        "net": result.net,
        "pays": game_over_line(result, names) if two else None,
        "payments": None if two else _payments(result, names),
        "finals": [result.final[winner]]
        + [final for p, final in enumerate(result.final) if p != winner],
    }


def _payments(result: GameResult, names: Sequence[str]) -> list[Markup]:
    """The settlement of a three-player or partnership game, one sentence per loser
    (:func:`_loser_line`, given the result as JSON, as the tally has it), with the shutout
    of a loser who won no hand."""
    sides = sides_html(names)
    plain = result.to_dict()
    lines = []
    for loser in result.losers:
        line = _loser_line(plain, loser, names)
        if loser in result.shut_out and not result.shutout:
            line += Markup(" {} won no hand: shutout, doubled against {} only.").format(
                sides[loser], sides[loser]
            )
        lines.append(line)
    return lines


def _table(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per-player items as table rows: ``{"label", "values": [per player, None if absent]}``."""
    labels: list[str] = []
    for row in rows:
        labels += [label for label, _ in row["items"] if label not in labels]
    return [
        {"label": label, "values": [dict(row["items"]).get(label) for row in rows]}
        for label in labels
    ]


def _money(amount: float) -> str:
    return f"{amount:.2f}"


def rules_summary(rules: Mapping[str, Any]) -> str:
    """A short line naming the preset and what differs from it."""
    current = Rules.from_dict(dict(rules))
    changed = current.differences()
    text = f"{current.based_on} rules"
    if changed:
        text += " with " + ", ".join(
            f"{k.replace('_', ' ')} {_show(v)}" for k, v in changed.items()
        )
    return text


def _show(value: Any) -> str:
    if value is None:
        return "not allowed"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value).replace("_", " ")


def hand_view(
    record: StoredHand, names: Sequence[str], before: Sequence[int] | None = None
) -> dict[str, Any]:
    """One hand of the sheet as its page shows it: summary, input and showdown.

    A three-player hand adds who sat out; a partnership deal has ``games``,
    each game's players, dealer, summary and deadwood counts, and ``scored``,
    what it gave the teams (``before``: the totals before it).
    """
    given = record.input or {}
    kind = given.get("kind", "quick")
    view: dict[str, Any] = {
        "n": record.n,
        "badge": badge(record),
        "label": OUTCOME_LABELS[badge(record)],
        "text": describe_hand(record, names),
        "kind": kind,
        "dealer": names[record.dealer],
        "totals": record.totals,
        "corrected": record.corrected,
        "showdown": None,
        "counts": None,
        "upcard": None,
        "replay": kind == "record",
        "sat_out": (
            names[record.sits_out] if getattr(record, "sits_out", None) is not None else None
        ),
        "games": None,
    }
    detail = record.detail
    if hasattr(record, "games"):
        given_games = given.get("games") or [{"kind": "void"}] * 2
        details = (detail or {}).get("games") or [None, None]
        view["text"] = None
        view["scored"] = _deal_scored(before or [0, 0], record.totals, names)
        view["games"] = [
            {
                "players": Markup(" v ").join(bdi(names[p]) for p in game.players),
                "dealer": names[game.dealer],
                "badge": badge(game),
                "label": OUTCOME_LABELS[badge(game)],
                "text": describe_hand(game, names, against=True),
                "counts": (
                    _counts(sub, sub_detail, names, game.players)
                    if sub.get("kind") == "quick"
                    else None
                ),
                "showdown": (
                    showdown_view(
                        KnockResult.from_dict(sub_detail),
                        [names[sub["knocker"]], names[_opponent(game.players, sub["knocker"])]],
                    )
                    if sub.get("kind") == "cards" and sub_detail
                    else None
                ),
            }
            for game, sub, sub_detail in zip(record.games, given_games, details, strict=True)
        ]
        return view
    seats = (
        (0, 1)
        if getattr(record, "sits_out", None) is None
        else tuple(p for p in range(3) if p != record.sits_out)
    )
    if given.get("upcard"):
        view["upcard"] = card_info(given["upcard"])
    if kind in ("cards", "record") and detail and detail.get("knocker"):
        knocker = given.get("knocker", detail.get("knocker_player"))
        showdown = (
            ReplayedDeal.from_dict(detail).showdown
            if kind == "record"
            else KnockResult.from_dict(detail)
        )
        if showdown is not None:
            view["showdown"] = showdown_view(
                showdown, [names[knocker], names[_opponent(seats, knocker)]]
            )
        if detail.get("upcard"):
            view["upcard"] = card_info(detail["upcard"])
    elif kind == "quick":
        view["counts"] = _counts(given, detail, names, seats)
    return view


def _opponent(seats: Sequence[int], seat: int) -> int:
    return seats[1] if seat == seats[0] else seats[0]


def _counts(
    given: Mapping[str, Any],
    detail: Mapping[str, Any] | None,
    names: Sequence[str],
    seats: Sequence[int],
) -> dict[str, Any]:
    """A quick hand's deadwood counts as the hand page words them."""
    knocker = given["knocker"]
    return {
        "knocker": names[knocker],
        "defender": names[_opponent(seats, knocker)],
        "knocker_deadwood": given["knocker_deadwood"],
        "defender_deadwood": given["defender_deadwood"],
        "breakdown": (_breakdown_line(DeadwoodResult.from_dict(detail)) if detail else None),
    }


def quick_previews(
    rules: Mapping[str, Any], hand: Mapping[str, Any], seatings: Sequence[Any]
) -> list[dict[str, Any]]:
    """The score of a quick hand, or of each game of a partnership deal, before it is saved.

    Each game is scored as the two-player hand it is (its knocker given as
    seat 0 or 1 of its ``seating``, :class:`api.pad.forms.Seating`), so the
    preview needs nothing from the store beyond
    :func:`~scorekeeper.store.hands.evaluate_hand`.
    """
    hands = hand["games"] if hand.get("kind") == "deal" else [hand] * len(seatings)
    previews = []
    for seating, one in zip(seatings, hands, strict=True):
        pair = [seating.names[p] for p in seating.seats]
        own = dict(one)
        if "knocker" in own:
            own["knocker"] = seating.seats.index(own["knocker"])
        result = evaluate_hand(own, rules, players=pair)
        previews.append(
            {
                **quick_preview(result, pair, len(seating.names) > 2 or None),
                "players": Markup(" v ").join(bdi(name) for name in pair),
            }
        )
    return previews


def quick_preview(
    result: HandEvaluation, names: Sequence[str], against: bool | None = None
) -> dict[str, Any]:
    """A quick hand's score before it is saved (``evaluate_hand``'s result) for the page
    (``against``: as :func:`describe_hand`)."""
    entry = result.entry
    return {
        "badge": badge(entry),
        "label": OUTCOME_LABELS[badge(entry)],
        "text": describe_hand(entry, names, against),
        "breakdown": (
            _breakdown_line(result.detail) if isinstance(result.detail, DeadwoodResult) else None
        ),
    }


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
    winner = (
        None
        if showdown.winner is None
        else {Side.KNOCKER: knocker, Side.DEFENDER: defender}[showdown.winner]
    )
    if outcome == Outcome.UNDERCUT:
        headline = Markup("Undercut! {} scores {}.").format(
            bdi(capfirst(defender)), showdown.points
        )
    elif outcome in (Outcome.GIN, Outcome.BIG_GIN):
        headline = Markup("{}! {} scores {}.").format(
            OUTCOME_LABELS[outcome].capitalize(), bdi(capfirst(knocker)), showdown.points
        )
    elif outcome == Outcome.TIE:
        headline = Markup("A tie: {} and {} have the same deadwood; nobody scores.").format(
            bdi(capfirst(knocker)), bdi(defender)
        )
    else:
        headline = Markup("{} knocks and scores {}.").format(
            bdi(capfirst(knocker)), showdown.points
        )
    laid = [{"card": card_info(x.card), "meld": cards_info(x.meld)} for x in d.layoffs]
    laid_codes = {x.card for x in d.layoffs}
    possible = could_lay_off(showdown)
    return {
        "outcome": outcome.value,
        "label": OUTCOME_LABELS[outcome],
        "winner": winner,
        "points": showdown.points,
        "headline": headline,
        "breakdown": _breakdown_line(showdown),
        "knocker": {
            "name": knocker,
            "melds": [cards_info(m) for m in k.melds],
            "deadwood_cards": cards_info(k.deadwood_cards),
            "deadwood": k.deadwood,
        },
        "defender": {
            "name": defender,
            "melds": [cards_info(m) for m in d.melds],
            "deadwood_cards": cards_info(d.deadwood_cards),
            "deadwood": d.deadwood,
            "best_deadwood": d.best_deadwood,
            "layoffs": laid,
        },
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


def describe_hand(hand: Any, names: Sequence[str], against: bool | None = None) -> Markup:
    """One line for the hand list: ``Ana knocked: 12`` / ``Bor undercut Ana: 29`` (HTML).

    With three players (a hand with ``sits_out``) or for one game of a
    partnership deal (``against``) it says whom the winner beat: ``Ana beat
    Bor: 12`` (the badge says how).
    """
    if hand.void:
        return Markup("Void hand: nobody scores" if against is None else "Void: nobody scores")
    if against is None:
        against = getattr(hand, "sits_out", None) is not None
    verb = {
        "knock": "{w} knocked",
        "gin": "{w} went gin",
        "big_gin": "{w} went big gin",
        "undercut": "{w} undercut {l}",
    }
    line = (
        verb["undercut"]
        if hand.outcome == "undercut"
        else ("{w} beat {l}" if against else verb.get(hand.outcome, "{w}"))
    )
    return Markup(line + ": {points}").format(
        w=bdi(names[hand.winner]), l=bdi(names[hand.loser]), points=hand.points
    )


def voided_originals(
    log: Sequence[Mapping[str, Any]], hands: Sequence[StoredHand]
) -> dict[int, Entry]:
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
            if before["entry"].get("winner") is not None:  # it scored (not a deal of four)
                found[hand.n] = Entry.from_dict(before["entry"])
                break
            if not (before["entry"].get("void") and before["corrected"]):
                break
            seq = before["seq"]
    return found


def badge(hand: Any) -> str:
    """The outcome badge of a hand record: knock, gin, big_gin, undercut, void, or
    ``deal`` for a partnership deal that scored (its games have their own)."""
    if hand.void:
        return "void"
    if hasattr(hand, "games"):
        return "deal"
    return str(hand.outcome or "void")


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
    target = None if sheet.rules["scoring"] == "hollywood" else sheet.rules["target"]
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
    return {
        "count": len(codes),
        "deadwood": best["deadwood"],
        "melds": [cards_info(meld) for meld in best["melds"]],
        "deadwood_cards": cards_info(best["deadwood_cards"]),
        "ties": len(found) - 1,
    }


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
        return Markup("All square: nobody {} anything.").format(verb)
    return _pays(bdi(names[payer]), verb, bdi(names[payee]), points, amount)


def _pays(payer: Markup, verb: str, payee: Markup, points: int, amount: float | None) -> Markup:
    """``Bor pays Ana 320 points.``, at a stake ``Bor pays Ana 16.00 (320 points).``"""
    count = point_count(points)
    if amount is None:
        return Markup("{} {} {} {}.").format(payer, verb, payee, count)
    return Markup("{} {} {} {} ({}).").format(payer, verb, payee, _money(amount), count)


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
        line = Markup("{} wins the game, but the box bonuses count for more: {}").format(
            bdi(names[winner]), line
        )
    return line


def tally_view(tally: Mapping[str, Any]) -> dict[str, Any]:
    """The running tally of the games chained by rematch, for its page.

    From :func:`~scorekeeper.store.stats.rematch_tally`. Each game: its
    number, who won, its payment line and the running total after it
    (``Bor owes Ana 2.15 (43 points).``); ``standing`` is the latest running
    total, ``count`` the number of games.
    """
    names = tally["players"]
    games = []
    for game in tally["games"]:
        if not game["over"]:
            result = Markup("Being played.")
        elif game["winner"] is None:
            result = Markup("A tie: nobody pays.")
        elif len(names) == 3:
            result = Markup("{} won. {}").format(
                bdi(names[game["winner"]]),
                Markup(" ").join(
                    _loser_line(game, p, names) for p in range(3) if p != game["winner"]
                ),
            )
        else:
            paid = game["settlement"]
            result = Markup("{} won. {}").format(
                bdi(names[game["winner"]]),
                payment_line(game["nets"], names, paid[0]["amount"] if len(paid) == 1 else None),
            )
        money = game["money"]
        running = (
            _standing(game["points"], names, money)
            if len(names) == 3
            else payment_line(
                game["points"], names, None if money is None else max(money), verb="owes"
            )
        )
        games.append(
            {
                "id": game["id"],
                "number": game["number"],
                "over": game["over"],
                "winner": None if game["winner"] is None else names[game["winner"]],
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


def _loser_line(game: Mapping[str, Any], loser: int, names: Sequence[str]) -> Markup:
    """What one loser of a finished game of three players, or the losing partnership,
    settles with the winner: one sentence for the sheet's payments and the rematch tally.

    ``game`` is a sheet's result as JSON or a tally's game: its ``winner``, ``nets`` per side
    (the loser's own difference of finals, negative when the loser's box bonuses outweigh
    the game: the winner pays) and ``settlement`` (``None`` without a stake, a
    partnership's one payment, or a list). ``Bor pays Ana 21.00 (210 points).``, without
    a stake ``Bor pays Ana 210 points.`` (a finished game pays, as with two players: a
    running total owes); partners ``Bor & Dan pay Ana & Cy ...``. Nothing to settle:
    ``Ana and Bor are even: nobody pays.``, naming the pair, since a game of three has two
    settlements and the two-player ``All square`` would not say whose.
    """
    sides = sides_html(names)
    winner = game["winner"]
    difference = -game["nets"][loser]
    if difference == 0:
        return Markup("{} and {} are even: nobody pays.").format(sides[winner], sides[loser])
    payer, payee = (loser, winner) if difference > 0 else (winner, loser)
    settled = game.get("settlement") or []
    paid = [settled] if isinstance(settled, Mapping) else settled
    amount = next((p["amount"] for p in paid if loser in (p["payer"], p["payee"])), None)
    return _pays(
        sides[payer], "pay" if len(names) == 4 else "pays", sides[payee], abs(difference), amount
    )


def _standing(points: Sequence[int], names: Sequence[str], money: Sequence[float] | None) -> Markup:
    """Three players' running totals: who is up and who is down, in points (and money).

    ``Ana is up 274 points (27.40); Bor is down 190 (19.00); Cy is down 84 (8.40).``
    """
    parts = []
    for p, name in enumerate(names):
        cash = "" if money is None else f" ({_money(abs(money[p]))})"
        if points[p] == 0:
            parts.append(Markup("{} is even").format(bdi(name)))
        else:
            parts.append(
                Markup("{} is {} {} points{}").format(
                    bdi(name), "up" if points[p] > 0 else "down", abs(points[p]), cash
                )
            )
    return Markup("; ").join(parts) + "."


def record_view(stats: Mapping[str, Any]) -> dict[str, Any]:
    """A player's record (:func:`~scorekeeper.store.stats.player_stats`) as the page lists it.

    ``rows`` are ``(label, value)`` in players' words; ``rivals`` the head to
    head lines; ``imported`` the note on imported games, which are not
    counted (their hands were not entered under the game's scorekeeping).
    """
    average = stats["average_hand"]
    rows = [
        ("Games", stats["games"]),
        ("Games finished", stats["finished"]),
        ("Games won", stats["wins"]),
        ("Games lost", stats["losses"]),
        ("Hands played", stats["hands"]),
        ("Hands won", stats["hands_won"]),
        ("Gins", stats["gins"]),
        ("Undercuts", stats["undercuts"]),
        ("Average hand won", "no hand won yet" if average is None else f"{average:g} points"),
    ]
    imported = stats["imported_games"]
    note = (
        "Imported games are not counted; there are none for this player."
        if not imported
        else f"{imported} imported game{'s are' if imported != 1 else ' is'} left out:"
        " only games scored here count."
    )
    return {"name": stats["name"], "rows": rows, "imported": note, "rivals": stats["head_to_head"]}
