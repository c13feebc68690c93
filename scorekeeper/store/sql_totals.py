"""The players' running totals (:mod:`.totals`): their reads, and their change by each write
of a game (mixed into :class:`~.sql.SqlStore`)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from . import totals
from .base import Player, StoredGame
from .sql_part import SqlPart
from .totals import KeptRecord, Share

SELECT_TOTALS = f"SELECT {', '.join(totals.COUNTS)} FROM player_totals WHERE player_id = ?"
LINE_COLUMNS = f"name, {', '.join(totals.RIVAL_COUNTS)}"
SELECT_LINES = (
    f"SELECT {LINE_COLUMNS} FROM rival_totals WHERE player_id = ?"
    f" ORDER BY {', '.join(totals.FIRST)}"
)
"""A player's head-to-head lines in the order they first met."""
SELECT_ONE_LINE = f"SELECT {LINE_COLUMNS} FROM rival_totals WHERE player_id = ? AND rival = ?"


ADD_TO_PLAYER = (
    totals.INSERT_TOTALS
    + " ON CONFLICT (player_id) DO UPDATE SET "
    + ", ".join(f"{c} = player_totals.{c} + excluded.{c}" for c in totals.COUNTS)
)
"""Add to a player's totals (on PostgreSQL it locks their row until the commit: each write
of a game locks its players' rows in one order before it changes their rivals')."""
ADD_TO_LINE = (
    f"UPDATE rival_totals SET {', '.join(f'{c} = {c} + ?' for c in totals.RIVAL_COUNTS)}"
    " WHERE player_id = ? AND rival = ?"
)
"""Add to a head-to-head line's counts (where they first met unchanged)."""
SELECT_MOVED = f"SELECT player_id, rival, {', '.join(totals.LINE)} FROM rival_totals WHERE "
"""The head-to-head lines of some keys: followed by one ``(player_id = ? AND rival = ?)`` per
key, joined by ``OR``."""
MOVED_AT_ONCE = 200
"""The most lines :func:`_lines` reads in one statement (two parameters each)."""
UPDATE_LINE = (
    f"UPDATE rival_totals SET {', '.join(f'{c} = ?' for c in totals.LINE)}"
    " WHERE player_id = ? AND rival = ?"
)
DELETE_LINE = "DELETE FROM rival_totals WHERE player_id = ? AND rival = ?"
NEXT_GAMES = (
    "SELECT game_id FROM player_games WHERE player_id = ? AND (created, game_id) > (?, ?)"
    " ORDER BY created, game_id LIMIT 200"
)
"""A player's games after one, oldest first, a batch at a time."""


RunMany = Callable[[str, Sequence[Sequence[Any]]], None]
"""Run one statement (``?`` placeholders) once per row of parameters."""


def apply(
    run: totals.Run,
    many: RunMany,
    changes: Sequence[tuple[totals.Share | None, totals.Share]],
) -> None:
    """Change the totals by each game's share after a write less its share before it
    (``None``: a new game), in the write's transaction (:func:`.totals.difference`):
    the players' rows first, in the order of their ids, then their lines."""
    change = totals.difference(changes)
    many(ADD_TO_PLAYER, [[p, *change.players[p]] for p in sorted(change.players)])
    many(ADD_TO_LINE, [[*counts, *key] for key, counts in sorted(change.counts)])
    moved = sorted(change.moved, key=lambda moved: moved[0])
    lines, done = _lines(run, [key for key, *_ in moved]), set()
    for key, was_met, met, game in moved:  # a line moved twice is read again the second time
        row = _lines(run, [key]).get(key) if key in done else lines.get(key)
        _move(run, key, row, (was_met, met), game)
        done.add(key)


def _lines(run: totals.Run, keys: Sequence[totals.Key]) -> dict[totals.Key, Sequence[Any]]:
    """The stored head-to-head lines of ``keys`` (their :data:`~.totals.LINE` columns; a key
    without one is absent), read :data:`MOVED_AT_ONCE` at a time, not one by one."""
    found: dict[totals.Key, Sequence[Any]] = {}
    for at in range(0, len(keys), MOVED_AT_ONCE):
        some = keys[at : at + MOVED_AT_ONCE]
        where = " OR ".join(["(player_id = ? AND rival = ?)"] * len(some))
        for row in run(SELECT_MOVED + where, [value for key in some for value in key]):
            found[row[0], row[1]] = row[2:]
    return found


def _move(
    run: totals.Run,
    key: totals.Key,
    row: Sequence[Any] | None,
    meetings: tuple[totals.Meeting | None, totals.Meeting | None],
    game: totals.Facts,
) -> None:
    """Change a head-to-head line (``row``, as stored; None: none yet) by one game's meeting
    ``now`` less the one it ``was`` (``meetings``: was, now)."""
    was, now = meetings
    stored = list(row[5:]) if row is not None else [0] * len(totals.RIVAL_COUNTS)
    counts = [
        s + n - w
        for s, n, w in zip(
            stored,
            totals.numbers(now.counts if now else totals.RivalCounts()),
            totals.numbers(was.counts if was else totals.RivalCounts()),
            strict=True,
        )
    ]
    if not counts[0]:  # no game left where they met
        run(DELETE_LINE, key)
        return
    here = None if now is None else (now.name, game.created, game.id, *now.at)
    first = None if row is None else tuple(row[:5])
    if first is None or (here is not None and (first[2] == game.id or here[1:] < first[1:])):
        first = here
    elif first[2] == game.id:  # their first meeting is gone: the next one
        first = _next_meeting(run, key, game)
    assert first is not None  # a line with games has a first meeting
    run(totals.INSERT_LINE if row is None else UPDATE_LINE, [*first, *counts, *key])


def _next_meeting(run: totals.Run, key: totals.Key, game: totals.Facts) -> tuple[Any, ...]:
    """Where the player ``key`` names first met the rival in a game after ``game``."""
    after: Sequence[Any] = (game.created, game.id)
    while True:
        ids = [row[0] for row in run(NEXT_GAMES, [key[0], *after])]
        found = totals.shares(run, ids)
        for game_id in ids:
            met = found[game_id].rivals.get(key)
            if met is not None:
                facts = found[game_id].game
                return (met.name, facts.created, facts.id, *met.at)
        last = found[ids[-1]].game  # a line with games left has a later meeting
        after = (last.created, last.id)


@dataclass(frozen=True, slots=True)
class Before:
    """A game's share of its players' totals before a write, and its :class:`~.totals.Layout`
    (what the write leaves as it was)."""

    layout: totals.Layout
    share: Share


class PlayerTotals(SqlPart):
    """Reads of the running totals, and the hook every write of a game calls."""

    @abstractmethod
    def player(self, name: str) -> Player: ...

    def kept_record(self, name: str, rival: str | None = None) -> KeptRecord | None:
        """The kept record of player ``name`` (raises ``NotFound``) with every head-to-head
        line, or only the one of ``rival`` (a folded name) when given; ``None`` when the
        player has games the totals leave out (stored before the scored state was kept)."""
        player = self.player(name)
        with self._snapshot() as conn:
            row = self._run(conn, SELECT_TOTALS, (player.id,)).fetchone()
            counts = totals.Counts() if row is None else totals.Counts(*row)
            if counts.legacy:
                return None
            if rival is None:
                lines = self._run(conn, SELECT_LINES, (player.id,)).fetchall()
            else:
                lines = self._run(conn, SELECT_ONE_LINE, (player.id, rival)).fetchall()
        return KeptRecord(player, counts, [tuple(line) for line in lines])

    def _count(self, conn: Any, ids: Sequence[str]) -> None:
        """Add the new games ``ids`` (created, or a round's matches) to their players' totals,
        in the write's ``conn``: their shares as stored now (:func:`.totals.shares`)."""
        run = partial(self._run, conn)
        after = totals.shares(run, ids)
        apply(run, partial(self._run_many, conn), [(None, after[game_id]) for game_id in ids])

    def _count_new(self, conn: Any, game: StoredGame, hands: bool) -> None:
        """Add the game ``game``, just created (as its row reads in the write's ``conn``), to
        its players' totals: its facts taken from that row, not read again, and its hands read
        only when it was stored with some (``hands``)."""
        run = partial(self._run, conn)
        facts = {game.id: totals.facts_of(game)}
        after = totals.counted(run, facts, totals.layout(run, facts, 1), hands)
        apply(run, partial(self._run_many, conn), [(None, after[game.id])])

    def _before(self, conn: Any, game: StoredGame, start: int, kept: int | None) -> Before:
        """What a write of ``game`` replacing its hands from ``start`` on changes its players'
        totals from, read in the write's ``conn`` before it writes (``kept``: the hands the
        game has, if known; hands past them are not read, there are none)."""
        facts = {game.id: totals.facts_of(game)}
        run = partial(self._run, conn)
        layout = totals.layout(run, facts, 1 if facts[game.id].legacy else start)
        hands = kept is None or start <= kept
        return Before(layout, totals.counted(run, facts, layout, hands)[game.id])

    def _count_write(
        self,
        conn: Any,
        before: Before,
        over: bool,
        won_by: int | None,
        put: Sequence[Sequence[Any]],
    ) -> None:
        """Change the totals by what a write left of the game ``before`` holds (``over`` or
        not, won by side ``won_by``, its hands from the layout's start on the hand pairs
        ``put``: added up, not read back) less its share ``before``."""
        run = partial(self._run, conn)
        game = before.share.game._replace(over=over, won_by=won_by, legacy=False)
        after = totals.counted(run, {game.id: game}, before.layout, put=put)
        apply(run, partial(self._run_many, conn), [(before.share, after[game.id])])
