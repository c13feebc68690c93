"""The stored game's types: what a store returns of a game and what a write takes.

The store's interface is :class:`~scorekeeper.store.protocol.Store`, its
refusals are :mod:`scorekeeper.store.refusals`' and the types of events and
of access (edit rights, API keys) are :mod:`scorekeeper.store.event_types`' and
:mod:`scorekeeper.store.access_types`'.
Games are returned as :class:`StoredGame`\\ s (their rules a
:class:`~scorekeeper.rules.Rules`, read once from the row), log entries
as :class:`LogEntry`\\ s with JSON decoded. ``follows`` is the id
of the game this one is a rematch of ("new game with the same players"), ``None``
for a game started afresh: the games chained by it are one evening's match, whose
running tally :func:`~scorekeeper.store.stats.rematch_tally` counts.

Each game also keeps its scored state, written in the same transaction as
its log (so a write costs the same at hand 1,000 as at hand 10): the
game's ``version`` (the number of log entries: the ETag), ``scored`` (the
sheet's :class:`Summary`; ``None`` for a game stored before it was kept:
the next write scores its log once) and one :class:`SheetRow` per hand on
the sheet, ``n``, ``entry``, ``record`` and ``summary``:
the hand's score-sheet entry, its record as the sheet shows it and the
sheet's summary after it (the checkpoint an undo or a correction goes back to).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypedDict

from ..errors import Stale
from ..gamesheet import GameStatus
from ..rules import Rules
from .refusals import KeyReused

if TYPE_CHECKING:
    from .event_types import MatchEvent

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""The address prefixes that name a PostgreSQL database (libpq's two URL schemes)."""


def is_postgres(address: str | os.PathLike[str]) -> bool:
    """Whether ``address`` is a PostgreSQL URL (otherwise it is a SQLite file path).

    Here, not in :mod:`~scorekeeper.store.postgres`: telling the backends
    apart must not load psycopg, which a SQLite server never needs (it
    costs every process half a second to start).
    """
    return isinstance(address, str) and address.startswith(POSTGRES_SCHEMES)


def now() -> str:
    """The current UTC time as ISO 8601 text (what the tables store)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


dumps: Callable[[Any], str] = json.JSONEncoder(
    separators=(",", ":"), ensure_ascii=False, sort_keys=True
).encode
"""``value`` as compact JSON text with its keys sorted, so one request is always the
same text (idempotency keys compare requests by it; the games' players and rules).
An encoder's own method, made once: a write calls it without a frame of ours."""

dumps_in_order: Callable[[Any], str] = json.JSONEncoder(
    separators=(",", ":"), ensure_ascii=False
).encode
"""``value`` as compact JSON text keeping its keys' order: the log's payloads and
results and the scored state, from which answers are built key for key as the first
answer ordered them (so a repeated request gets the first answer's very bytes).
An encoder's own method, made once, as :data:`dumps`."""


@dataclass(frozen=True, slots=True)
class Summary:
    """A sheet's summary as the store keeps it (:func:`~scorekeeper.sheet.summary`).

    ``data`` is the core sheet's ``to_dict()`` with ``hands`` replaced by
    their number: what :func:`~scorekeeper.sheet.score_sheet` takes as
    ``after`` (kept as that JSON: a write reads and writes it as it is).
    """

    data: Mapping[str, Any]

    @property
    def count(self) -> int:
        """The number of hands on the sheet."""
        count: int = self.data["hands"]
        return count

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return bool(self.data["over"])

    @property
    def status(self) -> GameStatus:
        """The stored status of a game with this summary (:meth:`GameStatus.of` its
        ``over``, read here: a write and its answer ask it)."""
        return GameStatus.OVER if self.data["over"] else GameStatus.ACTIVE

    @property
    def next_dealer(self) -> int:
        """Who deals the next hand (four players: the next dealing team)."""
        dealer: int = self.data["next_dealer"]
        return dealer

    @property
    def next_games(self) -> list[dict[str, Any]] | None:
        """A four-player sheet's pairings of the next deal (``None`` for two or three)."""
        games: list[dict[str, Any]] | None = self.data.get("next_games")
        return games


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A stored game's row: its settings, times, status and scored state.

    ``rules`` are parsed once, when the row is read; ``scored`` is the
    game's :class:`Summary` (``None`` for a game stored before it was
    kept); ``follows`` the id of the game this one is a rematch of; ``cut``
    the cards cut for the first deal, one code per player (``None``: the
    dealer was named or drawn by lot, or the game is older than the record).
    """

    id: str
    players: tuple[str, ...]
    rules: Rules
    dealer: int
    stake: float | None
    created: str
    updated: str
    status: GameStatus
    token_hash: str
    imported: bool
    version: int
    scored: Summary | None
    follows: str | None
    cut: tuple[str, ...] | None = None


@lru_cache(maxsize=128)
def rules_of(text: str) -> Rules:
    """The :class:`~scorekeeper.rules.Rules` a row's ``rules`` JSON text holds.

    Read once per text (a :class:`~scorekeeper.rules.Rules` is immutable): the
    rows of the games of one table share it, and a request that reads its
    game twice (the token check, then the write) parses it once.
    """
    return Rules.from_dict(json.loads(text))


def game_from_row(row: Sequence[Any]) -> StoredGame:
    """A game from its table's columns, in :data:`GAME_COLUMNS` order (JSON decoded)."""
    return StoredGame(
        id=row[0],
        players=tuple(json.loads(row[1])),
        rules=rules_of(row[2]),
        dealer=row[3],
        stake=row[4],
        created=row[5],
        updated=row[6],
        status=GameStatus(row[7]),
        token_hash=row[8],
        imported=bool(row[9]),
        version=row[10],
        scored=None if row[11] is None else Summary(json.loads(row[11])),
        follows=row[12],
        cut=None if row[13] is None else tuple(json.loads(row[13])),
    )


GAME_COLUMNS = (
    "id, players, rules, dealer, stake, created, updated, status, token_hash,"
    " imported, version, scored, follows, cut"
)
"""The columns of ``games`` as :func:`game_from_row` reads them."""

LOG_COLUMNS = "seq, kind, payload, result, idempotency_key, created"
"""The columns of ``hands`` as :func:`log_entries` reads them."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One entry of a game's log (JSON decoded): a hand, an ``undo`` or a ``correct``.

    ``payload`` is the request (the hand as submitted), ``result`` what it
    did (see :mod:`scorekeeper.store.games`).
    """

    seq: int
    kind: str
    payload: Any
    result: Any
    idempotency_key: str | None
    created: str


def log_entries(found: Any) -> list[LogEntry]:
    """Log entries from rows of :data:`LOG_COLUMNS` (JSON decoded)."""
    return [
        LogEntry(seq, kind, json.loads(payload), json.loads(result), key, created)
        for seq, kind, payload, result, key, created in found
    ]


@dataclass(frozen=True, slots=True)
class SheetRow:
    """A hand's row of the scored state: its number ``n``, score-sheet ``entry``,
    ``record`` (the :class:`~scorekeeper.gamesheet.StoredHand`'s JSON) and the sheet's
    :class:`Summary` after it."""

    n: int
    entry: dict[str, Any]
    record: dict[str, Any]
    summary: Summary


def column(texts: list[str]) -> list[Any]:
    """JSON texts decoded as one JSON array (one call of the decoder, not one per text)."""
    decoded: list[Any] = json.loads("[" + ",".join(texts) + "]")
    return decoded


def sheet_rows(found: Sequence[tuple[int, str, str, str]]) -> list[SheetRow]:
    """Sheet rows from their table's ``(n, entry, record, summary)`` columns.

    Each column is decoded as one JSON array (a long game's rows are read
    by three calls of the JSON decoder, not three per row).
    """
    return [
        SheetRow(row[0], entry, record, Summary(summary))
        for row, entry, record, summary in zip(
            found,
            column([row[1] for row in found]),
            column([row[2] for row in found]),
            column([row[3] for row in found]),
            strict=True,
        )
    ]


@dataclass(frozen=True, slots=True)
class Player:
    """A player as stored: ``name`` as first written."""

    id: int
    name: str
    created: str


def replayed_seq(
    stored: tuple[int, str, str] | None, kind: str, payload: Any, idempotency_key: str
) -> int | None:
    """The sequence number of the entry a repeated ``idempotency_key`` was stored with.

    ``stored`` is that entry's ``(seq, kind, payload JSON)``, ``None`` when the
    key is new (then ``None`` is returned). Requests are compared as values
    (their keys in any order). The same key with another
    request raises :class:`KeyReused`.
    """
    if stored is None:
        return None
    seq, stored_kind, stored_payload = stored
    if stored_kind != kind or dumps(json.loads(stored_payload)) != dumps(payload):
        raise KeyReused(
            f"Idempotency-Key {idempotency_key!r} was already used for a"
            f" different request (entry {seq})",
            field="Idempotency-Key",
        )
    return seq


def check_version(expected: int | None, version: int) -> None:
    """Raise :class:`Stale` when a write based on version ``expected`` meets ``version``."""
    if expected is not None and expected != version:
        raise Stale(expected, version)


@dataclass(frozen=True)
class GameView:
    """What a write's ``decide`` may read of its game, inside the write's transaction.

    ``rows(start)``: the sheet rows of hands ``start``, ``start + 1``, ...; ``records(start)``:
    their ``record`` alone; ``log()``: the whole log (only a game without ``scored`` needs it);
    ``event()``: the event the game is a match of, ``None`` for a game of no event.
    """

    rows: Callable[[int], list[SheetRow]]
    records: Callable[[int], list[dict[str, Any]]]
    log: Callable[[], list[LogEntry]]
    event: Callable[[], MatchEvent | None]


@dataclass(frozen=True, slots=True)
class Decision:
    """What a write's ``decide`` made: the log entry's ``result`` (JSON), and the game's
    new ``scored`` summary, the sheet rows from hand ``start`` on being replaced by
    ``rows``. The game's new status is the summary's."""

    result: Any
    scored: Summary
    start: int
    rows: Sequence[SheetRow]


Decide = Callable[[StoredGame, GameView], Decision]
"""``decide(game, view) -> Decision``: a write's scoring, run inside its transaction."""

Appended = tuple[LogEntry, bool, StoredGame, list[LogEntry]]
"""What :meth:`Store.append` returns: ``(entry, created, game, log)``."""


class GameFilter(TypedDict, total=False):
    """The filters of a list of games (each ``None`` or absent: all games): a player's
    ``player_key``, search ``words`` (a player with a word beginning with each),
    ``status``, ``since`` (changed at or after, stored time text), ``created_from`` and
    ``created_to`` (made at or after the one and before the other)."""

    player_key: str | None
    words: Sequence[str]
    status: str | None
    since: str | None
    created_from: str | None
    created_to: str | None
