"""A result changed after later rounds were paired: which paired round it would unmake.

A knockout (single or double elimination) pairs each round from the
winners, and the losers, of the matches before it: once a later round is
paired, a match's winner is part of that pairing. A change to the winner
(a correction, an undo that reopens the game) would leave the later round
paired on a result that no longer holds. Round robin and Swiss have no such
rounds: a round robin's pairings never depend on results, and a Swiss round,
paired on the standings as they stood, stays a fair pairing when a result
before it changes (its players never met before, whatever the result); the
standings simply count the new result.

:func:`stale_round` finds the first paired round of a knockout whose
recorded pairing (its matches' players and its byes, as sets) is not what
the results before it give; :func:`unmade_round` says whether a change to
one match would make a paired round stale that was not.

>>> from .events import Event, Format, PlayedRound, MatchResult
>>> event = Event(("A", "B", "C", "D"), Format.SINGLE_ELIMINATION)
>>> first = PlayedRound(
...     (MatchResult(("A", "D"), (110, 20), "A"), MatchResult(("B", "C"), (105, 40), "B"))
... )
>>> final = PlayedRound((MatchResult(("A", "B")),))
>>> stale_round(event, [first, final]) is None
True
>>> unmade_round(event, [first, final], 1, 1, MatchResult(("B", "C"), (40, 105), "C"))
2
>>> unmade_round(event, [first, final], 1, 1, MatchResult(("B", "C"), (125, 40), "B")) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import Conflict
from .event_pairing import next_round
from .events import Event, Format, MatchResult, PlayedRound, Round

KNOCKOUTS = frozenset({Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION})
"""The formats whose pairings are decided by single matches' winners."""


def stale_round(event: Event, played: Sequence[PlayedRound]) -> int | None:
    """The first paired round of a knockout whose pairing no longer follows from the
    results of the rounds before it (a match before it unfinished, or won by the
    other player, since it was paired); ``None`` when every round follows, and always
    for a round robin or a Swiss."""
    if event.format not in KNOCKOUTS:
        return None
    for number in range(1, len(played) + 1):
        try:
            expected = next_round(event, played[: number - 1])
        except Conflict:  # a round before it is unfinished
            return number
        if expected is None or not _same(expected, played[number - 1]):
            return number
    return None


def _same(expected: Round, recorded: PlayedRound) -> bool:
    pairs = {frozenset(pairing.players) for pairing in expected.matches}
    return (
        pairs == {frozenset(match.players) for match in recorded.matches}
        and set(expected.byes) == set(recorded.byes)
        and set(expected.walkovers) == set(recorded.walkovers)
    )


def unmade_round(
    event: Event, played: Sequence[PlayedRound], number: int, index: int, result: MatchResult
) -> int | None:
    """The paired round that match ``index`` (from 0, in table order) of round
    ``number`` (from 1) having ``result`` would leave paired on a result that no
    longer holds, or ``None`` when the change unmakes no pairing.

    A round already stale stays so and is no reason to refuse (a change may even
    mend it): only a round that follows now and would not after the change counts.
    """
    before = stale_round(event, played)
    matches = list(played[number - 1].matches)
    matches[index] = result
    changed = PlayedRound(tuple(matches), played[number - 1].byes)
    after = stale_round(event, [*played[: number - 1], changed, *played[number:]])
    if after is None or (before is not None and after >= before):
        return None
    return after
