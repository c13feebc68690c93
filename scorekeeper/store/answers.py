"""The answers of a stored game's writes and reads: its sheet, typed or as JSON.

The sheet is always derived from the log (:func:`game_sheet`) or, for a
write, from the summary and rows it has just scored (:class:`Written`);
a repeated request gets its first answer, rebuilt from the log up to its
entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..gamesheet import CUT_KEY, GameSheet, StoredHand
from ..results import from_plain
from ..sheet import AnyHandRecord, AnySheet
from .base import LogEntry, StoredGame, Summary
from .protocol import Store
from .scored import effective_hands, score_hands, stored


def game_sheet(
    game: StoredGame, log: Sequence[LogEntry], scored: AnySheet | None = None
) -> GameSheet:
    """The game's score sheet, derived from its log.

    A :class:`~scorekeeper.gamesheet.GameSheet`: the
    :func:`~scorekeeper.sheet.score_sheet` result with the game's ``id``,
    ``created``, ``updated``, ``status``, ``version`` (the number of log
    entries), first ``dealer`` and ``rules``, each hand a
    :class:`~scorekeeper.gamesheet.StoredHand` (the hand record with
    ``seq``, ``kind``, ``input``, ``detail`` and ``corrected``). ``scored``
    is that ``score_sheet`` result when the caller has just computed it (a
    write does), so that it is not computed twice.
    """
    hands = effective_hands(log)
    sheet = scored if scored is not None else score_hands(game, hands)
    records: tuple[AnyHandRecord, ...] = sheet.hands
    return sheet_of(
        game,
        len(log),
        sheet,
        tuple(stored(record, hand) for record, hand in zip(records, hands, strict=True)),
    )


def sheet_of(
    game: StoredGame, version: int, scored: AnySheet, hands: tuple[StoredHand, ...] | None
) -> GameSheet:
    """The :class:`~scorekeeper.gamesheet.GameSheet` of ``game`` at ``version``."""
    return GameSheet.of(
        id=game.id,
        created=game.created,
        updated=game.updated,
        dealer=game.dealer,
        rules=game.rules,
        version=version,
        scored=scored,
        hands=hands,
        cut=game.cut,
    )


def load_sheet(store: Store, game_id: str) -> GameSheet:
    """The sheet of game ``game_id``; raises :class:`~scorekeeper.store.refusals.NotFound`."""
    game, log = store.game_and_log(game_id)
    return game_sheet(game, log)


def as_answered(
    entry: LogEntry, game: StoredGame, log: list[LogEntry]
) -> tuple[StoredGame, list[LogEntry]]:
    """The game and log as they were when log ``entry`` was written (its first answer)."""
    return replace(game, updated=entry.created), log[: entry.seq]


Answer = tuple[StoredHand | None, GameSheet, bool]
"""What a hand change returns: (the hand record it is about, the sheet, created)."""


@dataclass(frozen=True, slots=True)
class Made:
    """What a write's ``decide`` makes for its answer: the hand record (its JSON, a
    :class:`~scorekeeper.gamesheet.StoredHand`'s ``to_dict()``), the new summary and the
    records of all the sheet's hands (``None``: the minimal answer)."""

    record: dict[str, Any]
    scored: Summary
    records: list[dict[str, Any]] | None


@dataclass(frozen=True, slots=True)
class Written:
    """A hand change as its write left it: its answer typed (:meth:`typed`, the
    :data:`Answer`) or as the JSON the API serves (:meth:`as_json`),
    the latter built from the JSON the write already holds (the rows' records and the
    summary), not through the typed sheet and back.

    ``made`` is what the write's ``decide`` made (a new entry); a repeated request
    (``created`` False) carries its first answer, rebuilt from the log, in ``again``.
    """

    game: StoredGame
    created: bool
    made: Made | None = None
    again: Answer | None = None

    def typed(self) -> Answer:
        """``(the hand record it is about, the sheet, created)``."""
        if self.again is not None:
            return self.again
        assert self.made is not None
        made = self.made
        return StoredHand.from_dict(made.record), dated(self.game, made.scored, made.records), True

    def as_json(self, full: bool) -> tuple[dict[str, Any] | None, dict[str, Any] | None, int]:
        """The answer as the API serves it, in one call: the hand record's JSON
        (``typed()[0].to_dict()``), with ``full`` the sheet's (``typed()[1].to_dict()``, else
        ``None``), and the sheet's version (its ETag)."""
        if self.again is not None:
            hand, sheet, __ = self.again
            return (
                None if hand is None else hand.to_dict(),
                sheet.to_dict() if full else None,
                sheet.version,
            )
        assert self.made is not None
        made = self.made
        whole = sheet_json(self.game, made.scored, made.records) if full else None
        return made.record, whole, self.game.version


def sheet_json(
    game: StoredGame, scored: Summary, records: list[dict[str, Any]] | None
) -> dict[str, Any]:
    """The JSON of the sheet of summary ``scored`` with ``game`` as a write left it and
    ``records`` as its hands (``None``: the minimal sheet, no ``hands``): what
    ``dated(game, scored, records).to_dict()`` gives, key for key, built from the JSON as kept
    (the summary's keys are the core sheet's, in its order)."""
    body: dict[str, Any] = {
        "id": game.id,
        "created": game.created,
        "updated": game.updated,
        "status": scored.status.value,
        "version": game.version,
        "dealer": game.dealer,
    }
    if game.cut is not None:
        body[CUT_KEY] = list(game.cut)
    for key, value in scored.data.items():
        if key != "hands":
            body[key] = value
        elif records is not None:
            body["hands"] = records
    return body


def written(
    entry: LogEntry, created: bool, game: StoredGame, log: list[LogEntry], answer: list[Made]
) -> Written:
    """The change whose content came from log ``entry``.

    ``answer`` holds what a write's ``decide`` made (if it ran). A repeated
    request (not ``created``) gets the answer its first sending got,
    rebuilt from the log up to its entry.
    """
    if created:
        return Written(game, created, made=answer[-1])
    sheet = game_sheet(*as_answered(entry, game, log))
    hand = next((h for h in sheet.hands if h.seq == entry.seq), None)
    return Written(game, created, again=(hand, sheet, created))


def dated(game: StoredGame, scored: Summary, records: list[dict[str, Any]] | None) -> GameSheet:
    """A write's answer: the sheet of summary ``scored`` with ``game`` as the write left it.

    With ``records`` (those of all of the new sheet's rows), the whole sheet; with
    ``None``, the sheet without ``hands`` (``Prefer: return=minimal``:
    nothing read or built that grows with the game).
    """
    core = from_plain(AnySheet, {**scored.data, "hands": []})
    return sheet_of(
        game,
        game.version,
        core,
        None if records is None else tuple(StoredHand.from_dict(r) for r in records),
    )


def minimal_sheet(game: StoredGame) -> dict[str, Any] | None:
    """The JSON of the sheet without ``hands`` of a stored game, from its scored state alone
    (no scoring, no log: what ``Prefer: return=minimal`` answers); ``None`` for a game
    stored before the scored state was kept, until its next write."""
    return None if game.scored is None else sheet_json(game, game.scored, None)
