"""A stored game out and in: :func:`export_game` as a match record of every hand's input,
:func:`import_game` from one (or from an engine match record).

A game made by :func:`import_game` is stored as ``imported``: its hands
were not entered under an edit token at the table, so stats leave it out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidRecordError, InvalidValueError, RuleViolation, ScorekeeperError
from ..game import evaluate
from ..gamesheet import GameSheet
from ..handinput import parse_hand
from ..newgame import check_new_game
from ..records import DEFAULT_PLAYERS, MATCH_FORMAT
from ..rescore import GAME_FORMAT, GAME_VERSION
from ..results import Result, plain
from ..rules import Rules
from .base import SheetRow, Summary
from .creating import NewGame, store_game
from .protocol import Store
from .scored import effective_hands, fresh, kept, scored_rows, start_state

EXPORT_FORMAT = GAME_FORMAT
"""The ``format`` of an exported game (a match record with every hand's input)."""


EXPORT_VERSION = GAME_VERSION
"""The version of the exported game format."""


@dataclass(frozen=True, slots=True)
class ExportedGame(Result):
    """A game as a match record (:func:`export_game`): its settings and every hand's input.

    ``to_dict()``: ``{"format": "scorekeeper.game", "version": 1, "players",
    "rules", "dealer", "stake", "created", "hands": [hand, ...]}``, the
    rules' options in alphabetical order (as the store has always written
    them); :func:`import_game` reads it back.
    """

    players: tuple[str, ...]
    rules: Rules
    dealer: int
    stake: float | None
    created: str
    hands: tuple[Mapping[str, Any], ...]
    format: str = EXPORT_FORMAT
    version: int = EXPORT_VERSION

    def to_dict(self) -> dict[str, Any]:
        """The export's JSON (see the class docs)."""
        return {
            "format": self.format,
            "version": self.version,
            "players": list(self.players),
            "rules": dict(sorted(self.rules.to_dict().items())),
            "dealer": self.dealer,
            "stake": self.stake,
            "created": self.created,
            "hands": [plain(hand) for hand in self.hands],
        }


def export_game(store: Store, game_id: str) -> ExportedGame:
    """The game as a match record: settings and the input of every hand on the sheet."""
    game, log = store.game_and_log(game_id)
    return ExportedGame(
        players=game.players,
        rules=game.rules,
        dealer=game.dealer,
        stake=game.stake,
        created=game.created,
        hands=tuple(hand.input for hand in effective_hands(log)),
    )


EXPORT_ONLY = ("dealer", "stake", "version", "created", "hands")
"""An exported game's keys that a match record does not have."""


MATCH_ONLY = ("deals", "seed", "comment")
"""A match record's keys that an exported game does not have."""


def _misplaced(record: Mapping[str, Any]) -> None:
    """Refuse an import that mixes an exported game's keys and a match record's: the keys
    of the other kind would be ignored, and what they say lost without a word. (A key
    that is null is absent, as in every request.)"""
    match = record.get("format") == MATCH_FORMAT
    for key in EXPORT_ONLY if match else MATCH_ONLY:
        if record.get(key) is not None:
            kind = f"a match record ({MATCH_FORMAT})" if match else "an exported game"
            raise InvalidRecordError(
                f"{kind} has no {key!r}: leave it out",
                code="not_in_match_record" if match else "not_in_export",
                params={"key": key},
                field=key,
            )


def _from_match(record: Mapping[str, Any]) -> dict[str, Any]:
    """An engine match record (``gin-rummy-match/1``) as an exported game of record hands."""
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise InvalidRecordError("deals must be a list of deal records", field="deals")
    first = deals[0].get("dealer", 0) if deals and isinstance(deals[0], Mapping) else 0
    return {
        "players": record.get("players", list(DEFAULT_PLAYERS)),
        "rules": record.get("rules"),
        "dealer": first,
        "stake": None,
        "hands": [{"kind": "record", "record": deal} for deal in deals],
    }


def _as_export(record: Mapping[str, Any]) -> Mapping[str, Any]:
    """An import's record as an exported game (a match record converted), its format and
    version checked."""
    _misplaced(record)
    if record.get("format") == MATCH_FORMAT:
        record = _from_match(record)
    if record.get("format", EXPORT_FORMAT) != EXPORT_FORMAT:
        raise InvalidValueError(
            f"format must be {EXPORT_FORMAT!r} or {MATCH_FORMAT!r}",
            code="bad_format",
            params={"format": record.get("format")},
            option="format",
        )
    if record.get("version", EXPORT_VERSION) != EXPORT_VERSION:
        raise InvalidValueError(
            f"version must be {EXPORT_VERSION}",
            code="bad_version",
            params={"version": record.get("version")},
            option="version",
        )
    return record


def import_game(
    store: Store,
    record: Mapping[str, Any],
    *,
    idempotency_key: str | None = None,
    secret: str | None = None,
    owner: int | None = None,
) -> tuple[GameSheet, str]:
    """Store a new game from an exported game or an engine match record.

    Returns ``(sheet, edit token)``. A ``gin-rummy-match/1`` record becomes a
    game whose hands are its deals (kind ``record``), first dealer the first
    deal's, no stake.

    A match record holding an exported game's keys (:data:`EXPORT_ONLY`), or an
    exported game a match record's (:data:`MATCH_ONLY`), is refused naming the
    key. Every hand is scored again under the record's rules; the first bad hand
    raises the domain's error with ``field`` prefixed ``hands.<i>.`` and
    nothing is stored. A game that is over before its last hand is refused.
    ``idempotency_key``, ``secret`` and ``owner`` as for :func:`create_game`.
    """
    original, record = record, _as_export(record)
    game = check_new_game(
        record.get("players"), record.get("rules"), record.get("dealer", 0), record.get("stake")
    )
    entries: list[tuple[str, Any, Any]] = []
    rows: list[SheetRow] = []
    state = start_state(game)
    for i, hand in enumerate(record.get("hands") or []):
        try:
            if state.over:
                raise RuleViolation(
                    f"the game is over after hand {i}; hand {i + 1} cannot be entered",
                    code="game_over",
                    params={"after": i, "hand": i + 1},
                    option="hands",
                )
            parsed = parse_hand(hand)
            hand_in = fresh(i + 1, parsed, evaluate(game.rules, state, parsed), False)
            scored, state = scored_rows(game, [hand_in], state)
        except ScorekeeperError as error:
            raise error.within(f"hand {i + 1}", f"hands.{i}") from error
        rows += scored
        entries.append((hand["kind"], dict(hand), hand_in.result))
    after = Summary(state.summary(game.rules))
    new = NewGame(scored=after, status=after.status, imported=True, rows=kept(rows))
    return store_game(
        store, game, new, entries, {"import": dict(original)}, idempotency_key, secret, owner
    )
