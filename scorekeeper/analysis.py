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
* **The showdown** (:func:`review_knock`, which also reviews a showdown
  entered card by card): the knocker's arrangement against the best one (the
  knocker's points against what the best legal arrangement scores against
  the defender's best reply), and the defender's layoffs and melds against
  the best (``missed_layoffs``: cards the defender could have laid off, when
  the reply laid down cost points).

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

from .cards import DECK, Card
from .engine import Deal, DealResult, Phase, parse_action
from .errors import InvalidRecordError
from .knock import KnockResult, Layoff, knocker_points, verify_knock
from .melds import hand_mask, mask_all_melds, mask_codes, mask_deadwood, mask_discards
from .records import DEAL_FORMAT, MATCH_FORMAT, load_deal, match_deals, play_steps
from .results import Result
from .rules import Rules

SUMMARY_KEYS = (
    "deadwood_given_away",
    "discards_off_best",
    "missed_melds",
    "missed_knocks",
    "missed_gins",
    "showdown_cost",
)
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
        return {
            "players": list(names),
            "deals": deals,
            "summary": _total([d["summary"] for d in deals], names),
        }
    if record.get("format") != DEAL_FORMAT:
        raise InvalidRecordError(
            f"format must be {DEAL_FORMAT!r} or {MATCH_FORMAT!r}", code="bad_format", field="format"
        )
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
    return {
        "players": names,
        "dealer": deal.dealer,
        "void": result.void,
        "outcome": None if result.outcome is None else str(result.outcome),
        "points": result.points,
        "decisions": decisions,
        "showdown": shown,
        "summary": summary,
    }


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
    if phase in (Phase.UPCARD_OFFER, Phase.DRAW):
        if verb == "draw discard" or top is None or closed:
            return None
        made = _meld_with(hand, top)
        if made is None:
            return None
        barred = 0 if deal.rules.discard_taken == "allowed" else top.bit
        least = min(left for _, left in mask_discards(hand | top.bit, barred))
        return {
            **base,
            "kind": "draw",
            "passed_up": {"card": top.code, "meld": mask_codes(made), "deadwood_with_it": least},
        }
    if phase != Phase.DISCARD:
        return None
    barred = 0 if taken is None or deal.rules.discard_taken == "allowed" else taken.bit
    options = list(mask_discards(hand, barred))
    best = min(left for _, left in options)
    gin = best == 0 or (deal.big_gin_allowed and mask_deadwood(hand) == 0)
    if verb == "big gin":
        return {**base, "kind": "big_gin", "deadwood": 0, "best_deadwood": 0, "cost": 0}
    assert card is not None  # every other discard-phase action names its card
    kept = mask_deadwood(hand & ~card.bit)
    fact = {
        **base,
        "kind": "discard" if verb == "discard" else "knock",
        "deadwood": kept,
        "best_deadwood": best,
        "best_discards": [DECK[bit.bit_length() - 1].code for bit, left in options if left == best],
        "cost": kept - best,
    }
    if verb == "discard" and best <= deal.knock_limit:
        fact["knock_available"] = best
    if gin and (verb == "discard" or kept > 0):
        fact["gin_available"] = True
    return fact


def _meld_with(hand: int, card: Card) -> int | None:
    """A meld ``card`` would make with the hand (the longest), or ``None``."""
    melds = [meld for meld in mask_all_melds(hand | card.bit) if meld & card.bit]
    return max(melds, key=lambda meld: meld.bit_count()) if melds else None


@dataclass(frozen=True, slots=True)
class KnockerReview(Result):
    """The knocker's arrangement against the best one (:func:`review_knock`).

    ``points`` is what the arrangement laid down scores for the knocker (+
    won, - lost, 0 for a tie), ``best_points`` what the best legal
    arrangement scores, both against the defender's best reply; ``cost``
    the difference. When it costs something, ``best_melds`` are the best
    arrangement's melds and ``missed_melds`` those of them not laid down
    (both empty otherwise).
    """

    deadwood: int
    best_deadwood: int
    points: int
    best_points: int
    cost: int
    best_melds: tuple[tuple[str, ...], ...]
    missed_melds: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class DefenderReview(Result):
    """The defender's reply against the best one to the same arrangement (:func:`review_knock`).

    ``points`` is what the defender scored (+ won, - lost), ``best_points``
    what the best reply (own melds and layoffs chosen together) would have
    scored; ``cost`` the difference. When it costs something,
    ``missed_layoffs`` are the best reply's layoffs not made and
    ``needless_layoffs`` the cards laid off that the best reply keeps in
    the defender's own melds (both empty otherwise).
    """

    deadwood: int
    best_deadwood: int
    points: int
    best_points: int
    cost: int
    missed_layoffs: tuple[Layoff, ...]
    needless_layoffs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class KnockReview(Result):
    """What optimal play would have changed in a showdown (:func:`review_knock`)."""

    knocker: KnockerReview
    defender: DefenderReview


def review_knock(
    result: KnockResult,
    *,
    rules: Rules | Mapping | str | None = None,
    upcard: str | Card | None = None,
) -> KnockReview:
    """A scored showdown (the melds and layoffs as laid down) against optimal play.

    Each player is measured on their own choice, the other's play being
    optimal: the knocker's arrangement and the best legal one, each against
    the defender's best reply (the knocker lays down first and cannot know
    what the defender will get wrong); the defender's reply and the best
    reply to the arrangement actually laid down. So a knocker's cost is
    never hidden by a defender's mistake, nor the other way round. ``rules``
    and ``upcard`` are the hand's, as for
    :func:`~scorekeeper.knock.verify_knock`.

    >>> laid = verify_knock("Ah 2h 3h 3c 3d 9s 9d 9c As 2c", "4h 5h Kc Kd Ks Js Qs 8d 6s Tc",
    ...                     knocker_melds=["Ah 2h 3h", "9s 9d 9c"], layoffs=[])
    >>> review = review_knock(laid)
    >>> review.knocker.cost, review.knocker.missed_melds, review.defender.cost
    (12, (('3c', '3d', '3h'),), 9)
    >>> [x.card for x in review.defender.missed_layoffs]
    ['4h', '5h']
    """
    knocker, defender = result.knocker.cards, result.defender.cards
    best = verify_knock(knocker, defender, rules=rules, upcard=upcard)
    reply = verify_knock(
        knocker, defender, rules=rules, upcard=upcard, knocker_melds=result.knocker.melds
    )
    points, best_points = knocker_points(reply), knocker_points(best)
    knocker_cost = best_points - points
    missed_melds = tuple(m for m in best.knocker.melds if m not in result.knocker.melds)
    scored = knocker_points(result)
    defender_cost = scored - points  # the defender's points are the knocker's, negated
    laid = {x.card for x in result.defender.layoffs}
    kept = {x.card for x in reply.defender.layoffs}
    return KnockReview(
        knocker=KnockerReview(
            deadwood=result.knocker.deadwood,
            best_deadwood=best.knocker.deadwood,
            points=points,
            best_points=best_points,
            cost=knocker_cost,
            best_melds=best.knocker.melds if knocker_cost else (),
            missed_melds=missed_melds if knocker_cost else (),
        ),
        defender=DefenderReview(
            deadwood=result.defender.deadwood,
            best_deadwood=reply.defender.deadwood,
            points=-scored,
            best_points=-points,
            cost=defender_cost,
            missed_layoffs=tuple(x for x in reply.defender.layoffs if x.card not in laid)
            if defender_cost
            else (),
            needless_layoffs=tuple(sorted(laid - kept, key=list(defender).index))
            if defender_cost
            else (),
        ),
    )


def _showdown(deal: Deal, result: DealResult) -> dict:
    """The knocker's arrangement and the defender's reply against the best ones.

    The knocker's ``points`` and ``cost`` here are those actually scored
    (the defender's mistakes included), as a deal's summary adds them up.
    """
    knocker = result.knocker_player
    showdown = result.showdown
    assert knocker is not None and showdown is not None
    review = review_knock(showdown, rules=deal.rules, upcard=deal.upcard)
    actual = knocker_points(showdown)
    mine, theirs = review.knocker, review.defender
    return {
        "knocker": {
            "player": knocker,
            "deadwood": mine.deadwood,
            "best_deadwood": mine.best_deadwood,
            "points": actual,
            "best_points": mine.best_points,
            "cost": max(0, mine.best_points - actual),
        },
        "defender": {
            "player": 1 - knocker,
            "deadwood": theirs.deadwood,
            "best_deadwood": theirs.best_deadwood,
            "missed_layoffs": mask_codes(hand_mask([x.card for x in theirs.missed_layoffs])),
            "points": theirs.points,
            "best_points": theirs.best_points,
            "cost": theirs.cost,
        },
    }


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
        " the showdown cost {showdown_cost} point{showdown_cost:s}.",
    ),
    "passed_up": (
        "step {step} ({player}, {action}): passed up {card}, which makes [{meld}]"
        " (deadwood {deadwood_with_it} with it)",
        "{player} passed up {card}, which makes {meld} (deadwood {deadwood_with_it} with it).",
    ),
    "kept": (
        "step {step} ({player}, {action}): kept deadwood {deadwood}; best {best_deadwood}"
        " by discarding {best_discards}",
        "{player} kept deadwood {deadwood}; discarding {best_discards:or} kept {best_deadwood}.",
    ),
    "knock": (
        "step {step} ({player}, {action}): could have knocked with {knock_available}",
        "{player} could have knocked with {knock_available}.",
    ),
    "gin": (
        "step {step} ({player}, {action}): could have gone gin",
        "{player} could have gone gin.",
    ),
    "arrangement": (
        "{player}'s arrangement scored {points}; the best would have scored {best_points}",
        "{player}'s melds scored {points}; the best arrangement would have scored {best_points}.",
    ),
    "layoffs": (
        "{player} could have laid off {missed_layoffs} ({cost} points)",
        "{player} could have laid off {missed_layoffs}: {cost} points.",
    ),
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

    def words(self, *, prose: bool, name: Callable[[int], str], card: Callable[[str], str]) -> str:
        """The remark as the scorepad's sentence (``prose``) or the command line's line.

        ``name(seat)`` and ``card(code)`` show a player and a card; the words
        hold nothing else but numbers and, in a line, the action's text (so
        with names and cards escaped, a sentence is safe HTML).
        """
        template = WORDS[self.kind][1 if prose else 0]
        return _Wording(card).format(
            template, **self.values, player=name(self.player), step=self.step
        )


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
    said = [
        Remark("summary", "summary", seat, {key: mine[key] for key in SUMMARY_KEYS})
        for seat, mine in enumerate(deal["summary"])
    ]
    for fact in deal["decisions"]:
        said += _decision_remarks(fact)
    shown = deal["showdown"]
    if shown is not None:
        knocker, defender = shown["knocker"], shown["defender"]
        if knocker["cost"]:
            said.append(
                Remark(
                    "showdown",
                    "arrangement",
                    knocker["player"],
                    {"points": knocker["points"], "best_points": knocker["best_points"]},
                )
            )
        if defender["missed_layoffs"]:
            said.append(
                Remark(
                    "showdown",
                    "layoffs",
                    defender["player"],
                    {"missed_layoffs": tuple(defender["missed_layoffs"]), "cost": defender["cost"]},
                )
            )
    return said


def _decision_remarks(fact: Mapping[str, Any]) -> list[Remark]:
    """What one measured decision cost (nothing for a decision that cost nothing)."""
    found: list[tuple[str, dict[str, Any]]] = []
    passed = fact.get("passed_up")
    if passed:
        found.append(
            (
                "passed_up",
                {
                    "card": (passed["card"],),
                    "meld": tuple(passed["meld"]),
                    "deadwood_with_it": passed["deadwood_with_it"],
                },
            )
        )
    if fact.get("cost"):
        found.append(
            (
                "kept",
                {
                    "deadwood": fact["deadwood"],
                    "best_deadwood": fact["best_deadwood"],
                    "best_discards": tuple(fact["best_discards"]),
                },
            )
        )
    if "knock_available" in fact:
        found.append(("knock", {"knock_available": fact["knock_available"]}))
    if fact.get("gin_available"):
        found.append(("gin", {}))
    return [
        Remark(
            "decision", kind, fact["player"], {"action": fact["action"], **values}, fact["step"] + 1
        )
        for kind, values in found
    ]
