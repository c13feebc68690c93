"""The scored state kept with each game answers exactly as scoring its whole log would.

Many random adds, undos, corrections and repeated requests on both
backends; after every write its answer (hand record and sheet, whole or
``full=False``) and the stored summary are compared with the sheet scored
from scratch from the log (:func:`~scorekeeper.store.games.load_sheet`).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from conftest import fast_first
from store_kit import quick

from scorekeeper.errors import Conflict, RuleError
from scorekeeper.gamesheet import GameSheet
from scorekeeper.hands import evaluate_hand
from scorekeeper.sheet import score_sheet, summary
from scorekeeper.store import games
from scorekeeper.store.base import Summary
from scorekeeper.store.games import effective_hands, score_log

RULES = [
    None,
    {"scoring": "hollywood"},
    {"target": 250, "next_dealer": "alternate"},
    {"target": 60, "next_dealer": "loser"},
]


def random_hand(rng: random.Random, seats: tuple[int, ...] = (0, 1)) -> dict:
    """A random quick or void hand between ``seats`` (the knocker one of them)."""
    if rng.random() < 0.15:
        return {"kind": "void"}
    return quick(rng.choice(seats), rng.choice([0, 0, rng.randint(1, 10)]), rng.randint(0, 40))


def random_table_hand(
    rng: random.Random, players: int, dealer: int, games: list[dict] | None
) -> dict:
    """A random hand for a table of ``players``: ``dealer`` deals it, ``games`` its pairings."""
    if players == 4:
        if rng.random() < 0.1:
            return {"kind": "void"}
        return {"kind": "deal", "games": [random_hand(rng, tuple(g.players)) for g in games]}
    return random_hand(rng, tuple(p for p in range(players) if p != dealer or players == 2))


def scratch(store, game_id: str) -> GameSheet:
    """The sheet scored from the whole log (what every answer must equal)."""
    return games.load_sheet(store, game_id)


def without_hands(sheet: GameSheet) -> GameSheet:
    """The sheet as a minimal answer gives it."""
    return replace(sheet, scored=replace(sheet.scored, hands=()), hands=(), minimal=True)


def correction_refusal(store, game_id: str, n: int, hand: dict) -> str | None:
    """The code of the error scoring the log with hand ``n`` replaced gives (or None)."""
    game, log = store.game_and_log(game_id)
    hands = effective_hands(log)
    record = score_log(game, log).hands[n - 1].to_dict()
    entry = evaluate_hand(
        hand,
        game.rules,
        players=game.players,
        dealer=record["dealer"],
        games=record.get("games"),
    )
    entries = [h.entry for h in hands]
    entries[n - 1] = entry.to_dict()["entry"]
    try:
        score_sheet(
            entries,
            players=game.players,
            rules=game.rules,
            dealer=game.dealer,
            stake=game.stake,
        )
    except RuleError as error:
        return error.code
    return None


@pytest.mark.parametrize("seed", fast_first(range(3)))
def test_random_writes_answer_as_scoring_the_whole_log(store, seed):
    rng = random.Random(seed)
    answered: list[tuple] = []
    for rules in RULES:
        play_at_random(store, rng, seed, ["Ana", "Ben"], rules, 60, answered)


TABLES = [
    (["Ana", "Ben", "Cy"], {"target": 150}),
    (["Ana", "Ben", "Cy"], {"three_player_dealer": "rotate", "next_dealer": "loser"}),
    (["Ana", "Ben", "Cy", "Dan"], {"target": 250}),
    (["Ana", "Ben", "Cy", "Dan"], {"partnership_netting": "per_game", "target": 200}),
]


@pytest.mark.parametrize("seed", fast_first(range(2)))
def test_random_writes_at_tables_of_three_and_four(store, seed):
    rng = random.Random(seed)
    answered: list[tuple] = []
    for players, rules in TABLES:
        play_at_random(store, rng, seed, players, rules, 30, answered)


WRITES = {
    "add_hand": games.write_hand,
    "undo_last": games.write_undo,
    "correct_hand": games.write_correction,
}
"""Each typed write and the write whose answer :func:`typed` checks."""


def typed(op: str, *args, **options) -> games.Answer:
    """``games.<op>(*args, **options)``'s answer, through the write the JSON API calls: its
    JSON (built from the JSON the write holds) is the typed answer's ``to_dict()``, key for
    key in the same order (the same bytes served)."""
    written = WRITES[op](*args, **options)
    record, sheet, created = written.typed()
    hand = None if record is None else record.to_dict()
    hand_json, sheet_json, version = written.as_json(full=True)
    assert json.dumps(hand_json) == json.dumps(hand)
    assert json.dumps(sheet_json) == json.dumps(sheet.to_dict())
    assert version == sheet.version
    assert written.as_json(full=False) == (hand_json, None, version)
    return record, sheet, created


def play_at_random(
    store,
    rng: random.Random,
    seed: int,
    players: list[str],
    rules: dict | None,
    steps: int,
    answered: list[tuple],
) -> None:
    """``steps`` random writes to a new game, each answer compared with scoring from scratch.

    ``answered`` collects (op, args, options, first answer) of keyed writes to repeat.
    """
    sheet, _ = games.create_game(
        store,
        players,
        rules=rules,
        dealer=rng.randrange(len(players)),
        stake=rng.choice([None, 0.5]),
    )
    game_id = sheet.id
    assert store.game(game_id).scored == Summary(summary(score_log(store.game(game_id), []), 0))
    before = scratch(store, game_id)  # then each step's ``after``: the sheet as the log stands
    for step in range(steps):
        full = rng.random() < 0.5
        options = {"full": full}
        if rng.random() < 0.3:
            options["idempotency_key"] = f"{seed}-{game_id}-{step}"
        roll = rng.random()
        if roll < 0.1 and answered:  # a repeated request: its first answer again
            op, args, first_options, first = rng.choice(answered)
            again = typed(op, store, *args, **first_options)
            assert again[0] == first[0] and again[1] == first[1] and again[2] is False
            now = scratch(store, game_id)
            assert now.version == before.version
            before = now
            continue
        if roll < 0.55 or not before.hands:
            op, args = (
                "add_hand",
                (
                    game_id,
                    random_table_hand(
                        rng,
                        len(players),
                        before.next_dealer,
                        getattr(before.scored, "next_games", None),
                    ),
                ),
            )
        elif roll < 0.75:
            op, args = "undo_last", (game_id,)
        else:
            n = rng.randint(1, len(before.hands))
            hand = before.hands[n - 1]
            op, args = (
                "correct_hand",
                (
                    game_id,
                    n,
                    random_table_hand(
                        rng, len(players), hand.dealer, getattr(hand.record, "games", None)
                    ),
                ),
            )
        try:
            record, sheet, created = typed(op, store, *args, **options)
        except Conflict as refused:
            after = scratch(store, game_id)
            assert after == before  # nothing written
            if op == "add_hand":
                assert refused.code == "game_over" and before.over
            elif refused.code in ("game_over", "dealer_sits_out"):
                assert correction_refusal(store, *args) == refused.code
            else:
                assert refused.code == "dealer_rotation"
            continue
        after = scratch(store, game_id)
        assert created is True and after.version == before.version + 1
        assert sheet == (after if full else without_hands(after))
        if op == "undo_last":
            assert record == before.hands[-1]
        else:
            n = args[1] if op == "correct_hand" else len(after.hands)
            assert record == after.hands[n - 1]
        game = store.game(game_id)
        assert game.scored == Summary(
            summary(score_log(game, store.log(game_id)), len(after.hands))
        )
        if "idempotency_key" in options:
            answered.append((op, args, options, (record, sheet if full else after)))
        before = after


def test_a_game_stored_before_the_scored_state_is_scored_once_by_its_next_write(store, backend):
    """A game whose ``scored`` is missing (as migration 4 leaves an old game): the next write
    scores its log and stores every row; answers are as from scratch from then on."""
    sheet, _ = games.create_game(store, ["Ana", "Ben"], rules={"target": 250})
    game_id = sheet.id
    for knocker in (0, 1, 0, 1):
        games.add_hand(store, game_id, quick(knocker, 3, 20))
    backend.sql("UPDATE games SET scored = NULL WHERE id = ?", (game_id,))
    backend.sql("DELETE FROM sheet_hands WHERE game_id = ?", (game_id,))
    assert store.game(game_id).scored is None and store.game(game_id).version == 4
    record, sheet, _ = games.correct_hand(store, game_id, 2, quick(0, 0, 30))
    assert sheet == scratch(store, game_id) and record == sheet.hands[1]
    _, sheet, _ = games.undo_last(store, game_id)
    assert sheet == scratch(store, game_id)
    _, sheet, _ = games.add_hand(store, game_id, quick(1, 2, 9))
    assert sheet == scratch(store, game_id) and len(sheet.hands) == 4


def test_import_is_linear_and_answers_as_from_scratch(store):
    """An imported game stores its rows: the first write after it scores nothing again."""
    rng = random.Random(7)
    hands = []
    while len(hands) < 300:
        hands.append(random_hand(rng) if rng.random() < 0.5 else {"kind": "void"})
    record = {"players": ["Ana", "Ben"], "rules": {"target": 10000}, "hands": hands}
    sheet, _ = games.import_game(store, record)
    assert sheet == scratch(store, sheet.id) and len(sheet.hands) == 300
    game = store.game(sheet.id)
    assert game.scored.count == 300 and game.version == 300
    _, after, _ = games.correct_hand(store, sheet.id, 150, {"kind": "void"})
    assert after == scratch(store, sheet.id)
