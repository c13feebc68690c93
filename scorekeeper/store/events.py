"""Stored events: creating one, pairing its rounds as stored games, its standings.

An event (:mod:`scorekeeper.events`) is stored with the SHA-256 hash of its
director token (shown once, like a game's edit token; with an
``Idempotency-Key`` derived from it and the secret, so a repeat answers the
same). Each match of a paired round is an ordinary stored game under the
event's rules and stake, linked to the event by its round and table. The
results are never copied: :func:`played_rounds` reads them from the games
each time, so a correction to a finished game changes the standings.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from ..errors import Conflict, InvalidValueError
from ..event_tables import RESULTS_COLUMNS, STANDINGS_COLUMNS, csv_text, result_rows
from ..events import Event, Format, Pairing, PlayedRound, Result, Round, next_round, standings
from ..names import MAX_NAME_LENGTH
from ..rescore import EVENT_FORMAT, EVENT_VERSION
from ..rules import Rules
from .base import KeyReused, Store, StoredEvent
from .games import (
    _request_hash,
    check_new_game,
    create_game,
    derive_token,
    export_game,
    hash_token,
    load_sheet,
    new_token,
)


@dataclass(frozen=True, slots=True)
class PairedMatch:
    """A match of a newly paired round: its pairing, its game's id and edit token."""

    pairing: Pairing
    game_id: str
    edit_token: str

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``table``, ``players``, ``game_id`` and ``edit_token``."""
        return {**self.pairing.to_dict(), "game_id": self.game_id, "edit_token": self.edit_token}


def event_of(stored: StoredEvent) -> Event:
    """The core event of a stored one."""
    return Event(stored.players, Format(stored.format), stored.rounds)


def create_event(
    store: Store,
    name: Any,
    players: Any,
    format: Any,
    rounds: Any = None,
    rules: Any = None,
    stake: Any = None,
    *,
    idempotency_key: str | None = None,
    secret: str | None = None,
) -> tuple[StoredEvent, str]:
    """Store a new event; returns ``(event, director token)``. Only the token's hash is kept.

    The name, roster, format, rounds, rules and stake are checked first
    (errors name the field). With an ``idempotency_key`` (and the ``secret``
    the token derives under) a repeat of the same request returns the same
    event and token.
    """
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_LENGTH:
        raise InvalidValueError(
            f"name: an event's name is 1 to {MAX_NAME_LENGTH} characters", option="name"
        )
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidValueError("players: a list of names", option="players")
    try:
        kind = Format(format)
    except ValueError:
        raise InvalidValueError(
            f"format: one of {', '.join(f.value for f in Format)}, not {format!r}", option="format"
        ) from None
    event = Event(tuple(players), kind, rounds)
    game = check_new_game(list(event.players[:2]), rules, 0, stake)
    settings = {
        "name": name,
        "players": players,
        "format": kind.value,
        "rounds": rounds,
        "rules": game.rules.to_dict(),
        "stake": game.stake,
    }
    event_id = secrets.token_urlsafe(12)
    if idempotency_key is None:
        token, request_hash = new_token(), None
    else:
        if not secret:
            raise ValueError("an event created with an idempotency key needs a secret")
        token, request_hash = (
            derive_token(secret, event_id, idempotency_key),
            _request_hash(settings),
        )
    stored = store.create_event(
        event_id=event_id,
        name=name,
        players=event.players,
        format=kind.value,
        rounds=rounds,
        rules=game.rules.to_dict(),
        stake=game.stake,
        token_hash=hash_token(token),
        idempotency_key=idempotency_key,
        request_hash=request_hash,
    )
    if stored.id != event_id:  # a repeat: the event the key created
        token = derive_token(secret or "", stored.id, idempotency_key or "")
        if hash_token(token) != stored.token_hash:
            raise KeyReused(
                f"the event of Idempotency-Key {idempotency_key!r} was created under another"
                " secret key: its director token cannot be given again",
                field="Idempotency-Key",
            )
    return stored, token


def played_rounds(store: Store, stored: StoredEvent) -> list[PlayedRound]:
    """The event's paired rounds as played so far, read from their games.

    A match counts once its game is over: its winner and the final totals
    (bonuses included); until then it has no winner.
    """
    played: list[PlayedRound] = []
    for paired in stored.paired:
        results = []
        for _, game_id in paired.matches:
            game = store.game(game_id)
            players = (game.players[0], game.players[1])
            data = game.scored.data if game.scored is not None else None
            if data is None:
                data = load_sheet(store, game_id).to_dict()
            result = data.get("result")
            if not data.get("over") or not result:
                results.append(Result(players))
                continue
            final = result["final"]
            results.append(Result(players, (final[0], final[1]), players[result["winner"]]))
        played.append(PlayedRound(tuple(results), paired.byes))
    return played


def event_standings(store: Store, stored: StoredEvent) -> list[dict[str, Any]]:
    """The event's standings (JSON lines), computed from its stored games."""
    return [line.to_dict() for line in standings(event_of(stored), played_rounds(store, stored))]


def match_key(event_id: str, number: int, table: int) -> str:
    """The idempotency key a match game is created with when paired under a secret: with
    it, :func:`~scorekeeper.store.games.derive_token` gives the game's edit token again."""
    return f"event-{event_id}-round-{number}-table-{table}"


def pair_round(
    store: Store, event_id: str, *, secret: str | None = None
) -> tuple[Round, list[PairedMatch]]:
    """Pair the event's next round: each match a new stored game under the event's rules.

    With the app's ``secret``, each game is created with the idempotency key
    :func:`match_key`, so its edit token can be derived again from the secret
    (the scorepad's director page pairs so: it never shows the tokens).

    Raises :class:`~scorekeeper.errors.Conflict` while a game of the current
    round is unfinished, when the event is over, or when another request
    paired this round first.
    """
    stored = store.event(event_id)
    paired = next_round(event_of(stored), played_rounds(store, stored))
    if paired is None:
        raise Conflict("the event is over: no round is left to pair", code="event_over")
    rules = Rules.from_dict(stored.rules)
    matches = []
    for pairing in paired.matches:
        key = match_key(event_id, paired.number, pairing.table) if secret else None
        sheet, token = create_game(
            store,
            list(pairing.players),
            rules,
            0,
            stored.stake,
            idempotency_key=key,
            secret=secret,
        )
        matches.append(PairedMatch(pairing, sheet.id, token))
    links = [(m.pairing.table, m.game_id) for m in matches]
    if not store.add_round(event_id, paired.number, paired.byes, links):
        raise Conflict(
            f"round {paired.number} was paired meanwhile by another request",
            code="round_paired",
            params={"round": paired.number},
        )
    return paired, matches


def event_body(store: Store, stored: StoredEvent) -> dict[str, Any]:
    """The whole event as JSON: settings, rounds (matches, tables, results) and standings."""
    event = event_of(stored)
    played = played_rounds(store, stored)
    rounds = []
    for paired, round_ in zip(stored.paired, played, strict=True):
        matches = []
        for (table, game_id), result in zip(paired.matches, round_.matches, strict=True):
            matches.append(
                {
                    "table": table,
                    "players": list(result.players),
                    "game_id": game_id,
                    "finished": result.winner is not None,
                    "winner": result.winner,
                    "totals": list(result.totals) if result.winner is not None else None,
                }
            )
        byes = list(paired.byes)
        rounds.append(
            {
                "number": paired.number,
                "matches": matches,
                "bye": byes[0] if len(byes) == 1 else None,
                "byes": byes,
            }
        )
    over = bool(played) and all(r.finished for r in played) and next_round(event, played) is None
    return {
        "id": stored.id,
        "name": stored.name,
        "players": list(event.players),
        "format": event.format.value,
        "round_count": event.rounds,
        "rules": dict(stored.rules),
        "stake": stored.stake,
        "created": stored.created,
        "over": over,
        "rounds": rounds,
        "standings": [line.to_dict() for line in standings(event, played)],
    }


def token_matches(stored: StoredEvent, token: str | None) -> bool:
    """True when ``token`` is the event's director token (constant-time comparison)."""
    return token is not None and hmac.compare_digest(hash_token(token), stored.token_hash)


def event_export(store: Store, stored: StoredEvent) -> dict[str, Any]:
    """The event's results as JSON: ``{"event": settings, "standings", "results"}``.

    ``results`` has one row per match (:func:`scorekeeper.event_tables.result_rows`).
    """
    body = event_body(store, stored)
    about = {key: body[key] for key in _SETTINGS}
    return {
        "event": {**about, "over": body["over"]},
        "standings": body["standings"],
        "results": result_rows(body["rounds"]),
    }


def event_csv(store: Store, stored: StoredEvent, what: str) -> str:
    """The event's ``standings`` or ``results`` as CSV text
    (:func:`scorekeeper.event_tables.csv_text`)."""
    if what == "standings":
        return csv_text(STANDINGS_COLUMNS, event_standings(store, stored))
    if what == "results":
        return csv_text(RESULTS_COLUMNS, event_export(store, stored)["results"])
    raise ValueError(f"what: standings or results, not {what!r}")


def event_record(store: Store, stored: StoredEvent) -> dict[str, Any]:
    """The event as a record ``scorekeeper replay`` scores again (:mod:`scorekeeper.rescore`):
    its settings, its rounds' byes and each match's exported game, labelled."""
    body = event_body(store, stored)
    return {
        "format": EVENT_FORMAT,
        "version": EVENT_VERSION,
        "event": {key: body[key] for key in _SETTINGS},
        "rounds": [{"number": r["number"], "byes": r["byes"]} for r in body["rounds"]],
        "games": [
            {
                "round": round_["number"],
                "table": match["table"],
                "game_id": match["game_id"],
                "game": export_game(store, match["game_id"]).to_dict(),
            }
            for round_ in body["rounds"]
            for match in round_["matches"]
        ],
    }


_SETTINGS = ("id", "name", "players", "format", "round_count", "rules", "stake", "created")
"""The keys of the event's JSON an export repeats as the event's settings."""
