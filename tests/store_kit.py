"""Helpers of the store tests: a quick hand input and a new stored game."""

from __future__ import annotations

from scorekeeper.store import games


def quick(knocker, k, d, **extra):
    return {"kind": "quick", "knocker": knocker, "knocker_deadwood": k,
            "defender_deadwood": d, **extra}


def new_game(store, **settings):
    settings.setdefault("players", ["Ana", "Ben"])
    sheet, token = games.create_game(store, **settings)
    return sheet["id"], token
