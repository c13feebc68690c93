"""A new game's writes, as both SQL stores run them: its row (found by its idempotency key
when one created it before), its players and seats, its log and sheet rows, its key.

:class:`GameCreation` is the part of :class:`~scorekeeper.store.sql.SqlStore` that writes
them, for a game created alone and for an event's new matches
(:mod:`~scorekeeper.store.sql_events`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..gamesheet import GameStatus
from ..names import name_key, search_words
from ..rules import Rules
from . import tallies
from .base import SheetRow, StoredGame, Summary, dumps, dumps_in_order, game_from_row, now
from .finding import INSERT_WORDS
from .refusals import KeyReused
from .sql_api_keys import INSERT_KEY_GAME
from .sql_game_rows import (
    INSERT_GAME,
    INSERT_IMPORTED_HAND,
    INSERT_PLAYER,
    INSERT_SEAT,
    SELECT_KEYED_GAME,
)
from .sql_ratings import SET_FINISHED
from .sql_totals import PlayerTotals


class GameCreation(PlayerTotals):
    """The store methods writing a new game (see the module docs); a new game counts in its
    players' totals (:class:`~.sql_totals.PlayerTotals`)."""

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
        """Store a new game (and its players); returns it as :meth:`game` would.

        ``entries`` are ``(kind, payload, result)`` log rows written with it in the
        same transaction, ``scored`` and ``rows`` its summary and sheet rows,
        ``imported`` marks a game made by an import, ``follows`` the game it is a
        rematch of, ``owner`` the id of the API key it belongs to (:meth:`key_games`).

        With an ``idempotency_key`` already used by a game created by the
        same request (``request_hash``), nothing is written and that game is
        returned (its id is not ``game_id``); used by another request, it
        raises :class:`KeyReused`. The game's insert is what finds the key
        (``ON CONFLICT DO NOTHING``): on PostgreSQL it waits for a
        concurrent create with the same key, so the key makes one game
        however many servers are asked at once.

        A player is found, or added, by the :func:`~scorekeeper.names.name_key`
        of the name (a name that is none raises, naming its seat).
        """
        stamp = now()
        seated = [(name_key(p, field=f"players.{seat}"), p) for seat, p in enumerate(players)]
        with self._write() as conn:
            created = self._insert_game(
                conn,
                stamp,
                (game_id, players, rules, dealer, stake, token_hash),
                status=status,
                imported=imported,
                version=len(entries),
                scored=scored,
                follows=follows,
                cut=cut,
                idempotency_key=idempotency_key,
                request_hash=request_hash,
            )
            if created is None:  # the key's game exists
                keyed = self._keyed(conn, SELECT_KEYED_GAME, idempotency_key, request_hash)
                return self._game(conn, keyed)
            self._add_game_parts(conn, stamp, game_id, seated, owner, entries, rows)
            self._count_new(conn, created, hands=bool(rows))
            return created

    def _keyed(
        self, conn: Any, select: str, idempotency_key: str | None, request_hash: str | None
    ) -> str:
        """The id of the row (a game, an event: ``select`` reads its id and request hash)
        that ``idempotency_key`` already created, whose insert this one's conflict skipped;
        raises :class:`KeyReused` when another request (not ``request_hash``) created it."""
        found = self._run(conn, select, (idempotency_key,)).fetchone()
        assert found is not None  # the conflict that skipped the insert is this row
        if found[1] != request_hash:
            raise KeyReused(
                f"Idempotency-Key {idempotency_key!r} was already used for a different request",
                field="Idempotency-Key",
            )
        return str(found[0])

    def _add_game_parts(
        self,
        conn: Any,
        stamp: str,
        game_id: str,
        seated: Sequence[tuple[str, str]],
        owner: int | None,
        entries: Sequence[tuple[str, Any, Any]],
        rows: Sequence[SheetRow],
    ) -> None:
        """What a new game's insert writes with it: its players in their seats (``seated``:
        name key and name; new players are inserted in seat order, or in ``name_key`` order
        with :data:`PLAYERS_BY_KEY`), the API key that ``owner``s it, its log ``entries``
        and its sheet ``rows``."""
        self._seat(conn, stamp, {game_id: seated}, owner)
        if owner is not None:
            self._run(conn, INSERT_KEY_GAME, (game_id, owner, stamp))
        self._run_many(
            conn,
            INSERT_IMPORTED_HAND,
            [
                (game_id, seq, kind, dumps_in_order(payload), dumps_in_order(result), stamp)
                for seq, (kind, payload, result) in enumerate(entries, 1)
            ],
        )
        self._put_rows(conn, game_id, 1, rows, kept=0)

    def _insert_game(
        self,
        conn: Any,
        stamp: str,
        settings: tuple[str, Sequence[str], Rules, int, float | None, str],
        *,
        status: GameStatus = GameStatus.ACTIVE,
        imported: bool = False,
        version: int = 0,
        scored: Summary | None = None,
        follows: str | None = None,
        cut: Sequence[str] | None = None,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
    ) -> StoredGame | None:
        """Insert a game's row, created at ``stamp``: ``settings`` are its id, players,
        rules, first dealer, stake and edit token hash. Returns the game as reading the row
        back would (it is not read back); None (nothing written) when a game already has
        its ``idempotency_key``."""
        game_id, players, rules, dealer, stake, token_hash = settings
        row = (
            game_id,
            dumps(list(players)),
            dumps(rules.to_dict()),
            dealer,
            stake,
            stamp,
            stamp,
            status.value,
            token_hash,
            imported,
            version,
            None if scored is None else dumps_in_order(scored.data),
            follows,
            None if cut is None else dumps(list(cut)),
            idempotency_key,
            request_hash,
            tallies.won_by(None if scored is None else scored.data),
        )
        if not self._run(conn, INSERT_GAME, row).fetchall():  # all: SQLite finishes it
            return None
        if status is GameStatus.OVER:  # an import of a finished game: it ends now
            self._run(conn, SET_FINISHED, (stamp, game_id))
        # the row as it reads back: GAME_COLUMNS come first, its stake column holds a float
        return game_from_row((*row[:4], None if stake is None else float(stake), *row[5:14]))

    def _seat(
        self,
        conn: Any,
        stamp: str,
        games: Mapping[str, Sequence[tuple[str, str]]],
        owner: int | None = None,
    ) -> None:
        """Seat each new game's players, ``(name_key, name)`` in seat order, adding first
        the players not known yet (all of them in ``name_key`` order with
        :data:`PLAYERS_BY_KEY`, else in seat order); the games made by API key ``owner``."""
        named = [player for seated in games.values() for player in seated]
        for key, name in sorted(named) if self.PLAYERS_BY_KEY else named:
            if self._run(conn, INSERT_PLAYER, (name, key, stamp)).rowcount == 1:
                self._run_many(conn, INSERT_WORDS, [(word, key) for word in search_words(name)])
        for game_id, seated in games.items():
            for seat, (key, _) in enumerate(seated):
                self._run(conn, INSERT_SEAT, (game_id, seat, key))
                self._run(conn, tallies.INSERT_PLAYER_GAME, (stamp, game_id, seat, owner, key))
