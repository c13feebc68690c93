"""Where a deal was won or lost: the decisions of a recorded deal, measured.

:func:`analyse` replays a deal record (or every deal of a match record) and
reports, for each decision, facts computed only from what the player to act
held and had seen, never from hidden cards:

* **Discards** (a plain discard, or the discard of a knock or gin): the
  deadwood the 10 cards kept leave, against the least any allowed discard
  would have left (``best_deadwood``, ``best_discards``, as
  :func:`~scorekeeper.melds.discard_options` reckons it, the card just
  taken barred unless ``discard_taken`` allows it); ``cost`` is the
  difference.
* **Draws**: taking the stock (or passing the upcard) when the card on the
  discard pile would have made a meld with the hand: ``passed_up`` names
  the card, the meld and the least deadwood taking it would have left.
* **Missed knocks and gins**: a plain discard when a knock was possible
  (``knock_available``: the least deadwood a knock would have left), and a
  plain discard or a knock when gin (or big gin) was possible
  (``gin_available``). Not knocking can be good play; these are facts, not
  verdicts.
* **The showdown**: the knocker's arrangement against the best one (the
  knocker's points against what the best legal arrangement scores against
  the defender's best reply), and the defender's layoffs and melds against
  the best (``missed_layoffs``: cards the defender could have laid off).

Each player's summary adds these up: deadwood given away by discards,
discards off the best, melds passed up, knocks and gins missed, points the
showdown choices cost. A void deal has no showdown.

What the analysis says, in words, is written here once: :func:`remarks`
gives a deal's :class:`Remark` s in order (summaries, costly decisions,
showdown) and :data:`WORDS` their wording, both the command line's terse
lines and the scorepad's sentences; each front end only shows names and
cards its own way (``scorekeeper analyse``, the replay viewer's panel).

>>> import scorekeeper as sk
>>> report = analyse(sk.simulate(7, players=("random", "greedy")))
>>> [s["player"] for s in report["summary"]]
['random 1', 'greedy 2']
>>> said = remarks(report)[0]
>>> said.words(prose=True, name=report["players"].__getitem__, card=str)[:20]
'random 1: gave away '
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .cards import DECK, Card, cards_mask, mask_cards, parse_cards
from .engine import DISCARD, DRAW, UPCARD_OFFER, Deal, DealResult, parse_action
from .errors import InvalidRecordError
from .knock import KnockResult, verify_knock
from .melds import mask_all_melds, mask_codes, mask_deadwood, mask_discards
from .records import DEAL_FORMAT, MATCH_FORMAT, load_deal, match_deals, play_steps
from .results import Side

SUMMARY_KEYS = ("deadwood_given_away", "discards_off_best", "missed_melds", "missed_knocks",
                "missed_gins", "showdown_cost")
"""What a player's summary counts (see the module docs)."""


def analyse(record: Mapping[str, Any]) -> dict:
    """The analysis of a deal record, or of each deal of a match record.

    A deal gives ``{"players", "dealer", "void", "outcome", "points",
    "decisions": [...], "showdown": {...} | None, "summary": [per player]}``;
    a match ``{"players", "deals": [deal analyses], "summary": [per player,
    over all deals]}``. Raises :class:`~scorekeeper.errors.RecordError` (with its step) for a
    record that does not replay.
    """
    if not isinstance(record, Mapping):
        raise InvalidRecordError("a record must be a JSON object", code="bad_record")
    if record.get("format") == MATCH_FORMAT:
        names, loaded = match_deals(record)
        deals = [_analyse_deal(deal, actions, showdown) for deal, actions, showdown in loaded]
        return {"players": list(names), "deals": deals,
                "summary": _total([d["summary"] for d in deals], names)}
    if record.get("format") != DEAL_FORMAT:
        raise InvalidRecordError(f"format must be {DEAL_FORMAT!r} or {MATCH_FORMAT!r}",
                                 code="bad_format", field="format")
    return _analyse_deal(*load_deal(record))


def _analyse_deal(deal: Deal, actions: list, showdown: Mapping | None) -> dict:
    names = list(deal.names)
    decisions: list[dict] = []
    before = _state(deal)
    for step, action, player in play_steps(deal, actions, showdown):
        fact = _decision(deal, before, step, action, player)
        if fact is not None:
            decisions.append(fact)
        before = _state(deal)
    result = deal.result
    assert result is not None  # play_steps ends the deal
    shown = None if result.void else _showdown(deal, result)
    summary = [{"player": name, **dict.fromkeys(SUMMARY_KEYS, 0)} for name in names]
    for fact in decisions:
        mine = summary[fact["player"]]
        mine["deadwood_given_away"] += fact.get("cost", 0)
        mine["discards_off_best"] += fact.get("cost", 0) > 0
        mine["missed_melds"] += fact.get("passed_up") is not None
        mine["missed_knocks"] += fact.get("knock_available") is not None
        mine["missed_gins"] += bool(fact.get("gin_available"))
    if shown is not None:
        summary[shown["knocker"]["player"]]["showdown_cost"] += shown["knocker"]["cost"]
        summary[shown["defender"]["player"]]["showdown_cost"] += shown["defender"]["cost"]
    return {"players": names, "dealer": deal.dealer, "void": result.void,
            "outcome": None if result.outcome is None else str(result.outcome),
            "points": result.points,
            "decisions": decisions, "showdown": shown, "summary": summary}


def _state(deal: Deal) -> tuple:
    """What the player to act holds and sees before acting."""
    top = deal.top
    # the discard pile cannot be taken at the wall (but to knock) nor after two passes
    closed = deal.wall or deal.must_draw_stock
    return (deal.phase, deal.turn, deal.hand_mask(deal.turn), top, deal.taken, closed)


def _decision(deal: Deal, before: tuple, step: int, action: str, player: int) -> dict | None:
    phase, _, hand, top, taken, closed = before
    verb, card = parse_action(action)
    base = {"step": step, "player": player, "action": action}
    if phase in (UPCARD_OFFER, DRAW):
        if verb == "draw discard" or top is None or closed:
            return None
        made = _meld_with(hand, top)
        if made is None:
            return None
        barred = 0 if deal.rules.discard_taken == "allowed" else top.bit
        least = min(left for _, left in mask_discards(hand | top.bit, barred))
        return {**base, "kind": "draw",
                "passed_up": {"card": top.code, "meld": mask_codes(made),
                              "deadwood_with_it": least}}
    if phase != DISCARD:
        return None
    barred = 0 if taken is None or deal.rules.discard_taken == "allowed" else taken.bit
    options = list(mask_discards(hand, barred))
    best = min(left for _, left in options)
    gin = best == 0 or (deal.big_gin_allowed and mask_deadwood(hand) == 0)
    if verb == "big gin":
        return {**base, "kind": "big_gin", "deadwood": 0, "best_deadwood": 0, "cost": 0}
    assert card is not None  # every other discard-phase action names its card
    kept = mask_deadwood(hand & ~card.bit)
    fact = {**base, "kind": "discard" if verb == "discard" else "knock",
            "deadwood": kept, "best_deadwood": best,
            "best_discards": [DECK[bit.bit_length() - 1].code
                              for bit, left in options if left == best],
            "cost": kept - best}
    if verb == "discard" and best <= deal.knock_limit:
        fact["knock_available"] = best
    if gin and (verb == "discard" or kept > 0):
        fact["gin_available"] = True
    return fact


def _meld_with(hand: int, card: Card) -> int | None:
    """A meld ``card`` would make with the hand (the longest), or ``None``."""
    melds = [meld for meld in mask_all_melds(hand | card.bit) if meld & card.bit]
    return max(melds, key=lambda meld: meld.bit_count()) if melds else None


def _showdown(deal: Deal, result: DealResult) -> dict:
    """The knocker's arrangement and the defender's reply against the best ones."""
    knocker = result.knocker_player
    assert knocker is not None and result.knocker is not None and result.defender is not None
    defender = 1 - knocker
    held = [mask_cards(deal.hand_mask(p)) for p in (0, 1)]
    upcard = deal.upcard
    actual = _net_for_knocker(result)
    best = verify_knock(held[knocker], held[defender], rules=deal.rules, upcard=upcard)
    # the defender's best reply to the arrangement actually laid down
    reply = verify_knock(held[knocker], held[defender], rules=deal.rules, upcard=upcard,
                         knocker_melds=result.knocker.melds)
    laid = cards_mask(parse_cards([item.card for item in result.defender.layoffs]))
    could = cards_mask(parse_cards([item.card for item in reply.defender.layoffs]))
    return {
        "knocker": {
            "player": knocker, "deadwood": result.knocker.deadwood,
            "best_deadwood": best.knocker.deadwood,
            "points": actual, "best_points": _net_for_knocker(best),
            "cost": max(0, _net_for_knocker(best) - actual),
        },
        "defender": {
            "player": defender, "deadwood": result.defender.deadwood,
            "best_deadwood": reply.defender.deadwood,
            "missed_layoffs": mask_codes(could & ~laid),
            "points": -actual, "best_points": -_net_for_knocker(reply),
            "cost": max(0, actual - _net_for_knocker(reply)),
        },
    }


def _net_for_knocker(result: DealResult | KnockResult) -> int:
    """What a scored showdown gives the knocker: + points won, - points lost, 0 for a tie."""
    if result.winner == Side.KNOCKER:
        return result.points
    return -result.points if result.winner == Side.DEFENDER else 0


def _total(summaries: list[list[dict]], names) -> list[dict]:
    totals = [{"player": name, **dict.fromkeys(SUMMARY_KEYS, 0)} for name in names]
    for deal in summaries:
        for total, mine in zip(totals, deal, strict=True):
            for key in SUMMARY_KEYS:
                total[key] += mine[key]
    return totals


WORDS: dict[str, tuple[str, str]] = {
    "summary": (
        "{player}: gave away {deadwood_given_away} deadwood in {discards_off_best} discard(s);"
        " passed up {missed_melds} meld(s); missed {missed_knocks} knock(s) and {missed_gins}"
        " gin(s); showdown cost {showdown_cost}",
        "{player}: gave away {deadwood_given_away} deadwood in {discards_off_best}"
        " discard{discards_off_best:s}; passed up {missed_melds} meld{missed_melds:s};"
        " missed {missed_knocks} knock{missed_knocks:s} and {missed_gins} gin{missed_gins:s};"
        " the showdown cost {showdown_cost} point{showdown_cost:s}."),
    "passed_up": (
        "step {step} ({player}, {action}): passed up {card}, which makes [{meld}]"
        " (deadwood {deadwood_with_it} with it)",
        "{player} passed up {card}, which makes {meld} (deadwood {deadwood_with_it}"
        " with it)."),
    "kept": (
        "step {step} ({player}, {action}): kept deadwood {deadwood}; best {best_deadwood}"
        " by discarding {best_discards}",
        "{player} kept deadwood {deadwood}; discarding {best_discards:or} kept"
        " {best_deadwood}."),
    "knock": (
        "step {step} ({player}, {action}): could have knocked with {knock_available}",
        "{player} could have knocked with {knock_available}."),
    "gin": (
        "step {step} ({player}, {action}): could have gone gin",
        "{player} could have gone gin."),
    "arrangement": (
        "{player}'s arrangement scored {points}; the best would have scored {best_points}",
        "{player}'s melds scored {points}; the best arrangement would have scored"
        " {best_points}."),
    "layoffs": (
        "{player} could have laid off {missed_layoffs} ({cost} points)",
        "{player} could have laid off {missed_layoffs}: {cost} points."),
}
"""What a deal's analysis says, by remark kind: ``(line, sentence)``.

The line is the command line's terse form (``discard(s)``, the step and its
action in front); the sentence is the scorepad's, for people (plurals
agreed, a full stop, the player's name in front). In both, ``{player}`` is
the name of the player the remark is about, a list of cards is shown
card by card with spaces between (``{...:or}``: with "or" between), and
``{n:s}`` is "s" unless ``n`` is 1. ``{action}`` (the record's text) is
only in the lines.
"""


@dataclass(frozen=True)
class Remark:
    """One thing a deal's analysis says, before names and cards are shown.

    ``part`` is where it belongs: ``"summary"`` (one per player),
    ``"decision"`` (``step``: the decision's step counted from 1, as the
    replay viewer numbers it) or ``"showdown"``; ``kind`` keys
    :data:`WORDS`; ``player`` is the seat it is about; ``values`` fill
    the words (numbers, card codes as tuples, the action's text).
    """

    part: str
    kind: str
    player: int
    values: Mapping[str, Any]
    step: int | None = None

    def words(self, *, prose: bool, name: Callable[[int], str],
              card: Callable[[str], str]) -> str:
        """The remark as the scorepad's sentence (``prose``) or the command line's line.

        ``name(seat)`` and ``card(code)`` show a player and a card; the words
        hold nothing else but numbers and, in a line, the action's text (so
        with names and cards escaped, a sentence is safe HTML).
        """
        template = WORDS[self.kind][1 if prose else 0]
        return _Wording(card).format(template, **self.values, player=name(self.player),
                                     step=self.step)


class _Wording(string.Formatter):
    """Formats :data:`WORDS`: card tuples shown by ``card``, ``:or`` and ``:s`` specs."""

    def __init__(self, card: Callable[[str], str]):
        self.card = card

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, tuple):
            return (" or " if format_spec == "or" else " ").join(map(self.card, value))
        if format_spec == "s":
            return "" if value == 1 else "s"
        return super().format_field(value, format_spec)


def remarks(deal: Mapping[str, Any]) -> list[Remark]:
    """What the analysis of one deal (:func:`analyse`) says, in order: each player's summary,
    the decisions that cost (by step), then the showdown choices that cost."""
    said = [Remark("summary", "summary", seat, {key: mine[key] for key in SUMMARY_KEYS})
            for seat, mine in enumerate(deal["summary"])]
    for fact in deal["decisions"]:
        said += _decision_remarks(fact)
    shown = deal["showdown"]
    if shown is not None:
        knocker, defender = shown["knocker"], shown["defender"]
        if knocker["cost"]:
            said.append(Remark("showdown", "arrangement", knocker["player"], {
                "points": knocker["points"], "best_points": knocker["best_points"]}))
        if defender["missed_layoffs"]:
            said.append(Remark("showdown", "layoffs", defender["player"], {
                "missed_layoffs": tuple(defender["missed_layoffs"]),
                "cost": defender["cost"]}))
    return said


def _decision_remarks(fact: Mapping[str, Any]) -> list[Remark]:
    """What one measured decision cost (nothing for a decision that cost nothing)."""
    found: list[tuple[str, dict[str, Any]]] = []
    passed = fact.get("passed_up")
    if passed:
        found.append(("passed_up", {"card": (passed["card"],), "meld": tuple(passed["meld"]),
                                    "deadwood_with_it": passed["deadwood_with_it"]}))
    if fact.get("cost"):
        found.append(("kept", {"deadwood": fact["deadwood"],
                               "best_deadwood": fact["best_deadwood"],
                               "best_discards": tuple(fact["best_discards"])}))
    if "knock_available" in fact:
        found.append(("knock", {"knock_available": fact["knock_available"]}))
    if fact.get("gin_available"):
        found.append(("gin", {}))
    return [Remark("decision", kind, fact["player"], {"action": fact["action"], **values},
                   fact["step"] + 1) for kind, values in found]
