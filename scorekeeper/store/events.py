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

The director may end an unfinished match (:func:`end_match`): time called,
the leader (or the player the director names) wins, points as they stand,
with no game bonus. That end is stored with the event
(:class:`~scorekeeper.store.base.MatchEnd`) and is the match's result from
then on; the game itself stays an ordinary game (hands may still be
entered, undone or corrected there, but they no longer change the event).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import Conflict, InvalidValueError
from ..event_changes import stale_round
from ..event_pairing import next_round
from ..event_standings import standings
from ..event_tables import RESULTS_COLUMNS, STANDINGS_COLUMNS, csv_text
from ..events import Event, Format, MatchResult, PlayedRound
from ..gamesheet import GameStatus
from ..names import MAX_NAME_LENGTH, name_key
from ..rescore import EVENT_FORMAT, EVENT_VERSION
from ..results import field_values
from .base import KeyReused, MatchEnd, NewMatch, Store, StoredEvent, StoredGame
from .event_clock import round_clock
from .event_results import (
    DirectorEnd,
    EventExport,
    EventExportSettings,
    EventMatch,
    EventRecord,
    EventRecordGame,
    EventRecordRound,
    EventRound,
    EventSettings,
    EventStandings,
    EventView,
    PairedMatch,
    PairedRound,
    result_rows,
    roster_lines,
    walkover_lines,
)
from .event_rounds import GameData, event_of, rounds_of
from .games import (
    check_new_game,
    derive_token,
    empty_summary,
    export_game,
    hash_request,
    hash_token,
    load_sheet,
    new_game_id,
    new_token,
)


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
    ended (:func:`end_match`) counts as ended, whatever its game does after.
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
    transaction (:meth:`~scorekeeper.store.base.Store.add_round`): a request
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


def end_match(store: Store, event_id: str, game_id: str, winner: Any = None) -> EventMatch:
    """The director ends the event's unfinished match ``game_id``; returns the match.

    Time called, the leader wins, points as they stand: the match's result
    is ``winner`` (one of its two players; letter case and spaces around the
    name do not count) or, without one, the player ahead on the sheet's
    current totals, and its totals are the sheet's as they stand, with no
    game bonus. Level totals need a named ``winner`` (an
    :class:`~scorekeeper.errors.InvalidValueError` naming it, as does a
    winner who does not play the match). The game itself stays an ordinary
    game: hands may still be entered, undone and corrected, but the event
    keeps the director's result. Raises :class:`~scorekeeper.errors.Conflict`
    (``match_finished``) when the game is already over or the match already
    ended, :class:`~scorekeeper.store.base.NotFound` when the game is no
    match of the event.
    """
    if winner is not None and not isinstance(winner, str):
        raise InvalidValueError("winner: a player's name", option="winner")
    stored = store.event(event_id)

    def decide(game: StoredGame, earlier: MatchEnd | None) -> tuple[str, tuple[int, int]]:
        if earlier is not None:
            raise Conflict(
                "the director already ended this match",
                code="match_finished",
                params={"game_id": game_id, "ended_by_director": True},
            )
        if game.status is GameStatus.OVER:
            raise Conflict(
                "this match's game is already over: its result counts as it is",
                code="match_finished",
                params={"game_id": game_id, "ended_by_director": False},
            )
        assert game.scored is not None  # a match's game is stored with its sheet's summary
        first, second = game.scored.data["totals"]
        totals = (int(first), int(second))
        if winner is not None:
            return _named_winner(game.players, winner), totals
        if first == second:
            raise InvalidValueError(
                f"winner: the totals are level ({first} to {second}): name the winner",
                code="level_totals",
                params={"total": first},
                option="winner",
            )
        return game.players[0 if first > second else 1], totals

    end = store.end_match(event_id, game_id, decide)
    table = next(t for r in stored.paired for t, g in r.matches if g == game_id)
    game = store.game(game_id)
    result = MatchResult((game.players[0], game.players[1]), end.totals, end.winner, True)
    return EventMatch.of(table, game_id, result)


def _named_winner(players: Sequence[str], winner: str) -> str:
    """The one of a match's two ``players`` named ``winner`` (letter case and spaces around
    the name do not count)."""
    named = name_key(winner, field="winner")
    for player in players:
        if name_key(player) == named:
            return player
    raise InvalidValueError(
        f"winner: {winner!r} does not play this match ({players[0]!r} v {players[1]!r})",
        code="not_in_this_game",
        params={"player": winner},
        option="winner",
    )


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


def event_export(store: Store, stored: StoredEvent) -> EventExport:
    """The event's results: its settings (and whether it is over), its standings and one
    row per match (:func:`~scorekeeper.store.event_results.result_rows`)."""
    body = event_body(store, stored)
    about = EventExportSettings(**field_values(settings(stored)), over=body.over)
    return EventExport(about, body.standings, tuple(result_rows(body.rounds)))


def event_csv(store: Store, stored: StoredEvent, what: str) -> str:
    """The event's ``standings`` or ``results`` as CSV text
    (:func:`scorekeeper.event_tables.csv_text`)."""
    if what == "standings":
        lines = event_standings(store, stored).standings
        return csv_text(STANDINGS_COLUMNS, (line.to_dict() for line in lines))
    if what == "results":
        rows = event_export(store, stored).results
        return csv_text(RESULTS_COLUMNS, (row.to_dict() for row in rows))
    raise ValueError(f"what: standings or results, not {what!r}")


def event_record(store: Store, stored: StoredEvent) -> EventRecord:
    """The event as a record ``scorekeeper replay`` scores again (:mod:`scorekeeper.rescore`):
    its settings, its rounds' byes and each match's exported game, labelled, with the
    director's end of the match (``{"winner", "totals"}``, else ``None``)."""
    body = event_body(store, stored)
    games = tuple(
        EventRecordGame(
            round_.number,
            match.table,
            match.game_id,
            export_game(store, match.game_id),
            _director_end(match),
        )
        for round_ in body.rounds
        for match in round_.matches
    )
    rounds = tuple(EventRecordRound(r.number, r.byes, r.walkovers) for r in body.rounds)
    return EventRecord(EVENT_FORMAT, EVENT_VERSION, settings(stored), rounds, games)


def _director_end(match: EventMatch) -> DirectorEnd | None:
    """How the director ended the match (``None``: they did not)."""
    if not match.ended_by_director or match.winner is None or match.totals is None:
        return None
    return DirectorEnd(match.winner, match.totals)
