"""Games as the games page and the home page list them: date, players, score, status."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from scorekeeper.gamesheet import GameStatus
from scorekeeper.store.base import StoredGame

from . import labels as pad_labels


def game_line(game: StoredGame) -> dict[str, Any]:
    """One game of a list: ``{"id", "players", "created", "score", "over", "winner"}``.

    ``score`` is the sides' running totals (``120 – 85``), once the game is over its
    finals with the bonuses (``None`` for a game stored before its scored state was
    kept); ``winner`` the winning side once the game is over (HTML, names isolated;
    ``None`` while it is played, or for an end without one).
    """
    data = game.scored.data if game.scored is not None else None
    sides = pad_labels.sides_html(game.players)
    result = data.get("result") if data else None
    over = game.status is GameStatus.OVER
    winner = result.get("winner") if result and over else None
    return {
        "id": game.id,
        "players": game.players,
        "created": game.created,
        "score": " – ".join(str(n) for n in _score(data, result)) if data else None,
        "over": over,
        "winner": Markup(sides[winner]) if isinstance(winner, int) else None,
    }


def _score(data: Mapping[str, Any], result: Mapping[str, Any] | None) -> list[int]:
    """The finals of a game ended with a result (bonuses in), else the running totals."""
    finals = result.get("final") if result else None
    return list(finals) if finals else list(data["totals"])
