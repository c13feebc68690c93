"""Finished games and club nights with big numbers, stored straight into a SQLite file for the
360 px phone tests (issue 27): a two-player game of 12 hands whose finals run to four digits,
a three-player game, a Hollywood match, and a round robin and a Swiss of five players (each
round someone has a bye), every match played to its end."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from event_kit import seats_to_win
from store_kit import quick

from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import events, games
from scorekeeper.store.sqlite import Storage

TWO = ("Ana", "Borislava Kovačević-Novak")
THREE = ("Ana", "Bor", "Cvetka Zupančič")
HOLLYWOOD = ("Anastazija", "Bor")
NIGHT = ("Ana", "Bor", "Cvetka", "Dušan", "Eva")

SMALL_KNOCK = (1, 10)
"""A knock worth 9 (deadwood 1 against 10): many hands, each a box."""


def _add(store: Storage, game_id: str, knockers: Sequence[int], hand: tuple[int, int]) -> None:
    """Add the hand (knocker's and defender's deadwood) for the first of ``knockers`` who
    plays it (three players: the dealer sits out)."""
    for knocker in knockers:
        try:
            games.add_hand(store, game_id, quick(knocker, *hand))
            return
        except ScorekeeperError:
            continue
    raise AssertionError(f"no player of {knockers} could knock in {game_id}")


def _over(store: Storage, game_id: str) -> bool:
    return store.game(game_id).status.value == "over"


def _play(store: Storage, game_id: str, knockers: Sequence[int], hands: Iterator[tuple[int, int]]):
    while not _over(store, game_id):
        _add(store, game_id, knockers, next(hands))


def _small_then_gin() -> Iterator[tuple[int, int]]:
    """Eleven small knocks (hand numbers past 10), then gins against 60 to the end."""
    yield from [SMALL_KNOCK] * 11
    while True:
        yield (0, 60)


def seed(db: str) -> dict[str, Any]:
    """Store the games and the two club nights: ``{"two", "three", "hollywood"}`` game ids
    and ``{"round_robin", "swiss"}`` event ids."""
    store = Storage(db, durable=False)
    try:
        ids: dict[str, Any] = {}
        for key, players, rules in (
            ("two", TWO, None),
            ("three", THREE, None),
            ("hollywood", HOLLYWOOD, {"scoring": "hollywood"}),
        ):
            sheet, _ = games.create_game(store, list(players), rules=rules)
            _play(store, sheet.id, [0, 1, 2], _small_then_gin())
            ids[key] = sheet.id
        for key, fmt, rounds in (("round_robin", "round_robin", None), ("swiss", "swiss", 3)):
            event, _ = events.create_event(store, f"Club night {key}", list(NIGHT), fmt, rounds)
            ids[key] = event.id
            _play_event(store, event.id)
        return ids
    finally:
        store.close()


def _play_event(store: Storage, event_id: str) -> None:
    """Pair and play every round: the first seat wins by a margin that grows table by table."""
    margin = 0
    while True:
        try:
            matches = events.pair_round(store, event_id).matches
        except ScorekeeperError:
            return  # the event is over
        for match in matches:
            margin = (margin + 7) % 50
            hands = iter([(knocker, k, d) for knocker, k, d in seats_to_win(0, margin, 2)])
            while not _over(store, match.game_id):
                knocker, k, d = next(hands)
                games.add_hand(store, match.game_id, quick(knocker, k, d))
