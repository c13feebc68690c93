"""Helpers of the store tests: a quick hand input and a new stored game.

And two games of RULES.md section 8 to play through the store or the API:
:data:`THREE_PLAYERS` (``ABC``, first dealer Ana) and :data:`PARTNERSHIP`
(``ABCD``, first dealer Ben), with the figures worked out by hand.
"""

from __future__ import annotations

import sqlite_utils

from scorekeeper.store import games, sqlite_migrations


def quick(knocker, k, d, **extra):
    return {
        "kind": "quick",
        "knocker": knocker,
        "knocker_deadwood": k,
        "defender_deadwood": d,
        **extra,
    }


def schema_file(path, version):
    """A closed SQLite file at ``path`` as schema ``version`` left it (the migrations up to
    it): a store that opens it migrates it on."""
    db = sqlite_utils.Database(path)
    for migration in sqlite_migrations.MIGRATIONS[:version]:
        migration(db)
    db.execute(f"PRAGMA user_version = {version}")
    db.conn.commit()
    db.conn.close()
    return path


def new_game(store, **settings):
    settings.setdefault("players", ["Ana", "Ben"])
    sheet, token = games.create_game(store, **settings)
    return sheet.id, token


VOID = {"kind": "void"}


def deal(first, second):
    """A four-player deal: the hands of its two games."""
    return {"kind": "deal", "games": [first, second]}


ABC = ["Ana", "Ben", "Cy"]

THREE_PLAYERS = [
    quick(1, 9, 5),  # Ana deals, sits out; Ben knocks 9, Cy undercuts: 4 + 25 = 29
    quick(0, 0, 30),  # Ben (the loser) deals; Ana gins against Cy: 30 + 25 = 55
    VOID,  # Cy (the loser) deals; void: Cy deals again
    quick(1, 0, 40),  # Cy deals; Ben gins against Ana: 65
    quick(2, 2, 12),  # Ana (the loser) deals; Cy knocks against Ben: 10, Cy 39
    quick(0, 3, 49),  # Ben deals; Ana knocks against Cy: 46, Ana 101: game
]
"""Totals (101, 65, 39), boxes (2, 1, 2); finals Ana 101 + 2 x 25 + 100 = 251,
Ben 65 + 25 = 90, Cy 39 + 2 x 25 = 89: Ben pays Ana 161, Cy 162."""

ABCD = ["Ana", "Ben", "Cy", "Dan"]  # teams Ana + Cy (0) and Ben + Dan (1)

PARTNERSHIP = [
    deal(quick(0, 5, 25), quick(3, 0, 10)),  # 0-1: Ana 20; 2-3: Dan gin 35 -> (20, 35)
    deal(quick(3, 9, 4), VOID),  # 0-3: Dan knocks 9, Ana undercuts 30 -> (30, 0)
    VOID,  # both games void
    deal(quick(0, 0, 50), quick(1, 2, 12)),  # 0-3: Ana gin 75; 2-1: Ben 10 -> (75, 10)
    deal(quick(1, 3, 6), quick(2, 1, 9)),  # 0-1: Ben 3; 2-3: Cy 8 -> (8, 3)
]
"""Per deal (standard): team 1 + 15, team 0 + 30, nothing, team 0 + 65, team 0 + 5: totals
(100, 15), boxes (3, 1); finals 100 + 75 + 100 = 275 and 15 + 25 = 40, net 235."""
