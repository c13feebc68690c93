"""Stored events: creating one, pairing its rounds as stored games, its standings.

An event (:mod:`scorekeeper.events`) is stored with the SHA-256 hash of its
director token (shown once, like a game's edit token; with an
``Idempotency-Key`` derived from it and the secret, so a repeat answers the
same). Each match of a paired round is an ordinary stored game under the
event's rules and stake, linked to the event by its round and table. The
results are never copied: :func:`played_rounds` reads them from the games
each time, so a correction to a finished game changes the standings (in a
knockout, not once a later round was paired on its winner: see
:mod:`.event_rounds`, which also withdraws a round).

The director may end an unfinished match (:func:`~.event_ends.end_match`):
that end is the match's result from then on. An event's exports are
:mod:`.event_exports`.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any

from ..errors import Conflict, InvalidValueError
from ..event_changes import stale_round
from ..event_pairing import next_round
from ..event_standings import standings
from ..events import Event, Format, PlayedRound
from ..names import MAX_NAME_LENGTH
from ..results import field_values
from .event_clock import round_clock
from .event_results import (
    EventMatch,
    EventRound,
    EventSettings,
    EventStandings,
    EventView,
    PairedMatch,
    PairedRound,
    roster_lines,
    walkover_lines,
)
from .event_rounds import GameData, event_of, rounds_of
from .event_types import NewMatch, StoredEvent
from .games import (
    check_new_game,
    derive_token,
    empty_summary,
    hash_request,
    hash_token,
    load_sheet,
    new_game_id,
    new_token,
)
from .protocol import Store
from .refusals import KeyReused


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
    kind = _event_format(name, players, format)
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
    event_id = new_game_id()  # made as a game's id is
    token, request_hash = _director_token(event_id, settings, idempotency_key, secret)
    stored = store.create_event(
        event_id=event_id,
        name=name,
        players=event.players,
        format=kind,
        rounds=rounds,
        rules=game.rules,
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


def _event_format(name: Any, players: Any, format: Any) -> Format:
    """The format of a new event, its name and its list of players checked first (errors
    name the field)."""
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_LENGTH:
        raise InvalidValueError(
            f"name: an event's name is 1 to {MAX_NAME_LENGTH} characters", option="name"
        )
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidValueError("players: a list of names", option="players")
    try:
        return Format(format)
    except ValueError:
        raise InvalidValueError(
            f"format: one of {', '.join(f.value for f in Format)}, not {format!r}", option="format"
        ) from None


def _director_token(
    event_id: str, settings: dict[str, Any], idempotency_key: str | None, secret: str | None
) -> tuple[str, str | None]:
    """A new event's director token and the hash of the request that creates it: a random
    token, or with an ``idempotency_key`` one derived under ``secret`` (the same again for
    a repeat of the same request)."""
    if idempotency_key is None:
        return new_token(), None
    if not secret:
        raise ValueError("an event created with an idempotency key needs a secret")
    return derive_token(secret, event_id, idempotency_key), hash_request(settings)


def played_rounds(store: Store, stored: StoredEvent) -> list[PlayedRound]:
    """The event's paired rounds as played so far, read from their games.

    A match counts once its game is over: its winner and the final totals
    (bonuses included); until then it has no winner. A match the director
    ended (:func:`~.event_ends.end_match`) counts as ended, whatever its game does after.
    """

    games = {game.id: game for game in store.event_games(stored.id)}

    def data_of(game_id: str) -> GameData:
        game = games.get(game_id) or store.game(game_id)  # paired since the event was read
        data = game.scored.data if game.scored is not None else None
        if data is None:  # a game stored before its summary was kept
            data = load_sheet(store, game_id).to_dict()
        return (game.players[0], game.players[1]), data

    return rounds_of(stored, data_of)


def event_standings(store: Store, stored: StoredEvent) -> EventStandings:
    """The event's standings, computed from its stored games."""
    return EventStandings(tuple(standings(event_of(stored), played_rounds(store, stored))))


def match_key(event_id: str, number: int, table: int) -> str:
    """The idempotency key a match game is created with when paired under a secret: with
    it, :func:`~scorekeeper.store.games.derive_token` gives the game's edit token again."""
    return f"event-{event_id}-round-{number}-table-{table}"


def new_match(
    stored: StoredEvent, number: int, table: int, players: tuple[str, str], secret: str | None
) -> tuple[PairedMatch, NewMatch]:
    """A new match of round ``number`` at ``table``: as answered (with its edit token) and
    as stored (a new game under the event's rules; its token derived from ``secret`` and
    :func:`match_key` when there is one, see :func:`pair_round`)."""
    game = check_new_game(list(players), stored.rules, 0, stored.stake)
    game_id = new_game_id()
    key = match_key(stored.id, number, table)
    token = derive_token(secret, game_id, key) if secret else new_token()
    summary = empty_summary(game)
    return (
        PairedMatch(table, players, game_id, token),
        NewMatch(table, game_id, game.players, hash_token(token), summary),
    )


def roster_kept(seen: StoredEvent) -> Callable[[StoredEvent], None]:
    """What a round paired on the event ``seen`` checks as it is written (the event then
    given): refused (409 ``roster_changed``) when an entry or a withdrawal came meanwhile."""

    def check(now: StoredEvent) -> None:
        if (now.entered, now.withdrawn) != (seen.entered, seen.withdrawn):
            raise Conflict(
                "the roster changed while the round was being paired: pair it again",
                code="roster_changed",
            )

    return check


def pair_round(store: Store, event_id: str, *, secret: str | None = None) -> PairedRound:
    """Pair the event's next round: each match a new stored game under the event's rules.

    The round, its games and their links to the event are written in one
    transaction (:meth:`~scorekeeper.store.protocol.Store.add_round`): a request
    that loses a race to pair the same round writes nothing. With the app's
    ``secret``, each game's edit token is derived from it and
    :func:`match_key` (as a game created with that idempotency key has its
    token derived), so it can be derived again (the scorepad's director page
    pairs so: it never shows the tokens).

    Raises :class:`~scorekeeper.errors.Conflict` while a game of the current
    round is unfinished, when the event is over, or when another request
    paired this round first.
    """
    stored = store.event(event_id)
    event, played = event_of(stored), played_rounds(store, stored)
    stale = stale_round(event, played)
    if stale is not None:
        raise Conflict(
            f"round {stale} was paired on a result that has changed since: the director"
            f" must withdraw it (and any round after it) before a round can be paired",
            code="round_stale",
            params={"round": stale},
        )
    paired = next_round(event, played)
    if paired is None:
        raise Conflict("the event is over: no round is left to pair", code="event_over")
    made = [
        new_match(stored, paired.number, pairing.table, pairing.players, secret)
        for pairing in paired.matches
    ]
    matches, new = [shown for shown, _ in made], [kept for _, kept in made]
    if not store.add_round(
        event_id,
        paired.number,
        paired.byes,
        new,
        rules=stored.rules,
        stake=stored.stake,
        walkovers=paired.walkovers,
        check=roster_kept(stored),
    ):
        raise Conflict(
            f"round {paired.number} was paired meanwhile by another request",
            code="round_paired",
            params={"round": paired.number},
        )
    walkovers = walkover_lines(paired.walkovers)
    return PairedRound(paired.number, tuple(matches), paired.bye, paired.byes, walkovers)


def event_body(store: Store, stored: StoredEvent) -> EventView:
    """The whole event: settings, rounds (matches, tables, results) and standings."""
    event = event_of(stored)
    played = played_rounds(store, stored)
    rounds = tuple(
        EventRound(
            paired.number,
            tuple(
                EventMatch.of(table, game_id, result)
                for (table, game_id), result in zip(paired.matches, round_.matches, strict=True)
            ),
            paired.byes[0] if len(paired.byes) == 1 else None,
            paired.byes,
            walkover_lines(paired.walkovers),
        )
        for paired, round_ in zip(stored.paired, played, strict=True)
    )
    stale = stale_round(event, played)
    over = (
        stale is None
        and bool(played)
        and all(r.finished for r in played)
        and next_round(event, played) is None
    )
    return EventView(
        **field_values(settings(stored)),
        over=over,
        rounds=rounds,
        stale_round=stale,
        standings=tuple(standings(event, played)),
        clock=round_clock(stored),
    )


def settings(stored: StoredEvent) -> EventSettings:
    """The event's settings, as its exports repeat them."""
    return EventSettings(
        stored.id,
        stored.name,
        stored.players,
        stored.format,
        stored.rounds,
        stored.rules.to_dict(),
        stored.stake,
        stored.created,
        roster_lines(stored.entered),
        roster_lines(stored.withdrawn),
    )


def token_matches(stored: StoredEvent, token: str | None) -> bool:
    """True when ``token`` is the event's director token (constant-time comparison)."""
    return token is not None and hmac.compare_digest(hash_token(token), stored.token_hash)
