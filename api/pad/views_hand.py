"""What the scorepad shows of one hand, computed here so the web layer only renders.

A hand with its badge and one-line summary, its page (input, counts,
showdown), the preview of a quick hand before it is saved, a verified
showdown (with what the defender could have laid off) and the live
read-out of the tap grid. Cards in them are :func:`~api.pad.terms.card_info`
dicts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from scorekeeper.arrangements import arrangements
from scorekeeper.cards import mask_cards, parse_cards
from scorekeeper.gamesheet import StoredHand
from scorekeeper.handinput import HandInput
from scorekeeper.hands import DeadwoodResult, HandEvaluation, evaluate_hand
from scorekeeper.knock import KnockResult
from scorekeeper.layoffs import layoff_options
from scorekeeper.melds import hand_mask
from scorekeeper.records import ReplayedDeal
from scorekeeper.results import Outcome, Side
from scorekeeper.rules import Rules
from scorekeeper.sheet import (
    AnyHandRecord,
    Entry,
    GameRecord,
    PartnershipHandRecord,
    ThreePlayerHandRecord,
)

from ..i18n import _, format_number, lazy_gettext
from .labels import bdi, game_pair, html, sides_html
from .terms import capfirst, card_info, cards_info

OUTCOME_LABELS = {
    # Translators: the badge of a hand won by a knock (the sheet's list of hands).
    "knock": lazy_gettext("knock"),
    "gin": lazy_gettext("gin"),
    "big_gin": lazy_gettext("big gin"),
    "undercut": lazy_gettext("undercut"),
    # Translators: the badge of a tied knock (equal deadwood, nobody scores).
    "tie": lazy_gettext("tie"),
    # Translators: the badge of a void hand (nobody scores).
    "void": lazy_gettext("void"),
    # Translators: the badge of a partnership deal (two games played at once).
    "deal": lazy_gettext("deal"),
}
"""Each hand outcome's badge, as the sheet's list of hands shows it."""

_BONUS_WORDS = {
    "gin": lazy_gettext("%(line)s + %(bonus)s gin bonus"),
    "big_gin": lazy_gettext("%(line)s + %(bonus)s big gin bonus"),
    "undercut": lazy_gettext("%(line)s + %(bonus)s undercut bonus"),
}
"""A breakdown's bonus by outcome: ``9 deadwood difference + 25 undercut bonus``."""


Described = StoredHand | AnyHandRecord | GameRecord | Entry
"""What the hand list describes: a stored hand, a core hand record, one game of a
partnership deal, or the score-sheet entry a corrected hand had."""


def _core(hand: Described) -> AnyHandRecord | GameRecord | Entry:
    """The core record of a stored hand (any other as it is)."""
    return hand.record if isinstance(hand, StoredHand) else hand


def badge(hand: Described) -> str:
    """The outcome badge of a hand record: knock, gin, big_gin, undercut, tie, void, or
    ``deal`` for a partnership deal that scored (its games have their own)."""
    if hand.void:
        return "void"
    if isinstance(_core(hand), PartnershipHandRecord):
        return "deal"
    return str(hand.outcome or "void")


def describe_hand(hand: Described, names: Sequence[str], against: bool | None = None) -> Markup:
    """One line for the hand list: ``Ana knocked: 12`` / ``Bor undercut Ana: 29`` (HTML).

    With three players (a hand with ``sits_out``) or for one game of a
    partnership deal (``against``) it says whom the winner beat: ``Ana beat
    Bor: 12`` (the badge says how).
    """
    if hand.void:
        return html(_("Void hand: nobody scores") if against is None else _("Void: nobody scores"))
    if hand.outcome == Outcome.TIE:
        return html(_("Tied knock: nobody scores") if against is None else _("Tie: nobody scores"))
    if against is None:
        against = isinstance(_core(hand), ThreePlayerHandRecord)
    verb = {
        "knock": _("%(winner)s knocked: %(points)s"),
        "gin": _("%(winner)s went gin: %(points)s"),
        "big_gin": _("%(winner)s went big gin: %(points)s"),
        "undercut": _("%(winner)s undercut %(loser)s: %(points)s"),
    }
    line = (
        verb["undercut"]
        if hand.outcome == Outcome.UNDERCUT
        else (
            _("%(winner)s beat %(loser)s: %(points)s")
            if against
            else verb.get(str(hand.outcome), "%(winner)s: %(points)s")
        )
    )
    assert hand.winner is not None and hand.loser is not None  # not void: somebody won
    return html(
        line,
        winner=bdi(names[hand.winner]),
        loser=bdi(names[hand.loser]),
        points=format_number(hand.points),
    )


def deal_scored(before: Sequence[int], after: Sequence[int], names: Sequence[str]) -> Markup:
    """What one deal gave the teams: ``Ana & Cy +12`` (both when both scored)."""
    teams = sides_html(names)
    gains = [(teams[t], after[t] - before[t]) for t in range(2) if after[t] != before[t]]
    if not gains:
        return html(_("Nobody scores"))
    return Markup(", ").join(Markup("{} +{}").format(team, gain) for team, gain in gains)


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
    core = record.record
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
        "sat_out": names[core.sits_out] if isinstance(core, ThreePlayerHandRecord) else None,
        "games": None,
    }
    detail = record.detail
    if isinstance(core, PartnershipHandRecord):
        given_games = given.get("games") or [{"kind": "void"}] * 2
        details = (detail or {}).get("games") or [None, None]
        view["text"] = None
        view["scored"] = deal_scored(before or [0, 0], record.totals, names)
        view["games"] = [
            {
                "players": game_pair(*(names[p] for p in game.players)),
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
            for game, sub, sub_detail in zip(core.games, given_games, details, strict=True)
        ]
        return view
    seats = (
        tuple(p for p in range(3) if p != core.sits_out)
        if isinstance(core, ThreePlayerHandRecord)
        else (0, 1)
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
    rules: Rules, hand: Mapping[str, Any] | HandInput, seatings: Sequence[Any]
) -> list[dict[str, Any]]:
    """The score of a quick hand, or of each game of a partnership deal, before it is saved.

    Each game is scored as the two-player hand it is (its knocker given as
    seat 0 or 1 of its ``seating``, :class:`scorekeeper.seating.Seating`), so the
    preview needs nothing from the store beyond
    :func:`~scorekeeper.hands.evaluate_hand`.
    """
    if not isinstance(hand, Mapping):
        hand = hand.data
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
                "players": game_pair(*pair),
            }
        )
    return previews


def quick_preview(
    result: HandEvaluation, names: Sequence[str], against: bool | None = None
) -> dict[str, Any]:
    """A quick hand's score before it is saved (``evaluate_hand``'s result) for the page
    (``against``: as :func:`describe_hand`)."""
    entry = result.entry
    assert isinstance(entry, Entry)  # a quick hand: one game's entry
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
    line = _("%(difference)s deadwood difference", difference=b.difference)
    if b.bonus:
        line = str(_BONUS_WORDS[str(detail.outcome)]) % {"line": line, "bonus": b.bonus}
    if b.multiplier != 1:
        line = _("(%(line)s) x %(times)s for the spade upcard", line=line, times=b.multiplier)
    return f"{line} = {format_number(detail.points)}"


def showdown_view(showdown: KnockResult, names: Sequence[str]) -> dict[str, Any]:
    """A verified showdown as the pages show it (cards as :func:`~api.pad.terms.card_info`)."""
    k, d = showdown.knocker, showdown.defender
    knocker, defender = names
    outcome = showdown.outcome
    winner = (
        None
        if showdown.winner is None
        else {Side.KNOCKER: knocker, Side.DEFENDER: defender}[showdown.winner]
    )
    if outcome == Outcome.UNDERCUT:
        headline = html(
            _("Undercut! %(name)s scores %(points)s."),
            name=bdi(capfirst(defender)),
            points=format_number(showdown.points),
        )
    elif outcome in (Outcome.GIN, Outcome.BIG_GIN):
        headline = html(
            _("Gin! %(name)s scores %(points)s.")
            if outcome == Outcome.GIN
            else _("Big gin! %(name)s scores %(points)s."),
            name=bdi(capfirst(knocker)),
            points=format_number(showdown.points),
        )
    elif outcome == Outcome.TIE:
        headline = html(
            _("A tie: %(knocker)s and %(defender)s have the same deadwood; nobody scores."),
            knocker=bdi(capfirst(knocker)),
            defender=bdi(defender),
        )
    else:
        headline = html(
            _("%(name)s knocks and scores %(points)s."),
            name=bdi(capfirst(knocker)),
            points=format_number(showdown.points),
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
        for __, laid in layoff_options((hand_mask(meld_codes),), held):
            fits |= laid[-1]
        for card in mask_cards(fits):
            found.append({"card": card_info(card), "meld": cards_info(meld_codes)})
    return found


def live_melds(cards: Any) -> dict[str, Any]:
    """The live read-out while cards are tapped: deadwood and the best melds.

    ``{"count", "deadwood", "melds", "deadwood_cards", "ties"}``; the cards
    are lists of :func:`~api.pad.terms.card_info`. Raises :class:`CardError` for bad cards.
    """
    codes = parse_cards(cards)
    if not codes:
        return {"count": 0, "deadwood": 0, "melds": [], "deadwood_cards": [], "ties": 0}
    found = arrangements(codes)
    best = found[0]
    return {
        "count": len(codes),
        "deadwood": best.deadwood,
        "melds": [cards_info(meld) for meld in best.melds],
        "deadwood_cards": cards_info(best.deadwood_cards),
        "ties": len(found) - 1,
    }
