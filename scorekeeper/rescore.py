"""Scoring exported games and events again: what ``scorekeeper replay`` does with them.

Besides deal and match records (:mod:`scorekeeper.records`), a replay takes:

* an **exported game** (``"format": "scorekeeper.game"``, what
  ``GET /api/v1/games/{id}/export`` answers)::

    {"format": "scorekeeper.game", "version": 1, "players": ["Ana", "Bor"],
     "rules": {...}, "dealer": 0, "stake": null, "created": "...",
     "hands": [{"kind": "quick", ...}, {"kind": "record", "record": {...}}, ...]}

  Every hand is read (:func:`~scorekeeper.handinput.parse_hand`) and scored again,
  a fold of :func:`~scorekeeper.game.apply` (a deal record replayed), and the sheet
  rebuilt: a :class:`RescoredGame`.
* an **event record** (``"format": "scorekeeper.event"``, what
  ``GET /api/v1/events/{id}/export/record.json`` answers)::

    {"format": "scorekeeper.event", "version": 1,
     "event": {"id", "name", "players", "format", "round_count", "rules", "stake", ...},
     "rounds": [{"number": 1, "byes": ["Cy"], "walkovers": []}, ...],
     "games": [{"round": 1, "table": 1, "game_id": "...", "game": {exported game},
                "ended_by_director": null}, ...]}

  Each game is scored again as above and the standings computed from the
  results (:func:`scorekeeper.event_standings.standings`): a :class:`RescoredEvent`,
  to be compared with the event's standings. A match the director ended
  (``ended_by_director``: ``{"winner", "totals"}``) counts as ended so, as
  in the event, whatever its game did after. The event's ``entries`` and
  ``withdrawals`` (``[{"player", "round"}]``) and each round's ``walkovers``
  (``[{"winner", "withdrawn"}]``) count as in the event; a record without
  them has none.

A bad record raises :class:`~scorekeeper.errors.RecordError` whose message
and ``field`` say where (``round 2, table 1: hand 3: ...``,
``games.4.game.hands.2.knocker``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .errors import InvalidRecordError, RecordError, RuleViolation, ScorekeeperError
from .event_standings import standings
from .events import Event, Format, MatchResult, PlayedRound
from .game import apply
from .handinput import parse_hand
from .record_checks import check_format
from .records import ReplayedDeal, ReplayedMatch, replay
from .results import Result as Typed
from .rules import Rules
from .sheet import AnyHandRecord, AnySheet, GameResult, score_sheet
from .tally import GameState

GAME_FORMAT = "scorekeeper.game"
"""The ``format`` of an exported game (a game's settings and every hand's input)."""

GAME_VERSION = 1
"""The version of the exported game format."""

EVENT_FORMAT = "scorekeeper.event"
"""The ``format`` of an event record (the event's settings, rounds and games)."""

EVENT_VERSION = 1
"""The version of the event record format."""


@dataclass(frozen=True, slots=True)
class RescoredGame(Typed):
    """An exported game scored again: its players and its sheet (``over``, ``result``)."""

    players: tuple[str, ...]
    sheet: AnySheet


@dataclass(frozen=True, slots=True)
class TimeCalled(Typed):
    """A match the director ended before its game was over: the winner named and the two
    totals as they stood (the match's players' order), with no game bonus."""

    winner: str
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RescoredMatch(Typed):
    """A match of an event scored again: where it was played and its game.

    ``winner`` is the winner's name, ``final`` the two final totals
    (bonuses included), both ``None`` while the game is unfinished.
    ``ended_by_director`` is the director's end of the match (time called),
    its result in the event whatever the game did after; else ``None``.
    """

    round: int
    table: int
    game_id: str | None
    winner: str | None
    final: tuple[int, ...] | None
    game: RescoredGame
    ended_by_director: TimeCalled | None = None


@dataclass(frozen=True, slots=True)
class RescoredEvent(Typed):
    """An event record scored again: every match and the standings they give."""

    event: Mapping[str, Any]
    matches: tuple[RescoredMatch, ...]
    standings: tuple[Mapping[str, Any], ...]
    """The standings' lines (:meth:`scorekeeper.event_standings.Standing.to_dict`)."""


Replayed = ReplayedDeal | ReplayedMatch | RescoredGame | RescoredEvent
"""What :func:`replay_any` gives."""


def replay_any(record: Any) -> Replayed:
    """Replay a deal or match record, or score an exported game or event record again."""
    kind = record.get("format") if isinstance(record, Mapping) else None
    if kind == GAME_FORMAT:
        return rescore_game(record)
    if kind == EVENT_FORMAT:
        return rescore_event(record)
    return replay(record)


def rescore_game(record: Mapping[str, Any]) -> RescoredGame:
    """Score an exported game again, hand by hand (see the module docs)."""
    _check_header(record, GAME_FORMAT, GAME_VERSION, "an exported game")
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise InvalidRecordError("hands must be a list of hands", field="hands")
    settings = {
        "players": record.get("players"),
        "rules": record.get("rules"),
        "dealer": record.get("dealer", 0),
        "stake": record.get("stake"),
    }
    try:
        rules = Rules.from_dict(settings["rules"])
        sheet = score_sheet([], **{**settings, "rules": rules})
    except ScorekeeperError as error:
        raise RecordError.restating(error, str(error), field=error.field) from error
    records: list[AnyHandRecord] = []
    state = GameState.start(rules, sheet.players, settings["dealer"], sheet.stake)
    for i, hand in enumerate(hands):
        try:
            if state.over:
                raise RuleViolation(
                    f"the game is over after hand {i}; hand {i + 1} cannot be scored",
                    code="game_over",
                    params={"after": i, "hand": i + 1},
                )
            made, state = apply(rules, state, parse_hand(hand))
        except ScorekeeperError as error:
            place = error.within(f"hand {i + 1}", f"hands.{i}")
            raise RecordError.restating(error, str(place), field=place.field) from error
        records.append(made)
    sheet = state.sheet(rules, records)
    return RescoredGame(players=sheet.players, sheet=sheet)


def rescore_event(record: Mapping[str, Any]) -> RescoredEvent:
    """Score every game of an event record again, and the standings (see the module docs)."""
    _check_header(record, EVENT_FORMAT, EVENT_VERSION, "an event record")
    about = record.get("event")
    if not isinstance(about, Mapping):
        raise InvalidRecordError(
            "event must be an object with players, format and round_count", field="event"
        )
    event = _record_event(about)
    rounds = _list(record.get("rounds"), "rounds")
    results: list[list[MatchResult]] = [[] for _ in rounds]
    matches: list[RescoredMatch] = []
    for i, item in enumerate(_list(record.get("games"), "games")):
        number = item.get("round") if isinstance(item, Mapping) else None
        table = item.get("table") if isinstance(item, Mapping) else None
        if type(number) is not int or not 1 <= number <= len(rounds) or type(table) is not int:
            raise InvalidRecordError(
                f"games.{i} must be an object with its round (1 to {len(rounds)}),"
                " its table and its game",
                field=f"games.{i}",
            )
        assert isinstance(item, Mapping)  # checked above
        match = _rescore_match(item, number, table, f"games.{i}")
        players = (match.game.players[0], match.game.players[1])
        ended = _director_end(item.get("ended_by_director"), players, f"games.{i}")
        final = match.final or (0, 0)
        results[number - 1].append(
            ended or MatchResult(players, (final[0], final[1]), match.winner)
        )
        if ended is not None and ended.winner is not None:
            match = replace(match, ended_by_director=TimeCalled(ended.winner, ended.totals))
        matches.append(match)
    played = [
        PlayedRound(tuple(found), *sat_out)
        for found, sat_out in zip(results, _sat_out(rounds), strict=True)
    ]
    return RescoredEvent(
        event=dict(about),
        matches=tuple(matches),
        standings=tuple(line.to_dict() for line in standings(event, played)),
    )


def _record_event(about: Mapping[str, Any]) -> Event:
    """The event of a record's ``event`` object: its roster, format, rounds, late entries
    and withdrawals."""
    kind = about.get("format")
    if kind not in tuple(Format):
        raise InvalidRecordError(
            f"event.format must be one of {', '.join(Format)}, not {kind!r}",
            field="event.format",
        )
    players = _names(about.get("players"), "event.players")
    try:
        return Event(
            players,
            Format(kind),
            about.get("round_count"),
            _changes(about.get("entries", []), "event.entries"),
            _changes(about.get("withdrawals", []), "event.withdrawals"),
        )
    except ScorekeeperError as error:
        field = f"event.{error.field}" if error.field else "event"
        raise RecordError.restating(error, f"event: {error}", field=field) from error


def _sat_out(rounds: Sequence[Any]) -> list[tuple[tuple[str, ...], tuple[tuple[str, str], ...]]]:
    """Each record round's byes and walkovers, the rounds numbered from 1 in order."""
    found = []
    for i, item in enumerate(rounds):
        if not isinstance(item, Mapping) or item.get("number") != i + 1:
            raise InvalidRecordError(
                f"rounds.{i} must be an object with number {i + 1} and its byes",
                field=f"rounds.{i}",
            )
        byes = _names(item.get("byes", []), f"rounds.{i}.byes")
        found.append((byes, _walkovers(item.get("walkovers", []), f"rounds.{i}.walkovers")))
    return found


def _rescore_match(item: Mapping[str, Any], number: int, table: int, place: str) -> RescoredMatch:
    """One game of an event record scored again: a two-player game, labelled."""
    where = f"round {number}, table {table}"
    game = item.get("game")
    if not isinstance(game, Mapping):
        raise InvalidRecordError(
            f"{where}: game must be an exported game ({GAME_FORMAT})", field=f"{place}.game"
        )
    try:
        rescored = rescore_game(game)
        if len(rescored.players) != 2:
            raise InvalidRecordError("a match of an event is a two-player game", field="players")
    except RecordError as error:
        field = f"{place}.game.{error.field}" if error.field else f"{place}.game"
        raise RecordError.restating(error, f"{where}: {error}", field=field) from error
    result = rescored.sheet.result
    finished = result if rescored.sheet.over and isinstance(result, GameResult) else None
    return RescoredMatch(
        round=number,
        table=table,
        game_id=item.get("game_id"),
        winner=None if finished is None else rescored.players[finished.winner],
        final=None if finished is None else finished.final,
        game=rescored,
    )


def _director_end(value: Any, players: tuple[str, str], place: str) -> MatchResult | None:
    """The result of a match its director ended (``{"winner", "totals"}``): it counts as
    given, whatever its game did after; ``None`` for a match played out."""
    if value is None:
        return None
    winner = value.get("winner") if isinstance(value, Mapping) else None
    totals = value.get("totals") if isinstance(value, Mapping) else None
    if (
        winner not in players
        or not isinstance(totals, list)
        or len(totals) != 2
        or not all(type(total) is int for total in totals)
    ):
        raise InvalidRecordError(
            f"{place}.ended_by_director must be null or the winner (one of {players[0]!r}"
            f" and {players[1]!r}) and the two totals",
            field=f"{place}.ended_by_director",
        )
    return MatchResult(players, (totals[0], totals[1]), winner, ended_by_director=True)


def _check_header(record: Mapping[str, Any], kind: str, version: int, what: str) -> None:
    check_format(record, kind)
    if record.get("version", version) != version:
        raise InvalidRecordError(
            f"version must be {version} in {what}, not {record.get('version')!r}",
            code="bad_version",
            params={"version": record.get("version")},
            field="version",
        )


def _list(value: Any, field: str) -> Sequence[Any]:
    if not isinstance(value, list):
        raise InvalidRecordError(f"{field} must be a list", field=field)
    return value


def _names(value: Any, field: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise InvalidRecordError(f"{field} must be a list of names", field=field)
    return tuple(value)


def _changes(value: Any, field: str) -> tuple[tuple[str, int], ...]:
    """An event's entries or withdrawals: ``[{"player": name, "round": n}, ...]``."""
    items = _list(value, field)
    if not all(
        isinstance(item, Mapping)
        and isinstance(item.get("player"), str)
        and type(item.get("round")) is int
        for item in items
    ):
        raise InvalidRecordError(f"{field} must be a list of {{player, round}}", field=field)
    return tuple((item["player"], item["round"]) for item in items)


def _walkovers(value: Any, field: str) -> tuple[tuple[str, str], ...]:
    """A round's walkovers: ``[{"winner": name, "withdrawn": name}, ...]``."""
    items = _list(value, field)
    if not all(
        isinstance(item, Mapping)
        and isinstance(item.get("winner"), str)
        and isinstance(item.get("withdrawn"), str)
        for item in items
    ):
        raise InvalidRecordError(f"{field} must be a list of {{winner, withdrawn}}", field=field)
    return tuple((item["winner"], item["withdrawn"]) for item in items)
