"""A match's deals on the score sheet (RULES.md 7): each deal's entry and the dealer rotation.

:func:`deal_entry` turns a played deal's result into its score sheet entry;
:func:`check_rotation` holds a match record's dealers to the rotation
(:func:`scorekeeper.sheet.next_dealer`) and :func:`sheet_error` names the
deal a finished game cannot score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .deal_result import DealResult
from .errors import IllegalRecordError, RecordError, RuleError
from .results import Outcome
from .rules import Rules
from .sheet import Entry, score_sheet


def deal_entry(result: DealResult) -> Entry:
    """The :func:`~scorekeeper.sheet.score_sheet` entry of a played deal's result.

    A void deal is a void entry; a tied knock that scores nothing (``tie:
    no_score``) is a tie entry: a hand played, with no winner and no box.
    """
    winner = result.winner_player
    if result.void:
        return Entry(void=True)
    if winner is None:
        return Entry(outcome=Outcome.TIE)
    return Entry(winner=winner, loser=1 - winner, points=result.points, outcome=result.outcome)


def check_rotation(
    dealer: int, previous: DealResult, index: int, rules: Rules, names: Sequence[str]
) -> None:
    """Raise :class:`IllegalRecordError` (``dealer_rotation``) unless deal ``index`` is dealt
    by the dealer the rules name after ``previous`` (the deal before it)."""
    expected = previous.next_dealer
    if dealer == expected:
        return
    last = index - 1
    if previous.void or previous.winner_player is None:
        why = f"deal {last} was void, so the same dealer deals again"
    else:
        winner = names[previous.winner_player]
        why = {
            "winner": f"{winner} won deal {last} and the winner deals",
            "loser": f"{winner} won deal {last} and the loser deals",
            "alternate": "the deal alternates",
        }[rules.next_dealer]
        why += f" (next_dealer: {rules.next_dealer})"
    raise IllegalRecordError(
        f"dealer must be {names[expected]} ({expected}): {why}",
        code="dealer_rotation",
        params={
            "expected": names[expected],
            "expected_seat": expected,
            "dealer": names[dealer],
            "dealer_seat": dealer,
        },
        field="dealer",
    )


def sheet_error(
    entries: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    rules: Rules,
    first: int,
    error: RuleError,
) -> RecordError:
    """The deal at which the score sheet refused the entries (the game was already over)."""
    for index in range(1, len(entries) + 1):
        try:
            score_sheet(entries[:index], players=names, rules=rules, dealer=first)
        except RuleError:
            return RecordError.restating(
                error,
                f"deal {index - 1}: the game is already over after deal {index - 2};"
                f" this deal cannot be scored ({error})",
                deal=index - 1,
                field="deals",
            )
    return RecordError.restating(
        error,
        f"score sheet: {error}",  # pragma: no cover
        field="deals",
    )
