"""A page of games, newest first, read from an index in that order (:mod:`.tallies`).

Where a page's games come from decides the index it walks: one player's games
(``player_games``, newest first for that player), an API key's (``key_games_created``)
or every game (``games_created``); the other filters are conditions on the games met
on the way, and the page's cursor is where the walk resumes. So neither a page nor a
player's games costs a sort of the store's games, nor a walk past other players'.

Two filters may keep few games of many: part of a name (``words``) and ``since``. A
walk would then pass many games for each it keeps; so their games (an API key's: those
it made, for a name the key's range of each player's games, ``player_games_key``) are
read first, up to :data:`FEW`: when there are fewer, the page is made
from them (found by their own index, ``player_games`` or ``games_updated``, then named
by id and put in order: at most :data:`FEW` of them, found once); else the walk keeps
at least one game in every ``N / FEW`` it meets (``N`` the games walked), a bounded
walk for a page. (Reading them costs at most the filter's games; the other filters,
``status`` and the days, are taken to keep a fair share of the games they meet.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .base import GAME_COLUMNS, GameFilter
from .finding import MATCHING_GAMES, matching

COLUMNS = ", ".join("g." + column.strip() for column in GAME_COLUMNS.split(","))
"""The games' columns, as :func:`~scorekeeper.store.base.game_from_row` reads them."""

FEW = 2000
"""Games of a narrow filter at most made into a page by sorting them (see the module docs)."""

LISTED = 100
"""Players found by a search at most named by id in the statements of a page (see
:func:`_players`)."""

Run = Callable[[str, Sequence[Any]], Any]
"""Run one statement (``?`` placeholders) with its parameters; returns its cursor."""


@dataclass(frozen=True, slots=True)
class Source:
    """Where a page's games come from (``FROM ... WHERE``, one parameter or none) and the
    columns of the index it walks, newest first: when they were made, then the id."""

    where: str
    created: str
    id: str


EVERY_GAME = Source("FROM games g WHERE 1 = 1", "g.created", "g.id")
KEY_GAMES = Source(
    "FROM key_games o JOIN games g ON g.id = o.game_id WHERE o.key_id = ?", "o.created", "o.game_id"
)
PLAYER_GAMES = Source(
    "FROM player_games pg JOIN games g ON g.id = pg.game_id"
    " WHERE pg.player_id = (SELECT id FROM players WHERE name_key = ?)",
    "pg.created",
    "pg.game_id",
)
OWNED = " AND pg.key_id = ?"
"""A player's games that an API key made: the range of that key in the player's games
(the index ``player_games_key``, :data:`~.tallies.GAME_KEYS`)."""

NEWEST_FIRST = " ORDER BY g.created DESC, g.id DESC"
"""The order of a page's games (those of a sorted page, once found by id)."""

CONDITIONS = {
    "status": " AND g.status = ?",
    "created_from": " AND {created} >= ?",
    "created_to": " AND {created} < ?",
}
"""The filters of a walk's games: one more condition, one parameter."""


@dataclass(frozen=True, slots=True)
class Narrow:
    """A filter that may keep few games of many: the ids of its games (a subquery), and
    the same filter as a condition on a game met on a walk; ``owned``: the ids of those
    of its games an API key made, by index (the key its last parameter), or ``""``: each
    game's key is probed."""

    ids: str
    condition: str
    params: list[Any]
    owned: str = ""

    def few_games(self, run: Run, most: int, key_id: int | None) -> list[str] | None:
        """The ids of its games (those API key ``key_id`` made, when not ``None``) when
        there are fewer than ``most``; ``None`` when there are more."""
        statement, params = f"{self.ids} LIMIT {int(most)}", self.params
        if key_id is not None and self.owned:
            statement, params = f"{self.owned} LIMIT {int(most)}", [*self.params, key_id]
        elif key_id is not None:
            statement = (
                f"SELECT n.game_id FROM ({self.ids}) AS n WHERE (SELECT o.key_id"
                f" FROM key_games o WHERE o.game_id = n.game_id) = ? LIMIT {int(most)}"
            )
            params = [*self.params, key_id]
        found = [row[0] for row in run(statement, params).fetchall()]
        return found if len(found) < most else None


CHANGED_SINCE = " AND g.updated || '' >= ?"
"""``since`` checked on a walk: an expression no index serves, so that no planner sorts
the games by their last change instead (``games_updated``) when there are many."""


def _narrow(run: Run, filters: GameFilter) -> list[Narrow]:
    """The narrow filters of ``filters`` (part of a name, ``since``)."""
    found: list[Narrow] = []
    words: Sequence[str] = filters.get("words") or ()
    if words:
        players, params = _players(run, words)
        games = MATCHING_GAMES.format(players)
        found.append(
            Narrow(
                games,
                " AND EXISTS (SELECT 1 FROM game_players s WHERE s.game_id = g.id"
                f" AND s.player_id IN ({players}))",
                params,
                f"{games} AND s.key_id = ?",
            )
        )
    since = filters.get("since")
    if since is not None:
        changed = "SELECT id AS game_id FROM games WHERE updated >= ?"
        found.append(Narrow(changed, CHANGED_SINCE, [since]))
    return found


def _players(run: Run, words: Sequence[str]) -> tuple[str, list[Any]]:
    """The players of a search by part of a name (:func:`~.finding.matching`), for a
    statement: their ids, found first, when at most :data:`LISTED` (so that the database
    plans for as many players as there are), else the subquery that finds them."""
    players, params = matching(words)
    found = [row[0] for row in run(f"{players} LIMIT {LISTED + 1}", params).fetchall()]
    if len(found) > LISTED:
        return players, params
    return _marks(found), found


def _marks(values: Sequence[Any]) -> str:
    """The placeholders of ``values`` in ``IN (...)`` (``NULL``, which nothing equals, for
    none)."""
    return ", ".join(["?"] * len(values)) or "NULL"


def page(
    run: Run,
    key_id: int | None,
    filters: GameFilter,
    after: tuple[str, str] | None,
    limit: int,
    few: int = FEW,
) -> list[Any]:
    """The rows of a page of at most ``limit`` games, newest first: an API key's
    (``key_id``) or every game, with ``filters``, after the game whose ``(created, id)``
    is ``after`` (run by ``run``, in one transaction); a narrow filter of fewer than
    ``few`` games makes the page from its own games."""
    player = filters.get("player_key")
    source = EVERY_GAME if key_id is None else KEY_GAMES
    params: list[Any] = [] if key_id is None else [key_id]
    statement = f"SELECT {COLUMNS} {source.where}"
    if player is not None:
        source = PLAYER_GAMES
        statement = f"SELECT {COLUMNS} {source.where}" + ("" if key_id is None else OWNED)
        params = [player, *params]
    sorted_here = False
    for narrow in _narrow(run, filters):
        found = None if player is not None else narrow.few_games(run, few, key_id)
        if found is None:
            statement += narrow.condition
            params += narrow.params
        else:  # the games found, named by id: no second search for them
            statement += f" AND g.id IN ({_marks(found)})"
            params += found
            sorted_here = True
    for name, condition in CONDITIONS.items():
        value = filters.get(name)
        if value is not None:
            statement += condition.format(created=source.created)
            params.append(value)
    if after is not None:
        statement += f" AND ({source.created}, {source.id}) < (?, ?)"
        params += after
    if sorted_here:  # the ids put in order (by no index: not walked), then their rows
        ids = statement.replace(f"SELECT {COLUMNS} ", "SELECT g.id ", 1)
        ids += f" ORDER BY {source.created} || '' DESC, {source.id} DESC LIMIT ?"
        statement = f"SELECT {COLUMNS} FROM games g WHERE g.id IN ({ids}){NEWEST_FIRST}"
    else:
        statement += f" ORDER BY {source.created} DESC, {source.id} DESC LIMIT ?"
    return list(run(statement, [*params, limit]).fetchall())
