"""Stored games: creating them, entering, undoing and correcting hands, and the sheet.

A game's log (see :mod:`scorekeeper.store.sqlite`) is the truth; the sheet is
always derived from it by :func:`~scorekeeper.sheet.score_sheet`. Log entries:

* a new hand: kind ``quick``, ``cards``, ``record`` or ``void``, the
  submitted hand as payload, ``{"entry", "detail"}`` (see
  :func:`~scorekeeper.hands.evaluate_hand`) as result;
* ``undo``: payload ``{}``, result ``{"undoes": seq, "hand": n}``; it takes
  back the last hand still on the sheet;
* ``correct``: payload ``{"hand": n, "with": hand}``, result ``{"replaces":
  seq, "entry", "detail"}``; hand ``n`` is scored as ``hand`` instead.

So nothing is lost (the log keeps every entry) and nothing is counted
twice (the effective hand list is rebuilt from the log each time).

Constant-cost writes: each game also keeps its scored state (see
:mod:`scorekeeper.store.base`), written in the write's transaction. An
add scores the one new hand from the game's summary
(:func:`~scorekeeper.sheet.score_sheet` with ``after``), an undo goes back
to the summary kept with the hand before, a correction of hand ``n``
re-scores hands ``n`` on from the summary kept with hand ``n - 1``; none
reads the log. The state is what scoring the log from scratch gives (the
tests compare the two after random writes); :func:`load_sheet` and the
answers to repeated requests still score the log.

Choices: games are for two, three or four players (RULES.md section 8; the
hand inputs of :mod:`scorekeeper.hands` name the knocker by player
index; Hollywood scoring is for two, as :func:`~scorekeeper.sheet.score_sheet`
says). A three-player hand is scored knowing its dealer (who sits out), a
four-player deal knowing its pairings (the sheet's ``next_games``); both
come from the game's scored state. A hand after the end of the game is
refused, and so is a correction that would end the game before its last
hand, or (three players) would make a later hand's player its dealer
(``dealer_sits_out``: under ``three_player_dealer: loser`` the loser deals
next, so changing who lost changes who sits out later): undo the later
hands first. An undo or a correction may reopen a finished game. A
four-player game's ``dealer`` is any player of the first dealing team.
Player names are cleaned by :func:`~scorekeeper.names.clean_name` and must
be different players (different :func:`~scorekeeper.names.name_key`:
stats match names by it). A game made
by :func:`import_game` is stored as ``imported``: its hands were not entered
under an edit token at the table, so stats leave it out.

Idempotency (as Stripe's API does it): a write repeated with its
``idempotency_key`` writes nothing and returns the first answer, rebuilt
from the log: the answer to log entry N is the sheet of the log's first N
entries (the game as it was then), so it stays the same after later hands,
undos and corrections. A game created (or imported) with a key is found
again by it; its edit token, of which only the hash is stored, is derived
(:func:`derive_token`: an HMAC of the game id and the key under the
caller's secret) so that the repeat can give the same token again.
Anyone holding the key and the request can therefore get the token:
a key must be as secret as the token (a random UUID, never reused).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, wraps
from typing import Any, ParamSpec

from ..errors import (
    Conflict,
    InvalidRecordError,
    InvalidValueError,
    RuleError,
    RuleViolation,
    ScorekeeperError,
)
from ..game import evaluate
from ..gamesheet import CUT_KEY, GameSheet, GameStatus, StoredHand
from ..handinput import HandInput, HandKind, parse_hand
from ..names import clean_name, name_key
from ..records import DEFAULT_PLAYERS, MATCH_FORMAT
from ..rescore import GAME_FORMAT, GAME_VERSION
from ..results import Result, from_plain, plain
from ..rules import Rules
from ..sheet import AnyHandRecord, AnySheet, score_sheet
from ..tally import GameState, advance
from .base import (
    Decision,
    GameView,
    KeyReused,
    LogEntry,
    NotFound,
    SheetRow,
    Store,
    StoredGame,
    Summary,
)
from .event_rounds import check_change

EXPORT_FORMAT = GAME_FORMAT
"""The ``format`` of an exported game (a match record with every hand's input)."""

EXPORT_VERSION = GAME_VERSION
"""The version of the exported game format."""


def new_token() -> str:
    """A fresh random edit token (shown to the game's creator once)."""
    return secrets.token_urlsafe(24)


def new_game_id() -> str:
    """A fresh random game or event id (16 URL-safe characters, not guessable), never
    beginning with ``-``: a command line would read such an id as an option
    (``scorekeeper event export -Yx...``)."""
    while (made := secrets.token_urlsafe(12)).startswith("-"):
        pass
    return made


def hash_token(token: str) -> str:
    """The SHA-256 hex digest stored in place of an edit token."""
    return hashlib.sha256(token.encode()).hexdigest()


def derive_token(secret: str, game_id: str, idempotency_key: str) -> str:
    """The edit token of a game created with an ``Idempotency-Key`` (as long as a random one).

    HMAC-SHA256 under ``secret`` (the app's ``SECRET_KEY``) of the game id
    and the key: unguessable without the secret, and the same each time.
    """
    digest = hmac.new(
        secret.encode(), f"edit-token\0{game_id}\0{idempotency_key}".encode(), hashlib.sha256
    ).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def lot(secret: str, idempotency_key: str | None) -> random.Random:
    """Where a new game's first dealer drawn by lot, or the cut made for its players, comes
    from: the system's random source, or with an ``idempotency_key`` one seeded by it and
    ``secret`` (HMAC-SHA256), so that a repeated request draws the same (and is the same
    request: it finds its game)."""
    if idempotency_key is None:
        return random.SystemRandom()
    seed = hmac.new(secret.encode(), idempotency_key.encode(), hashlib.sha256)
    return random.Random(seed.digest())


def hash_request(request: Any) -> str:
    """The SHA-256 of a request (canonical JSON): the same request, the same hash."""
    text = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(game: StoredGame, token: str | None) -> bool:
    """True when ``token`` is the game's edit token (constant-time comparison)."""
    return token is not None and hmac.compare_digest(hash_token(token), game.token_hash)


@dataclass(frozen=True, slots=True)
class GameSettings:
    """What a game is scored with: players, rules, first dealer and stake."""

    players: tuple[str, ...]
    rules: Rules
    dealer: int
    stake: float | None


Seated = GameSettings | StoredGame
"""A game as scoring needs it (its settings), stored or about to be."""


@dataclass(frozen=True, slots=True)
class EffectiveHand:
    """A hand on the sheet as the log gives it: ``seq`` the log entry that gave its
    current content, ``input`` the hand as submitted (of ``kind``), ``entry`` and
    ``detail`` its evaluation (JSON), ``corrected`` whether a correction replaced
    the original."""

    seq: int
    kind: str
    input: Mapping[str, Any]
    entry: dict[str, Any]
    detail: dict[str, Any] | None
    corrected: bool


def effective_hands(log: Sequence[LogEntry]) -> list[EffectiveHand]:
    """The hands on the sheet, rebuilt from the log."""
    hands: list[EffectiveHand] = []
    for item in log:
        payload, result = item.payload, item.result
        if item.kind == "undo":
            hands.pop()
        elif item.kind == "correct":
            hands[payload["hand"] - 1] = _slot(item.seq, payload["with"], result, True)
        else:
            hands.append(_slot(item.seq, payload, result, False))
    return hands


def _slot(
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


def _score(game: Seated, hands: Sequence[EffectiveHand]) -> AnySheet:
    return score_sheet(
        [h.entry for h in hands],
        players=game.players,
        rules=game.rules,
        dealer=game.dealer,
        stake=game.stake,
    )


def score_log(game: StoredGame, log: Sequence[LogEntry]) -> AnySheet:
    """The typed :func:`~scorekeeper.sheet.score_sheet` result of a game's log."""
    return _score(game, effective_hands(log))


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
    sheet = scored if scored is not None else _score(game, hands)
    records: tuple[AnyHandRecord, ...] = sheet.hands
    return _sheet_of(
        game,
        len(log),
        sheet,
        tuple(_stored(record, hand) for record, hand in zip(records, hands, strict=True)),
    )


def _sheet_of(
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


def _stored(record: AnyHandRecord, hand: EffectiveHand) -> StoredHand:
    """Hand ``record`` of a sheet with where it came from."""
    return StoredHand(
        record=record,
        seq=hand.seq,
        kind=HandKind(hand.kind),
        input=hand.input,
        detail=hand.detail,
        corrected=hand.corrected,
    )


def check_new_game(
    players: Any, rules: Any = None, dealer: Any = 0, stake: Any = None
) -> GameSettings:
    """Validate a new game's settings; returns them with the cleaned names and the rules.

    Each name goes through :func:`~scorekeeper.names.clean_name`; a refused
    name is reported as field ``players``, the message saying which player
    (the API's schema, checked first, names ``players.<i>``).
    """
    if (
        isinstance(players, str)
        or not isinstance(players, Sequence)
        or len(players) not in (2, 3, 4)
        or not all(isinstance(p, str) for p in players)
    ):
        raise InvalidValueError(
            "players must be a list of 2, 3 or 4 names", code="bad_players", option="players"
        )
    names = []
    for i, name in enumerate(players):
        try:
            names.append(clean_name(name, field="players"))
        except RuleError as error:
            raise error.restate(f"player {i + 1}: {error}", field="players") from error
    if len({name_key(name) for name in names}) != len(names):
        raise InvalidValueError(
            "the players need different names (letter case, and how"
            " an accent is encoded, do not count)",
            code="bad_players",
            option="players",
        )
    parsed = Rules.from_dict(rules)
    score_sheet([], players=names, rules=parsed, dealer=dealer, stake=stake)
    return GameSettings(tuple(names), parsed, dealer, stake)


def create_game(
    store: Store,
    players: Any,
    rules: Any = None,
    dealer: Any = 0,
    stake: Any = None,
    *,
    idempotency_key: str | None = None,
    secret: str | None = None,
    follows: str | None = None,
    owner: int | None = None,
    cut: Sequence[str] | None = None,
) -> tuple[GameSheet, str]:
    """Store a new game; returns ``(sheet, edit token)``. The token is not kept, only its hash.

    ``rules`` are a :class:`~scorekeeper.rules.Rules` or anything
    :meth:`~scorekeeper.rules.Rules.from_dict` reads.

    With an ``idempotency_key`` (and the ``secret`` its token is derived
    under), a repeat of the same request returns the same game and token,
    and the sheet as it was created; see the module docs. ``follows`` is
    the id of the game this one is a rematch of (the scorepad's "new game
    with the same players"; it must exist, else ``NotFound``). ``owner`` is the id of
    the API key creating it (:mod:`scorekeeper.store.access`). ``cut`` is the cards cut
    for the first dealer (codes, one per player), recorded and shown with the game.
    """
    game = check_new_game(players, rules, dealer, stake)
    given = rules.to_dict() if isinstance(rules, Rules) else rules  # as the request sent them
    create: dict[str, Any] = {"players": players, "rules": given, "dealer": dealer, "stake": stake}
    if follows is not None:
        store.game(follows)
        create["follows"] = follows
    if cut is not None:
        create["cut"] = list(cut)
    return _store_game(
        store,
        game,
        _NewGame(scored=empty_summary(game), follows=follows, cut=cut),
        [],
        {"create": create},
        idempotency_key,
        secret,
        owner,
    )


@dataclass(frozen=True, slots=True)
class _NewGame:
    """How a new game is stored besides its settings."""

    scored: Summary
    status: GameStatus = GameStatus.ACTIVE
    imported: bool = False
    rows: Sequence[SheetRow] = ()
    follows: str | None = None
    cut: Sequence[str] | None = None


def _store_game(
    store: Store,
    game: GameSettings,
    new: _NewGame,
    entries: list[tuple[str, Any, Any]],
    request: Any,
    idempotency_key: str | None,
    secret: str | None,
    owner: int | None = None,
) -> tuple[GameSheet, str]:
    """Store a game with its first log ``entries``: ``(the sheet as created, edit token)``.

    A game of an API key (``owner``) is another request than the same game without one
    (or with another key): a repeated Idempotency-Key only finds the game its key made.
    """
    game_id = new_game_id()
    request_hash = None
    if idempotency_key is None:
        token = new_token()
    else:
        if not secret:
            raise ValueError("a game created with an idempotency key needs a secret")
        token = derive_token(secret, game_id, idempotency_key)
        owned = request if owner is None else {**request, "owner": owner}
        request_hash = hash_request(owned)
    stored = store.create_game(
        game_id=game_id,
        token_hash=hash_token(token),
        entries=entries,
        players=game.players,
        rules=game.rules,
        dealer=game.dealer,
        stake=game.stake,
        status=new.status,
        imported=new.imported,
        scored=new.scored,
        rows=new.rows,
        follows=new.follows,
        cut=new.cut,
        idempotency_key=idempotency_key,
        request_hash=request_hash,
        owner=owner,
    )
    if stored.id != game_id:  # a repeat: the game the key created
        token = derive_token(secret or "", stored.id, idempotency_key or "")
        # after a rotation the repeat answers as the first time, with the token now retired
        if not token_matches(stored, token) and not store.token_retired(
            stored.id, hash_token(token)
        ):
            raise KeyReused(
                f"the game of Idempotency-Key {idempotency_key!r} was created"
                " under another secret key: its edit token cannot be given again",
                field="Idempotency-Key",
            )
    log = store.log(stored.id)[: len(entries)] if entries else []
    return game_sheet(replace(stored, updated=stored.created), log), token


def load_sheet(store: Store, game_id: str) -> GameSheet:
    """The sheet of game ``game_id``; raises :class:`~scorekeeper.store.base.NotFound`."""
    game, log = store.game_and_log(game_id)
    return game_sheet(game, log)


def _as_answered(
    entry: LogEntry, game: StoredGame, log: list[LogEntry]
) -> tuple[StoredGame, list[LogEntry]]:
    """The game and log as they were when log ``entry`` was written (its first answer)."""
    return replace(game, updated=entry.created), log[: entry.seq]


Answer = tuple[StoredHand | None, GameSheet, bool]
"""What a hand change returns: (the hand record it is about, the sheet, created)."""


@dataclass(frozen=True, slots=True)
class _Made:
    """What a write's ``decide`` makes for its answer: the hand record (its JSON, a
    :class:`~scorekeeper.gamesheet.StoredHand`'s ``to_dict()``), the new summary and the
    records of all the sheet's hands (``None``: the minimal answer)."""

    record: dict[str, Any]
    scored: Summary
    records: list[dict[str, Any]] | None


@dataclass(frozen=True, slots=True)
class Written:
    """A hand change as its write left it: its answer typed (:meth:`typed`, the
    :data:`Answer`) or as the JSON the API serves (:meth:`hand_json`, :meth:`sheet_json`),
    the latter built from the JSON the write already holds (the rows' records and the
    summary), not through the typed sheet and back.

    ``made`` is what the write's ``decide`` made (a new entry); a repeated request
    (``created`` False) carries its first answer, rebuilt from the log, in ``again``.
    """

    game: StoredGame
    created: bool
    made: _Made | None = None
    again: Answer | None = None

    @property
    def version(self) -> int:
        """The answer's sheet version (its ETag)."""
        return self.game.version if self.again is None else self.again[1].version

    def typed(self) -> Answer:
        """``(the hand record it is about, the sheet, created)``."""
        if self.again is not None:
            return self.again
        assert self.made is not None
        made = self.made
        return StoredHand.from_dict(made.record), _dated(self.game, made.scored, made.records), True

    def hand_json(self) -> dict[str, Any] | None:
        """The hand record's JSON (``typed()[0].to_dict()``)."""
        if self.again is not None:
            return None if self.again[0] is None else self.again[0].to_dict()
        assert self.made is not None
        return self.made.record

    def sheet_json(self) -> dict[str, Any]:
        """The sheet's JSON (``typed()[1].to_dict()``)."""
        if self.again is not None:
            return self.again[1].to_dict()
        assert self.made is not None
        return sheet_json(self.game, self.made.scored, self.made.records)


def sheet_json(
    game: StoredGame, scored: Summary, records: list[dict[str, Any]] | None
) -> dict[str, Any]:
    """The JSON of the sheet of summary ``scored`` with ``game`` as a write left it and
    ``records`` as its hands (``None``: the minimal sheet, no ``hands``): what
    ``_dated(game, scored, records).to_dict()`` gives, key for key, built from the JSON as kept
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


def _written(
    entry: LogEntry, created: bool, game: StoredGame, log: list[LogEntry], answer: list[_Made]
) -> Written:
    """The change whose content came from log ``entry``.

    ``answer`` holds what a write's ``decide`` made (if it ran). A repeated
    request (not ``created``) gets the answer its first sending got,
    rebuilt from the log up to its entry.
    """
    if created:
        return Written(game, created, made=answer[-1])
    sheet = game_sheet(*_as_answered(entry, game, log))
    hand = next((h for h in sheet.hands if h.seq == entry.seq), None)
    return Written(game, created, again=(hand, sheet, created))


def _evaluate(game: Seated, hand: HandInput, after: Summary) -> dict[str, Any]:
    """The evaluation (``{"entry", "detail"}``) of ``hand`` as the hand after summary ``after``."""
    return evaluate(game.rules, _state(game, after), hand).to_dict()


def _state(game: Seated, after: Summary) -> GameState:
    """The game's state at summary ``after`` (a kept row's summary will do)."""
    return GameState.resume(after.data, game.players, game.stake)


def empty_summary(game: Seated) -> Summary:
    """The summary of the new game ``game``'s sheet, before its first hand."""
    start = GameState.start(game.rules, game.players, game.dealer, game.stake)
    return Summary(start.summary(game.rules))


def _scored_rows(game: Seated, hands: Sequence[EffectiveHand], after: Summary) -> list[SheetRow]:
    """The sheet rows of ``hands`` (as :func:`effective_hands` gives them) after ``after``.

    Each hand is scored on its own from the summary before it, so that
    every row keeps its checkpoint; the cost is linear in ``len(hands)``.
    """
    rows = []
    state = _state(game, after)
    for hand in hands:
        record, state = advance(game.rules, state, hand.entry)
        rows.append(
            SheetRow(
                n=state.count,
                entry=hand.entry,
                record=_stored(record, hand).to_dict(),
                summary=Summary(state.summary(game.rules)),
            )
        )
    return rows


def _parsed(hand: HandInput | Mapping[str, Any]) -> HandInput:
    """A hand input as the core takes it (JSON is read here, at the store's edge)."""
    return parse_hand(hand) if isinstance(hand, Mapping) else hand


def _as_hand(row: SheetRow) -> EffectiveHand:
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


class _Scored:
    """A game's scored state as a write finds it: its summary and, on demand, its rows.

    A game stored before the scored state was kept (``scored`` None) is
    scored from its log once; the write then stores all its rows.
    """

    def __init__(self, game: StoredGame, view: GameView):
        self.game, self.view = game, view
        self.rebuilt: list[SheetRow] | None = None
        if game.scored is None:
            self.rebuilt = _scored_rows(game, effective_hands(view.log()), self.empty)
            self.summary = self.rebuilt[-1].summary if self.rebuilt else self.empty
        else:
            self.summary = game.scored

    @cached_property
    def empty(self) -> Summary:
        """The summary of the game before its first hand (scored only when asked: an
        append at the end of the sheet never needs it)."""
        return empty_summary(self.game)

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

    def before(self, n: int, rows: Sequence[SheetRow]) -> Summary:
        """The summary before hand ``n``, ``rows`` being the rows from hand ``n - 1`` on."""
        if n == 1:
            return self.empty
        kept = rows[0].summary.data
        return Summary({key: kept.get(key, value) for key, value in self.empty.data.items()})

    def change(self, result: Any, scored: Summary, start: int, rows: list[SheetRow]) -> Decision:
        """The write's decision: ``result`` logged, summary ``scored``, rows from ``start``
        on replaced by ``rows``.

        Rows are kept by :func:`_kept` (:meth:`before` puts back what it
        leaves out): a long game's rows stay small and quick to read.
        """
        if self.rebuilt is not None:
            start, rows = 1, [*self.rebuilt[: start - 1], *rows]
        return Decision(result=result, scored=scored, start=start, rows=_kept(rows))


def _kept(rows: Sequence[SheetRow]) -> list[SheetRow]:
    """Sheet rows as the store keeps them: their summaries without :data:`SAME_IN_EVERY_ROW`."""
    return [
        replace(
            row,
            summary=Summary(
                {
                    key: value
                    for key, value in row.summary.data.items()
                    if key not in SAME_IN_EVERY_ROW
                }
            ),
        )
        for row in rows
    ]


def _dated(game: StoredGame, scored: Summary, records: list[dict[str, Any]] | None) -> GameSheet:
    """A write's answer: the sheet of summary ``scored`` with ``game`` as the write left it.

    With ``records`` (those of all of the new sheet's rows), the whole sheet; with
    ``None``, the sheet without ``hands`` (``Prefer: return=minimal``:
    nothing read or built that grows with the game).
    """
    core = from_plain(AnySheet, {**scored.data, "hands": []})
    return _sheet_of(
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


def write_hand(
    store: Store,
    game_id: str,
    hand: HandInput | Mapping[str, Any],
    *,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    full: bool = True,
) -> Written:
    """Enter a new hand (:func:`add_hand` answers it typed: ``(hand record, sheet, created)``).

    Raises :class:`~scorekeeper.errors.Conflict` (``game_over``) once the
    game has ended, and the domain's errors for a bad hand; either way
    nothing is stored. A repeated ``idempotency_key`` returns the first
    answer again (``created`` False), whatever happened to the game since.
    With ``expected_version`` (the sheet's ``version`` the change is based
    on), a game that has moved on raises :class:`~scorekeeper.errors.Stale`;
    the same holds for :func:`undo_last` and :func:`correct_hand`.

    The write reads the game's row only: it costs the same at hand 1,000 as
    at hand 10. With ``full`` False the sheet comes without ``hands`` (its
    other keys as always), so the answer does not grow with the game either;
    a repeated request always gets the whole sheet.
    """
    answer: list[_Made] = []
    parsed = _parsed(hand)

    def decide(game: StoredGame, view: GameView) -> Decision:
        state = _Scored(game, view)
        if state.summary.over:
            raise Conflict(
                f"the game is over (after hand {state.count}); no more hands can be entered",
                code="game_over",
                params={"after": state.count},
            )
        result = _evaluate(game, parsed, state.summary)
        new = _slot(game.version + 1, parsed.data, result, False)
        rows = _scored_rows(game, [new], state.summary)
        scored = rows[-1].summary
        every = [*state.records(1), rows[-1].record] if full else None
        answer.append(_Made(rows[-1].record, scored, every))
        return state.change(result, scored, state.count + 1, rows)

    return _written(
        *store.append(
            game_id,
            parsed.kind.value,
            dict(parsed.data),
            decide,
            idempotency_key=idempotency_key,
            expected_version=expected_version,
        ),
        answer,
    )


def write_undo(
    store: Store,
    game_id: str,
    *,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    full: bool = True,
) -> Written:
    """Take back the last hand on the sheet (:func:`undo_last` answers it typed: ``(the
    undone hand record, sheet, created)``).

    Raises :class:`~scorekeeper.errors.Conflict` (``nothing_to_undo``) when
    the sheet has no hand, and (``decided_later_pairing``) when the game is a
    knockout's match whose result decided a later round's pairing
    (:func:`~scorekeeper.store.event_rounds.check_change`; so does
    :func:`correct_hand`). It goes back to the summary kept with the hand
    before: no scoring. ``full`` as for :func:`add_hand`.
    """
    answer: list[_Made] = []

    def decide(game: StoredGame, view: GameView) -> Decision:
        state = _Scored(game, view)
        n = state.count
        if not n:
            raise Conflict("there is no hand to undo", code="nothing_to_undo")
        rows = state.rows(max(n - 1, 1))
        undone = rows[-1].record
        scored = state.before(n, rows)
        check_change(view.event(), game, scored)
        every = state.records(1)[: n - 1] if full else None
        answer.append(_Made(undone, scored, every))
        return state.change({"undoes": undone["seq"], "hand": n}, scored, n, [])

    entry, created, game, log = store.append(
        game_id,
        "undo",
        {},
        decide,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
    )
    if created:
        return _written(entry, created, game, log, answer)
    game, log = _as_answered(entry, game, log)
    again = game_sheet(game, log[:-1]).hands[-1], game_sheet(game, log), created
    return Written(game, created, again=again)


def write_correction(
    store: Store,
    game_id: str,
    n: int,
    hand: HandInput | Mapping[str, Any],
    *,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    full: bool = True,
) -> Written:
    """Score hand ``n`` (1-based) as ``hand`` instead (:func:`correct_hand` answers it typed:
    ``(hand record, sheet, created)``).

    Raises :class:`~scorekeeper.store.base.NotFound` for a hand not on the
    sheet and :class:`~scorekeeper.errors.Conflict` (``game_over``) when the
    corrected totals would end the game before its last hand. Hands ``n``
    and later are scored again from the summary kept with hand ``n - 1``.
    ``full`` as for :func:`add_hand`.
    """
    answer: list[_Made] = []
    parsed = _parsed(hand)

    def decide(game: StoredGame, view: GameView) -> Decision:
        state = _Scored(game, view)
        if not 1 <= n <= state.count:
            raise NotFound(f"there is no hand {n} on the sheet (it has {state.count})", field="n")
        rows = state.rows(max(n - 1, 1))
        later = rows[1:] if n > 1 else rows
        replaced = later[0].record
        before = state.before(n, rows)
        result = _evaluate(game, parsed, before)
        changed = [
            _slot(game.version + 1, parsed.data, result, True),
            *(_as_hand(row) for row in later[1:]),
        ]
        try:
            rescored = _scored_rows(game, changed, before)
        except RuleError as error:
            if error.code not in ("game_over", "dealer_sits_out"):
                raise
            raise Conflict(
                f"with this correction {error}; undo the later hands first",
                field="n",
                code=error.code,
                params=error.params,
            ) from error
        for old, new in zip(later[1:], rescored[1:], strict=True):
            record = new.record
            if old.record["kind"] != "record":
                continue
            dealer = old.record["detail"]["dealer"]
            if dealer != record["dealer"]:
                raise Conflict(
                    f"with this correction hand {record['n']} would be dealt by"
                    f" {game.players[record['dealer']]}, but its deal record has"
                    f" {game.players[dealer]} dealing; undo the later hands first",
                    field="n",
                    code="dealer_rotation",
                    params={
                        "hand": record["n"],
                        "expected": game.players[record["dealer"]],
                        "dealer": game.players[dealer],
                    },
                )
        scored = rescored[-1].summary
        check_change(view.event(), game, scored)
        every = [*state.records(1)[: n - 1], *(row.record for row in rescored)] if full else None
        answer.append(_Made(rescored[0].record, scored, every))
        return state.change({"replaces": replaced["seq"], **result}, scored, n, rescored)

    return _written(
        *store.append(
            game_id,
            "correct",
            {"hand": n, "with": dict(parsed.data)},
            decide,
            idempotency_key=idempotency_key,
            expected_version=expected_version,
        ),
        answer,
    )


P = ParamSpec("P")
"""The parameters of a write (:func:`_typed` keeps them)."""


def _typed(write: Callable[P, Written]) -> Callable[P, Answer]:
    """``write`` answering typed (:meth:`Written.typed`)."""

    @wraps(write)
    def typed(*args: P.args, **kwargs: P.kwargs) -> Answer:
        return write(*args, **kwargs).typed()

    return typed


add_hand = _typed(write_hand)
undo_last = _typed(write_undo)
correct_hand = _typed(write_correction)


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
    original = record
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
    game = check_new_game(
        record.get("players"), record.get("rules"), record.get("dealer", 0), record.get("stake")
    )
    entries: list[tuple[str, Any, Any]] = []
    rows: list[SheetRow] = []
    after = empty_summary(game)
    for i, hand in enumerate(record.get("hands") or []):
        try:
            if after.over:
                raise RuleViolation(
                    f"the game is over after hand {i}; hand {i + 1} cannot be entered",
                    code="game_over",
                    params={"after": i, "hand": i + 1},
                    option="hands",
                )
            parsed = parse_hand(hand)
            result = _evaluate(game, parsed, after)
            rows += _scored_rows(game, [_slot(i + 1, parsed.data, result, False)], after)
        except ScorekeeperError as error:
            raise error.within(f"hand {i + 1}", f"hands.{i}") from error
        after = rows[-1].summary
        entries.append((hand["kind"], dict(hand), result))
    new = _NewGame(scored=after, status=after.status, imported=True, rows=_kept(rows))
    return _store_game(
        store, game, new, entries, {"import": dict(original)}, idempotency_key, secret, owner
    )
