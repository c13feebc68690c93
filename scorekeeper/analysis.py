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
  entered card by card, so the scorepad and this analysis say the same of
  a hand): each player measured against the other's best play. The
  knocker's arrangement against the best legal one, each against the
  defender's best reply (a defender's mistake never hides a knocker's);
  the defender's reply against the best reply to the arrangement laid
  down, and each layoff it missed with what laying off that card alone
  changes, everything else as laid down, or, when it needs the defender's
  own melds rearranged, so marked with what the best reply is worth
  (:class:`MissedLayoff`).

Each player's summary adds these up: deadwood given away by discards,
discards off the best, melds passed up, knocks and gins missed, points the
showdown choices cost. A void deal has no showdown.

What the analysis says, in words, is written here once: :func:`remarks`
gives a deal's :class:`Remark` s in order (summaries, costly decisions,
showdown) and :data:`WORDS` the command line's terse lines for them
(``scorekeeper analyse``); the scorepad words them for people in its own
languages from the same remarks (the replay viewer's panel, the hindsight).

>>> import scorekeeper as sk
>>> report = analyse(sk.simulate(7, players=("random", "greedy")))
>>> [s.player for s in report.summary]
['random 1', 'greedy 2']
>>> said = remarks(report)[0]
>>> said.words(name=report.players.__getitem__, card=str)[:20]
'random 1: gave away '
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise
from typing import Any

from .cards import DECK, Card
from .engine import Deal, DealResult, Phase, parse_action
from .errors import InvalidRecordError
from .knock import (
    KnockResult,
    Layoff,
    knocker_points,
    layoff_options,
    score_hand,
    verify_knock,
)
from .melds import (
    codes_of,
    hand_mask,
    mask_all_melds,
    mask_deadwood,
    mask_discards,
    mask_points,
)
from .records import DEAL_FORMAT, MATCH_FORMAT, load_deal, match_deals, play_steps
from .results import Outcome, Result
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


class DecisionKind(StrEnum):
    """What a measured decision was: a draw that passed a meld up, or a discard."""

    DRAW = "draw"
    DISCARD = "discard"
    KNOCK = "knock"
    BIG_GIN = "big_gin"


@dataclass(frozen=True, slots=True)
class Decision(Result):
    """A measured decision: its ``step`` (counted from 0), who made it and the action."""

    step: int
    """Index into actions."""
    player: int
    action: str
    kind: DecisionKind


@dataclass(frozen=True, slots=True)
class PassedUp(Result):
    """The upcard or discard a draw passed up, a meld it makes with the hand, and the
    least deadwood taking it would have left."""

    card: str
    meld: tuple[str, ...]
    deadwood_with_it: int
    """The least deadwood taking it (and discarding the best card) leaves."""


@dataclass(frozen=True, slots=True)
class DrawDecision(Decision):
    """Taking the stock (or passing the upcard) when the card offered made a meld."""

    passed_up: PassedUp


@dataclass(frozen=True, slots=True)
class BigGinDecision(Decision):
    """Going big gin: nothing kept, nothing to lose."""

    deadwood: int
    best_deadwood: int
    cost: int


@dataclass(frozen=True, slots=True)
class DiscardDecision(Decision):
    """A discard (plain, or of a knock or gin) against the best discards.

    ``knock_available`` (the least deadwood a knock would have left) and
    ``gin_available`` are only in :meth:`to_dict` when a knock or gin was
    missed.
    """

    deadwood: int
    """Deadwood of the 10 cards kept."""
    best_deadwood: int
    """The least any allowed discard would have kept."""
    best_discards: tuple[str, ...]
    cost: int
    """deadwood - best_deadwood."""
    knock_available: int | None = None
    """A plain discard when a knock was possible: the least deadwood a knock
    would have kept."""
    gin_available: bool = False
    """Gin was possible and not taken."""

    def to_dict(self) -> dict[str, Any]:
        """The decision's JSON, without the knock or gin it did not miss."""
        data = Result.to_dict(self)
        if self.knock_available is None:
            del data["knock_available"]
        if not self.gin_available:
            del data["gin_available"]
        return data


AnyDecision = DrawDecision | BigGinDecision | DiscardDecision
"""A measured decision of any kind."""


@dataclass(frozen=True, slots=True)
class KnockerShowdown(Result):
    """The knocker's arrangement in a deal's showdown against the best legal one, both
    against the defender's best reply (:class:`KnockerReview`: ``points`` is what the
    arrangement laid down scores against that reply, not what the defender's mistakes
    let it score; the deal's ``points`` are those)."""

    player: int
    deadwood: int
    best_deadwood: int
    points: int
    """+ won, - lost: what the arrangement laid down scores against the defender's best
    reply (the deal's points are what was scored)."""
    best_points: int
    cost: int


@dataclass(frozen=True, slots=True)
class DefenderShowdown(Result):
    """The defender's reply in a deal's showdown against the best reply to the same
    arrangement (:class:`DefenderReview`): ``missed_layoffs`` are the codes of the
    missed layoffs' cards, ``missed_layoff_worth`` each with what it is worth."""

    player: int
    deadwood: int
    best_deadwood: int
    missed_layoffs: tuple[str, ...]
    points: int
    best_points: int
    cost: int
    missed_layoff_worth: tuple[MissedLayoff, ...]
    """The missed layoffs, each with what it is worth."""


@dataclass(frozen=True, slots=True)
class ShowdownAnalysis(Result):
    """A deal's showdown: the knocker's arrangement and the defender's reply, measured."""

    knocker: KnockerShowdown
    defender: DefenderShowdown


@dataclass(frozen=True, slots=True)
class PlayerSummary(Result):
    """What a player's decisions cost in a deal (or a match): see :data:`SUMMARY_KEYS`."""

    player: str
    deadwood_given_away: int = 0
    discards_off_best: int = 0
    missed_melds: int = 0
    missed_knocks: int = 0
    missed_gins: int = 0
    showdown_cost: int = 0


@dataclass(frozen=True, slots=True)
class DealAnalysis(Result):
    """The analysis of one deal: how it ended, each measured decision, the showdown
    (``None`` for a void deal) and each player's summary."""

    players: tuple[str, ...]
    dealer: int
    void: bool
    outcome: Outcome | None
    points: int
    decisions: tuple[AnyDecision, ...]
    showdown: ShowdownAnalysis | None
    summary: tuple[PlayerSummary, ...]


@dataclass(frozen=True, slots=True)
class MatchAnalysis(Result):
    """The analysis of each deal of a match, and each player's summary over all of them."""

    players: tuple[str, ...]
    deals: tuple[DealAnalysis, ...]
    summary: tuple[PlayerSummary, ...]


def analyse(record: Mapping[str, Any]) -> DealAnalysis | MatchAnalysis:
    """The analysis of a deal record (:class:`DealAnalysis`), or of each deal of a match
    record (:class:`MatchAnalysis`).

    Raises :class:`~scorekeeper.errors.RecordError` (with its step) for a
    record that does not replay.
    """
    if not isinstance(record, Mapping):
        raise InvalidRecordError("a record must be a JSON object", code="bad_record")
    if record.get("format") == MATCH_FORMAT:
        names, loaded = match_deals(record)
        deals = tuple(_analyse_deal(deal, actions, showdown) for deal, actions, showdown in loaded)
        return MatchAnalysis(tuple(names), deals, _total([d.summary for d in deals], names))
    if record.get("format") != DEAL_FORMAT:
        raise InvalidRecordError(
            f"format must be {DEAL_FORMAT!r} or {MATCH_FORMAT!r}", code="bad_format", field="format"
        )
    return _analyse_deal(*load_deal(record))


def _analyse_deal(
    deal: Deal, actions: Sequence[str], showdown: Mapping[str, Any] | None
) -> DealAnalysis:
    names = tuple(deal.names)
    decisions: list[AnyDecision] = []
    before = _state(deal)
    for step, action, player in play_steps(deal, actions, showdown):
        fact = _decision(deal, before, step, action, player)
        if fact is not None:
            decisions.append(fact)
        before = _state(deal)
    result = deal.result
    assert result is not None  # play_steps ends the deal
    shown = None if result.void else _showdown(deal, result)
    counts = [dict.fromkeys(SUMMARY_KEYS, 0) for _ in names]
    for fact in decisions:
        mine = counts[fact.player]
        if isinstance(fact, DrawDecision):
            mine["missed_melds"] += 1
            continue
        mine["deadwood_given_away"] += fact.cost
        mine["discards_off_best"] += fact.cost > 0
        if isinstance(fact, DiscardDecision):
            mine["missed_knocks"] += fact.knock_available is not None
            mine["missed_gins"] += fact.gin_available
    if shown is not None:
        counts[shown.knocker.player]["showdown_cost"] += shown.knocker.cost
        counts[shown.defender.player]["showdown_cost"] += shown.defender.cost
    return DealAnalysis(
        players=names,
        dealer=deal.dealer,
        void=result.void,
        outcome=result.outcome,
        points=result.points,
        decisions=tuple(decisions),
        showdown=shown,
        summary=tuple(
            PlayerSummary(name, **mine) for name, mine in zip(names, counts, strict=True)
        ),
    )


_State = tuple[Phase, int, int, Card | None, Card | None, bool]
"""What the player to act holds and sees: phase, seat, hand mask, top discard, the card
just taken, whether the discard pile is closed."""


def _state(deal: Deal) -> _State:
    """What the player to act holds and sees before acting."""
    top = deal.top
    # the discard pile cannot be taken at the wall (but to knock) nor after two passes
    closed = deal.wall or deal.must_draw_stock
    return (deal.phase, deal.turn, deal.hand_mask(deal.turn), top, deal.taken, closed)


def _decision(
    deal: Deal, before: _State, step: int, action: str, player: int
) -> AnyDecision | None:
    phase, _, hand, top, taken, closed = before
    verb, card = parse_action(action)
    if phase in (Phase.UPCARD_OFFER, Phase.DRAW):
        if verb == "draw discard" or top is None or closed:
            return None
        made = _meld_with(hand, top)
        if made is None:
            return None
        barred = 0 if deal.rules.discard_taken == "allowed" else top.bit
        least = min(left for _, left in mask_discards(hand | top.bit, barred))
        return DrawDecision(
            step, player, action, DecisionKind.DRAW, PassedUp(top.code, codes_of(made), least)
        )
    if phase != Phase.DISCARD:
        return None
    barred = 0 if taken is None or deal.rules.discard_taken == "allowed" else taken.bit
    options = list(mask_discards(hand, barred))
    best = min(left for _, left in options)
    gin = best == 0 or (deal.big_gin_allowed and mask_deadwood(hand) == 0)
    if verb == "big gin":
        return BigGinDecision(step, player, action, DecisionKind.BIG_GIN, 0, 0, 0)
    assert card is not None  # every other discard-phase action names its card
    kept = mask_deadwood(hand & ~card.bit)
    return DiscardDecision(
        step,
        player,
        action,
        DecisionKind.DISCARD if verb == "discard" else DecisionKind.KNOCK,
        deadwood=kept,
        best_deadwood=best,
        best_discards=tuple(
            DECK[bit.bit_length() - 1].code for bit, left in options if left == best
        ),
        cost=kept - best,
        knock_available=best if verb == "discard" and best <= deal.knock_limit else None,
        gin_available=gin and (verb == "discard" or kept > 0),
    )


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
class MissedLayoff(Layoff):
    """A layoff the best reply makes and the reply laid down did not, and what it is worth.

    ``card`` goes on the knocker's ``meld`` (as the best reply lays it).
    Unless ``rearranged``: ``cards`` are the cards of that one change, in
    laying order, ``card`` last (the cards a run needs laid off before it
    first), all deadwood as laid down, and ``points`` what that change alone
    is worth to the defender, everything else as laid down. ``rearranged``:
    no such change lays ``card`` off (it, or a card it needs, is in one of
    the defender's own melds, or laid off elsewhere): only a reply with the
    defender's own melds (or layoffs) rearranged does; then ``cards`` are
    every card the best reply lays off and the reply laid down did not, and
    ``points`` what the best reply is worth against the reply laid down.
    """

    cards: tuple[str, ...]
    """Unless rearranged: the cards of that one change, in laying order, card last (those
    a run needs first). Rearranged: every card the best reply lays off that the reply
    did not."""
    points: int
    """Unless rearranged: what laying off cards alone is worth to the defender, everything
    else as laid down. Rearranged: what the best reply is worth against the reply laid
    down."""
    rearranged: bool
    """The card (or one it needs) is in one of the defender's own melds as laid down, or
    laid off elsewhere: only a rearranged reply lays it off."""


@dataclass(frozen=True, slots=True)
class DefenderReview(Result):
    """The defender's reply against the best one to the same arrangement (:func:`review_knock`).

    ``points`` is what the defender scored (+ won, - lost), ``best_points``
    what the best reply (own melds and layoffs chosen together) would have
    scored; ``cost`` the difference. When it costs something,
    ``missed_layoffs`` are the best reply's layoffs not made, each with
    what it is worth (:class:`MissedLayoff`), and ``needless_layoffs`` the
    cards laid off that the best reply keeps in the defender's own melds
    (both empty otherwise).
    """

    deadwood: int
    best_deadwood: int
    points: int
    best_points: int
    cost: int
    missed_layoffs: tuple[MissedLayoff, ...]
    needless_layoffs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class KnockReview(Result):
    """What optimal play would have changed in a showdown (:func:`review_knock`)."""

    knocker: KnockerReview
    defender: DefenderReview


def review_knock(
    result: KnockResult,
    *,
    rules: Rules | Mapping[str, Any] | str | None = None,
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
        defender=_defender_review(result, reply, points, Rules.from_dict(rules)),
    )


def _defender_review(
    result: KnockResult, reply: KnockResult, points: int, rules: Rules
) -> DefenderReview:
    """The defender's reply in ``result`` against ``reply``, the best reply to the
    arrangement laid down, after which the knocker scores ``points``."""
    scored = knocker_points(result)
    cost = scored - points  # the defender's points are the knocker's, negated
    laid = {x.card for x in result.defender.layoffs}
    # needless: laid off, where the best reply melds it (one it leaves as deadwood, the run
    # it was laid on needing a card the best reply melds, was not needless)
    kept = {card for meld in reply.defender.melds for card in meld}
    missed = [x for x in reply.defender.layoffs if x.card not in laid] if cost else []
    return DefenderReview(
        deadwood=result.defender.deadwood,
        best_deadwood=reply.defender.deadwood,
        points=-scored,
        best_points=-points,
        cost=cost,
        missed_layoffs=_worth(result, missed, cost, rules),
        needless_layoffs=tuple(sorted(laid & kept, key=list(result.defender.cards).index))
        if cost
        else (),
    )


def _worth(
    result: KnockResult,
    missed: Sequence[Layoff],
    cost: int,
    rules: Rules,
) -> tuple[MissedLayoff, ...]:
    """Each missed layoff with what laying it off changes, everything else as laid down.

    A card is laid off alone (with the cards of its run it needs first) when
    it and they are deadwood as laid down: the defender's points with that
    change against the points scored. Otherwise it needs the reply
    rearranged, and is worth what the best reply is (``cost``).
    """
    if not missed:
        return ()
    shown = result.defender
    extended = {hand_mask(meld): hand_mask(meld) for meld in result.knocker.melds}
    for x in shown.layoffs:
        extended[hand_mask(x.meld)] |= hand_mask([x.card])
    chains = [
        [prefix ^ before for before, prefix in pairwise(prefixes)]
        for _, prefixes in layoff_options(extended.values(), hand_mask(shown.deadwood_cards))
    ]
    scored = knocker_points(result)
    every = tuple(x.card for x in missed)
    found = []
    for x in missed:
        bit = hand_mask([x.card])
        # the cards laid off one after another up to the card, on the shortest way
        ways = [chain[: chain.index(bit) + 1] for chain in chains if bit in chain]
        if not ways:
            found.append(MissedLayoff(x.card, x.meld, every, cost, True))
            continue
        way = min(ways, key=len)
        change = score_hand(
            result.knocker.deadwood,
            shown.deadwood - mask_points(sum(way)),
            rules,
            multiplier=result.breakdown.multiplier,
        )
        cards = tuple(DECK[b.bit_length() - 1].code for b in way)
        found.append(MissedLayoff(x.card, x.meld, cards, scored - knocker_points(change), False))
    return tuple(found)


def _showdown(deal: Deal, result: DealResult) -> ShowdownAnalysis:
    """The knocker's arrangement and the defender's reply against the best ones, as
    :func:`review_knock` measures them."""
    knocker = result.knocker_player
    showdown = result.showdown
    assert knocker is not None and showdown is not None
    review = review_knock(showdown, rules=deal.rules, upcard=deal.upcard)
    mine, theirs = review.knocker, review.defender
    return ShowdownAnalysis(
        KnockerShowdown(
            player=knocker,
            deadwood=mine.deadwood,
            best_deadwood=mine.best_deadwood,
            points=mine.points,
            best_points=mine.best_points,
            cost=mine.cost,
        ),
        DefenderShowdown(
            player=1 - knocker,
            deadwood=theirs.deadwood,
            best_deadwood=theirs.best_deadwood,
            missed_layoffs=codes_of(hand_mask([x.card for x in theirs.missed_layoffs])),
            points=theirs.points,
            best_points=theirs.best_points,
            cost=theirs.cost,
            missed_layoff_worth=theirs.missed_layoffs,
        ),
    )


def _total(
    summaries: Sequence[Sequence[PlayerSummary]], names: Sequence[str]
) -> tuple[PlayerSummary, ...]:
    """Each player's summaries over all deals, added up."""
    return tuple(
        PlayerSummary(
            name,
            **{key: sum(getattr(deal[seat], key) for deal in summaries) for key in SUMMARY_KEYS},
        )
        for seat, name in enumerate(names)
    )


WORDS: dict[str, str] = {
    "summary": "{player}: gave away {deadwood_given_away} deadwood in {discards_off_best}"
    " discard(s); passed up {missed_melds} meld(s); missed {missed_knocks} knock(s) and"
    " {missed_gins} gin(s); showdown cost {showdown_cost}",
    "passed_up": "step {step} ({player}, {action}): passed up {card}, which makes [{meld}]"
    " (deadwood {deadwood_with_it} with it)",
    "kept": "step {step} ({player}, {action}): kept deadwood {deadwood}; best {best_deadwood}"
    " by discarding {best_discards}",
    "knock": "step {step} ({player}, {action}): could have knocked with {knock_available}",
    "gin": "step {step} ({player}, {action}): could have gone gin",
    "arrangement": "{player}'s arrangement scored {points} against the best reply; the best"
    " would have scored {best_points}",
    "layoffs": "{player} could have laid off {cards} ({points} points)",
    "rearranged": "{player} could have laid off {cards} by rearranging ({points} points)",
}
"""What a deal's analysis says, by remark kind, as the command line's terse line
(``discard(s)``, the step and its action in front). ``{player}`` is the name of
the player the remark is about, a list of cards is shown card by card with
spaces between. The scorepad words each kind for people in the players'
languages (``api.pad.remarks``).
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

    def words(self, *, name: Callable[[int], str], card: Callable[[str], str]) -> str:
        """The remark as the command line's line (:data:`WORDS`).

        ``name(seat)`` and ``card(code)`` show a player and a card.
        """
        return _Wording(card).format(
            WORDS[self.kind], **self.values, player=name(self.player), step=self.step
        )


class _Wording(string.Formatter):
    """Formats :data:`WORDS`: card tuples shown by ``card``."""

    def __init__(self, card: Callable[[str], str]):
        self.card = card

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, tuple):
            return " ".join(map(self.card, value))
        return str(super().format_field(value, format_spec))


def remarks(deal: DealAnalysis) -> list[Remark]:
    """What the analysis of one deal (:func:`analyse`) says, in order: each player's summary,
    the decisions that cost (by step), then the showdown choices that cost."""
    said = [
        Remark("summary", "summary", seat, {key: getattr(mine, key) for key in SUMMARY_KEYS})
        for seat, mine in enumerate(deal.summary)
    ]
    for fact in deal.decisions:
        said += _decision_remarks(fact)
    shown = deal.showdown
    if shown is not None:
        knocker, defender = shown.knocker, shown.defender
        if knocker.cost:
            said.append(
                Remark(
                    "showdown",
                    "arrangement",
                    knocker.player,
                    {"points": knocker.points, "best_points": knocker.best_points},
                )
            )
        said += layoff_remarks(defender.player, defender.missed_layoff_worth)
    return said


def layoff_remarks(player: int, missed: Sequence[MissedLayoff]) -> list[Remark]:
    """What a defender's missed layoffs (:attr:`DefenderReview.missed_layoffs`) say: one
    ``"layoffs"`` remark per layoff made alone, one ``"rearranged"`` remark for those
    that need the reply rearranged (all at once: the best reply)."""
    said = [
        Remark("showdown", "layoffs", player, {"cards": x.cards, "points": x.points})
        for x in missed
        if not x.rearranged
    ]
    whole = next((x for x in missed if x.rearranged), None)
    if whole is not None:
        said.append(
            Remark("showdown", "rearranged", player, {"cards": whole.cards, "points": whole.points})
        )
    return said


def _decision_remarks(fact: AnyDecision) -> list[Remark]:
    """What one measured decision cost (nothing for a decision that cost nothing)."""
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(fact, DrawDecision):
        passed = fact.passed_up
        found.append(
            (
                "passed_up",
                {
                    "card": (passed.card,),
                    "meld": passed.meld,
                    "deadwood_with_it": passed.deadwood_with_it,
                },
            )
        )
    if isinstance(fact, DiscardDecision):
        if fact.cost:
            found.append(
                (
                    "kept",
                    {
                        "deadwood": fact.deadwood,
                        "best_deadwood": fact.best_deadwood,
                        "best_discards": fact.best_discards,
                    },
                )
            )
        if fact.knock_available is not None:
            found.append(("knock", {"knock_available": fact.knock_available}))
        if fact.gin_available:
            found.append(("gin", {}))
    return [
        Remark("decision", kind, fact.player, {"action": fact.action, **values}, fact.step + 1)
        for kind, values in found
    ]
