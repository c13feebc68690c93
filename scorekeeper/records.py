"""Deal and match records: loading, checking and replaying them (issue 3).

A **deal record** (``"format": "gin-rummy-deal/1"``) is a JSON object::

    {"format": "gin-rummy-deal/1",
     "rules": "standard" | {"preset": "oklahoma", "undercut_bonus": 20, ...},
     "players": ["Ana", "Ben"], "dealer": 1,
     "hands": [[10 codes], [10 codes]], "upcard": "Jd", "stock": [31 codes, top first],
     "actions": ["draw discard", "knock Qs"],
     "showdown": {"knocker_melds": [...], "defender_melds": [...],
                  "layoffs": [{"card": "8s", "meld": ["5s", "6s", "7s"]}]}}

``hands[i]`` is the hand of ``players[i]`` and ``dealer`` an index into
``players``. A record from a system that only knows the stock cards that
were drawn lists those, in order, with ``"stock_complete": false``: the
stock is then shorter than 31 cards, and a replay is refused (naming the
step) only where play needs a stock card that is not listed. Instead of
``hands``/``upcard``/``stock`` a record may give ``"deck"``: 52 codes in
dealing order (one at a time, alternately, non-dealer first; the 21st is
the upcard, the rest the stock, top first).
``actions`` are played in turn order from the non-dealer (see
:mod:`scorekeeper.engine` for the actions and the rules they follow).
``rules`` defaults to the standard preset and ``players`` to
``["player 0", "player 1"]``; ``showdown`` and each of its parts are
optional: what is missing is chosen optimally, as by
:func:`~scorekeeper.knock.verify_knock`. ``seed`` and ``comment`` may carry
notes (a simulated deal records its seed); any other key is refused.

A **match record** (``"format": "gin-rummy-match/1"``) has ``rules``,
``players`` and ``deals``: deal records without ``rules`` and ``players``
(their ``format`` may be left out). The first deal's dealer is free (the
cut); each later dealer must follow the rotation
(:func:`scorekeeper.sheet.next_dealer`). The game is scored with
:func:`scorekeeper.sheet.score_sheet`; a deal after the game is over is refused.

Loading re-checks everything, and a bad record only ever raises
:class:`RecordError`. Its ``step`` is the index into ``actions`` of the
action at fault (``len(actions)`` when the actions stop before the hand is
over, the knocking action's index for a bad showdown, ``None`` for the
header) and its message starts with it: ``step 3: cannot discard Js: it was
just taken from the discard pile``. In a match, ``deal`` is the deal's index
and the message starts ``deal 2, step 3: ...`` (both are 0-based indexes).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Phase
from .deal_result import DealResult
from .engine import Deal
from .errors import IllegalRecordError, InvalidRecordError, RecordError, RuleError, ScorekeeperError
from .match_scoring import check_rotation, deal_entry, sheet_error
from .record_checks import (
    DEAL_KEYS,
    MATCH_DEAL_KEYS,
    MATCH_KEYS,
    SHOWDOWN_KEYS,
    check_format,
    check_keys,
    dealt_cards,
    declared_showdown,
    record_dealer,
    record_players,
    record_rules,
)
from .results import Result, field_values
from .rules import Rules
from .sheet import AnySheet, score_sheet

DEAL_FORMAT = "gin-rummy-deal/1"
MATCH_FORMAT = "gin-rummy-match/1"
DEFAULT_PLAYERS = ("player 0", "player 1")


@dataclass(frozen=True, slots=True)
class ReplayedDeal(DealResult):
    """A replayed deal: the :class:`~scorekeeper.deal_result.DealResult` and the players' names."""

    players: tuple[str, ...]

    @classmethod
    def of(cls, result: DealResult, players: Sequence[str]) -> ReplayedDeal:
        """``result`` with the names of the players."""
        return cls(**field_values(result), players=tuple(players))


@dataclass(frozen=True, slots=True)
class ReplayedMatch(Result):
    """A replayed match: each deal's result and the match's score sheet."""

    deals: tuple[ReplayedDeal, ...]
    sheet: AnySheet
    """The score sheet."""


LoadedDeal = tuple[Deal, list[Any], Mapping[str, Any] | None]
"""A deal record loaded (:func:`load_deal`): the deal, unplayed; its actions as the record
gives them (:func:`play_steps` checks each as it plays it); its showdown part, if any."""


def replay(record: Mapping[str, Any] | str | bytes) -> ReplayedDeal | ReplayedMatch:
    """Replay a deal or match record (a dict, or its JSON text), checking everything.

    A deal gives a :class:`ReplayedDeal`: the
    :func:`~scorekeeper.knock.verify_knock` result plus
    ``void``, ``knocker_player``, ``winner_player`` (indexes into
    ``players``, ``None`` when void), ``next_dealer``, ``stock_left`` and
    ``players``, ``dealer``, ``upcard``, ``knock_limit``, ``discard``,
    ``dealt``, ``hands`` and ``actions`` (see :meth:`Deal.showdown`); a void
    hand has ``outcome``, ``winner``, ``knocker``, ``defender`` and
    ``breakdown`` ``None`` and ``points`` 0. A match gives
    ``{"deals": [deal results], "sheet": score_sheet(...)}``. Raises
    :class:`RecordError` for anything wrong.
    """
    if isinstance(record, str | bytes | bytearray):
        try:
            record = json.loads(record)
        except ValueError as error:
            raise InvalidRecordError(
                f"not valid JSON: {error}", code="bad_json", params={"detail": str(error)}
            ) from None
    if not isinstance(record, Mapping):
        raise InvalidRecordError("a record must be a JSON object")
    kind = record.get("format")
    if kind == DEAL_FORMAT:
        return replay_deal(record)
    if kind == MATCH_FORMAT:
        return replay_match(record)
    raise InvalidRecordError(
        f"format must be {DEAL_FORMAT!r} or {MATCH_FORMAT!r}, not {kind!r}",
        code="bad_format",
        params={"format": kind},
        field="format",
    )


def replay_deal(record: Mapping[str, Any]) -> ReplayedDeal:
    """Replay one deal record (see :func:`replay`)."""
    deal, actions, showdown = load_deal(record)
    return _play(deal, actions, showdown)


def replay_match(record: Mapping[str, Any]) -> ReplayedMatch:
    """Replay a match record: every deal, the dealer rotation and the score sheet."""
    rules, names = _header(record, MATCH_FORMAT, MATCH_KEYS, "a match record")
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise InvalidRecordError("deals must be a list of deal records", field="deals")
    results: list[ReplayedDeal] = []
    entries: list[dict[str, Any]] = []
    for index, item in enumerate(deals):
        try:
            deal, actions, showdown = load_deal(item, rules=rules, players=names)
            if results:
                check_rotation(deal.dealer, results[-1], index, rules, names)
            result = _play(deal, actions, showdown)
        except RecordError as error:
            text = f"deal {index}, {error}" if error.step is not None else f"deal {index}: {error}"
            raise RecordError.restating(
                error, text, step=error.step, deal=index, field=error.field
            ) from error
        results.append(result)
        entries.append(deal_entry(result).to_dict())
    first = results[0].dealer if results else 0
    try:
        sheet = score_sheet(entries, players=names, rules=rules, dealer=first)
    except RuleError as error:
        raise sheet_error(entries, names, rules, first, error) from error
    return ReplayedMatch(deals=tuple(results), sheet=sheet)


def match_deals(
    record: Mapping[str, Any],
) -> tuple[tuple[str, ...], list[LoadedDeal]]:
    """A match record's players and each of its deals loaded (:func:`load_deal`), unplayed.

    The whole match is replayed first (:func:`replay_match`), so a record
    that does not replay raises its :class:`RecordError` here.
    """
    replay_match(record)
    rules, names = _header(record, MATCH_FORMAT, MATCH_KEYS, "a match record")
    return names, [load_deal(item, rules=rules, players=names) for item in record["deals"]]


def load_deal(
    record: Any, *, rules: Rules | None = None, players: Sequence[str] | None = None
) -> LoadedDeal:
    """Check a deal record's header and build the deal: ``(deal, actions, showdown)``.

    With ``rules`` and ``players`` (from a match) the record is a deal of a
    match and must not carry its own. Nothing is played yet.
    """
    if not isinstance(record, Mapping):
        raise InvalidRecordError("a deal record must be a JSON object")
    if rules is not None:
        players = _match_deal_players(record, players)
    else:
        rules, players = _header(record, DEAL_FORMAT, DEAL_KEYS, "a deal record")
    dealer = record_dealer(record)
    complete = record.get("stock_complete", True)
    if not isinstance(complete, bool):
        raise InvalidRecordError(
            f"stock_complete must be true or false, not {complete!r}",
            code="bad_value",
            params={"key": "stock_complete", "value": complete},
            field="stock_complete",
        )
    hands, upcard, stock = dealt_cards(record, dealer, complete)
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise InvalidRecordError(
            'actions must be a list of actions such as "draw stock"',
            code="bad_actions",
            field="actions",
        )
    showdown = declared_showdown(record)
    try:
        deal = Deal(
            hands, upcard, stock, dealer=dealer, rules=rules, names=players, stock_complete=complete
        )
    except ScorekeeperError as error:  # pragma: no cover - checked above
        raise RecordError.restating(error, str(error), field=error.field) from error
    return deal, actions, showdown


def _match_deal_players(record: Mapping[str, Any], players: Sequence[str] | None) -> Sequence[str]:
    """The players of a deal of a match: the match's ``players`` (the deal may carry no
    rules or players of its own), once its keys and format are checked."""
    if players is None:
        raise TypeError("a deal of a match needs the match's players as well as its rules")
    for key in ("rules", "players"):
        if key in record:
            raise InvalidRecordError(
                f"{key} belong to the match record, not to its deals",
                code="misplaced_key",
                params={"key": key},
                field=key,
            )
    check_keys(record, MATCH_DEAL_KEYS, "a deal record")
    if record.get("format", DEAL_FORMAT) != DEAL_FORMAT:
        raise InvalidRecordError(
            f"format must be {DEAL_FORMAT!r} or left out, not {record.get('format')!r}",
            code="bad_format",
            params={"format": record.get("format")},
            field="format",
        )
    return players


def read_records(text: str) -> list[tuple[str, Any]]:
    """The records of a file: one JSON value, a JSON list, or JSON Lines.

    Returns ``(label, record)`` pairs, where ``label`` says where the record
    was (``"line 3"``, ``"record 2"``); a line that is not JSON gives a
    :class:`RecordError` in place of the record. Blank lines are skipped.
    """
    stripped = text.strip()
    if not stripped:
        return []
    try:
        data = json.loads(stripped)
    except ValueError:
        pass
    else:
        if isinstance(data, list):
            return [(f"record {i}", item) for i, item in enumerate(data)]
        return [("record 0", data)]
    found: list[tuple[str, Any]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            found.append((f"line {number}", json.loads(line)))
        except ValueError as error:
            found.append(
                (
                    f"line {number}",
                    InvalidRecordError(
                        f"not valid JSON: {error}", code="bad_json", params={"detail": str(error)}
                    ),
                )
            )
    return found


def play_steps(
    deal: Deal, actions: Sequence[Any], showdown: Mapping[str, Any] | None = None
) -> Iterator[tuple[int, str, int]]:
    """Play a loaded deal record (:func:`load_deal`) one action at a time.

    Yields ``(step, action, player)`` after each action, ``player`` being
    the seat that played it; after the last, ends the hand: the showdown
    with the declared parts (the rest chosen optimally), or the void hand.
    ``deal.result`` then holds the outcome. Whatever is wrong raises
    :class:`RecordError` with its step (see the module docs) when that step
    is reached, so the steps yielded before it stand.
    """
    for step, action in enumerate(actions):
        if type(action) is not str:
            raise InvalidRecordError(
                f'step {step}: an action must be text such as "draw stock", not {action!r}',
                step=step,
                code="bad_action",
                params={"action": repr(action)},
                field="actions",
            )
        player = deal.turn
        try:
            deal.apply(action)
        except ScorekeeperError as error:
            raise RecordError.restating(
                error, f"step {step}: {error}", step=step, field="actions"
            ) from error
        yield step, action, player
    _end_deal(deal, actions, showdown)


def _end_deal(deal: Deal, actions: Sequence[Any], showdown: Mapping[str, Any] | None) -> None:
    """End a deal whose ``actions`` were all played: its showdown, with the declared parts
    of ``showdown``, or the void hand (which may declare none); raises :class:`RecordError`
    at the last step, or after it when the actions end before the hand is over."""
    if deal.phase == Phase.SHOWDOWN:
        declared = {
            key: showdown[key]
            for key in SHOWDOWN_KEYS
            if showdown is not None and showdown.get(key) is not None
        }
        try:
            deal.showdown(**declared)
        except ScorekeeperError as error:
            step = len(actions) - 1
            raise RecordError.restating(
                error, f"step {step}: showdown: {error}", step=step, field="showdown"
            ) from error
    elif deal.over:
        if showdown is not None:
            step = len(actions) - 1
            raise IllegalRecordError(
                f"step {step}: showdown given, but the hand is void (the stock"
                " is down to 2 cards): there is no showdown",
                step=step,
                code="showdown_on_void",
                field="showdown",
            )
    else:
        step = len(actions)
        raise InvalidRecordError(
            f"step {step}: the actions end before the hand is over: {_expected(deal)}",
            step=step,
            code="unfinished_hand",
            params={"expected": _expected(deal)},
            field="actions",
        )


def _play(deal: Deal, actions: Sequence[Any], showdown: Mapping[str, Any] | None) -> ReplayedDeal:
    """Play the whole deal (:func:`play_steps`): its result, with the players."""
    for _ in play_steps(deal, actions, showdown):
        pass
    assert deal.result is not None  # play_steps ends the hand or raises
    return ReplayedDeal.of(deal.result, deal.names)


def _expected(deal: Deal) -> str:
    name = deal.names[deal.turn]
    if deal.phase == Phase.UPCARD_OFFER:
        return f"{name} may take the upcard (draw discard) or pass"
    if deal.phase == Phase.DRAW:
        return f"{name} must {' or '.join(deal.legal_actions())}"
    if deal.phase == Phase.DISCARD:
        return f"{name} has drawn and must discard, knock or go gin"
    return "the hand is not over"  # pragma: no cover - no other phase is open


def _header(
    record: Mapping[str, Any], kind: str, allowed: Sequence[str], what: str
) -> tuple[Rules, tuple[str, ...]]:
    """A stand-alone record's keys and format checked; its rules and players."""
    check_keys(record, allowed, what)
    check_format(record, kind)
    rules, players = record_rules(record.get("rules")), record.get("players")
    return rules, DEFAULT_PLAYERS if players is None else record_players(players)
