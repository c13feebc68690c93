"""The store interface: what the services (games, stats) need of a database.

:class:`Store` is a :class:`typing.Protocol`; :class:`~scorekeeper.store.sqlite.Storage`
(one SQLite file, the embedded default) and
:class:`~scorekeeper.store.postgres.PostgresStore` (a PostgreSQL database
several servers can share) implement it, and any other backend that does
is a drop-in: the services and the web layer only call these methods.
Games are returned as :class:`StoredGame`\\ s (their rules a
:class:`~scorekeeper.rules.Rules`, read once from the row), log entries
as :class:`LogEntry`\\ s with JSON decoded. ``follows`` is the id
of the game this one is a rematch of ("new game with the same players"), ``None``
for a game started afresh: the games chained by it are one evening's match, whose
running tally :func:`~scorekeeper.store.stats.rematch_tally` counts. The refusals
every backend raises are defined here.

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
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, Unpack

from ..errors import Stale
from ..events import Format
from ..gamesheet import GameStatus
from ..ratings import Folded, Step
from ..rules import Rules
from ..seasons import CasualGames, Night, Season
from .season_results import StoredSeason
from .sql_ratings import LadderRow, RatingInputs

if TYPE_CHECKING:  # tallies reads Player from here
    from .tallies import PlayerRecord
    from .totals import KeptRecord

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


@dataclass(frozen=True, slots=True)
class EditRight:
    """A scorepad device's right to change a game (by the SHA-256 hash of its id)."""

    id: int
    device_hash: str
    label: str
    created: str


@dataclass(frozen=True, slots=True)
class DeviceEvent:
    """An event a scorepad device directs (``directs``) or keeps a match's score in."""

    id: str
    name: str
    directs: bool


@dataclass(frozen=True, slots=True)
class ApiKey:
    """An API key in use (:mod:`scorekeeper.store.access`): its id, name and creation time."""

    id: int
    name: str
    created: str


@dataclass(frozen=True, slots=True)
class ListedKey(ApiKey):
    """A key as ``scorekeeper keys list`` shows it: when it was revoked (``None``: in use),
    how many games it created, and whether it is a bot key (its games are not rated)."""

    revoked: str | None
    games: int
    bot: bool = False


@dataclass(frozen=True, slots=True)
class Handover:
    """A game's hand-over link: the hash of its secret and when it was made."""

    secret_hash: str
    created: str


@dataclass(frozen=True, slots=True)
class StoredClock:
    """A round's clock as its director set it: when the round started (ISO 8601 UTC) and
    how many minutes it lasts."""

    started: str
    minutes: int


@dataclass(frozen=True, slots=True)
class StoredRound:
    """A paired round of an event: its number, its byes, its matches as
    ``(table, game id)``, in table order, its clock (``None``: none set) and its
    walkovers."""

    number: int
    byes: tuple[str, ...]
    matches: tuple[tuple[int, str], ...]
    clock: StoredClock | None = None
    walkovers: tuple[tuple[str, str], ...] = ()
    """Who went through by walkover: (player, withdrawn opponent)."""


@dataclass(frozen=True, slots=True)
class NewMatch:
    """A match of a round being paired, as :meth:`Store.add_round` stores it: its table
    and its new game (id, players, the SHA-256 hash of its edit token, the summary of
    its empty sheet)."""

    table: int
    game_id: str
    players: tuple[str, ...]
    token_hash: str
    scored: Summary


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """A match its event's director ended before its game was over: the winner, the two
    totals as they stood (in the game's seat order) and when."""

    winner: str
    totals: tuple[int, int]
    ended: str


Adjudicate = Callable[[StoredGame, MatchEnd | None], tuple[str, tuple[int, int]]]
"""How :meth:`Store.end_match` decides a match's end: given its game (locked) and the
end the director gave it before (``None``: none), the winner and the two totals, or it
raises (nothing is written)."""


CheckWithdrawal = Callable[["StoredEvent", Sequence[StoredGame]], None]
"""How :meth:`Store.withdraw_round` checks a round may go: given the event and the round's
games (locked, in table order), it returns, or raises to refuse (nothing is written)."""


@dataclass(frozen=True, slots=True)
class RosterChange:
    """A change to an event's roster: a ``kind`` (:data:`ENTRY` or :data:`WITHDRAWAL`), the
    player and the round it takes effect from."""

    kind: str
    player: str
    round: int


ENTRY = "entry"
WITHDRAWAL = "withdrawal"

ChangeRoster = Callable[["StoredEvent"], RosterChange]
"""How :meth:`Store.change_roster` decides a change: given the event (locked), the change,
or it raises (nothing is written)."""

SwapMatches = Callable[
    ["StoredEvent", Sequence[StoredGame]], tuple[Sequence[NewMatch], Sequence[str]]
]
"""How :meth:`Store.swap_matches` decides a swap: given the event (locked) and the
round's games (locked, in table order), the round's new matches (each replacing the
match at its table) and its byes, or it raises (nothing is written)."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """A stored event (club night, tournament): its settings, the hash of its director
    token, the rounds paired so far (each match an ordinary stored game) and the
    matches its director ended. ``rules`` are parsed once, when the row is read."""

    id: str
    name: str
    players: tuple[str, ...]
    format: Format
    rounds: int | None
    rules: Rules
    stake: float | None
    token_hash: str
    created: str
    paired: tuple[StoredRound, ...]
    ended: Mapping[str, MatchEnd]
    """The matches the director ended, by game id."""
    entered: tuple[tuple[str, int], ...] = ()
    """Late entries (on ``players`` too): each player and the first round they play."""
    withdrawn: tuple[tuple[str, int], ...] = ()
    """Withdrawals: each player and the first round they no longer play."""


class StorageError(Exception):
    """Base class of the storage layer's refusals (the game's own conflicts, such as
    a hand after the end or a stale version, are the domain's
    :class:`~scorekeeper.errors.Conflict`).

    ``field`` names the input at fault, when there is one, and ``code`` is a
    short machine-readable reason (the class's ``default_code`` unless given).
    """

    default_code = "storage"

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None):
        super().__init__(message)
        self.field = field
        self.code = code or self.default_code


class NotFound(StorageError):
    """No game (or player, or hand) with that id (or name, or number)."""

    default_code = "not_found"


class KeyReused(StorageError):
    """An idempotency key was sent again with a different request."""

    default_code = "idempotency_key_reused"


class NameTaken(StorageError):
    """A name that must be unique (an API key's) is already in use."""

    default_code = "name_taken"


class StorageFull(StorageError):
    """The disk (or the database's size limit) is full; the write was rolled back."""

    default_code = "storage_full"


class StorageBusy(StorageError):
    """Another writer held the database for too long (or too many writers were waiting);
    nothing was written."""

    default_code = "busy"


class StorageUnavailable(StorageError):
    """The database cannot be written (or opened) just now, e.g. its file is read-only;
    nothing was written. A fault that heals: the next request tries afresh."""

    default_code = "unavailable"


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
class MatchEvent:
    """The event a game is a match of, as a write reads it inside its transaction: the
    event and ``game(id)``, a reader of its other games."""

    event: StoredEvent
    game: Callable[[str], StoredGame]


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


class Store(Protocol):
    """A game store: games, their players, each game's append-only log and the
    scorepad's edit rights (which devices may change a game, its hand-over link)."""

    def schema_version(self) -> int:
        """The schema version of the stored data."""

    def close(self) -> None:
        """Release every connection this process holds (each reopens on next use): done
        before a fork, so that no connection crosses one, and when the store is done with."""

    def game(self, game_id: str) -> StoredGame:
        """The game ``game_id``; raises :class:`NotFound`."""

    def log(self, game_id: str) -> list[LogEntry]:
        """The game's log entries in sequence order (``[]`` for an unknown game)."""

    def game_and_log(self, game_id: str) -> tuple[StoredGame, list[LogEntry]]:
        """The game and its log read in one transaction (a consistent snapshot)."""

    def player(self, name: str) -> Player:
        """The player called ``name``; raises :class:`NotFound`.

        Names are matched by :func:`~scorekeeper.names.name_key`.
        """

    def games_of(self, name: str) -> list[tuple[StoredGame, list[LogEntry]]]:
        """Every game the player ``name`` sits in, oldest first, each with its log."""

    def player_record(self, name: str) -> PlayerRecord:
        """What the record of player ``name`` is added up from (:mod:`.tallies`); raises
        :class:`NotFound`."""

    def kept_record(self, name: str, rival: str | None = None) -> KeptRecord | None:
        """The record of player ``name`` as its running totals keep it (:mod:`.totals`):
        every head-to-head line, or only ``rival``'s (a folded name); ``None`` when some of
        their games are left out of the totals (stored before the scored state was kept);
        raises :class:`NotFound`."""

    def create_game(
        self,
        *,
        game_id: str,
        players: Sequence[str],
        rules: Rules,
        dealer: int,
        stake: float | None,
        token_hash: str,
        status: GameStatus = GameStatus.ACTIVE,
        entries: Sequence[tuple[str, Any, Any]] = (),
        imported: bool = False,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
        scored: Summary | None = None,
        rows: Sequence[SheetRow] = (),
        follows: str | None = None,
        owner: int | None = None,
        cut: Sequence[str] | None = None,
    ) -> StoredGame:
        """Store a new game, its players and ``entries`` (log rows) in one transaction.

        ``scored`` and ``rows`` are its summary and sheet rows (see the module docs);
        ``follows`` the id of the game it is a rematch of; ``owner`` the id of the API
        key it belongs to (:meth:`key_games`); ``cut`` the cards cut for the first deal.

        ``imported`` marks a game made by an import (left out of stats). A
        game already created with this ``idempotency_key`` by the same
        request (``request_hash``) is returned instead (another id than
        ``game_id``), nothing written; by another request: :class:`KeyReused`.
        """

    def append(
        self,
        game_id: str,
        kind: str,
        payload: Any,
        decide: Decide,
        *,
        idempotency_key: str | None = None,
        expected_version: int | None = None,
        known: StoredGame | None = None,
    ) -> Appended:
        """Append one entry in one transaction that locks the game: ``(entry, created, game, log)``.

        ``decide(game, view)`` computes the entry's result and the game's
        new scored state (a :class:`Decision`), or
        raises (nothing is written); the game returned is as the write left
        it. A repeated ``idempotency_key`` with the same request returns the
        stored entry (``created`` False) and the whole ``log`` (its first
        answer is rebuilt from it), with another request raises
        :class:`KeyReused`; a new entry comes with ``log`` empty (the log is
        not read). An ``expected_version`` other than the game's
        ``version`` raises :class:`~scorekeeper.errors.Stale`. ``known`` is the game as
        read before the transaction (the request's token check): the write takes it, not
        its row read again, while the locked row has its version and token.
        """

    def grant_edit(
        self, game_id: str, device_hash: str, label: str, *, handover: str | None = None
    ) -> bool:
        """Let a scorepad device (by the SHA-256 hash of its id) change the game.

        Granting a right the device holds changes nothing; granting a revoked
        right again restores it, with the new label and time. With
        ``handover`` (a hand-over secret's hash) only while that is the game's
        hand-over secret, in the same transaction: False (nothing granted) when not.
        """

    def has_edit(self, game_id: str, device_hash: str) -> bool:
        """True while that device holds an unrevoked right to change the game."""

    def edit_revoked(self, game_id: str, device_hash: str) -> bool:
        """True when that device's right to change the game was revoked."""

    def edit_rights(self, game_id: str) -> list[EditRight]:
        """The game's unrevoked rights, oldest first."""

    def revoke_edit(self, game_id: str, right_id: int) -> bool:
        """Revoke right ``right_id`` of the game, ending its hand-over link and counting its
        :meth:`card_generation` on in the same transaction; False when there is no such
        unrevoked right (the link then stays)."""

    def device_games(self, device_hash: str, limit: int) -> list[StoredGame]:
        """The games (as :meth:`game`) the device may change, last changed first."""

    def set_handover(self, game_id: str, secret_hash: str | None) -> None:
        """Replace the game's hand-over secret hash (``None``: no hand-over link)."""

    def handover(self, game_id: str) -> Handover | None:
        """The game's hand-over link, or ``None``."""

    def grant_director(
        self,
        event_id: str,
        device_hash: str,
        label: str,
        *,
        link: tuple[str, str] | None = None,
        revive: bool = True,
    ) -> bool:
        """Let a scorepad device direct the event (as :meth:`grant_edit`; without ``revive`` a
        revoked right stays revoked; ``link`` is ``(kind, secret hash)``): True when it may."""

    def has_director(self, event_id: str, device_hash: str) -> bool:
        """True while that device holds an unrevoked right to direct the event."""

    def director_rights(self, event_id: str) -> list[EditRight]:
        """The event's unrevoked director rights, oldest first."""

    def revoke_director(self, event_id: str, right_id: int) -> bool:
        """Revoke director right ``right_id``, ending the event's director hand-over link in
        the same transaction; False when there is no such unrevoked right."""

    def set_director_link(self, event_id: str, kind: str, secret_hash: str | None) -> None:
        """Replace the event's director link of ``kind`` (``None``: no such link)."""

    def director_link(self, event_id: str, kind: str) -> Handover | None:
        """The event's director link of ``kind``, or ``None``."""

    def card_generation(self, game_id: str) -> int:
        """How many times a right to change the game was revoked (0: never)."""

    def game_event(self, game_id: str) -> str | None:
        """The id of the event the game is a match of (``None``: no event)."""

    def device_events(self, device_hash: str, limit: int) -> list[DeviceEvent]:
        """The events the device directs or may change a match of, newest first."""

    def add_api_key(self, name: str, key_hash: str, *, bot: bool = False) -> ApiKey:
        """Store an API key by the SHA-256 hash of its text (``bot``: its games are not
        rated); raises :class:`NameTaken` when an unrevoked key has this ``name``."""

    def api_key(self, key_hash: str) -> ApiKey | None:
        """The unrevoked key whose text hashes to ``key_hash``, or ``None``."""

    def api_keys(self) -> list[ListedKey]:
        """Every key, revoked ones too, oldest first."""

    def revoke_api_key(self, name: str) -> bool:
        """Revoke the unrevoked key called ``name``; False when there is none."""

    def key_games(
        self,
        key_id: int,
        *,
        limit: int,
        after: tuple[str, str] | None = None,
        **filters: Unpack[GameFilter],
    ) -> list[StoredGame]:
        """The games created with API key ``key_id``, newest first (``created``, then id
        descending), at most ``limit``, after ``(created, id)`` and filtered (see
        :meth:`~scorekeeper.store.sql.SqlStore.key_games`)."""

    def all_games(
        self,
        *,
        limit: int,
        after: tuple[str, str] | None = None,
        **filters: Unpack[GameFilter],
    ) -> list[StoredGame]:
        """Every game on this server, newest first, at most ``limit``, after ``(created, id)``
        and filtered (as :meth:`key_games`)."""

    def players_matching(self, words: Sequence[str], limit: int) -> list[str]:
        """The names of the players with a word beginning with each of ``words``, by name
        key, at most ``limit`` (see :mod:`~scorekeeper.store.finding`)."""

    def player_names(self, limit: int) -> list[str]:
        """The names of the players known here (as first written), by name, at most ``limit``."""

    def rotate_token(self, game_id: str, old_hash: str, new_hash: str) -> bool:
        """Replace the game's edit token hash ``old_hash`` by ``new_hash`` (the old one kept as
        retired); False when ``old_hash`` is no longer the game's."""

    def token_retired(self, game_id: str, token_hash: str) -> bool:
        """True when ``token_hash`` was the game's edit token before a rotation."""

    def create_event(
        self,
        *,
        event_id: str,
        name: str,
        players: Sequence[str],
        format: Format,
        rounds: int | None,
        rules: Rules,
        stake: float | None,
        token_hash: str,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
    ) -> StoredEvent:
        """Store a new event (as :meth:`SqlStore.create_event`)."""

    def event(self, event_id: str) -> StoredEvent:
        """The event ``event_id`` with its paired rounds; raises :class:`NotFound`."""

    def event_games(self, event_id: str) -> list[StoredGame]:
        """The games of the event's paired matches, read in one query (any order)."""

    def add_round(
        self,
        event_id: str,
        number: int,
        byes: Sequence[str],
        matches: Sequence[NewMatch],
        *,
        rules: Rules,
        stake: float | None,
        walkovers: Sequence[tuple[str, str]] = (),
        check: Callable[[StoredEvent], None] | None = None,
    ) -> bool:
        """Store round ``number`` of the event in one transaction that locks the event: its
        byes, its walkovers, and each match a new game (first dealer seat 0, under
        ``rules`` and ``stake``) linked to the event; False (nothing written) when that
        round is already paired. ``check(event)``, given the event as the transaction
        reads it, may refuse (it raises: nothing is written)."""

    def change_roster(self, event_id: str, change: ChangeRoster) -> None:
        """Add a late entry or a withdrawal to the event in one transaction that locks the
        event (as :meth:`add_round` does): ``change(event)`` gives it or raises."""

    def swap_matches(self, event_id: str, number: int, swap: SwapMatches) -> None:
        """Replace matches of the event's round ``number`` by new games in one transaction
        that locks the event and the round's games: ``swap(event, games)`` gives the
        new matches and the round's byes, or raises (nothing is written)."""

    def end_match(self, event_id: str, game_id: str, decide: Adjudicate) -> MatchEnd:
        """End the event's match ``game_id`` in one transaction that locks its game:
        ``decide`` gives the winner and totals (or raises: nothing is written). Raises
        :class:`NotFound` when the game is no match of the event."""

    def withdraw_round(self, event_id: str, number: int, check: CheckWithdrawal) -> None:
        """Withdraw the event's paired round ``number`` in one transaction that locks its
        games: ``check(event, games)`` may refuse (it raises: nothing is written); then
        the round and its links are deleted, its games kept as ordinary games. Raises
        :class:`NotFound` when the event has no such round."""

    def rating_inputs(
        self, after: tuple[str, str] | None = None, *, details: bool = False
    ) -> RatingInputs:
        """The rated games and the ratings cache's state, with ``details`` the results of
        the games after ``after`` (see :meth:`~.sql_ratings.RatingRows.rating_inputs`)."""

    def rating_changes(self) -> tuple[int, int]:
        """The count of changes to the rated games as the ratings cache last read it, and
        now (see :mod:`~.sql_rating_changes`)."""

    def save_ratings(
        self,
        base: tuple[int, str],
        state: tuple[int, str],
        folded: Folded,
        *,
        scratch: bool,
        changes: tuple[int, int],
    ) -> bool:
        """Store a fold in the ratings cache if it still holds ``base`` (see
        :meth:`~.sql_ratings.RatingRows.save_ratings`)."""

    def ladder_rows(
        self,
        *,
        limit: int,
        min_games: int,
        active_since: str,
        after: tuple[int, int] | None = None,
    ) -> list[LadderRow]:
        """The cached ratings, highest first (see :meth:`~.sql_ratings.RatingRows.ladder_rows`)."""

    def rating_steps(self, player_id: int) -> tuple[tuple[int, int] | None, list[Step]]:
        """A player's cached rating and history (see
        :meth:`~.sql_ratings.RatingRows.rating_steps`)."""

    def set_round_clock(self, event_id: str, number: int, clock: StoredClock) -> bool:
        """Set the clock of the event's round ``number`` (replacing any); False (nothing
        written) when the event has no such round."""

    def create_season(
        self,
        season_id: str,
        season: Season,
        *,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
    ) -> StoredSeason:
        """Store a new season, once per ``idempotency_key`` (:mod:`~.sql_seasons`)."""

    def season(self, season_id: str) -> StoredSeason:
        """The season ``season_id``; raises :class:`NotFound`."""

    def seasons(self, day: str | None = None) -> list[StoredSeason]:
        """Every season (or those holding the ISO date ``day``), the latest first day first."""

    def season_nights(self, first_day: str, last_day: str) -> list[Night]:
        """The events created on those days (both counted), with their rounds as played."""

    def casual_games(self, first_day: str, last_day: str) -> list[CasualGames]:
        """The finished two-player games of no event (not imported) created on those days."""
