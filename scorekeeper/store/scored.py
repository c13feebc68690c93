"""A stored game's scored state: its hands as the log gives them, its summary and rows.

Constant-cost writes: each game keeps its scored state (see
:mod:`scorekeeper.store.base`), written in the write's transaction. An
add scores the one new hand from the game's summary
(:func:`~scorekeeper.game.evaluate` and :func:`~scorekeeper.tally.advance`
from the :class:`~scorekeeper.tally.GameState` it resumes), an undo goes back
to the summary kept with the hand before, a correction of hand ``n``
re-scores hands ``n`` on from the summary kept with hand ``n - 1``; none
reads the log. The state is what scoring the log from scratch gives (the
tests compare the two after random writes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import Conflict
from ..game import evaluate
from ..gamesheet import StoredHand
from ..handinput import HandInput, HandKind
from ..hands import HandEvaluation
from ..newgame import GameSettings
from ..paper import DealEntry, Entry
from ..sheet import AnyHandRecord, AnySheet, score_sheet, summary
from ..tally import GameState, advance
from .base import Decision, GameView, LogEntry, SheetRow, StoredGame, Summary

Seated = GameSettings | StoredGame
"""A game as scoring needs it (its settings), stored or about to be."""


@dataclass(frozen=True, slots=True)
class EffectiveHand:
    """A hand on the sheet as the log gives it: ``seq`` the log entry that gave its
    current content, ``input`` the hand as submitted (of ``kind``), ``entry`` and
    ``detail`` its evaluation (JSON), ``corrected`` whether a correction replaced
    the original; ``scored`` the entry typed, for a hand scored just now (its JSON is
    then not read again)."""

    seq: int
    kind: str
    input: Mapping[str, Any]
    entry: dict[str, Any]
    detail: dict[str, Any] | None
    corrected: bool
    scored: Entry | DealEntry | None = None

    @property
    def result(self) -> dict[str, Any]:
        """The evaluation as logged: ``{"entry", "detail"}``."""
        return {"entry": self.entry, "detail": self.detail}


def effective_hands(log: Sequence[LogEntry]) -> list[EffectiveHand]:
    """The hands on the sheet, rebuilt from the log."""
    hands: list[EffectiveHand] = []
    for item in log:
        payload, result = item.payload, item.result
        if item.kind == "undo":
            hands.pop()
        elif item.kind == "correct":
            hands[payload["hand"] - 1] = slot(item.seq, payload["with"], result, True)
        else:
            hands.append(slot(item.seq, payload, result, False))
    return hands


def slot(
    seq: int, hand: Mapping[str, Any], result: Mapping[str, Any], corrected: bool
) -> EffectiveHand:
    return EffectiveHand(
        seq=seq,
        kind=hand["kind"],
        input=hand,
        entry=result["entry"],
        detail=result["detail"],
        corrected=corrected,
    )


def fresh(seq: int, hand: HandInput, scored: HandEvaluation, corrected: bool) -> EffectiveHand:
    """Hand input ``hand`` as just scored (``scored``), to be logged as entry ``seq``."""
    result = scored.to_dict()
    return EffectiveHand(
        seq=seq,
        kind=hand.kind.value,
        input=hand.data,
        entry=result["entry"],
        detail=result["detail"],
        corrected=corrected,
        scored=scored.entry,
    )


def score_hands(game: Seated, hands: Sequence[EffectiveHand]) -> AnySheet:
    return score_sheet(
        [h.entry for h in hands],
        players=game.players,
        rules=game.rules,
        dealer=game.dealer,
        stake=game.stake,
    )


def score_log(game: StoredGame, log: Sequence[LogEntry]) -> AnySheet:
    """The typed :func:`~scorekeeper.sheet.score_sheet` result of a game's log."""
    return score_hands(game, effective_hands(log))


def stored(record: AnyHandRecord, hand: EffectiveHand) -> StoredHand:
    """Hand ``record`` of a sheet with where it came from."""
    return StoredHand(
        record=record,
        seq=hand.seq,
        kind=HandKind(hand.kind),
        input=hand.input,
        detail=hand.detail,
        corrected=hand.corrected,
    )


def start_state(game: Seated) -> GameState:
    """The new game ``game``'s state, before its first hand."""
    return GameState.start(game.rules, game.players, game.dealer, game.stake)


def empty_sheet(game: Seated) -> AnySheet:
    """The new game ``game``'s sheet, before its first hand, as its stored row scores it (the
    row keeps a stake as a float)."""
    stake = None if game.stake is None else float(game.stake)
    return GameState.start(game.rules, game.players, game.dealer, stake).sheet(game.rules)


def empty_summary(game: Seated, sheet: AnySheet | None = None) -> Summary:
    """The summary of the new game ``game``'s sheet, before its first hand (``sheet``: that
    sheet, :func:`empty_sheet`, when the caller has it)."""
    return Summary(summary(empty_sheet(game) if sheet is None else sheet, 0))


def scored_rows(
    game: Seated, hands: Sequence[EffectiveHand], state: GameState
) -> tuple[list[SheetRow], GameState]:
    """The sheet rows of ``hands`` (as :func:`effective_hands` gives them) after ``state``,
    and the state after them.

    Each hand is scored on its own from the state before it, so that
    every row keeps its checkpoint; the cost is linear in ``len(hands)``.
    """
    rows = []
    for hand in hands:
        entry = hand.entry if hand.scored is None else hand.scored
        record, state = advance(game.rules, state, entry)
        rows.append(
            SheetRow(
                n=state.count,
                entry=hand.entry,
                record=stored(record, hand).to_dict(),
                summary=Summary(state.summary(game.rules)),
            )
        )
    return rows, state


def as_hand(row: SheetRow) -> EffectiveHand:
    """A sheet row as :func:`effective_hands` gives a hand (to score it again)."""
    record = row.record
    return EffectiveHand(
        seq=record["seq"],
        kind=record["kind"],
        input=record["input"],
        entry=row.entry,
        detail=record["detail"],
        corrected=record["corrected"],
    )


SAME_IN_EVERY_ROW = ("players", "rules", "stake")
"""The keys of a summary that are the same all game long (the game's settings)."""


class Scored:
    """A game's scored state as a write finds it: its ``summary`` (the JSON kept), its
    typed state (``current``, what a hand is scored from) and, on demand, its rows.

    A game stored before the scored state was kept (``scored`` None) is
    scored from its log once; the write then stores all its rows.
    """

    def __init__(self, game: StoredGame, view: GameView):
        self.game, self.view = game, view
        self.rebuilt: list[SheetRow] | None = None
        if game.scored is None:
            self.rebuilt, self.current = scored_rows(
                game, effective_hands(view.log()), start_state(game)
            )
            self.summary = Summary(self.current.summary(game.rules))
        else:
            self.summary = game.scored
            self.current = GameState.resume(game.scored.data, game.players, game.stake)

    @property
    def count(self) -> int:
        """The number of hands on the sheet."""
        return self.summary.count

    def rows(self, start: int) -> list[SheetRow]:
        """The rows of hands ``start`` (>= 1), ``start + 1``, ... (read from the store)."""
        if self.rebuilt is not None:
            return self.rebuilt[start - 1 :]
        return self.view.rows(start)

    def records(self, start: int) -> list[dict[str, Any]]:
        """The records of hands ``start``, ``start + 1``, ... (the rows' ``record`` alone: an
        answer's hands need nothing else of them)."""
        if self.rebuilt is not None:
            return [row.record for row in self.rebuilt[start - 1 :]]
        return self.view.records(start)

    def before(self, n: int, rows: Sequence[SheetRow]) -> GameState:
        """The state before hand ``n``, ``rows`` being the rows from hand ``n - 1`` on (a
        kept row's summary holds all a state needs)."""
        if n == 1:
            return start_state(self.game)
        return GameState.resume(rows[0].summary.data, self.game.players, self.game.stake)

    def add(self, hand: HandInput, full: bool) -> tuple[Decision, list[dict[str, Any]] | None]:
        """The write's decision for a new ``hand``, scored from this state, and (``full``)
        the records of all the sheet's hands after it (the last one the new hand's).

        Raises :class:`~scorekeeper.errors.Conflict` (``game_over``) once the game has
        ended, and the domain's errors for a bad hand.
        """
        if self.summary.over:
            raise Conflict(
                f"the game is over (after hand {self.count}); no more hands can be entered",
                code="game_over",
                params={"after": self.count},
            )
        game = self.game
        new = fresh(game.version + 1, hand, evaluate(game.rules, self.current, hand), False)
        rows, __ = scored_rows(game, [new], self.current)
        every = [*self.records(1), rows[-1].record] if full else None
        return self.change(new.result, rows[-1].summary, rows[-1].n, rows), every

    def change(self, result: Any, scored: Summary, start: int, rows: list[SheetRow]) -> Decision:
        """The write's decision: ``result`` logged, summary ``scored``, rows from ``start``
        on replaced by ``rows``.

        Rows are kept by :func:`kept` (what it leaves out is the game's, not the row's):
        a long game's rows stay small and quick to read.
        """
        if self.rebuilt is not None:
            start, rows = 1, [*self.rebuilt[: start - 1], *rows]
        return Decision(result=result, scored=scored, start=start, rows=kept(rows))


def kept(rows: Sequence[SheetRow]) -> list[SheetRow]:
    """Sheet rows as the store keeps them: their summaries without :data:`SAME_IN_EVERY_ROW`."""
    return [
        SheetRow(
            row.n,
            row.entry,
            row.record,
            Summary(
                {
                    key: value
                    for key, value in row.summary.data.items()
                    if key not in SAME_IN_EVERY_ROW
                }
            ),
        )
        for row in rows
    ]
