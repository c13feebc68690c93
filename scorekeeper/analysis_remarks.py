"""What a deal's analysis says, in words: :func:`remarks` and :data:`WORDS`.

:func:`remarks` gives a deal's :class:`Remark` s in order (summaries,
costly decisions, showdown) and :data:`WORDS` the command line's terse
lines for them (``scorekeeper analyse``); the scorepad words them for
people in its own languages from the same remarks (the replay viewer's
panel, the hindsight).

>>> import scorekeeper as sk
>>> from scorekeeper.analysis import analyse
>>> report = analyse(sk.simulate(7, players=("random", "greedy")))
>>> said = remarks(report)[0]
>>> said.words(name=report.players.__getitem__, card=str)[:20]
'random 1: gave away '
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .analysis import SUMMARY_KEYS, DealAnalysis
from .analysis_decisions import AnyDecision, DiscardDecision, DrawDecision
from .knock_review import MissedLayoff

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
    """What the analysis of one deal (:func:`~.analysis.analyse`) says, in order: each
    player's summary, the decisions that cost (by step), then the showdown choices that
    cost."""
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
    """What a defender's missed layoffs
    (:attr:`~.knock_review.DefenderReview.missed_layoffs`) say: one ``"layoffs"`` remark
    per layoff made alone, one ``"rearranged"`` remark for those that need the reply
    rearranged (all at once: the best reply)."""
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
