"""Storing a new game (made, or imported) with its first log entries and its edit token."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..gamesheet import GameSheet, GameStatus
from ..newgame import GameSettings
from ..sheet import AnySheet
from .answers import game_sheet
from .base import SheetRow, Summary
from .protocol import Store
from .refusals import KeyReused
from .tokens import derive_token, hash_request, hash_token, new_game_id, new_token, token_matches


@dataclass(frozen=True, slots=True)
class NewGame:
    """How a new game is stored besides its settings."""

    scored: Summary
    status: GameStatus = GameStatus.ACTIVE
    imported: bool = False
    rows: Sequence[SheetRow] = ()
    follows: str | None = None
    cut: Sequence[str] | None = None
    sheet: AnySheet | None = None
    """The sheet as created, when the caller has scored it (not scored again)."""


def store_game(
    store: Store,
    game: GameSettings,
    new: NewGame,
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
    scored = new.sheet if stored.id == game_id else None
    return game_sheet(replace(stored, updated=stored.created), log, scored), token
